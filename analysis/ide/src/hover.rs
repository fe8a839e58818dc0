//! Hover: what the thing under the cursor is, with its inferred type and,
//! for a constant, its value. Variables show what the walk of
//! `infer` knows at that point (narrowed in branches); definitions show
//! their signature, where they are and their documentation; built-ins show
//! our one-line description and, when Puppet is installed, its reference
//! text.

use super::cursor::token_at;
use super::hiera_data::{data_file_hover, data_markdown, lookup_key_at};
use super::module_metadata::metadata_hover;
use super::occurrences::{occurrence_at, Referent};
use super::parameter_info::{parameter_at, parameter_of, written, ParameterInfo};
use super::type_aliases::expansion;
use super::{Cancellable, FilePosition};
use crate::Analysis;
use puppet_analysis::builtins::bolt_functions;
use puppet_analysis::db::workspace_builtins;
use puppet_analysis::db::{parse, SourceFile, Workspace};
use puppet_analysis::docs::DocSource;
use puppet_analysis::hiera::lookup::Node;
use puppet_analysis::hir::signature::Documentation;
use puppet_analysis::hir::{DefKind, Signature};
use puppet_analysis::index::{lookup, Namespace};
use puppet_analysis::infer::{infer_range, FileTypes, Inferred};
use puppet_analysis::resolve::resolution::{variable_resolution, FileTarget};
use puppet_analysis::resolve::scope::{Target, TopScopeSetter, VariableDefKind};
use puppet_analysis::target::Target as PuppetTarget;
use puppet_analysis::values::format::to_programmatic;
use puppet_syntax::ast::{self, AstNode};
use puppet_syntax::{SyntaxKind, SyntaxNode, SyntaxToken, TextRange};
use std::fmt::Write;

/// A hover's content (Markdown) and the range it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HoverResult {
    pub range: TextRange,
    pub markdown: String,
}

/// Longest value shown; longer ones are cut.
const MAX_VALUE_CHARS: usize = 400;

impl Analysis {
    /// What is under the cursor, or `None` on whitespace, comments,
    /// punctuation and unknown positions.
    pub fn hover(&self, pos: &FilePosition) -> Cancellable<Option<HoverResult>> {
        self.with_db(|a| {
            let db = a.db();
            if let Some(data) = a.data_file(&pos.path) {
                let node = a.hiera_node();
                let (range, markdown) = data_file_hover(db, a.workspace(), data, pos.offset, node)?;
                return Some(HoverResult { range, markdown });
            }
            if let Some(metadata) = a.metadata_file(&pos.path) {
                let (range, markdown) =
                    metadata_hover(db, a.workspace(), a.target(), metadata, pos.offset)?;
                return Some(HoverResult { range, markdown });
            }
            let file = a.file(&pos.path)?;
            let root = parse(db, file).syntax_node();
            let token = token_at(&root, pos.offset)?;
            if matches!(token.kind(), SyntaxKind::COMMENT | SyntaxKind::WHITESPACE) {
                return None;
            }
            let h = Hover {
                db,
                workspace: a.workspace(),
                file,
                docs: a.docs(),
                node: a.hiera_node(),
            };
            if let Some(found) = lookup_key_at(&token) {
                let merge = found.merge.as_deref();
                let data = data_markdown(db, a.workspace(), &found.key, merge, a.hiera_node());
                if let Some(markdown) = data {
                    return Some(HoverResult {
                        range: found.key_range,
                        markdown,
                    });
                }
            }
            if let Some(o) = occurrence_at(db, a.workspace(), file, pos.offset) {
                if let Some(markdown) = h.referent(&o.referent, &token) {
                    return Some(HoverResult {
                        range: o.range,
                        markdown,
                    });
                }
            }
            if let Some(result) = h.attribute(&token) {
                return Some(result);
            }
            h.expression(&token)
        })
    }
}

struct Hover<'db> {
    db: &'db dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    /// Puppet's reference text, when the server found Puppet installed.
    docs: &'db DocSource,
    /// The node whose Hiera values are shown, when the user chose one.
    node: Option<&'db Node>,
}

fn code_block(text: &str) -> String {
    format!("```puppet\n{text}\n```\n")
}

