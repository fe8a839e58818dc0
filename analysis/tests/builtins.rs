//! The embedded built-ins tables are complete (they match the counts the
//! generator observed in Puppet 7.23) and correct on spot checks.

use puppet_analysis::builtins::{builtins_for, AttributeKind, Builtins, FunctionApi, ParamKind};
use puppet_analysis::docs::DocSource;
use puppet_analysis::model::{OrderedHash, StringParam, Type, Value};
use puppet_analysis::target::PuppetVersion;
use puppet_analysis::types::is_instance;
use puppet_vfs::{FileSystem, MemoryFs};
use std::path::PathBuf;
use std::sync::Arc;

/// Puppet 7.23's tables, which these counts and spot checks describe.
fn builtins() -> &'static Builtins {
    builtins_for(PuppetVersion::V7)
}

#[test]
fn table_is_from_puppet_7() {
    let b = builtins();
    assert!(b.puppet_version.starts_with("7."), "{}", b.puppet_version);
    assert!(!b.types.is_empty());
}

#[test]
fn counts_match_what_the_generator_saw() {
    let b = builtins();
    let c = &b.counts;
    assert_eq!(b.types.len(), c.types);
    // `puppet describe --list` shows every type but `component`.
    assert_eq!(b.types.len(), c.describe_list_types + 1);
    assert!(b.resource_type("component").is_some());
    let attrs: usize = b.types.iter().map(|t| t.attributes.len()).sum();
    assert_eq!(attrs, c.attributes);
    assert_eq!(b.metaparameters.len(), c.metaparameters);
    assert_eq!(b.functions.len(), c.functions);
    assert_eq!(b.stdlib_functions.len(), c.stdlib_functions);
    assert_eq!(b.facts.all.len(), c.facts);
    // Every 4.x file is a function; 3.x files add the names 4.x lacks.
    let modern = b
        .functions
        .iter()
        .filter(|f| f.api == FunctionApi::Modern)
        .count();
    assert_eq!(modern, c.function_files_4x);
    assert!(b.functions.len() <= c.function_files_4x + c.function_files_3x);
    let legacy = b.functions.len() - modern;
    assert!(legacy > 0 && legacy <= c.function_files_3x);
    let stdlib_modern = b
        .stdlib_functions
        .iter()
        .filter(|f| f.api == FunctionApi::Modern)
        .count();
    assert_eq!(stdlib_modern, c.stdlib_function_files_4x);
    // Every function has at least one signature, and every type a namevar.
    for f in b.functions.iter().chain(&b.stdlib_functions) {
        assert!(!f.signatures.is_empty(), "{}", f.name);
        assert!(f.description.is_some(), "{} lacks a description", f.name);
    }
    for t in &b.types {
        assert!(!t.namevars.is_empty(), "{}", t.name);
        assert!(t.description.is_some(), "{} lacks a description", t.name);
        for n in &t.namevars {
            let a = t.own_attribute(n).expect("namevar is an attribute");
            assert!(a.namevar && a.description.is_some(), "{}.{}", t.name, n);
        }
    }
}

#[test]
fn core_types_are_present() {
    let b = builtins();
    for name in [
        "file",
        "package",
        "service",
        "exec",
        "user",
        "group",
        "cron",
        "host",
        "mount",
        "notify",
        "schedule",
        "stage",
        "tidy",
        "filebucket",
        "resources",
        "sshkey",
        "ssh_authorized_key",
        "augeas",
        "selboolean",
        "selmodule",
        "mailalias",
    ] {
        assert!(b.resource_type(name).is_some(), "missing type {name}");
    }
    assert!(b.resource_type("File").is_some());
    assert!(b.resource_type("nosuchtype").is_none());
}

#[test]
fn file_type() {
    let b = builtins();
    let file = b.resource_type("file").unwrap();
    assert_eq!(file.namevars, ["path"]);
    let path = file.own_attribute("path").unwrap();
    assert!(path.namevar);
    assert_eq!(path.kind, AttributeKind::Parameter);
    let ensure = b.attribute("file", "ensure").unwrap();
    assert_eq!(ensure.kind, AttributeKind::Property);
    let words: Vec<&str> = ensure.value_words().collect();
    for v in ["present", "absent", "file", "directory", "link"] {
        assert!(words.contains(&v), "file ensure lacks {v}: {words:?}");
    }
    // Any other word is a link target (Puppet's `/./` value regexp).
    assert!(ensure.accepts_word("/etc/foo"));
    let service_ensure = b.attribute("service", "ensure").unwrap();
    assert!(!service_ensure.accepts_word("runing"));
    assert!(b.attribute("file", "description").is_none());
}

