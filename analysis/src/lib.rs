//! Semantic analysis of Puppet code.
