//! Modules' `metadata.json`: read with positions (the JSON reader of
//! [`crate::hiera::yaml`]), checked against what Puppet 7 demands of it,
//! and summed up position-free for the questions others ask (a module's
//! version and summary, which modules it declares as dependencies).
//!
//! What Puppet does with the file (`Puppet::Module#load_metadata`, recorded
//! in `test_data/metadata/`): JSON it cannot parse is ignored with a
//! warning, and so is an empty document; in any other document, a missing
//! `source`, `author`, `version`, `license` or `dependencies` (or
//! `dependencies` that is not an array) makes the environment drop the
//! module, whose classes are then unknown to every catalog; a `name` or a
//! dependency's `name` that is not a string, or a dependency that is not
//! an object, makes loading any module of the environment fail. The
//! Forge, `puppet module` and the PDK also want `name` (`author-module`)
//! and `summary`, a semantic `version` and valid version ranges, which
//! Puppet itself never reads: those are warnings.

use crate::db::{MetadataFile, Workspace};
use crate::hiera::yaml::{self, YamlNode, YamlValue};
use crate::semver::{Version, VersionRange};
use puppet_syntax::{Code, Severity, TextRange, TextSize};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The file's name, at a module's root.
pub const FILE_NAME: &str = "metadata.json";

/// Whether a path names a `metadata.json`.
pub fn is_metadata_path(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == FILE_NAME)
}

/// A string value and where it is written (quotes included).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Field {
    pub value: String,
    pub range: TextRange,
}

/// An entry of `dependencies` or `requirements`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Dependency {
    /// As written (`puppetlabs/stdlib`, `puppetlabs-stdlib`, `puppet`).
    pub name: Field,
    /// The whole entry.
    pub range: TextRange,
    pub version_requirement: Option<Field>,
}

impl Dependency {
    /// The module's name on a module path (`stdlib`), lower-cased: what
    /// follows the author. `None` when the name has no author.
    pub fn module_name(&self) -> Option<String> {
        module_part(&self.name.value)
    }

    /// The name as Puppet compares it (`author/module`).
    pub fn forge_name(&self) -> String {
        self.name.value.replace('-', "/")
    }

    /// The range the dependency accepts (`>= 0.0.0` when none is given, as
    /// Puppet reads it), or why it is not one.
    pub fn range(&self) -> Result<VersionRange, String> {
        match &self.version_requirement {
            Some(requirement) => VersionRange::parse(&requirement.value),
            None => VersionRange::parse(">= 0.0.0"),
        }
    }
}

/// The module part of `author-module` or `author/module`, lower-cased.
pub fn module_part(name: &str) -> Option<String> {
    let (author, module) = name.split_once(['-', '/'])?;
    (!author.is_empty() && !module.is_empty()).then(|| module.to_lowercase())
}

/// Something wrong in the file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Problem {
    pub range: TextRange,
    pub severity: Severity,
    pub code: Code,
    pub message: String,
}

/// A `metadata.json` as read with positions.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Metadata {
    /// Puppet reads the file's fields: valid JSON, and not an empty
    /// document (which Puppet takes as no metadata).
    pub read: bool,
    pub name: Option<Field>,
    pub version: Option<Field>,
    pub summary: Option<Field>,
    pub dependencies: Vec<Dependency>,
    /// The `dependencies` array, brackets included (where a fix adds an
    /// entry).
    pub dependencies_list: Option<TextRange>,
    pub requirements: Vec<Dependency>,
    /// Syntax and schema problems, in text order.
    pub problems: Vec<Problem>,
}

impl Metadata {
    /// The dependency or requirement whose name is at `offset`.
    pub fn entry_at(&self, offset: TextSize) -> Option<(&Dependency, bool)> {
        let dependencies = self.dependencies.iter().map(|d| (d, true));
        let requirements = self.requirements.iter().map(|d| (d, false));
        dependencies
            .chain(requirements)
            .find(|(d, _)| d.name.range.contains_inclusive(offset))
    }
}

