//! The name resolver: which definition every `$x` of an item's body
//! refers to, under Puppet's scope rules. Inference, the checks and every
//! IDE feature ask this one resolver.
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
//!   assignments and the top scope only;
//! - the template of an `inline_epp()` call whose text is written out
//!   extends the calling scope, like a lambda, at the call: its parameters
//!   (or, without a parameter header, the keys of the hash passed) shadow,
//!   its assignments are local to it (see [`crate::hir::inline_template`]).
//!
//! Within a scope an assignment is visible only after it (flow order), and
//! variables are immutable: assigning a name twice in one scope fails at
//! runtime ("Cannot reassign variable"), unless the two assignments are in
//! branches that exclude each other (`if`/`else`, case options, selector
//! entries). Match variables (`$0`, `$1`...) always exist.
//!
//! The result is position-free (expressions by [`ExprId`]); what other
//! items publish (class variables, top-scope variables) comes through
//! position-free queries, so an edit elsewhere re-resolves nothing here
//! unless what it publishes changes.

use crate::db::{Item, SourceFile, Workspace};
use crate::hir::body::{Body, BodyKind, Expr, ExprId, InlineTemplate, LambdaId, Name, Param};
use crate::hir::item_body;
use crate::hir::render::render;
use crate::hir::DefKind;
use crate::index::{index_key, lookup, Namespace};
use puppet_syntax::ast::{BinaryOp, UnaryOp};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;

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
    "puppetversion",
];

/// Variables that can never be assigned (Puppet: "Attempt to assign to a
/// reserved variable name").
const RESERVED_VARIABLES: &[&str] = &["facts", "trusted", "server_facts"];

/// Variables the compiler sets in top, class and define scopes, so that
/// assigning them there fails ("Cannot reassign built in variable").
pub const PRESET_VARIABLES: &[&str] = &["title", "name", "module_name", "caller_module_name"];

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
    /// The template of an `inline_epp()` call: like a lambda, it sees the
    /// calling scope.
    InlineTemplate,
}

impl ScopeKind {
    /// Lambdas, apply blocks and `inline_epp()` templates extend the scope
    /// they are written in; every other scope starts afresh (on top of node
    /// and top scope).
    pub fn extends_enclosing(self) -> bool {
        matches!(
            self,
            ScopeKind::Lambda | ScopeKind::Apply | ScopeKind::InlineTemplate
        )
    }
}

/// A scope of the body, by index into [`ItemScopes::scopes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ScopeId(pub u32);

/// One scope of an item's body.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ScopeData {
    pub kind: ScopeKind,
    /// The enclosing scope in the body (even for scopes that do not see it).
    pub parent: Option<ScopeId>,
    /// What opened it: a lambda (or an `inline_epp()` template), an `apply`
    /// expression, or the body itself.
    pub origin: ScopeOrigin,
    /// The scope (or a lambda in it) calls something that reads variables
    /// by name at runtime (`template()`, `inline_epp()`, `getvar()`...), so
    /// no variable of it can be called unused.
    pub dynamic_reads: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScopeOrigin {
    Body,
    Lambda(LambdaId),
    Apply(ExprId),
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

/// Where a variable is defined in the body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DefSite {
    /// The body's `i`-th parameter.
    Param(u32),
    /// Parameter `i` of a lambda.
    LambdaParam(LambdaId, u32),
    /// An assignment target (a `Variable` expression).
    Target(ExprId),
}

/// A variable definition, by index into [`ItemScopes::defs`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VarDefId(pub u32);

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VarDef {
    pub name: Name,
    pub kind: VariableDefKind,
    pub site: DefSite,
    pub scope: ScopeId,
    /// Some reference of the body resolves to it.
    pub used: bool,
}

/// What a reference resolves to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    /// Definitions of this body; more than one when exclusive branches
    /// each assign it.
    Local(Vec<VarDefId>),
    /// A parameter or variable of a class this one inherits.
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
    /// An unknown name read under `if defined('$name')`, which runs only
    /// when something set it.
    Guarded,
    /// `$::name`: an explicit top-scope reference, with what sets the name
    /// at top scope (site.pp, the compiler, Facter; or nothing puppet-ls
    /// sees, which Puppet 8 rejects).
    TopScope(TopScopeSetter),
    /// A variable assigned at top or node scope somewhere in the workspace.
    Global,
    /// A variable every scope has (`$facts`, `$title`...).
    BuiltIn,
    /// A fact read as a top-scope variable (`$os`, a module's custom fact);
    /// `legacy` for Facter's legacy facts (`$osfamily`), which only Puppet 7
    /// receives.
    Fact {
        legacy: bool,
    },
    /// `$0`, `$1`...: never unknown (undef without a match).
    MatchVariable,
    /// The enclosing class inherits a class that is not in the workspace,
    /// which may define it.
    MaybeInherited,
    /// In an EPP template without a parameter header, which gets every
    /// key of the hash passed to `epp()` as a variable.
    TemplateArgument,
    /// In an `inline_epp()` template without a parameter header: a key of
    /// the hash the call passes (or maybe one, when it computes the hash).
    InlineArgument,
    Unknown,
}

/// What sets a top-scope name (`$::name`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TopScopeSetter {
    /// An assignment at top or node scope in the workspace.
    Assignment,
    /// The compiler (`$::environment`, `$::trusted`...).
    Compiler,
    /// Facter (`$::os`); `legacy` as in [`Target::Fact`].
    Fact { legacy: bool },
    /// Nothing the workspace shows: an ENC parameter or a fact from outside
    /// it, or an unknown variable.
    Unseen,
}

impl Target {
    /// Whether the name is a legacy fact (`$osfamily`, `$::osfamily`).
    pub fn is_legacy_fact(&self) -> bool {
        matches!(
            self,
            Target::Fact { legacy: true } | Target::TopScope(TopScopeSetter::Fact { legacy: true })
        )
    }
}

