//! The static checks Puppet 7 runs on a parsed program (its `Checker4_0`),
//! with Puppet's severities: what `puppet parser validate` rejects is an
//! error here too. Checks that need to know where the file sits in a module
//! (definition locations) belong to the analysis layer.

use crate::ast::{self, AstNode, Expr, LiteralValue, NumberError};
use crate::syntax_kind::SyntaxKind::*;
use crate::Code;
use crate::{SourceKind, SyntaxError, SyntaxNode, TextRange};
use std::collections::HashSet;

/// Runs every check over a tree.
pub fn validate(root: &SyntaxNode, _kind: SourceKind) -> Vec<SyntaxError> {
    let mut v = Validator {
        errors: Vec::new(),
        root_in_class: false,
    };
    for node in root.descendants() {
        v.check(&node);
    }
    v.errors.sort_by_key(|e| (e.range.start(), e.range.end()));
    v.errors
}

/// Where a definition validated on its own stands in its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemContext {
    /// A file's top level (or the file itself).
    TopLevel,
    /// Directly in a class's body.
    InClass,
    /// A run of a file's top-level statements: checks over the whole
    /// statement list (a forgotten value before another statement) are the
    /// caller's, who sees every run.
    TopLevelRun,
}

/// Runs every check over one item of a file: a file's root or a
/// definition's node, as a root of its own. Definitions that are items of
/// their own (at the top level, or in a class's body) are left out: they
/// are validated on their own, with `context` telling where they stand.
pub fn validate_item(root: &SyntaxNode, context: ItemContext) -> Vec<SyntaxError> {
    let mut v = Validator {
        errors: Vec::new(),
        root_in_class: context == ItemContext::InClass,
    };
    let mut walk = root.preorder();
    while let Some(event) = walk.next() {
        let rowan::WalkEvent::Enter(node) = event else {
            continue;
        };
        if node == *root && context == ItemContext::TopLevelRun {
            continue;
        }
        if node != *root && is_item(&node) {
            walk.skip_subtree();
            continue;
        }
        v.check(&node);
    }
    v.errors.sort_by_key(|e| (e.range.start(), e.range.end()));
    v.errors
}

/// A definition that is an item of its own: at a file's top level or
/// directly in a class's body.
pub fn is_item(node: &SyntaxNode) -> bool {
    let definition = matches!(
        node.kind(),
        CLASS_DEF | DEFINE_DEF | FUNCTION_DEF | PLAN_DEF | TYPE_ALIAS | NODE_DEF
    );
    definition
        && node.parent().is_some_and(|p| {
            p.kind() == SOURCE_FILE
                || (p.kind() == BLOCK && p.parent().is_some_and(|c| c.kind() == CLASS_DEF))
        })
}

/// The error for a statement that produces a value nothing uses, when
/// another statement follows it (Puppet reports the first such statement
/// of a list).
pub fn idle_statement(statement: &Expr) -> Option<SyntaxError> {
    is_idem(statement).then(|| {
        SyntaxError::error(
            statement.syntax().text_range(),
            format!(
                "this {} has no effect: a value was produced and then forgotten (one or more preceding expressions may have the wrong form)",
                label(statement)
            ),
            Code::ExpressionHasNoEffect,
        )
    })
}

struct Validator {
    errors: Vec<SyntaxError>,
    /// The root being validated is a definition in a class's body.
    root_in_class: bool,
}

/// Type names a class, define or function may not take.
const RESERVED_TYPE_NAMES: &[&str] = &[
    "type",
    "any",
    "unit",
    "scalar",
    "boolean",
    "numeric",
    "integer",
    "float",
    "collection",
    "array",
    "hash",
    "tuple",
    "struct",
    "variant",
    "optional",
    "enum",
    "regexp",
    "pattern",
    "runtime",
    "init",
    "object",
    "sensitive",
    "semver",
    "semverrange",
    "string",
    "timestamp",
    "timespan",
    "typeset",
];

impl Validator {
    fn error(&mut self, range: TextRange, message: impl Into<String>, code: Code) {
        self.errors.push(SyntaxError::error(range, message, code));
    }

