//! `puppet-ls eval`: evaluates Puppet expressions statically and prints the
//! value (in `%p` form) and its type, or the error. With `--jsonl`, reads
//! `{"id", "expr"}` lines from stdin and writes one result line per case,
//! through the same function the conformance test uses.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use puppet_analysis::eval::record::eval_case;

/// Evaluates one source text; the last statement's value is printed.
pub fn run(expr: &str) -> ExitCode {
    let r = eval_case(expr);
    if let Some(e) = r.error {
        println!("error: {}", e);
        return ExitCode::FAILURE;
    }
    match (r.value, r.type_) {
        (Some(v), Some(t)) => {
            println!("{}", v);
            println!("{}", t);
            ExitCode::SUCCESS
        }
        _ => {
            println!(
                "cannot evaluate: {}",
                r.unsupported.unwrap_or_else(|| "unknown value".into())
            );
            ExitCode::SUCCESS
        }
    }
}

/// Reads JSON lines with `expr` (and any `id`) from stdin; writes
/// `{"id","value","type","error"}` per line.
pub fn run_jsonl() -> ExitCode {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let case: serde_json::Value = match serde_json::from_str(&line) {
            Ok(v) => v,
            Err(e) => {
                let rec = serde_json::json!({
                    "id": null, "value": null, "type": null,
                    "error": format!("invalid input line: {}", e),
                });
                let _ = writeln!(out, "{}", rec);
                continue;
            }
        };
        let id = case.get("id").cloned().unwrap_or(serde_json::Value::Null);
        let expr = case.get("expr").and_then(|e| e.as_str()).unwrap_or("");
        let r = eval_case(expr);
        let rec = serde_json::json!({
            "id": id,
            "value": r.value,
            "type": r.type_,
            "error": r.error,
        });
        if writeln!(out, "{}", rec).is_err() {
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