/// A variable reference.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VarRef {
    /// The `Variable` expression.
    pub expr: ExprId,
    /// As written, without `$` (`::x` keeps its `::`).
    pub name: Name,
    pub scope: ScopeId,
    pub target: Target,
    /// Whether something sets the variable on every path to the read.
    pub coverage: Coverage,
}

/// Whether a variable is set on every path to a read: a local one's
/// assignments, or a qualified one's class declaration.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum Coverage {
    /// On every path, as far as puppet-ls can tell (or the reference is
    /// not a local one).
    #[default]
    Every,
    /// Not on the paths through the arms of conditionals that do not
    /// assign it (an `if` without `else`, a `case` without `default`, an
    /// arm that does not assign it), each decided by values Puppet computes
    /// from its inputs: maybe unassigned, though the inputs that leave it
    /// so may never reach the read (correlated conditions, a `case` over a
    /// value that always matches one of its options).
    SomePaths,
    /// Assigned in one arm of an `if` or `unless` whose condition reads only
    /// the definition's parameters, and read wherever
    /// that conditional has run (after it in the same scope, not under
    /// another condition, with no `fail()` or `return()` in between that
    /// could stop the others): the inputs that send the condition the other
    /// way leave it unassigned at the read.
    UnassignedForSomeInput,
    /// `$class::name` of a workspace class that nothing can have declared
    /// before the read (see [`super::declarations`]): not evaluated yet.
    ClassNotDeclared { class: String },
}

/// An assignment that fails at runtime because the name is already bound
/// in the same scope.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Reassignment {
    /// The second assignment's definition.
    pub def: VarDefId,
    /// The earlier definition; `None` for a variable the compiler sets
    /// (`$title`) or reserves (`$facts`).
    pub previous: Option<VarDefId>,
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

/// The variables of one item's body: scopes, definitions, references
/// resolved.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct ItemScopes {
    pub scopes: Vec<ScopeData>,
    pub defs: Vec<VarDef>,
    /// In flow order.
    pub refs: Vec<VarRef>,
    pub reassignments: Vec<Reassignment>,
    /// Reference index by expression, for lookups.
    by_expr: BTreeMap<ExprId, usize>,
}

impl ItemScopes {
    pub fn def(&self, id: VarDefId) -> &VarDef {
        &self.defs[id.0 as usize]
    }

    /// The reference a `Variable` expression is (not assignment targets).
    pub fn reference(&self, expr: ExprId) -> Option<&VarRef> {
        self.by_expr.get(&expr).map(|&i| &self.refs[i])
    }

    /// The definition at an assignment target.
    pub fn def_at_target(&self, expr: ExprId) -> Option<VarDefId> {
        self.defs
            .iter()
            .position(|d| d.site == DefSite::Target(expr))
            .map(|i| VarDefId(i as u32))
    }

    pub fn scope(&self, id: ScopeId) -> &ScopeData {
        &self.scopes[id.0 as usize]
    }
}

// ----- what items publish -----------------------------------------------

/// Variables assigned at top scope or node scope in a file (manifests
/// only: a template's assignments are its own).
#[salsa::tracked(returns(ref))]
pub fn file_globals(db: &dyn salsa::Database, file: SourceFile) -> BTreeSet<Name> {
    if *file.kind(db) != puppet_syntax::SourceKind::Manifest {
        return BTreeSet::new();
    }
    file.items(db)
        .iter()
        .filter(|item| {
            matches!(
                item.kind(db),
                crate::hir::ItemKind::TopLevel | crate::hir::ItemKind::Definition(DefKind::Node)
            )
        })
        .flat_map(|item| item.published(db).variables.iter().copied())
        .collect()
}

/// Top- and node-scope variables of the whole workspace, with the files
/// assigning them.
#[salsa::tracked(returns(ref))]
pub fn workspace_globals(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> BTreeMap<Name, Vec<SourceFile>> {
    let mut out: BTreeMap<Name, Vec<SourceFile>> = BTreeMap::new();
    for &file in workspace.files(db) {
        for name in file_globals(db, file) {
            out.entry(*name).or_default().push(file);
        }
    }
    out
}

/// A class's variables and those of the classes it inherits.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClassChain {
    /// (qualified class name, its parameters and variables), nearest first.
    pub classes: Vec<(String, BTreeSet<Name>)>,
    /// Every class of the chain is in the workspace (otherwise an ancestor
    /// outside it may define more).
    pub complete: bool,
}

/// The classes the workspace's declarations evaluate (each declared class
/// and the classes it inherits, which Puppet evaluates first), with the
/// items declaring them; `computed` when some declaration computes its
/// class, which may then be any.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EvaluatedClasses {
    pub by: BTreeMap<String, Vec<Item>>,
    pub computed: bool,
}