/// Fields Puppet refuses the module without (`Puppet::Module#load_metadata`).
const LOADED_FIELDS: [&str; 5] = ["source", "author", "version", "license", "dependencies"];
/// Fields the Forge and the PDK want as well.
const PUBLISHED_FIELDS: [&str; 2] = ["name", "summary"];

/// What Puppet 7 (`strict = warning`) does with a `metadata.json` that does
/// not parse, after the parser's message: under `strict = error` (Puppet
/// 8) it refuses the module instead (see `diagnostics/metadata_files.rs`).
pub const IGNORED_BY_PUPPET: &str =
    ": Puppet ignores this metadata.json, and the Forge, `puppet module` and the PDK refuse it";

/// Reads a `metadata.json`: JSON as Puppet's parser reads it, then the
/// fields Puppet and the Forge use.
pub fn read(text: &str) -> Metadata {
    let mut metadata = Metadata::default();
    let document = match serde_json::from_str::<serde_json::Value>(text) {
        Ok(_) => yaml::parse_with(text, yaml::Schema::Json),
        Err(e) => {
            let at = offset_of(text, e.line(), e.column());
            metadata.problems.push(Problem {
                range: TextRange::new(at, next_char_end(text, at)),
                severity: Severity::Warning,
                code: Code::MetadataSyntax,
                message: format!("not valid JSON ({e}){IGNORED_BY_PUPPET}"),
            });
            return metadata;
        }
    };
    let Some(root) = document.root else {
        return metadata;
    };
    let whole = extent(text, &root);
    let mut schema = Schema {
        text,
        out: &mut metadata.problems,
    };
    let entries = match &root.value {
        YamlValue::Mapping(entries) => entries,
        YamlValue::Sequence(items) if items.is_empty() => {
            schema.warning(whole, "an empty array is no metadata: Puppet ignores it, and the Forge, `puppet module` and the PDK refuse it".to_string());
            return metadata;
        }
        YamlValue::String(s) if s.is_empty() => {
            schema.warning(whole, "an empty string is no metadata: Puppet ignores it, and the Forge, `puppet module` and the PDK refuse it".to_string());
            return metadata;
        }
        _ => {
            schema.error(
                whole,
                "metadata.json must hold a JSON object: Puppet fails to load the module"
                    .to_string(),
            );
            return metadata;
        }
    };
    if entries.is_empty() {
        schema.warning(
            whole,
            format!(
                "an empty object: Puppet reads no metadata, and the Forge, `puppet module` and the PDK need {}",
                quoted_list(LOADED_FIELDS.iter().chain(&PUBLISHED_FIELDS))
            ),
        );
        return metadata;
    }
    metadata.read = true;
    let get = |key: &str| {
        entries
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(k, v)| (k, v))
    };
    // The object's opening brace: where a missing field is reported.
    let brace = TextRange::new(whole.start(), next_char_end(text, whole.start()));
    for field in LOADED_FIELDS {
        if get(field).is_none_or(|(_, v)| v.value == YamlValue::Null) {
            schema.error(
                get(field).map_or(brace, |(k, _)| k.range),
                format!("no `{field}`: Puppet refuses the module (\"No {field} module metadata provided\"), so its classes, defined types and functions are unknown to every catalog"),
            );
        }
    }
    for field in PUBLISHED_FIELDS {
        if get(field).is_none_or(|(_, v)| v.value == YamlValue::Null) {
            schema.warning(
                get(field).map_or(brace, |(k, _)| k.range),
                format!("no `{field}`: the Forge, `puppet module` and the PDK require it"),
            );
        }
    }
    if let Some((_, node)) = get("name") {
        metadata.name = schema.module_name(node, "the module's `name`", true);
    }
    if let Some((_, node)) = get("version") {
        metadata.version = schema.string(node, "`version`", false);
        if let Some(version) = &metadata.version {
            if Version::parse(&version.value).is_err() {
                schema.warning(
                    version.range,
                    format!(
                        "'{}' is not a semantic version (`major.minor.patch`): the Forge, `puppet module` and the PDK refuse it, and dependent modules cannot check it against their ranges",
                        version.value
                    ),
                );
            }
        }
    }
    for field in ["author", "license", "source"] {
        if let Some((_, node)) = get(field) {
            schema.string(node, &format!("`{field}`"), false);
        }
    }
    if let Some((_, node)) = get("summary") {
        metadata.summary = schema.string(node, "`summary`", false);
    }
    if let Some((_, node)) = get("dependencies") {
        metadata.dependencies = schema.entries(node, "dependencies", true);
        if matches!(node.value, YamlValue::Sequence(_)) {
            metadata.dependencies_list = Some(extent(text, node));
        }
    }
    if let Some((_, node)) = get("requirements") {
        metadata.requirements = schema.entries(node, "requirements", false);
    }
    metadata
        .problems
        .sort_by_key(|p| (p.range.start(), p.range.end()));
    metadata
}