#[test]
fn service_ensure_aliases() {
    let b = builtins();
    let ensure = b.attribute("service", "ensure").unwrap();
    assert_eq!(ensure.canonical_value("running").unwrap().name, "running");
    assert_eq!(ensure.canonical_value("true").unwrap().name, "running");
    assert_eq!(ensure.canonical_value("false").unwrap().name, "stopped");
    assert_eq!(ensure.canonical_value("stopped").unwrap().name, "stopped");
    let t = ensure.value_type().unwrap();
    assert!(is_instance(t, &Value::Boolean(true)), "{t}");
    assert!(is_instance(t, &Value::String("running".into())), "{t}");
    assert!(!is_instance(t, &Value::String("runing".into())), "{t}");
    let enable = b.attribute("service", "enable").unwrap();
    let mask = enable.canonical_value("mask").unwrap();
    assert_eq!(mask.features, ["maskable"]);
}

#[test]
fn exec_requires_command() {
    let b = builtins();
    let exec = b.resource_type("exec").unwrap();
    assert_eq!(exec.namevars, ["command"]);
    let command = exec.own_attribute("command").unwrap();
    assert!(command.namevar && command.required);
    assert!(exec.required_attributes().any(|a| a.name == "command"));
    let timeout = b.attribute_value_type("exec", "timeout").unwrap();
    assert!(is_instance(timeout, &Value::Integer(300)));
}

#[test]
fn boolean_parameters_have_boolean_type() {
    let b = builtins();
    for (t, a) in [
        ("service", "hasstatus"),
        ("exec", "refreshonly"),
        ("user", "managehome"),
    ] {
        let ty = b.attribute_value_type(t, a).unwrap_or(&Type::Any);
        assert!(is_instance(ty, &Value::Boolean(false)), "{t}.{a}: {ty}");
    }
}

#[test]
fn metaparameters_on_every_type() {
    let b = builtins();
    for m in [
        "before",
        "require",
        "notify",
        "subscribe",
        "tag",
        "alias",
        "audit",
        "noop",
        "loglevel",
        "schedule",
        "stage",
    ] {
        assert!(b.metaparameter(m).is_some(), "missing metaparameter {m}");
    }
    for t in &b.types {
        let notify = b
            .attribute(&t.name, "notify")
            .expect("notify metaparameter");
        assert_eq!(notify.kind, AttributeKind::Metaparameter);
        assert!(t.own_attribute("notify").is_none() || t.name == "notify");
    }
    let loglevel = b.metaparameter("loglevel").unwrap();
    assert!(loglevel.value_words().any(|w| w == "warning"));
}

#[test]
fn sprintf_signature() {
    let b = builtins();
    let f = b.function("sprintf").unwrap();
    assert_eq!(f.api, FunctionApi::Legacy);
    assert!(!f.statement);
    let [sig] = f.signatures.as_slice() else {
        panic!("one signature expected")
    };
    assert_eq!(sig.min_args, 1);
    assert_eq!(sig.max_args, None);
    assert_eq!(sig.params.last().unwrap().kind, ParamKind::Repeated);
    assert!(!f.accepts_arg_count(0));
    assert!(f.accepts_arg_count(1) && f.accepts_arg_count(5));
    assert!(matches!(sig.callable(), Type::Callable(_)));
}

#[test]
fn typed_signatures() {
    let b = builtins();
    let each = b.function("each").unwrap();
    assert_eq!(each.signatures.len(), 4);
    let first = &each.signatures[0];
    assert_eq!(first.params[0].ty(), &Type::hash());
    assert_eq!(first.block.as_ref().unwrap().type_text, "Callable[2, 2]");
    assert!(!first.block.as_ref().unwrap().optional);
    // lookup's local type aliases are expanded.
    let lookup = b.function("lookup").unwrap();
    let name = lookup.signatures[0].params[0].ty();
    assert!(is_instance(name, &Value::String("a::b".into())), "{name}");
    assert_eq!(lookup.signatures[0].params[1].kind, ParamKind::Optional);
    // notice returns Undef and takes zero or more values.
    let notice = b.function("notice").unwrap();
    assert_eq!(notice.signatures[0].return_type(), Type::Undef);
    assert!(notice.accepts_arg_count(0));
    assert!(matches!(notice.callable_type(), Type::Callable(_)));
    assert!(matches!(each.callable_type(), Type::Variant(v) if v.len() == 4));
    // No type string is left unparsed except Puppet-internal object types.
    let internal = ["Puppet::", "Annotation", "Pcore"];
    for f in b.functions.iter().chain(&b.stdlib_functions) {
        for s in &f.signatures {
            for p in &s.params {
                if let Type::TypeReference(r) = p.ty() {
                    assert!(internal.iter().any(|i| r.contains(i)), "{}: {}", f.name, r);
                }
            }
        }
    }
}

