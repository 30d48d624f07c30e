//! The house is one-way: a module may use only its own layer and the layers below it.
//!
//! ```text
//!  bot                       haifu's players at an mjai table
//!  sim                       self-play engine and bots
//!  report / stats            markdown reports, player statistics, log studies
//!  fit / eval                ranking losses and L-BFGS; evaluators and agreement
//!  model                     weights file, gates, the linear evaluator
//!  dataset                   option rows, ingest, parquet
//!  features                  feature families of a seat's View (the option row's catalog)
//!  rank                      evaluators: position, ukeire, expected value, paijia, push/fold, yaku
//!  replay / convert          table state machine, rules, View, decisions, re-scoring; convert
//!  log / batch               typed events, readers, sources; per-file batch runs
//!  core: tile, hand, score   (testdata: where the tests find ../shared)
//!  util                      atomic writes, rates, placements, markdown, plots
//! ```
//!
//! The binary (`main.rs` and its `cli/` modules, one per command) ranks above them all, beside
//! the Python package (`python/src/`, pyo3 bindings): both are interfaces that only wire the
//! library, so the library never names them, and the bindings reach the library through its
//! public paths only (`haifu::…`, each into a layer this test knows).
//!
//! The test reads every source file under `src/`, collects each `crate::…` path it names (in `use`
//! trees, braces expanded, and inline), and fails on any path into a higher layer. There is no
//! exception list: a back-edge is fixed by moving the code, not by listing it here. A second test
//! fails on any import cycle between modules (a module using its own submodules does not count).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Layer rank of a top-level module; higher may use lower.
fn layer(top: &str) -> Option<u8> {
    Some(match top {
        "util" => 0,
        "tile" | "hand" | "score" | "gbdt" | "testdata" => 1,
        "log" | "batch" => 2,
        "replay" | "convert" => 3,
        "rank" => 4,
        "features" => 5,
        "dataset" => 6,
        "model" => 7,
        "fit" | "eval" => 8,
        "report" | "stats" => 9,
        "sim" => 10,
        "bot" => 11,
        // `cli/` is the binary's own modules (declared by main.rs), one file per command.
        "main" | "cli" | "lib" => 12,
        _ => return None,
    })
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("src readable") {
        let p = e.expect("dir entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Strips `//` comments (doc comments name paths in prose and links; they are not imports).
fn code_only(src: &str) -> String {
    src.lines().map(|l| l.find("//").map_or(l, |i| &l[..i])).collect::<Vec<_>>().join("\n")
}

/// Expands a use tree such as `a::{b, c::{d, e}}` into `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else { return vec![tree.to_string()] };
    let prefix = &tree[..open];
    let body = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let (mut parts, mut depth, mut cur) = (Vec::new(), 0, String::new());
    for ch in body.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        if ch == ',' && depth == 0 {
            parts.push(std::mem::take(&mut cur));
        } else {
            cur.push(ch);
        }
    }
    parts.push(cur);
    parts
        .iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(|p| expand(p).into_iter().map(move |x| format!("{prefix}{x}")))
        .collect()
}

/// Every `crate::` path named in a source text.
fn crate_paths(src: &str) -> BTreeSet<String> {
    let code = code_only(src);
    let mut out = BTreeSet::new();
    let mut rest = code.as_str();
    while let Some(i) = rest.find("use crate::") {
        let after = &rest[i + "use crate::".len()..];
        let end = after.find(';').unwrap_or(after.len());
        for p in expand(&after[..end]) {
            out.insert(p);
        }
        rest = &after[end..];
    }
    let mut rest = code.as_str();
    while let Some(i) = rest.find("crate::") {
        let after = &rest[i + "crate::".len()..];
        let end = after.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(after.len());
        if end > 0 {
            out.insert(after[..end].to_string());
        }
        rest = &after[end..];
    }
    out
}

#[test]
fn no_module_uses_a_higher_layer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files.sort();
    let mut violations = Vec::new();
    let mut unknown = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&root).unwrap();
        let top = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        let Some(own) = layer(&top) else {
            unknown.push(rel.display().to_string());
            continue;
        };
        let src = std::fs::read_to_string(f).unwrap();
        for p in crate_paths(&src) {
            let target = p.split("::").next().unwrap_or("").trim().to_string();
            match layer(&target) {
                Some(l) if l > own => violations.push(format!("{} uses crate::{p}", rel.display())),
                Some(_) => {}
                // A crate-root item (a macro, a re-export) or a typo the compiler will catch.
                None => {}
            }
        }
    }
    assert!(files.len() > 50, "found only {} source files under {}", files.len(), root.display());
    assert!(unknown.is_empty(), "top-level modules with no layer (add them to `layer`): {unknown:?}");
    assert!(violations.is_empty(), "imports into a higher layer:\n{}", violations.join("\n"));
}

