//! `puppet-ls lookup`: Hiera's answer for a node, as `puppet lookup`
//! gives it, from the workspace's data alone (no Puppet, no server).

use puppet_analysis::hiera::lookup::{
    explain, facts_from_text, DeepOptions, LookupError, Node, Strategy,
};
use puppet_analysis::hiera::value::to_json;
use puppet_analysis::host::AnalysisHost;
use puppet_analysis::model::Value;
use puppet_analysis::workspace::{add_global_hiera, discover};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What to look up and for whom.
pub struct Request {
    pub keys: Vec<String>,
    pub node: Option<String>,
    pub facts: Option<PathBuf>,
    pub merge: Option<String>,
    /// `deep` merge options: knockout prefix, sorted arrays, merged
    /// arrays of hashes.
    pub knockout_prefix: Option<String>,
    pub sort_merged_arrays: bool,
    pub merge_hash_arrays: bool,
    pub environment: String,
    pub workspace: PathBuf,
    /// The global layer's `hiera.yaml`, read before the environment.
    pub hiera_config: Option<PathBuf>,
    pub explain: bool,
}

/// Prints each key's value as JSON (one line each), or why it has none
/// (exit status 1 if any key has none).
pub fn run(request: &Request) -> ExitCode {
    let node = match node(request) {
        Ok(node) => node,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    let merge = match request
        .merge
        .as_deref()
        .map(Strategy::from_name)
        .transpose()
    {
        Ok(Some(Strategy::Deep(_))) => Some(Strategy::Deep(DeepOptions {
            knockout_prefix: request.knockout_prefix.clone(),
            sort_merged_arrays: request.sort_merged_arrays,
            merge_hash_arrays: request.merge_hash_arrays,
        })),
        Ok(merge) => merge,
        Err(message) => {
            eprintln!("error: {message}");
            return ExitCode::FAILURE;
        }
    };
    let fs = &puppet_vfs::DiskFs;
    let mut discovered = discover(fs, std::slice::from_ref(&request.workspace));
    if let Some(global) = &request.hiera_config {
        add_global_hiera(fs, &mut discovered, global);
    }
    let host = AnalysisHost::from_discovered(fs, discovered);
    let (db, workspace) = (host.db(), host.workspace());
    let mut status = ExitCode::SUCCESS;
    for key in &request.keys {
        let explained = explain(db, workspace, &node, key, merge.clone());
        if request.explain {
            for step in &explained.steps {
                let path = shown(&step.path, &request.workspace);
                let verdict = if step.found { "found" } else { "no such key" };
                println!("{} · {} · {path}: {verdict}", step.key, step.level);
            }
        }
        match explained.result {
            Ok(found) => println!("{}", to_json(&found.value)),
            Err(LookupError::NotFound) => {
                eprintln!("error: no value found for '{key}'");
                status = ExitCode::FAILURE;
            }
            Err(LookupError::Failed(message)) => {
                eprintln!("error: lookup of '{key}' fails: {message}");
                status = ExitCode::FAILURE;
            }
        }
    }
    status
}

fn node(request: &Request) -> Result<Node, String> {
    let facts = match &request.facts {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            facts_from_text(&text).map_err(|e| format!("{}: {e}", path.display()))?
        }
        None => Default::default(),
    };
    let name = request
        .node
        .clone()
        .or_else(|| match facts.get(&Value::string("fqdn")) {
            Some(Value::String(fqdn)) => Some(fqdn.clone()),
            _ => None,
        })
        .unwrap_or_else(|| "localhost".to_string());
    Ok(Node {
        name,
        facts,
        environment: request.environment.clone(),
    })
}

fn shown(path: &Path, root: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}