#[salsa::tracked(returns(ref))]
pub fn evaluated_classes(db: &dyn salsa::Database, workspace: Workspace) -> EvaluatedClasses {
    let declarations = super::declarations::workspace_declarations(db, workspace);
    let mut out = EvaluatedClasses {
        computed: declarations.computed,
        ..EvaluatedClasses::default()
    };
    for (class, items) in &declarations.declarers {
        let chain = class_variable_chain(db, workspace, class)
            .map(|c| {
                c.classes
                    .into_iter()
                    .map(|(name, _)| index_key(&name))
                    .collect()
            })
            .unwrap_or_else(|| vec![class.clone()]);
        for evaluated in chain {
            out.by
                .entry(evaluated)
                .or_default()
                .extend(items.iter().copied());
        }
    }
    out
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
        let vars = resolved.location.item.published(db).variables.clone();
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

// ----- the resolver -----------------------------------------------------

/// Resolves every variable reference of an item's body.
#[salsa::tracked(returns(ref), lru = 512)]
pub fn item_scopes(db: &dyn salsa::Database, workspace: Workspace, item: Item) -> Arc<ItemScopes> {
    let body = item_body(db, item);
    let file = item.file(db);
    let signature = item.signature(db);
    let (kind, inherits) = match body.kind {
        BodyKind::Manifest => (ScopeKind::Top, None),
        BodyKind::Template { .. } => (ScopeKind::Template, None),
        BodyKind::Definition(def) => {
            let kind = match def {
                DefKind::Class => ScopeKind::Class,
                DefKind::DefinedType => ScopeKind::Define,
                DefKind::Node => ScopeKind::Node,
                DefKind::Plan => ScopeKind::Plan,
                DefKind::Function | DefKind::TypeAlias => ScopeKind::Function,
            };
            let inherits = signature
                .as_ref()
                .and_then(|s| s.parent.clone())
                .filter(|p| p != "default")
                .map(|p| index_key(&p));
            (kind, inherits)
        }
    };
    let mut resolver = Resolver {
        db,
        workspace,
        item,
        file,
        body,
        globals: workspace_globals(db, workspace),
        out: ItemScopes::default(),
        frames: Vec::new(),
        branch: Vec::new(),
        def_branches: Vec::new(),
        next_construct: 0,
        own_classes: BTreeSet::new(),
        declared: BTreeSet::new(),
        exhaustive: HashMap::new(),
        cond_constructs: HashSet::new(),
        construct_inputs: HashMap::new(),
        input_decided: HashMap::new(),
        stops_seen: 0,
    };
    if kind == ScopeKind::Class {
        if let Some(signature) = signature.as_ref() {
            resolver.own_classes.insert(index_key(&signature.name));
        }
    }
    resolver.push_frame(kind, ScopeOrigin::Body, inherits);
    let inherited: Vec<String> = resolver
        .frames
        .iter()
        .flat_map(|f| f.inherited.iter().map(|(class, _)| index_key(class)))
        .collect();
    resolver.own_classes.extend(inherited);
    if let Some(frame) = resolver.frames.first_mut() {
        if matches!(body.kind, BodyKind::Template { has_params: false }) {
            frame.arguments = Arguments::AnyFromEpp;
        }
    }
    let param_kind = match kind {
        ScopeKind::Class => VariableDefKind::ClassParam,
        ScopeKind::Define => VariableDefKind::DefineParam,
        ScopeKind::Plan => VariableDefKind::PlanParam,
        ScopeKind::Template => VariableDefKind::TemplateParam,
        _ => VariableDefKind::FunctionParam,
    };
    for (i, param) in body.params.iter().enumerate() {
        resolver.param(param, param_kind, DefSite::Param(i as u32));
    }
    if let Some(rt) = body.return_type {
        resolver.visit(rt);
    }
    for &s in &body.body {
        resolver.visit(s);
    }
    let mut out = resolver.out;
    out.by_expr = out
        .refs
        .iter()
        .enumerate()
        .map(|(i, r)| (r.expr, i))
        .collect();
    Arc::new(out)
}

/// What holds where an expression is: inside which arm of a conditional,
/// and which conditions are known true or false there.
#[derive(Debug, Clone, PartialEq, Eq)]
enum BranchFact {
    /// Arm `.1` of conditional construct `.0`.
    Arm(u32, u32),
    /// The condition with this (canonical) text evaluates to `.1`.
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

/// A condition as (text, polarity): each `!` flips the polarity, so
/// `!($x)` is (`$x`, false).
fn condition_key(body: &Body, mut id: ExprId) -> (String, bool) {
    let mut polarity = true;
    for _ in 0..64 {
        match &body[id] {
            Expr::Unary {
                op: UnaryOp::Not,
                operand,
            } => {
                polarity = !polarity;
                id = *operand;
            }
            _ => break,
        }
    }
    (render(body, id), polarity)
}

/// The facts of each arm of an `if`/`elsif`/`else` chain, given its
/// conditions in order: arm k knows the earlier conditions failed and its
/// own holds.
fn chain_facts(construct: u32, conditions: &[(String, bool)], arms: usize) -> Vec<Vec<BranchFact>> {
    (0..arms)
        .map(|k| {
            let mut facts = vec![BranchFact::Arm(construct, k as u32)];
            for (j, (text, polarity)) in conditions.iter().enumerate().take(k + 1) {
                let holds = if j == k { *polarity } else { !polarity };
                facts.push(BranchFact::Cond(text.clone(), holds));
            }
            facts
        })
        .collect()
}

/// Whether code on `path` runs only when `$name` is set:
/// `if defined('$name')`.
fn guards_set(path: &BranchPath, name: &str) -> bool {
    let defined = format!("defined('${name}')");
    path.iter()
        .any(|fact| matches!(fact, BranchFact::Cond(text, true) if *text == defined))
}

/// Whether code on `path` runs only when `$name` is not set yet (`unless
/// $x`, `if !$x`, `if $x == undef`, `if !defined('$x')`): an assignment
/// there only runs when an earlier one gave it a false value, the "default
/// it if unset" idiom, not reported.
fn guards_unset(path: &BranchPath, name: &str) -> bool {
    let variable = format!("${name}");
    let defined = format!("defined('{variable}')");
    path.iter().any(|fact| match fact {
        BranchFact::Cond(text, false) => *text == variable || *text == defined,
        BranchFact::Cond(text, true) => {
            *text == format!("{variable} == undef") || *text == format!("{variable} =~ Undef")
        }
        BranchFact::Arm(..) => false,
    })
}

/// Whether a call computes from its arguments alone: a pure function, or
/// a type's `new` (`String($x)`, `Integer($x)`).
fn is_pure_call(body: &Body, id: ExprId) -> bool {
    match &body[id] {
        Expr::Call { function, .. } | Expr::MethodCall { function, .. } => {
            PURE_FUNCTIONS.contains(&function.as_str())
        }
        Expr::CallValue { callee, .. } => matches!(body[*callee], Expr::TypeRef(_)),
        _ => true,
    }
}

/// The variables read by the expressions that decide a conditional's arm,
/// or `None` when something else decides too (a call that may read state,
/// such as `defined('$x')`) or nothing is read.
fn deciding_variables(body: &Body, expressions: &[ExprId]) -> Option<BTreeSet<Name>> {
    let mut names = BTreeSet::new();
    let mut stack: Vec<ExprId> = expressions.to_vec();
    while let Some(id) = stack.pop() {
        match &body[id] {
            Expr::Call { .. } | Expr::CallValue { .. } | Expr::MethodCall { .. }
                if !is_pure_call(body, id) =>
            {
                return None;
            }
            Expr::Variable(name) => {
                names.insert(*name);
            }
            _ => {}
        }
        stack.extend(body.children(id));
    }
    (!names.is_empty()).then_some(names)
}

/// Whether an expression holds a match (`=~`, `!~`) anywhere.
fn has_match(body: &Body, id: ExprId) -> bool {
    let mut stack = vec![id];
    while let Some(id) = stack.pop() {
        if matches!(
            body[id],
            Expr::Binary {
                op: BinaryOp::Match | BinaryOp::NotMatch,
                ..
            }
        ) {
            return true;
        }
        stack.extend(body.children(id));
    }
    false
}

/// Calls that read variables by name at runtime: templates see the
/// calling scope (`template()`, `inline_template()`, `inline_epp()`), and
/// `getvar('x')` / `defined('$x')` name a variable in a string.
fn reads_variables_dynamically(body: &Body, function: &str, args: &[ExprId]) -> bool {
    match function {
        "template" | "inline_template" | "inline_epp" => true,
        "getvar" | "defined" => args.iter().any(|&a| {
            body.static_string(a)
                .is_some_and(|text| function == "getvar" || text.starts_with('$'))
        }),
        _ => false,
    }
}

/// A scope being walked.
struct Frame {
    scope: ScopeId,
    kind: ScopeKind,
    /// Definitions so far, by name.
    vars: HashMap<Name, Vec<VarDefId>>,
    /// Variables of inherited classes, nearest first.
    inherited: Vec<(String, BTreeSet<Name>)>,
    /// Inherits (maybe indirectly) a class not in the workspace.
    opaque: bool,
    /// What a template without a parameter header is passed by name.
    arguments: Arguments,
}

/// The names a template without a parameter header gets from the hash it
/// is rendered with.
#[derive(Debug, Clone, Default)]
enum Arguments {
    /// Nothing (not such a template).
    #[default]
    None,
    /// A template file: `epp()` may pass any name.
    AnyFromEpp,
    /// An `inline_epp()` template: the keys of the hash written out in the
    /// call.
    Keys(BTreeSet<Name>),
    /// An `inline_epp()` template given a hash it computes: any name.
    AnyInline,
}

struct Resolver<'a> {
    db: &'a dyn salsa::Database,
    workspace: Workspace,
    item: Item,
    file: SourceFile,
    body: &'a Arc<Body>,
    globals: &'a BTreeMap<Name, Vec<SourceFile>>,
    out: ItemScopes,
    frames: Vec<Frame>,
    branch: BranchPath,
    /// Parallel to `out.defs`.
    def_branches: Vec<BranchPath>,
    next_construct: u32,
    /// The class whose body this is, and the classes it inherits: evaluated
    /// before its body runs.
    own_classes: BTreeSet<String>,
    /// Classes declared so far in flow order.
    declared: BTreeSet<String>,
    /// The conditional constructs one of whose arms always runs (an `if`
    /// with `else`, a `case` with `default`, a selector), with their arm
    /// count and the arms that always fail (`fail()`), which no read after
    /// the construct follows.
    exhaustive: HashMap<u32, (u32, BTreeSet<u32>)>,
    /// The `if` and `unless` constructs (whose arms carry their
    /// conditions).
    cond_constructs: HashSet<u32>,
    /// For each conditional construct, the variables that decide which
    /// arm runs, when that is all that decides it.
    construct_inputs: HashMap<u32, Option<BTreeSet<Name>>>,
    /// The `if`s without `elsif` and the `unless`es whose condition reads
    /// nothing but parameters of the definition, with
    /// the condition's canonical text and how many calls that can stop the
    /// evaluation (`fail()`, `return()`) preceded them.
    input_decided: HashMap<u32, (String, u32)>,
    /// `fail()` and `return()` calls seen so far in flow order.
    stops_seen: u32,
}

impl Resolver<'_> {
    fn push_frame(&mut self, kind: ScopeKind, origin: ScopeOrigin, inherits: Option<String>) {
        let parent = self.frames.last().map(|f| f.scope);
        let mut inherited = Vec::new();
        let mut opaque = false;
        if let Some(parent_class) = &inherits {
            match class_variable_chain(self.db, self.workspace, parent_class) {
                Some(chain) => {
                    inherited = chain.classes;
                    opaque = !chain.complete;
                }
                None => opaque = true,
            }
        }
        self.out.scopes.push(ScopeData {
            kind,
            parent,
            origin,
            dynamic_reads: false,
        });
        self.frames.push(Frame {
            scope: ScopeId((self.out.scopes.len() - 1) as u32),
            kind,
            vars: HashMap::new(),
            inherited,
            opaque,
            arguments: Arguments::None,
        });
    }

    fn current_scope(&self) -> ScopeId {
        self.frames.last().map_or(ScopeId(0), |f| f.scope)
    }

    /// A parameter's type and default are evaluated before it is bound.
    fn param(&mut self, param: &Param, kind: VariableDefKind, site: DefSite) {
        if let Some(t) = param.ty {
            self.visit(t);
        }
        if let Some(d) = param.default {
            self.visit(d);
        }
        self.define(param.name, kind, site);
    }

    /// Records a construct one of whose `arms` always runs, with the arms
    /// that always fail.
    fn record_exhaustive(&mut self, construct: u32, arms: &[&[ExprId]]) {
        let failing = arms
            .iter()
            .enumerate()
            .filter(|(_, arm)| arm.iter().any(|&s| self.body.is_fail_call(s)))
            .map(|(k, _)| k as u32)
            .collect();
        self.exhaustive
            .insert(construct, (arms.len() as u32, failing));
    }

    /// Records a two-way conditional decided by the definition's
    /// parameters alone: any declaration may pass values that take either
    /// arm. Facts are left out: the nodes a code base serves may all take
    /// the same arm (`if $facts['os']['family'] == 'Debian'` on a Debian
    /// fleet). So are type matches (`=~`): `$x =~ String` always holds for
    /// a `String $x`.
    fn record_input_decided(&mut self, construct: u32, condition: ExprId, text: &str) {
        let Some(Some(inputs)) = self.construct_inputs.get(&construct) else {
            return;
        };
        let Some(frame) = self.frames.last() else {
            return;
        };
        let is_input = |name: &Name| {
            frame.vars.get(name).is_some_and(|defs| {
                defs.iter()
                    .all(|&d| self.out.defs[d.0 as usize].kind.is_param())
            })
        };
        if !has_match(self.body, condition) && inputs.iter().all(is_input) {
            self.input_decided
                .insert(construct, (text.to_string(), self.stops_seen));
        }
    }

    fn visit_all(&mut self, ids: &[ExprId]) {
        for &id in ids {
            self.visit(id);
        }
    }

    fn visit(&mut self, id: ExprId) {
        let body = self.body.clone();
        if let Some((classes, _)) = crate::declared::published::declared_by(&body, id) {
            self.declared.extend(classes);
        }
        match &body[id] {
            Expr::Variable(name) => self.reference(*name, id),
            Expr::Assign { target, value, .. } => {
                self.visit(*value);
                self.define_targets(*target);
            }
            Expr::Call {
                function,
                args,
                lambda,
                ..
            } => {
                if reads_variables_dynamically(&body, function, args) {
                    self.mark_dynamic_reads();
                }
                if matches!(function.as_str(), "fail" | "return") {
                    self.stops_seen += 1;
                }
                self.visit_all(args);
                if let Some(l) = lambda {
                    self.lambda(*l);
                }
                if let Some(template) = body.inline_template(id) {
                    self.inline_template(template, args);
                }
            }
            Expr::MethodCall {
                receiver,
                function,
                args,
                lambda,
            } => {
                let mut all = vec![*receiver];
                all.extend(args);
                if reads_variables_dynamically(&body, function, &all) {
                    self.mark_dynamic_reads();
                }
                self.visit_all(&all);
                if let Some(l) = lambda {
                    self.lambda(*l);
                }
            }
            Expr::CallValue {
                callee,
                args,
                lambda,
            } => {
                self.visit(*callee);
                self.visit_all(args);
                if let Some(l) = lambda {
                    self.lambda(*l);
                }
            }
            Expr::If {
                condition,
                then,
                elsifs,
                otherwise,
            } => {
                let construct = self.new_construct();
                self.cond_constructs.insert(construct);
                let mut deciding = vec![*condition];
                deciding.extend(elsifs.iter().map(|(c, _)| *c));
                self.construct_inputs
                    .insert(construct, deciding_variables(&body, &deciding));
                let conditions: Vec<(String, bool)> =
                    deciding.iter().map(|&c| condition_key(&body, c)).collect();
                if elsifs.is_empty() {
                    self.record_input_decided(construct, *condition, &conditions[0].0);
                }
                let mut arms: Vec<&[ExprId]> = vec![then];
                arms.extend(elsifs.iter().map(|(_, b)| b.as_slice()));
                if let Some(o) = otherwise {
                    arms.push(o);
                }
                if otherwise.is_some() {
                    self.record_exhaustive(construct, &arms);
                }
                let facts = chain_facts(construct, &conditions, arms.len());
                self.visit(*condition);
                for (k, (arm, facts)) in arms.iter().zip(facts).enumerate() {
                    let n = facts.len();
                    self.branch.extend(facts);
                    // An elsif's condition is evaluated in its own arm.
                    if k >= 1 && k <= elsifs.len() {
                        self.visit(elsifs[k - 1].0);
                    }
                    self.visit_all(arm);
                    self.branch.truncate(self.branch.len() - n);
                }
            }
            Expr::Unless {
                condition,
                then,
                otherwise,
            } => {
                let construct = self.new_construct();
                self.cond_constructs.insert(construct);
                self.construct_inputs
                    .insert(construct, deciding_variables(&body, &[*condition]));
                // `unless c` is `if !c`.
                let (text, polarity) = condition_key(&body, *condition);
                self.record_input_decided(construct, *condition, &text);
                let conditions = [(text, !polarity)];
                let mut arms: Vec<&[ExprId]> = vec![then];
                if let Some(o) = otherwise {
                    arms.push(o);
                }
                if otherwise.is_some() {
                    self.record_exhaustive(construct, &arms);
                }
                let facts = chain_facts(construct, &conditions, arms.len());
                self.visit(*condition);
                for (arm, facts) in arms.iter().zip(facts) {
                    let n = facts.len();
                    self.branch.extend(facts);
                    self.visit_all(arm);
                    self.branch.truncate(self.branch.len() - n);
                }
            }
            Expr::Case { subject, options } => {
                let construct = self.new_construct();
                let mut deciding = vec![*subject];
                deciding.extend(options.iter().flat_map(|o| o.values.iter().copied()));
                self.construct_inputs
                    .insert(construct, deciding_variables(&body, &deciding));
                let has_default = options.iter().any(|o| {
                    o.values.iter().any(|&v| {
                        matches!(body[v], Expr::Literal(crate::hir::body::Literal::Default))
                    })
                });
                if has_default {
                    let arms: Vec<&[ExprId]> = options.iter().map(|o| o.body.as_slice()).collect();
                    self.record_exhaustive(construct, &arms);
                }
                self.visit(*subject);
                for (arm, option) in options.iter().enumerate() {
                    self.branch.push(BranchFact::Arm(construct, arm as u32));
                    self.visit_all(&option.values);
                    self.visit_all(&option.body);
                    self.branch.pop();
                }
            }
            Expr::Selector { subject, entries } => {
                let construct = self.new_construct();
                let mut deciding = vec![*subject];
                deciding.extend(entries.iter().map(|(m, _)| *m));
                self.construct_inputs
                    .insert(construct, deciding_variables(&body, &deciding));
                // No match fails: one entry always runs.
                let values: Vec<[ExprId; 1]> = entries.iter().map(|(_, v)| [*v]).collect();
                let arms: Vec<&[ExprId]> = values.iter().map(|v| v.as_slice()).collect();
                self.record_exhaustive(construct, &arms);
                self.visit(*subject);
                for (arm, (matcher, value)) in entries.iter().enumerate() {
                    self.branch.push(BranchFact::Arm(construct, arm as u32));
                    self.visit(*matcher);
                    self.visit(*value);
                    self.branch.pop();
                }
            }
            Expr::Apply { args, body: block } => {
                self.visit_all(args);
                self.push_frame(ScopeKind::Apply, ScopeOrigin::Apply(id), None);
                self.visit_all(block);
                self.frames.pop();
            }
            // Nested definitions are items of their own.
            Expr::Definition { .. } => {}
            // `a and b` evaluates `b` only when `a` holds, `a or b` only
            // when it does not: `defined('$x') and $x` reads `$x` set.
            Expr::Binary {
                op: op @ (BinaryOp::And | BinaryOp::Or),
                lhs,
                rhs,
            } => {
                self.visit(*lhs);
                let (text, polarity) = condition_key(&body, *lhs);
                let holds = if *op == BinaryOp::And {
                    polarity
                } else {
                    !polarity
                };
                self.branch.push(BranchFact::Cond(text, holds));
                self.visit(*rhs);
                self.branch.pop();
            }
            _ => {
                for child in body.children(id) {
                    self.visit(child);
                }
            }
        }
    }

    fn lambda(&mut self, l: LambdaId) {
        let body = self.body.clone();
        let lambda = &body[l];
        self.push_frame(ScopeKind::Lambda, ScopeOrigin::Lambda(l), None);
        for (i, param) in lambda.params.iter().enumerate() {
            self.param(
                param,
                VariableDefKind::LambdaParam,
                DefSite::LambdaParam(l, i as u32),
            );
        }
        if let Some(rt) = lambda.return_type {
            self.visit(rt);
        }
        self.visit_all(&lambda.body);
        self.frames.pop();
    }

    /// The template of an `inline_epp()` call, rendered at the call: its
    /// parameters, or without a header the keys of the hash passed, in a
    /// scope that extends the calling one.
    fn inline_template(&mut self, template: &InlineTemplate, args: &[ExprId]) {
        let body = self.body.clone();
        let l = template.lambda;
        self.push_frame(ScopeKind::InlineTemplate, ScopeOrigin::Lambda(l), None);
        if template.has_params {
            for (i, param) in body[l].params.iter().enumerate() {
                self.param(
                    param,
                    VariableDefKind::TemplateParam,
                    DefSite::LambdaParam(l, i as u32),
                );
            }
        } else {
            let arguments = match args.get(1).map(|&hash| &body[hash]) {
                None => Arguments::Keys(BTreeSet::new()),
                Some(Expr::Hash { entries, .. }) => entries
                    .iter()
                    .map(|(key, _)| body.static_string(*key).map(crate::hir::body::name))
                    .collect::<Option<BTreeSet<Name>>>()
                    .map_or(Arguments::AnyInline, Arguments::Keys),
                Some(_) => Arguments::AnyInline,
            };
            if let Some(frame) = self.frames.last_mut() {
                frame.arguments = arguments;
            }
        }
        self.visit_all(&body[l].body);
        self.frames.pop();
    }

    fn define_targets(&mut self, target: ExprId) {
        let body = self.body.clone();
        match &body[target] {
            Expr::Variable(name) => {
                self.define(*name, VariableDefKind::Assignment, DefSite::Target(target))
            }
            Expr::Array(items) => {
                for &item in items {
                    match &body[item] {
                        Expr::Variable(name) => {
                            self.define(*name, VariableDefKind::Assignment, DefSite::Target(item))
                        }
                        _ => self.visit(item),
                    }
                }
            }
            _ => self.visit(target),
        }
    }

    fn new_construct(&mut self) -> u32 {
        self.next_construct += 1;
        self.next_construct
    }

    /// The current scope and the scopes it extends read variables by name.
    fn mark_dynamic_reads(&mut self) {
        for frame in self.frames.iter().rev() {
            if let Some(scope) = self.out.scopes.get_mut(frame.scope.0 as usize) {
                scope.dynamic_reads = true;
            }
            if !frame.kind.extends_enclosing() {
                break;
            }
        }
    }

    fn define(&mut self, name: Name, kind: VariableDefKind, site: DefSite) {
        let Some(frame) = self.frames.last() else {
            return;
        };
        let id = VarDefId(self.out.defs.len() as u32);
        if kind == VariableDefKind::Assignment {
            let preset = matches!(
                frame.kind,
                ScopeKind::Top | ScopeKind::Class | ScopeKind::Define
            ) && PRESET_VARIABLES.contains(&name.as_str());
            if preset || RESERVED_VARIABLES.contains(&name.as_str()) {
                self.out.reassignments.push(Reassignment {
                    def: id,
                    previous: None,
                    fails: Failure::Always,
                });
            } else if !guards_unset(&self.branch, &name) {
                let earlier = frame.vars.get(&name).into_iter().flatten();
                let compatible: Vec<VarDefId> = earlier
                    .filter(|&&d| compatible(&self.def_branches[d.0 as usize], &self.branch))
                    .copied()
                    .collect();
                let failures = compatible
                    .iter()
                    .map(|&d| (d, self.failure(&self.def_branches[d.0 as usize])));
                if let Some((previous, fails)) = failures.min_by_key(|&(_, f)| f) {
                    self.out.reassignments.push(Reassignment {
                        def: id,
                        previous: Some(previous),
                        fails,
                    });
                }
            }
        }
        let scope = frame.scope;
        self.out.defs.push(VarDef {
            name,
            kind,
            site,
            scope,
            used: false,
        });
        self.def_branches.push(self.branch.clone());
        if let Some(frame) = self.frames.last_mut() {
            frame.vars.entry(name).or_default().push(id);
        }
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
        let is_param = |name: &Name| {
            frame.vars.get(name).is_some_and(|defs| {
                defs.iter()
                    .any(|&d| self.out.defs[d.0 as usize].kind.is_param())
            })
        };
        let inputs = |facts: &[BranchFact]| -> Option<BTreeSet<Name>> {
            let mut all = BTreeSet::new();
            for fact in facts {
                if let BranchFact::Arm(construct, _) = fact {
                    let vars = self.construct_inputs.get(construct)?.as_ref()?;
                    if !vars.iter().all(is_param) {
                        return None;
                    }
                    all.extend(vars.iter().copied());
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

    fn reference(&mut self, name: Name, expr: ExprId) {
        let mut target = self.resolve(&name);
        let unset = matches!(
            target,
            Target::Unknown | Target::TopScope(TopScopeSetter::Unseen)
        ) || target.is_legacy_fact();
        if unset && guards_set(&self.branch, &name) {
            target = Target::Guarded;
        }
        let mut not_declared = None;
        if let Target::Qualified { .. } = target {
            let class = index_key(
                name.trim_start_matches("::")
                    .rsplit_once("::")
                    .map_or("", |(c, _)| c),
            );
            if !self.may_be_declared(&class) {
                not_declared = Some(class);
            }
        }
        if let Target::Local(defs) = &target {
            for &d in defs {
                if let Some(def) = self.out.defs.get_mut(d.0 as usize) {
                    def.used = true;
                }
            }
        }
        let coverage = match (&target, not_declared) {
            (Target::Local(defs), _) => self.coverage(&name, defs),
            (_, Some(class)) => Coverage::ClassNotDeclared { class },
            _ => Coverage::Every,
        };
        let scope = self.current_scope();
        self.out.refs.push(VarRef {
            expr,
            name,
            scope,
            target,
            coverage,
        });
    }

    /// Whether the assignments `defs` run on every path to the current
    /// point: one runs wherever the read does, or they cover every arm of
    /// an exhaustive construct (arms that always fail count), or opposite
    /// outcomes of one condition.
    fn coverage(&self, name: &str, defs: &[VarDefId]) -> Coverage {
        // `if !defined('$x') { $x = ... }` runs exactly where it is unset.
        if defs
            .iter()
            .any(|d| guards_unset(&self.def_branches[d.0 as usize], name))
        {
            return Coverage::Every;
        }
        let extras: Vec<Vec<&BranchFact>> = defs
            .iter()
            .map(|d| {
                self.def_branches[d.0 as usize]
                    .iter()
                    .filter(|f| !self.branch.contains(f))
                    .collect()
            })
            .collect();
        // Outside the arms, or in arms of `if`s whose conditions hold here
        // (variables do not change: `if $a {$x = 1}` ... `if $a {$x}`).
        let certain = |extra: &Vec<&BranchFact>| {
            extra.iter().all(|f| match f {
                BranchFact::Arm(c, _) => self.cond_constructs.contains(c),
                BranchFact::Cond(..) => false,
            })
        };
        if extras.iter().any(certain) {
            return Coverage::Every;
        }
        let arm_of = |extra: &Vec<&BranchFact>| {
            let mut arms = extra.iter().filter_map(|f| match f {
                BranchFact::Arm(c, k) => Some((*c, *k)),
                BranchFact::Cond(..) => None,
            });
            match (arms.next(), arms.next()) {
                (Some(arm), None) => Some(arm),
                _ => None,
            }
        };
        // Arms nested in others, or of several conditionals, may be
        // correlated in ways puppet-ls does not follow: not proven
        // unassigned.
        let Some(arms) = extras
            .iter()
            .map(arm_of)
            .collect::<Option<Vec<(u32, u32)>>>()
        else {
            return Coverage::Every;
        };
        let Some(&(construct, _)) = arms.first() else {
            return Coverage::Every;
        };
        if arms.iter().any(|(c, _)| *c != construct) {
            return Coverage::Every;
        }
        // Every arm of the conditional assigns it or fails.
        if let Some((count, failing)) = self.exhaustive.get(&construct) {
            let covered: BTreeSet<u32> = arms
                .iter()
                .map(|(_, k)| *k)
                .chain(failing.iter().copied())
                .collect();
            if covered.len() as u32 == *count {
                return Coverage::Every;
            }
        }
        if self.read_follows_input_decision(construct, defs) {
            return Coverage::UnassignedForSomeInput;
        }
        Coverage::SomePaths
    }

    /// Whether the read runs wherever conditional `construct`, which
    /// assigns `defs` in some arms and is decided by inputs alone, has run:
    /// in the same scope (not a lambda, which may never be called), under
    /// no condition but that construct's own, with no `fail()` or
    /// `return()` since it began.
    fn read_follows_input_decision(&self, construct: u32, defs: &[VarDefId]) -> bool {
        let Some((text, stops_before)) = self.input_decided.get(&construct) else {
            return false;
        };
        if self.stops_seen != *stops_before {
            return false;
        }
        let scope = self.current_scope();
        if defs
            .iter()
            .any(|d| self.out.defs[d.0 as usize].scope != scope)
        {
            return false;
        }
        let Some(first) = defs.first() else {
            return false;
        };
        let def_branch = &self.def_branches[first.0 as usize];
        self.branch
            .iter()
            .filter(|f| !def_branch.contains(f))
            .all(|f| match f {
                BranchFact::Arm(c, _) => *c == construct,
                BranchFact::Cond(t, _) => t == text,
            })
    }

    /// Whether class `class` may have been evaluated when this body reads
    /// one of its variables: it is this class or one it inherits, it was
    /// declared earlier here, or something else in the workspace declares
    /// it or a class that inherits it (in an order puppet-ls does not see),
    /// or some declaration computes its class.
    fn may_be_declared(&self, class: &str) -> bool {
        if self.own_classes.contains(class) || self.declared.contains(class) {
            return true;
        }
        // A define or template runs wherever it is declared or rendered,
        // maybe from the class itself.
        if !matches!(
            self.frames.first().map(|f| f.kind),
            Some(ScopeKind::Class | ScopeKind::Top | ScopeKind::Node)
        ) {
            return true;
        }
        let evaluated = evaluated_classes(self.db, self.workspace);
        if evaluated.computed {
            return true;
        }
        match evaluated.by.get(class) {
            // Declared elsewhere, in an order puppet-ls does not see.
            Some(items) if items.iter().any(|&i| i != self.item) => true,
            // Declared only by this body, after the read.
            Some(_) => false,
            // Declared by nothing in the workspace: maybe from outside it
            // (a node's classification), so only where this body cannot
            // run inside that class's evaluation (the class does not
            // declare it, directly or through the classes it declares).
            None => self.declared_from(class),
        }
    }

    /// Whether class `from` declares this body's class, directly or
    /// through the classes it declares.
    fn declared_from(&self, from: &str) -> bool {
        let mut seen = BTreeSet::new();
        let mut pending = vec![from.to_string()];
        while let Some(class) = pending.pop() {
            if !seen.insert(class.clone()) || seen.len() > 256 {
                continue;
            }
            for found in lookup(self.db, self.workspace, Namespace::Class, &class).iter() {
                let published = found.location.item.published(self.db);
                if published.declares_computed_classes {
                    return true;
                }
                for declared in &published.declared_classes {
                    if self.own_classes.contains(declared) {
                        return true;
                    }
                    pending.push(declared.clone());
                }
            }
        }
        false
    }

    fn resolve(&self, name: &str) -> Target {
        if !name.is_empty() && name.chars().all(|c| c.is_ascii_digit()) {
            return Target::MatchVariable;
        }
        if let Some(rest) = name.strip_prefix("::") {
            if !rest.contains("::") {
                return Target::TopScope(self.top_scope_setter(rest));
            }
        }
        if name.trim_start_matches("::").contains("::") {
            return self.resolve_qualified(name);
        }
        let key = crate::hir::body::name(name);
        let mut terminal = None;
        let mut opaque = false;
        let mut any_from_epp = false;
        let mut any_inline = false;
        for frame in self.frames.iter().rev() {
            if let Some(defs) = frame.vars.get(&key) {
                let visible: Vec<VarDefId> = defs
                    .iter()
                    .copied()
                    .filter(|&d| compatible(&self.def_branches[d.0 as usize], &self.branch))
                    .collect();
                if !visible.is_empty() {
                    return Target::Local(visible);
                }
            }
            if let Some((class, _)) = frame.inherited.iter().find(|(_, v)| v.contains(&key)) {
                return Target::Inherited {
                    class: class.clone(),
                };
            }
            match &frame.arguments {
                Arguments::Keys(keys) if keys.contains(&key) => return Target::InlineArgument,
                Arguments::AnyFromEpp => any_from_epp = true,
                Arguments::AnyInline => any_inline = true,
                Arguments::None | Arguments::Keys(_) => {}
            }
            opaque |= frame.opaque;
            if !frame.kind.extends_enclosing() {
                terminal = Some(frame.kind);
                break;
            }
        }
        if let Some(files) = self.globals.get(&key) {
            // The top scope of this file is walked in flow order above; its
            // assignments count only where it is not the resolving scope.
            if terminal != Some(ScopeKind::Top) || files.iter().any(|&f| f != self.file) {
                return Target::Global;
            }
        }
        if BUILTIN_VARIABLES.contains(&name) {
            return Target::BuiltIn;
        }
        if let Some(legacy) = self.fact(name) {
            // Where Puppet has no legacy facts, a template's `$fqdn` is
            // what the rendering call's hash passes, if anything.
            let gone = legacy && !self.workspace.target(self.db).has_legacy_facts();
            if !(gone && (any_inline || any_from_epp)) {
                return Target::Fact { legacy };
            }
        }
        if opaque {
            return Target::MaybeInherited;
        }
        if any_inline {
            return Target::InlineArgument;
        }
        if any_from_epp {
            return Target::TemplateArgument;
        }
        Target::Unknown
    }

    /// Whether `name` is a fact (`Some(legacy)`): a core fact of Facter's,
    /// or a custom fact of a module of the workspace (never legacy).
    fn fact(&self, name: &str) -> Option<bool> {
        if crate::module_facts::module_facts(self.db, self.workspace).contains_key(name) {
            return Some(false);
        }
        crate::db::workspace_builtins(self.db, self.workspace)
            .fact(name)
            .map(|f| f.legacy)
    }

    /// What sets `$::name`.
    fn top_scope_setter(&self, name: &str) -> TopScopeSetter {
        let key = crate::hir::body::name(name);
        if self.globals.contains_key(&key) {
            TopScopeSetter::Assignment
        } else if BUILTIN_VARIABLES.contains(&name) {
            TopScopeSetter::Compiler
        } else if let Some(legacy) = self.fact(name) {
            TopScopeSetter::Fact { legacy }
        } else {
            TopScopeSetter::Unseen
        }
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
        let key = crate::hir::body::name(leaf);
        if let Some((found, _)) = chain.iter().find(|(_, vars)| vars.contains(&key)) {
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
