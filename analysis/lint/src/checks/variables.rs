//! Variable references as the variable checks see them, and
//! `variable_contains_dash` and `variable_is_lowercase`.
//!
//! Names are read as Puppet reads them: `$a-b` is `$a` minus `b` (puppet-lint
//! reads a variable `a-b`). puppet-lint also reads an index written right
//! after a variable in code (`$x['a']`) as part of it: see
//! [`VariableRef::index`].

use super::Sink;
use crate::context::LintContext;

pub(crate) fn variable_contains_dash(ctx: &LintContext, sink: &mut Sink) {
    for variable in ctx.variables() {
        if variable.name.contains('-') {
            sink.report(variable.range(), "variable contains a dash");
        }
    }
}

pub(crate) fn variable_is_lowercase(ctx: &LintContext, sink: &mut Sink) {
    for variable in ctx.variables() {
        if variable.name.chars().any(|c| c.is_ascii_uppercase()) {
            sink.report(variable.range(), "variable contains an uppercase letter");
        }
    }
}
