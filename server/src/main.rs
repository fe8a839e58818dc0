//! `puppet-ls`: the Puppet language server and command-line checker.

mod cli;
mod codes;
mod linting;
mod lsp;
mod project_config;
mod reporting;
mod target;

/// The server allocates and frees many short-lived trees and strings; jemalloc
/// keeps that cheap where the system allocator churns (see docs/benchmarks.md).
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "puppet-ls",
    version,
    about = "Language server and checker for the Puppet language"
)]
struct Args {
    /// Without a command, the language server runs over stdio.
    #[command(subcommand)]
    command: Option<Command>,
    /// Speak LSP over stdin/stdout (the default; editors pass it).
    #[arg(long, global = true)]
    stdio: bool,
    /// How much the language server logs to stderr.
    #[arg(long, global = true, value_enum, default_value = "warn")]
    log_level: lsp::LogLevel,
}

#[derive(Subcommand)]
enum Command {
    /// Run the language server over stdio (also the default).
    Lsp,
    /// Parse and validate manifests (.pp) and templates (.epp); print the
    /// problems as `path:line:col: severity: message [code]`.
    Parse {
        /// Files or directories (searched recursively).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Print the concrete syntax tree of each file.
        #[arg(long)]
        tree: bool,
    },
    /// Check a code base: discover modules and files under the paths
    /// (default `.`), report syntax, validation and workspace problems
    /// (unknown classes and types, definitions in the wrong file,
    /// duplicates), puppet-lint's style checks (honouring
    /// `.puppet-lint.rc` and control comments) and manifests `fmt` would
    /// change. Exit status 1 on any error.
    Check {
        paths: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "human")]
        format: cli::problems::Format,
        /// Report only these codes (comma-separated analysis codes,
        /// puppet-lint check names or `unformatted`, e.g.
        /// `unknown-class,arrow_alignment`).
        #[arg(long, value_delimiter = ',')]
        select: Vec<cli::problems::ProblemCode>,
        /// Never report these codes (comma-separated).
        #[arg(long, value_delimiter = ',')]
        ignore: Vec<cli::problems::ProblemCode>,
        /// Leave out puppet-lint's checks.
        #[arg(long)]
        no_lint: bool,
        /// Leave out the formatting check (`unformatted`).
        #[arg(long)]
        no_format_check: bool,
        /// First apply every safe fix (puppet-lint's fixes, then
        /// formatting) to the files, then report what remains.
        #[arg(long)]
        fix: bool,
        /// The Puppet to give verdicts for: 7 or 8 (default: what the
        /// project's metadata.json or Gemfile requires, else 8).
        #[arg(long, value_name = "7|8")]
        puppet_version: Option<puppet_analysis::target::PuppetVersion>,
        /// After the problems, a table of them by code with how many
        /// `--fix` rewrites (printed unasked when `--puppet-version` asks
        /// for another major than the code base targets: the upgrade
        /// report).
        #[arg(long)]
        statistics: bool,
    },
    /// Print the inferred type of every variable reference of the files
    /// under the paths, one JSON line `{"path","line","column","name","type"}`
    /// each (for tools/soundness).
    Types {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Modules or directories loaded for reference, not reported.
        #[arg(long = "library")]
        libraries: Vec<PathBuf>,
        /// The Puppet to infer for: 7 or 8 (default: what the paths'
        /// metadata.json or Gemfile requires, else 8).
        #[arg(long, value_name = "7|8")]
        puppet_version: Option<puppet_analysis::target::PuppetVersion>,
    },
    /// Format manifests (.pp) in place, following the Puppet style guide;
    /// files that do not parse are reported and left untouched (exit
    /// status 1).
    Fmt {
        /// Files or directories (searched recursively; default `.`); `-`
        /// formats standard input to standard output.
        paths: Vec<PathBuf>,
        /// Write nothing; list the files that would change (exit status 1
        /// if any would).
        #[arg(long)]
        check: bool,
        /// Write nothing; print a unified diff of the changes (exit
        /// status 1 if any).
        #[arg(long)]
        diff: bool,
    },
    /// Look keys up in the workspace's Hiera data for a node, as `puppet
    /// lookup` does (environment layer, then the key's module): print each
    /// value as JSON, or why there is none (exit status 1).
    Lookup {
        /// The keys (dotted sub-keys dig into the value: `ntp::settings.port`).
        #[arg(required = true)]
        keys: Vec<String>,
        /// The node's certificate name (`$trusted['certname']`); default
        /// the facts' `fqdn`.
        #[arg(long)]
        node: Option<String>,
        /// The node's facts: a YAML or JSON hash (`puppet facts` output
        /// works too).
        #[arg(long)]
        facts: Option<PathBuf>,
        /// The merge strategy: first, unique, hash or deep (default: the
        /// key's `lookup_options`, else first).
        #[arg(long)]
        merge: Option<String>,
        /// With `--merge deep`: the prefix that knocks a value out.
        #[arg(long)]
        knock_out_prefix: Option<String>,
        /// With `--merge deep`: sort the merged arrays.
        #[arg(long)]
        sort_merged_arrays: bool,
        /// With `--merge deep`: merge arrays of hashes element by element.
        #[arg(long)]
        merge_hash_arrays: bool,
        /// The environment's name (`%{environment}`).
        #[arg(long, default_value = "production")]
        environment: String,
        /// The control repository (default `.`).
        #[arg(long, default_value = ".")]
        workspace: PathBuf,
        /// The global layer's `hiera.yaml` (Puppet's `hiera_config`), read
        /// before the environment's.
        #[arg(long)]
        hiera_config: Option<PathBuf>,
        /// Also print each file read, level by level, and whether it has the key.
        #[arg(long)]
        explain: bool,
    },
    /// Evaluate Puppet source statically: print the last statement's value
    /// (`%p` form) and its type, or `error: MESSAGE` (exit status 1).
    Eval {
        /// The source to evaluate (may hold several statements).
        #[arg(required_unless_present = "jsonl")]
        expr: Option<String>,
        /// Read `{"id", "expr"}` JSON lines from stdin; write one
        /// `{"id","value","type","error"}` line per case.
        #[arg(long)]
        jsonl: bool,
    },
}