fn value_text(inferred: &Inferred) -> Option<String> {
    let v = inferred.value.as_ref()?;
    let mut text = to_programmatic(v);
    if text.chars().count() > MAX_VALUE_CHARS {
        text = text.chars().take(MAX_VALUE_CHARS).collect::<String>() + "…";
    }
    Some(text)
}

impl Hover<'_> {
    fn referent(&self, referent: &Referent, token: &SyntaxToken) -> Option<String> {
        match referent {
            Referent::Variable { file, range, .. } if attribute_named(token).is_some() => {
                self.attribute_parameter(*file, *range, token)
            }
            Referent::Variable { .. } | Referent::ExternalVariable(_) => self.variable(token),
            Referent::Definition(namespace, name) => {
                let found = lookup(self.db, self.workspace, *namespace, name);
                match found.first() {
                    Some(resolved) => Some(self.definition(
                        &resolved.definition,
                        puppet_analysis::hir::item_documentation(self.db, resolved.location.item),
                        resolved.location.file.path(self.db),
                    )),
                    None => self.builtin(*namespace, name),
                }
            }
            Referent::RubyType(name) => {
                let plugins = puppet_analysis::ruby_plugins::plugin_index(self.db, self.workspace);
                let t = plugins.types.get(name)?;
                let mut md = code_block(&format!("type {name}"));
                let _ = writeln!(md, "\nResource type written in Ruby by a module.");
                if !t.attributes.is_empty() {
                    let _ = writeln!(md, "\nAttributes: {}", t.attributes.join(", "));
                }
                if t.open {
                    let _ = writeln!(
                        md,
                        "\nThe list of attributes is incomplete: the type also defines attributes in code that is not read statically (shared blocks, loops, mixins)."
                    );
                }
                Some(md)
            }
            Referent::RubyFunction(name) => {
                let mut md = format!(
                    "{}\nFunction written in Ruby by a module.\n",
                    code_block(&format!("function {name}"))
                );
                let deprecations = puppet_analysis::ruby_plugins::ruby_function_deprecations(
                    self.db,
                    self.workspace,
                );
                if let Some(d) = deprecations.get(name) {
                    let _ = writeln!(
                        md,
                        "\nDeprecated{}",
                        d.message
                            .as_deref()
                            .map(|m| format!(": {m}"))
                            .unwrap_or_else(|| ".".to_string())
                    );
                }
                Some(md)
            }
            Referent::Resource { type_name, title } => Some(format!(
                "{}\nA resource of the catalog.\n",
                code_block(&format!(
                    "{}['{}']",
                    puppet_analysis::types::display::capitalize_segments(type_name),
                    title
                ))
            )),
            Referent::Template(path) => Some(format!("Template `{}`\n", path.display())),
        }
    }

    /// A definition of the workspace: its signature, file and doc comment.
    fn definition(&self, def: &Signature, docs: &Documentation, path: &std::path::Path) -> String {
        let params = || {
            def.params
                .iter()
                .map(|p| written(p, docs))
                .collect::<Vec<_>>()
        };
        let list = |items: Vec<String>| {
            if items.is_empty() {
                String::new()
            } else if items.iter().map(String::len).sum::<usize>() > 60 {
                format!("(\n  {},\n)", items.join(",\n  "))
            } else {
                format!("({})", items.join(", "))
            }
        };
        let signature = match def.kind {
            DefKind::Class => {
                let mut s = format!("class {}{}", def.name, list(params()));
                if let Some(parent) = &def.parent {
                    let _ = write!(s, " inherits {parent}");
                }
                s
            }
            DefKind::DefinedType => format!("define {}{}", def.name, list(params())),
            DefKind::Function | DefKind::Plan => {
                let keyword = if def.kind == DefKind::Plan {
                    "plan"
                } else {
                    "function"
                };
                let mut s = format!("{keyword} {}{}", def.name, {
                    let l = list(params());
                    if l.is_empty() {
                        "()".to_string()
                    } else {
                        l
                    }
                });
                if let Some(t) = &def.type_text {
                    let _ = write!(s, " >> {t}");
                }
                s
            }
            DefKind::TypeAlias => format!(
                "type {} = {}",
                def.name,
                def.type_text.as_deref().unwrap_or("Any")
            ),
            DefKind::Node => format!("node {}", def.name),
        };
        let mut md = code_block(&signature);
        if def.kind == DefKind::TypeAlias {
            let alias = puppet_analysis::model::Type::Alias(def.name.clone());
            if let Some(expanded) = expansion(self.db, self.workspace, &alias) {
                if Some(expanded.as_str()) != def.type_text.as_deref() {
                    let _ = writeln!(md, "\nExpands to `{expanded}`");
                }
            }
        }
        let _ = writeln!(md, "\n{} in `{}`", def.kind.describe(), path.display());
        if let Some(doc) = docs.markdown() {
            let _ = writeln!(md, "\n{doc}");
        }
        md
    }

    /// A name the workspace does not define: a core resource type or
    /// function, or a built-in data type.
    fn builtin(&self, namespace: Namespace, name: &str) -> Option<String> {
        let b = workspace_builtins(self.db, self.workspace);
        match namespace {
            Namespace::DefinedType | Namespace::Class | Namespace::Type => {
                if let Some(t) = b.resource_type(name) {
                    let mut md = code_block(&format!("type {}", t.name));
                    let _ = writeln!(md, "\nCore resource type of Puppet {}.", b.puppet_version);
                    if let Some(d) = &t.description {
                        let _ = writeln!(md, "\n{d}");
                    }
                    let required: Vec<&str> =
                        t.required_attributes().map(|a| a.name.as_str()).collect();
                    if !required.is_empty() {
                        let _ = writeln!(md, "\nRequired: {}", required.join(", "));
                    }
                    if let Some(doc) = self.docs.type_doc(&t.name) {
                        let _ = writeln!(md, "\n---\n{doc}");
                    }
                    return Some(md);
                }
                None
            }
            Namespace::Function => {
                let stdlib = puppet_analysis::stdlib::workspace_stdlib(self.db, self.workspace);
                let Some(f) = stdlib.resolve_function(name) else {
                    return bolt_function(name);
                };
                let mut md = String::new();
                for s in &f.signatures {
                    md.push_str(&code_block(&format!("{}{}", f.name, signature_text(s))));
                }
                let origin = if f.stdlib {
                    "puppetlabs-stdlib"
                } else {
                    "Puppet"
                };
                let _ = writeln!(md, "\nFunction of {origin}.");
                if let Some(d) = &f.description {
                    let _ = writeln!(md, "\n{d}");
                }
                if let Some(doc) = self.docs.function_doc(&f.name) {
                    let _ = writeln!(md, "\n---\n{doc}");
                }
                Some(md)
            }
            Namespace::Node => None,
        }
    }

    /// A variable: what the walk knows at this point, and what defines it.
    fn variable(&self, token: &SyntaxToken) -> Option<String> {
        let types = infer_range(self.db, self.workspace, self.file, token.text_range());
        let inferred = variable_inferred(&types, token);
        let name = token.text().trim_start_matches('$');
        let mut md = code_block(&format!("${name}: {}", inferred.ty));
        if let Some(v) = value_text(&inferred) {
            let _ = writeln!(md, "\nValue: `{v}`");
        }
        let parameter = self.parameter(token);
        match &parameter {
            Some(parameter) => {
                let _ = write!(md, "\n{}", parameter.markdown());
            }
            None => {
                if let Some(what) = self.variable_origin(token) {
                    let _ = writeln!(md, "\n{what}");
                }
            }
        }
        if let Some(notes) = self.untyped_parameter(token, name) {
            let _ = writeln!(md, "\n{notes}");
        }
        if let Some(parameter) = &parameter {
            self.hiera_data(parameter, &mut md);
        }
        Some(md)
    }

    /// The Hiera data binding a class parameter, in lookup order.
    fn hiera_data(&self, parameter: &ParameterInfo, md: &mut String) {
        let key = parameter.hiera_key.as_deref();
        if let Some(data) =
            key.and_then(|k| data_markdown(self.db, self.workspace, k, None, self.node))
        {
            let _ = write!(md, "\n{data}");
        }
    }

    /// The attribute naming a parameter of a class or defined type in its
    /// declaration (`class { 'web': port => 1 }`): the parameter's declared
    /// type (`Any` only when it has none), and what is known of it.
    fn attribute_parameter(
        &self,
        file: SourceFile,
        range: TextRange,
        token: &SyntaxToken,
    ) -> Option<String> {
        let parameter = parameter_at(self.db, self.workspace, file, range)?;
        let mut md = code_block(&format!(
            "{} => {}",
            token.text(),
            parameter.type_text_or_any()
        ));
        let _ = write!(md, "\n{}", parameter.markdown());
        self.hiera_data(&parameter, &mut md);
        Some(md)
    }

    /// The parameter of a class, define, function or plan a variable token
    /// declares or reads: in its own definition, or a class's parameter
    /// read from outside (`$web::port`) or inherited.
    fn parameter(&self, token: &SyntaxToken) -> Option<ParameterInfo> {
        let resolution = variable_resolution(self.db, self.workspace, self.file);
        let offset = token.text_range().start();
        let def = match resolution.definition_at(offset) {
            Some((_, def)) => def,
            None => match &resolution.reference_at(offset)?.target {
                FileTarget::Local(defs) => resolution.definitions.get(*defs.first()?)?,
                FileTarget::Other(Target::Qualified { class } | Target::Inherited { class }) => {
                    let name = token.text().trim_start_matches('$');
                    let param = name.rsplit("::").next()?;
                    return parameter_of(self.db, self.workspace, Namespace::Class, class, param);
                }
                FileTarget::Other(_) => return None,
            },
        };
        let is_parameter = matches!(
            def.kind,
            VariableDefKind::ClassParam
                | VariableDefKind::DefineParam
                | VariableDefKind::FunctionParam
                | VariableDefKind::PlanParam
        );
        if !is_parameter {
            return None;
        }
        parameter_at(self.db, self.workspace, self.file, def.range)
    }

    fn variable_origin(&self, token: &SyntaxToken) -> Option<String> {
        let resolution = variable_resolution(self.db, self.workspace, self.file);
        let offset = token.text_range().start();
        let describe_def = |kind: VariableDefKind| match kind {
            VariableDefKind::ClassParam => "Class parameter",
            VariableDefKind::DefineParam => "Defined type parameter",
            VariableDefKind::FunctionParam => "Function parameter",
            VariableDefKind::PlanParam => "Plan parameter",
            VariableDefKind::LambdaParam => "Lambda parameter",
            VariableDefKind::TemplateParam => "Template parameter",
            VariableDefKind::Assignment => "Variable",
        };
        if let Some((_, def)) = resolution.definition_at(offset) {
            return Some(describe_def(def.kind).to_string());
        }
        let reference = resolution.reference_at(offset)?;
        let target = self.workspace.target(self.db);
        Some(match &reference.target {
            FileTarget::Local(defs) => {
                let def = resolution.definitions.get(*defs.first()?)?;
                let line = self.line_of(def.range);
                format!("{} defined on line {line}", describe_def(def.kind))
            }
            FileTarget::Other(Target::Inherited { class }) => {
                format!("Inherited from class `{class}`")
            }
            FileTarget::Other(Target::Qualified { class }) => {
                format!("Variable of class `{class}`")
            }
            FileTarget::Other(Target::ExternalQualified) => {
                "Variable of a class outside the workspace".into()
            }
            FileTarget::Other(Target::UnknownQualified { class }) => {
                format!("Class `{class}` has no such variable")
            }
            FileTarget::Other(Target::Guarded) => "Read only where `defined()` finds it set".into(),
            FileTarget::Other(Target::TopScope(TopScopeSetter::Assignment) | Target::Global) => {
                "Top-scope variable".into()
            }
            FileTarget::Other(Target::BuiltIn | Target::TopScope(TopScopeSetter::Compiler)) => {
                "Set by Puppet for every scope".into()
            }
            FileTarget::Other(
                Target::Fact { legacy: false }
                | Target::TopScope(TopScopeSetter::Fact { legacy: false }),
            ) => "Fact, as a top-scope variable".into(),
            FileTarget::Other(
                Target::Fact { legacy: true }
                | Target::TopScope(TopScopeSetter::Fact { legacy: true }),
            ) => legacy_fact_origin(token.text(), target),
            FileTarget::Other(Target::TopScope(TopScopeSetter::Unseen)) => {
                let setter =
                    "set nowhere in the workspace (an ENC parameter or a fact from outside it?)";
                if target.unknown_variables_fail() {
                    format!("Top-scope variable {setter}: unknown on Puppet {}, which fails unless something outside the workspace sets it", target.version)
                } else {
                    format!("Top-scope variable {setter}")
                }
            }
            FileTarget::Other(Target::MatchVariable) => {
                "Match variable of the last regexp match".into()
            }
            FileTarget::Other(Target::MaybeInherited) => {
                "May come from an inherited class outside the workspace".into()
            }
            FileTarget::Other(Target::TemplateArgument) => {
                "Passed to the template by `epp()`".into()
            }
            FileTarget::Other(Target::InlineArgument) => {
                "Passed to the template by `inline_epp()`".into()
            }
            FileTarget::Other(Target::Unknown) if target.unknown_variables_fail() => format!(
                "Unknown variable: Puppet {} fails on reading it",
                target.version
            ),
            FileTarget::Other(Target::Unknown) => format!(
                "Unknown variable: undef on Puppet {}, with a warning",
                target.version
            ),
            FileTarget::Other(Target::Local(_)) => "Local variable".into(),
        })
    }

    /// Notes on an untyped class or define parameter (the token is its
    /// definition or a reference to it).
    fn untyped_parameter(&self, token: &SyntaxToken, name: &str) -> Option<String> {
        let resolution = variable_resolution(self.db, self.workspace, self.file);
        let offset = token.text_range().start();
        let (def, at_definition) = match resolution.definition_at(offset) {
            Some((_, def)) => (def, true),
            None => match &resolution.reference_at(offset)?.target {
                FileTarget::Local(defs) => (resolution.definitions.get(*defs.first()?)?, false),
                FileTarget::Other(_) => return None,
            },
        };
        if !matches!(
            def.kind,
            VariableDefKind::ClassParam | VariableDefKind::DefineParam
        ) {
            return None;
        }
        super::untyped_parameter::notes(
            self.db,
            self.workspace,
            self.file,
            def.range,
            name,
            at_definition,
        )
    }

    fn line_of(&self, range: TextRange) -> usize {
        let text = self.file.text(self.db);
        let end = usize::from(range.start()).min(text.len());
        text.as_bytes()[..end]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    }

    /// An attribute name in a resource body: the attribute of a core or
    /// Ruby type (class and define parameters are occurrences).
    fn attribute(&self, token: &SyntaxToken) -> Option<HoverResult> {
        let attribute = attribute_named(token)?;
        let name = attribute.name()?;
        let resource = attribute
            .syntax()
            .ancestors()
            .find_map(ast::ResourceExpr::cast)
            .and_then(|r| r.type_name())
            .or_else(|| {
                attribute
                    .syntax()
                    .ancestors()
                    .find_map(ast::ResourceDefaults::cast)
                    .and_then(|d| d.type_expr())
                    .map(|t| t.syntax().text().to_string().to_ascii_lowercase())
            })?;
        let b = workspace_builtins(self.db, self.workspace);
        let attr = b
            .attribute(&resource, &name)
            .or_else(|| b.metaparameter(&name))?;
        let mut md = String::new();
        let kind = if b.metaparameter(&name).is_some() && b.attribute(&resource, &name).is_none() {
            "metaparameter".to_string()
        } else {
            format!("{:?} of `{resource}`", attr.kind).to_lowercase()
        };
        let value = attr
            .value_type()
            .map(|t| t.to_string())
            .unwrap_or_else(|| "Any".into());
        md.push_str(&code_block(&format!("{name} => {value}")));
        let _ = writeln!(
            md,
            "\nAttribute ({kind}){}{}",
            if attr.namevar { ", namevar" } else { "" },
            if attr.required { ", required" } else { "" }
        );
        let words: Vec<&str> = attr.value_words().collect();
        if !words.is_empty() {
            let _ = writeln!(md, "\nValues: {}", words.join(", "));
        }
        if let Some(d) = &attr.description {
            let _ = writeln!(md, "\n{d}");
        }
        if let Some(doc) = self.docs.attribute_doc(&resource, &name) {
            let _ = writeln!(md, "\n---\n{doc}");
        }
        Some(HoverResult {
            range: token.text_range(),
            markdown: md,
        })
    }

    /// Any other expression: its inferred type and value.
    fn expression(&self, token: &SyntaxToken) -> Option<HoverResult> {
        if token.kind().is_trivia() || is_punctuation(token.kind()) {
            return None;
        }
        let types = infer_range(self.db, self.workspace, self.file, token.text_range());
        let node: SyntaxNode = token.parent()?;
        let (range, inferred) = types.enclosing(&node)?;
        let mut md = code_block(&inferred.ty.to_string());
        if let Some(v) = value_text(inferred) {
            if !matches!(inferred.value, Some(puppet_analysis::model::Value::Type(_))) {
                let _ = writeln!(md, "\nValue: `{v}`");
            }
        }
        Some(HoverResult {
            range,
            markdown: md,
        })
    }
}

