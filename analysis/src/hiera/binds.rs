//! Whether Hiera can give a key a value, as automatic parameter lookup
//! asks for a class parameter (`ntp::servers`): the keys of the data files
//! some hierarchy level can read, per layer. A layer answering the key is
//! Puppet's global layer (when the user configures it), an environment's,
//! and the layer of the module whose namespace the key is in.
//!
//! A level reads the files its paths can name on some node: each
//! interpolation stands for any text within one path segment
//! (`nodes/%{trusted.certname}.yaml` reads every `nodes/*.yaml`), except
//! a legacy fact the target Puppet does not receive, which Hiera
//! interpolates as an empty string (see [`Level::target_files`]). A file
//! no level reads binds nothing.
//!
//! What puppet-ls cannot see makes the answer unknown rather than "not
//! bound": a level with a custom backend or a `uri`, data outside the
//! layer's directory, a data file that does not parse, a `hiera.yaml`
//! Puppet reads that is not a Hiera 5 one puppet-ls resolves (version 4,
//! or broken), a module's Puppet 4 `data_provider` in `metadata.json`.
//!
//! [`Level::target_files`]: super::layers::Level::target_files

use super::data::{data_document, data_file_keys};
use super::layers::{data_files_by_path, hiera_config, hiera_layers, LayerKind};
use crate::db::{MetadataFile, Workspace};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// What Hiera's data can do for a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyData {
    /// A data file that a level of a layer answering the key can read
    /// binds it (on some node).
    Bound,
    /// A layer answering the key may find data puppet-ls cannot see.
    Unknown,
    /// Nothing a layer answering the key can read binds it.
    Unbound,
}

/// The keys the levels of one or more layers can read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Reachable {
    keys: BTreeSet<String>,
    /// Some of their data is out of puppet-ls's sight.
    opaque: bool,
}

/// The keys Hiera's layers can read on a node of the target Puppet.
/// Position-free: editing a value changes nothing here.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HieraData {
    /// The global layer's and the environments' layers', which answer
    /// every key.
    shared: Reachable,
    /// Each module's layer, by the module's name: it answers the keys of
    /// its namespace.
    modules: BTreeMap<String, Reachable>,
    /// Whether the workspace is one or more environments, each with a
    /// Hiera 5 `hiera.yaml`: see [`HieraData::environment_data_present`].
    environments_with_hiera: bool,
}

impl HieraData {
    /// What the layers answering `key` (a leading `::` dropped) can give it.
    pub fn key(&self, key: &str) -> KeyData {
        let key = key.trim_start_matches("::");
        let module = key.split_once("::").map(|(first, _)| first);
        let layers = std::iter::once(&self.shared).chain(module.and_then(|m| self.modules.get(m)));
        let mut opaque = false;
        for layer in layers {
            if layer.keys.contains(key) {
                return KeyData::Bound;
            }
            opaque |= layer.opaque;
        }
        if opaque {
            KeyData::Unknown
        } else {
            KeyData::Unbound
        }
    }

    /// Whether the workspace holds the data its nodes' environment layer
    /// reads: it is one or more environments (control repositories), each
    /// with a Hiera 5 `hiera.yaml`. Otherwise (a module or a directory of
    /// modules; an environment without `hiera.yaml`, whose data then comes
    /// from the global layer that Puppet's own `hiera.yaml` configures
    /// outside every environment) the data binding classes' parameters is
    /// normally elsewhere.
    pub fn environment_data_present(&self) -> bool {
        self.environments_with_hiera
    }
}

