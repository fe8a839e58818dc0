//! Built-in functions (Puppet's own and puppetlabs-stdlib's) with their
//! dispatch signatures.
//!
//! A function has one signature per Ruby `dispatch`; Puppet picks the first
//! whose `Callable` type accepts the arguments. Legacy 3.x functions get the
//! single `Any`-typed signature Puppet's loader gives them (only the arity is
//! known). Statement-style functions are the names Puppet's parser accepts
//! without parentheses (`include foo`).

use std::sync::OnceLock;

use super::json::{Json, JsonExt};
use crate::model::Type;

/// How many times a signature parameter may be given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamKind {
    /// Exactly once.
    Required,
    /// Zero or one time.
    Optional,
    /// The last parameter, repeated; see [`Signature::min_args`] for whether
    /// it must appear at least once.
    Repeated,
}

/// One parameter of a signature.
#[derive(Debug)]
pub struct Param {
    /// The parameter name in the Ruby dispatch (`p0`... for 3.x functions).
    pub name: String,
    /// The parameter type as Puppet prints it.
    pub type_text: String,
    /// Required, optional or repeated.
    pub kind: ParamKind,
    /// The type `type_text` denotes, read once by [`Param::ty`].
    pub(crate) ty: OnceLock<Type>,
}

/// The block (lambda) a signature takes.
#[derive(Debug)]
pub struct BlockParam {
    /// The block parameter name.
    pub name: String,
    /// The block's `Callable` type as Puppet prints it.
    pub type_text: String,
    /// True when the block may be omitted.
    pub optional: bool,
}

/// One dispatch of a function.
#[derive(Debug)]
pub struct Signature {
    /// The positional parameters.
    pub params: Vec<Param>,
    /// The minimum number of arguments.
    pub min_args: usize,
    /// The maximum number of arguments (`None` = unbounded).
    pub max_args: Option<usize>,
    /// The block parameter, if the dispatch takes one.
    pub block: Option<BlockParam>,
    /// The declared return type, if any (Puppet's default is `Any`).
    pub return_type_text: Option<String>,
    /// The whole signature as Puppet prints it (`Callable[String, 1, 2]`).
    pub callable_text: String,
    /// The signature as a type, built once by [`Signature::callable`].
    pub(crate) callable: OnceLock<Type>,
}

impl Signature {
    fn from_json(j: &Json) -> Option<Signature> {
        let params = j
            .get("params")?
            .items()
            .iter()
            .filter_map(|p| {
                Some(Param {
                    name: p.str_field("name")?.to_string(),
                    type_text: p.str_field("type")?.to_string(),
                    kind: match p.str_field("kind")? {
                        "required" => ParamKind::Required,
                        "optional" => ParamKind::Optional,
                        "repeated" => ParamKind::Repeated,
                        _ => return None,
                    },
                    ty: OnceLock::new(),
                })
            })
            .collect::<Vec<_>>();
        let block = j.get("block").and_then(|b| {
            Some(BlockParam {
                name: b.str_field("name")?.to_string(),
                type_text: b.str_field("type")?.to_string(),
                optional: b.flag("optional"),
            })
        });
        Some(Signature {
            min_args: j
                .get("min_args")
                .and_then(Json::as_u64)
                .map_or(params.len(), |n| n as usize),
            max_args: j.get("max_args").and_then(Json::as_u64).map(|n| n as usize),
            params,
            block,
            return_type_text: j.str_field("return_type").map(str::to_string),
            callable_text: j.str_field("callable")?.to_string(),
            callable: OnceLock::new(),
        })
    }

    /// True when `n` positional arguments fit the signature's arity.
    pub fn accepts_arg_count(&self, n: usize) -> bool {
        n >= self.min_args && !matches!(self.max_args, Some(m) if n > m)
    }
}

/// Which Ruby function API defines a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FunctionApi {
    /// The typed 4.x API (`Puppet::Functions.create_function`).
    Modern,
    /// The legacy 3.x API (`newfunction`), untyped arguments.
    Legacy,
}

/// A built-in function.
#[derive(Debug)]
pub struct Function {
    /// The function name (`stdlib::end_with` for namespaced ones).
    pub name: String,
    /// 4.x or 3.x API.
    pub api: FunctionApi,
    /// True for statement-style functions callable without parentheses.
    pub statement: bool,
    /// For 3.x functions: declared as not returning a value (`:statement`).
    pub legacy_statement: bool,
    /// True when the function comes from puppetlabs-stdlib (only available
    /// when stdlib is on the module path).
    pub stdlib: bool,
    /// The dispatches, in Puppet's order.
    pub signatures: Vec<Signature>,
    /// Our one-line description.
    pub description: Option<String>,
}

impl Function {
    pub fn from_json(j: &Json, stdlib: bool) -> Option<Function> {
        Some(Function {
            name: j.str_field("name")?.to_string(),
            api: if j.str_field("api") == Some("3x") {
                FunctionApi::Legacy
            } else {
                FunctionApi::Modern
            },
            statement: j.flag("statement"),
            legacy_statement: j.str_field("legacy_type") == Some("statement"),
            stdlib,
            signatures: j
                .get("signatures")?
                .items()
                .iter()
                .filter_map(Signature::from_json)
                .collect(),
            description: j.str_field("desc").map(str::to_string),
        })
    }

    /// True when some signature accepts `n` positional arguments.
    pub fn accepts_arg_count(&self, n: usize) -> bool {
        self.signatures.iter().any(|s| s.accepts_arg_count(n))
    }
}

/// Return types of Puppet functions whose Ruby dispatches declare none,
/// as their implementations return them (checked against Puppet 7.23's
/// sources); used when a call's value cannot be computed.
const UNDECLARED_RETURN_TYPES: &[(&str, &str)] = &[
    ("versioncmp", "Integer[-1, 1]"),
    ("join", "String"),
    ("split", "Array[String]"),
    ("sprintf", "String"),
    ("template", "String"),
    ("inline_template", "String"),
    ("inline_epp", "String"),
    ("length", "Integer[0]"),
    ("size", "Integer[0]"),
    ("keys", "Array"),
    ("values", "Array"),
    ("upcase", "Variant[String, Array, Hash]"),
    ("downcase", "Variant[String, Array, Hash]"),
    ("capitalize", "Variant[String, Array, Hash]"),
    ("strip", "Variant[String, Array, Hash]"),
    ("chomp", "Variant[String, Array, Hash]"),
    ("regsubst", "Variant[String, Array[String]]"),
    ("sha1", "String"),
    ("md5", "String"),
    ("sha256", "String"),
    ("fqdn_rand", "Integer[0]"),
    ("generate", "String"),
    ("file", "String"),
    ("defined", "Boolean"),
    ("tagged", "Boolean"),
    ("empty", "Boolean"),
    ("is_a", "Boolean"),
    ("abs", "Numeric"),
    ("ceiling", "Integer"),
    ("floor", "Integer"),
    ("round", "Integer"),
    ("digest", "String"),
    ("shellquote", "String"),
    ("strftime", "String"),
    ("type", "Type"),
];

/// The return type of `name`, as Puppet prints it, when its signatures
/// declare none.
pub fn undeclared_return_type_text(name: &str) -> Option<&'static str> {
    UNDECLARED_RETURN_TYPES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)
}