/// Reports schema problems as it reads fields.
struct Schema<'a> {
    text: &'a str,
    out: &'a mut Vec<Problem>,
}

impl Schema<'_> {
    fn error(&mut self, range: TextRange, message: String) {
        self.push(range, Severity::Error, message);
    }

    fn warning(&mut self, range: TextRange, message: String) {
        self.push(range, Severity::Warning, message);
    }

    fn push(&mut self, range: TextRange, severity: Severity, message: String) {
        self.out.push(Problem {
            range,
            severity,
            code: Code::MetadataSchema,
            message,
        });
    }

    /// A field that should be a string. `fatal`: Puppet fails on anything
    /// else (it calls string methods on it).
    fn string(&mut self, node: &YamlNode, what: &str, fatal: bool) -> Option<Field> {
        if let YamlValue::String(value) = &node.value {
            return Some(Field {
                value: value.clone(),
                range: node.range,
            });
        }
        if node.value == YamlValue::Null {
            // Puppet reads null as a missing field (reported as such).
            return None;
        }
        let found = describe(&node.value);
        let range = extent(self.text, node);
        if fatal {
            self.error(
                range,
                format!(
                    "{what} must be a string, not {found}: loading the environment's modules fails"
                ),
            );
        } else {
            self.warning(
                range,
                format!("{what} must be a string, not {found}: the Forge, `puppet module` and the PDK refuse it"),
            );
        }
        None
    }

    /// A module's name, `author-module` or `author/module` as the Forge
    /// validates it (`Puppet::ModuleTool::Metadata#validate_name`).
    fn module_name(&mut self, node: &YamlNode, what: &str, fatal: bool) -> Option<Field> {
        let field = self.string(node, what, fatal)?;
        if let Some(why) = invalid_module_name(&field.value) {
            self.warning(
                field.range,
                format!(
                    "{what} '{}' is not `author-module` or `author/module`: {why}",
                    field.value
                ),
            );
        }
        Some(field)
    }

    /// The entries of `dependencies` (`fatal`: Puppet refuses the module or
    /// fails on what is not as it expects) or `requirements`.
    fn entries(&mut self, node: &YamlNode, key: &str, fatal: bool) -> Vec<Dependency> {
        let YamlValue::Sequence(items) = &node.value else {
            let range = extent(self.text, node);
            if fatal {
                if node.value != YamlValue::Null {
                    self.error(
                        range,
                        format!(
                            "`{key}` must be an array, not {}: Puppet refuses the module",
                            describe(&node.value)
                        ),
                    );
                }
            } else {
                self.warning(
                    range,
                    format!("`{key}` must be an array, not {}: the Forge, `puppet module` and the PDK refuse it", describe(&node.value)),
                );
            }
            return Vec::new();
        };
        let mut out = Vec::new();
        for item in items {
            let item_range = extent(self.text, item);
            let YamlValue::Mapping(_) = &item.value else {
                let message = format!(
                    "an entry of `{key}` must be an object (`{{\"name\": ..., \"version_requirement\": ...}}`), not {}",
                    describe(&item.value)
                );
                if fatal {
                    self.error(
                        item_range,
                        format!("{message}: loading the environment's modules fails"),
                    );
                } else {
                    self.warning(item_range, message);
                }
                continue;
            };
            let Some(name_node) = item.get("name").filter(|n| n.value != YamlValue::Null) else {
                self.warning(
                    item_range,
                    format!("an entry of `{key}` without a `name`: the Forge, `puppet module` and the PDK refuse it"),
                );
                continue;
            };
            let name = if fatal {
                self.module_name(name_node, "a dependency's `name`", true)
            } else {
                self.string(name_node, "a requirement's `name`", false)
            };
            let Some(name) = name else {
                continue;
            };
            let version_requirement = match item.get("version_requirement") {
                Some(node) if node.value != YamlValue::Null => {
                    self.string(node, "`version_requirement`", false)
                }
                _ => None,
            };
            out.push(Dependency {
                name,
                range: item_range,
                version_requirement,
            });
        }
        out
    }
}

