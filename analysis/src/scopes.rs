//! Name resolution for variables: which definition every `$x` of a file
//! refers to, under Puppet's scope rules.
//!
//! Puppet's scopes (spec: names.md, parameter_scope.md, checked against
//! Puppet 7.23):
//! - one **top scope**, shared by every manifest (site.pp and friends);
//! - a **class** scope per class, seeing its own parameters and variables,
//!   those of the classes it inherits, then the node and top scopes (never
//!   the scope that included it);
//! - a **define** scope (private), then node and top scope;
//! - a **node** scope, seen by the classes declared in the node;
//! - a **function** (and plan) scope: its parameters and assignments, then
//!   the top scope (never the caller's, nor any class's variables);
//! - a **lambda** scope, which extends the scope it is written in: its
//!   parameters shadow, its assignments are local to it;
//! - an **EPP template** rendered by `epp()` sees its parameters, its own
//!   assignments and the top scope only.
//!
//! Within a scope an assignment is visible only after it (flow order), and
//! variables are immutable: assigning a name twice in one scope fails at
//! runtime ("Cannot reassign variable"), unless the two assignments are in
//! branches that exclude each other (`if`/`else`, case options, selector
//! entries). Match variables (`$0`, `$1`...) always exist.
//!
//! Everything that can reach other files goes through position-free
//! queries ([`file_variables`], [`workspace_globals`]), so an edit inside
//! one file does not re-resolve the others unless what it publishes (class
//! variables, top-scope variables) changes.

use crate::db::{parse, SourceFile, Workspace};
use crate::index::{index_key, lookup, Namespace};
use puppet_syntax::ast::{self, AstNode, Expr};
use puppet_syntax::{SourceKind, SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Variables every scope has (set by the compiler or the agent).
pub const BUILTIN_VARIABLES: &[&str] = &[
    "facts",
    "trusted",
    "settings",
    "server_facts",
    "title",
    "name",
    "module_name",
    "caller_module_name",
    "environment",
    "serverversion",
    "servername",
    "serverip",
    "clientcert",
    "clientversion",
    "clientnoop",
    "agent_specified_environment",
];

/// Variables that can never be assigned (Puppet: "Attempt to assign to a
/// reserved variable name").
const RESERVED_VARIABLES: &[&str] = &["facts", "trusted", "server_facts"];

/// Variables the compiler sets in top, class and define scopes, so that
/// assigning them there fails ("Cannot reassign built in variable").
const PRESET_VARIABLES: &[&str] = &["title", "name", "module_name", "caller_module_name"];

/// What introduces a scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScopeKind {
    /// The top scope part of a manifest.
    Top,
    /// An EPP template (its parameters and body).
    Template,
    Class,
    Define,
    Node,
    Function,
    Plan,
    Lambda,
    /// A Bolt `apply` block: like a lambda, it sees the enclosing scope.
    Apply,
}

impl ScopeKind {
    /// Lambdas and apply blocks extend the scope they are written in;
    /// every other scope starts afresh (on top of node and top scope).
    pub fn extends_enclosing(self) -> bool {
        matches!(self, ScopeKind::Lambda | ScopeKind::Apply)
    }
}

/// One scope of the file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Scope {
    pub kind: ScopeKind,
    /// The whole construct (class, lambda...) or the file.
    pub range: TextRange,
    /// The enclosing scope in the text (even for scopes that do not see it).
    pub parent: Option<usize>,
    /// The qualified, lower-cased name of a class or define.
    pub name: Option<String>,
    /// The scope (or a lambda in it) calls something that reads variables
    /// by name at runtime (`template()`, `inline_epp()`, `getvar()`...), so
    /// no variable of it can be called unused.
    pub dynamic_reads: bool,
}

/// What defines a variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VariableDefKind {
    ClassParam,
    DefineParam,
    FunctionParam,
    PlanParam,
    LambdaParam,
    TemplateParam,
    Assignment,
}

impl VariableDefKind {
    pub fn is_param(self) -> bool {
        self != VariableDefKind::Assignment
    }
}

/// A variable definition in the file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VariableDef {
    /// Without `$`.
    pub name: String,
    /// The variable token of the parameter or assignment target.
    pub range: TextRange,
    pub kind: VariableDefKind,
    /// Index into [`Resolution::scopes`].
    pub scope: usize,
    /// Some reference of the file resolves to it.
    pub used: bool,
}

/// What a reference resolves to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    /// Definitions of this file (indices into [`Resolution::definitions`]);
    /// more than one when exclusive branches each assign it.
    Local(Vec<usize>),
    /// A parameter or variable of a class this one inherits (found by name
    /// through the workspace index).
    Inherited {
        class: String,
    },
    /// `$class::name` of a class of the workspace that has it (itself or
    /// through its parents).
    Qualified {
        class: String,
    },
    /// `$class::name` of a class that is not in the workspace (or whose
    /// parents are not): nothing can be said.
    ExternalQualified,
    /// `$class::name` of a workspace class that has no such variable.
    UnknownQualified {
        class: String,
    },
    /// `$::name`: an explicit top-scope reference (facts, ENC parameters,
    /// site.pp variables): always accepted.
    TopScope,
    /// A variable assigned at top or node scope somewhere in the workspace.
    Global,
    /// A variable every scope has (`$facts`, `$title`...).
    BuiltIn,
    /// A legacy top-scope fact (`$osfamily`).
    Fact,
    /// `$0`, `$1`...: never unknown (undef without a match).
    MatchVariable,
    /// The enclosing class inherits a class that is not in the workspace,
    /// which may define it.
    MaybeInherited,
    /// In an EPP template without a parameter header, which gets every
    /// key of the hash passed to `epp()` as a variable.
    TemplateArgument,
    Unknown,
}

