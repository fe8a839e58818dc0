//! Hiera's cost in a large control repository (generated: 300 classes of
//! 8 parameters, 400 node files, 12 OS files and common data binding them,
//! about 40,000 bindings): the first analysis of the data (layers, key
//! index, every data file's diagnostics), and hover on a class parameter
//! with its data after an edit elsewhere (what an editor asks), as p50/p95.
//!
//! Run: `cargo bench -p puppet-ide --bench hiera`

use puppet_analysis::host::AnalysisHost;
use puppet_ide::FilePosition;
use puppet_syntax::TextSize;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const CLASSES: usize = 300;
const PARAMS: usize = 8;
const NODES: usize = 400;

fn workspace() -> Vec<(PathBuf, String)> {
    let mut files = vec![
        (PathBuf::from("/env/manifests/site.pp"), "include profile::c0\n".to_string()),
        (
            PathBuf::from("/env/hiera.yaml"),
            "version: 5\nhierarchy:\n  - name: Nodes\n    path: \"nodes/%{trusted.certname}.yaml\"\n  - name: OS\n    path: \"os/%{facts.os.family}.yaml\"\n  - name: Common\n    path: common.yaml\n".to_string(),
        ),
    ];
    for c in 0..CLASSES {
        let params: Vec<String> = (0..PARAMS)
            .map(|p| format!("Integer $p{p} = {p}"))
            .collect();
        files.push((
            PathBuf::from(format!("/env/site/profile/manifests/c{c}.pp")),
            format!(
                "class profile::c{c}(\n  {},\n) {{\n  notice($p0)\n}}\n",
                params.join(",\n  ")
            ),
        ));
    }
    let keys = |stride: usize, offset: usize| -> String {
        (0..CLASSES)
            .step_by(stride)
            .flat_map(|c| {
                (0..PARAMS).map(move |p| {
                    format!("profile::c{}::p{p}: {}\n", (c + offset) % CLASSES, c + p)
                })
            })
            .collect()
    };
    files.push((PathBuf::from("/env/data/common.yaml"), keys(1, 0)));
    for os in 0..12 {
        files.push((
            PathBuf::from(format!("/env/data/os/os{os}.yaml")),
            keys(2, os),
        ));
    }
    for node in 0..NODES {
        files.push((
            PathBuf::from(format!("/env/data/nodes/n{node}.example.com.yaml")),
            keys(25, node),
        ));
    }
    files
}

fn percentile(times: &mut [Duration], p: f64) -> Duration {
    times.sort();
    times[((times.len() - 1) as f64 * p).round() as usize]
}

/// The Debian corpus's Hiera files: reading them and their first
/// diagnostics, after the Puppet sources are loaded (what start-up adds).
fn corpus() {
    let root = PathBuf::from("/usr/share/puppet/modules");
    if !root.is_dir() {
        println!("corpus: not installed, skipped");
        return;
    }
    let mut best = Duration::MAX;
    let mut count = 0;
    for _ in 0..5 {
        let host = AnalysisHost::from_paths(&puppet_vfs::DiskFs, std::slice::from_ref(&root));
        let analysis = host.analysis();
        let data: Vec<PathBuf> = analysis
            .workspace()
            .data_files(analysis.db())
            .iter()
            .map(|f| f.path(analysis.db()).clone())
            .collect();
        let start = Instant::now();
        for path in &data {
            std::hint::black_box(host.diagnostics(path).len());
        }
        best = best.min(start.elapsed());
        count = data.len();
    }
    println!("corpus: {count} Hiera files checked in {best:.1?} (best of 5)");
}

fn main() {
    corpus();
    let files = workspace();
    let data_files = files
        .iter()
        .filter(|(p, _)| p.starts_with("/env/data"))
        .count();
    let without_data: Vec<(PathBuf, String)> = files
        .iter()
        .filter(|(p, _)| !p.starts_with("/env/data") && !p.ends_with("hiera.yaml"))
        .cloned()
        .collect();
    let load = |files: Vec<(PathBuf, String)>| {
        let start = Instant::now();
        let host = AnalysisHost::discover_files("/env", files);
        let count: usize = host
            .paths()
            .map(Path::to_path_buf)
            .collect::<Vec<_>>()
            .iter()
            .map(|p| host.diagnostics(p).len())
            .sum();
        (host, start.elapsed(), count)
    };
    let mut best = [Duration::MAX; 2];
    for _ in 0..3 {
        let (_, plain, _) = load(without_data.clone());
        let (_, with, _) = load(files.clone());
        best[0] = best[0].min(plain);
        best[1] = best[1].min(with);
    }
    println!(
        "first check: {:.1?} without Hiera, {:.1?} with {data_files} data files (+{:.1?})",
        best[0],
        best[1],
        best[1].saturating_sub(best[0])
    );

    let mut host = AnalysisHost::discover_files("/env", files);
    let mut times = Vec::new();
    for round in 0..200 {
        let c = (round * 7) % CLASSES;
        let path = PathBuf::from(format!("/env/site/profile/manifests/c{c}.pp"));
        // An edit elsewhere first, as when typing in another file.
        let other = PathBuf::from(format!(
            "/env/site/profile/manifests/c{}.pp",
            (c + 1) % CLASSES
        ));
        let text = host.text(&other).expect("a class file").to_string();
        host.set_file(
            &other,
            text.replace("notice($p0)", &format!("notice($p0, {round})")),
        );
        let text = host.text(&path).expect("a class file");
        let offset = text.find("$p3").expect("a parameter") + 1;
        let position = FilePosition {
            path,
            offset: TextSize::from(offset as u32),
        };
        let start = Instant::now();
        let hover = puppet_ide::snapshot(&host)
            .hover(&position)
            .expect("not cancelled")
            .expect("a hover");
        times.push(start.elapsed());
        assert!(hover.markdown.contains("**Hiera**"), "{}", hover.markdown);
    }
    println!(
        "hover on a class parameter with data: p50 {:.2?}, p95 {:.2?} ({} hovers)",
        percentile(&mut times, 0.5),
        percentile(&mut times, 0.95),
        times.len()
    );
}
