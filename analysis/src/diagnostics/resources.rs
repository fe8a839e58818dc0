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
use crate::hiera::binds::{hiera_data, unreceived_level, KeyData};
use crate::hir::{DefKind, Signature};
use crate::index::{lookup, Namespace};
use crate::resolve::declarations::resource_like_declarations;
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
            SyntaxKind::STATEMENT_CALL | SyntaxKind::CALL_EXPR => self.check_include(node, out),
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

    /// Parameters without a default must be given; `* => $hash` may give
    /// any, so it disables the check. Attributes in `defaulted` are given
    /// by the expression's `default:` body.
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
        if body.attributes().any(|a| a.is_splat()) {
            return;
        }
        let mut given: BTreeSet<String> = body.attributes().filter_map(|a| a.name()).collect();
        given.extend(defaulted.iter().cloned());
        out.extend(self.missing_parameters(what, def, &given, body_range(body), None));
    }

    /// `include x`, `contain x`, `require x` (and their call forms, with
    /// several names or an array of them): they give a class no parameters,
    /// so one without a default must come from Hiera. Not checked: a name
    /// that is computed, a class not in the workspace, and a class that
    /// something in the workspace declares resource-like (or may: a
    /// resource-like declaration whose class is computed), since that may
    /// run first and give the parameters, making the include a no-op.
    fn check_include(&self, node: &SyntaxNode, out: &mut Vec<Diagnostic>) {
        let Some((function, names)) = super::included_classes(node) else {
            return;
        };
        let resource_like = resource_like_declarations(self.db, self.workspace);
        for (name, range) in names {
            let class = name.trim_start_matches("::").to_lowercase();
            if class.is_empty() || resource_like.may_declare(&class) {
                continue;
            }
            let found = lookup(self.db, self.workspace, Namespace::Class, &class);
            let Some(class_def) = found.first() else {
                continue;
            };
            let what = format!("class '{class}'");
            let how = format!(
                "`{function}` gives none, nothing in the workspace declares it with parameters"
            );
            out.extend(self.missing_parameters(
                &what,
                &class_def.definition,
                &BTreeSet::new(),
                range,
                Some(&how),
            ));
        }
    }

    /// The parameters of a class or defined type that a declaration at
    /// `range` leaves without a value: those without a default that it
    /// does not give (`given`, with the file's resource defaults for the
    /// type). Puppet fails on them whatever their type (an `Optional` one
    /// too: "expects a value for parameter"). A class's parameter may also
    /// come from Hiera (automatic parameter lookup of `class::param`,
    /// [`hiera_data`]): one that Hiera's data binds, or may bind through
    /// data puppet-ls cannot see, is not reported.
    ///
    /// For a class the severity says how much of the data is in sight. In
    /// an environment with its Hiera 5 `hiera.yaml` (a control repository),
    /// the workspace holds the data its nodes' lookups read, and a
    /// parameter nothing there binds is an error. Elsewhere it is a
    /// warning: in a module's workspace the data binding a class's
    /// parameters is normally the user's own Hiera, which the workspace
    /// does not hold (and in an environment without `hiera.yaml` it comes
    /// from Puppet's global layer, configured on the server), so an error
    /// there would be wrong for correct code. What the error still assumes:
    /// that the global layer (unless configured for puppet-ls) binds
    /// nothing, and that no ENC declares the class with parameters before
    /// an include-like declaration runs.
    fn missing_parameters(
        &self,
        what: &str,
        def: &Signature,
        given: &BTreeSet<String>,
        range: TextRange,
        how: Option<&str>,
    ) -> Option<Diagnostic> {
        let class = def.kind == DefKind::Class;
        let defaults = self.defaults.get(&def.name.to_lowercase());
        let hiera = hiera_data(self.db, self.workspace);
        let missing: Vec<&str> = def
            .params
            .iter()
            .filter(|p| {
                !p.has_default
                    && !p.captures_rest
                    && !given.contains(&p.name)
                    && !defaults.is_some_and(|d| d.contains(&p.name))
                    && p.name != "name"
                    && p.name != "title"
            })
            .filter(|p| {
                !class || hiera.key(&format!("{}::{}", def.name, p.name)) == KeyData::Unbound
            })
            .map(|p| p.name.as_str())
            .collect();
        if missing.is_empty() {
            return None;
        }
        let list = missing
            .iter()
            .map(|m| format!("'{m}'"))
            .collect::<Vec<_>>()
            .join(", ");
        if !class {
            return Some(Diagnostic::error(
                range,
                Code::MissingRequiredParameter,
                format!("{what} expects a value for {list}"),
            ));
        }
        let (it, binds) = if missing.len() == 1 {
            ("it", "binds it")
        } else {
            ("them", "binds them")
        };
        let target = self.workspace.target(self.db);
        let unreceived = missing
            .iter()
            .find_map(|m| unreceived_level(self.db, self.workspace, &format!("{}::{m}", def.name)))
            .map(|level| {
                format!(
                    " on Puppet {}: level '{level}' finds data only through a legacy fact in its path, which Puppet {} no longer receives",
                    target.version, target.version
                )
            })
            .unwrap_or_default();
        let how = how.map(|h| format!("{h}, and ")).unwrap_or_default();
        let reason = format!("{how}no Hiera data of the workspace {binds}{unreceived}");
        Some(if hiera.environment_data_present() {
            Diagnostic::error(
                range,
                Code::MissingRequiredParameter,
                format!("{what} expects a value for {list} ({reason})"),
            )
        } else {
            Diagnostic::warning(
                range,
                Code::MissingRequiredParameter,
                format!("{what} expects a value for {list} ({reason}): Puppet fails unless the node's Hiera data, which this workspace does not hold, binds {it}"),
            )
        })
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

/// Where to report a body-level problem: its title.
fn body_range(body: &ast::ResourceBody) -> TextRange {
    body.title()
        .map_or(body.syntax().text_range(), |t| t.syntax().text_range())
}
