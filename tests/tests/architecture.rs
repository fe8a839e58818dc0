//! The crate boundaries that `docs/architecture.md` promises, checked on
//! the sources: only the server and the file-system layer (`puppet-vfs`)
//! touch the disk or the environment; everything below reads through the
//! `FileSystem` it is given.

use std::path::{Path, PathBuf};

/// The crates that must not do IO themselves.
const PURE_CRATES: &[&str] = &[
    "syntax",
    "analysis",
    "analysis/codes",
    "analysis/runtime",
    "analysis/ide",
    "analysis/format",
    "analysis/lint",
];

/// What doing IO looks like in Rust source.
const IO_MARKERS: &[&str] = &[
    "std::fs",
    "std::env::var",
    "std::process",
    "std::net",
    "File::open",
    "File::create",
    "DiskFs",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn only_the_server_and_the_file_system_layer_do_io() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut checked = 0;
    let mut offenders = Vec::new();
    for krate in PURE_CRATES {
        let mut files = Vec::new();
        rust_files(&root.join(krate).join("src"), &mut files);
        assert!(!files.is_empty(), "{krate}/src has no Rust files");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            checked += 1;
            for (n, line) in text.lines().enumerate() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                if let Some(marker) = IO_MARKERS.iter().find(|m| line.contains(*m)) {
                    offenders.push(format!("{}:{}: {marker}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} files checked");
    assert!(
        offenders.is_empty(),
        "IO outside the server and puppet-vfs:\n{}",
        offenders.join("\n")
    );
}

/// The top-level modules of a crate and, for each, the others it names
/// (`crate::other`, or `crate::{other::X, ...}`), test items left out. A
/// path from the root may also start with as many `super::` as the file
/// is deep (`super::other` in `a.rs` or `a/mod.rs`, `super::super::other`
/// in `a/b.rs`). A name the root imports from a module (`pub use
/// other::Name;`, see `root_imports`) counts as that module: `crate::Name`
/// is an edge to `other`.
///
/// Still invisible: glob imports at the root (`pub use other::*;`),
/// methods that an `impl` block in another module adds to a type (a call
/// names no module), and what macros expand to. An inline module other
/// than a test module (`mod m { use super::X; }`) would be misread, its
/// `super::` taken for one level higher: no crate here has one that
/// uses `super::`.
fn module_graph(
    src: &Path,
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let module_of = |file: &Path| -> Option<String> {
        let rel = file.strip_prefix(src).ok()?;
        let first = rel.components().next()?.as_os_str().to_str()?;
        let name = first.trim_end_matches(".rs");
        (name != "lib" && name != "main").then(|| name.to_string())
    };
    let modules: std::collections::BTreeSet<String> =
        files.iter().filter_map(|f| module_of(f)).collect();
    let imported = root_imports(src, &modules);
    let mut graph = std::collections::BTreeMap::new();
    for file in &files {
        let Some(from) = module_of(file) else {
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        let code = without_test_items(&text);
        let edges = graph
            .entry(from.clone())
            .or_insert_with(std::collections::BTreeSet::new);
        let rel = file.strip_prefix(src).unwrap();
        let depth = rel.components().count() - usize::from(rel.ends_with("mod.rs"));
        for root in ["crate::".to_string(), "super::".repeat(depth)] {
            for (i, _) in code.match_indices(&root) {
                for name in path_heads(&code[i + root.len()..]) {
                    let module = imported.get(&name).unwrap_or(&name);
                    if *module != from && modules.contains(module) {
                        edges.insert(module.clone());
                    }
                }
            }
        }
    }
    graph
}

/// The names the crate's root (`lib.rs` or `main.rs`) imports from its own
/// modules, each with its module: `pub use other::Name;` and
/// `pub use other::{A, b::B, C as D};` give `Name`, `A`, `B` and `D`, all
/// from `other`. Private and `pub(crate)` imports count too: the modules
/// below the root can name them as well.
fn root_imports(
    src: &Path,
    modules: &std::collections::BTreeSet<String>,
) -> std::collections::BTreeMap<String, String> {
    let mut imported = std::collections::BTreeMap::new();
    let root = ["lib.rs", "main.rs"]
        .iter()
        .map(|f| src.join(f))
        .find(|f| f.exists());
    let Some(root) = root else {
        return imported;
    };
    let code = without_test_items(&std::fs::read_to_string(root).unwrap());
    for statement in code.split(';') {
        // A `use`, first on its line but for its visibility.
        let Some(at) = statement.rfind("use ") else {
            continue;
        };
        let visibility = statement[..at].rsplit('\n').next().unwrap_or("").trim();
        if !matches!(visibility, "" | "pub" | "pub(crate)") {
            continue;
        }
        let path = statement[at + "use ".len()..].trim();
        let Some((module, names)) = path.split_once("::") else {
            continue;
        };
        if !modules.contains(module) {
            continue;
        }
        // Braces dropped, `{A, b::{C, D}}` reads as the list `A, b::C, D`.
        for item in names.replace(['{', '}'], "").split(',') {
            let name = match item.split_once(" as ") {
                Some((_, alias)) => alias,
                None => item.rsplit("::").next().unwrap_or(item),
            }
            .trim();
            if !name.is_empty() && name != "self" && name != "*" {
                imported.insert(name.to_string(), module.to_string());
            }
        }
    }
    imported
}

/// `text` without its `#[cfg(test)]` items (each up to its `;`, or to the
/// brace closing its body), so a test module declared early in a file
/// does not hide the code after it. Braces are counted as written, strings
/// and comments included: a test item with unbalanced ones in its text
/// hides the rest of the file, as reading up to the attribute did.
fn without_test_items(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at..];
        let mut depth = 0;
        let mut end = item.len();
        for (i, c) in item.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 1 => {
                    end = i + 1;
                    break;
                }
                '}' => depth -= 1,
                ';' if depth == 0 => {
                    end = i + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

/// The first segment of the path after `crate::`: one name, or each
/// name of a group (`{a::X, b}` gives `a` and `b`).
fn path_heads(after: &str) -> Vec<String> {
    let word = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let Some(group) = after.strip_prefix('{') else {
        return vec![word(after)];
    };
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut start = true;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => start = true,
            _ if start && !c.is_whitespace() => {
                heads.push(word(&group[i..]));
                start = false;
            }
            _ => {}
        }
    }
    heads
}

/// The strongly connected groups of more than one module (Tarjan).
fn cycles(
    graph: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
) -> Vec<Vec<String>> {
    struct Search<'a> {
        graph: &'a std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        index: std::collections::BTreeMap<&'a str, usize>,
        low: std::collections::BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Search<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            for w in self.graph.get(v).into_iter().flatten() {
                if !self.index.contains_key(w.as_str()) {
                    self.visit(w);
                    let lw = self.low[w.as_str()];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if self.stack.contains(&w.as_str()) {
                    let iw = self.index[w.as_str()];
                    let lv = self.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut group = Vec::new();
                while let Some(w) = self.stack.pop() {
                    group.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if group.len() > 1 {
                    group.sort();
                    self.found.push(group);
                }
            }
        }
    }
    let mut search = Search {
        graph,
        index: Default::default(),
        low: Default::default(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !search.index.contains_key(v.as_str()) {
            search.visit(v);
        }
    }
    search.found.sort();
    search.found
}

/// No crate's modules import each other in a circle, except the groups
/// listed here, each with why it is one layer (`docs/architecture.md`,
/// "Module cycles"). None is listed today. A new cycle fails; breaking a
/// listed one means removing it from the list.
#[test]
fn module_cycles_are_only_the_known_ones() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let known: &[(&str, &[&str])] = &[];
    let mut unexpected = Vec::new();
    let mut found = Vec::new();
    for krate in PURE_CRATES {
        let graph = module_graph(&root.join(krate).join("src"));
        for group in cycles(&graph) {
            let listed = known
                .iter()
                .any(|(k, g)| k == krate && g.iter().copied().eq(group.iter().map(String::as_str)));
            if !listed {
                unexpected.push(format!("{krate}: {}", group.join(" <-> ")));
            }
            found.push((krate.to_string(), group));
        }
    }
    assert!(
        unexpected.is_empty(),
        "new module cycles:\n{}",
        unexpected.join("\n")
    );
    for (krate, group) in known {
        let still = found
            .iter()
            .any(|(k, g)| k == krate && group.iter().copied().eq(g.iter().map(String::as_str)));
        assert!(
            still,
            "{krate}: {} is no longer a cycle: take it off the list",
            group.join(" <-> ")
        );
    }
}
