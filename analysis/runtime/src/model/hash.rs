//! An insertion-ordered hash keyed by arbitrary values.

use super::Value;

/// Puppet hashes keep insertion order and use *strict* key equality
/// (Ruby `eql?`: `1` and `1.0` are different keys, `'a'` and `'A'` too).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OrderedHash {
    entries: Vec<(Value, Value)>,
}

impl OrderedHash {
    /// An empty hash.
    pub fn new() -> Self {
        OrderedHash {
            entries: Vec::new(),
        }
    }

    /// Builds a hash from pairs; later duplicates overwrite earlier ones in place
    /// (as a Ruby hash literal does).
    pub fn from_pairs<I: IntoIterator<Item = (Value, Value)>>(pairs: I) -> Self {
        let mut h = OrderedHash::new();
        for (k, v) in pairs {
            h.insert(k, v);
        }
        h
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there are no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn position(&self, key: &Value) -> Option<usize> {
        self.entries.iter().position(|(k, _)| k.strict_eq(key))
    }

    /// Looks a key up with strict equality.
    pub fn get(&self, key: &Value) -> Option<&Value> {
        self.position(key).map(|i| &self.entries[i].1)
    }

    /// True if the key is present.
    pub fn contains_key(&self, key: &Value) -> bool {
        self.position(key).is_some()
    }

    /// Inserts or overwrites (keeping the original position on overwrite).
    pub fn insert(&mut self, key: Value, value: Value) {
        match self.position(&key) {
            Some(i) => self.entries[i].1 = value,
            None => self.entries.push((key, value)),
        }
    }

    /// Removes a key, returning its value.
    pub fn remove(&mut self, key: &Value) -> Option<Value> {
        self.position(key).map(|i| self.entries.remove(i).1)
    }

    /// Entries in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (&Value, &Value)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// Keys in insertion order.
    pub fn keys(&self) -> impl Iterator<Item = &Value> {
        self.entries.iter().map(|(k, _)| k)
    }

    /// Values in insertion order.
    pub fn values(&self) -> impl Iterator<Item = &Value> {
        self.entries.iter().map(|(_, v)| v)
    }
}

impl FromIterator<(Value, Value)> for OrderedHash {
    fn from_iter<T: IntoIterator<Item = (Value, Value)>>(iter: T) -> Self {
        OrderedHash::from_pairs(iter)
    }
}
