//! The outline of a file: a tree of what it defines and declares, for the
//! editor's outline view and breadcrumbs. Built from the syntax tree alone,
//! so it works on broken code (whatever parsed is shown).

use super::{Cancellable, SymbolKind};
use crate::Analysis;
use puppet_analysis::hir::normalized_text;
use puppet_syntax::ast::{self, AstNode, Expr};
use puppet_syntax::{SyntaxKind, SyntaxNode, TextRange};
use std::path::Path;

/// One entry of the outline: `full_range` covers the whole construct,
/// `focus_range` its name (what the editor selects).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentSymbol {
    pub name: String,
    /// A short description shown next to the name: a parameter's or
    /// alias's type, a class's parent.
    pub detail: Option<String>,
    pub kind: SymbolKind,
    pub full_range: TextRange,
    pub focus_range: TextRange,
    pub children: Vec<DocumentSymbol>,
}

impl Analysis {
    /// The hierarchical outline of a file (empty for unknown files).
    pub fn document_symbols(&self, path: &Path) -> Cancellable<Vec<DocumentSymbol>> {
        self.with_db(|a| {
            a.syntax(path)
                .map(|root| symbols_in(&root))
                .unwrap_or_default()
        })
    }
}

/// The symbols of the nodes under `node`, looking through constructs that
/// are not symbols themselves (conditionals, calls, lambdas).
fn symbols_in(node: &SyntaxNode) -> Vec<DocumentSymbol> {
    let mut out = Vec::new();
    for child in node.children() {
        collect(&child, &mut out);
    }
    out
}

fn collect(node: &SyntaxNode, out: &mut Vec<DocumentSymbol>) {
    let full_range = node.text_range();
    let symbol = |name: String, kind, focus_range, detail, children| DocumentSymbol {
        name,
        detail,
        kind,
        full_range,
        focus_range,
        children,
    };
    match node.kind() {
        SyntaxKind::CLASS_DEF
        | SyntaxKind::DEFINE_DEF
        | SyntaxKind::FUNCTION_DEF
        | SyntaxKind::PLAN_DEF => {
            let Some(def) = Definition::of(node) else {
                return out.extend(symbols_in(node));
            };
            let focus = def
                .name_token
                .as_ref()
                .map_or(full_range, |t| t.text_range());
            let name = def
                .name_token
                .map_or_else(|| "<unnamed>".to_string(), |t| t.text().to_string());
            let mut children = parameter_symbols(def.params);
            if let Some(body) = def.body {
                children.extend(symbols_in(body.syntax()));
            }
            out.push(symbol(name, def.kind, focus, def.detail, children));
        }
        SyntaxKind::NODE_DEF => {
            let Some(node_def) = ast::NodeDef::cast(node.clone()) else {
                return;
            };
            let matchers: Vec<Expr> = node_def.matchers().collect();
            let name = matchers
                .iter()
                .map(|m| normalized_text(m.syntax()))
                .collect::<Vec<_>>()
                .join(", ");
            let focus = matchers
                .first()
                .map_or(full_range, |m| m.syntax().text_range());
            let detail = node_def
                .parent()
                .and_then(|p| p.hostname())
                .map(|h| format!("inherits {}", normalized_text(h.syntax())));
            let children = node_def
                .body()
                .map(|b| symbols_in(b.syntax()))
                .unwrap_or_default();
            out.push(symbol(name, SymbolKind::Node, focus, detail, children));
        }
        SyntaxKind::TYPE_ALIAS => {
            let Some(alias) = ast::TypeAlias::cast(node.clone()) else {
                return;
            };
            let Some(name_expr) = alias.name_expr() else {
                return;
            };
            let detail = alias.value().map(|v| {
                let mut text = normalized_text(v.syntax());
                if let Some(init) = alias.initializer() {
                    text.push(' ');
                    text.push_str(&normalized_text(init.syntax()));
                }
                text
            });
            let name = normalized_text(name_expr.syntax());
            let focus = name_expr.syntax().text_range();
            out.push(symbol(
                name,
                SymbolKind::TypeAlias,
                focus,
                detail,
                Vec::new(),
            ));
        }
        SyntaxKind::TYPE_DEF => {
            let Some(def) = ast::TypeDef::cast(node.clone()) else {
                return;
            };
            let Some(name_ref) = ast::child::<ast::TypeReference>(node) else {
                return;
            };
            let detail = def.parent().map(|p| format!("inherits {p}"));
            let focus = name_ref.syntax().text_range();
            out.push(symbol(
                name_ref.name(),
                SymbolKind::TypeAlias,
                focus,
                detail,
                Vec::new(),
            ));
        }
        SyntaxKind::RESOURCE_EXPR => {
            let Some(resource) = ast::ResourceExpr::cast(node.clone()) else {
                return;
            };
            let type_name = resource
                .type_expr()
                .map(|t| capitalized_type(&normalized_text(t.syntax())))
                .unwrap_or_default();
            let detail = match resource.form() {
                ast::ResourceForm::Regular => None,
                ast::ResourceForm::Virtual => Some("virtual".to_string()),
                ast::ResourceForm::Exported => Some("exported".to_string()),
            };
            let bodies: Vec<ast::ResourceBody> = resource.bodies().collect();
            let single = bodies.len() == 1;
            for body in bodies {
                let title = body.title();
                let title_text = title.as_ref().map_or_else(String::new, title_text);
                let body_range = body.syntax().text_range();
                let focus = title.map_or(body_range, |t| t.syntax().text_range());
                out.push(DocumentSymbol {
                    name: format!("{type_name}[{title_text}]"),
                    detail: detail.clone(),
                    kind: SymbolKind::Resource,
                    full_range: if single { full_range } else { body_range },
                    focus_range: focus,
                    children: symbols_in(body.syntax()),
                });
            }
        }
        SyntaxKind::RESOURCE_DEFAULTS => {
            let Some(defaults) = ast::ResourceDefaults::cast(node.clone()) else {
                return;
            };
            let Some(type_expr) = defaults.type_expr() else {
                return;
            };
            let name = normalized_text(type_expr.syntax());
            let focus = type_expr.syntax().text_range();
            let detail = Some("resource defaults".to_string());
            out.push(symbol(
                name,
                SymbolKind::ResourceType,
                focus,
                detail,
                symbols_in(node),
            ));
        }
        SyntaxKind::ASSIGNMENT_EXPR => {
            let Some(assignment) = ast::AssignmentExpr::cast(node.clone()) else {
                return;
            };
            if let Some(lhs) = assignment.lhs() {
                for variable in assigned_variables(&lhs) {
                    let Some(token) = variable.token() else {
                        continue;
                    };
                    out.push(symbol(
                        token.text().to_string(),
                        SymbolKind::Variable,
                        token.text_range(),
                        None,
                        Vec::new(),
                    ));
                }
            }
            if let Some(rhs) = assignment.rhs() {
                collect(rhs.syntax(), out);
            }
        }
        SyntaxKind::EPP_PARAMS => {
            let params = ast::EppParams::cast(node.clone()).and_then(|p| p.params());
            out.extend(parameter_symbols(params));
        }
        _ => out.extend(symbols_in(node)),
    }
}

