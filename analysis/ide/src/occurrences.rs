//! Every named thing a file mentions, with what it refers to: the shared
//! ground of go-to-definition, references, highlight and rename. One walk
//! of a file lists its occurrences (definition names, class names in
//! `include` and `class { 'x': }`, type references, resource types and
//! titles, function calls, template paths, attribute names of classes and
//! defines, variables); two occurrences refer to the same thing exactly
//! when their [`Referent`]s are equal, in any file.

use puppet_analysis::db::{parse, SourceFile, Workspace};
use puppet_analysis::hir::{file_definitions, file_items, item_node, DefKind};
use puppet_analysis::index::{index_key, lookup, Namespace};
use puppet_analysis::resolve::resolution::{
    class_variable_definition, variable_resolution, FileTarget, Resolution,
};
use puppet_analysis::resolve::scope::{workspace_globals, ScopeKind, Target};
use puppet_analysis::ruby_plugins::plugin_index;
use puppet_analysis::workspace::TemplateFunction;
use puppet_syntax::ast::{self, AstNode, Expr};
use puppet_syntax::{SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize};
use std::collections::HashMap;
use std::path::PathBuf;

/// What an occurrence refers to. Names are lower-cased index keys, so
/// `Foo::Bar` and `'foo::bar'` are the same thing.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Referent {
    /// A class, defined type, function or plan, type alias (Puppet code),
    /// whether or not the workspace defines it.
    Definition(Namespace, String),
    /// A resource type written in Ruby by a module.
    RubyType(String),
    /// A function written in Ruby by a module.
    RubyFunction(String),
    /// A variable or parameter, identified by its (first) definition.
    Variable {
        file: SourceFile,
        range: TextRange,
        name: String,
    },
    /// A variable the workspace does not define (fact, built-in,
    /// unknown): nothing to go to or rename.
    ExternalVariable(String),
    /// A resource instance: lower-case type and title.
    Resource { type_name: String, title: String },
    /// A template file (`epp('mod/x.epp')`).
    Template(PathBuf),
}

/// How a name is written, for rename: `ntp::config`, `Ntp::Config` or a
/// variable's last segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NameStyle {
    Lower,
    Capitalized,
    Variable,
}

/// One mention of a named thing in a file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Occurrence {
    /// What is reported (a variable's whole token, a string's content).
    pub range: TextRange,
    /// What a rename replaces (a qualified variable's last segment).
    pub edit_range: TextRange,
    pub referent: Referent,
    /// Defines the thing (a definition's name, a parameter, an assignment,
    /// a resource declaration's title).
    pub declaration: bool,
    /// Inside a string (`include 'x'`, a title).
    pub textual: bool,
    pub style: NameStyle,
}

/// The occurrences of a file, in no particular order.
#[salsa::tracked(returns(ref))]
pub fn file_occurrences(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
) -> Vec<Occurrence> {
    let mut walker = Walker {
        db,
        workspace,
        file,
        out: Vec::new(),
    };
    walker.definitions();
    walker.variables();
    let root = parse(db, file).syntax_node();
    let def_names: Vec<TextRange> = file_items(db, file)
        .definitions()
        .map(|(_, item)| item.name_range)
        .collect();
    for node in root.descendants() {
        walker.node(&node, &def_names);
    }
    walker.out
}

/// The occurrence at an offset of a file (see `cursor::pick`).
pub fn occurrence_at(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    offset: TextSize,
) -> Option<Occurrence> {
    super::cursor::pick(file_occurrences(db, workspace, file), offset, |o| o.range).cloned()
}

/// Every occurrence of a referent in the workspace, with its file.
pub fn occurrences_of(
    db: &dyn salsa::Database,
    workspace: Workspace,
    referent: &Referent,
) -> Vec<(SourceFile, Occurrence)> {
    let mut out = Vec::new();
    for &file in workspace.files(db) {
        let Some(found) = file_referents(db, workspace, file).get(referent) else {
            continue;
        };
        let occurrences = file_occurrences(db, workspace, file);
        out.extend(
            found
                .iter()
                .filter_map(|&i| occurrences.get(i))
                .map(|o| (file, o.clone())),
        );
    }
    out
}

