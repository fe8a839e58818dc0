//! Resource declarations checked against what the type accepts: unknown
//! resource types, unknown attributes, values outside a core attribute's
//! allowed set, and missing parameters of defined types and classes.
//!
//! A type is known if it is a core type (built-in knowledge), a Ruby type
//! of a module in the workspace, or a defined type or class of the
//! workspace. An unknown name close to a known one is most likely a typo
//! (an error with a suggestion); otherwise it may come from a module that
//! is not checked out (a warning).

use super::Diagnostic;
use crate::builtins::{suggest, Builtins};
use crate::db::workspace_builtins;
use crate::db::{SourceFile, Workspace};
use crate::hiera::data::hiera_key_index;
use crate::hir::{DefKind, Signature};
use crate::index::{lookup, Namespace};
use crate::ruby_plugins::{plugin_index, PluginIndex};
use crate::workspace::Layout;
use puppet_syntax::ast::{self, AstNode, Expr};
use puppet_syntax::Code;
use puppet_syntax::{SyntaxKind, SyntaxNode, TextRange};
use std::collections::{BTreeMap, BTreeSet};

/// What a resource type accepts.
enum TypeInfo {
    /// A core type: its attributes and metaparameters come from builtins.
    Core(String),
    /// A core type whose attributes are not known (not installed here).
    CoreWithoutData,
    /// A Ruby type of a module (its attributes, and whether the list is
    /// complete).
    Ruby(Vec<String>, bool),
    /// A defined type or a class (for `class { 'x': }`).
    Puppet(Signature),
}

pub(super) struct ResourceChecks<'a> {
    pub db: &'a dyn salsa::Database,
    pub workspace: Workspace,
    pub layout: &'a Layout,
    /// Attributes given by resource defaults (`Type { attr => ... }`) in
    /// the file, by lower-case type name: they count as given.
    pub defaults: &'a BTreeMap<String, BTreeSet<String>>,
}

/// The attributes resource defaults give, per lower-case type name, in a
/// whole file (defaults reach the classes a class declares, so any in the
/// file may apply). Position-free: an edit that keeps them stops here.
#[salsa::tracked(returns(ref))]
pub(super) fn file_resource_defaults(
    db: &dyn salsa::Database,
    file: SourceFile,
) -> BTreeMap<String, BTreeSet<String>> {
    let mut defaults: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for item in file.items(db) {
        for (name, attributes) in &item.published(db).resource_defaults {
            defaults
                .entry(name.clone())
                .or_default()
                .extend(attributes.iter().cloned());
        }
    }
    defaults
}

