//! The value of an expression that is a literal in Puppet's sense
//! (`Puppet::Pops::Evaluator::LiteralEvaluator`), which validation compares
//! to find hash keys declared twice. Its rules are Puppet's, odd ones
//! included: an access expression is the list of its keys whatever it
//! applies to (`Optional['a']` and `Enum['a']` are both `["a"]`), a type
//! name is lower-cased, a bare word and a quoted string are the same
//! string, and `1` and `1.0` differ.

use super::{Expr, LiteralValue, Number, UnaryOp};
use std::fmt;

/// A literal value, comparable as Puppet compares literal keys.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum StaticLiteral {
    String(String),
    Integer(i64),
    /// A float's bits: Ruby's `eql?` tells `1.0` from `1`.
    Float(u64),
    Boolean(bool),
    Undef,
    Default,
    Regex(String),
    List(Vec<StaticLiteral>),
    Hash(Vec<(StaticLiteral, StaticLiteral)>),
}

impl StaticLiteral {
    /// The literal value of `expr`, or `None` when it is not a literal.
    pub fn of(expr: &Expr) -> Option<StaticLiteral> {
        Self::of_depth(expr, 0)
    }

    fn of_depth(expr: &Expr, depth: usize) -> Option<StaticLiteral> {
        // Literals nest as deep as the tree; stop long before the stack.
        if depth > 64 {
            return None;
        }
        let of = |e: &Expr| Self::of_depth(e, depth + 1);
        Some(match expr {
            Expr::SqStringExpr(s) => StaticLiteral::String(s.value()),
            Expr::DqStringExpr(s) => StaticLiteral::String(s.static_value()?),
            Expr::QualifiedName(n) => StaticLiteral::String(n.name()),
            Expr::BareWord(w) => StaticLiteral::String(w.text()),
            Expr::TypeReference(t) => StaticLiteral::String(t.name().to_lowercase()),
            Expr::RegexExpr(r) => StaticLiteral::Regex(r.pattern()),
            Expr::Literal(l) => match l.value()? {
                LiteralValue::Number(Ok(n)) => number(n),
                LiteralValue::Boolean(b) => StaticLiteral::Boolean(b),
                LiteralValue::Undef => StaticLiteral::Undef,
                LiteralValue::Default => StaticLiteral::Default,
                LiteralValue::Keyword(k) => StaticLiteral::String(k),
                LiteralValue::Number(Err(_)) => return None,
            },
            Expr::UnaryExpr(u) if u.op() == Some(UnaryOp::Neg) => match of(&u.operand()?)? {
                StaticLiteral::Integer(i) => StaticLiteral::Integer(i.checked_neg()?),
                StaticLiteral::Float(bits) => {
                    StaticLiteral::Float((-f64::from_bits(bits)).to_bits())
                }
                _ => return None,
            },
            Expr::ArrayExpr(a) => {
                StaticLiteral::List(a.elements().map(|e| of(&e)).collect::<Option<_>>()?)
            }
            Expr::HashExpr(h) => StaticLiteral::Hash(
                h.entries()
                    .map(|e| Some((of(&e.key()?)?, of(&e.value()?)?)))
                    .collect::<Option<_>>()?,
            ),
            Expr::AccessExpr(a) => {
                let keys = a.args();
                // `Optional[[String]]` is not a literal.
                if let [Expr::ArrayExpr(_)] = keys.as_slice() {
                    return None;
                }
                StaticLiteral::List(keys.iter().map(of).collect::<Option<_>>()?)
            }
            _ => return None,
        })
    }

    fn fmt_nested(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StaticLiteral::String(s) => write!(f, "{s:?}"),
            other => write!(f, "{other}"),
        }
    }
}

fn number(n: Number) -> StaticLiteral {
    match n {
        Number::Integer(i) => StaticLiteral::Integer(i),
        Number::Float(x) => StaticLiteral::Float(x.to_bits()),
    }
}

/// As Puppet prints a key in its messages (Ruby's `to_s`: nested strings
/// quoted, `["a", "b"]`).
impl fmt::Display for StaticLiteral {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StaticLiteral::String(s) => f.write_str(s),
            StaticLiteral::Integer(i) => write!(f, "{i}"),
            StaticLiteral::Float(bits) => write!(f, "{:?}", f64::from_bits(*bits)),
            StaticLiteral::Boolean(b) => write!(f, "{b}"),
            StaticLiteral::Undef => Ok(()),
            StaticLiteral::Default => f.write_str("default"),
            StaticLiteral::Regex(r) => write!(f, "/{r}/"),
            StaticLiteral::List(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    item.fmt_nested(f)?;
                }
                f.write_str("]")
            }
            StaticLiteral::Hash(entries) => {
                f.write_str("{")?;
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    k.fmt_nested(f)?;
                    f.write_str("=>")?;
                    v.fmt_nested(f)?;
                }
                f.write_str("}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::StaticLiteral;
    use crate::ast::{AstNode, HashExpr};
    use crate::SourceKind;

    /// The literal of each key of the first hash in `source`.
    fn keys(source: &str) -> Vec<Option<StaticLiteral>> {
        let parse = crate::parse(source, SourceKind::Manifest);
        let hash = parse
            .syntax_node()
            .descendants()
            .find_map(HashExpr::cast)
            .expect("a hash");
        hash.entries()
            .map(|e| StaticLiteral::of(&e.key()?))
            .collect()
    }

    /// Puppet 8.10's `puppet parser validate` reports the keys displayed
    /// alike here as declared twice (`Optional['a']` and `Enum['a']`,
    /// `String` and `string`, `'x'` and `x`), and not `1` and `1.0`.
    #[test]
    fn literal_keys_compare_as_puppet_compares_them() {
        let literals = keys(
            r#"$h = { Optional['a'] => 1, Enum['a'] => 2, String => 3, string => 4, 'x' => 5, x => 6,
                      1 => 7, 1.0 => 8, 0x10 => 9, -1 => 10, [1, 'a'] => 11, "d${x}" => 12, $v => 13 }"#,
        );
        let shown: Vec<Option<String>> = literals
            .iter()
            .map(|l| l.as_ref().map(ToString::to_string))
            .collect();
        let expected = [
            Some(r#"["a"]"#),
            Some(r#"["a"]"#),
            Some("string"),
            Some("string"),
            Some("x"),
            Some("x"),
            Some("1"),
            Some("1.0"),
            Some("16"),
            Some("-1"),
            Some(r#"[1, "a"]"#),
            None,
            None,
        ];
        let expected: Vec<Option<String>> = expected.iter().map(|e| e.map(String::from)).collect();
        assert_eq!(shown, expected);
        assert_eq!(literals[0], literals[1]);
        assert_eq!(literals[2], literals[3]);
        assert_ne!(literals[6], literals[7]);
    }
}
