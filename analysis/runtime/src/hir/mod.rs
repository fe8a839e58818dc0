//! The lowered model the evaluator runs: an item's body as position-free
//! expressions in an arena ([`body`]), made from syntax by [`lower`]. Pure
//! data; the semantic crate keeps it per item in its database.

pub mod body;
pub mod inline_template;
pub mod items;
pub mod lower;

/// The kinds of things a Puppet file can define.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DefKind {
    Class,
    DefinedType,
    Function,
    TypeAlias,
    Node,
    Plan,
}

impl DefKind {
    pub fn describe(self) -> &'static str {
        match self {
            DefKind::Class => "class",
            DefKind::DefinedType => "defined type",
            DefKind::Function => "function",
            DefKind::TypeAlias => "type alias",
            DefKind::Node => "node",
            DefKind::Plan => "plan",
        }
    }
}