/// Why a name is not a valid `author-module` (the Forge's rules), or `None`.
fn invalid_module_name(name: &str) -> Option<&'static str> {
    let Some((author, module)) = name.split_once(['-', '/']) else {
        return Some("the name must be namespaced with its author");
    };
    let word = |s: &str| s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if author.is_empty() || module.is_empty() {
        Some("the name must be namespaced with its author")
    } else if !word(module) {
        Some("the module name contains characters other than letters, digits and underscores")
    } else if !module.as_bytes()[0].is_ascii_alphabetic() {
        Some("the module name must begin with a letter")
    } else if !author.bytes().all(|b| b.is_ascii_alphanumeric()) {
        Some("the author contains characters other than letters and digits")
    } else {
        None
    }
}

/// A node's whole text: the reader's ranges of JSON arrays and objects
/// end at their last element, so they are extended to the closing
/// bracket (the text is valid JSON, so brackets in strings are skipped).
fn extent(text: &str, node: &YamlNode) -> TextRange {
    let start = usize::from(node.range.start());
    let open = match text.as_bytes().get(start) {
        Some(b'[') => b'[',
        Some(b'{') => b'{',
        _ => return node.range,
    };
    let close = if open == b'[' { b']' } else { b'}' };
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for (i, &b) in text.as_bytes()[start..].iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    debug_assert_eq!(b, close);
                    return TextRange::new(
                        node.range.start(),
                        TextSize::from((start + i + 1) as u32),
                    );
                }
            }
            _ => {}
        }
    }
    node.range
}

fn describe(value: &YamlValue) -> &'static str {
    match value {
        YamlValue::Null => "null",
        YamlValue::Boolean(_) => "a boolean",
        YamlValue::Integer(_) | YamlValue::Float(_) => "a number",
        YamlValue::String(_) => "a string",
        YamlValue::Sequence(_) => "an array",
        YamlValue::Mapping(_) => "an object",
        YamlValue::Unsupported => "a value JSON does not have",
    }
}

fn quoted_list<'a>(names: impl Iterator<Item = &'a &'a str>) -> String {
    names
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The byte offset of serde_json's 1-based line and column (characters).
fn offset_of(text: &str, line: usize, column: usize) -> TextSize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let start = start.min(text.len());
    // serde_json's column is that of the character it stopped at (0 at a
    // line's start, for an error at the end of the text).
    let in_line: usize = text[start..]
        .chars()
        .take(column.saturating_sub(1))
        .map(char::len_utf8)
        .sum();
    TextSize::from((start + in_line).min(text.len()) as u32)
}

/// The end of the character at `at` (or `at` at the end of the text).
fn next_char_end(text: &str, at: TextSize) -> TextSize {
    text[usize::from(at)..]
        .chars()
        .next()
        .map_or(at, |c| at + TextSize::of(c))
}

/// A module's `metadata.json` read with positions.
#[salsa::tracked(returns(ref))]
pub fn metadata(db: &dyn salsa::Database, file: MetadataFile) -> Metadata {
    read(file.text(db))
}

