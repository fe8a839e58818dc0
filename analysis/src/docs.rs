//! Full documentation of built-ins, read at run time from a local Puppet
//! installation.
//!
//! The embedded table carries only names, types and our one-line
//! descriptions; Puppet's own reference text stays in Puppet. When the user's
//! machine has Puppet (a system package, the puppet-agent AIO, or a gem) this
//! module reads the doc strings from its Ruby sources on demand: a type's
//! `@doc`/`desc`, an attribute's `desc`, a 4.x function's leading comment
//! block or a 3.x function's `:doc`. Everything returns `None` when Puppet
//! is absent or a source cannot be understood; nothing here runs at build
//! time. Files are read through the [`FileSystem`] the server gives.

use puppet_vfs::{FileSystem, MemoryFs};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where to look for Puppet's Ruby sources and for modules.
#[derive(Clone)]
pub struct DocSource {
    fs: Arc<dyn FileSystem>,
    /// Directories containing `puppet/type`, `puppet/functions`...
    /// (`/usr/lib/ruby/vendor_ruby`, `/opt/puppetlabs/puppet/lib/ruby/vendor_ruby`).
    pub lib_dirs: Vec<PathBuf>,
    /// Directories containing modules (`<dir>/<module>/lib/puppet/...`).
    pub module_dirs: Vec<PathBuf>,
}

/// Ruby library directories where Puppet is commonly installed.
const LIB_CANDIDATES: &[&str] = &[
    "/opt/puppetlabs/puppet/lib/ruby/vendor_ruby",
    "/usr/lib/ruby/vendor_ruby",
    "/usr/share/ruby/vendor_ruby",
    "/usr/local/lib/ruby/vendor_ruby",
];

/// Module directories of agent-bundled and system-packaged modules.
const MODULE_CANDIDATES: &[&str] = &[
    "/opt/puppetlabs/puppet/vendor_modules",
    "/usr/share/puppet/vendor_modules",
    "/usr/share/puppet/modules",
    "/etc/puppetlabs/code/modules",
    "/etc/puppet/code/modules",
];

/// Gem roots searched for `puppet-<version>/lib`.
const GEM_ROOTS: &[&str] = &[
    "/var/lib/gems",
    "/usr/lib/ruby/gems",
    "/usr/local/lib/ruby/gems",
];

impl std::fmt::Debug for DocSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DocSource")
            .field("lib_dirs", &self.lib_dirs)
            .field("module_dirs", &self.module_dirs)
            .finish_non_exhaustive()
    }
}

impl Default for DocSource {
    /// No documentation.
    fn default() -> DocSource {
        DocSource {
            fs: Arc::new(MemoryFs::new()),
            lib_dirs: Vec::new(),
            module_dirs: Vec::new(),
        }
    }
}