impl ResourceChecks<'_> {
    fn plugins(&self) -> &PluginIndex {
        plugin_index(self.db, self.workspace)
    }

    pub fn check(&self, node: &SyntaxNode, out: &mut Vec<Diagnostic>) {
        match node.kind() {
            SyntaxKind::RESOURCE_EXPR => self.check_resource(node, out),
            SyntaxKind::RESOURCE_DEFAULTS => self.check_defaults(node, out),
            _ => {}
        }
    }

    fn check_resource(&self, node: &SyntaxNode, out: &mut Vec<Diagnostic>) {
        let Some(resource) = ast::ResourceExpr::cast(node.clone()) else {
            return;
        };
        let Some(type_expr) = resource.type_expr() else {
            return;
        };
        // `Resource[x] { ... }` and other computed types are not checked.
        let Some(type_name) = resource.type_name() else {
            return;
        };
        let range = type_expr.syntax().text_range();
        if type_name == "class" {
            for body in resource.bodies() {
                let Some(class) = body.title().as_ref().and_then(Expr::static_string) else {
                    continue;
                };
                let found = lookup(self.db, self.workspace, Namespace::Class, &class);
                if let Some(class_def) = found.first() {
                    let info = TypeInfo::Puppet(class_def.definition.clone());
                    let what = format!("class '{class}'");
                    self.check_attributes(&what, &info, body.attributes(), out);
                    self.check_missing(&what, &info, &body, &BTreeSet::new(), out);
                }
            }
            return;
        }
        let Some(info) = self.type_info(&type_name, range, out) else {
            return;
        };
        let what = format!("resource type '{type_name}'");
        // A `default:` body declares nothing; its attributes apply to
        // every other body of the expression.
        let (defaults, instances): (Vec<_>, Vec<_>) =
            resource.bodies().partition(ast::ResourceBody::is_default);
        let defaulted: BTreeSet<String> = defaults
            .iter()
            .flat_map(|b| b.attributes().filter_map(|a| a.name()))
            .collect();
        let defaults_give_any = defaults
            .iter()
            .any(|b| b.attributes().any(|a| a.is_splat()));
        for body in &defaults {
            self.check_attributes(&what, &info, body.attributes(), out);
        }
        for body in &instances {
            self.check_attributes(&what, &info, body.attributes(), out);
            if !defaults_give_any {
                self.check_missing(&what, &info, body, &defaulted, out);
            }
        }
    }

    fn check_defaults(&self, node: &SyntaxNode, out: &mut Vec<Diagnostic>) {
        let Some(defaults) = ast::ResourceDefaults::cast(node.clone()) else {
            return;
        };
        let Some(Expr::TypeReference(reference)) = defaults.type_expr() else {
            return;
        };
        let type_name = reference.name().to_lowercase();
        let Some(info) = self.type_info(&type_name, reference.syntax().text_range(), out) else {
            return;
        };
        self.check_attributes(
            &format!("resource type '{type_name}'"),
            &info,
            defaults.attributes(),
            out,
        );
    }

    /// Resolves a resource type name, reporting it when unknown.
    fn type_info(
        &self,
        name: &str,
        range: TextRange,
        out: &mut Vec<Diagnostic>,
    ) -> Option<TypeInfo> {
        if workspace_builtins(self.db, self.workspace)
            .resource_type(name)
            .is_some()
        {
            return Some(TypeInfo::Core(name.to_string()));
        }
        if workspace_builtins(self.db, self.workspace).is_core_type_without_data(name) {
            return Some(TypeInfo::CoreWithoutData);
        }
        if let Some(t) = self.plugins().types.get(name) {
            return Some(TypeInfo::Ruby(t.attributes.clone(), t.open));
        }
        if let Some(def) = lookup(self.db, self.workspace, Namespace::DefinedType, name).first() {
            return Some(TypeInfo::Puppet(def.definition.clone()));
        }
        if !lookup(self.db, self.workspace, Namespace::Class, name).is_empty() {
            out.push(Diagnostic::error(
                range,
                Code::ClassAsResource,
                format!("'{name}' is a class: declare it with `class {{ '{name}': }}` or `include {name}`"),
            ));
            return None;
        }
        let core = workspace_builtins(self.db, self.workspace).suggest_type(name);
        let workspace = suggest::suggest(name, self.plugins().types.keys().map(String::as_str), 3);
        let best = super::Suggestion::best(&core, &workspace);
        super::report_unknown(
            self.layout,
            range,
            Code::UnknownResourceType,
            "resource type",
            name,
            best,
            Some("not a core type, and no module in the workspace defines it"),
            out,
        );
        None
    }

    fn check_attributes(
        &self,
        what: &str,
        info: &TypeInfo,
        attributes: impl Iterator<Item = ast::Attribute>,
        out: &mut Vec<Diagnostic>,
    ) {
        if matches!(info, TypeInfo::Ruby(_, true) | TypeInfo::CoreWithoutData) {
            return;
        }
        let builtins = workspace_builtins(self.db, self.workspace);
        let accepted = accepted_attributes(builtins, info);
        for attribute in attributes {
            if attribute.is_splat() {
                continue;
            }
            let (Some(name), Some(token)) = (attribute.name(), attribute.name_token()) else {
                continue;
            };
            if !accepted.contains(&name) {
                let hint = suggest::suggest(&name, accepted.iter().map(String::as_str), 1)
                    .first()
                    .map(|s| format!(": did you mean '{s}'?"))
                    .unwrap_or_default();
                out.push(Diagnostic::error(
                    token.text_range(),
                    Code::UnknownAttribute,
                    format!("{what} has no attribute '{name}'{hint}"),
                ));
                continue;
            }
            if let TypeInfo::Core(type_name) = info {
                check_value(builtins, type_name, &name, attribute.value(), out);
            }
        }
    }

    /// Parameters without a default (and whose type does not accept undef)
    /// must be given; `* => $hash` may give any, so it disables the check.
    /// Attributes in `defaulted` are given by the expression's `default:`
    /// body.
    fn check_missing(
        &self,
        what: &str,
        info: &TypeInfo,
        body: &ast::ResourceBody,
        defaulted: &BTreeSet<String>,
        out: &mut Vec<Diagnostic>,
    ) {
        let TypeInfo::Puppet(def) = info else {
            return;
        };
        let range = body_range(body);
        let mut given: BTreeSet<String> = body.attributes().filter_map(|a| a.name()).collect();
        given.extend(defaulted.iter().cloned());
        let type_key = def.name.to_lowercase();
        if let Some(defaulted) = self.defaults.get(&type_key) {
            given.extend(defaulted.iter().cloned());
        }
        if body.attributes().any(|a| a.is_splat()) {
            return;
        }
        // A class parameter may also come from Hiera (automatic parameter
        // lookup of `class::param`).
        let class = def.kind == DefKind::Class;
        let hiera = hiera_key_index(self.db, self.workspace);
        let missing: Vec<&str> = def
            .params
            .iter()
            .filter(|p| {
                !p.has_default && !given.contains(&p.name) && p.name != "name" && p.name != "title"
            })
            .filter(|p| !accepts_undef(p.type_text.as_deref()))
            .filter(|p| !(class && hiera.contains_key(&format!("{}::{}", def.name, p.name))))
            .map(|p| p.name.as_str())
            .collect();
        if !missing.is_empty() {
            let list = missing
                .iter()
                .map(|m| format!("'{m}'"))
                .collect::<Vec<_>>()
                .join(", ");
            let hiera_note = if class {
                " (and no Hiera data file of the workspace binds it)"
            } else {
                ""
            };
            out.push(Diagnostic::error(
                range,
                Code::MissingRequiredParameter,
                format!("{what} expects a value for {list}{hiera_note}"),
            ));
        }
    }
}

