//! Types and conversion: `type`, `assert_type`, `new`, `convert_to`, `unwrap`.

use super::*;

pub(super) const FUNCTIONS: &[Builtin] = &[
    Builtin::new("type", type_of).taking_unknown(),
    Builtin::new("assert_type", assert_type),
    Builtin::new("new", new_value),
    Builtin::new("convert_to", convert_to),
    Builtin::new("unwrap", unwrap),
];

/// `type`.
fn type_of(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let n = call.args.len();
    if n == 0 || n > 2 {
        return Err(ev.arity_error(call.name, call.at));
    }
    let v = call.arg(0);
    if let Value::Unknown(t) = &v {
        return Ok(Value::Unknown(Type::type_of(t.clone())));
    }
    let t = match call.args.get(1) {
        None => infer_set(&v),
        Some(Value::String(m)) if m == "detailed" => infer_set(&v),
        Some(Value::String(m)) if m == "reduced" => infer(&v),
        Some(Value::String(m)) if m == "generalized" => infer_generalized(&v),
        Some(_) => {
            return Err(ev.error(
                call.at,
                "type() expects 'detailed', 'reduced' or 'generalized'",
            ))
        }
    };
    Ok(Value::Type(t))
}

/// `assert_type`.
fn assert_type(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let t = match call.arg(0) {
        Value::Type(t) => t,
        _ => return Err(ev.error(call.at, "assert_type expects a Type")),
    };
    let v = call.arg(1);
    let ts = ev.ts();
    let ok = ts.instance(&t, &v);
    drop(ts);
    if ok {
        return Ok(v);
    }
    match call.lambda {
        Some(l) => ev.call_lambda(l, vec![Value::Type(t), Value::Type(infer_set(&v))], call.at),
        None => Err(ev.error(
            call.at,
            format!(
                "assert_type(): expects a {} value, got {}",
                t,
                infer_generalized(&v)
            ),
        )),
    }
}

/// `new`.
fn new_value(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    match call.arg(0) {
        Value::Type(t) => ev.new_instance(&t, call.args[1..].to_vec(), call.lambda, call.at),
        other => Err(ev.error(
            call.at,
            format!("'new' expects a Type, got {}", other.a_label()),
        )),
    }
}

/// `convert_to`.
fn convert_to(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    match call.arg(1) {
        Value::Type(t) => {
            let mut a = vec![call.arg(0)];
            a.extend(call.args.iter().skip(2).cloned());
            let v = ev.new_instance(&t, a, None, call.at)?;
            match call.lambda {
                Some(l) => ev.call_lambda(l, vec![v], call.at),
                None => Ok(v),
            }
        }
        _ => Err(ev.error(call.at, "convert_to expects a Type")),
    }
}

/// `unwrap`.
fn unwrap(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let v = match call.arg(0) {
        Value::Sensitive(v) => *v,
        other => other,
    };
    match call.lambda {
        Some(l) => ev.call_lambda(l, vec![v], call.at),
        None => Ok(v),
    }
}