    fn warning(&mut self, range: TextRange, message: impl Into<String>, code: Code) {
        self.errors.push(SyntaxError::warning(range, message, code));
    }

    fn check(&mut self, node: &SyntaxNode) {
        match node.kind() {
            SOURCE_FILE | BLOCK => self.check_statements(node),
            ASSIGNMENT_EXPR => self.check_assignment(node),
            CLASS_DEF | DEFINE_DEF | FUNCTION_DEF | NODE_DEF | TYPE_ALIAS | TYPE_DEF | PLAN_DEF => {
                self.check_definition(node)
            }
            PARAM_LIST => self.check_params(node),
            VARIABLE_EXPR => self.check_variable(node),
            LITERAL => self.check_literal(node),
            CASE_EXPR => self.check_case(node),
            SELECTOR_EXPR => self.check_selector(node),
            HASH_EXPR => self.check_hash(node),
            ATTRIBUTE => self.check_attribute(node),
            RESOURCE_BODY | RESOURCE_DEFAULTS | RESOURCE_OVERRIDE | COLLECTOR => {
                self.check_unfolds(node)
            }
            RESOURCE_EXPR => self.check_resource(node),
            COLLECT_QUERY => self.check_query(node),
            CALL_EXPR => self.check_call(node),
            ACCESS_EXPR => self.check_access(node),
            RESERVED_WORD => {
                let word = node.text().to_string();
                self.error(
                    node.text_range(),
                    format!("use of reserved word: '{word}' is reserved for future use"),
                    Code::ReservedWord,
                );
            }
            TYPE_REFERENCE => self.check_type_reference(node),
            _ => {}
        }
        self.check_rvalues(node);
    }

    // ----- statements -----

    /// Expressions with no effect must not stand before the last statement.
    fn check_statements(&mut self, node: &SyntaxNode) {
        let statements: Vec<Expr> = ast::children(node).collect();
        if let Some((_, init)) = statements.split_last() {
            if let Some(error) = init.iter().find_map(idle_statement) {
                self.errors.push(error);
            }
        }
    }

    // ----- assignment -----

    fn check_assignment(&mut self, node: &SyntaxNode) {
        let Some(assignment) = ast::AssignmentExpr::cast(node.clone()) else {
            return;
        };
        if let Some(op) = assignment.op_token().filter(|t| t.kind() != EQ) {
            self.error(
                op.text_range(),
                format!(
                    "the operator '{}' is no longer supported: use '=' with '+' or '-'",
                    op.text()
                ),
                Code::UnsupportedOperator,
            );
            return;
        }
        if let Some(lhs) = assignment.lhs() {
            self.check_assignable(&lhs);
        }
    }

    fn check_assignable(&mut self, lhs: &Expr) {
        match lhs {
            Expr::VariableExpr(var) => {
                let name = var.name();
                if is_numeric_var(&name) {
                    self.error(
                        var.syntax().text_range(),
                        format!("illegal attempt to assign to the numeric match result variable '${name}'"),
                        Code::IllegalAssignment,
                    );
                } else if name.contains("::") {
                    self.error(
                        var.syntax().text_range(),
                        format!("cannot assign to '${name}': a variable of another scope (with '::') cannot be assigned"),
                        Code::IllegalAssignment,
                    );
                }
            }
            Expr::ArrayExpr(array) => {
                for element in array.elements() {
                    self.check_assignable(&element);
                }
            }
            Expr::AccessExpr(access) => self.error(
                access.syntax().text_range(),
                "illegal attempt to assign via [index/key]: not an assignable reference",
                Code::IllegalAssignment,
            ),
            other => {
                let label = label(other);
                self.error(
                    other.syntax().text_range(),
                    format!(
                        "illegal attempt to assign to {}: not an assignable reference",
                        a_an(&label)
                    ),
                    Code::IllegalAssignment,
                );
            }
        }
    }

    // ----- definitions -----

