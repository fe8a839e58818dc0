//! Logging and control flow: the logging functions (no-ops), `fail`, `next`, `return`, `break`, `with`, `then`, `lest`.

use super::*;

pub(super) const FUNCTIONS: &[Builtin] = &[
    Builtin::new("notice", log).taking_unknown(),
    Builtin::new("info", log).taking_unknown(),
    Builtin::new("warning", log).taking_unknown(),
    Builtin::new("debug", log).taking_unknown(),
    Builtin::new("err", log).taking_unknown(),
    Builtin::new("alert", log).taking_unknown(),
    Builtin::new("crit", log).taking_unknown(),
    Builtin::new("emerg", log).taking_unknown(),
    Builtin::new("fail", fail).taking_unknown(),
    Builtin::new("next", next_iteration).taking_unknown(),
    Builtin::new("return", return_value).taking_unknown(),
    Builtin::new("break", break_iteration).taking_unknown(),
    Builtin::new("with", with).taking_unknown(),
    Builtin::new("then", then).taking_unknown(),
    Builtin::new("lest", lest).taking_unknown(),
];

/// `notice`, `info`, `warning`, `debug`, `err`, `alert`, `crit`, `emerg`.
fn log(_ev: &mut Evaluator, _call: Call) -> Result<Value, Flow> {
    Ok(Value::Undef)
}

/// `fail`.
fn fail(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let msg: Vec<String> = call.args.iter().map(to_interpolated).collect();
    Err(ev.error(call.at, msg.join(" ")))
}

/// `next`.
fn next_iteration(_ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    Err(Flow::Next(call.arg(0)))
}

/// `return`.
fn return_value(_ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    Err(Flow::Return(call.arg(0)))
}

/// `break`.
fn break_iteration(_ev: &mut Evaluator, _call: Call) -> Result<Value, Flow> {
    Err(Flow::Break)
}

/// `with`.
fn with(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let l = ev.need_lambda(call.name, call.lambda, call.at)?;
    ev.call_lambda(l, call.args, call.at)
}

/// `then`.
fn then(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let l = ev.need_lambda(call.name, call.lambda, call.at)?;
    match call.arg(0) {
        Value::Undef => Ok(Value::Undef),
        Value::Unknown(_) => Ok(Value::Unknown(Type::Any)),
        v => ev.call_lambda(l, vec![v], call.at),
    }
}

/// `lest`.
fn lest(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let l = ev.need_lambda(call.name, call.lambda, call.at)?;
    match call.arg(0) {
        Value::Undef => ev.call_lambda(l, vec![], call.at),
        Value::Unknown(_) => Ok(Value::Unknown(Type::Any)),
        v => Ok(v),
    }
}