impl DocSource {
    /// Probes the usual installation places in `fs`, after `extra_lib_dir`
    /// (a directory containing `puppet/`, which the server takes from
    /// `$PUPPET_LS_PUPPET_LIB`). Empty when Puppet is absent.
    pub fn discover(fs: Arc<dyn FileSystem>, extra_lib_dir: Option<PathBuf>) -> DocSource {
        let mut lib_dirs: Vec<PathBuf> = extra_lib_dir.into_iter().collect();
        lib_dirs.extend(LIB_CANDIDATES.iter().map(PathBuf::from));
        for root in GEM_ROOTS {
            for version in fs.read_dir(Path::new(root)) {
                for gem in fs.read_dir(&version.join("gems")) {
                    let is_puppet = gem
                        .file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with("puppet-"));
                    if is_puppet {
                        lib_dirs.push(gem.join("lib"));
                    }
                }
            }
        }
        lib_dirs.retain(|d| fs.is_dir(&d.join("puppet").join("type")));
        let module_dirs = MODULE_CANDIDATES
            .iter()
            .map(PathBuf::from)
            .filter(|d| fs.is_dir(d))
            .collect();
        DocSource {
            fs,
            lib_dirs,
            module_dirs,
        }
    }

    /// True when a Puppet installation was found.
    pub fn is_available(&self) -> bool {
        !self.lib_dirs.is_empty()
    }

    /// Candidate files for `rel` (`puppet/type/file.rb`): Puppet's lib dirs,
    /// then every module's `lib`.
    fn find(&self, rel: &Path) -> Option<PathBuf> {
        self.lib_dirs
            .iter()
            .map(|d| d.join(rel))
            .chain(
                self.module_dirs
                    .iter()
                    .flat_map(|d| self.fs.read_dir(d))
                    .map(|m| m.join("lib").join(rel)),
            )
            .find(|p| self.fs.is_file(p))
    }

    fn read(&self, rel: &Path) -> Option<String> {
        self.fs.read_to_string(&self.find(rel)?)
    }

    /// The full documentation of a resource type.
    pub fn type_doc(&self, type_name: &str) -> Option<String> {
        let src = self.read(&type_path(type_name)?)?;
        let start = src.find("newtype(")?;
        let body = &src[start..];
        // The type's own doc precedes its first attribute.
        let end = ["newparam(", "newproperty(", "ensurable"]
            .iter()
            .filter_map(|k| body.find(k))
            .min()
            .unwrap_or(body.len());
        let head = &body[..end];
        for key in ["@doc =", "@doc=", "desc "] {
            if let Some(i) = head.find(key) {
                if let Some(s) = ruby_string_at(body, i + key.len()) {
                    return Some(s);
                }
            }
        }
        None
    }

    /// The full documentation of an attribute of a type (or a metaparameter,
    /// looked up in Puppet's `type.rb`).
    pub fn attribute_doc(&self, type_name: &str, attribute: &str) -> Option<String> {
        if let Some(src) = type_path(type_name).and_then(|p| self.read(&p)) {
            if let Some(doc) = attribute_doc_in(&src, attribute) {
                return Some(doc);
            }
        }
        let src = self.read(Path::new("puppet/type.rb"))?;
        attribute_doc_in(&src, attribute)
    }

    /// The full documentation of a function (`each`, `stdlib::end_with`).
    pub fn function_doc(&self, name: &str) -> Option<String> {
        if !is_safe_name(&name.replace("::", "_")) {
            return None;
        }
        let rel4: PathBuf = ["puppet", "functions"]
            .iter()
            .map(|s| s.to_string())
            .chain(name.split("::").map(str::to_string))
            .collect::<PathBuf>()
            .with_extension("rb");
        if let Some(src) = self.read(&rel4) {
            if let Some(doc) = leading_comment_doc(&src) {
                return Some(doc);
            }
        }
        let rel3 = Path::new("puppet/parser/functions").join(format!("{name}.rb"));
        let src = self.read(&rel3)?;
        let i = src.find(":doc")?;
        let rest = &src[i + 4..];
        let arrow = rest.find("=>")?;
        ruby_string_at(&src, i + 4 + arrow + 2)
    }
}

/// Names that are safe path components (no `..`, slashes...).
fn is_safe_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

fn type_path(type_name: &str) -> Option<PathBuf> {
    is_safe_name(type_name).then(|| Path::new("puppet/type").join(format!("{type_name}.rb")))
}

/// The `desc` of `newparam(:attr`, `newproperty(:attr` or `newmetaparam(:attr`.
fn attribute_doc_in(src: &str, attribute: &str) -> Option<String> {
    for kw in [
        "newparam(",
        "newproperty(",
        "newmetaparam(",
        "newparam ",
        "newproperty ",
    ] {
        for pat in [format!("{kw}:{attribute}"), format!("{kw}'{attribute}'")] {
            let mut from = 0;
            while let Some(off) = src[from..].find(&pat) {
                let at = from + off + pat.len();
                from = at;
                // Reject prefixes of longer names (`:name` vs `:namevar`).
                let next = src[at..].chars().next();
                if next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                    continue;
                }
                let rest = &src[at..];
                let limit = rest
                    .find("newparam")
                    .into_iter()
                    .chain(rest.find("newproperty"))
                    .min()
                    .unwrap_or(rest.len());
                if let Some(d) = rest[..limit].find("desc") {
                    return ruby_string_at(src, at + d + 4);
                }
            }
        }
    }
    None
}

