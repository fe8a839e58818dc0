//! The data Puppet computes with: [`Value`] and [`Type`].
//!
//! The two are defined in terms of each other (a value can be a type,
//! `Value::Type`; a type holds values, in `Init` and `URI` parameters, and
//! `Iterator` values and `Unknown` values carry types), so both live here,
//! as plain data with their constructors and basic predicates. They are
//! built from the scalar kinds below ([`crate::regexp`], [`crate::semver`],
//! [`crate::time`]). The operations are layered above: on values in
//! `values`, on types (display, assignability, inference...) in `types`,
//! which uses `values`.

mod hash;
mod ty;
mod value;

pub use hash::OrderedHash;
pub use ty::{
    CallableType, EnumType, FloatRange, IntRange, ObjectType, StringParam, StructElement,
    TimeRange, Type,
};
pub use value::{IteratorValue, ObjectValue, Value};