/// What `types` knows of the variable token `token`: its own entry, else
/// the innermost expression around it (a `"$x"` interpolation), else `Any`.
/// Hover and [`Analysis::variable_types`] both answer with this.
pub(crate) fn variable_inferred(types: &FileTypes, token: &SyntaxToken) -> Inferred {
    types
        .get(token.text_range())
        .or_else(|| {
            let node = token.parent()?;
            types.enclosing(&node).map(|(_, i)| i)
        })
        .cloned()
        .unwrap_or_else(Inferred::any)
}

/// The attribute of a resource body whose name is the token.
fn attribute_named(token: &SyntaxToken) -> Option<ast::Attribute> {
    let attribute = token.parent_ancestors().find_map(ast::Attribute::cast)?;
    (attribute.name_token()? == *token).then_some(attribute)
}

fn is_punctuation(kind: SyntaxKind) -> bool {
    use SyntaxKind::*;
    matches!(
        kind,
        L_PAREN
            | L_PAREN_WS
            | R_PAREN
            | L_BRACK
            | L_BRACK_LIST
            | R_BRACK
            | L_BRACE
            | R_BRACE
            | COMMA
            | SEMICOLON
            | COLON
            | FAT_ARROW
            | PLUS_ARROW
            | PIPE
    )
}

