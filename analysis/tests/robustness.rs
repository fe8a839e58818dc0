//! Fuzz-style robustness: evaluating mutated conformance expressions and
//! deeply nested or runaway code never panics and always ends quickly.

use std::time::{Duration, Instant};

use puppet_analysis::eval::record::{eval_case, CaseRecord};

const ALPHABET: &[char] = &[
    '[', ']', '{', '}', '(', ')', '|', '$', '"', '\'', '*', '=', '>', '<', ',', ';', '.', '/',
    '\\', '%', '0', '9', 'a', 'Z', ' ', '\n', '-', '+', '!', '~', ':', '@',
];

fn mutate(rng: &mut fastrand::Rng, s: &str) -> String {
    let mut chars: Vec<char> = s.chars().collect();
    for _ in 0..1 + rng.usize(..4) {
        let pos = rng.usize(..chars.len() + 1);
        match rng.usize(..4) {
            0 if pos < chars.len() => {
                chars.remove(pos);
            }
            1 => chars.insert(pos, ALPHABET[rng.usize(..ALPHABET.len())]),
            2 if pos < chars.len() => chars[pos] = ALPHABET[rng.usize(..ALPHABET.len())],
            _ => {
                // duplicate a slice
                let end = (pos + rng.usize(..8)).min(chars.len());
                let piece: Vec<char> = chars[pos.min(end)..end].to_vec();
                let at = rng.usize(..chars.len() + 1);
                for (i, c) in piece.into_iter().enumerate() {
                    chars.insert(at + i, c);
                }
            }
        }
    }
    chars.into_iter().collect()
}

fn check(src: &str, limit: Duration) -> CaseRecord {
    let start = Instant::now();
    let r = eval_case(src);
    let took = start.elapsed();
    assert!(
        r.unsupported.as_deref() != Some("internal error while evaluating"),
        "evaluator panicked on {src:?}"
    );
    assert!(took < limit, "evaluation took {took:?} on {src:?}");
    r
}

#[test]
fn mutated_conformance_cases() {
    let data = include_str!("../test_data/eval.jsonl");
    let exprs: Vec<String> = data
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v.get("expr").and_then(|e| e.as_str()).map(str::to_string))
        .collect();
    let mut rng = fastrand::Rng::with_seed(0x5eed_1234_abcd_0001);
    for i in 0..3000 {
        let base = &exprs[i % exprs.len()];
        let src = mutate(&mut rng, base);
        check(&src, Duration::from_secs(10));
    }
}

#[test]
fn deep_nesting_and_runaway_code() {
    let limit = Duration::from_secs(20);
    for depth in [100, 1000, 5000] {
        check(
            &format!("{}1{}", "[".repeat(depth), "]".repeat(depth)),
            limit,
        );
        check(
            &format!("{}1{}", "(".repeat(depth), ")".repeat(depth)),
            limit,
        );
        check(&format!("{}1", "-".repeat(depth)), limit);
        check(
            &format!("{}1{}", "{a => ".repeat(depth), "}".repeat(depth)),
            limit,
        );
        check(
            &"1 + ".repeat(depth).to_string().replace("+ $", "+ 1"),
            limit,
        );
        check(
            &format!("{}1{}", "if true { ".repeat(depth), " }".repeat(depth)),
            limit,
        );
    }
    check("Integer[1, 10**12].each |$x| {}", limit);
    let r = check("Integer[1, 1000000000000].each |$x| {}", limit);
    assert!(r.error.is_none() && r.value.is_none(), "{r:?}");
    let r = check("function f($n) { f($n + 1) } f(0)", limit);
    assert!(r.value.is_none());
    let r = check(
        "function fib($n) { if $n < 2 { $n } else { fib($n - 1) + fib($n - 2) } } fib(40)",
        limit,
    );
    assert!(r.value.is_none());
    check("$a = [1]; [1,2,3].map |$x| { $a + $a + $a }", limit);
    check("'x' * 100000000", limit);
    check("String(1, '%99999999d')", limit);
    check("sprintf('%099999999d', 1)", limit);
}

