//! Parameter knowledge: every place a class or defined type parameter
//! shows (its declaration, its uses, `"${x}"` in strings, the attribute
//! that sets it in a resource-like declaration, `$class::x` from outside,
//! attribute-name completion, signature help) tells the same: the declared
//! type (an alias expanded; `Any` only when untyped), the default, where it
//! is declared, its `@param` and `@option`s, and the Hiera data binding it.

mod common;

use common::{fixture_at, Fixture};
use expect_test::{expect, Expect};
use puppet_ide::completion::CompletionKind;

/// A control repository: an environment's Hiera data binding a class
/// parameter, a module with a type alias, a documented class and defined
/// type, and a profile declaring both resource-like.
const REPO: &str = r#"
#- /env/hiera.yaml
version: 5
hierarchy:
  - name: Common
    path: common.yaml
#- /env/data/common.yaml
nginx::listen_port: 8443
#- /env/modules/nginx/types/port.pp
type Nginx::Port = Integer[1, 65535]
#- /env/modules/nginx/manifests/init.pp
# @summary Installs nginx.
#
# @param listen_port
#   The port nginx listens on.
# @param settings Tuning of the main configuration.
# @option settings [Integer] :workers How many worker processes.
# @option settings [String] :user Who runs them.
class nginx(
  Nginx::Port $listen_port = 80,
  Hash $settings = {},
  $log_dir = '/var/log/nginx',
) {
  $banner = "listening on ${listen_port}"
  nginx::vhost { 'default': port => $listen_port }
}
#- /env/modules/nginx/manifests/vhost.pp
# @summary A virtual host.
#
# @param port The port the virtual host answers on.
# @param docroot Where its files are.
define nginx::vhost(
  Optional[Nginx::Port] $port = undef,
  String $docroot = "/var/www/${title}",
) {
  notice($port)
}
#- /env/modules/legacy/manifests/init.pp
# Sets up the legacy service.
#
# [*mode*] How it runs.
class legacy($mode = 'fast') { }
#- /env/modules/profile/manifests/web.pp
class profile::web {
  class { 'nginx': listen_port => 8443, settings => { workers => 4 }, log_dir => '/srv/log' }
  nginx::vhost { 'www': port => 8080, docroot => '/srv/www' }
  class { 'legacy': mode => 'slow' }
  notice($nginx::listen_port)
}
"#;

/// The repository with the cursor `$0` put in place of the first
/// occurrence of `marked` without it.
fn at(marked: &str) -> Fixture {
    let plain = marked.replace("$0", "");
    assert!(REPO.contains(&plain), "{plain} is in the repository");
    fixture_at("/env", &REPO.replacen(&plain, marked, 1))
}

fn check_hover(marked: &str, expect: Expect) {
    let f = at(marked);
    let actual = match puppet_ide::snapshot(&f.host).hover(&f.position).unwrap() {
        Some(h) => format!(
            "{}\n{}",
            f.render(&f.position.path, h.range),
            h.markdown.trim_end()
        ),
        None => "no hover".into(),
    };
    expect.assert_eq(&actual);
}