/// The Python bindings (`python/src/`) are an interface like `cli/`: the library never mentions
/// pyo3 or the bindings, and every `haifu::` path of the bindings goes into a layer `layer` ranks
/// (a module added to the library gets its rank before the bindings use it). Their functions
/// stay under 120 lines like the library's.
#[test]
fn python_bindings_are_an_interface_layer() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut lib = Vec::new();
    rust_files(&manifest.join("src"), &mut lib);
    for f in &lib {
        let code = code_only(&std::fs::read_to_string(f).unwrap());
        assert!(
            !code.contains("pyo3") && !code.contains("_haifu"),
            "{} names the Python bindings",
            f.display()
        );
    }
    let mut bindings = Vec::new();
    rust_files(&manifest.join("python/src"), &mut bindings);
    assert!(bindings.len() >= 3, "python/src holds only {} files", bindings.len());
    let mut unknown = Vec::new();
    for f in &bindings {
        let code = code_only(&std::fs::read_to_string(f).unwrap());
        assert!(!code.contains("crate::haifu"), "{}", f.display());
        let mut rest = code.as_str();
        while let Some(i) = rest.find("haifu::") {
            let before = rest[..i].chars().last();
            let after = &rest[i + "haifu::".len()..];
            let end = after.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(after.len());
            let top = &after[..end];
            if !before.is_some_and(|c| c.is_alphanumeric() || c == '_') && layer(top).is_none() {
                unknown.push(format!("{}: haifu::{top}", f.display()));
            }
            rest = &after[end..];
        }
        for (func, n) in function_lengths(&code) {
            assert!(n <= 120, "{}: fn {func} has {n} lines", f.display());
        }
    }
    assert!(unknown.is_empty(), "bindings use paths into no known layer: {unknown:?}");
}

#[test]
fn the_scanner_sees_nested_and_inline_paths() {
    let src = "use crate::{a::{b, c::D}, e};\n// use crate::comment;\nfn f() { crate::g::h(); }";
    let got: Vec<String> = crate_paths(src).into_iter().collect();
    assert_eq!(got, ["a::b", "a::c::D", "e", "g"]);
}

/// The module a source file defines: `src/a/b.rs` and `src/a/b/mod.rs` are `a::b`.
fn module_of(rel: &Path) -> Vec<String> {
    let mut segs: Vec<String> =
        rel.iter().map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string()).collect();
    if segs.last().is_some_and(|s| s == "mod") {
        segs.pop();
    }
    segs
}

/// The code before the file's first `#[cfg(test)]` module: test modules sit at the end of a file,
/// and a test reaching into a sibling is not a dependency of the library.
fn without_tests(code: &str) -> &str {
    let mut from = 0;
    while let Some(i) = code[from..].find("#[cfg(test)]") {
        let at = from + i;
        let next = code[at + "#[cfg(test)]".len()..].trim_start();
        if ["mod ", "pub mod ", "pub(crate) mod ", "pub(super) mod "].iter().any(|p| next.starts_with(p)) {
            return &code[..at];
        }
        from = at + 1;
    }
    code
}

/// Every `crate::` and `super::` path of a source text, whole (use trees expanded, inline paths
/// up to their last segment).
fn module_paths(code: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for head in ["use crate::", "use super::"] {
        let mut rest = code;
        while let Some(i) = rest.find(head) {
            let after = &rest[i + 4..];
            let end = after.find(';').unwrap_or(after.len());
            let tree: String = after[..end].chars().filter(|c| !c.is_whitespace()).collect();
            out.extend(expand(&tree));
            rest = &after[end..];
        }
    }
    for head in ["crate::", "super::"] {
        let mut rest = code;
        while let Some(i) = rest.find(head) {
            let before = rest[..i].chars().last();
            let after = &rest[i..];
            let end =
                after.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(after.len());
            let path = after[..end].trim_end_matches(':');
            if !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') && path.contains("::") {
                out.insert(path.to_string());
            }
            rest = &after[end..];
        }
    }
    out
}

