//! The diagnostic codes puppet-ls reports, as one typed catalogue: every
//! layer reports, filters and documents diagnostics through [`Code`], so a
//! code cannot be misspelt and its metadata lives in one place.

use std::fmt;
use std::str::FromStr;

/// How bad a problem is. Puppet itself distinguishes errors (the catalog
/// will not compile) from warnings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// The severities a code is reported with: some are errors only when
/// puppet-ls can prove Puppet fails, warnings otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reported {
    Error,
    Warning,
    ErrorOrWarning,
}

impl Reported {
    pub fn allows(self, severity: Severity) -> bool {
        matches!(
            (self, severity),
            (Reported::ErrorOrWarning, _)
                | (Reported::Error, Severity::Error)
                | (Reported::Warning, Severity::Warning)
        )
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Reported::Error => "error",
            Reported::Warning => "warning",
            Reported::ErrorOrWarning => "error or warning",
        }
    }
}

/// Where a code comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    /// The lexer, parser or Puppet's validator rules (one file alone).
    Syntax,
    /// The analysis of the workspace (names, types, values, flow).
    Semantic,
}

/// What is known of a code.
#[derive(Debug, Clone, Copy)]
pub struct CodeInfo {
    pub name: &'static str,
    pub layer: Layer,
    pub reported: Reported,
    pub enabled_by_default: bool,
    pub explanation: &'static str,
}

macro_rules! codes {
    ($($variant:ident = $name:literal, $layer:ident, $reported:ident, $enabled:literal, $explanation:literal;)*) => {
        /// A diagnostic code.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $($variant,)*
        }

        const INFO: &[CodeInfo] = &[
            $(CodeInfo {
                name: $name,
                layer: Layer::$layer,
                reported: Reported::$reported,
                enabled_by_default: $enabled,
                explanation: $explanation,
            },)*
        ];

        impl Code {
            /// Every code, in the catalogue's order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];
        }
    };
}

