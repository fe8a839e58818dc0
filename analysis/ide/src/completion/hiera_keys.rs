//! Completion of Hiera keys: inside the key string of `lookup('...')` in
//! code (the keys the data binds and the code looks up), and at the start
//! of a line of a data file (the class parameters, as `class::param`, that
//! the file does not bind yet and that its layer may answer).

use super::{CompletionItem, CompletionKind};
use puppet_analysis::db::{DataFile, Workspace};
use puppet_analysis::hiera::calls::{code_lookup_keys, lookup_call};
use puppet_analysis::hiera::data::{hiera_key_index, normalize_key};
use puppet_analysis::hiera::layers::{hiera_layers, levels_of};
use puppet_analysis::index::{definition, definition_index, Namespace};
use puppet_syntax::{SyntaxKind, SyntaxNode, TextRange, TextSize};
use std::collections::BTreeSet;

/// Keys for the key string of a lookup call around `offset`; `None` when
/// the cursor is not in one.
pub(super) fn in_lookup_call(
    db: &dyn salsa::Database,
    workspace: Workspace,
    root: &SyntaxNode,
    offset: TextSize,
) -> Option<Vec<CompletionItem>> {
    let token = root.token_at_offset(offset).left_biased()?;
    let call = token
        .parent_ancestors()
        .find(|n| n.kind() == SyntaxKind::CALL_EXPR)?;
    let found = lookup_call(&call)?;
    let string = found.key_range;
    if offset <= string.start() || offset >= string.end() {
        return None;
    }
    // The content between the quotes.
    let inner = TextRange::new(
        string.start() + TextSize::from(1),
        string.end() - TextSize::from(1),
    );
    let mut keys: BTreeSet<&str> = hiera_key_index(db, workspace)
        .keys()
        .map(String::as_str)
        .collect();
    keys.extend(code_lookup_keys(db, workspace).iter().map(String::as_str));
    keys.remove("lookup_options");
    Some(
        keys.into_iter()
            .map(|key| CompletionItem::new(key, CompletionKind::Key, inner))
            .collect(),
    )
}

/// Class parameter keys at the start of a line of a data file.
pub(super) fn in_data_file(
    db: &dyn salsa::Database,
    workspace: Workspace,
    file: DataFile,
    offset: TextSize,
) -> Vec<CompletionItem> {
    let text = file.text(db);
    let at = usize::from(offset).min(text.len());
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let typed = &text[line_start..at];
    // Only a top-level key being typed: no indentation, no value yet.
    let is_key = !typed.starts_with([' ', '\t', '-', '#', '{', '['])
        && !typed.trim_end_matches(':').contains(": ")
        && !typed.ends_with(": ");
    if !is_key {
        return Vec::new();
    }
    let replace = TextRange::new(TextSize::from(line_start as u32), TextSize::from(at as u32));
    let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    let bound = top_level_keys(&text[..line_start], &text[line_end..]);
    // A module's data answers only keys of its own namespace (Puppet
    // ignores the rest), so a file only module levels name offers those.
    let layers = hiera_layers(db, workspace);
    let answering: Vec<_> = levels_of(db, workspace, file)
        .into_iter()
        .map(|(layer, _)| &layers[layer])
        .collect();
    let mut items = Vec::new();
    for (namespace, name, locations) in definition_index(db, workspace).iter() {
        if namespace != Namespace::Class {
            continue;
        }
        let probe = format!("{name}::_");
        if !answering.is_empty() && !answering.iter().any(|layer| layer.answers(&probe)) {
            continue;
        }
        let Some(def) = locations.first().and_then(|&l| definition(db, l)) else {
            continue;
        };
        for param in &def.params {
            let key = format!("{name}::{}", param.name);
            if bound.contains(key.as_str()) {
                continue;
            }
            let mut item = CompletionItem::new(key, CompletionKind::Parameter, replace);
            item.detail = param.type_text.clone();
            item.insert_text = Some(format!("{name}::{}: ", param.name));
            items.push(item);
        }
    }
    items
}

/// The top-level keys written in the lines before and after the one being
/// typed. Read from the text, not the parsed document: a key half typed on
/// its own line makes the document invalid YAML until it gets its colon.
fn top_level_keys<'t>(before: &'t str, after: &'t str) -> BTreeSet<&'t str> {
    before
        .lines()
        .chain(after.lines())
        .filter(|line| !line.starts_with([' ', '\t', '-', '#', '{', '[']))
        .filter_map(|line| {
            let (key, _) = line.split_once(": ").or_else(|| {
                line.split_once(':')
                    .filter(|(_, rest)| rest.trim().is_empty())
            })?;
            let key = key.trim().trim_matches(['"', '\'']);
            Some(normalize_key(key))
        })
        .collect()
}
