//! The iteration functions: `each`, `map`, `filter`, `reduce`, `any`, `all`, `index`, `slice`, `step`, `reverse_each`, `tree_each`, `partition`, `group_by`.

use super::*;

pub(super) const FUNCTIONS: &[Builtin] = &[
    Builtin::new("each", each),
    Builtin::new("map", map),
    Builtin::new("filter", filter),
    Builtin::new("reduce", reduce),
    Builtin::new("any", any_or_all),
    Builtin::new("all", any_or_all),
    Builtin::new("index", index),
    Builtin::new("slice", slice),
    Builtin::new("step", step_or_reverse_each),
    Builtin::new("reverse_each", step_or_reverse_each),
    Builtin::new("tree_each", tree_each),
    Builtin::new("partition", partition_or_group_by),
    Builtin::new("group_by", partition_or_group_by),
];

/// `each`.
fn each(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let l = ev.need_lambda(call.name, call.lambda, call.at)?;
    let recv = call.arg(0);
    let items = ev.items(call.name, &recv, call.at)?;
    for i in 0..items.len() {
        match ev.call_each(l, call.argc, &items, i, call.at) {
            Ok(_) => {}
            Err(Flow::Break) => break,
            Err(e) => return Err(e),
        }
    }
    Ok(recv)
}

/// `map`.
fn map(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let l = ev.need_lambda(call.name, call.lambda, call.at)?;
    let items = ev.items(call.name, &call.arg(0), call.at)?;
    let mut out = Vec::new();
    for i in 0..items.len() {
        match ev.call_each(l, call.argc, &items, i, call.at) {
            Ok(v) => out.push(v),
            Err(Flow::Break) => break,
            Err(e) => return Err(e),
        }
    }
    Ok(Value::Array(out))
}

/// `filter`.
fn filter(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let l = ev.need_lambda(call.name, call.lambda, call.at)?;
    let recv = call.arg(0);
    let items = ev.items(call.name, &recv, call.at)?;
    let mut keep = Vec::new();
    for i in 0..items.len() {
        match ev.call_each(l, call.argc, &items, i, call.at) {
            Ok(v) => keep.push(ev.truth(&v)?),
            Err(Flow::Break) => break,
            Err(e) => return Err(e),
        }
    }
    Ok(match items {
        Items::Pairs(p) => Value::Hash(
            p.into_iter()
                .zip(keep)
                .filter(|(_, k)| *k)
                .map(|(kv, _)| kv)
                .collect(),
        ),
        Items::List(v) => Value::Array(
            v.into_iter()
                .zip(keep)
                .filter(|(_, k)| *k)
                .map(|(x, _)| x)
                .collect(),
        ),
    })
}

/// `reduce`.
fn reduce(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let n = call.args.len();
    let l = ev.need_lambda(call.name, call.lambda, call.at)?;
    let items = ev.items(call.name, &call.arg(0), call.at)?.values();
    let mut it = items.into_iter();
    let mut memo = if n >= 2 {
        call.arg(1)
    } else {
        match it.next() {
            Some(v) => v,
            None => return Ok(Value::Undef),
        }
    };
    for x in it {
        match ev.call_lambda(l, vec![memo.clone(), x], call.at) {
            Ok(v) => memo = v,
            Err(Flow::Break) => break,
            Err(e) => return Err(e),
        }
    }
    Ok(memo)
}

/// `any`, `all`.
fn any_or_all(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let l = ev.need_lambda(call.name, call.lambda, call.at)?;
    let items = ev.items(call.name, &call.arg(0), call.at)?;
    let want_any = call.name == "any";
    for i in 0..items.len() {
        match ev.call_each(l, call.argc, &items, i, call.at) {
            Ok(v) => {
                if ev.truth(&v)? == want_any {
                    return Ok(Value::Boolean(want_any));
                }
            }
            Err(Flow::Break) => break,
            Err(e) => return Err(e),
        }
    }
    Ok(Value::Boolean(!want_any))
}