/// The parts of a named definition the outline shows.
struct Definition {
    kind: SymbolKind,
    name_token: Option<puppet_syntax::SyntaxToken>,
    params: Option<ast::ParamList>,
    body: Option<ast::Block>,
    detail: Option<String>,
}

impl Definition {
    fn of(node: &SyntaxNode) -> Option<Definition> {
        Some(match Expr::cast(node.clone())? {
            Expr::ClassDef(d) => Definition {
                kind: SymbolKind::Class,
                name_token: d.name_token(),
                params: d.params(),
                body: d.body(),
                detail: d
                    .parent()
                    .and_then(|p| p.name_token())
                    .map(|t| format!("inherits {}", t.text())),
            },
            Expr::DefineDef(d) => Definition {
                kind: SymbolKind::DefinedType,
                name_token: d.name_token(),
                params: d.params(),
                body: d.body(),
                detail: None,
            },
            Expr::FunctionDef(d) => Definition {
                kind: SymbolKind::Function,
                name_token: d.name_token(),
                params: d.params(),
                body: d.body(),
                detail: d
                    .return_type()
                    .and_then(|r| r.type_expr())
                    .map(|t| format!(">> {}", normalized_text(t.syntax()))),
            },
            Expr::PlanDef(d) => Definition {
                kind: SymbolKind::Plan,
                name_token: d.name_token(),
                params: d.params(),
                body: d.body(),
                detail: None,
            },
            _ => return None,
        })
    }
}

/// Parameters as symbols, their declared types as details.
fn parameter_symbols(list: Option<ast::ParamList>) -> Vec<DocumentSymbol> {
    list.into_iter()
        .flat_map(|l| l.params().collect::<Vec<_>>())
        .filter_map(|p| {
            let token = p.variable_token()?;
            Some(DocumentSymbol {
                name: token.text().to_string(),
                detail: p.type_expr().map(|t| normalized_text(t.syntax())),
                kind: SymbolKind::Parameter,
                full_range: p.syntax().text_range(),
                focus_range: token.text_range(),
                children: Vec::new(),
            })
        })
        .collect()
}

/// The variables an assignment target binds: `$x` or `[$a, $b]`.
fn assigned_variables(lhs: &Expr) -> Vec<ast::VariableExpr> {
    match lhs {
        Expr::VariableExpr(v) => vec![v.clone()],
        Expr::ArrayExpr(a) => a.elements().flat_map(|e| assigned_variables(&e)).collect(),
        _ => Vec::new(),
    }
}

/// `file` -> `File`, `apache::vhost` -> `Apache::Vhost`: how Puppet
/// writes resource references.
fn capitalized_type(name: &str) -> String {
    name.split("::")
        .map(|segment| {
            let mut chars = segment.chars();
            chars.next().map_or_else(String::new, |c| {
                c.to_uppercase().chain(chars).collect::<String>()
            })
        })
        .collect::<Vec<_>>()
        .join("::")
}

/// A title as it reads in a resource reference: static strings quoted.
fn title_text(title: &Expr) -> String {
    match title.static_string() {
        Some(s) if !matches!(title, Expr::QualifiedName(_) | Expr::BareWord(_)) => {
            format!("'{s}'")
        }
        _ => normalized_text(title.syntax()),
    }
}