/// A file's occurrences by what they refer to (indexes into
/// [`file_occurrences`]): finding a name's occurrences in the workspace
/// then costs a lookup per file, not a comparison per occurrence.
#[salsa::tracked(returns(ref))]
fn file_referents(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
) -> HashMap<Referent, Vec<usize>> {
    let mut by_referent: HashMap<Referent, Vec<usize>> = HashMap::new();
    for (i, occurrence) in file_occurrences(db, workspace, file).iter().enumerate() {
        by_referent
            .entry(occurrence.referent.clone())
            .or_default()
            .push(i);
    }
    by_referent
}

/// A name written literally: its text and range (a string's content
/// without quotes), a leading `::` left out.
pub fn name_literal(expr: &Expr) -> Option<(String, TextRange)> {
    let (text, range) = match expr {
        Expr::QualifiedName(n) => {
            let token = n.token()?;
            (token.text().to_string(), token.text_range())
        }
        Expr::BareWord(w) => (
            w.text(),
            ast::first_significant_token(w.syntax())?.text_range(),
        ),
        Expr::SqStringExpr(_) | Expr::DqStringExpr(_) => {
            let range = expr.syntax().text_range();
            if range.len() < TextSize::new(2) {
                return None;
            }
            let inner = TextRange::new(
                range.start() + TextSize::new(1),
                range.end() - TextSize::new(1),
            );
            (expr.static_string()?, inner)
        }
        _ => return None,
    };
    Some(strip_root(&text, range))
}

/// `::a::b` -> `a::b`, the range shrunk to match.
fn strip_root(text: &str, range: TextRange) -> (String, TextRange) {
    match text.strip_prefix("::") {
        Some(rest) if range.len() >= TextSize::new(2) => (
            rest.to_string(),
            TextRange::new(range.start() + TextSize::new(2), range.end()),
        ),
        _ => (text.to_string(), range),
    }
}

/// The text of a range, empty when the range does not fit the text.
pub fn slice(text: &str, range: TextRange) -> &str {
    text.get(usize::from(range.start())..usize::from(range.end()))
        .unwrap_or_default()
}

fn style_of(name: &str) -> NameStyle {
    if name.starts_with(|c: char| c.is_ascii_uppercase()) {
        NameStyle::Capitalized
    } else {
        NameStyle::Lower
    }
}

/// The range of a variable token's last name segment (`x` of `$a::x`).
pub fn variable_leaf_range(token_text: &str, range: TextRange) -> TextRange {
    let skip = token_text
        .rfind("::")
        .map(|i| i + 2)
        .unwrap_or_else(|| usize::from(token_text.starts_with('$')));
    let skip = TextSize::new(skip.min(token_text.len()) as u32);
    TextRange::new((range.start() + skip).min(range.end()), range.end())
}

/// The canonical definition of each variable definition of a file:
/// definitions a single reference may resolve to (assignments in
/// exclusive branches) are one variable, named by the first of them.
fn canonical_definitions(resolution: &Resolution) -> Vec<usize> {
    let mut parent: Vec<usize> = (0..resolution.definitions.len()).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for reference in &resolution.references {
        if let FileTarget::Local(defs) = &reference.target {
            let valid: Vec<usize> = defs.iter().copied().filter(|&d| d < parent.len()).collect();
            for pair in valid.windows(2) {
                let (a, b) = (find(&mut parent, pair[0]), find(&mut parent, pair[1]));
                parent[a.max(b)] = a.min(b);
            }
        }
    }
    (0..parent.len()).map(|i| find(&mut parent, i)).collect()
}

struct Walker<'a> {
    db: &'a dyn salsa::Database,
    workspace: Workspace,
    file: SourceFile,
    out: Vec<Occurrence>,
}