/// The module a path lands in: `super`s climb from `here` (`dir`: the file is a `mod.rs`), then
/// the longest prefix that is a module of the crate.
fn target(path: &str, here: &[String], dir: bool, modules: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    let mut segs: Vec<&str> = path.split("::").collect();
    let mut base: Vec<String> = if segs.first() == Some(&"crate") {
        segs.remove(0);
        Vec::new()
    } else {
        let mut b = here.to_vec();
        if !dir {
            b.pop();
        }
        b
    };
    let supers = segs.iter().take_while(|s| **s == "super").count();
    for _ in 1..supers.max(1) {
        base.pop();
    }
    base.extend(segs[supers..].iter().map(|s| s.to_string()));
    while !base.is_empty() && !modules.contains(&base) {
        base.pop();
    }
    (!base.is_empty()).then_some(base)
}

/// A cycle through `start` in `edges`, if any (depth-first, the path back to `start`).
fn cycle_from(
    start: &[String],
    edges: &std::collections::BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
) -> Option<Vec<String>> {
    let mut stack = vec![(start.to_vec(), vec![start.join("::")])];
    let mut seen = BTreeSet::new();
    while let Some((m, path)) = stack.pop() {
        for n in edges.get(&m).into_iter().flatten() {
            if n.as_slice() == start {
                return Some([path.clone(), vec![start.join("::")]].concat());
            }
            if seen.insert(n.clone()) {
                stack.push((n.clone(), [path.clone(), vec![n.join("::")]].concat()));
            }
        }
    }
    None
}

/// No two modules import each other, directly or around a loop: a module's use of its own
/// submodules does not count (they are part of it), a submodule's use of its parent does.
#[test]
fn no_import_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let named: Vec<(Vec<String>, bool, &PathBuf)> = files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(&root).unwrap();
            (module_of(rel), rel.ends_with("mod.rs"), f)
        })
        .filter(|(m, _, _)| m.len() > 1 || !["lib", "main"].contains(&m[0].as_str()))
        .collect();
    let modules: BTreeSet<Vec<String>> = named.iter().map(|(m, _, _)| m.clone()).collect();
    let mut edges = std::collections::BTreeMap::new();
    for (m, dir, f) in &named {
        let src = std::fs::read_to_string(f).unwrap();
        let code = code_only(&src);
        let to: BTreeSet<Vec<String>> = module_paths(without_tests(&code))
            .iter()
            .filter_map(|p| target(p, m, *dir, &modules))
            .filter(|t| !t.starts_with(m))
            .collect();
        edges.insert(m.clone(), to);
    }
    let cycles: Vec<String> =
        modules.iter().filter_map(|m| cycle_from(m, &edges)).map(|c| c.join(" -> ")).collect();
    assert!(modules.len() > 50, "found only {} modules", modules.len());
    assert!(cycles.is_empty(), "import cycles:\n{}", cycles.join("\n"));
}

#[test]
fn the_cycle_scanner_resolves_super_and_crate_paths() {
    let modules: BTreeSet<Vec<String>> = [vec!["a"], vec!["a", "b"], vec!["a", "c"], vec!["d"]]
        .iter()
        .map(|v| v.iter().map(|s| s.to_string()).collect())
        .collect();
    let here: Vec<String> = vec!["a".into(), "b".into()];
    let t = |p: &str, dir: bool| target(p, &here, dir, &modules).map(|v| v.join("::"));
    assert_eq!(t("super::c::f", false), Some("a::c".into()));
    assert_eq!(t("super::super::d::X", false), Some("d".into()));
    assert_eq!(t("crate::a::c::Y", false), Some("a::c".into()));
    assert_eq!(t("crate::nowhere", false), None);
    let code =
        "use super::{c::f, g};\nfn x() { crate::d::y(); }\n#[cfg(test)]\nmod tests { use crate::a::c; }";
    let got: Vec<String> = module_paths(without_tests(code)).into_iter().collect();
    assert_eq!(got, ["crate::d::y", "super::c::f", "super::g"]);
}

/// Lines of each `fn` in `code` (from its signature to its closing brace), by name; a declaration
/// without a body (a trait method) is skipped.
fn function_lengths(code: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let t = l.trim_start();
        let t = t.strip_prefix("pub ").or_else(|| t.strip_prefix("pub(crate) ")).unwrap_or(t);
        let t = t.strip_prefix("const ").unwrap_or(t);
        let Some(rest) = t.strip_prefix("fn ") else { continue };
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let (mut depth, mut opened) = (0i64, false);
        for (j, body) in lines.iter().enumerate().skip(i) {
            if !opened && body.contains(';') && !body.contains('{') {
                break;
            }
            depth += body.matches('{').count() as i64 - body.matches('}').count() as i64;
            opened |= body.contains('{');
            if opened && depth <= 0 {
                out.push((name.clone(), j - i + 1));
                break;
            }
        }
    }
    out
}