/// The comment block directly above `create_function` (4.x functions).
fn leading_comment_doc(src: &str) -> Option<String> {
    let lines: Vec<&str> = src.lines().collect();
    let at = lines.iter().position(|l| l.contains("create_function"))?;
    let mut block = Vec::new();
    for line in lines[..at].iter().rev() {
        let t = line.trim_start();
        if let Some(c) = t.strip_prefix('#') {
            block.push(c.strip_prefix(' ').unwrap_or(c));
        } else if t.is_empty() && block.is_empty() {
            continue;
        } else {
            break;
        }
    }
    block.reverse();
    let text = block
        .iter()
        .filter(|l| !l.starts_with("@since") && !l.starts_with("frozen_string_literal"))
        .copied()
        .collect::<Vec<_>>()
        .join("\n");
    let text = text.trim().to_string();
    (!text.is_empty()).then_some(text)
}

/// Reads the Ruby string literal starting at `pos` (after whitespace and
/// an optional `(`): `"..."`, `'...'` or a heredoc (`<<-EOT`, `<<~'EOT'`).
/// The result is dedented.
fn ruby_string_at(src: &str, pos: usize) -> Option<String> {
    let rest = src.get(pos..)?;
    let trimmed = rest.trim_start_matches([' ', '\t', '(', '\n', '\r']);
    let offset = pos + (rest.len() - trimmed.len());
    let heredoc = trimmed.starts_with("<<");
    let raw = if let Some(after) = trimmed.strip_prefix("<<") {
        let after = after.trim_start_matches(['-', '~']);
        let (quote, after) = match after.chars().next()? {
            q @ ('\'' | '"') => (Some(q), &after[1..]),
            _ => (None, after),
        };
        let id_len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        let id = &after[..id_len];
        if id.is_empty() {
            return None;
        }
        let _ = quote;
        let body_start = offset + trimmed.len() - after.len() + id_len;
        let body = src.get(body_start..)?;
        let body = &body[body.find('\n')? + 1..];
        let mut out = Vec::new();
        for line in body.lines() {
            if line.trim() == id {
                break;
            }
            out.push(line);
        }
        out.join("\n")
    } else {
        let q = trimmed.chars().next()?;
        if q != '"' && q != '\'' {
            return None;
        }
        let mut out = String::new();
        let mut chars = trimmed[1..].chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next()? {
                    'n' if q == '"' => out.push('\n'),
                    't' if q == '"' => out.push('\t'),
                    e if e == q || e == '\\' => out.push(e),
                    e => {
                        out.push('\\');
                        out.push(e);
                    }
                },
                c if c == q => break,
                c => out.push(c),
            }
        }
        out
    };
    let text = dedent(&raw, heredoc);
    (!text.is_empty()).then_some(text)
}

/// Removes the common indentation of the non-blank lines and trims the
/// result. A quoted string's first line starts right after the quote, so
/// only a heredoc's first line counts.
fn dedent(text: &str, heredoc: bool) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let indent = lines
        .iter()
        .skip(usize::from(!heredoc))
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out: Vec<String> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if i == 0 && !heredoc {
            out.push(l.to_string());
        } else {
            out.push(l.get(indent..).unwrap_or(l.trim_start()).to_string());
        }
    }
    out.join("\n").trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_ruby_string_literals() {
        let src = "desc \"Line one.\n      Line \\\"two\\\".\"\n";
        assert_eq!(
            ruby_string_at(src, 4).as_deref(),
            Some("Line one.\nLine \"two\".")
        );
        let src = "@doc = <<-'EOT'\n    Hello\n      world\n  EOT\n";
        assert_eq!(ruby_string_at(src, 6).as_deref(), Some("Hello\n  world"));
    }

    #[test]
    fn finds_attribute_desc() {
        let src = "newparam(:namevar) do\n desc 'x'\nend\nnewparam(:name) do\n isnamevar\n desc 'The name.'\nend\n";
        assert_eq!(attribute_doc_in(src, "name").as_deref(), Some("The name."));
    }

    #[test]
    fn absent_puppet_gives_none() {
        let src = DocSource::default();
        assert!(!src.is_available());
        assert_eq!(src.type_doc("file"), None);
        assert_eq!(src.function_doc("each"), None);
        assert_eq!(src.type_doc("../etc/passwd"), None);
    }
}
