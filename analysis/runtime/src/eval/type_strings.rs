//! The built-in tables' type strings (`Variant[String, Array[String]]`)
//! read as [`Type`]s, and the typed accessors of the tables built on them.
//!
//! The generator writes types exactly as Puppet prints them, so the
//! evaluator reads them back: one parser for user code and for built-ins.
//! The tables ([`crate::builtins`]) are plain data below the evaluator,
//! which consults them, so the accessors that read their types live here,
//! as methods of the tables' own types; each result is kept in the cell the
//! table holds for it. Names the evaluator does not know (Puppet-internal
//! object types such as `Puppet::LookupContext`) become
//! [`Type::TypeReference`].

use super::{Evaluator, Limits};
use crate::builtins::facts::ALWAYS_RESOLVED;
use crate::builtins::{Attribute, Builtins, Fact, Facts, Function, Param, Signature};
use crate::model::{CallableType, EnumType, IntRange, StructElement, Type, Value};

/// The type a type string denotes; never fails.
pub fn parse_type(text: &str) -> Type {
    let text = text.trim();
    if let Some(t) = Type::from_name(text) {
        return t;
    }
    let limits = Limits {
        max_steps: 10_000,
        max_depth: 64,
        max_collection: 1_000,
    };
    match Evaluator::new(limits).eval_source(text).value {
        Some(Value::Type(t)) => t,
        _ => Type::TypeReference(text.to_string()),
    }
}

impl Param {
    /// The parameter type.
    pub fn ty(&self) -> &Type {
        self.ty.get_or_init(|| parse_type(&self.type_text))
    }
}

impl Signature {
    /// The return type (`Any` when undeclared).
    pub fn return_type(&self) -> Type {
        self.return_type_text
            .as_deref()
            .map_or(Type::Any, parse_type)
    }

    /// The signature as a `Callable` type: parameter types in a `Tuple` with
    /// the argument count range, the block type, and the return type.
    pub fn callable(&self) -> &Type {
        self.callable.get_or_init(|| {
            let size = IntRange::new(Some(self.min_args as i64), self.max_args.map(|m| m as i64));
            let block = self.block.as_ref().map(|b| {
                let t = parse_type(&b.type_text);
                Box::new(if b.optional { Type::optional(t) } else { t })
            });
            Type::Callable(CallableType {
                params: Some(Box::new(Type::Tuple(
                    self.params.iter().map(|p| p.ty().clone()).collect(),
                    Some(size),
                ))),
                block,
                return_type: self
                    .return_type_text
                    .as_deref()
                    .map(|t| Box::new(parse_type(t))),
            })
        })
    }
}

impl Function {
    /// The function's type: its single signature's `Callable`, or a
    /// `Variant` of them for multi-dispatch functions.
    pub fn callable_type(&self) -> Type {
        match self.signatures.as_slice() {
            [one] => one.callable().clone(),
            many => Type::Variant(many.iter().map(|s| s.callable().clone()).collect()),
        }
    }
}

impl Attribute {
    /// The value type, where knowable: the table's type, else an `Enum` of
    /// the literal words (plus `Boolean` when `true`/`false` are among them,
    /// and `Pattern` for regexps). `None` means any value.
    pub fn value_type(&self) -> Option<&Type> {
        self.value_type
            .get_or_init(|| {
                if let Some(t) = &self.value_type_text {
                    return Some(parse_type(t));
                }
                if !self.is_restricted() {
                    return None;
                }
                let words: Vec<String> = self.value_words().map(str::to_string).collect();
                let mut variants = Vec::new();
                if words.iter().any(|w| w == "true") && words.iter().any(|w| w == "false") {
                    variants.push(Type::boolean());
                }
                if !words.is_empty() {
                    variants.push(Type::Enum(EnumType::new(words, false)));
                }
                if !self.regexes.is_empty() {
                    variants.push(Type::Pattern(self.regexes.clone()));
                }
                Some(if variants.len() == 1 {
                    variants.remove(0)
                } else {
                    Type::Variant(variants)
                })
            })
            .as_ref()
    }
}

impl Facts {
    /// The type of the fact at `path`: scalars as in the table; structured
    /// facts as a `Struct` of their known members (each `Optional`, since
    /// members vary by platform) or a `Hash[String, T]` for keyed maps
    /// (`networking.interfaces`). Below a known fact with no known members
    /// the type is `Any`. `None` when the path is not a known fact.
    ///
    /// A fact Facter may not report everywhere (`os.selinux` off Linux
    /// distributions that have it, `lsbdistcodename` without `lsb_release`,
    /// `ec2_metadata` off EC2, `networking.ip` without a network) is
    /// `Optional`: only [`ALWAYS_RESOLVED`] facts are certain.
    pub fn type_of(&self, path: &str) -> Option<Type> {
        if let Some(f) = self.get(path) {
            let t = self.type_of_entry(f, 0);
            return Some(if ALWAYS_RESOLVED.contains(&path) {
                t
            } else {
                Type::optional(t)
            });
        }
        // `hypervisors.docker.foo`: inside a fact whose members are not listed.
        let mut parent = path;
        while let Some((p, _)) = parent.rsplit_once('.') {
            parent = p;
            if let Some(f) = self.get(parent) {
                return (f.type_text == "Hash" && self.children(&f.path).next().is_none())
                    .then_some(Type::Any);
            }
        }
        None
    }

    fn type_of_entry(&self, fact: &Fact, depth: usize) -> Type {
        match self.entry_type_cell(fact) {
            Some(cell) if depth == 0 => cell.get_or_init(|| self.build_entry_type(fact, 0)).clone(),
            _ => self.build_entry_type(fact, depth),
        }
    }

    fn build_entry_type(&self, fact: &Fact, depth: usize) -> Type {
        let base = parse_type(&fact.type_text);
        if fact.type_text != "Hash" || depth > 8 {
            return base;
        }
        let children: Vec<&Fact> = self.children(&fact.path).collect();
        if children.is_empty() {
            return Type::hash_of(Type::string(), Type::Any);
        }
        if let [keyed] = children.as_slice() {
            if keyed.path.ends_with('>') {
                return Type::hash_of(Type::string(), self.type_of_entry(keyed, depth + 1));
            }
        }
        Type::Struct(
            children
                .iter()
                .filter(|c| !c.path.ends_with('>'))
                .map(|c| StructElement {
                    key: Type::optional(Type::string_value(
                        c.path.rsplit('.').next().unwrap_or(&c.path),
                    )),
                    value: self.type_of_entry(c, depth + 1),
                })
                .collect(),
        )
    }
}

impl Builtins {
    /// The value type of an attribute, where knowable.
    pub fn attribute_value_type(&self, type_name: &str, name: &str) -> Option<&Type> {
        self.attribute(type_name, name)?.value_type()
    }

    /// The type of the fact at a dotted path (`os.family` -> `String`).
    pub fn fact_type(&self, path: &str) -> Option<Type> {
        self.facts.type_of(path)
    }

    /// The type of `$facts[k1][k2]...` given the keys.
    pub fn fact_type_by_keys(&self, keys: &[&str]) -> Option<Type> {
        if keys.iter().any(|k| k.contains('.')) {
            return None;
        }
        self.fact_type(&keys.join("."))
    }
}