/// The `dependencies` entry that declares a workspace module as it is
/// (`{"name": "acme/types", "version_requirement": ">= 0.1.0 < 1.0.0"}`,
/// the range allowing its major version); `None` when its metadata has no
/// name to depend on.
pub fn suggested_dependency(
    db: &dyn salsa::Database,
    workspace: Workspace,
    module: &str,
) -> Option<String> {
    let &file = module_metadata_files(db, workspace).get(module)?;
    let info = module_info(db, file);
    let name = info.compared_name()?;
    let version = info.version.as_deref().and_then(|v| Version::parse(v).ok());
    Some(match version {
        Some(v) => format!(
            "{{\"name\": \"{name}\", \"version_requirement\": \">= {v} < {}.0.0\"}}",
            v.major.saturating_add(1)
        ),
        None => format!("{{\"name\": \"{name}\"}}"),
    })
}

/// The edit adding `entry` to a metadata.json's `dependencies`: after the
/// last entry, on a line of its own when the entries are one per line, or
/// as the list's only entry.
pub fn add_dependency(text: &str, metadata: &Metadata, entry: &str) -> Option<(TextRange, String)> {
    let list = metadata.dependencies_list?;
    let indent_of = |offset: TextSize| {
        let line_start = text[..usize::from(offset)].rfind('\n').map_or(0, |i| i + 1);
        let line = &text[line_start..];
        line[..line.len() - line.trim_start().len()].to_string()
    };
    match metadata.dependencies.last() {
        Some(last) => {
            let own_line = text[..usize::from(last.range.start())]
                .trim_end_matches([' ', '\t'])
                .ends_with('\n');
            let separator = if own_line {
                format!(",\n{}", indent_of(last.range.start()))
            } else {
                ", ".to_string()
            };
            Some((
                TextRange::empty(last.range.end()),
                format!("{separator}{entry}"),
            ))
        }
        None => {
            let indent = indent_of(list.start());
            Some((list, format!("[\n{indent}  {entry}\n{indent}]")))
        }
    }
}

/// What other modules see of a module's metadata: position-free, so that
/// editing the file elsewhere leaves what reads it alone.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct ModuleInfo {
    /// The `name` as written (`puppetlabs-stdlib`).
    pub forge_name: Option<String>,
    pub version: Option<String>,
    pub summary: Option<String>,
}

impl ModuleInfo {
    /// The name as Puppet compares it with dependencies (`author/module`).
    pub fn compared_name(&self) -> Option<String> {
        self.forge_name.as_ref().map(|n| n.replace('-', "/"))
    }
}

#[salsa::tracked(returns(ref))]
pub fn module_info(db: &dyn salsa::Database, file: MetadataFile) -> ModuleInfo {
    let m = metadata(db, file);
    ModuleInfo {
        forge_name: m.name.as_ref().map(|f| f.value.clone()),
        version: m.version.as_ref().map(|f| f.value.clone()),
        summary: m.summary.as_ref().map(|f| f.value.clone()),
    }
}

/// The modules (lower-cased names on a module path) a module's metadata
/// declares as dependencies; `None` when Puppet reads no metadata from the
/// file (not JSON, or empty). Position-free, for the check of the code's
/// references.
#[salsa::tracked(returns(ref))]
pub fn declared_dependencies(
    db: &dyn salsa::Database,
    file: MetadataFile,
) -> Option<BTreeSet<String>> {
    let m = metadata(db, file);
    m.read.then(|| {
        m.dependencies
            .iter()
            .filter_map(Dependency::module_name)
            .collect()
    })
}