#[test]
fn mutated_extra_cases() {
    let data = include_str!("../test_data/eval_extra.jsonl");
    let exprs: Vec<String> = data
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| {
            v.get("id")
                .and_then(|i| i.as_str())
                .is_some_and(|i| i.starts_with("tail-"))
        })
        .filter_map(|v| v.get("expr").and_then(|e| e.as_str()).map(str::to_string))
        .collect();
    let mut rng = fastrand::Rng::with_seed(0x5eed_1234_abcd_0002);
    for i in 0..1500 {
        let base = &exprs[i % exprs.len()];
        let src = mutate(&mut rng, base);
        check(&src, Duration::from_secs(10));
    }
}

#[test]
fn extreme_formats_and_bounds() {
    let limit = Duration::from_secs(10);
    for src in [
        "sprintf('%*d', 9223372036854775807, 1)",
        "sprintf('%*d', -9223372036854775808, 1)",
        "sprintf('%.*f', -9223372036854775808, 1.0)",
        "sprintf('%*.*s', 1e300, 2, 'x')",
        "sprintf('%-*2$d', 1)",
        "sprintf('%*0$d', 1, 2)",
        "sprintf('%--++  ##00d', 1)",
        "Timestamp(0).strftime('%99999999:::z %_-^#0100000A %E %O %: %10')",
        "Timestamp(0).strftime('%99999999999999999999999N %-99999999999z')",
        "Timespan(1).strftime('%_99999H')",
        "Timestamp(Float('1e300'))",
        "String(Timestamp(0) + 1e300)",
        "Float('1e400') * 0 + 1",
        "[Float('1e400'), Float('-1e400')].sort |$a, $b| { $a <=> $b }",
        "Hash(100000000000)",
        "[[[[[[1]]]]]].tree_each({order => breadth_first}) |$p, $v| { }",
        "SemVerRange(default, default, true) =~ SemVerRange",
        "type A = A\n[1].map |$x| { A }",
        "type A = B\ntype B = A\nA.map |$x| { $x }",
        "[1, 2, 3].slice(9223372036854775807) |*$r| { $r }",
    ] {
        check(src, limit);
    }
}

/// `inline_epp()` texts mutated (escapes, broken tags, quotes, heredoc
/// margins, templates in templates) are analysed under both Puppets
/// without panicking and quickly.
#[test]
fn mutated_inline_epp_templates() {
    use puppet_analysis::host::AnalysisHost;
    use puppet_analysis::target::{PuppetVersion, Target};
    use std::path::PathBuf;
    let bases = [
        "notice(inline_epp('it\\'s \\\\ <%= $x %> <%- |$p, $q = $x| -%><% $y = 1 %>', { 'p' => 1 }))",
        "notice(inline_epp(\"\\t\\$x <%= \\$x %> \\u{1F600} <%= [1].map |\\$v| { \\$v } %>\", $h))",
        "notice(inline_epp(@(EPP/t)))\n  <%= inline_epp('<%= $x %>', p => 1) %>\\t<%= $z %>\n  | EPP",
        "notice(inline_epp('<%= inline_epp(\"<%= inline_epp(\\'<%= $x %>\\') %>\") %>'))",
    ];
    let path = PathBuf::from("/ws/modules/m/manifests/init.pp");
    let mut hosts: Vec<AnalysisHost> = PuppetVersion::ALL
        .into_iter()
        .map(|version| {
            let mut host = AnalysisHost::from_files(vec![(path.clone(), String::new())]);
            host.set_target(Target::of(version), "test");
            host
        })
        .collect();
    let mut rng = fastrand::Rng::with_seed(0x5eed_1234_abcd_0003);
    for i in 0..400 {
        let base = bases[i % bases.len()];
        let code = mutate(&mut rng, base);
        let text = format!("class m($h = {{}}) {{\n  $x = 1\n  {code}\n}}\n");
        for host in &mut hosts {
            let start = Instant::now();
            host.set_file(&path, text.clone());
            let _ = host.diagnostics(&path);
            let took = start.elapsed();
            assert!(took < Duration::from_secs(10), "took {took:?} on {text:?}");
        }
    }
}