/// A variable reference: `$x`, `"$x"`, `"${x}"`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VariableRef {
    /// As written, without `$` (`::x` keeps its `::`).
    pub name: String,
    /// The variable token.
    pub range: TextRange,
    /// Index into [`Resolution::scopes`].
    pub scope: usize,
    pub target: Target,
}

/// An assignment that fails at runtime because the name is already bound
/// in the same scope.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Reassignment {
    pub name: String,
    /// The variable token of the second assignment.
    pub range: TextRange,
    /// The earlier definition in this file; `None` for a variable the
    /// compiler sets (`$title`) or reserves (`$facts`).
    pub previous: Option<TextRange>,
    /// When Puppet fails here.
    pub fails: Failure,
}

/// When a second assignment fails at runtime.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Failure {
    /// Whenever it runs: the earlier one is in the same or an enclosing
    /// arm (or the variable is set by Puppet).
    Always,
    /// For the inputs that meet both assignments' conditions, which are
    /// decided by different parameters and so can both hold.
    WhenBothConditionsHold,
    /// Only if both conditions can hold at once, which is not known
    /// (`case` on a value and a later `if` on the same value may exclude
    /// each other).
    Unproven,
}

/// The variables of one file: scopes, definitions, references resolved.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Resolution {
    pub scopes: Vec<Scope>,
    pub definitions: Vec<VariableDef>,
    /// In text order.
    pub references: Vec<VariableRef>,
    pub reassignments: Vec<Reassignment>,
}

impl Resolution {
    /// The reference whose token contains `offset`.
    pub fn reference_at(&self, offset: TextSize) -> Option<&VariableRef> {
        self.references
            .iter()
            .find(|r| r.range.contains_inclusive(offset))
    }

    /// The innermost scope whose construct contains `offset`.
    pub fn scope_at(&self, offset: TextSize) -> Option<usize> {
        self.scopes
            .iter()
            .enumerate()
            .filter(|(_, s)| s.range.contains_inclusive(offset))
            .min_by_key(|(_, s)| s.range.len())
            .map(|(i, _)| i)
    }

    /// The local definitions visible at `offset` (for completion), nearest
    /// scope first, one per name: those of the innermost scope and of the
    /// scopes it extends (lambdas see their enclosing scope), defined
    /// before `offset`. Also returns the scope where the walk stopped (a
    /// class, define... or the file's top scope), whose inherited, global
    /// and built-in variables the caller adds. Branches are not considered:
    /// a variable of an `else` arm is offered in the `if` arm after it.
    pub fn visible_at(&self, offset: TextSize) -> (Vec<&VariableDef>, Option<&Scope>) {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        let mut current = self.scope_at(offset);
        let mut terminal = None;
        while let Some(index) = current {
            let Some(scope) = self.scopes.get(index) else {
                break;
            };
            for def in self.definitions.iter().filter(|d| d.scope == index) {
                if def.range.end() <= offset
                    && !def.range.contains_inclusive(offset)
                    && seen.insert(def.name.as_str())
                {
                    out.push(def);
                }
            }
            terminal = Some(scope);
            if !scope.kind.extends_enclosing() {
                break;
            }
            current = scope.parent;
        }
        (out, terminal)
    }

    /// The definition whose token contains `offset`.
    pub fn definition_at(&self, offset: TextSize) -> Option<(usize, &VariableDef)> {
        self.definitions
            .iter()
            .enumerate()
            .find(|(_, d)| d.range.contains_inclusive(offset))
    }