    fn check_definition(&mut self, node: &SyntaxNode) {
        self.check_top_level(node);
        let kind = node.kind();
        let (name, name_range) = definition_name(node);
        match kind {
            CLASS_DEF | DEFINE_DEF | FUNCTION_DEF | PLAN_DEF => {
                if let Some(name) = &name {
                    let bare = name.trim_start_matches("::");
                    if !is_classref_decl(bare) {
                        self.error(
                            name_range,
                            format!("illegal name '{name}': names of classes, defined types and functions must be lower-case names like 'my_module::thing'"),
                            Code::IllegalDefinitionName,
                        );
                    }
                    if RESERVED_TYPE_NAMES.contains(&bare) {
                        self.error(
                            name_range,
                            format!("the name '{bare}' is reserved for a built-in type"),
                            Code::ReservedTypeName,
                        );
                    }
                    if bare == "plan" {
                        self.warning(
                            name_range,
                            "'plan' is reserved for future use",
                            Code::FutureReservedWord,
                        );
                    }
                }
            }
            TYPE_ALIAS => self.check_type_alias(node),
            TYPE_DEF => self.error(
                head_range(node),
                "type definitions (`type Name { ... }`) are not supported by Puppet 7",
                Code::UnsupportedExpression,
            ),
            NODE_DEF => self.check_node(node),
            _ => {}
        }
        if matches!(kind, CLASS_DEF | DEFINE_DEF | NODE_DEF) {
            self.check_body_not_idem_last(node);
        }
        if matches!(kind, FUNCTION_DEF) {
            if let Some(rt) = ast::child::<ast::ReturnType>(node) {
                self.check_type_expr(rt.type_expr(), rt.syntax().text_range(), "return type");
            }
        }
    }

    /// Classes, defines and nodes only at top level or in a class;
    /// functions and type aliases only at top level.
    fn check_top_level(&mut self, node: &SyntaxNode) {
        let absolute = matches!(node.kind(), FUNCTION_DEF | TYPE_ALIAS | TYPE_DEF | PLAN_DEF);
        let mut current = node.parent();
        if current.is_none() {
            // An item validated on its own: its context says where it is.
            if !self.root_in_class || !absolute {
                return;
            }
        }
        while let Some(parent) = current {
            match parent.kind() {
                SOURCE_FILE | APPLY_EXPR => return,
                CLASS_DEF if !absolute => return,
                BLOCK if absolute => break,
                BLOCK => {}
                _ => break,
            }
            current = parent.parent();
        }
        let (message, code) = if absolute {
            let what = match node.kind() {
                FUNCTION_DEF => "a function definition",
                PLAN_DEF => "a plan definition",
                TYPE_DEF => "a type definition",
                _ => "a type alias",
            };
            (
                format!("{what} may only appear at top level"),
                Code::NotAbsoluteTopLevel,
            )
        } else {
            (
                "classes, defined types and nodes may only appear at top level or inside other classes".to_string(),
                Code::NotTopLevel,
            )
        };
        let range = head_range(node);
        self.error(range, message, code);
    }

    fn check_type_alias(&mut self, node: &SyntaxNode) {
        let Some(alias) = ast::TypeAlias::cast(node.clone()) else {
            return;
        };
        match alias.name_expr() {
            Some(Expr::TypeReference(r)) => {
                let name = r.name();
                if !is_classref_ext_decl(&name)
                    || r.token().is_some_and(|t| t.text().starts_with("::"))
                {
                    self.error(
                        r.syntax().text_range(),
                        format!("illegal type alias name '{name}'"),
                        Code::IllegalDefinitionName,
                    );
                }
                if RESERVED_TYPE_NAMES.contains(&name.to_lowercase().as_str()) {
                    self.error(
                        r.syntax().text_range(),
                        format!("the name '{name}' is reserved for a built-in type"),
                        Code::ReservedTypeName,
                    );
                }
            }
            Some(other) => self.error(
                other.syntax().text_range(),
                "a type alias name must be a plain type name like 'MyModule::Thing'",
                Code::IllegalDefinitionName,
            ),
            None => {}
        }
        let value = alias.value();
        if let Some(value) = &value {
            if !matches!(value, Expr::HashExpr(_) | Expr::ArrayExpr(_)) {
                self.check_type_expr(
                    Some(value.clone()),
                    value.syntax().text_range(),
                    "type alias value",
                );
            }
        }
    }

