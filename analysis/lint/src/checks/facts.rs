//! puppet-lint 4's fact checks: `legacy_facts` (a fact read by its legacy
//! name) and `top_scope_facts` (a fact read as a top-scope variable).
//!
//! Neither offers a fix: a legacy fact may be absent where its structured
//! form is present (Puppet 8 drops legacy facts), and a top-scope variable
//! may not be a fact at all, so rewriting either can change the value.

use super::Sink;
use crate::context::variables::VariableRef;
use crate::context::LintContext;
use puppet_syntax::SyntaxKind;
use regex::{Regex, RegexSet};
use std::sync::LazyLock;

/// Legacy facts with a structured replacement (puppet-lint 4's list).
const LEGACY_FACTS: &[&str] = &[
    "architecture",
    "augeasversion",
    "bios_release_date",
    "bios_vendor",
    "bios_version",
    "boardassettag",
    "boardmanufacturer",
    "boardproductname",
    "boardserialnumber",
    "chassisassettag",
    "chassistype",
    "domain",
    "fqdn",
    "gid",
    "hardwareisa",
    "hardwaremodel",
    "hostname",
    "id",
    "ipaddress",
    "ipaddress6",
    "lsbdistcodename",
    "lsbdistdescription",
    "lsbdistid",
    "lsbdistrelease",
    "lsbmajdistrelease",
    "lsbminordistrelease",
    "lsbrelease",
    "macaddress",
    "macosx_buildversion",
    "macosx_productname",
    "macosx_productversion",
    "macosx_productversion_major",
    "macosx_productversion_minor",
    "manufacturer",
    "memoryfree",
    "memorysize",
    "netmask",
    "netmask6",
    "network",
    "network6",
    "operatingsystem",
    "operatingsystemmajrelease",
    "operatingsystemrelease",
    "osfamily",
    "physicalprocessorcount",
    "processorcount",
    "productname",
    "rubyplatform",
    "rubysitedir",
    "rubyversion",
    "selinux",
    "selinux_config_mode",
    "selinux_config_policy",
    "selinux_current_mode",
    "selinux_enforced",
    "selinux_policyversion",
    "serialnumber",
    "swapencrypted",
    "swapfree",
    "swapsize",
    "system32",
    "uptime",
    "uptime_days",
    "uptime_hours",
    "uptime_seconds",
    "uuid",
    "xendomains",
    "zonename",
];

/// Legacy facts without a direct replacement.
const UNCONVERTIBLE_FACTS: &[&str] = &[
    "memoryfree_mb",
    "memorysize_mb",
    "swapfree_mb",
    "swapsize_mb",
    "blockdevices",
    "interfaces",
    "zones",
    "sshfp_dsa",
    "sshfp_ecdsa",
    "sshfp_ed25519",
    "sshfp_rsa",
];

/// Families of legacy facts named after a device, interface, ...
static LEGACY_FACT_PATTERNS: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSet::new([
        r"^blockdevice_.*_(model|size|vendor)$",
        r"^(ipaddress|ipaddress6|macaddress|mtu|netmask|netmask6|network|network6)_.*$",
        r"^processor[0-9]+$",
        r"^sp_.*$",
        r"^ssh(dsa|ecdsa|ed25519|rsa)key$",
        r"^ldom_.*$",
        r"^zone_.*_(brand|iptype|name|uuid|id|path|status)$",
    ])
    .expect("valid regexes")
});

fn is_legacy_fact(name: &str) -> bool {
    LEGACY_FACTS.contains(&name)
        || UNCONVERTIBLE_FACTS.contains(&name)
        || LEGACY_FACT_PATTERNS.is_match(name)
}

static FACTS_INDEX: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\[(?P<quote>'?)(?P<key>.+)'?\]$").expect("valid regex"));

/// The fact a reference reads: `$::osfamily`, `$facts['osfamily']`,
/// `"${facts['osfamily']}"`.
fn fact_name(ctx: &LintContext, variable: &VariableRef) -> Option<String> {
    let name = variable.name;
    if name == "facts" || name == "::facts" {
        let index = variable.index(ctx.text);
        if !index.is_empty() {
            let captures = FACTS_INDEX.captures(index)?;
            let key = captures.name("key")?.as_str();
            let quoted = !captures.name("quote")?.as_str().is_empty();
            let key = if quoted { key.strip_suffix('\'')? } else { key };
            return Some(key.to_string());
        }
        return first_key_after(ctx, variable);
    }
    name.strip_prefix("::").map(str::to_string)
}

/// The key of `[key]` after `${facts` in a string, when it is a word or a
/// string literal.
fn first_key_after(ctx: &LintContext, variable: &VariableRef) -> Option<String> {
    let (bracket_at, bracket) = ctx.next_code(ctx.index_at(variable.range().start()))?;
    if !matches!(
        bracket.kind(),
        SyntaxKind::L_BRACK | SyntaxKind::L_BRACK_LIST
    ) {
        return None;
    }
    let (key_at, key) = ctx.next_code(bracket_at)?;
    match key.kind() {
        SyntaxKind::SQ_STRING => Some(crate::context::resources::single_quoted_content(key.text())),
        SyntaxKind::NAME => Some(key.text().to_string()),
        SyntaxKind::DQUOTE => {
            let text = ctx
                .tokens
                .get(key_at + 1)
                .filter(|t| t.kind() == SyntaxKind::STRING_TEXT)?;
            Some(text.text().to_string())
        }
        _ => None,
    }
}

pub(crate) fn legacy_facts(ctx: &LintContext, sink: &mut Sink) {
    for variable in ctx.variables() {
        let Some(fact) = fact_name(ctx, variable) else {
            continue;
        };
        if is_legacy_fact(&fact) {
            sink.report(variable.range(), format!("legacy fact '{fact}'"));
        }
    }
}

/// Top-scope variables puppet-lint 4 accepts: the two hashes and the
/// legacy facts (which `legacy_facts` reports).
fn allowed_top_scope(name: &str, extra: &[String]) -> bool {
    // puppet-lint matches these as prefixes (`^::(a|b|...)`), so
    // `$::domain_name` passes as `domain` does.
    ["trusted", "facts"]
        .iter()
        .chain(LEGACY_FACTS)
        .copied()
        .chain(extra.iter().map(String::as_str))
        .any(|allowed| name.starts_with(allowed))
}

static QUALIFIED_TOP_SCOPE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^[a-z0-9_][a-zA-Z0-9_]+::").expect("valid regex"));

pub(crate) fn top_scope_facts(ctx: &LintContext, sink: &mut Sink) {
    let extra = &ctx.config.top_scope_variables;
    for variable in ctx.variables() {
        let Some(name) = variable.name.strip_prefix("::") else {
            continue;
        };
        if allowed_top_scope(name, extra) || QUALIFIED_TOP_SCOPE.is_match(name) {
            continue;
        }
        sink.report(variable.range(), "top scope fact instead of facts hash");
    }
}