/// `index`.
fn index(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let n = call.args.len();
    let recv = call.arg(0);
    let items = ev.items(call.name, &recv, call.at)?;
    if let Some(l) = call.lambda {
        if n > 1 {
            return Err(ev.arity_error(call.name, call.at));
        }
        // a one-parameter block gets a hash entry's value alone
        let values;
        let passed = match &items {
            Items::Pairs(p) if call.argc == 1 => {
                values = Items::List(p.iter().map(|(_, v)| v.clone()).collect());
                &values
            }
            _ => &items,
        };
        for i in 0..items.len() {
            match ev.call_each(l, call.argc, passed, i, call.at) {
                Ok(v) if ev.truth(&v)? => {
                    return Ok(match &items {
                        Items::List(_) => Value::Integer(i as i64),
                        Items::Pairs(p) => p[i].0.clone(),
                    })
                }
                Ok(_) => {}
                Err(Flow::Break) => break,
                Err(e) => return Err(e),
            }
        }
        return Ok(Value::Undef);
    }
    if n != 2 {
        return Err(ev.arity_error(call.name, call.at));
    }
    let needle = call.arg(1);
    let found = match (&recv, &needle) {
        (Value::String(h), Value::String(s)) => Some(Ok(h.find(s.as_str()))),
        (Value::String(h), Value::Regexp(re)) => {
            Some(find_at(re, h, 0).map(|m| m.map(|(start, _, _)| start)))
        }
        _ => None,
    };
    if let (Value::String(h), Some(found)) = (&recv, found) {
        return match found {
            Ok(Some(b)) => Ok(Value::Integer(h[..b].chars().count() as i64)),
            Ok(None) => Ok(Value::Undef),
            Err(RegexError::Unsupported(m)) => Err(Flow::Unsupported(m)),
            Err(RegexError::Invalid(m)) => Err(ev.error(call.at, m)),
        };
    }
    match items {
        Items::List(v) => Ok(v
            .iter()
            .position(|x| index_eq(x, &needle))
            .map_or(Value::Undef, |i| Value::Integer(i as i64))),
        Items::Pairs(p) => Ok(p
            .into_iter()
            .find(|(_, v)| index_eq(v, &needle))
            .map_or(Value::Undef, |(k, _)| k)),
    }
}

/// `slice`.
fn slice(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let size = match call.arg(1) {
        Value::Integer(s) if s > 0 => s as usize,
        _ => return Err(ev.error(call.at, "slice size must be a positive Integer")),
    };
    let items = ev.items(call.name, &call.arg(0), call.at)?.values();
    let chunks: Vec<Value> = items
        .chunks(size)
        .map(|c| Value::Array(c.to_vec()))
        .collect();
    match call.lambda {
        None => Ok(Value::Array(chunks)),
        Some(l) => {
            // Ruby's `Proc#arity` decides how many values a call gets
            let arity = LambdaArity::of(&ev.body, l).ruby_arity();
            let serving = usize::try_from(arity).unwrap_or(size);
            if serving != 1 && serving != size {
                return Err(ev.error(
                    call.at,
                    format!(
                        "slice(): block must define one parameter, or the same number of parameters as the given size of the slice ({size}). Block has {serving}"
                    ),
                ));
            }
            // each call gets `serving` values, filled up
            ev.check_size(serving as u128)?;
            let filler = match call.arg(0) {
                Value::Hash(_) => Value::Array(Vec::new()),
                _ => Value::Undef,
            };
            for c in chunks {
                let a = if serving == 1 {
                    vec![c]
                } else {
                    let Value::Array(mut parts) = c else { continue };
                    parts.resize(serving, filler.clone());
                    parts
                };
                match ev.call_lambda(l, a, call.at) {
                    Ok(_) => {}
                    Err(Flow::Break) => break,
                    Err(e) => return Err(e),
                }
            }
            Ok(call.arg(0))
        }
    }
}