#[salsa::tracked(returns(ref))]
pub fn hiera_data(db: &dyn salsa::Database, workspace: Workspace) -> HieraData {
    let mut out = HieraData::default();
    let layers = hiera_layers(db, workspace);
    for layer in layers {
        let reachable = match &layer.kind {
            LayerKind::Global | LayerKind::Environment => &mut out.shared,
            LayerKind::Module(name) => out.modules.entry(name.clone()).or_default(),
        };
        for level in layer.all_levels() {
            reachable.opaque |= !level.readable;
            for &file in &level.target_files {
                reachable.opaque |= !data_document(db, file).errors.is_empty();
                reachable
                    .keys
                    .extend(data_file_keys(db, file).iter().cloned());
            }
        }
    }
    // A `hiera.yaml` that makes no layer: Puppet ignores a version 3 file
    // outside the global layer (or fails on it), and reads a version 4
    // one, which puppet-ls does not resolve; a broken one fails lookups.
    let configs = data_files_by_path(db, workspace);
    let layout = workspace.layout(db);
    let has_layer = |config: &Path| layers.iter().any(|l| l.config.path(db) == config);
    let unresolved = |root: &Path, global: bool| -> Option<bool> {
        let path: PathBuf = if global {
            root.to_path_buf()
        } else {
            root.join("hiera.yaml")
        };
        let &file = configs.get(path.as_path())?;
        if has_layer(&path) {
            return None;
        }
        let config = hiera_config(db, file);
        let ignored = !global
            && config.syntax_errors.is_empty()
            && config.problems.iter().any(|p| p.version_3);
        Some(!ignored)
    };
    if let Some(global) = &layout.global_hiera {
        out.shared.opaque |= unresolved(global, true).unwrap_or(false);
    }
    for root in &layout.environments {
        out.shared.opaque |= unresolved(root, false).unwrap_or(false);
    }
    let metadata: BTreeMap<&Path, MetadataFile> = workspace
        .metadata_files(db)
        .iter()
        .map(|&f| (f.path(db).as_path(), f))
        .collect();
    for module in &layout.modules {
        let opaque = match unresolved(&module.root, false) {
            Some(opaque) => opaque,
            // Without a Hiera 5 `hiera.yaml`, Puppet 4's `data_provider`
            // (`hiera` or `function`) gives the module data.
            None if !out.modules.contains_key(&module.name) => metadata
                .get(module.root.join("metadata.json").as_path())
                .and_then(|&file| data_provider(db, file).as_deref())
                .is_some_and(|provider| provider != "none"),
            None => false,
        };
        if opaque {
            out.modules.entry(module.name.clone()).or_default().opaque = true;
        }
    }
    out.environments_with_hiera = !layout.environments.is_empty()
        && layout.environments.iter().all(|root| {
            layers
                .iter()
                .any(|l| l.kind == LayerKind::Environment && &l.root == root)
        });
    out
}

/// A module's `data_provider` in its `metadata.json` (Puppet 4's module
/// data, deprecated): `hiera` or `function` give the module data when it
/// has no Hiera 5 `hiera.yaml`. `None` when the key is absent, `null` or
/// not a string.
#[salsa::tracked(returns(ref))]
fn data_provider(db: &dyn salsa::Database, file: MetadataFile) -> Option<String> {
    let json: serde_json::Value = serde_json::from_str(file.text(db)).ok()?;
    json.get("data_provider")?.as_str().map(String::from)
}

/// Why a key some data file binds is out of reach on the target Puppet:
/// the name of a level that can name the file on some node but not on a
/// node of the target (its path interpolates a legacy fact the target does
/// not receive), when there is one.
pub fn unreceived_level(
    db: &dyn salsa::Database,
    workspace: Workspace,
    key: &str,
) -> Option<String> {
    let key = key.trim_start_matches("::");
    let files = super::data::hiera_key_index(db, workspace).get(key)?;
    hiera_layers(db, workspace)
        .iter()
        .filter(|layer| layer.answers(key))
        .flat_map(|layer| layer.all_levels())
        .find(|level| {
            files
                .iter()
                .any(|f| level.files.contains(f) && !level.target_files.contains(f))
        })
        .map(|level| level.name.clone())
}

#[cfg(test)]
mod tests {
    use super::{hiera_data, KeyData};
    use crate::host::AnalysisHost;
    use crate::target::{PuppetVersion, Target};

    fn data(version: PuppetVersion, fixture: &str) -> Vec<(String, KeyData)> {
        let mut host = AnalysisHost::discover_fixture("/env", fixture);
        host.set_target(Target::of(version), "the test's");
        let analysis = host.analysis();
        let data = hiera_data(analysis.db(), analysis.workspace());
        ["m::a", "m::b", "m::c", "m::d", "n::a"]
            .iter()
            .map(|k| (k.to_string(), data.key(k)))
            .collect()
    }

    const LEVELS: &str = "#- /env/manifests/site.pp\ninclude m\n\
        #- /env/hiera.yaml\nversion: 5\nhierarchy:\n  - name: OS\n    path: os/%{facts.osfamily}.yaml\n  - name: Top\n    path: top/%{::osfamily}-%{facts.os.release.major}.yaml\n  - name: Nodes\n    path: nodes/%{trusted.certname}.yaml\n  - name: Common\n    path: common.yaml\n\
        #- /env/data/os/Debian.yaml\nm::a: 1\n\
        #- /env/data/top/Debian-12.yaml\nm::b: 1\n\
        #- /env/data/top/-12.yaml\nm::d: 1\n\
        #- /env/data/nodes/web01.yaml\nm::c: 1\n\
        #- /env/data/unread.yaml\nn::a: 1\n\
        #- /env/modules/m/manifests/init.pp\nclass m {}\n";