    /// A type position must hold `Type` or `Type[...]`.
    fn check_type_expr(&mut self, expr: Option<Expr>, range: TextRange, feature: &str) {
        let ok = match &expr {
            Some(Expr::TypeReference(_)) | None => true,
            Some(Expr::AccessExpr(a)) => matches!(a.target(), Some(Expr::TypeReference(_))),
            _ => false,
        };
        if !ok {
            self.error(
                range,
                format!("illegal expression: only a type reference is acceptable as a {feature}"),
                Code::IllegalExpression,
            );
        }
    }

    fn check_node(&mut self, node: &SyntaxNode) {
        let Some(def) = ast::NodeDef::cast(node.clone()) else {
            return;
        };
        for matcher in def.matchers() {
            self.check_hostname(&matcher);
        }
        if let Some(parent) = def.parent() {
            self.error(
                parent.syntax().text_range(),
                "node inheritance is not supported in Puppet >= 4.0",
                Code::IllegalNodeInheritance,
            );
        }
    }

    fn check_hostname(&mut self, matcher: &Expr) {
        let text = match matcher {
            Expr::Hostname(h) => Some(h.text()),
            Expr::SqStringExpr(s) => Some(s.value()),
            Expr::BareWord(w) => Some(w.text()),
            Expr::DqStringExpr(s) => match s.static_value() {
                Some(v) => Some(v),
                None => {
                    self.error(
                        matcher.syntax().text_range(),
                        "a node name cannot be an interpolated string",
                        Code::IllegalHostname,
                    );
                    None
                }
            },
            Expr::Literal(_) | Expr::RegexExpr(_) => None,
            other => {
                self.error(
                    other.syntax().text_range(),
                    "illegal expression as a node name: use a string, name, regular expression or 'default'",
                    Code::IllegalHostname,
                );
                None
            }
        };
        if let Some(text) = text {
            if text
                .chars()
                .any(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
            {
                self.error(
                    matcher.syntax().text_range(),
                    format!("the hostname '{text}' contains illegal characters (only letters, digits, '_', '-' and '.' are allowed)"),
                    Code::IllegalHostname,
                );
            }
        }
    }

    fn check_body_not_idem_last(&mut self, node: &SyntaxNode) {
        let Some(block) = ast::child::<ast::Block>(node) else {
            return;
        };
        let Some(last) = block.statements().last() else {
            return;
        };
        if is_idem(&last) {
            let what = match node.kind() {
                CLASS_DEF => "a class",
                DEFINE_DEF => "a defined type",
                _ => "a node definition",
            };
            self.error(
                last.syntax().text_range(),
                format!(
                    "this {} has no effect: {what} cannot end with a value-producing expression without other effect",
                    label(&last)
                ),
                Code::ExpressionHasNoEffect,
            );
        }
    }

    // ----- parameters -----

    fn check_params(&mut self, node: &SyntaxNode) {
        let Some(list) = ast::ParamList::cast(node.clone()) else {
            return;
        };
        let owner = node.parent().map(|p| p.kind());
        let in_resource_like = matches!(owner, Some(CLASS_DEF | DEFINE_DEF));
        let params: Vec<ast::Param> = list.params().collect();
        let mut seen = HashSet::new();
        for (i, param) in params.iter().enumerate() {
            let range = param.syntax().text_range();
            let Some(name) = param.name() else {
                continue;
            };
            if is_numeric_param(&name) {
                self.error(
                    range,
                    format!("the numeric parameter name '${name}' is not allowed"),
                    Code::IllegalParameterName,
                );
            } else if !is_param_name(&name) {
                self.error(
                    range,
                    format!(
                        "illegal parameter name '${name}': use lower-case letters, digits and '_'"
                    ),
                    Code::IllegalParameterName,
                );
            }
            if !seen.insert(name.clone()) {
                self.error(
                    range,
                    format!("the parameter '${name}' is declared more than once"),
                    Code::DuplicateParameter,
                );
            }
            if in_resource_like && (name == "name" || name == "title") {
                self.error(
                    range,
                    format!("the parameter '${name}' redefines a built-in parameter"),
                    Code::ReservedParameter,
                );
            }
            if param.captures_rest() {
                if in_resource_like {
                    self.error(
                        range,
                        format!("the parameter '${name}' cannot capture the rest: classes and defined types do not take variable arguments"),
                        Code::CapturesRestNotSupported,
                    );
                } else if owner == Some(LAMBDA) && i + 1 != params.len() {
                    self.error(
                        range,
                        format!("the parameter '${name}' captures the rest and must be the last parameter"),
                        Code::CapturesRestNotLast,
                    );
                }
            }
            if let Some(default) = param.default_value() {
                if let Some(assign) = default.syntax().descendants().find(|n| {
                    n.kind() == ASSIGNMENT_EXPR && !n.ancestors().any(|a| a.kind() == LAMBDA)
                }) {
                    self.error(
                        assign.text_range(),
                        "an assignment is not allowed in a parameter's default value",
                        Code::IllegalAssignmentContext,
                    );
                }
            }
        }
    }

    // ----- expressions -----

    fn check_variable(&mut self, node: &SyntaxNode) {
        let Some(var) = ast::VariableExpr::cast(node.clone()) else {
            return;
        };
        let Some(token) = var.token() else {
            return;
        };
        // Inside `${...}` a bare name or keyword stands for a variable.
        if token.kind() != VARIABLE {
            return;
        }
        let name = var.name();
        if name.is_empty() {
            self.error(
                node.text_range(),
                "'$' must be followed by a variable name",
                Code::IllegalVariableName,
            );
        } else if name.starts_with(|c: char| c.is_ascii_digit()) {
            if !is_numeric_var(&name) {
                self.error(
                    node.text_range(),
                    format!("illegal numeric variable name '${name}': use $0 or a number without leading zeros"),
                    Code::IllegalVariableName,
                );
            }
        } else if !is_var_name(&name) {
            self.error(
                node.text_range(),
                format!("illegal variable name '${name}': variable names start with a lower-case letter or '_'"),
                Code::IllegalVariableName,
            );
        }
    }

    fn check_literal(&mut self, node: &SyntaxNode) {
        let Some(literal) = ast::Literal::cast(node.clone()) else {
            return;
        };
        if let Some(LiteralValue::Number(Err(NumberError::Overflow))) = literal.value() {
            self.error(
                node.text_range(),
                format!(
                    "the integer {} is out of range (64-bit signed)",
                    node.text()
                ),
                Code::NumericOverflow,
            );
        }
    }

    fn check_case(&mut self, node: &SyntaxNode) {
        let Some(case) = ast::CaseExpr::cast(node.clone()) else {
            return;
        };
        let mut found_default = false;
        for option in case.options() {
            for value in option.values() {
                if is_default(&value) {
                    if found_default {
                        self.error(
                            value.syntax().text_range(),
                            "this case expression already has a 'default' option: this is a duplicate",
                            Code::DuplicateDefault,
                        );
                    }
                    found_default = true;
                }
            }
        }
    }

    fn check_selector(&mut self, node: &SyntaxNode) {
        let Some(selector) = ast::SelectorExpr::cast(node.clone()) else {
            return;
        };
        let defaults: Vec<Expr> = selector
            .entries()
            .filter_map(|e| e.matcher())
            .filter(is_default)
            .collect();
        if let Some(second) = defaults.get(1) {
            self.error(
                second.syntax().text_range(),
                "this selector already has a 'default' entry: this is a duplicate",
                Code::DuplicateDefault,
            );
        }
    }

    /// Duplicate literal keys: a warning, as with Puppet's default `strict`.
    fn check_hash(&mut self, node: &SyntaxNode) {
        let Some(hash) = ast::HashExpr::cast(node.clone()) else {
            return;
        };
        let mut seen = HashSet::new();
        for entry in hash.entries() {
            if let Some(key) = entry.key().as_ref().and_then(ast::StaticLiteral::of) {
                if !seen.insert(key.clone()) {
                    self.warning(
                        entry.syntax().text_range(),
                        format!("the key '{key}' is declared more than once in this hash"),
                        Code::DuplicateKey,
                    );
                }
            }
        }
    }

    fn check_attribute(&mut self, node: &SyntaxNode) {
        let Some(attribute) = ast::Attribute::cast(node.clone()) else {
            return;
        };
        let container = node.parent().map(|p| p.kind());
        if attribute.is_append() && !matches!(container, Some(RESOURCE_OVERRIDE | COLLECTOR)) {
            let name = attribute.name().unwrap_or_default();
            self.error(
                node.text_range(),
                format!("illegal +> operation on attribute '{name}': it is only allowed in resource overrides and collectors"),
                Code::IllegalAttributeAppend,
            );
        }
    }

    /// At most one `* =>` per resource body.
    fn check_unfolds(&mut self, node: &SyntaxNode) {
        let splats: Vec<ast::Attribute> = ast::children::<ast::Attribute>(node)
            .filter(|a| a.is_splat())
            .collect();
        for extra in splats.iter().skip(1) {
            self.error(
                extra.syntax().text_range(),
                "only one '* =>' is allowed per resource body",
                Code::MultipleAttributesUnfold,
            );
        }
        if node.kind() == COLLECTOR {
            if let Some(type_expr) = ast::child::<Expr>(node) {
                if !matches!(type_expr, Expr::TypeReference(_)) {
                    self.error(
                        type_expr.syntax().text_range(),
                        "illegal expression: a collector needs a resource type reference like 'File'",
                        Code::IllegalExpression,
                    );
                }
            }
        }
        if matches!(node.kind(), RESOURCE_DEFAULTS | RESOURCE_OVERRIDE) {
            if let Some(at) =
                ast::first_significant_token(node).filter(|t| matches!(t.kind(), AT | ATAT))
            {
                self.error(
                    at.text_range(),
                    "resource defaults and overrides cannot be virtual or exported",
                    Code::NotVirtualizable,
                );
            }
        }
    }

    fn check_resource(&mut self, node: &SyntaxNode) {
        let Some(resource) = ast::ResourceExpr::cast(node.clone()) else {
            return;
        };
        if resource.form() != ast::ResourceForm::Regular
            && resource.type_name().as_deref() == Some("class")
        {
            self.error(
                head_range(node),
                "classes cannot be virtual or exported",
                Code::ClassNotVirtualizable,
            );
        }
    }

    fn check_query(&mut self, node: &SyntaxNode) {
        if let Some(expr) = ast::child::<Expr>(node) {
            self.check_query_expr(&expr);
        }
    }

    fn check_query_expr(&mut self, expr: &Expr) {
        use ast::BinaryOp::*;
        match expr {
            Expr::BinaryExpr(b) => match b.op() {
                Some(And | Or) => {
                    for side in [b.lhs(), b.rhs()].into_iter().flatten() {
                        self.check_query_expr(&side);
                    }
                }
                Some(Eq | NotEq) => {}
                _ => self.illegal_query(expr),
            },
            Expr::ParenExpr(p) => {
                if let Some(inner) = p.expr() {
                    self.check_query_expr(&inner);
                }
            }
            Expr::VariableExpr(_)
            | Expr::QualifiedName(_)
            | Expr::Literal(_)
            | Expr::SqStringExpr(_) => {}
            Expr::DqStringExpr(_) => {}
            _ => self.illegal_query(expr),
        }
    }

    fn illegal_query(&mut self, expr: &Expr) {
        self.error(
            expr.syntax().text_range(),
            "illegal query expression: only '==', '!=', 'and', 'or' and parentheses are allowed in a collector query",
            Code::IllegalQueryExpression,
        );
    }

    fn check_call(&mut self, node: &SyntaxNode) {
        let Some(call) = ast::CallExpr::cast(node.clone()) else {
            return;
        };
        match call.callee() {
            Some(Expr::QualifiedName(_)) | Some(Expr::TypeReference(_)) | None => {}
            Some(Expr::AccessExpr(a)) if matches!(a.target(), Some(Expr::TypeReference(_))) => {}
            Some(Expr::RenderString(r)) => self.error(
                r.syntax().text_range(),
                "template text followed by '(': did you mean '<%- |...| -%>' for the template's parameters?",
                Code::IllegalEppParameters,
            ),
            Some(other) => {
                let label = label(&other);
                self.error(
                    other.syntax().text_range(),
                    format!("illegal expression: {} is unacceptable as a function name", a_an(&label)),
                    Code::IllegalExpression,
                )
            }
        }
    }

    fn check_access(&mut self, node: &SyntaxNode) {
        let Some(access) = ast::AccessExpr::cast(node.clone()) else {
            return;
        };
        if access.args().is_empty() {
            self.error(
                node.text_range(),
                "missing key or index in '[]'",
                Code::MissingIndex,
            );
        }
    }

    fn check_type_reference(&mut self, node: &SyntaxNode) {
        let Some(r) = ast::TypeReference::cast(node.clone()) else {
            return;
        };
        let name = r.name();
        if !is_classref_ext_decl(&name) {
            self.error(
                node.text_range(),
                format!("illegal type reference '{name}': each segment must start with an upper-case letter"),
                Code::IllegalTypeReference,
            );
        }
    }

    /// Definitions and collectors produce no value: they cannot be operands.
    fn check_rvalues(&mut self, node: &SyntaxNode) {
        let operands: Vec<Expr> = match node.kind() {
            BINARY_EXPR | UNARY_EXPR | SELECTOR_ENTRY | HASH_ENTRY | ARRAY_EXPR | CASE_OPTION
            | ATTRIBUTE => ast::children(node).collect(),
            IF_EXPR | UNLESS_EXPR | CASE_EXPR | SELECTOR_EXPR | ELSIF_BRANCH => {
                ast::child(node).into_iter().collect()
            }
            ASSIGNMENT_EXPR => ast::children::<Expr>(node).skip(1).collect(),
            _ => return,
        };
        for operand in operands {
            let bad = match &operand {
                Expr::Collector(_) => Some("a collector"),
                Expr::ClassDef(_) => Some("a class definition"),
                Expr::DefineDef(_) => Some("a defined type definition"),
                Expr::FunctionDef(_) => Some("a function definition"),
                Expr::NodeDef(_) => Some("a node definition"),
                Expr::TypeAlias(_) => Some("a type alias"),
                _ => None,
            };
            if let Some(what) = bad {
                self.error(
                    operand.syntax().text_range(),
                    format!("invalid use of expression: {what} does not produce a value"),
                    Code::NotRvalue,
                );
            }
        }
    }
}

/// Whether an expression is known to have no effect (Puppet's `idem`).
fn is_idem(expr: &Expr) -> bool {
    match expr {
        Expr::Literal(_)
        | Expr::QualifiedName(_)
        | Expr::BareWord(_)
        | Expr::TypeReference(_)
        | Expr::SqStringExpr(_)
        | Expr::DqStringExpr(_)
        | Expr::HeredocExpr(_)
        | Expr::RegexExpr(_)
        | Expr::ArrayExpr(_)
        | Expr::HashExpr(_)
        | Expr::AccessExpr(_)
        | Expr::UnaryExpr(_)
        | Expr::SelectorExpr(_)
        | Expr::Hostname(_)
        | Expr::ReservedWord(_)
        // A variable is a unary expression in Puppet's model.
        | Expr::VariableExpr(_) => true,
        Expr::BinaryExpr(b) => !matches!(b.op(), Some(ast::BinaryOp::Match | ast::BinaryOp::NotMatch)),
        Expr::ParenExpr(p) => p.expr().is_none_or(|e| is_idem(&e)),
        Expr::IfExpr(i) => {
            i.condition().is_none_or(|c| is_idem(&c))
                && block_is_idem(i.then_block())
                && i.elsif_branches().all(|b| b.condition().is_none_or(|c| is_idem(&c)) && block_is_idem(b.block()))
                && block_is_idem(i.else_branch().and_then(|e| e.block()))
        }
        Expr::UnlessExpr(u) => {
            u.condition().is_none_or(|c| is_idem(&c))
                && block_is_idem(u.then_block())
                && block_is_idem(u.else_branch().and_then(|e| e.block()))
        }
        Expr::CaseExpr(c) => {
            c.subject().is_none_or(|s| is_idem(&s))
                && c.options().all(|o| o.values().all(|v| is_idem(&v)) && block_is_idem(o.body()))
        }
        _ => false,
    }
}

fn block_is_idem(block: Option<ast::Block>) -> bool {
    block.is_none_or(|b| b.statements().all(|s| is_idem(&s)))
}

fn is_default(expr: &Expr) -> bool {
    matches!(expr, Expr::Literal(l) if l.value() == Some(LiteralValue::Default))
}

/// How Puppet names an expression in messages.
fn label(expr: &Expr) -> String {
    match expr {
        Expr::Literal(l) => match l.value() {
            Some(LiteralValue::Number(Ok(ast::Number::Float(_)))) => "Literal Float",
            Some(LiteralValue::Number(_)) => "Literal Integer",
            Some(LiteralValue::Boolean(_)) => "Literal Boolean",
            Some(LiteralValue::Undef) => "Literal Undef",
            Some(LiteralValue::Default) => "Literal Default",
            _ => "Literal",
        },
        Expr::QualifiedName(_) => "Name",
        Expr::BareWord(_) | Expr::SqStringExpr(_) => "Literal String",
        Expr::DqStringExpr(_) => "String",
        Expr::TypeReference(_) => "Type-Name",
        Expr::HeredocExpr(_) => "Heredoc",
        Expr::RegexExpr(_) => "Regular Expression",
        Expr::ArrayExpr(_) => "Array Expression",
        Expr::HashExpr(_) => "Hash Expression",
        Expr::AccessExpr(_) => "Access Expression",
        Expr::BinaryExpr(_) => "Binary Expression",
        Expr::UnaryExpr(_) => "Unary Expression",
        Expr::SelectorExpr(_) => "Selector Expression",
        Expr::ParenExpr(_) => "Parenthesized Expression",
        Expr::IfExpr(_) => "'if' statement",
        Expr::UnlessExpr(_) => "'unless' statement",
        Expr::CaseExpr(_) => "'case' statement",
        Expr::VariableExpr(_) => "Variable",
        Expr::CallExpr(_) | Expr::StatementCall(_) => "Function Call",
        Expr::MethodCallExpr(_) => "Method Call",
        _ => "Expression",
    }
    .to_string()
}

fn a_an(label: &str) -> String {
    let article = if label.starts_with(['A', 'E', 'I', 'O', 'U', 'a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {label}")
}

/// The name of a definition and its range (or the node's head).
fn definition_name(node: &SyntaxNode) -> (Option<String>, TextRange) {
    let token = node
        .children_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(|t| !t.kind().is_trivia())
        .skip(1)
        .find(|t| matches!(t.kind(), NAME | WORD | TYPE_REF));
    match token {
        Some(t) => (Some(t.text().to_string()), t.text_range()),
        None => (None, head_range(node)),
    }
}

/// The range of a node's first significant token (its keyword).
fn head_range(node: &SyntaxNode) -> TextRange {
    ast::first_significant_token(node).map_or(node.text_range(), |t| t.text_range())
}

fn is_numeric_var(name: &str) -> bool {
    name == "0"
        || (name.starts_with(|c: char| ('1'..='9').contains(&c))
            && name.bytes().all(|b| b.is_ascii_digit()))
}

fn is_numeric_param(name: &str) -> bool {
    let digits = name.strip_prefix("0x").unwrap_or(name);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// `(::)?([a-z]\w*::)*[a-z_]\w*`
pub fn is_var_name(name: &str) -> bool {
    let name = name.strip_prefix("::").unwrap_or(name);
    let segments: Vec<&str> = name.split("::").collect();
    let Some((last, init)) = segments.split_last() else {
        return false;
    };
    init.iter()
        .all(|s| s.starts_with(|c: char| c.is_ascii_lowercase()) && s.chars().all(is_word_char))
        && last.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        && last.chars().all(is_word_char)
}

/// `[a-z_]\w*`
pub fn is_param_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_') && name.chars().all(is_word_char)
}

/// `[a-z]\w*(::[a-z]\w*)*`
pub fn is_classref_decl(name: &str) -> bool {
    name.split("::")
        .all(|s| s.starts_with(|c: char| c.is_ascii_lowercase()) && s.chars().all(is_word_char))
}

/// `[A-Z]\w*(::[A-Z]\w*)*`
pub fn is_classref_ext_decl(name: &str) -> bool {
    name.split("::")
        .all(|s| s.starts_with(|c: char| c.is_ascii_uppercase()) && s.chars().all(is_word_char))
}
