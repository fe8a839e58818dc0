//! The constant evaluator on arbitrary source: it must never panic and must
//! stop within its limits (libFuzzer's timeout catches a hang).

#![no_main]

use libfuzzer_sys::fuzz_target;
use puppet_analysis::eval::{Evaluator, Limits};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let limits = Limits {
        max_steps: 20_000,
        ..Limits::default()
    };
    let _ = Evaluator::new(limits).eval_source(&text);
});
