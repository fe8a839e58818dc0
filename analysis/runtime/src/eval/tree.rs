//! The walk of `tree_each`: every container (array or hash) and value of a
//! nested structure with its path, depth first or breadth first, as
//! Puppet's `DepthFirstTreeIterator` and `BreadthFirstTreeIterator` visit
//! them.

use crate::model::{OrderedHash, Value};

/// The options hash of `tree_each`.
pub struct TreeOptions {
    depth_first: bool,
    include_root: bool,
    include_containers: bool,
    include_values: bool,
}

impl TreeOptions {
    /// Reads the options; an error for what Puppet rejects, `Ok(None)` for a
    /// `container_type` (not modelled).
    pub fn from_hash(h: Option<&OrderedHash>) -> Result<Option<TreeOptions>, String> {
        let get = |key: &str| h.and_then(|h| h.get(&Value::string(key)));
        for (k, _) in h.iter().flat_map(|h| h.iter()) {
            let known = matches!(k, Value::String(s) if matches!(s.as_str(),
                "container_type" | "include_root" | "include_containers"
                | "include_values" | "order" | "include_refs"));
            if !known {
                return Err(format!(
                    "'tree_each' parameter 'options' has unexpected key {}",
                    crate::values::format::to_programmatic(k)
                ));
            }
        }
        if get("container_type").is_some_and(|v| !matches!(v, Value::Undef)) {
            return Ok(None);
        }
        let flag = |key: &str| match get(key) {
            None | Some(Value::Undef) => Ok(true),
            Some(Value::Boolean(b)) => Ok(*b),
            Some(_) => Err(format!(
                "'tree_each' parameter 'options' entry '{key}' expects a Boolean value"
            )),
        };
        let depth_first = match get("order") {
            None | Some(Value::Undef) => true,
            Some(Value::String(s)) if s == "depth_first" => true,
            Some(Value::String(s)) if s == "breadth_first" => false,
            Some(_) => {
                return Err("'tree_each' parameter 'options' entry 'order' expects a match for Enum['breadth_first', 'depth_first']".into())
            }
        };
        let include_containers = flag("include_containers")?;
        let include_values = flag("include_values")?;
        if !include_containers && !include_values {
            return Err(
                "Options 'include_containers' and 'include_values' cannot both be false".into(),
            );
        }
        Ok(Some(TreeOptions {
            depth_first,
            include_root: include_containers && flag("include_root")?,
            include_containers,
            include_values,
        }))
    }
}

/// The children of a container with their index or key; `None` for a leaf.
fn children(v: &Value) -> Option<Vec<(Value, Value)>> {
    match v {
        Value::Array(a) => Some(
            a.iter()
                .enumerate()
                .map(|(i, x)| (Value::Integer(i as i64), x.clone()))
                .collect(),
        ),
        Value::Hash(h) => Some(h.iter().map(|(k, x)| (k.clone(), x.clone())).collect()),
        _ => None,
    }
}

/// The `(path, value)` entries `tree_each` visits under `root` (a container).
pub fn tree_entries(root: &Value, opts: &TreeOptions) -> Vec<(Vec<Value>, Value)> {
    let mut out = Vec::new();
    if opts.include_root {
        out.push((Vec::new(), root.clone()));
    }
    if opts.depth_first {
        depth_first(root, &mut Vec::new(), opts, &mut out);
    } else {
        // Puppet's breadth-first walk reports leaves even without
        // `include_values`
        let mut queue = std::collections::VecDeque::from([(Vec::new(), root.clone())]);
        while let Some((path, v)) = queue.pop_front() {
            for (idx, child) in children(&v).unwrap_or_default() {
                let mut p = path.clone();
                p.push(idx);
                if children(&child).is_some() {
                    queue.push_back((p.clone(), child.clone()));
                    if !opts.include_containers {
                        continue;
                    }
                }
                out.push((p, child));
            }
        }
    }
    out
}

fn depth_first(
    v: &Value,
    path: &mut Vec<Value>,
    opts: &TreeOptions,
    out: &mut Vec<(Vec<Value>, Value)>,
) {
    for (idx, child) in children(v).unwrap_or_default() {
        path.push(idx);
        if children(&child).is_some() {
            if opts.include_containers {
                out.push((path.clone(), child.clone()));
            }
            depth_first(&child, path, opts, out);
        } else if opts.include_values {
            out.push((path.clone(), child));
        }
        path.pop();
    }
}