/// The modules (lower case) whose `metadata.json` does not parse: Puppet 8
/// (under `strict = error`) refuses them, so their classes cannot be found.
/// An empty file is no metadata to Puppet, not a refused one.
#[salsa::tracked(returns(ref))]
pub fn unparsable_metadata_modules(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> std::collections::BTreeSet<String> {
    module_metadata_files(db, workspace)
        .iter()
        .filter(|(_, &file)| {
            !file.text(db).trim().is_empty()
                && metadata(db, file)
                    .problems
                    .iter()
                    .any(|p| p.code == Code::MetadataSyntax)
        })
        .map(|(name, _)| name.clone())
        .collect()
}

/// Each module's `metadata.json`, by the module's name (as the layout
/// names it).
#[salsa::tracked(returns(ref))]
pub fn module_metadata_files(
    db: &dyn salsa::Database,
    workspace: Workspace,
) -> BTreeMap<String, MetadataFile> {
    let by_path: BTreeMap<&Path, MetadataFile> = workspace
        .metadata_files(db)
        .iter()
        .map(|&f| (f.path(db).as_path(), f))
        .collect();
    workspace
        .layout(db)
        .modules
        .iter()
        .filter_map(|m| {
            let file = by_path.get(m.root.join(FILE_NAME).as_path())?;
            Some((m.name.to_lowercase(), *file))
        })
        .collect()
}

/// The module whose `metadata.json` this is.
pub fn module_of_metadata(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: MetadataFile,
) -> Option<String> {
    module_metadata_files(db, workspace)
        .iter()
        .find(|(_, &f)| f == file)
        .map(|(name, _)| name.clone())
}

/// What a dependency finds in the workspace: the module of its name, with
/// its metadata when it has some.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The module's name on the module path.
    pub module: String,
    pub metadata: Option<MetadataFile>,
}

/// The workspace's module a dependency names (by its name on a module
/// path, as the autoloader finds it).
pub fn dependency_module(
    db: &dyn salsa::Database,
    workspace: Workspace,
    dependency: &Dependency,
) -> Option<Found> {
    let module = dependency.module_name()?;
    let layout = workspace.layout(db);
    let found = layout
        .modules
        .iter()
        .find(|m| m.name.to_lowercase() == module)?;
    Some(Found {
        module: found.name.clone(),
        metadata: module_metadata_files(db, workspace).get(&module).copied(),
    })
}

/// How a dependency in the workspace stands with its range, as
/// `puppet module list` judges it (`Puppet::Module#unmet_dependencies`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Standing {
    /// The module's version is in the range.
    Met { version: String },
    /// The module's version is outside the range.
    OutsideRange { version: String },
    /// The module's metadata names another author (`puppet module list`:
    /// "Missing dependency").
    OtherAuthor { forge_name: String },
    /// The module's version is not a semantic version.
    NotSemantic { version: String },
    /// Nothing to judge: the module has no readable name or version, or
    /// the range is invalid (reported apart).
    Unknown,
}

/// How the workspace's module meets a dependency.
pub fn standing(info: &ModuleInfo, dependency: &Dependency) -> Standing {
    let (Some(forge_name), Some(version)) = (&info.forge_name, &info.version) else {
        return Standing::Unknown;
    };
    // Compared as written, as Puppet compares them.
    if info.compared_name() != Some(dependency.forge_name()) {
        return Standing::OtherAuthor {
            forge_name: forge_name.clone(),
        };
    }
    let Ok(range) = dependency.range() else {
        return Standing::Unknown;
    };
    match Version::parse(version) {
        Err(_) => Standing::NotSemantic {
            version: version.clone(),
        },
        Ok(v) if range.includes(&v) => Standing::Met {
            version: version.clone(),
        },
        Ok(_) => Standing::OutsideRange {
            version: version.clone(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_names() {
        assert_eq!(module_part("puppetlabs/stdlib").as_deref(), Some("stdlib"));
        assert_eq!(module_part("puppetlabs-Stdlib").as_deref(), Some("stdlib"));
        assert_eq!(module_part("stdlib"), None);
        assert_eq!(invalid_module_name("puppetlabs-stdlib"), None);
        assert_eq!(invalid_module_name("a1/b_2"), None);
        assert!(invalid_module_name("stdlib").is_some());
        assert!(invalid_module_name("a-1b").is_some());
        assert!(invalid_module_name("a.b-c").is_some());
        assert!(invalid_module_name("a-b-c").is_some());
    }
}
