//! Lowered expressions printed back as Puppet source, in one canonical
//! form: what a condition is (two conditions are the same condition when
//! they print the same), and what hover shows of a default value.

use super::body::{Body, Expr, ExprId, Literal, StringPart};
use puppet_syntax::ast::{BinaryOp, UnaryOp};
use std::fmt::Write;

/// Expressions nested deeper than this print as `...`.
const MAX_DEPTH: usize = 32;

/// The canonical source text of an expression.
pub fn render(body: &Body, id: ExprId) -> String {
    let mut out = String::new();
    write_expr(body, id, 0, &mut out);
    out
}

fn write_list(body: &Body, ids: &[ExprId], depth: usize, out: &mut String) {
    for (i, &id) in ids.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_expr(body, id, depth + 1, out);
    }
}

fn write_expr(body: &Body, id: ExprId, depth: usize, out: &mut String) {
    if depth > MAX_DEPTH {
        out.push_str("...");
        return;
    }
    match &body[id] {
        Expr::Missing | Expr::Error(_) => out.push('?'),
        Expr::Literal(l) => match l {
            Literal::Integer(i) => {
                let _ = write!(out, "{i}");
            }
            Literal::Float(f) => {
                let _ = write!(out, "{:?}", f.0);
            }
            Literal::Boolean(b) => {
                let _ = write!(out, "{b}");
            }
            Literal::Undef => out.push_str("undef"),
            Literal::Default => out.push_str("default"),
            Literal::String(s) => quote(s, out),
        },
        Expr::Name(n) | Expr::TypeRef(n) => out.push_str(n),
        Expr::Variable(n) => {
            out.push('$');
            out.push_str(n);
        }
        Expr::String(parts) => match body.static_string(id) {
            Some(s) => quote(s, out),
            None => {
                out.push('"');
                for part in parts {
                    match part {
                        StringPart::Text(t) => out.push_str(&t.replace('"', "\\\"")),
                        StringPart::Expr(e) => {
                            out.push_str("${");
                            write_expr(body, *e, depth + 1, out);
                            out.push('}');
                        }
                    }
                }
                out.push('"');
            }
        },
        Expr::Regex(r) => {
            let _ = write!(out, "/{}/", r.replace('/', "\\/"));
        }
        Expr::Array(items) => {
            out.push('[');
            write_list(body, items, depth, out);
            out.push(']');
        }
        Expr::Hash { entries, .. } => {
            out.push('{');
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_expr(body, *k, depth + 1, out);
                out.push_str(" => ");
                write_expr(body, *v, depth + 1, out);
            }
            out.push('}');
        }
        Expr::Unary { op, operand } => {
            out.push_str(match op {
                UnaryOp::Not => "!",
                UnaryOp::Neg => "-",
                UnaryOp::Splat => "*",
            });
            write_expr(body, *operand, depth + 1, out);
        }
        Expr::Binary { op, lhs, rhs } => {
            write_expr(body, *lhs, depth + 1, out);
            let _ = write!(out, " {} ", binary_op(*op));
            write_expr(body, *rhs, depth + 1, out);
        }
        Expr::Assign { target, value, .. } => {
            write_expr(body, *target, depth + 1, out);
            out.push_str(" = ");
            write_expr(body, *value, depth + 1, out);
        }
        Expr::Access { target, keys } => {
            write_expr(body, *target, depth + 1, out);
            out.push('[');
            write_list(body, keys, depth, out);
            out.push(']');
        }
        Expr::Call { function, args, .. } => {
            out.push_str(function);
            out.push('(');
            write_list(body, args, depth, out);
            out.push(')');
        }
        Expr::CallValue { callee, args, .. } => {
            write_expr(body, *callee, depth + 1, out);
            out.push('(');
            write_list(body, args, depth, out);
            out.push(')');
        }
        Expr::MethodCall {
            receiver,
            function,
            args,
            ..
        } => {
            write_expr(body, *receiver, depth + 1, out);
            let _ = write!(out, ".{function}(");
            write_list(body, args, depth, out);
            out.push(')');
        }
        Expr::Selector { subject, entries } => {
            write_expr(body, *subject, depth + 1, out);
            out.push_str(" ? {");
            for (i, (m, v)) in entries.iter().enumerate() {
                out.push_str(if i > 0 { ", " } else { " " });
                write_expr(body, *m, depth + 1, out);
                out.push_str(" => ");
                write_expr(body, *v, depth + 1, out);
            }
            out.push_str(" }");
        }
        Expr::Hostname(h) => out.push_str(h),
        Expr::RenderString(t) => quote(t, out),
        Expr::If { .. }
        | Expr::Unless { .. }
        | Expr::Case { .. }
        | Expr::Resource { .. }
        | Expr::ResourceDefaults { .. }
        | Expr::ResourceOverride { .. }
        | Expr::Collector { .. }
        | Expr::Relationship { .. }
        | Expr::Definition { .. }
        | Expr::RenderExpr(_)
        | Expr::RenderBlock(_)
        | Expr::Apply { .. } => out.push_str("..."),
    }
}

fn quote(s: &str, out: &mut String) {
    out.push('\'');
    out.push_str(&s.replace('\\', "\\\\").replace('\'', "\\'"));
    out.push('\'');
}

fn binary_op(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Or => "or",
        BinaryOp::And => "and",
        BinaryOp::Lt => "<",
        BinaryOp::LtEq => "<=",
        BinaryOp::Gt => ">",
        BinaryOp::GtEq => ">=",
        BinaryOp::Eq => "==",
        BinaryOp::NotEq => "!=",
        BinaryOp::Shl => "<<",
        BinaryOp::Shr => ">>",
        BinaryOp::Add => "+",
        BinaryOp::Sub => "-",
        BinaryOp::Mul => "*",
        BinaryOp::Div => "/",
        BinaryOp::Mod => "%",
        BinaryOp::Match => "=~",
        BinaryOp::NotMatch => "!~",
        BinaryOp::In => "in",
    }
}
