//! Data flows one way (the crate doc in `src/lib.rs`, "Layout"): bytes → record → engine → replay → outputs. A
//! top-level module may name only the modules before it in `LAYERS`, so the import graph has no
//! cycle and nothing reaches downstream.

use crate::use_graph::UseGraph;
use std::collections::BTreeSet;
use std::path::Path;

/// Upstream first. A module may import any module of an earlier layer.
const LAYERS: &[&[&str]] = &[
    &["engine"],
    &["record"],
    &["replay", "selfplay"],
    &["analysis", "export", "render", "store"],
    &["queue"],
    &["web"],
    &["cli"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// Calls `f` with every `.rs` file under `dir`.
pub(crate) fn each_rust_file(dir: &Path, f: &mut impl FnMut(&Path)) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            each_rust_file(&path, f);
        } else if path.extension().is_some_and(|e| e == "rs") {
            f(&path);
        }
    }
}

/// Every top-level module `crate::…` names in one file (a module may be a lone `src/x.rs`).
fn named_in(path: &Path, out: &mut BTreeSet<String>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    for (i, _) in text.match_indices("crate::") {
        let name: String = text[i + 7..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        out.insert(name);
    }
}

#[test]
fn modules_import_only_upstream() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut wrong = Vec::new();
    for (layer, modules) in LAYERS.iter().enumerate() {
        for module in *modules {
            let mut named = BTreeSet::new();
            let dir = src.join(module);
            match dir.is_dir() {
                true => each_rust_file(&dir, &mut |path| named_in(path, &mut named)),
                false => named_in(&src.join(format!("{module}.rs")), &mut named),
            }
            for other in named.iter().filter(|n| n.as_str() != *module) {
                match layer_of(other) {
                    Some(l) if l < layer => {}
                    Some(_) => wrong.push(format!("{module} imports {other}, which is not upstream of it")),
                    None => {}
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_top_level_module_has_a_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let declared: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod ")?.strip_suffix(';'))
        .collect();
    assert!(declared.len() >= 9, "lib.rs declares {declared:?}");
    for module in declared {
        assert!(layer_of(module).is_some(), "{module} is in no layer of this test");
    }
}

/// The crate's public API is its layers, the record and export formats, the Card Game's
/// namespaces, the colours, `web::startup` and the analysis modules whose items read by their
/// module's name (`analysis::cards::analyse_game`, `report`'s types, `cards::Report`,
/// `budget::plan`, `puzzles::pick`); everything else is private behind re-exports at a layer's
/// root (the crate doc, "Layout"). A new `pub mod` must justify raising this ceiling (30: the
/// analysis queue became a layer of its own, `queue`);
/// privatising one should lower it.
const MOST_PUBLIC_MODULES: usize = 30;

/// Every `pub mod` declared in the file at `path`, as `file: name`.
fn public_modules(path: &Path, out: &mut Vec<String>) {
    let text = std::fs::read_to_string(path).unwrap();
    let names = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod ")?.strip_suffix(';'));
    out.extend(names.map(|name| format!("{}: {name}", path.display())));
}

#[test]
fn public_modules_stay_few() {
    let mut public = Vec::new();
    each_rust_file(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut |path| {
        public_modules(path, &mut public)
    });
    assert!(
        public.len() <= MOST_PUBLIC_MODULES,
        "{} public modules, more than {MOST_PUBLIC_MODULES}: make the new ones private and \
         re-export what is used outside\n{}",
        public.len(),
        public.join("\n")
    );
}

/// The analysis's and the web's `mod.rs` declare their modules and name what the crate uses,
/// and define nothing: an item defined there would be imported by the files below it, an arrow
/// pointing back up (the analysis had 15 such arrows when `mod.rs` held the turn analysis, its
/// options, the recheck and the thread pool; the web 24 when its `mod.rs` held `AppState`).
#[test]
fn the_analysis_and_web_mod_rs_define_nothing_their_files_import() {
    let defining = [
        "fn ", "struct ", "enum ", "const ", "static ", "type ", "trait ", "impl ", "impl<",
    ];
    for module in ["analysis", "web"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("src/{module}/mod.rs"));
        let text = std::fs::read_to_string(path).unwrap();
        let defined: Vec<&str> = (text.lines())
            .map(str::trim_start)
            .filter(|l| !l.starts_with("//"))
            .map(|l| l.strip_prefix("pub(crate) ").or(l.strip_prefix("pub ")).unwrap_or(l))
            .filter(|l| defining.iter().any(|d| l.starts_with(d)))
            .collect();
        assert!(defined.is_empty(), "src/{module}/mod.rs defines {defined:?}");
    }
}

/// Imports that point back up inside `analysis` and inside `web`, at most this many each: in
/// the graph of the items each file names from the module's other files ([`UseGraph`]), the
/// fewest arrows that point up in any order of the files with the module's `mod.rs` on top.
/// Every arrow into that `mod.rs` counts, and only a cycle among the others forces one more.
/// At this writing: the analysis 3, the web 2.
const MOST_ARROWS_BACK_UP: usize = 5;

#[test]
fn few_imports_point_back_up_inside_the_analysis_and_the_web() {
    for module in ["analysis", "web"] {
        let graph = UseGraph::of(module);
        let up = graph.arrows_back_up();
        assert!(
            up.len() <= MOST_ARROWS_BACK_UP,
            "src/{module}: {} imports point back up (at most {MOST_ARROWS_BACK_UP}):\n{}",
            up.len(),
            up.join("\n")
        );
    }
}
