//! `always-fails`: a `fail()` call that every evaluation of its definition
//! reaches, because each condition on the way to it is decided. The case
//! that matters is Puppet 8's: legacy facts are gone, so
//! `$facts['osfamily']` is undef and
//! `case $facts['osfamily'] { 'Debian': {...} default: { fail(...) } }`
//! fails on every node. A `fail()` written at the top of a body with no
//! decided condition before it is left alone: that is a deliberate stub
//! (`class foo::old { fail('use foo::new') }`), failing only if declared.
//!
//! Conditions are decided from inference: a constant value, or an
//! expression whose type is `Undef` compared with a literal. A legacy fact
//! read as a variable does not decide anything: on Puppet 8 that read
//! already fails (`legacy-fact`), before any `fail()`. An undef case
//! subject matches no string, number or regex option (nor, in Puppet 8.10,
//! an `undef` option, which is left undecided here): only `default`.

use super::{Diagnostic, ItemDiagnostic};
use crate::hir::body::{Block, Body, CaseOption, Expr, ExprId, Literal, StringPart};
use crate::hir::BodySourceMap;
use crate::infer::ItemTypes;
use crate::model::Type;
use puppet_syntax::ast::{BinaryOp, UnaryOp};
use puppet_syntax::Code;

pub(super) fn check(
    body: &Body,
    types: &ItemTypes,
    map: &BodySourceMap,
    out: &mut Vec<ItemDiagnostic>,
) {
    let walk = Walk { body, types, map };
    walk.block(&body.body, None, 0, out);
}

struct Walk<'a> {
    body: &'a Body,
    types: &'a ItemTypes,
    map: &'a BodySourceMap,
}

/// How deep decided conditionals are followed.
const MAX_DEPTH: usize = 64;

