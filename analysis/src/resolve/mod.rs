//! The one name resolver: which definition, parameter or assignment every
//! variable reference of an item's body means (`scope.rs`: scopes per item,
//! `item_scopes`), and the same per file with source positions
//! (`resolution.rs`: `variable_resolution`). Inference, diagnostics and
//! every IDE feature resolve names through it. It sits above the lowered
//! model (`hir`) and the definition index, which it reads.

pub mod declarations;
pub mod resolution;
pub mod scope;