    /// The definition ranges in this file a reference resolves to.
    pub fn definition_ranges(&self, reference: &VariableRef) -> Vec<TextRange> {
        match &reference.target {
            Target::Local(defs) => defs
                .iter()
                .filter_map(|&d| self.definitions.get(d).map(|d| d.range))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Every reference resolving to definition `def`.
    pub fn references_to(&self, def: usize) -> impl Iterator<Item = &VariableRef> {
        self.references
            .iter()
            .filter(move |r| matches!(&r.target, Target::Local(defs) if defs.contains(&def)))
    }

    /// Reference ranges with the (first) definition each resolves to in
    /// this file, for simple navigation.
    pub fn reference_pairs(&self) -> Vec<(TextRange, Option<TextRange>)> {
        self.references
            .iter()
            .map(|r| (r.range, self.definition_ranges(r).first().copied()))
            .collect()
    }
}

// ----- position-free facts other files need ---------------------------

/// What a file publishes about variables, without positions, so that
/// edits that do not change it stop here.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct FileVariables {
    /// Variables assigned at top scope or node scope (manifests only:
    /// a template's assignments are its own).
    pub globals: BTreeSet<String>,
    /// Each class's parameters and class-scope variables, by the class's
    /// qualified lower-cased name.
    pub classes: BTreeMap<String, BTreeSet<String>>,
}

#[salsa::tracked(returns(ref))]
pub fn file_variables(db: &dyn salsa::Database, file: SourceFile) -> FileVariables {
    let root = parse(db, file).syntax_node();
    let mut out = FileVariables::default();
    if *file.kind(db) == SourceKind::Manifest {
        for token in scope_assignments(&root) {
            out.globals.insert(variable_name(&token));
        }
        for node in root.descendants().filter_map(ast::NodeDef::cast) {
            if let Some(body) = node.body() {
                for token in scope_assignments(body.syntax()) {
                    out.globals.insert(variable_name(&token));
                }
            }
        }
    }
    for class in root.descendants().filter_map(ast::ClassDef::cast) {
        let Some(name) = class.name() else { continue };
        let mut vars = BTreeSet::new();
        for param in class.params().iter().flat_map(|p| p.params()) {
            if let Some(name) = param.name() {
                vars.insert(name);
            }
        }
        if let Some(body) = class.body() {
            for token in scope_assignments(body.syntax()) {
                vars.insert(variable_name(&token));
            }
        }
        out.classes
            .entry(qualified_name(class.syntax(), &name))
            .or_default()
            .extend(vars);
    }
    out
}

/// Top- and node-scope variables of the whole workspace, with the files
/// assigning them.
#[salsa::tracked(returns(ref))]
pub fn workspace_globals(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> BTreeMap<String, Vec<SourceFile>> {
    let mut out: BTreeMap<String, Vec<SourceFile>> = BTreeMap::new();
    for &file in workspace.files(db) {
        for name in &file_variables(db, file).globals {
            out.entry(name.clone()).or_default().push(file);
        }
    }
    out
}

/// A class's variables and those of the classes it inherits.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClassChain {
    /// (qualified class name, its parameters and variables), nearest first.
    pub classes: Vec<(String, BTreeSet<String>)>,
    /// Every class of the chain is in the workspace (otherwise an ancestor
    /// outside it may define more).
    pub complete: bool,
}

/// The variables of a class and of the classes it inherits, found through
/// the workspace index. `None` if the class itself is not in the workspace.
pub fn class_variable_chain(
    db: &dyn salsa::Database,
    workspace: Workspace,
    class: &str,
) -> Option<ClassChain> {
    let mut chain = Vec::new();
    let mut seen = BTreeSet::new();
    let mut current = index_key(class);
    loop {
        let found = lookup(db, workspace, Namespace::Class, &current);
        let Some(resolved) = found.first() else {
            if chain.is_empty() {
                return None;
            }
            return Some(ClassChain {
                classes: chain,
                complete: false,
            });
        };
        let name = resolved.definition.name.clone();
        let vars = file_variables(db, resolved.location.file)
            .classes
            .get(&name)
            .cloned()
            .unwrap_or_default();
        seen.insert(name.clone());
        chain.push((name, vars));
        match &resolved.definition.parent {
            Some(parent) if !seen.contains(&index_key(parent)) && chain.len() < 64 => {
                current = index_key(parent);
            }
            _ => {
                return Some(ClassChain {
                    classes: chain,
                    complete: true,
                })
            }
        }
    }
}

/// Where a class variable is defined: the file and the range of its
/// parameter or first class-scope assignment (for go-to-definition on
/// [`Target::Inherited`] and [`Target::Qualified`]).
pub fn class_variable_definition(
    db: &dyn salsa::Database,
    workspace: Workspace,
    class: &str,
    name: &str,
) -> Option<(SourceFile, TextRange)> {
    let found = lookup(db, workspace, Namespace::Class, class);
    let resolved = found.first()?;
    let file = resolved.location.file;
    let class_def =
        crate::hir::item_node(db, file, resolved.location.index).and_then(ast::ClassDef::cast)?;
    for param in class_def.params().iter().flat_map(|p| p.params()) {
        if param.name().as_deref() == Some(name) {
            return Some((file, param.variable_token()?.text_range()));
        }
    }
    let body = class_def.body()?;
    scope_assignments(body.syntax())
        .into_iter()
        .find(|t| variable_name(t) == name)
        .map(|t| (file, t.text_range()))
}

// ----- helpers over the tree ------------------------------------------

/// Node kinds that open a scope of their own (not part of the enclosing
/// scope's assignments).
fn opens_scope(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        SyntaxKind::LAMBDA
            | SyntaxKind::CLASS_DEF
            | SyntaxKind::DEFINE_DEF
            | SyntaxKind::FUNCTION_DEF
            | SyntaxKind::PLAN_DEF
            | SyntaxKind::NODE_DEF
            | SyntaxKind::APPLY_EXPR
    )
}

/// The assignment target tokens directly in a scope's body: nested scopes
/// are skipped; branches are included (they do not open scopes).
fn scope_assignments(body: &SyntaxNode) -> Vec<SyntaxToken> {
    let mut out = Vec::new();
    // Pre-order with an explicit stack: trees can be deep.
    let mut stack = vec![body.clone()];
    while let Some(node) = stack.pop() {
        if node != *body && opens_scope(node.kind()) {
            continue;
        }
        if let Some(assignment) = ast::AssignmentExpr::cast(node.clone()) {
            if let Some(lhs) = assignment.lhs() {
                out.extend(assignment_targets(&lhs));
            }
        }
        let children: Vec<SyntaxNode> = node.children().collect();
        stack.extend(children.into_iter().rev());
    }
    out
}

