//! Variable scopes and the numeric match variables.
//!
//! Puppet has a top scope, local scopes for function and lambda bodies (a
//! lambda sees its enclosing scope, a function only the top scope), and
//! "ephemeral" levels holding `$0..$n`: an `if`, `unless`, `case` or
//! selector opens one for its duration, and a successful regexp match sets the
//! innermost one. A failed match leaves the variables as they were.

use std::collections::HashMap;

use crate::model::Value;

#[derive(Debug, Default)]
struct Frame {
    vars: HashMap<String, Value>,
    parent: Option<usize>,
    /// Ephemeral levels, innermost last; `None` = nothing matched at that level.
    matches: Vec<Option<Vec<Option<String>>>>,
}

/// The scope stack of an evaluation.
#[derive(Debug)]
pub struct Scopes {
    frames: Vec<Frame>,
    current: usize,
}

impl Default for Scopes {
    fn default() -> Self {
        Scopes::new()
    }
}

/// What a variable lookup found.
#[derive(Debug, Clone)]
pub enum Lookup {
    /// A bound variable.
    Found(Value),
    /// Not bound anywhere visible.
    Missing,
}

impl Scopes {
    /// Only the top scope.
    pub fn new() -> Self {
        Scopes {
            frames: vec![Frame {
                matches: vec![None],
                ..Frame::default()
            }],
            current: 0,
        }
    }

    /// Opens a local scope whose parent is the current one (`lambda`) or the
    /// top scope (`function`); returns a token for [`Scopes::pop`].
    pub fn push(&mut self, sees_enclosing: bool) -> usize {
        let parent = if sees_enclosing { self.current } else { 0 };
        self.frames.push(Frame {
            vars: HashMap::new(),
            parent: Some(parent),
            matches: vec![None],
        });
        let saved = self.current;
        self.current = self.frames.len() - 1;
        saved
    }

    /// Closes the innermost local scope.
    pub fn pop(&mut self, saved: usize) {
        self.frames.truncate(self.current.max(1));
        self.current = saved;
    }

    /// Opens an ephemeral match level in the current scope.
    pub fn push_ephemeral(&mut self) {
        self.frames[self.current].matches.push(None);
    }

    /// Closes the innermost ephemeral level.
    pub fn pop_ephemeral(&mut self) {
        let m = &mut self.frames[self.current].matches;
        if m.len() > 1 {
            m.pop();
        }
    }

    /// Records a successful match in the innermost ephemeral level.
    pub fn set_matches(&mut self, groups: Vec<Option<String>>) {
        if let Some(level) = self.frames[self.current].matches.last_mut() {
            *level = Some(groups);
        }
    }

    /// The value of `$n`.
    pub fn match_var(&self, n: usize) -> Value {
        let mut f = Some(self.current);
        while let Some(i) = f {
            if let Some(groups) = self.frames[i].matches.iter().rev().flatten().next() {
                return match groups.get(n) {
                    Some(Some(s)) => Value::String(s.clone()),
                    _ => Value::Undef,
                };
            }
            f = self.frames[i].parent;
        }
        Value::Undef
    }

    /// Looks up a variable by name (`::x` means the top scope's `x`).
    pub fn get(&self, name: &str) -> Lookup {
        if let Some(top) = name.strip_prefix("::") {
            return match self.frames[0].vars.get(top) {
                Some(v) => Lookup::Found(v.clone()),
                None => Lookup::Missing,
            };
        }
        let mut f = Some(self.current);
        while let Some(i) = f {
            if let Some(v) = self.frames[i].vars.get(name) {
                return Lookup::Found(v.clone());
            }
            f = self.frames[i].parent;
        }
        Lookup::Missing
    }

    /// True when the current scope already binds `name`.
    pub fn is_local(&self, name: &str) -> bool {
        self.frames[self.current].vars.contains_key(name)
    }

    /// Binds `name` in the top scope (what `$::name` reads).
    pub fn set_top(&mut self, name: &str, value: Value) {
        self.frames[0].vars.insert(name.to_string(), value);
    }

    /// Forgets every top-scope variable.
    pub fn clear_top(&mut self) {
        self.frames[0].vars.clear();
    }

    /// Binds `name` in the current scope.
    pub fn set(&mut self, name: &str, value: Value) {
        self.frames[self.current]
            .vars
            .insert(name.to_string(), value);
    }
}