/// `step`, `reverse_each`.
fn step_or_reverse_each(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let recv = call.arg(0);
    let items = ev.items(call.name, &recv, call.at)?.values();
    let mut step = None;
    let elems: Vec<Value> = if call.name == "step" {
        let s = match call.arg(1) {
            Value::Integer(s) if s > 0 => s as usize,
            _ => return Err(ev.error(call.at, "step expects a positive Integer")),
        };
        step = Some(s as i64);
        items.into_iter().step_by(s).collect()
    } else {
        items.into_iter().rev().collect()
    };
    match call.lambda {
        None => {
            let element_type =
                iterable_element_type(&recv, step).unwrap_or_else(|| iterator_element_type(&elems));
            Ok(Value::Iterator(Box::new(IteratorValue {
                elements: elems,
                element_type,
            })))
        }
        // with a block, both return undef
        Some(l) => {
            let items = Items::List(elems);
            for i in 0..items.len() {
                match ev.call_each(l, call.argc, &items, i, call.at) {
                    Ok(_) => {}
                    Err(Flow::Break) => break,
                    Err(e) => return Err(e),
                }
            }
            Ok(Value::Undef)
        }
    }
}

/// `tree_each`.
fn tree_each(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let recv = call.arg(0);
    match recv {
        Value::Array(_) | Value::Hash(_) => {}
        Value::Iterator(_) | Value::Object(_) | Value::Type(_) => {
            return Err(Flow::Unsupported(format!(
                "tree_each over {}",
                recv.a_label()
            )))
        }
        _ => {
            return Err(ev.error(
                call.at,
                format!(
                    "'tree_each' parameter 'tree' expects a value of type Iterator, Array, Hash, or Object, got {}",
                    infer_generalized(&recv)
                ),
            ))
        }
    }
    let opts = match call.args.get(1) {
        None => None,
        Some(Value::Hash(h)) => Some(h),
        Some(other) => {
            return Err(ev.error(
                call.at,
                format!(
                    "'tree_each' parameter 'options' expects a Hash value, got {}",
                    infer_generalized(other)
                ),
            ))
        }
    };
    let opts = match TreeOptions::from_hash(opts) {
        Ok(Some(o)) => o,
        Ok(None) => return Err(Flow::Unsupported("tree_each container_type".into())),
        Err(m) => return Err(ev.error(call.at, m)),
    };
    let entries = tree_entries(&recv, &opts);
    let Some(l) = call.lambda else {
        let elems: Vec<Value> = entries
            .into_iter()
            .map(|(p, v)| Value::Array(vec![Value::Array(p), v]))
            .collect();
        let element_type = iterator_element_type(&elems);
        return Ok(Value::Iterator(Box::new(IteratorValue {
            elements: elems,
            element_type,
        })));
    };
    for (path, v) in entries {
        let a = if call.argc == 2 {
            vec![Value::Array(path), v]
        } else {
            vec![v]
        };
        match ev.call_lambda(l, a, call.at) {
            Ok(_) => {}
            Err(Flow::Break) => break,
            Err(e) => return Err(e),
        }
    }
    Ok(recv)
}

/// `partition`, `group_by`.
fn partition_or_group_by(ev: &mut Evaluator, call: Call) -> Result<Value, Flow> {
    let l = ev.need_lambda(call.name, call.lambda, call.at)?;
    let recv = call.arg(0);
    if !matches!(recv, Value::Array(_) | Value::Hash(_)) {
        return Err(ev.error(
            call.at,
            format!(
                "'{}' parameter 'collection' expects a Collection value, got {}",
                call.name,
                infer_generalized(&recv)
            ),
        ));
    }
    let items = ev.items(call.name, &recv, call.at)?;
    let mut keys = Vec::with_capacity(items.len());
    for i in 0..items.len() {
        match ev.call_each(l, call.argc, &items, i, call.at) {
            Ok(v) => keys.push(v),
            Err(Flow::Break) => break,
            Err(e) => return Err(e),
        }
    }
    if keys.iter().any(Value::is_unknown) {
        return Err(Flow::Unsupported("the block's answer is unknown".into()));
    }
    let elems = items.values().into_iter().zip(keys);
    Ok(if call.name == "partition" {
        let (yes, no): (Vec<_>, Vec<_>) = elems.partition(|(_, k)| k.is_truthy());
        let firsts = |v: Vec<(Value, Value)>| Value::Array(v.into_iter().map(|p| p.0).collect());
        Value::Array(vec![firsts(yes), firsts(no)])
    } else {
        Value::Hash(
            group_by_key(elems)
                .into_iter()
                .map(|(k, v)| (k, Value::Array(v)))
                .collect(),
        )
    })
}
