//! Core resource types and metaparameters.
//!
//! Each type lists its attributes as Puppet's type DSL defines them: property
//! or parameter, namevar, `isrequired`, the allowed literal values (with
//! aliases such as `ensure => true` meaning `running`) and regexps, and the
//! value type where it is knowable. Metaparameters are shared by every type
//! and kept once, in [`super::Builtins::metaparameters`].

use std::sync::OnceLock;

use super::json::{Json, JsonExt};
use crate::model::Type;

/// Whether an attribute is a property (state Puppet manages and reports), a
/// parameter (how Puppet manages it) or a metaparameter (any resource).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttributeKind {
    /// A managed, reported property (`ensure`, `mode`...).
    Property,
    /// A parameter that steers management (`path`, `provider`...).
    Parameter,
    /// A metaparameter valid on every resource (`require`, `tag`...).
    Metaparameter,
}

/// One allowed literal value of an attribute, with the words Puppet accepts
/// as synonyms (`running` accepts `true`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllowedValue {
    /// The canonical value.
    pub name: String,
    /// Synonyms of the value.
    pub aliases: Vec<String>,
    /// Provider features the value needs (`enable => mask` needs `maskable`).
    pub features: Vec<String>,
}

/// One attribute of a resource type.
#[derive(Debug)]
pub struct Attribute {
    /// The attribute name.
    pub name: String,
    /// Property, parameter or metaparameter.
    pub kind: AttributeKind,
    /// True for the type's namevar(s) (identity attributes).
    pub namevar: bool,
    /// True when Puppet requires a value (`isrequired`).
    pub required: bool,
    /// Allowed literal values; empty when any value is accepted.
    pub values: Vec<AllowedValue>,
    /// Allowed values as Ruby regexp sources (matched besides `values`).
    pub regexes: Vec<String>,
    /// The value type as written in the table, when knowable.
    pub value_type_text: Option<String>,
    /// Properties that compare whole arrays (`array_matching => all`).
    pub array_matching_all: bool,
    /// Provider features the attribute needs.
    pub features: Vec<String>,
    /// Our one-line description.
    pub description: Option<String>,
    /// The value type, built once by [`Attribute::value_type`].
    pub(crate) value_type: OnceLock<Option<Type>>,
}

impl Attribute {
    pub fn from_json(j: &Json, metaparam: bool) -> Option<Attribute> {
        let kind = match j.str_field("kind")? {
            "property" => AttributeKind::Property,
            "parameter" => AttributeKind::Parameter,
            "metaparam" => AttributeKind::Metaparameter,
            _ if metaparam => AttributeKind::Metaparameter,
            _ => return None,
        };
        let values = j
            .get("values")
            .map(|v| {
                v.items()
                    .iter()
                    .filter_map(|v| {
                        Some(AllowedValue {
                            name: v.str_field("name")?.to_string(),
                            aliases: v.strings("aliases"),
                            features: v.strings("features"),
                        })
                    })
                    .collect()
            })
            .unwrap_or_default();
        Some(Attribute {
            name: j.str_field("name")?.to_string(),
            kind,
            namevar: j.flag("namevar"),
            required: j.flag("required"),
            values,
            regexes: j.strings("regexes"),
            value_type_text: j.str_field("value_type").map(str::to_string),
            array_matching_all: j.str_field("array_matching") == Some("all"),
            features: j.strings("features"),
            description: j.str_field("desc").map(str::to_string),
            value_type: OnceLock::new(),
        })
    }

    /// Every accepted literal word: values and their aliases.
    pub fn value_words(&self) -> impl Iterator<Item = &str> {
        self.values.iter().flat_map(|v| {
            std::iter::once(v.name.as_str()).chain(v.aliases.iter().map(String::as_str))
        })
    }

    /// The canonical value a literal word stands for (`true` -> `running`
    /// for `service.ensure`), or `None` when the word is not a listed value.
    pub fn canonical_value(&self, word: &str) -> Option<&AllowedValue> {
        self.values
            .iter()
            .find(|v| v.name == word || v.aliases.iter().any(|a| a == word))
    }

    /// True when the attribute restricts its values to a fixed set and
    /// regexps (so other words are errors Puppet reports).
    pub fn is_restricted(&self) -> bool {
        !self.values.is_empty() || !self.regexes.is_empty()
    }

    /// True when `word` is accepted by the listed values or regexps (always
    /// true for unrestricted attributes; invalid regexps accept anything).
    pub fn accepts_word(&self, word: &str) -> bool {
        if !self.is_restricted() || self.canonical_value(word).is_some() {
            return true;
        }
        self.regexes
            .iter()
            .any(|r| regex::Regex::new(r).map_or(true, |re| re.is_match(word)))
    }
}

/// A resource type built into Puppet (or one of the core modules Puppet
/// ships with its agent, named in [`ResourceType::module`]).
#[derive(Debug)]
pub struct ResourceType {
    /// The type name (`file`).
    pub name: String,
    /// The core module defining it (`cron_core`), `None` for Puppet itself.
    pub module: Option<String>,
    /// The identity attributes (`path` for file; `name` and `type` for sshkey).
    pub namevars: Vec<String>,
    /// The type's own attributes (metaparameters excluded).
    pub attributes: Vec<Attribute>,
    /// Provider names.
    pub providers: Vec<String>,
    /// Provider features the type declares.
    pub features: Vec<String>,
    /// Our one-line description.
    pub description: Option<String>,
}

impl ResourceType {
    pub fn from_json(j: &Json) -> Option<ResourceType> {
        Some(ResourceType {
            name: j.str_field("name")?.to_string(),
            module: j.str_field("module").map(str::to_string),
            namevars: j.strings("namevars"),
            attributes: j
                .get("attributes")?
                .items()
                .iter()
                .filter_map(|a| Attribute::from_json(a, false))
                .collect(),
            providers: j.strings("providers"),
            features: j.strings("features"),
            description: j.str_field("desc").map(str::to_string),
        })
    }

    /// The type's own attribute `name` (metaparameters are looked up through
    /// [`super::Builtins::attribute`]).
    pub fn own_attribute(&self, name: &str) -> Option<&Attribute> {
        self.attributes.iter().find(|a| a.name == name)
    }

    /// The attributes Puppet requires a value for (namevars default to the title).
    pub fn required_attributes(&self) -> impl Iterator<Item = &Attribute> {
        self.attributes.iter().filter(|a| a.required)
    }

    /// The namevar attribute(s).
    pub fn namevar_attributes(&self) -> impl Iterator<Item = &Attribute> {
        self.attributes.iter().filter(|a| a.namevar)
    }
}