    #[test]
    fn legacy_fact_levels_read_nothing_on_puppet_8() {
        use KeyData::*;
        let bound = |keys: &[(&str, KeyData)]| -> Vec<(String, KeyData)> {
            keys.iter().map(|(k, d)| (k.to_string(), *d)).collect()
        };
        assert_eq!(
            data(PuppetVersion::V7, LEVELS),
            bound(&[
                ("m::a", Bound),
                ("m::b", Bound),
                ("m::c", Bound),
                ("m::d", Bound),
                ("n::a", Unbound)
            ])
        );
        // `top/%{::osfamily}-12.yaml` is `top/-12.yaml` on Puppet 8.
        assert_eq!(
            data(PuppetVersion::V8, LEVELS),
            bound(&[
                ("m::a", Unbound),
                ("m::b", Unbound),
                ("m::c", Bound),
                ("m::d", Bound),
                ("n::a", Unbound)
            ])
        );
    }

    #[test]
    fn mapping_a_legacy_fact_reads_nothing_on_puppet_8() {
        use KeyData::*;
        let mapped = "#- /env/manifests/site.pp\ninclude m\n\
            #- /env/hiera.yaml\nversion: 5\nhierarchy:\n  - name: Mapped\n    mapped_paths: [osfamily, family, 'os/%{family}.yaml']\n  - name: Globbed\n    glob: 'globbed/%{facts.osfamily}-*.yaml'\n\
            #- /env/data/os/Debian.yaml\nm::a: 1\n\
            #- /env/data/globbed/Debian-extra.yaml\nm::b: 1\n\
            #- /env/data/globbed/-extra.yaml\nm::c: 1\n\
            #- /env/modules/m/manifests/init.pp\nclass m {}\n";
        let keys = |version| -> Vec<KeyData> {
            data(version, mapped)[..3].iter().map(|(_, d)| *d).collect()
        };
        assert_eq!(keys(PuppetVersion::V7), [Bound, Bound, Bound]);
        assert_eq!(keys(PuppetVersion::V8), [Unbound, Unbound, Bound]);
    }

    #[test]
    fn unseen_data_is_unknown() {
        use KeyData::*;
        let custom = "#- /env/manifests/site.pp\ninclude m\n\
            #- /env/hiera.yaml\nversion: 5\nhierarchy:\n  - name: Vault\n    lookup_key: vault_lookup\n    uri: vault://x\n\
            #- /env/modules/m/manifests/init.pp\nclass m {}\n";
        assert_eq!(data(PuppetVersion::V7, custom)[0].1, Unknown);
        let outside = "#- /env/manifests/site.pp\ninclude m\n\
            #- /env/hiera.yaml\nversion: 5\ndefaults:\n  datadir: /etc/puppetlabs/data\nhierarchy:\n  - name: Common\n    path: common.yaml\n\
            #- /env/modules/m/manifests/init.pp\nclass m {}\n";
        assert_eq!(data(PuppetVersion::V7, outside)[0].1, Unknown);
        let broken = "#- /env/manifests/site.pp\ninclude m\n\
            #- /env/hiera.yaml\nversion: 5\nhierarchy:\n  - name: Common\n    path: common.yaml\n\
            #- /env/data/common.yaml\nm::a: [1\n\
            #- /env/modules/m/manifests/init.pp\nclass m {}\n";
        assert_eq!(data(PuppetVersion::V7, broken)[0].1, Unknown);
        // A module's custom backend is unknown for its own keys only.
        let module = "#- /env/manifests/site.pp\ninclude m\n\
            #- /env/hiera.yaml\nversion: 5\nhierarchy:\n  - name: Common\n    path: common.yaml\n\
            #- /env/modules/m/hiera.yaml\nversion: 5\nhierarchy:\n  - name: Fn\n    data_hash: m::data\n\
            #- /env/modules/m/manifests/init.pp\nclass m {}\n";
        let found = data(PuppetVersion::V7, module);
        assert_eq!((found[0].1, found[4].1), (Unknown, Unbound));
        // Puppet 4's module data.
        let provider = "#- /env/manifests/site.pp\ninclude m\n\
            #- /env/modules/m/metadata.json\n{\"name\": \"a-m\", \"version\": \"1.0.0\", \"author\": \"a\", \"license\": \"x\", \"source\": \"x\", \"dependencies\": [], \"data_provider\": \"function\"}\n\
            #- /env/modules/m/manifests/init.pp\nclass m {}\n";
        assert_eq!(data(PuppetVersion::V7, provider)[0].1, Unknown);
    }
}