/// The variable tokens an assignment's left side binds: `$x` or the
/// variables of `[$a, $b]`.
fn assignment_targets(lhs: &Expr) -> Vec<SyntaxToken> {
    match lhs {
        Expr::VariableExpr(v) => v.token().into_iter().collect(),
        Expr::ArrayExpr(a) => a
            .elements()
            .filter_map(|e| match e {
                Expr::VariableExpr(v) => v.token(),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// A variable token's name without `$`.
fn variable_name(token: &SyntaxToken) -> String {
    token.text().trim_start_matches('$').to_string()
}

/// The qualified lower-cased name of a class or define: nested classes
/// get their enclosing classes' names as a prefix (the rule of
/// the item tree, so names match the index).
fn qualified_name(node: &SyntaxNode, name: &str) -> String {
    let name = name.trim_start_matches("::").to_lowercase();
    let mut prefix: Vec<String> = node
        .ancestors()
        .skip(1)
        .filter_map(ast::ClassDef::cast)
        .filter_map(|c| c.name())
        .map(|n| n.to_lowercase())
        .collect();
    if prefix.is_empty() {
        return name;
    }
    prefix.reverse();
    let outer = prefix.join("::");
    if name.starts_with(&format!("{outer}::")) {
        name
    } else {
        format!("{outer}::{name}")
    }
}

/// Calls that read variables by name at runtime: templates see the
/// calling scope (`template()`, `inline_template()`, `inline_epp()`), and
/// `getvar('x')` / `defined('$x')` name a variable in a string.
fn reads_variables_dynamically(function: &str, call: &SyntaxNode) -> bool {
    match function {
        "template" | "inline_template" | "inline_epp" => true,
        "getvar" | "defined" => call.descendants().any(|n| {
            let text = match Expr::cast(n) {
                Some(Expr::SqStringExpr(s)) => s.value(),
                Some(Expr::DqStringExpr(s)) => s.static_value().unwrap_or_default(),
                _ => return false,
            };
            function == "getvar" || text.starts_with('$')
        }),
        _ => false,
    }
}

// ----- the resolver -----------------------------------------------------

/// Resolves every variable reference of a file.
#[salsa::tracked(returns(ref))]
pub fn variable_resolution(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
) -> Resolution {
    let root = parse(db, file).syntax_node();
    let kind = if *file.kind(db) == SourceKind::Template {
        ScopeKind::Template
    } else {
        ScopeKind::Top
    };
    let mut resolver = Resolver {
        db,
        workspace,
        file,
        globals: workspace_globals(db, workspace),
        out: Resolution::default(),
        frames: Vec::new(),
        branch: Vec::new(),
        def_branches: Vec::new(),
        next_construct: 0,
        construct_inputs: HashMap::new(),
    };
    resolver.push_frame(FrameSpec {
        kind,
        range: root.text_range(),
        name: None,
        inherits: None,
    });
    if let Some(frame) = resolver.frames.first_mut() {
        frame.takes_any_argument =
            kind == ScopeKind::Template && ast::child::<ast::EppParams>(&root).is_none();
    }
    resolver.run(root);
    resolver.out
}

/// A pending step of the (iterative, so deep trees cannot overflow the
/// stack) walk.
enum Task {
    Visit(SyntaxNode),
    /// The children of a heredoc body, visited where its header stands.
    VisitChildren(SyntaxNode),
    PushFrame(FrameSpec),
    PopFrame,
    /// Entering an arm of a conditional: what holds inside it.
    EnterArm(Vec<BranchFact>),
    /// Leaving it: drop that many facts.
    LeaveArm(usize),
    DefineParam(ast::Param),
    DefineTargets(Expr),
}

struct FrameSpec {
    kind: ScopeKind,
    range: TextRange,
    name: Option<String>,
    /// The parent class of a class.
    inherits: Option<String>,
}

/// A scope being walked.
struct Frame {
    scope: usize,
    kind: ScopeKind,
    /// Definitions so far, by name.
    vars: HashMap<String, Vec<usize>>,
    /// Variables of inherited classes, nearest first.
    inherited: Vec<(String, BTreeSet<String>)>,
    /// Inherits (maybe indirectly) a class not in the workspace.
    opaque: bool,
    /// A template without a parameter header: any name may be passed in.
    takes_any_argument: bool,
}

/// What holds where an expression is: inside which arm of a conditional,
/// and which conditions are known true or false there.
#[derive(Debug, Clone, PartialEq, Eq)]
enum BranchFact {
    /// Arm `.1` of conditional construct `.0`.
    Arm(u32, u32),
    /// The condition with this (normalised) text evaluates to `.1`.
    /// Variables are immutable, so `if $x {...}` and a later
    /// `unless $x {...}` exclude each other.
    Cond(String, bool),
}

/// The facts of the arms an expression is inside.
type BranchPath = Vec<BranchFact>;

/// Two definitions can both execute unless they are in different arms of
/// one conditional, or under opposite outcomes of one condition.
fn compatible(a: &BranchPath, b: &BranchPath) -> bool {
    !a.iter().any(|fa| {
        b.iter().any(|fb| match (fa, fb) {
            (BranchFact::Arm(c, x), BranchFact::Arm(c2, y)) => c == c2 && x != y,
            (BranchFact::Cond(t, p), BranchFact::Cond(t2, q)) => t == t2 && p != q,
            _ => false,
        })
    })
}

/// A condition as (text, polarity): parentheses dropped and each `!`
/// flipping the polarity, so `!($x)` is (`$x`, false).
fn condition_key(condition: Option<Expr>) -> Option<(String, bool)> {
    let mut expr = condition?;
    let mut polarity = true;
    for _ in 0..64 {
        match expr {
            Expr::ParenExpr(p) => expr = p.expr()?,
            Expr::UnaryExpr(u) if u.op() == Some(ast::UnaryOp::Not) => {
                polarity = !polarity;
                expr = u.operand()?;
            }
            _ => break,
        }
    }
    Some((crate::hir::normalized_text(expr.syntax()), polarity))
}

/// The facts of each arm of an `if`/`elsif`/`else` chain, given its
/// conditions in order (`None` where unreadable): arm k knows the earlier
/// conditions failed and its own holds.
fn chain_facts(
    construct: u32,
    conditions: &[Option<(String, bool)>],
    arms: usize,
) -> Vec<Vec<BranchFact>> {
    (0..arms)
        .map(|k| {
            let mut facts = vec![BranchFact::Arm(construct, k as u32)];
            for (j, condition) in conditions.iter().enumerate().take(k + 1) {
                if let Some((text, polarity)) = condition {
                    let holds = if j == k { *polarity } else { !polarity };
                    facts.push(BranchFact::Cond(text.clone(), holds));
                }
            }
            facts
        })
        .collect()
}

/// Functions whose result depends only on their arguments (unlike
/// `defined('$x')`, `getvar`, `lookup` or `tagged`, which read state).
const PURE_FUNCTIONS: &[&str] = &[
    "abs",
    "any2bool",
    "bool2str",
    "capitalize",
    "downcase",
    "empty",
    "has_key",
    "join",
    "keys",
    "length",
    "max",
    "member",
    "min",
    "regsubst",
    "size",
    "split",
    "str2bool",
    "strip",
    "upcase",
    "values",
    "versioncmp",
];

/// Whether a call node computes from its arguments alone: a pure function,
/// or a type's `new` (`String($x)`, `Integer($x)`).
fn is_pure_call(node: &SyntaxNode) -> bool {
    match Expr::cast(node.clone()) {
        Some(Expr::CallExpr(c)) => {
            matches!(c.callee(), Some(Expr::TypeReference(_)))
                || c.function_name()
                    .is_some_and(|n| PURE_FUNCTIONS.contains(&n.as_str()))
        }
        Some(Expr::MethodCallExpr(c)) => c
            .name()
            .is_some_and(|n| PURE_FUNCTIONS.contains(&n.as_str())),
        _ => false,
    }
}

/// The variables read by the expressions that decide a conditional's arm,
/// or `None` when something else decides too (a call that may read state,
/// such as `defined('$x')`) or nothing is read.
fn deciding_variables(expressions: impl Iterator<Item = SyntaxNode>) -> Option<BTreeSet<String>> {
    let mut names = BTreeSet::new();
    for expr in expressions {
        for element in expr.descendants_with_tokens() {
            match element {
                puppet_syntax::NodeOrToken::Node(n)
                    if matches!(
                        n.kind(),
                        SyntaxKind::CALL_EXPR
                            | SyntaxKind::METHOD_CALL_EXPR
                            | SyntaxKind::STATEMENT_CALL
                    ) && !is_pure_call(&n) =>
                {
                    return None;
                }
                puppet_syntax::NodeOrToken::Token(t) if t.kind() == SyntaxKind::VARIABLE => {
                    names.insert(variable_name(&t));
                }
                _ => {}
            }
        }
    }
    (!names.is_empty()).then_some(names)
}

/// An assignment guarded by "the variable is not set yet" (`unless $x`,
/// `if !$x`, `if $x == undef`, `if !defined('$x')`) only runs when an earlier assignment gave
/// it a false value: the "default it if unset" idiom, not reported.
fn guards_unset(path: &BranchPath, name: &str) -> bool {
    let variable = format!("${name}");
    let defined = [
        format!("defined('{variable}')"),
        format!("defined(\"\\{variable}\")"),
    ];
    path.iter().any(|fact| match fact {
        BranchFact::Cond(text, false) => *text == variable || defined.contains(text),
        BranchFact::Cond(text, true) => {
            *text == format!("{variable} == undef") || *text == format!("{variable} =~ Undef")
        }
        BranchFact::Arm(..) => false,
    })
}

struct Resolver<'a> {
    db: &'a dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    globals: &'a BTreeMap<String, Vec<SourceFile>>,
    out: Resolution,
    frames: Vec<Frame>,
    branch: BranchPath,
    /// Parallel to `out.definitions`.
    def_branches: Vec<BranchPath>,
    next_construct: u32,
    /// For each conditional construct (by id), the variables that decide
    /// which arm runs, when that is all that decides it.
    construct_inputs: HashMap<u32, Option<BTreeSet<String>>>,
}

impl Resolver<'_> {
    fn run(&mut self, root: SyntaxNode) {
        let mut stack = vec![Task::VisitChildren(root)];
        while let Some(task) = stack.pop() {
            let mut next = Vec::new();
            match task {
                Task::Visit(node) => self.visit(node, &mut next),
                Task::VisitChildren(node) => {
                    next.extend(node.children().map(Task::Visit));
                }
                Task::PushFrame(spec) => self.push_frame(spec),
                Task::PopFrame => {
                    self.frames.pop();
                }
                Task::EnterArm(facts) => self.branch.extend(facts),
                Task::LeaveArm(n) => {
                    self.branch.truncate(self.branch.len().saturating_sub(n));
                }
                Task::DefineParam(param) => {
                    if let Some(token) = param.variable_token() {
                        let kind = match self.frames.last().map(|f| f.kind) {
                            Some(ScopeKind::Class) => VariableDefKind::ClassParam,
                            Some(ScopeKind::Define) => VariableDefKind::DefineParam,
                            Some(ScopeKind::Function) => VariableDefKind::FunctionParam,
                            Some(ScopeKind::Plan) => VariableDefKind::PlanParam,
                            Some(ScopeKind::Template) => VariableDefKind::TemplateParam,
                            _ => VariableDefKind::LambdaParam,
                        };
                        self.define(&token, kind);
                    }
                }
                Task::DefineTargets(lhs) => match &lhs {
                    Expr::VariableExpr(v) => {
                        if let Some(token) = v.token() {
                            self.define(&token, VariableDefKind::Assignment);
                        }
                    }
                    Expr::ArrayExpr(a) => {
                        for element in a.elements() {
                            match element {
                                Expr::VariableExpr(v) => {
                                    if let Some(token) = v.token() {
                                        self.define(&token, VariableDefKind::Assignment);
                                    }
                                }
                                other => next.push(Task::Visit(other.syntax().clone())),
                            }
                        }
                    }
                    other => next.push(Task::Visit(other.syntax().clone())),
                },
            }
            stack.extend(next.into_iter().rev());
        }
    }

    /// Schedules the steps for one node (in execution order into `next`).
    fn visit(&mut self, node: SyntaxNode, next: &mut Vec<Task>) {
        match node.kind() {
            SyntaxKind::VARIABLE_EXPR => {
                if let Some(token) = ast::VariableExpr::cast(node).and_then(|v| v.token()) {
                    self.reference(&token);
                }
            }
            SyntaxKind::INTERPOLATION => {
                match ast::Interpolation::cast(node.clone()).and_then(|i| i.variable_token()) {
                    Some(token) => self.reference(&token),
                    None => next.extend(node.children().map(Task::Visit)),
                }
            }
            SyntaxKind::HEREDOC_EXPR => {
                if let Some(body) = ast::HeredocExpr::cast(node).and_then(|h| h.body()) {
                    next.push(Task::VisitChildren(body.syntax().clone()));
                }
            }
            // Visited with its header (it stands after the header's line,
            // possibly outside the header's scope).
            SyntaxKind::HEREDOC_BODY => {}
            SyntaxKind::ASSIGNMENT_EXPR => {
                let Some(assignment) = ast::AssignmentExpr::cast(node) else {
                    return;
                };
                if let Some(rhs) = assignment.rhs() {
                    next.push(Task::Visit(rhs.syntax().clone()));
                }
                if let Some(lhs) = assignment.lhs() {
                    next.push(Task::DefineTargets(lhs));
                }
            }
            SyntaxKind::CLASS_DEF => {
                let Some(class) = ast::ClassDef::cast(node.clone()) else {
                    return;
                };
                let name = class.name().map(|n| qualified_name(&node, &n));
                let inherits = class
                    .parent()
                    .and_then(|p| p.name_token())
                    .filter(|t| t.kind() != SyntaxKind::DEFAULT_KW)
                    .map(|t| index_key(t.text()));
                self.definition_scope(&node, ScopeKind::Class, name, inherits, next);
            }
            SyntaxKind::DEFINE_DEF => {
                let name = ast::DefineDef::cast(node.clone())
                    .and_then(|d| d.name())
                    .map(|n| qualified_name(&node, &n));
                self.definition_scope(&node, ScopeKind::Define, name, None, next);
            }
            SyntaxKind::FUNCTION_DEF => {
                self.definition_scope(&node, ScopeKind::Function, None, None, next)
            }
            SyntaxKind::PLAN_DEF => self.definition_scope(&node, ScopeKind::Plan, None, None, next),
            SyntaxKind::NODE_DEF => self.definition_scope(&node, ScopeKind::Node, None, None, next),
            SyntaxKind::LAMBDA => self.definition_scope(&node, ScopeKind::Lambda, None, None, next),
            SyntaxKind::APPLY_EXPR => {
                for child in node.children() {
                    if child.kind() == SyntaxKind::BLOCK {
                        next.push(Task::PushFrame(FrameSpec {
                            kind: ScopeKind::Apply,
                            range: node.text_range(),
                            name: None,
                            inherits: None,
                        }));
                        next.push(Task::Visit(child));
                        next.push(Task::PopFrame);
                    } else {
                        next.push(Task::Visit(child));
                    }
                }
            }
            SyntaxKind::EPP_PARAMS => {
                for param in node.descendants().filter_map(ast::Param::cast) {
                    params_tasks(param, next);
                }
            }
            SyntaxKind::IF_EXPR | SyntaxKind::UNLESS_EXPR => {
                let construct = self.new_construct();
                let deciding = node.children().filter(|c| Expr::can_cast(c.kind())).chain(
                    node.children()
                        .filter(|c| c.kind() == SyntaxKind::ELSIF_BRANCH)
                        .filter_map(|b| b.children().find(|c| Expr::can_cast(c.kind()))),
                );
                self.construct_inputs
                    .insert(construct, deciding_variables(deciding));
                let conditions: Vec<Option<(String, bool)>> = match Expr::cast(node.clone()) {
                    Some(Expr::IfExpr(e)) => std::iter::once(condition_key(e.condition()))
                        .chain(e.elsif_branches().map(|b| condition_key(b.condition())))
                        .collect(),
                    // `unless c` is `if !c`.
                    Some(Expr::UnlessExpr(e)) => {
                        vec![condition_key(e.condition()).map(|(text, polarity)| (text, !polarity))]
                    }
                    _ => Vec::new(),
                };
                let arms = node
                    .children()
                    .filter(|c| {
                        matches!(
                            c.kind(),
                            SyntaxKind::BLOCK | SyntaxKind::ELSIF_BRANCH | SyntaxKind::ELSE_BRANCH
                        )
                    })
                    .count();
                let mut facts = chain_facts(construct, &conditions, arms).into_iter();
                for child in node.children() {
                    if matches!(
                        child.kind(),
                        SyntaxKind::BLOCK | SyntaxKind::ELSIF_BRANCH | SyntaxKind::ELSE_BRANCH
                    ) {
                        let arm = facts.next().unwrap_or_default();
                        let n = arm.len();
                        next.push(Task::EnterArm(arm));
                        next.push(Task::Visit(child));
                        next.push(Task::LeaveArm(n));
                    } else {
                        next.push(Task::Visit(child));
                    }
                }
            }
            SyntaxKind::CASE_EXPR | SyntaxKind::SELECTOR_EXPR => {
                let construct = self.new_construct();
                // The subject and the options' values (not their bodies).
                let deciding = node.children().filter(|c| Expr::can_cast(c.kind())).chain(
                    node.children().flat_map(|arm| {
                        let values: Vec<SyntaxNode> = match arm.kind() {
                            SyntaxKind::CASE_OPTION => arm
                                .children()
                                .filter(|c| Expr::can_cast(c.kind()))
                                .collect(),
                            SyntaxKind::SELECTOR_ENTRY => arm
                                .children()
                                .find(|c| Expr::can_cast(c.kind()))
                                .into_iter()
                                .collect(),
                            _ => Vec::new(),
                        };
                        values
                    }),
                );
                self.construct_inputs
                    .insert(construct, deciding_variables(deciding));
                let mut arm = 0;
                for child in node.children() {
                    if matches!(
                        child.kind(),
                        SyntaxKind::CASE_OPTION | SyntaxKind::SELECTOR_ENTRY
                    ) {
                        next.push(Task::EnterArm(vec![BranchFact::Arm(construct, arm)]));
                        next.push(Task::Visit(child));
                        next.push(Task::LeaveArm(1));
                        arm += 1;
                    } else {
                        next.push(Task::Visit(child));
                    }
                }
            }
            SyntaxKind::CALL_EXPR | SyntaxKind::STATEMENT_CALL | SyntaxKind::METHOD_CALL_EXPR => {
                let name = match Expr::cast(node.clone()) {
                    Some(Expr::CallExpr(c)) => c.function_name(),
                    Some(Expr::StatementCall(c)) => c.name(),
                    Some(Expr::MethodCallExpr(c)) => c.name(),
                    _ => None,
                };
                if name.is_some_and(|n| reads_variables_dynamically(&n, &node)) {
                    self.mark_dynamic_reads();
                }
                next.extend(node.children().map(Task::Visit));
            }
            _ => next.extend(node.children().map(Task::Visit)),
        }
    }

    /// A class, define, function, plan, node or lambda: its own scope with
    /// parameters (defaults see the parameters to their left) then body.
    fn definition_scope(
        &mut self,
        node: &SyntaxNode,
        kind: ScopeKind,
        name: Option<String>,
        inherits: Option<String>,
        next: &mut Vec<Task>,
    ) {
        next.push(Task::PushFrame(FrameSpec {
            kind,
            range: node.text_range(),
            name,
            inherits,
        }));
        for child in node.children() {
            match child.kind() {
                SyntaxKind::PARAM_LIST => {
                    for param in child.children().filter_map(ast::Param::cast) {
                        params_tasks(param, next);
                    }
                }
                SyntaxKind::BLOCK | SyntaxKind::RETURN_TYPE => next.push(Task::Visit(child)),
                _ => {}
            }
        }
        next.push(Task::PopFrame);
    }

    /// When an assignment here fails after one under `earlier`: always
    /// when the earlier one is in the same or an enclosing arm; for some
    /// input when the arms that differ are decided by disjoint sets of
    /// parameters of the current definition (inputs that can be chosen
    /// freely, as in `if $update {...}` and `if $scale {...}`).
    fn failure(&self, earlier: &BranchPath) -> Failure {
        let shared = earlier
            .iter()
            .zip(&self.branch)
            .take_while(|(a, b)| a == b)
            .count();
        if shared == earlier.len() {
            return Failure::Always;
        }
        let Some(frame) = self.frames.last() else {
            return Failure::Unproven;
        };
        let is_param = |name: &String| {
            frame.vars.get(name).is_some_and(|defs| {
                defs.iter()
                    .any(|&d| self.out.definitions[d].kind.is_param())
            })
        };
        let inputs = |facts: &[BranchFact]| -> Option<BTreeSet<String>> {
            let mut all = BTreeSet::new();
            for fact in facts {
                if let BranchFact::Arm(construct, _) = fact {
                    let vars = self.construct_inputs.get(construct)?.as_ref()?;
                    if !vars.iter().all(is_param) {
                        return None;
                    }
                    all.extend(vars.iter().cloned());
                }
            }
            Some(all)
        };
        match (
            inputs(&earlier[shared..]),
            inputs(&self.branch[shared.min(self.branch.len())..]),
        ) {
            (Some(before), Some(here)) if before.is_disjoint(&here) => {
                Failure::WhenBothConditionsHold
            }
            _ => Failure::Unproven,
        }
    }

    fn new_construct(&mut self) -> u32 {
        self.next_construct += 1;
        self.next_construct
    }

    fn push_frame(&mut self, spec: FrameSpec) {
        let parent = self.frames.last().map(|f| f.scope);
        let mut inherited = Vec::new();
        let mut opaque = false;
        if let Some(parent_class) = &spec.inherits {
            match class_variable_chain(self.db, self.workspace, parent_class) {
                Some(chain) => {
                    inherited = chain.classes;
                    opaque = !chain.complete;
                }
                None => opaque = true,
            }
        }
        self.out.scopes.push(Scope {
            kind: spec.kind,
            range: spec.range,
            parent,
            name: spec.name,
            dynamic_reads: false,
        });
        self.frames.push(Frame {
            scope: self.out.scopes.len() - 1,
            kind: spec.kind,
            vars: HashMap::new(),
            inherited,
            opaque,
            takes_any_argument: false,
        });
    }

    /// The current scope and the scopes it extends read variables by name.
    fn mark_dynamic_reads(&mut self) {
        for frame in self.frames.iter().rev() {
            if let Some(scope) = self.out.scopes.get_mut(frame.scope) {
                scope.dynamic_reads = true;
            }
            if !frame.kind.extends_enclosing() {
                break;
            }
        }
    }

    fn define(&mut self, token: &SyntaxToken, kind: VariableDefKind) {
        let name = variable_name(token);
        let range = token.text_range();
        let Some(frame) = self.frames.last() else {
            return;
        };
        if kind == VariableDefKind::Assignment {
            let preset = matches!(
                frame.kind,
                ScopeKind::Top | ScopeKind::Class | ScopeKind::Define
            ) && PRESET_VARIABLES.contains(&name.as_str());
            if preset || RESERVED_VARIABLES.contains(&name.as_str()) {
                self.out.reassignments.push(Reassignment {
                    name: name.clone(),
                    range,
                    previous: None,
                    fails: Failure::Always,
                });
            } else if !guards_unset(&self.branch, &name) {
                let earlier = frame.vars.get(&name).into_iter().flatten();
                let compatible: Vec<usize> = earlier
                    .filter(|&&d| compatible(&self.def_branches[d], &self.branch))
                    .copied()
                    .collect();
                let failures = compatible
                    .iter()
                    .map(|&d| (d, self.failure(&self.def_branches[d])));
                if let Some((previous, fails)) = failures.min_by_key(|&(_, f)| f) {
                    self.out.reassignments.push(Reassignment {
                        name: name.clone(),
                        range,
                        previous: Some(self.out.definitions[previous].range),
                        fails,
                    });
                }
            }
        }
        let scope = frame.scope;
        let index = self.out.definitions.len();
        self.out.definitions.push(VariableDef {
            name: name.clone(),
            range,
            kind,
            scope,
            used: false,
        });
        self.def_branches.push(self.branch.clone());
        if let Some(frame) = self.frames.last_mut() {
            frame.vars.entry(name).or_default().push(index);
        }
    }

    fn reference(&mut self, token: &SyntaxToken) {
        let name = variable_name(token);
        let target = self.resolve(&name);
        if let Target::Local(defs) = &target {
            for &d in defs {
                if let Some(def) = self.out.definitions.get_mut(d) {
                    def.used = true;
                }
            }
        }
        let scope = self.frames.last().map_or(0, |f| f.scope);
        self.out.references.push(VariableRef {
            name,
            range: token.text_range(),
            scope,
            target,
        });
    }

    fn resolve(&self, name: &str) -> Target {
        if !name.is_empty() && name.chars().all(|c| c.is_ascii_digit()) {
            return Target::MatchVariable;
        }
        if let Some(rest) = name.strip_prefix("::") {
            if !rest.contains("::") {
                return Target::TopScope;
            }
        }
        if name.trim_start_matches("::").contains("::") {
            return self.resolve_qualified(name);
        }
        let mut terminal = None;
        let mut opaque = false;
        let mut takes_any_argument = false;
        for frame in self.frames.iter().rev() {
            if let Some(defs) = frame.vars.get(name) {
                let visible: Vec<usize> = defs
                    .iter()
                    .copied()
                    .filter(|&d| compatible(&self.def_branches[d], &self.branch))
                    .collect();
                if !visible.is_empty() {
                    return Target::Local(visible);
                }
            }
            if let Some((class, _)) = frame.inherited.iter().find(|(_, v)| v.contains(name)) {
                return Target::Inherited {
                    class: class.clone(),
                };
            }
            opaque |= frame.opaque;
            takes_any_argument |= frame.takes_any_argument;
            if !frame.kind.extends_enclosing() {
                terminal = Some(frame.kind);
                break;
            }
        }
        if let Some(files) = self.globals.get(name) {
            // The top scope of this file is walked in flow order above; its
            // assignments count only where it is not the resolving scope.
            if terminal != Some(ScopeKind::Top) || files.iter().any(|&f| f != self.file) {
                return Target::Global;
            }
        }
        if BUILTIN_VARIABLES.contains(&name) {
            return Target::BuiltIn;
        }
        if crate::builtins::builtins().fact(name).is_some() {
            return Target::Fact;
        }
        if opaque {
            return Target::MaybeInherited;
        }
        if takes_any_argument {
            return Target::TemplateArgument;
        }
        Target::Unknown
    }

    fn resolve_qualified(&self, name: &str) -> Target {
        let name = name.trim_start_matches("::");
        let Some((class, leaf)) = name.rsplit_once("::") else {
            return Target::Unknown;
        };
        let Some(ClassChain {
            classes: chain,
            complete,
        }) = class_variable_chain(self.db, self.workspace, class)
        else {
            return Target::ExternalQualified;
        };
        if let Some((found, _)) = chain.iter().find(|(_, vars)| vars.contains(leaf)) {
            return Target::Qualified {
                class: found.clone(),
            };
        }
        // Every class scope has the variables the compiler sets.
        if PRESET_VARIABLES.contains(&leaf) {
            return Target::Qualified {
                class: index_key(class),
            };
        }
        if !complete {
            return Target::ExternalQualified;
        }
        Target::UnknownQualified {
            class: index_key(class),
        }
    }
}

/// A parameter's type and default are evaluated before it is bound.
fn params_tasks(param: ast::Param, next: &mut Vec<Task>) {
    for child in param.syntax().children() {
        next.push(Task::Visit(child));
    }
    next.push(Task::DefineParam(param));
}