#[test]
fn hover_on_the_declaration_in_the_class_header() {
    check_hover(
        "  Nginx::Port $li$0sten_port = 80,",
        expect![[r#"
            /env/modules/nginx/manifests/init.pp:9:15 '$listen_port'
            ```puppet
            $listen_port: Nginx::Port
            ```

            ```puppet
            class nginx(
              Nginx::Port $listen_port = 80
            )
            ```

            Expands to `Integer[1, 65535]`

            Parameter `$listen_port` of class `nginx`, declared on line 9 of `/env/modules/nginx/manifests/init.pp`

            The port nginx listens on.

            **Hiera** `nginx::listen_port`: first found wins

            - `data/common.yaml` (environment level *Common*, `data/common.yaml`): `8443`

            The data's values are `Integer`."#]],
    );
}

#[test]
fn hover_on_a_use_in_the_class() {
    check_hover(
        "port => $lis$0ten_port }",
        expect![[r#"
            /env/modules/nginx/manifests/init.pp:14:37 '$listen_port'
            ```puppet
            $listen_port: Nginx::Port
            ```

            ```puppet
            class nginx(
              Nginx::Port $listen_port = 80
            )
            ```

            Expands to `Integer[1, 65535]`

            Parameter `$listen_port` of class `nginx`, declared on line 9 of `/env/modules/nginx/manifests/init.pp`

            The port nginx listens on.

            **Hiera** `nginx::listen_port`: first found wins

            - `data/common.yaml` (environment level *Common*, `data/common.yaml`): `8443`

            The data's values are `Integer`."#]],
    );
}

#[test]
fn hover_on_a_use_inside_a_string() {
    check_hover(
        "\"listening on ${list$0en_port}\"",
        expect![[r#"
            /env/modules/nginx/manifests/init.pp:13:29 'listen_port'
            ```puppet
            $listen_port: Nginx::Port
            ```

            ```puppet
            class nginx(
              Nginx::Port $listen_port = 80
            )
            ```

            Expands to `Integer[1, 65535]`

            Parameter `$listen_port` of class `nginx`, declared on line 9 of `/env/modules/nginx/manifests/init.pp`

            The port nginx listens on.

            **Hiera** `nginx::listen_port`: first found wins

            - `data/common.yaml` (environment level *Common*, `data/common.yaml`): `8443`

            The data's values are `Integer`."#]],
    );
}

#[test]
fn hover_on_the_attribute_of_a_resource_like_class_declaration() {
    check_hover(
        "class { 'nginx': liste$0n_port => 8443",
        expect![[r#"
            /env/modules/profile/manifests/web.pp:2:20 'listen_port'
            ```puppet
            listen_port => Nginx::Port
            ```

            ```puppet
            class nginx(
              Nginx::Port $listen_port = 80
            )
            ```

            Expands to `Integer[1, 65535]`

            Parameter `$listen_port` of class `nginx`, declared on line 9 of `/env/modules/nginx/manifests/init.pp`

            The port nginx listens on.

            **Hiera** `nginx::listen_port`: first found wins

            - `data/common.yaml` (environment level *Common*, `data/common.yaml`): `8443`

            The data's values are `Integer`."#]],
    );
}

#[test]
fn hover_on_an_attribute_with_options() {
    check_hover(
        "settin$0gs => { workers => 4 }",
        expect![[r#"
            /env/modules/profile/manifests/web.pp:2:41 'settings'
            ```puppet
            settings => Hash
            ```

            ```puppet
            class nginx(
              Hash $settings = {}
            )
            ```

            Parameter `$settings` of class `nginx`, declared on line 10 of `/env/modules/nginx/manifests/init.pp`

            Tuning of the main configuration.

            **Options**

            - `workers` `[Integer]`: How many worker processes.
            - `user` `[String]`: Who runs them."#]],
    );
}

#[test]
fn hover_on_an_untyped_attribute_says_any() {
    check_hover(
        "log_d$0ir => '/srv/log'",
        expect![[r#"
        /env/modules/profile/manifests/web.pp:2:71 'log_dir'
        ```puppet
        log_dir => Any
        ```

        ```puppet
        class nginx(
          $log_dir = '/var/log/nginx'
        )
        ```

        Parameter `$log_dir` of class `nginx`, declared on line 11 of `/env/modules/nginx/manifests/init.pp`"#]],
    );
}

#[test]
fn hover_on_the_attribute_of_a_defined_type_declaration() {
    check_hover(
        "nginx::vhost { 'www': po$0rt => 8080",
        expect![[r#"
            /env/modules/profile/manifests/web.pp:3:25 'port'
            ```puppet
            port => Optional[Nginx::Port]
            ```

            ```puppet
            define nginx::vhost(
              Optional[Nginx::Port] $port = undef
            )
            ```

            Expands to `Optional[Nginx::Port = Integer[1, 65535]]`

            Parameter `$port` of defined type `nginx::vhost`, declared on line 6 of `/env/modules/nginx/manifests/vhost.pp`

            The port the virtual host answers on."#]],
    );
}

#[test]
fn hover_on_a_use_in_the_defined_type() {
    check_hover(
        "notice($po$0rt)",
        expect![[r#"
        /env/modules/nginx/manifests/vhost.pp:9:10 '$port'
        ```puppet
        $port: Optional[Nginx::Port]
        ```

        ```puppet
        define nginx::vhost(
          Optional[Nginx::Port] $port = undef
        )
        ```

        Expands to `Optional[Nginx::Port = Integer[1, 65535]]`

        Parameter `$port` of defined type `nginx::vhost`, declared on line 6 of `/env/modules/nginx/manifests/vhost.pp`

        The port the virtual host answers on."#]],
    );
}

#[test]
fn hover_on_the_class_parameter_read_from_outside() {
    check_hover(
        "notice($nginx::listen_p$0ort)",
        expect![[r#"
        /env/modules/profile/manifests/web.pp:5:10 '$nginx::listen_port'
        ```puppet
        $nginx::listen_port: Nginx::Port
        ```

        ```puppet
        class nginx(
          Nginx::Port $listen_port = 80
        )
        ```

        Expands to `Integer[1, 65535]`

        Parameter `$listen_port` of class `nginx`, declared on line 9 of `/env/modules/nginx/manifests/init.pp`

        The port nginx listens on.

        **Hiera** `nginx::listen_port`: first found wins

        - `data/common.yaml` (environment level *Common*, `data/common.yaml`): `8443`

        The data's values are `Integer`."#]],
    );
}

/// A comment in prose (no puppet-strings tags) is shown whole: older
/// modules document their parameters that way.
#[test]
fn hover_on_a_parameter_documented_in_prose() {
    check_hover(
        "class { 'legacy': mo$0de => 'slow' }",
        expect![[r#"
        /env/modules/profile/manifests/web.pp:4:21 'mode'
        ```puppet
        mode => Any
        ```

        ```puppet
        class legacy(
          $mode = 'fast'
        )
        ```

        Parameter `$mode` of class `legacy`, declared on line 4 of `/env/modules/legacy/manifests/init.pp`

        Sets up the legacy service.

        [*mode*] How it runs."#]],
    );
}

/// The attribute's type definition is the declared type's alias.
#[test]
fn type_definition_of_an_attribute_is_its_declared_type() {
    for marked in [
        "class { 'nginx': liste$0n_port => 8443",
        "nginx::vhost { 'www': po$0rt => 8080",
    ] {
        let f = at(marked);
        let targets = puppet_ide::snapshot(&f.host)
            .goto_type_definition(&f.position)
            .unwrap();
        let shown: Vec<String> = targets
            .iter()
            .map(|t| format!("{}:{:?}", t.path.display(), t.kind))
            .collect();
        assert_eq!(
            shown,
            ["/env/modules/nginx/types/port.pp:TypeAlias"],
            "{marked}"
        );
    }
}

/// Documentation lines indented under their item, blank ones left blank.
fn indented(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                "\n".to_string()
            } else {
                format!("    {l}\n")
            }
        })
        .collect()
}

/// The parameter items completed in the resource body `body` (with `$0`)
/// put in place of `written` in the repository.
fn check_completion(written: &str, body: &str, expect: Expect) {
    assert!(REPO.contains(written), "{written} is in the repository");
    let f = fixture_at("/env", &REPO.replacen(written, body, 1));
    let mut items = puppet_ide::snapshot(&f.host)
        .completions(&f.position)
        .unwrap();
    items.retain(|i| i.kind == CompletionKind::Parameter);
    items.sort_by(|a, b| (&a.sort_text, &a.label).cmp(&(&b.sort_text, &b.label)));
    let actual: String = items
        .iter()
        .map(|i| {
            format!(
                "{} : {}\n{}",
                i.label,
                i.detail.as_deref().unwrap_or("-"),
                indented(i.documentation.as_deref().unwrap_or_default())
            )
        })
        .collect();
    expect.assert_eq(&actual);
}

#[test]
fn completion_of_a_class_declarations_attributes() {
    check_completion(
        "class { 'nginx': listen_port => 8443, settings => { workers => 4 }, log_dir => '/srv/log' }",
        "class { 'nginx': $0 }",
        expect![[r#"
            listen_port : Nginx::Port = 80
                The port nginx listens on.

                Nginx::Port expands to Integer[1, 65535]

                Bound in Hiera by nginx::listen_port
            log_dir : Any = '/var/log/nginx'
            settings : Hash = {}
                Tuning of the main configuration.

                Option workers [Integer]: How many worker processes.

                Option user [String]: Who runs them.
        "#]],
    );
}

#[test]
fn completion_of_a_defined_type_declarations_attributes() {
    check_completion(
        "nginx::vhost { 'www': port => 8080, docroot => '/srv/www' }",
        "nginx::vhost { 'www':\n    $0\n  }",
        expect![[r#"
            docroot : String = "/var/www/${title}"
                Where its files are.
            port : Optional[Nginx::Port] = undef
                The port the virtual host answers on.

                Optional[Nginx::Port] expands to Optional[Nginx::Port = Integer[1, 65535]]
        "#]],
    );
}

fn check_signature_help(marked: &str, expect: Expect) {
    let f = at(marked);
    let help = puppet_ide::snapshot(&f.host)
        .signature_help(&f.position)
        .unwrap()
        .expect("signature help");
    let mut actual = String::new();
    for (i, signature) in help.signatures.iter().enumerate() {
        actual += &format!("{}\n", signature.label);
        actual += &indented(signature.documentation.as_deref().unwrap_or_default());
        for (j, p) in signature.parameters.iter().enumerate() {
            let (a, z) = p.label_range_in_signature_label;
            let active = i == help.active_signature && help.active_parameter == Some(j);
            actual += &format!(
                "{} {}\n",
                if active { "*" } else { "-" },
                &signature.label[a..z]
            );
            actual += &indented(p.documentation.as_deref().unwrap_or_default());
        }
    }
    expect.assert_eq(&actual);
}

#[test]
fn signature_help_in_a_class_declaration() {
    check_signature_help(
        "listen_port => 84$043",
        expect![[r#"
        nginx(Nginx::Port $listen_port = 80, Hash $settings = {}, $log_dir = '/var/log/nginx')
            Installs nginx.
        * Nginx::Port $listen_port = 80
            The port nginx listens on.

            Nginx::Port expands to Integer[1, 65535]

            Bound in Hiera by nginx::listen_port
        - Hash $settings = {}
            Tuning of the main configuration.

            Option workers [Integer]: How many worker processes.

            Option user [String]: Who runs them.
        - $log_dir = '/var/log/nginx'
    "#]],
    );
}

#[test]
fn signature_help_in_a_defined_type_declaration() {
    check_signature_help(
        "port => 80$080",
        expect![[r#"
        nginx::vhost(Optional[Nginx::Port] $port = undef, String $docroot = "/var/www/${title}")
            A virtual host.
        * Optional[Nginx::Port] $port = undef
            The port the virtual host answers on.

            Optional[Nginx::Port] expands to Optional[Nginx::Port = Integer[1, 65535]]
        - String $docroot = "/var/www/${title}"
            Where its files are.
    "#]],
    );
}

/// The parameter completed as a variable: in its definition (`$li`) and
/// from outside (`$nginx::`), with the same documentation.
#[test]
fn completion_of_parameters_as_variables() {
    check_completion(
        "$banner = \"listening on ${listen_port}\"",
        "$banner = $$0",
        expect![[r#"
            $listen_port : Nginx::Port
                The port nginx listens on.

                Nginx::Port expands to Integer[1, 65535]

                Bound in Hiera by nginx::listen_port
            $log_dir : -
            $settings : Hash
                Tuning of the main configuration.

                Option workers [Integer]: How many worker processes.

                Option user [String]: Who runs them.
        "#]],
    );
    check_completion(
        "notice($nginx::listen_port)",
        "notice($nginx::$0)",
        expect![[r#"
            $nginx::listen_port : Nginx::Port
                The port nginx listens on.

                Nginx::Port expands to Integer[1, 65535]

                Bound in Hiera by nginx::listen_port
            $nginx::log_dir : -
            $nginx::settings : Hash
                Tuning of the main configuration.

                Option workers [Integer]: How many worker processes.

                Option user [String]: Who runs them.
        "#]],
    );
}

/// Every request at every offset of the repository's manifests answers
/// without a panic, and every offset inside a parameter's name (its
/// declaration, its uses, the attributes setting it) hovers with its
/// knowledge.
#[test]
fn every_offset_answers() {
    let f = fixture_at("/env", &format!("{REPO}#- /env/cursor.pp\n$0\n"));
    let analysis = puppet_ide::snapshot(&f.host);
    let mut parameter_hovers = 0;
    for (path, text) in &f.texts {
        if path.extension().is_none_or(|e| e != "pp") {
            continue;
        }
        for offset in 0..=text.len() as u32 + 1 {
            let pos = puppet_ide::FilePosition {
                path: path.clone(),
                offset: offset.into(),
            };
            let hover = analysis.hover(&pos).unwrap();
            analysis.completions(&pos).unwrap();
            analysis.signature_help(&pos).unwrap();
            analysis.goto_type_definition(&pos).unwrap();
            if hover.is_some_and(|h| h.markdown.contains("\nParameter `$")) {
                parameter_hovers += 1;
            }
        }
    }
    expect!["152"].assert_eq(&parameter_hovers.to_string());
}
