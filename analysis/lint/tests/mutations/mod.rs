//! Mutations of real manifests that make the corpus show the problems it
//! is too clean to show (quoted titles and modes, aligned arrows, no tabs,
//! ...), so that puppet-lint's answers on the mutated corpus measure the
//! checks the corpus alone leaves at zero. Each mutation rewrites whole
//! lines by a regular expression, on a share of the lines chosen by line
//! number; the result is deterministic. The text need not stay valid
//! Puppet everywhere: both linters read the same text.
//!
//! Used by `tests/parity.rs` and by `examples/mutate_corpus.rs`, which
//! writes the mutated corpus for `tools/lint_oracle.rb`.

use regex::Regex;
use std::sync::LazyLock;

struct Mutation {
    /// Applies to line numbers (0-based) `n` with `n % every == offset`.
    every: usize,
    offset: usize,
    pattern: &'static str,
    replacement: &'static str,
}

const MUTATIONS: &[Mutation] = &[
    // unquoted_resource_title
    Mutation {
        every: 2,
        offset: 0,
        pattern: r"\{(\s*)'([a-z][a-z0-9_]*)':",
        replacement: "{${1}${2}:",
    },
    // file_mode, unquoted_file_mode
    Mutation {
        every: 1,
        offset: 0,
        pattern: r"^(\s*mode\s*=>\s*)'0?([0-7]{3})'",
        replacement: "${1}${2}",
    },
    // right_to_left_relationship
    Mutation {
        every: 3,
        offset: 1,
        pattern: r"^(\s*\S.*) -> (\S)",
        replacement: "${1} <- ${2}",
    },
    // case_without_default
    Mutation {
        every: 2,
        offset: 1,
        pattern: r"^(\s*)default(\s*):(\s*)\{",
        replacement: "${1}'other'${2}:${3}{",
    },
    // inherits_across_namespaces
    Mutation {
        every: 1,
        offset: 0,
        pattern: r"inherits ([a-z_]+)::params",
        replacement: "inherits other::params",
    },
    // selector_inside_resource
    Mutation {
        every: 4,
        offset: 2,
        pattern: r"^(\s+[a-z_]+\s+=> )\$([a-z_]+),$",
        replacement: "${1}$$${2} ? { default => $$${2} },",
    },
    // only_variable_string
    Mutation {
        every: 4,
        offset: 0,
        pattern: r"^(\s+[a-z_]+\s+=> )\$([a-z_]+),$",
        replacement: "${1}\"$${${2}}\",",
    },
    // duplicate_params
    Mutation {
        every: 3,
        offset: 0,
        pattern: r"^(\s+)(owner|group)(\s+=> [^,]+),$",
        replacement: "${1}${2}${3},\n${1}${2}${3},",
    },
    // puppet_url_without_modules
    Mutation {
        every: 1,
        offset: 0,
        pattern: r"puppet:///modules/",
        replacement: "puppet:///",
    },
    // hard_tabs, 2sp_soft_tabs
    Mutation {
        every: 11,
        offset: 5,
        pattern: r"^  (\S)",
        replacement: "\t${1}",
    },
    Mutation {
        every: 13,
        offset: 7,
        pattern: r"^(\s+)(\S)",
        replacement: "${1} ${2}",
    },
    // trailing_whitespace (not after a word: it could end a heredoc)
    Mutation {
        every: 17,
        offset: 3,
        pattern: r"^(.*[,{])$",
        replacement: "${1}  ",
    },
    // quoted_booleans
    Mutation {
        every: 2,
        offset: 0,
        pattern: r"=> (true|false)(,?)$",
        replacement: "=> '${1}'${2}",
    },
    // double_quoted_strings
    Mutation {
        every: 3,
        offset: 2,
        pattern: r"'([a-z0-9_ ./-]*)'",
        replacement: "\"${1}\"",
    },
    // variables_not_enclosed
    Mutation {
        every: 2,
        offset: 1,
        pattern: r#""([^"$]*)\$\{([a-z_]+)\}([^"\w\[$]*)""#,
        replacement: "\"${1}$$${2}${3}\"",
    },
    // single_quote_string_with_variables
    Mutation {
        every: 5,
        offset: 3,
        pattern: r#""([^"'$\\]*)\$\{([a-z_]+)\}([^"'$\\]*)""#,
        replacement: "'${1}$${${2}}${3}'",
    },
    // variable_is_lowercase
    Mutation {
        every: 7,
        offset: 4,
        pattern: r"^(\s*)\$([a-z])([a-z_]*)(\s*)=",
        replacement: "${1}$$${2}X${3}${4}=",
    },
    // parameter_order
    Mutation {
        every: 9,
        offset: 2,
        pattern: r"^(\s+)(\$[a-z_]+)(\s*)= [^,()\[\]{}'\x22]+,$",
        replacement: "${1}${2},",
    },
    // ensure_not_symlink_target
    Mutation {
        every: 3,
        offset: 1,
        pattern: r"^(\s*ensure\s*=> )(directory|file),",
        replacement: "${1}'/srv/target',",
    },
    // variable_contains_dash
    Mutation {
        every: 5,
        offset: 4,
        pattern: r"\$\{([a-z]+)_([a-z]+)\}",
        replacement: "$${${1}-${2}}",
    },
    // unquoted_node_name
    Mutation {
        every: 1,
        offset: 0,
        pattern: r"^node '([a-z][a-z0-9.-]*)'",
        replacement: "node ${1}",
    },
];

static COMPILED: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    MUTATIONS
        .iter()
        .map(|m| Regex::new(m.pattern).expect("valid regex"))
        .collect()
});

/// The mutated text: each line rewritten by the mutations that apply to
/// its number; the text unchanged when that would add syntax errors (a
/// quote changed inside a longer string), as puppet-lint and puppet-ls
/// recover from errors differently.
pub fn mutate(text: &str) -> String {
    let mutated = mutate_lines(text);
    let errors = |text: &str| {
        puppet_syntax::parse(text, puppet_syntax::SourceKind::Manifest)
            .errors()
            .len()
    };
    if errors(&mutated) > errors(text) {
        text.to_string()
    } else {
        mutated
    }
}

fn mutate_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for (number, line) in text.split('\n').enumerate() {
        if number > 0 {
            out.push('\n');
        }
        let mut line = line.to_string();
        for (mutation, regex) in MUTATIONS.iter().zip(COMPILED.iter()) {
            if number % mutation.every == mutation.offset {
                line = regex.replace(&line, mutation.replacement).into_owned();
            }
        }
        out.push_str(&line);
    }
    out
}