#[test]
fn statement_functions() {
    let b = builtins();
    for f in [
        "include", "require", "contain", "realize", "tag", "notice", "debug", "info", "warning",
        "err", "fail",
    ] {
        assert!(b.is_statement_function(f), "{f} should be statement-style");
    }
    for f in ["sprintf", "lookup", "each", "alert"] {
        assert!(!b.is_statement_function(f), "{f} is not statement-style");
    }
    assert!(b.function("realize").unwrap().legacy_statement);
}

#[test]
fn stdlib_functions_are_separate() {
    let b = builtins();
    assert!(b.function("merge").is_none());
    let merge = b.stdlib_function("merge").unwrap();
    assert!(merge.stdlib);
    assert!(b.resolve_function("merge", true).unwrap().stdlib);
    assert!(b.resolve_function("merge", false).is_none());
    // Puppet's own function wins over stdlib's of the same name.
    assert!(!b.resolve_function("flatten", true).unwrap().stdlib);
    assert!(b.stdlib_function("stdlib::end_with").is_some());
    assert!(b.stdlib_function("validate_legacy").is_some());
    assert!(!b.function("each").unwrap().stdlib);
}

#[test]
fn facts() {
    let b = builtins();
    assert_eq!(b.fact_type("os.family"), Some(Type::string()));
    assert_eq!(b.fact_type_by_keys(&["os", "family"]), Some(Type::string()));
    assert_eq!(b.fact_type("os.release.major"), Some(Type::string()));
    assert_eq!(b.fact_type("processors.count"), Some(Type::integer()));
    // Facts Facter does not report everywhere may be undef.
    assert_eq!(
        b.fact_type("networking.interfaces.eth0.mtu"),
        Some(Type::optional(Type::integer()))
    );
    assert_eq!(
        b.fact_type("ec2_metadata"),
        Some(Type::optional(Type::hash_of(Type::string(), Type::Any)))
    );
    assert_eq!(
        b.fact_type("os.selinux.current_mode"),
        Some(Type::optional(Type::string()))
    );
    assert!(matches!(
        b.fact_type("networking.interfaces"),
        Some(Type::Optional(Some(t))) if matches!(*t, Type::Hash(..))
    ));
    assert!(matches!(b.fact_type("os"), Some(Type::Struct(_))));
    let os = b.fact_type("os").unwrap();
    let os_hash = |v: Value| {
        Value::Hash(OrderedHash::from_pairs([(
            Value::String("family".into()),
            v,
        )]))
    };
    assert!(
        is_instance(&os, &os_hash(Value::String("Debian".into()))),
        "{os}"
    );
    let os_value = os_hash(Value::Integer(1));
    assert!(!is_instance(&os, &os_value), "{os}");
    assert_eq!(b.fact_type("osfamily"), Some(Type::string()));
    assert!(b.fact("osfamily").unwrap().legacy);
    assert_eq!(
        b.fact_type("blockdevice_sda_size"),
        Some(Type::optional(Type::integer()))
    );
    assert_eq!(b.fact_type("no_such_fact"), None);
    assert_eq!(b.fact_type("os.no_such_member"), None);
    assert_eq!(
        b.fact_type("memory.system.total"),
        Some(Type::optional(Type::String(StringParam::Any)))
    );
}

#[test]
fn suggestions() {
    let b = builtins();
    assert_eq!(b.suggest_value("service", "ensure", "runing"), ["running"]);
    assert_eq!(
        b.suggest_value("file", "ensure", "directroy")[0],
        "directory"
    );
    assert_eq!(b.suggest_type("pakage")[0], "package");
    assert_eq!(b.suggest_attribute("file", "ownr")[0], "owner");
    assert_eq!(b.suggest_attribute("exec", "subcribe")[0], "subscribe");
    assert_eq!(b.suggest_function("incude", false)[0], "include");
    assert!(b
        .suggest_function("merg", false)
        .iter()
        .all(|s| s != "merge"));
    assert!(b
        .suggest_function("merg", true)
        .iter()
        .any(|s| s == "merge"));
    assert_eq!(b.suggest_fact("os.famly"), ["os.family"]);
    assert!(b.suggest_value("nosuch", "ensure", "x").is_empty());
    assert!(b.suggest_type("zzzzzzzz").is_empty());
}