impl Walk<'_> {
    /// Walks the statements that run in order; `decided` is the first
    /// decided condition on the way here. Returns whether evaluation
    /// certainly stops in this block (a `fail()` reached).
    fn block(
        &self,
        block: &Block,
        decided: Option<ExprId>,
        depth: usize,
        out: &mut Vec<ItemDiagnostic>,
    ) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        for &statement in block {
            let stops = match &self.body[statement] {
                _ if self.body.is_fail_call(statement) => {
                    if let Some(condition) = decided {
                        self.report(statement, condition, out);
                    }
                    true
                }
                Expr::If {
                    condition,
                    then,
                    elsifs,
                    otherwise,
                } => {
                    let arms = std::iter::once((*condition, then))
                        .chain(elsifs.iter().map(|(c, b)| (*c, b)));
                    self.chain(arms, otherwise.as_ref(), false, decided, depth, out)
                }
                Expr::Unless {
                    condition,
                    then,
                    otherwise,
                } => self.chain(
                    std::iter::once((*condition, then)),
                    otherwise.as_ref(),
                    true,
                    decided,
                    depth,
                    out,
                ),
                Expr::Case { subject, options } => match self.case_arm(*subject, options) {
                    Some(arm) => self.block(arm, decided.or(Some(*subject)), depth + 1, out),
                    None => false,
                },
                _ => false,
            };
            if stops {
                return true;
            }
        }
        false
    }

    /// An `if`/`elsif`/`else` chain (`unless` with `negate`): follows the
    /// arm its decided conditions select, stopping at an undecided one.
    #[allow(clippy::too_many_arguments)]
    fn chain<'b>(
        &self,
        arms: impl Iterator<Item = (ExprId, &'b Block)>,
        otherwise: Option<&'b Block>,
        negate: bool,
        decided: Option<ExprId>,
        depth: usize,
        out: &mut Vec<ItemDiagnostic>,
    ) -> bool {
        let mut first_decided = decided;
        for (condition, block) in arms {
            let Some(holds) = self.truth(condition, 0) else {
                return false;
            };
            first_decided = first_decided.or(Some(condition));
            if holds != negate {
                return self.block(block, first_decided, depth + 1, out);
            }
        }
        match otherwise {
            Some(block) => self.block(block, first_decided, depth + 1, out),
            None => false,
        }
    }

    /// The arm of a `case` over an undef subject: `default`'s, when every
    /// other option is a literal that cannot match undef.
    fn case_arm<'b>(&self, subject: ExprId, options: &'b [CaseOption]) -> Option<&'b Block> {
        if !self.is_undef(subject) {
            return None;
        }
        let mut default = None;
        for option in options {
            for &value in &option.values {
                match &self.body[value] {
                    Expr::Literal(Literal::Default) => default = Some(&option.body),
                    _ if self.is_defined_literal(value) => {}
                    _ => return None,
                }
            }
        }
        default
    }

    /// Whether `condition` is decided: its constant value's truth, or an
    /// undef compared with a literal.
    fn truth(&self, condition: ExprId, depth: usize) -> Option<bool> {
        if depth > MAX_DEPTH {
            return None;
        }
        if let Some(value) = self.types.get(condition).and_then(|i| i.value.as_ref()) {
            return Some(value.is_truthy());
        }
        match &self.body[condition] {
            Expr::Unary {
                op: UnaryOp::Not,
                operand,
            } => self.truth(*operand, depth + 1).map(|t| !t),
            Expr::Binary {
                op: op @ (BinaryOp::Eq | BinaryOp::NotEq),
                lhs,
                rhs,
            } => {
                let equal = self
                    .undef_equals(*lhs, *rhs)
                    .or_else(|| self.undef_equals(*rhs, *lhs))?;
                Some(equal == (*op == BinaryOp::Eq))
            }
            Expr::Binary {
                op: BinaryOp::And,
                lhs,
                rhs,
            } => match (self.truth(*lhs, depth + 1), self.truth(*rhs, depth + 1)) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (Some(true), Some(true)) => Some(true),
                _ => None,
            },
            Expr::Binary {
                op: BinaryOp::Or,
                lhs,
                rhs,
            } => match (self.truth(*lhs, depth + 1), self.truth(*rhs, depth + 1)) {
                (Some(true), _) | (_, Some(true)) => Some(true),
                (Some(false), Some(false)) => Some(false),
                _ => None,
            },
            _ if self.is_undef(condition) => Some(false),
            _ => None,
        }
    }

    /// `undef == other`, when `undef_side` is undef and `other` a literal.
    fn undef_equals(&self, undef_side: ExprId, other: ExprId) -> Option<bool> {
        if !self.is_undef(undef_side) {
            return None;
        }
        if matches!(self.body[other], Expr::Literal(Literal::Undef)) {
            return Some(true);
        }
        self.is_defined_literal(other).then_some(false)
    }

    /// A string, number, boolean or regex literal: never equal to undef,
    /// never matching it as a case option.
    fn is_defined_literal(&self, id: ExprId) -> bool {
        match &self.body[id] {
            Expr::Literal(Literal::Undef | Literal::Default) => false,
            Expr::Literal(_) | Expr::Name(_) | Expr::Regex(_) => true,
            Expr::String(parts) => parts.iter().all(|p| matches!(p, StringPart::Text(_))),
            _ => false,
        }
    }

    /// Whether inference proves `id` undef (its type is `Undef`). A legacy
    /// fact read as a variable (`$::osfamily`) is not counted: on Puppet 8
    /// that read fails first, and is reported there (`legacy-fact`).
    fn is_undef(&self, id: ExprId) -> bool {
        if let Expr::Variable(name) = &self.body[id] {
            let bare = name.trim_start_matches("::");
            if crate::builtins::legacy_facts::legacy_facts().is_legacy(bare) {
                return false;
            }
        }
        self.types.get(id).is_some_and(|i| i.ty == Type::Undef)
    }

    fn report(&self, call: ExprId, condition: ExprId, out: &mut Vec<ItemDiagnostic>) {
        let at = self.map.expr_range(call);
        let decided_at = self.map.expr_range(condition);
        let mut diagnostic = Diagnostic::error(
            at.range,
            Code::AlwaysFails,
            "this fail() runs on every evaluation: the conditions on the way here are decided (an undef value, such as a legacy fact read through $facts on Puppet 8, takes the same branch on every node)",
        );
        diagnostic.related = Some(decided_at.range);
        out.push(ItemDiagnostic {
            segment: at.segment,
            related_segment: decided_at.segment,
            diagnostic,
        });
    }
}