/// The attribute names a type accepts, metaparameters (the built-in
/// tables') included.
fn accepted_attributes(builtins: &Builtins, info: &TypeInfo) -> BTreeSet<String> {
    let mut names: BTreeSet<String> = match info {
        TypeInfo::Core(name) => builtins
            .all_attributes(name)
            .iter()
            .map(|a| a.name.clone())
            .collect(),
        TypeInfo::Ruby(attributes, _) => attributes.iter().cloned().collect(),
        TypeInfo::CoreWithoutData => BTreeSet::new(),
        TypeInfo::Puppet(def) => def.params.iter().map(|p| p.name.clone()).collect(),
    };
    for meta in &builtins.metaparameters {
        names.insert(meta.name.clone());
    }
    if matches!(info, TypeInfo::Puppet(_) | TypeInfo::Ruby(..)) {
        names.insert("name".to_string());
    }
    names
}

/// A name so close to a known one (one edit per four characters) that it
/// is surely a misspelling rather than something from a missing module.
pub(super) fn is_typo(name: &str, known: &str) -> bool {
    suggest::edit_distance(name, known) <= (name.chars().count() / 4).max(1)
}

/// A literal value of a core attribute must be one it allows.
fn check_value(
    builtins: &Builtins,
    type_name: &str,
    attribute: &str,
    value: Option<Expr>,
    out: &mut Vec<Diagnostic>,
) {
    let Some(value) = value else {
        return;
    };
    let Some(word) = value.static_string() else {
        return;
    };
    let Some(definition) = builtins.attribute(type_name, attribute) else {
        return;
    };
    if definition.accepts_word(&word) {
        return;
    }
    let hint = builtins
        .suggest_value(type_name, attribute, &word)
        .first()
        .map(|s| format!(": did you mean '{s}'?"))
        .unwrap_or_default();
    out.push(Diagnostic::warning(
        value.syntax().text_range(),
        Code::InvalidAttributeValue,
        format!("'{word}' is not a valid value for {type_name}'s '{attribute}'{hint}"),
    ));
}

/// Whether a declared type (as written) accepts undef, making the
/// parameter optional.
fn accepts_undef(type_text: Option<&str>) -> bool {
    match type_text {
        None => false,
        Some(t) => {
            let t = t.trim();
            t.starts_with("Optional")
                || t == "Any"
                || t.starts_with("Variant[Undef")
                || t.contains("Undef")
        }
    }
}

/// Where to report a body-level problem: its title.
fn body_range(body: &ast::ResourceBody) -> TextRange {
    body.title()
        .map_or(body.syntax().text_range(), |t| t.syntax().text_range())
}