#[test]
fn lookups_never_panic_on_odd_input() {
    let b = builtins();
    for s in [
        "",
        "::",
        ".",
        "..",
        "<interface>",
        "os..family",
        "\u{0}",
        "é",
        "a.b.c.d.e.f.g",
    ] {
        let _ = b.resource_type(s);
        let _ = b.attribute(s, s);
        let _ = b.function(s);
        let _ = b.fact_type(s);
        let _ = b.suggest_fact(s);
        let _ = b.suggest_value("file", "ensure", s);
    }
}

/// Puppet's reference text read from an installation (here in memory:
/// excerpts in the shape of Puppet 7's sources), found where Puppet is
/// installed or in the extra library directory the server passes.
#[test]
fn runtime_docs_from_an_installation() {
    let lib = "/usr/lib/ruby/vendor_ruby/puppet";
    let fs: MemoryFs = [
        (
            format!("{lib}/type/exec.rb"),
            concat!(
                "module Puppet\n",
                "  Type.newtype(:exec) do\n",
                "    @doc = \"Executes external commands.\"\n",
                "    newparam(:command) do\n",
                "      isnamevar\n",
                "      desc \"The actual command to execute.\"\n",
                "    end\n",
                "    newparam(:commandline) do\n",
                "      desc \"Not the command.\"\n",
                "    end\n",
                "  end\n",
                "end\n"
            )
            .to_string(),
        ),
        (
            format!("{lib}/type.rb"),
            "newmetaparam(:notify) do\n    desc <<-'EOT'\n      Changes notify the given resources.\n    EOT\nend\n"
                .to_string(),
        ),
        (
            format!("{lib}/functions/each.rb"),
            "# Runs a lambda repeatedly.\n#\n# @since 4.0.0\nPuppet::Functions.create_function(:each) do\nend\n"
                .to_string(),
        ),
        (
            "/opt/puppet-dev/lib/puppet/parser/functions/sprintf.rb".to_string(),
            "newfunction(:sprintf, :type => :rvalue, :doc => \"Formats a string.\") do |args|\nend\n"
                .to_string(),
        ),
        (
            "/opt/puppet-dev/lib/puppet/type/.keep".to_string(),
            String::new(),
        ),
    ]
    .into_iter()
    .collect();
    let fs: Arc<dyn FileSystem> = Arc::new(fs);
    let docs = DocSource::discover(fs.clone(), Some(PathBuf::from("/opt/puppet-dev/lib")));
    assert!(docs.is_available());
    assert_eq!(
        docs.type_doc("exec").as_deref(),
        Some("Executes external commands.")
    );
    assert_eq!(
        docs.attribute_doc("exec", "command").as_deref(),
        Some("The actual command to execute.")
    );
    assert_eq!(
        docs.attribute_doc("file", "notify").as_deref(),
        Some("Changes notify the given resources."),
        "metaparameters come from type.rb"
    );
    assert_eq!(
        docs.function_doc("each").as_deref(),
        Some("Runs a lambda repeatedly.")
    );
    assert_eq!(
        docs.function_doc("sprintf").as_deref(),
        Some("Formats a string."),
        "3.x functions, from the extra library directory"
    );
    assert_eq!(docs.type_doc("nosuchtype"), None);
    assert_eq!(docs.function_doc("../../etc/passwd"), None);

    let absent = DocSource::discover(Arc::new(MemoryFs::new()), None);
    assert!(!absent.is_available());
    assert_eq!(absent.type_doc("exec"), None);
}

#[test]
#[ignore]
fn print_unparsed_type_strings() {
    let b = builtins();
    for f in b.functions.iter().chain(&b.stdlib_functions) {
        for s in &f.signatures {
            for p in &s.params {
                if let Type::TypeReference(r) = p.ty() {
                    println!("{}: {}", f.name, r);
                }
            }
            if let Type::TypeReference(r) = s.return_type() {
                println!("{} returns {}", f.name, r);
            }
        }
    }
    for t in &b.types {
        for a in t.attributes.iter().chain(&b.metaparameters) {
            if let Some(Type::TypeReference(r)) = a.value_type() {
                println!("{}.{}: {}", t.name, a.name, r);
            }
        }
    }
}