codes! {
    // The lexer and parser.
    SyntaxError = "syntax-error", Syntax, Error, true, "the parser cannot read the text as Puppet code";
    UnclosedQuote = "unclosed-quote", Syntax, Error, true, "a string's opening quote is never closed";
    UnclosedInterpolation = "unclosed-interpolation", Syntax, Error, true, "a `${` in a string has no matching `}`";
    UnclosedComment = "unclosed-comment", Syntax, Error, true, "a `/*` comment has no matching `*/`";
    UnclosedEppTag = "unclosed-epp-tag", Syntax, Error, true, "an EPP tag or comment is never closed";
    InvalidHeredoc = "invalid-heredoc", Syntax, Error, true, "a heredoc's `@(...)` header or end marker is malformed or missing";
    IllegalNumber = "illegal-number", Syntax, Error, true, "a number literal Puppet rejects (`0x`, `08`, `1e`)";
    NumericOverflow = "numeric-overflow", Syntax, Error, true, "an integer literal outside the 64-bit signed range";
    IllegalName = "illegal-name", Syntax, Error, true, "a qualified name with an empty segment (`::` not followed by a name)";
    IllegalTypeReference = "illegal-type-reference", Syntax, Error, true, "a type reference with a segment not starting with an upper-case letter";
    IllegalVariableName = "illegal-variable-name", Syntax, Error, true, "a `$` not followed by a valid variable name";
    InvalidUtf8 = "invalid-utf8", Syntax, Error, true, "the file is not valid UTF-8";
    IllegalBom = "illegal-bom", Syntax, Error, true, "the file starts with a byte order mark";
    NestingTooDeep = "nesting-too-deep", Syntax, Error, true, "an expression nested deeper than puppet-ls follows";
    // Puppet's validator.
    ExpressionHasNoEffect = "expression-has-no-effect", Syntax, Error, true, "a value is produced and then forgotten (often a missing comma or brace before it)";
    NotTopLevel = "not-top-level", Syntax, Error, true, "a class, defined type or node inside something other than the top level or a class";
    NotAbsoluteTopLevel = "not-absolute-top-level", Syntax, Error, true, "a function, type alias or plan not at the top level of its file";
    NotRvalue = "not-rvalue", Syntax, Error, true, "an expression that produces no value used where a value is needed";
    IllegalAssignment = "illegal-assignment", Syntax, Error, true, "an assignment to something that cannot be assigned (a numeric match variable, an access)";
    IllegalAssignmentContext = "illegal-assignment-context", Syntax, Error, true, "an assignment inside a parameter's default value";
    IllegalExpression = "illegal-expression", Syntax, Error, true, "an expression of a kind not allowed in that position";
    IllegalDefinitionName = "illegal-definition-name", Syntax, Error, true, "a class, defined type or function name that is not a lower-case qualified name";
    IllegalParameterName = "illegal-parameter-name", Syntax, Error, true, "a parameter name Puppet rejects (numeric, or not a valid name)";
    IllegalHostname = "illegal-hostname", Syntax, Error, true, "a node matcher that is not a literal name, regexp or `default`";
    IllegalNodeInheritance = "illegal-node-inheritance", Syntax, Error, true, "node inheritance, removed in Puppet 4";
    IllegalQueryExpression = "illegal-query-expression", Syntax, Error, true, "a collector query with an operator other than `==`, `!=`, `and`, `or`";
    IllegalAttributeAppend = "illegal-attribute-append", Syntax, Error, true, "`+>` outside resource overrides and collectors";
    IllegalEppParameters = "illegal-epp-parameters", Syntax, Error, true, "an EPP parameter list that is not at the start of the template";
    ReservedWord = "reserved-word", Syntax, Error, true, "a word Puppet reserves used as a name or value";
    FutureReservedWord = "future-reserved-word", Syntax, Warning, true, "a name Puppet reserves for future use (`plan` as a class name)";
    ReservedTypeName = "reserved-type-name", Syntax, Error, true, "a type alias or definition named like a built-in type";
    ReservedParameter = "reserved-parameter", Syntax, Error, true, "a parameter that redefines a built-in one (`$title`, `$name`, metaparameters)";
    DuplicateParameter = "duplicate-parameter", Syntax, Error, true, "a parameter declared twice in one parameter list";
    DuplicateDefault = "duplicate-default", Syntax, Error, true, "a case or selector with two `default` options";
    DuplicateKey = "duplicate-key", Syntax, ErrorOrWarning, true, "a hash literal that repeats a key: an error under `strict = error` (Puppet 8's default), where `puppet parser validate` fails; a warning under `strict = warning` (Puppet 7's)";
    MissingIndex = "missing-index", Syntax, Error, true, "an access `[]` without key or index";
    MultipleAttributesUnfold = "multiple-attributes-unfold", Syntax, Error, true, "more than one `* =>` in a resource body";
    NotVirtualizable = "not-virtualizable", Syntax, Error, true, "a virtual or exported resource default or override";
    ClassNotVirtualizable = "class-not-virtualizable", Syntax, Error, true, "a virtual or exported class";
    CapturesRestNotLast = "captures-rest-not-last", Syntax, Error, true, "a `*$rest` parameter that is not the last one";
    CapturesRestNotSupported = "captures-rest-not-supported", Syntax, Error, true, "a `*$rest` parameter in a class or defined type";
    UnsupportedOperator = "unsupported-operator", Syntax, Error, true, "an operator Puppet no longer supports (`+=`, `-=`)";
    UnsupportedExpression = "unsupported-expression", Syntax, Error, true, "a construct Puppet 7 does not support (`type Name { ... }`)";
    NonLiteralParameterType = "non-literal-parameter-type", Syntax, Warning, true, "a class parameter's type that is not a literal (`Integer[0, 60*24]`, `Optional[[String]]`, a variable or call in its parameters): Puppet 8 warns that it must be a literal type (a deprecation; Puppet 7 says nothing)";
    DiscontinuedImport = "discontinued-import", Syntax, Error, true, "`import`, removed in Puppet 4";
    // Hiera's files.
    YamlSyntax = "yaml-syntax", Syntax, Error, true, "a Hiera data file or `hiera.yaml` that is not valid YAML (JSON for `.json` files): Puppet's lookups fail on it";
    HieraConfig = "hiera-config", Syntax, ErrorOrWarning, true, "a `hiera.yaml` Puppet cannot use: an error when its lookups fail (a level without a name or a path), a warning when Puppet only warns (version 4, deprecated) or ignores the file (version 3 outside the global layer)";
    HieraInterpolation = "hiera-interpolation", Syntax, ErrorOrWarning, true, "an interpolation `%{...}` in Hiera data or a hierarchy path: an error where Puppet's lookup fails on it (an unknown method, `alias` not alone in its string, a method in a hierarchy path, a malformed key; a variable nothing sets, `%{lookup()}` included, under `strict = error`, Puppet 8's default, in a key code looks up), a warning where it can never find anything (such a variable under `strict = warning`, where it interpolates an empty string)";
    HieraDataNotHash = "hiera-data-not-hash", Syntax, ErrorOrWarning, true, "a Hiera data file whose top level is a list or a single value, not a hash of keys: an error where a level reads it and Puppet's lookups fail (YAML under `strict = error`, Puppet 8's default; JSON always), a warning where Puppet ignores it with a warning (YAML under `strict = warning`)";
    // Modules' metadata.json.
    MetadataSyntax = "metadata-syntax", Syntax, ErrorOrWarning, true, "a module's `metadata.json` that is not valid JSON: an error under `strict = error` (Puppet 8's default), where Puppet refuses the module and every use of it fails; a warning under `strict = warning` (Puppet 7's), where Puppet ignores the file; the Forge, `puppet module` and the PDK refuse it";
    MetadataSchema = "metadata-schema", Syntax, ErrorOrWarning, true, "a `metadata.json` field missing or of the wrong form: an error where Puppet refuses the module or fails to load the environment's modules (no `source`, `author`, `version`, `license` or `dependencies`, `dependencies` not an array of objects, a `name` that is not a string), a warning where only the Forge, `puppet module` and the PDK refuse it (no `name` or `summary`, a `name` not `author-module`, a `version` that is not semantic, a field of the wrong type)";
    InvalidVersionRange = "invalid-version-range", Syntax, Warning, true, "a `version_requirement` in `metadata.json` that is not a version range Puppet reads (`>= 1.0.0 < 2.0.0`, `1.x`, `~1.2`, `^1.2`, `1.0.0 - 2.0.0`, alternatives with `||`): `puppet module` and the PDK refuse it, and `puppet module list` cannot check the dependency";
    DuplicateDependency = "duplicate-dependency", Syntax, Warning, true, "a module declared twice in `metadata.json`'s `dependencies` (or `requirements`): `puppet module` refuses conflicting ranges, and only one module of a name can be installed";
    // The workspace.
    UnmetDependency = "unmet-dependency", Semantic, Warning, true, "a dependency on a module of the workspace that does not meet it, as `puppet module list` reports: the module's version is outside the range or not semantic, or its `metadata.json` names another author";
    UndeclaredDependency = "undeclared-dependency", Semantic, Warning, true, "a class, defined type, function, type or template of another module of the workspace, used by a module whose `metadata.json` does not declare that module in its `dependencies`, outside code that runs only when `defined()` finds it";
    HieraTypeMismatch = "hiera-type-mismatch", Semantic, Error, true, "a Hiera value for `class::param` that cannot match the parameter's declared type (workspace aliases included): the class fails to compile wherever automatic parameter lookup finds it";
    HieraUnknownParameter = "hiera-unknown-parameter", Semantic, Warning, true, "a Hiera key `module::class::param` whose class exists in the workspace without such a parameter: automatic parameter lookup never reads it";
    DefinitionLocation = "definition-location", Semantic, Error, true, "autoloading will not find this definition in this file";
    TopLevelStatementInModule = "top-level-statement-in-module", Semantic, Error, true, "an autoloaded module file holds more than definitions";
    DuplicateDefinition = "duplicate-definition", Semantic, Error, true, "a class, defined type, function or type alias defined twice";
    UnknownClass = "unknown-class", Semantic, ErrorOrWarning, true, "a class nothing defines: an error when it misspells a known name or its module is in the workspace, a warning when a module outside it may define it";
    UnknownType = "unknown-type", Semantic, ErrorOrWarning, true, "a type nothing defines (same severities as `unknown-class`)";
    UnknownResourceType = "unknown-resource-type", Semantic, ErrorOrWarning, true, "a resource type nothing defines (same severities as `unknown-class`)";
    UnknownFunction = "unknown-function", Semantic, ErrorOrWarning, true, "a function nothing defines (same severities as `unknown-class`). The workspace's stdlib sources say which stdlib functions exist (else the bundled stdlib of the target Puppet: 8.5 for Puppet 7, 9 for Puppet 8); for a function stdlib 9 removed (`has_key`, `is_string`, `validate_re`...) the message says what to use instead";
    ClassAsResource = "class-as-resource", Semantic, Error, true, "a class declared as if it were a resource type";
    UnknownAttribute = "unknown-attribute", Semantic, Error, true, "an attribute the resource type or class does not have";
    MissingRequiredParameter = "missing-required-parameter", Semantic, ErrorOrWarning, true, "a parameter without a default left without a value (whatever its type, `Optional` too): by a resource-like declaration that does not give it (resource defaults and `default:` bodies count as given), or by an include-like one (`include`, `contain`, `require`) of a class nothing in the workspace declares resource-like. A class parameter that the workspace's Hiera data binds through some hierarchy level on some node (under Puppet 8 a level whose path interpolates a legacy fact reads an empty string there), or may bind (a custom backend, data outside the workspace), is not reported; one it does not bind is an error in an environment with its Hiera 5 `hiera.yaml`, a warning elsewhere, where the node's data is outside the workspace";
    InvalidAttributeValue = "invalid-attribute-value", Semantic, Warning, true, "a core attribute's value is not one it allows (`ensure => runing`)";
    DeprecatedFunction = "deprecated-function", Semantic, ErrorOrWarning, true, "a call of a function whose Ruby code calls stdlib's `deprecation()` every time (stdlib 8.5's `is_string` and `validate_string`, stdlib 9's `validate_legacy`), or of `deprecation()` itself: an error under `strict = error` (Puppet 8's default), where Puppet fails with `deprecation. <key>. <message>`; a warning under `strict = warning`; nothing under `off`. A call that passes `false` as `deprecation()`'s third argument (stdlib 9's forwarders, such as `to_json` for `stdlib::to_json`) is a warning whatever `strict` is, as Puppet logs it";
    WrongArgumentCount = "wrong-argument-count", Semantic, Error, true, "no signature of the function takes that many arguments";
    WrongArgumentType = "wrong-argument-type", Semantic, Error, true, "no signature of the function accepts those argument types";
    TypeMismatch = "type-mismatch", Semantic, Error, true, "a constant value does not match the parameter's declared type (aliases expanded)";
    DefaultTypeMismatch = "default-type-mismatch", Semantic, Warning, true, "a parameter's default does not match its declared type (fails when the default is used)";
    InvalidType = "invalid-type", Semantic, Error, true, "a type expression Puppet rejects (`Integer[3, 1]`)";
    EvaluationError = "evaluation-error", Semantic, Error, true, "a constant expression fails (`10 / 0`, `'a' + 'b'`, a selector no option matches)";
    NumericCoercion = "numeric-coercion", Semantic, ErrorOrWarning, true, "a string used as a number in a constant expression (`'1' + 1`, `[1, 2]['1']`): an error under `strict = error` (Puppet 8's default), where the evaluation fails; a warning under `strict = warning` (Puppet 7's), where Puppet converts it and warns";
    DuplicateResource = "duplicate-resource", Semantic, Error, true, "the same resource declared twice in one block";
    UnreachableOption = "unreachable-option", Semantic, Warning, true, "a case or selector option that repeats an earlier one";
    UnknownTemplate = "unknown-template", Semantic, Error, true, "an `epp()` or `template()` call naming a template file the module does not have";
    UnknownModuleFile = "unknown-module-file", Semantic, ErrorOrWarning, true, "`file()` naming no file the module has (an error), a `puppet:///modules/` source naming none (a warning: the agent fails)";
    EppMissingParameter = "epp-missing-parameter", Semantic, Error, true, "an `epp()` or `inline_epp()` call without a parameter the template requires (one without a default, whatever its type)";
    EppUnknownParameter = "epp-unknown-parameter", Semantic, Error, true, "an `epp()` or `inline_epp()` call passing a parameter the template does not declare";
    UnknownVariable = "unknown-variable", Semantic, ErrorOrWarning, true, "a variable defined nowhere it could be seen from, or assigned only in an arm a declaration's parameter values can skip: an error under `strict_variables` (Puppet 8's default), where reading it fails; a warning otherwise, where it is undef, and where only the node's facts or evaluation order decide it";
    LegacyFact = "legacy-fact", Semantic, ErrorOrWarning, true, "a legacy fact (`$osfamily`, `$facts['osfamily']`, `%{::osfamily}` and `%{facts.osfamily}` in Hiera), which Puppet 8 no longer receives: reading it as a variable fails under `strict_variables` (in Hiera data under `strict = error`, when code looks the key up), through `$facts` it is undef, in a hierarchy path it interpolates an empty string (a warning: the level never finds its data)";
    AlwaysFails = "always-fails", Semantic, Error, true, "a `fail()` call every evaluation of its definition reaches, because the conditions on the way are decided: on Puppet 8 a legacy fact read through `$facts` is undef, so `case $facts['osfamily']` always takes `default`";
    UnusedVariable = "unused-variable", Semantic, Warning, true, "a variable assigned and never read";
    UnusedParameter = "unused-parameter", Semantic, Warning, true, "a parameter never read (defines, functions, lambdas, templates)";
    ReassignedVariable = "reassigned-variable", Semantic, ErrorOrWarning, true, "a variable assigned twice in one scope: an error when both assignments can run, a warning when their conditions may exclude each other";
    StringsUnknownParam = "strings-unknown-param", Semantic, Warning, true, "a puppet-strings `@param` or `@option` naming no parameter of the definition";
    StringsParamTypeMismatch = "strings-param-type-mismatch", Semantic, Warning, true, "a puppet-strings `@param` type that contradicts the declared type (neither contains the other)";
    StringsMissingParam = "strings-missing-param", Semantic, Warning, false, "a parameter without `@param` in a puppet-strings comment (off by default: puppet-lint's `parameter_documentation` reports the same)";
}

impl Code {
    pub fn info(self) -> &'static CodeInfo {
        &INFO[self as usize]
    }

    /// The stable name users see and filter on (`unknown-class`).
    pub fn as_str(self) -> &'static str {
        self.info().name
    }

    pub fn explanation(self) -> &'static str {
        self.info().explanation
    }

    pub fn reported(self) -> Reported {
        self.info().reported
    }

    pub fn enabled_by_default(self) -> bool {
        self.info().enabled_by_default
    }

    /// Where the code is documented, relative to the repository's root.
    pub fn documentation(self) -> String {
        format!("docs/diagnostics.md#{}", self.as_str())
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not a diagnostic code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownCode(pub String);

impl fmt::Display for UnknownCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a puppet-ls diagnostic code", self.0)
    }
}

impl std::error::Error for UnknownCode {}

impl FromStr for Code {
    type Err = UnknownCode;

    fn from_str(name: &str) -> Result<Code, UnknownCode> {
        Code::ALL
            .iter()
            .copied()
            .find(|c| c.as_str() == name)
            .ok_or_else(|| UnknownCode(name.to_string()))
    }
}