/// No library or binary function over 120 lines (tests excepted): a longer one is several steps
/// that want names of their own.
#[test]
fn no_function_over_120_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut long = Vec::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy();
        if name == "tests.rs" || name == "corpus_tests.rs" {
            continue;
        }
        let src = std::fs::read_to_string(f).unwrap();
        let code = code_only(&src);
        for (func, n) in function_lengths(without_tests(&code)) {
            if n > 120 {
                long.push(format!("{}: fn {func} has {n} lines", f.strip_prefix(&root).unwrap().display()));
            }
        }
    }
    assert!(long.is_empty(), "functions over 120 lines:\n{}", long.join("\n"));
}

#[test]
fn function_lengths_count_from_signature_to_closing_brace() {
    let code = "fn a() {\n    x();\n}\ntrait T {\n    fn b(&self);\n}\npub fn c() -> u8 {\n    if y {\n        1\n    } else {\n        2\n    }\n}\n";
    assert_eq!(function_lengths(code), [("a".to_string(), 3), ("c".to_string(), 7)]);
}

/// The house's floors: each top-level module stands one floor above the highest module it uses
/// (library code, tests left out), so modules that do not use each other stand side by side.
/// Printed (`cargo test --test layers floors -- --nocapture`; `HAIFU_LAYERS_SRC` reads another
/// checkout's `src/`), and held to what issue 67 built: report and stats side by side (neither
/// uses the other), sim not on stats, and the bot on the rule functions of replay, not on the
/// self-play engine.
#[test]
fn floors() {
    let root = std::env::var_os("HAIFU_LAYERS_SRC")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let top = |rel: &Path| rel.iter().next().map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string());
    let mut uses: std::collections::BTreeMap<String, BTreeSet<String>> = Default::default();
    for f in &files {
        let rel = f.strip_prefix(&root).unwrap();
        let Some(me) = top(rel).filter(|m| layer(m).is_some_and(|l| l < 12)) else { continue };
        let src = std::fs::read_to_string(f).unwrap();
        let code = code_only(&src);
        let entry = uses.entry(me.clone()).or_default();
        for p in crate_paths(without_tests(&code)) {
            if let Some(t) = p.split("::").next().filter(|t| *t != me && layer(t).is_some_and(|l| l < 12)) {
                entry.insert(t.to_string());
            }
        }
    }
    fn floor(
        m: &str,
        uses: &std::collections::BTreeMap<String, BTreeSet<String>>,
        seen: &mut Vec<String>,
    ) -> usize {
        if seen.iter().any(|s| s == m) {
            return 0; // a cycle: no_import_cycle reports it
        }
        seen.push(m.to_string());
        let f = 1 + uses.get(m).into_iter().flatten().map(|d| floor(d, uses, seen)).max().unwrap_or(0);
        seen.pop();
        f
    }
    let floors: std::collections::BTreeMap<String, usize> =
        uses.keys().map(|m| (m.clone(), floor(m, &uses, &mut Vec::new()))).collect();
    let top_floor = floors.values().copied().max().unwrap_or(0);
    println!("{top_floor} floors ({}):", root.display());
    for f in (1..=top_floor).rev() {
        let rooms: Vec<&str> = floors.iter().filter(|(_, &x)| x == f).map(|(m, _)| m.as_str()).collect();
        println!("  {f:2}  {}", rooms.join("  "));
    }
    if std::env::var_os("HAIFU_LAYERS_SRC").is_none() {
        // side by side: neither stands on the other
        assert!(!uses["stats"].contains("report"), "stats uses report: {:?}", uses["stats"]);
        assert!(!uses["report"].contains("stats"), "report uses stats: {:?}", uses["report"]);
        assert!(!uses["sim"].contains("stats"), "sim uses stats: {:?}", uses["sim"]);
        let bot_uses_engine =
            files.iter().filter(|f| f.strip_prefix(&root).unwrap().starts_with("bot")).any(|f| {
                let code = code_only(&std::fs::read_to_string(f).unwrap());
                code.contains("sim::engine")
            });
        assert!(!bot_uses_engine, "bot/ uses sim::engine: the rule functions are replay::rules'");
    }
}