fn main() -> ExitCode {
    let args = Args::parse();
    let Some(command) = args.command else {
        return lsp::run(args.log_level);
    };
    match command {
        Command::Lsp => lsp::run(args.log_level),
        Command::Parse { paths, tree } => cli::parse::run(&paths, tree),
        Command::Check {
            paths,
            format,
            select,
            ignore,
            no_lint,
            no_format_check,
            fix,
            puppet_version,
            statistics,
        } => cli::check::run(
            &paths,
            &cli::check::Options {
                format,
                select,
                ignore,
                lint: !no_lint,
                format_check: !no_format_check,
                fix,
                puppet_version,
                statistics,
            },
        ),
        Command::Types {
            paths,
            libraries,
            puppet_version,
        } => cli::types::run(&paths, &libraries, puppet_version),
        Command::Fmt { paths, check, diff } => {
            cli::fmt::run(&paths, cli::fmt::Mode { check, diff })
        }
        Command::Lookup {
            keys,
            node,
            facts,
            merge,
            knock_out_prefix,
            sort_merged_arrays,
            merge_hash_arrays,
            environment,
            workspace,
            hiera_config,
            explain,
        } => cli::lookup::run(&cli::lookup::Request {
            keys,
            node,
            facts,
            merge,
            knockout_prefix: knock_out_prefix,
            sort_merged_arrays,
            merge_hash_arrays,
            environment,
            workspace,
            hiera_config,
            explain,
        }),
        Command::Eval { expr, jsonl } => {
            if jsonl {
                cli::eval::run_jsonl()
            } else {
                cli::eval::run(expr.as_deref().unwrap_or_default())
            }
        }
    }
}