/// `(Type $name, ...) >> Return` for a built-in signature.
/// A function Bolt's own modules give to plans: known by name only.
fn bolt_function(name: &str) -> Option<String> {
    let bolt = bolt_functions();
    let module = bolt.module_of(name)?;
    let mut md = code_block(&format!("function {}", name.trim_start_matches("::")));
    let _ = writeln!(
        md,
        "\nFunction of Bolt's `{module}` module (Bolt {}), which Bolt gives to every plan.",
        bolt.bolt_version
    );
    let _ = writeln!(
        md,
        "\n{}",
        if bolt.is_plan_only(name) {
            "Catalog code cannot call it, `apply` blocks included."
        } else {
            "Puppet Server gives it to catalogs too, through PuppetDB."
        }
    );
    Some(md)
}

fn signature_text(s: &puppet_analysis::builtins::functions::Signature) -> String {
    use puppet_analysis::builtins::functions::ParamKind;
    let mut params: Vec<String> = s
        .params
        .iter()
        .map(|p| match p.kind {
            ParamKind::Repeated => format!("{} *${}", p.type_text, p.name),
            ParamKind::Optional => format!("Optional[{}] ${}", p.type_text, p.name),
            _ => format!("{} ${}", p.type_text, p.name),
        })
        .collect();
    if let Some(b) = &s.block {
        params.push(format!("&{} ${}", b.type_text, b.name));
    }
    let mut text = format!("({})", params.join(", "));
    if let Some(r) = &s.return_type_text {
        let _ = write!(text, " >> {r}");
    }
    text
}

/// A legacy fact's origin line: what it is under the target Puppet and
/// the `$facts` expression that replaces it.
fn legacy_fact_origin(variable: &str, target: PuppetTarget) -> String {
    let name = variable.trim_start_matches('$').trim_start_matches("::");
    let replacement = puppet_analysis::builtins::legacy_facts::replacement(name)
        .map(|r| format!("; use `{r}`"))
        .unwrap_or_default();
    if target.has_legacy_facts() {
        format!("Legacy fact (deprecated; unknown on Puppet 8){replacement}")
    } else {
        format!(
            "Legacy fact: unknown on Puppet {}, which no longer receives legacy facts{replacement}",
            target.version
        )
    }
}