impl Walker<'_> {
    fn push(
        &mut self,
        range: TextRange,
        referent: Referent,
        declaration: bool,
        textual: bool,
        style: NameStyle,
    ) {
        self.out.push(Occurrence {
            range,
            edit_range: range,
            referent,
            declaration,
            textual,
            style,
        });
    }

    /// The names of the file's own definitions.
    fn definitions(&mut self) {
        let text = self.file.text(self.db).clone();
        for (_, def, place) in file_definitions(self.db, self.file) {
            let range = place.name_range;
            if def.kind == DefKind::Node {
                continue;
            }
            let written = slice(&text, range);
            let (_, range) = strip_root(written, range);
            let referent = Referent::Definition(Namespace::of(def.kind), index_key(&def.name));
            self.push(
                range,
                referent,
                true,
                false,
                style_of(written.trim_start_matches("::")),
            );
        }
    }

    fn variables(&mut self) {
        let resolution = variable_resolution(self.db, self.workspace, self.file);
        let canonical = canonical_definitions(resolution);
        let text = self.file.text(self.db).clone();
        let this_file = self.file;
        let local = |d: usize| {
            let def = &resolution.definitions[canonical[d]];
            Referent::Variable {
                file: this_file,
                range: def.range,
                name: def.name.clone(),
            }
        };
        let mut found = Vec::new();
        for (i, def) in resolution.definitions.iter().enumerate() {
            found.push((def.range, local(i), true));
        }
        for reference in &resolution.references {
            let leaf = reference
                .name
                .rsplit("::")
                .next()
                .unwrap_or_default()
                .to_string();
            let referent = match &reference.target {
                FileTarget::Local(defs) => match defs.first() {
                    Some(&d) if d < canonical.len() => local(d),
                    _ => Referent::ExternalVariable(reference.name.clone()),
                },
                FileTarget::Other(Target::Inherited { class } | Target::Qualified { class }) => {
                    match class_variable_definition(self.db, self.workspace, class, &leaf) {
                        Some((file, range)) => Referent::Variable {
                            file,
                            range,
                            name: leaf.clone(),
                        },
                        None => Referent::ExternalVariable(reference.name.clone()),
                    }
                }
                FileTarget::Other(Target::Global) => self
                    .global_definition(&leaf)
                    .unwrap_or_else(|| Referent::ExternalVariable(reference.name.clone())),
                _ => Referent::ExternalVariable(reference.name.clone()),
            };
            found.push((reference.range, referent, false));
            // `$mod::cls::x` also names the class `mod::cls`.
            let written = slice(&text, reference.range);
            let bare = written.trim_start_matches('$');
            if let Some((class, _)) = bare.trim_start_matches("::").rsplit_once("::") {
                let start = reference.range.start()
                    + TextSize::new((written.len() - bare.len()) as u32)
                    + TextSize::new((bare.len() - bare.trim_start_matches("::").len()) as u32);
                let range = TextRange::at(start, TextSize::new(class.len() as u32));
                let referent = Referent::Definition(Namespace::Class, index_key(class));
                self.push(range, referent, false, false, NameStyle::Lower);
            }
        }
        for (range, referent, declaration) in found {
            let written = slice(&text, range);
            self.out.push(Occurrence {
                range,
                edit_range: variable_leaf_range(written, range),
                referent,
                declaration,
                textual: false,
                style: NameStyle::Variable,
            });
        }
    }

    /// A top- or node-scope variable assigned in some file of the workspace.
    fn global_definition(&self, name: &str) -> Option<Referent> {
        let files = workspace_globals(self.db, self.workspace)
            .get(&puppet_analysis::hir::body::name(name))?;
        files.iter().find_map(|&file| {
            let resolution = variable_resolution(self.db, self.workspace, file);
            let canonical = canonical_definitions(resolution);
            let (i, _) = resolution.definitions.iter().enumerate().find(|(_, d)| {
                d.name == name
                    && resolution
                        .scopes
                        .get(d.scope)
                        .is_some_and(|s| matches!(s.kind, ScopeKind::Top | ScopeKind::Node))
            })?;
            let def = &resolution.definitions[canonical[i]];
            Some(Referent::Variable {
                file,
                range: def.range,
                name: def.name.clone(),
            })
        })
    }

    fn node(&mut self, node: &SyntaxNode, def_names: &[TextRange]) {
        match node.kind() {
            SyntaxKind::TYPE_REFERENCE => {
                let Some(reference) = ast::TypeReference::cast(node.clone()) else {
                    return;
                };
                let Some(token) = reference.token() else {
                    return;
                };
                let (name, range) = strip_root(token.text(), token.text_range());
                if def_names.contains(&token.text_range()) || def_names.contains(&node.text_range())
                {
                    return;
                }
                let referent = self.type_referent(&name);
                self.push(range, referent, false, false, NameStyle::Capitalized);
            }
            SyntaxKind::RESOURCE_EXPR => self.resource(node),
            SyntaxKind::ACCESS_EXPR => self.access(node),
            SyntaxKind::CALL_EXPR | SyntaxKind::STATEMENT_CALL | SyntaxKind::METHOD_CALL_EXPR => {
                self.call(node)
            }
            SyntaxKind::INHERITS_CLAUSE => {
                if node.parent().map(|p| p.kind()) != Some(SyntaxKind::CLASS_DEF) {
                    return;
                }
                let Some(token) =
                    ast::InheritsClause::cast(node.clone()).and_then(|c| c.name_token())
                else {
                    return;
                };
                if token.kind() == SyntaxKind::NAME {
                    self.class_name(&token);
                }
            }
            _ => {}
        }
    }

    fn class_name(&mut self, token: &SyntaxToken) {
        let (name, range) = strip_root(token.text(), token.text_range());
        let referent = Referent::Definition(Namespace::Class, index_key(&name));
        self.push(range, referent, false, false, NameStyle::Lower);
    }

    /// A class named by a string or name expression (arrays of them too).
    fn class_expr(&mut self, expr: &Expr) {
        if let Expr::ArrayExpr(array) = expr {
            for element in array.elements() {
                self.class_expr(&element);
            }
            return;
        }
        if let Some((name, range)) = name_literal(expr) {
            let textual = !matches!(expr, Expr::QualifiedName(_));
            let referent = Referent::Definition(Namespace::Class, index_key(&name));
            self.push(range, referent, false, textual, NameStyle::Lower);
        }
    }

    /// A capitalized reference: a type alias, a defined type or class, a
    /// Ruby type; unknown names count as type aliases.
    fn type_referent(&self, name: &str) -> Referent {
        for namespace in [Namespace::Type, Namespace::DefinedType, Namespace::Class] {
            if !lookup(self.db, self.workspace, namespace, name).is_empty() {
                return Referent::Definition(namespace, index_key(name));
            }
        }
        let key = index_key(name);
        if plugin_index(self.db, self.workspace)
            .types
            .contains_key(&key)
        {
            return Referent::RubyType(key);
        }
        Referent::Definition(Namespace::Type, key)
    }

    /// A resource type as declared (`foo::bar { }`): a defined type, a
    /// Ruby type, or (core and unknown types) a defined type by name.
    fn resource_type_referent(&self, name: &str) -> Referent {
        let key = index_key(name);
        if lookup(self.db, self.workspace, Namespace::DefinedType, &key).is_empty()
            && plugin_index(self.db, self.workspace)
                .types
                .contains_key(&key)
        {
            return Referent::RubyType(key);
        }
        Referent::Definition(Namespace::DefinedType, key)
    }

    fn resource(&mut self, node: &SyntaxNode) {
        let Some(resource) = ast::ResourceExpr::cast(node.clone()) else {
            return;
        };
        let Some(type_name) = resource.type_name() else {
            return;
        };
        let is_class = type_name == "class";
        if let Some(Expr::QualifiedName(n)) = resource.type_expr() {
            if let Some(token) = n.token().filter(|t| t.kind() == SyntaxKind::NAME) {
                let (name, range) = strip_root(token.text(), token.text_range());
                let referent = self.resource_type_referent(&name);
                self.push(range, referent, false, false, NameStyle::Lower);
            }
        }
        for body in resource.bodies() {
            let titles: Vec<Expr> = match body.title() {
                Some(Expr::ArrayExpr(a)) => a.elements().collect(),
                Some(title) => vec![title],
                None => Vec::new(),
            };
            let mut classes = Vec::new();
            for title in &titles {
                if is_class {
                    self.class_expr(title);
                    if let Some((name, _)) = name_literal(title) {
                        classes.push(name);
                    }
                } else if let Some((title, range)) = name_literal(title) {
                    let referent = Referent::Resource {
                        type_name: index_key(&type_name),
                        title,
                    };
                    self.push(range, referent, true, true, NameStyle::Lower);
                }
            }
            let owners: Vec<(Namespace, String)> = if is_class {
                classes.into_iter().map(|c| (Namespace::Class, c)).collect()
            } else {
                vec![(Namespace::DefinedType, type_name.clone())]
            };
            for attribute in body.attributes() {
                let Some(token) = attribute.name_token() else {
                    continue;
                };
                if attribute.is_splat() {
                    continue;
                }
                let param = token.text().to_string();
                let site = owners.iter().find_map(|(ns, owner)| {
                    param_site(self.db, self.workspace, *ns, owner, &param)
                });
                if let Some((file, range)) = site {
                    let referent = Referent::Variable {
                        file,
                        range,
                        name: param,
                    };
                    self.push(
                        token.text_range(),
                        referent,
                        false,
                        false,
                        NameStyle::Variable,
                    );
                }
            }
        }
    }

    /// `Class['x']`, `Type['title']`.
    fn access(&mut self, node: &SyntaxNode) {
        let Some(access) = ast::AccessExpr::cast(node.clone()) else {
            return;
        };
        let Some(Expr::TypeReference(target)) = access.target() else {
            return;
        };
        let type_name = target.name().to_lowercase();
        match type_name.as_str() {
            "class" => {
                for arg in access.args() {
                    if !matches!(arg, Expr::TypeReference(_)) {
                        self.class_expr(&arg);
                    }
                }
            }
            "resource" => {}
            _ => {
                // Only resource types take titles (not `Optional[String]`).
                let is_resource_type =
                    puppet_analysis::db::workspace_builtins(self.db, self.workspace)
                        .resource_type(&type_name)
                        .is_some()
                        || matches!(
                            self.type_referent(&type_name),
                            Referent::RubyType(_)
                                | Referent::Definition(
                                    Namespace::DefinedType | Namespace::Class,
                                    _
                                )
                        );
                if !is_resource_type {
                    return;
                }
                for arg in access.args() {
                    if let Some((title, range)) = name_literal(&arg) {
                        let referent = Referent::Resource {
                            type_name: type_name.clone(),
                            title,
                        };
                        self.push(range, referent, false, true, NameStyle::Lower);
                    }
                }
            }
        }
    }

    fn call(&mut self, node: &SyntaxNode) {
        let (name_token, args): (Option<SyntaxToken>, Vec<Expr>) = match Expr::cast(node.clone()) {
            Some(Expr::CallExpr(c)) => match c.callee() {
                Some(Expr::QualifiedName(n)) => (n.token(), c.args()),
                _ => (None, Vec::new()),
            },
            Some(Expr::StatementCall(c)) => {
                (c.name_expr().and_then(|n| n.token()), c.args().collect())
            }
            Some(Expr::MethodCallExpr(c)) => (c.name_token(), Vec::new()),
            _ => (None, Vec::new()),
        };
        let Some(token) = name_token else { return };
        let (name, range) = strip_root(token.text(), token.text_range());
        let key = index_key(&name);
        let referent = if lookup(self.db, self.workspace, Namespace::Function, &key).is_empty()
            && plugin_index(self.db, self.workspace)
                .functions
                .contains(&key)
        {
            Referent::RubyFunction(key.clone())
        } else {
            Referent::Definition(Namespace::Function, key.clone())
        };
        self.push(range, referent, false, false, NameStyle::Lower);
        match key.as_str() {
            "include" | "contain" | "require" => {
                for arg in &args {
                    self.class_expr(arg);
                }
            }
            "epp" | "template" => {
                let Some((reference, range)) = args.first().and_then(name_literal) else {
                    return;
                };
                let function = TemplateFunction::from_name(&key);
                let layout = self.workspace.layout(self.db);
                if let Some(path) = function.and_then(|f| layout.template_file(f, &reference)) {
                    self.push(
                        range,
                        Referent::Template(path),
                        false,
                        true,
                        NameStyle::Lower,
                    );
                }
            }
            _ => {}
        }
    }
}

/// The variable token of parameter `param` of a class or defined type of
/// the workspace.
pub fn param_site(
    db: &dyn salsa::Database,
    workspace: Workspace,
    namespace: Namespace,
    owner: &str,
    param: &str,
) -> Option<(SourceFile, TextRange)> {
    let found = lookup(db, workspace, namespace, owner);
    let resolved = found.first()?;
    if !resolved.definition.params.iter().any(|p| p.name == param) {
        return None;
    }
    let file = resolved.location.file;
    let node = item_node(db, resolved.location.item)?;
    let list = node.children().find_map(ast::ParamList::cast)?;
    let param = list.params().find(|p| p.name().as_deref() == Some(param))?;
    Some((file, param.variable_token()?.text_range()))
}
