//! The Puppet type system: the operations on types.
//!
//! The types themselves are data ([`crate::model::Type`]). The operations
//! live in sub-modules: [`display`] (printing exactly as Puppet does),
//! [`assignable`] (`is_assignable`, `is_instance`, equality), [`infer`]
//! (`type()` inference), [`common`] (`common_type`), [`normalize`],
//! [`parameterize`] (building types from `Base[args...]`), and [`alias`]
//! (alias resolution with recursion guards). They build on the operations
//! on values ([`crate::values`]), which do not import this module: a type
//! held by a value prints through `Display`, implemented in [`display`].

pub mod alias;
pub mod assignable;
pub mod common;
pub mod display;
pub mod infer;
pub mod normalize;
pub mod parameterize;

pub use alias::{AliasResolver, NoAliases, TypeAliases};
pub use assignable::{is_assignable, is_instance, types_equal, TypeSystem};
pub use common::common_type;
pub use infer::{infer, infer_generalized, infer_set};
pub use normalize::{generalize, normalize};
pub use parameterize::{parameterize, parameterize_access, parameterize_named};
