//! Every relative link of the documentation resolves: README.md, docs/*.md and reports/**/*.md.
//!
//! For each markdown link `[text](target)`, image `![alt](target)` and reference definition
//! `[label]: target` outside fenced code blocks and inline code, the target file or folder must
//! exist (relative to the linking file; a leading `/` is the repository root, as on GitHub), and an
//! `#anchor` must be a heading of the target markdown file (or of the same file for a bare
//! `#anchor`) under GitHub's slug rules: lower case, punctuation and symbols removed (letters of any
//! script, digits, `_` and `-` kept), spaces to hyphens, a repeated heading suffixed `-1`, `-2`, ….
//! `http(s)://`, `mailto:` and other scheme links are not checked.
//!
//! A second test holds the README's promise that its recipes run: every command of its "first ten
//! minutes" section is one that `scripts/demo.sh` (`make demo`) runs, with the demo's folder
//! `out/demo`, and its polars snippet is the one the demo runs.
//!
//! Two more tests read what `make demo` wrote, and `make demo` runs them at its end (in `make
//! test` they are listed as ignored, with that reason): the README's shown outputs are the ones
//! the demo's run printed (`out/demo/transcript.txt`), and every link of the reports the demo
//! wrote (`out/demo/**/*.md`) resolves from where it was written.
//!
//! Only std: the checker is small enough to read, and it is tested on an in-memory example with a
//! broken link and a broken anchor so that it can be seen to fail.

use std::collections::{BTreeMap, HashMap};
use std::path::{Component, Path, PathBuf};

/// What a link's path names.
enum Entry {
    Missing,
    Dir,
    File,
}

/// The files the checker sees: the repository on disk, or an in-memory example in the tests.
trait Files {
    fn entry(&self, path: &Path) -> Entry;
    fn read(&self, path: &Path) -> Option<String>;
}

struct Disk(PathBuf);

impl Files for Disk {
    fn entry(&self, path: &Path) -> Entry {
        let p = self.0.join(path);
        if p.is_dir() {
            Entry::Dir
        } else if p.is_file() {
            Entry::File
        } else {
            Entry::Missing
        }
    }
    fn read(&self, path: &Path) -> Option<String> {
        std::fs::read_to_string(self.0.join(path)).ok()
    }
}

struct Memory(BTreeMap<PathBuf, String>);

impl Files for Memory {
    fn entry(&self, path: &Path) -> Entry {
        if self.0.contains_key(path) {
            Entry::File
        } else if self.0.keys().any(|k| k.starts_with(path)) {
            Entry::Dir
        } else {
            Entry::Missing
        }
    }
    fn read(&self, path: &Path) -> Option<String> {
        self.0.get(path).cloned()
    }
}

/// A fence opening or closing line: its character, its length and the indentation it may have.
fn fence(line: &str) -> Option<(char, usize)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let t = &line[indent..];
    let c = t.chars().next()?;
    if c != '`' && c != '~' {
        return None;
    }
    let n = t.chars().take_while(|&x| x == c).count();
    // an opening backtick fence's info string may not hold a backtick
    (n >= 3 && !(c == '`' && t[n..].contains('`'))).then_some((c, n))
}

/// The text of a markdown file outside fenced code blocks, as blocks of lines (a blank line, a
/// fence or a heading ends a block), each with its first line number.
fn prose_blocks(text: &str) -> Vec<(usize, String)> {
    let mut blocks = Vec::new();
    let mut cur = String::new();
    let mut start = 0;
    let mut open: Option<(char, usize)> = None;
    let flush = |cur: &mut String, start: usize, blocks: &mut Vec<(usize, String)>| {
        if !cur.trim().is_empty() {
            blocks.push((start, std::mem::take(cur)));
        }
        cur.clear();
    };
    for (i, line) in text.lines().enumerate() {
        if let Some((c, n)) = open {
            if let Some((c2, n2)) = fence(line) {
                if c2 == c && n2 >= n && line.trim().chars().all(|x| x == c) {
                    open = None;
                }
            }
            continue;
        }
        if let Some(f) = fence(line) {
            flush(&mut cur, start, &mut blocks);
            open = Some(f);
            continue;
        }
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            flush(&mut cur, start, &mut blocks);
            if !line.trim().is_empty() {
                blocks.push((i + 1, line.to_string()));
            }
            continue;
        }
        if cur.is_empty() {
            start = i + 1;
        }
        cur.push_str(line);
        cur.push('\n');
    }
    flush(&mut cur, start, &mut blocks);
    blocks
}

/// `text` with its inline code spans blanked out (a run of backticks up to the next run of the same
/// length; an unmatched run is literal text). Newlines are kept, so line numbers still count.
fn without_code_spans(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let n = chars[i..].iter().take_while(|&&c| c == '`').count();
        // the closing run: exactly n backticks
        let mut j = i + n;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '`' {
                let m = chars[j..].iter().take_while(|&&c| c == '`').count();
                if m == n {
                    close = Some(j);
                    break;
                }
                j += m;
            } else {
                j += 1;
            }
        }
        match close {
            Some(j) => {
                for &c in &chars[i..j + n] {
                    out.push(if c == '\n' { '\n' } else { ' ' });
                }
                i = j + n;
            }
            None => {
                for _ in 0..n {
                    out.push('`');
                }
                i += n;
            }
        }
    }
    out
}

/// The link targets of a piece of prose (code spans already removed), with their line offsets:
/// inline links and images `[text](target "title")` and reference definitions `[label]: target`.
fn link_targets(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while let Some(k) = text[i..].find("](") {
        let at = i + k;
        // a link needs its `[` before the `](` (and a `]` not escaped)
        let opened = text[..at].rfind('[').is_some() && (at == 0 || b[at - 1] != b'\\');
        let start = at + 2;
        let mut j = start;
        let mut depth = 0;
        let mut angle = false;
        let mut closed = false;
        while j < b.len() {
            match b[j] {
                b'<' if j == start => angle = true,
                b'>' if angle => angle = false,
                b'(' if !angle => depth += 1,
                b')' if !angle && depth == 0 => {
                    closed = true;
                    break;
                }
                b')' if !angle => depth -= 1,
                b'\n' => break,
                _ => {}
            }
            j += 1;
        }
        if opened && closed {
            let raw = text[start..j].trim();
            let angle = raw.starts_with('<');
            let target = if angle {
                raw.trim_start_matches('<').split('>').next().unwrap_or("").to_string()
            } else {
                // a title after the target: `(path "title")`
                raw.split_whitespace().next().unwrap_or("").to_string()
            };
            let line = text[..at].matches('\n').count();
            found.push((line, target));
        }
        i = at + 2;
    }
    for (n, line) in text.lines().enumerate() {
        let t = line.trim_start();
        if line.len() - t.len() > 3 || !t.starts_with('[') {
            continue;
        }
        if let Some(close) = t.find("]:") {
            if !t[1..close].contains('[') && !t[1..close].is_empty() {
                if let Some(target) = t[close + 2..].split_whitespace().next() {
                    found.push((n, target.trim_matches(|c| c == '<' || c == '>').to_string()));
                }
            }
        }
    }
    found
}

/// GitHub's anchor for a heading's text (before duplicates are numbered).
fn slug(heading: &str) -> String {
    // inline markup is not part of the rendered text: links and images keep their text
    let mut text = String::new();
    let mut rest = heading;
    while let Some(open) = rest.find('[') {
        let Some(mid) = rest[open..].find("](") else { break };
        let Some(end) = rest[open + mid..].find(')') else { break };
        text.push_str(&rest[..open]);
        text.push_str(&rest[open + 1..open + mid]);
        rest = &rest[open + mid + end + 1..];
    }
    text.push_str(rest);
    // HTML tags vanish
    let mut plain = String::new();
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => plain.push(c),
            _ => {}
        }
    }
    plain
        .trim()
        .to_lowercase()
        .chars()
        .filter(|&c| c.is_alphanumeric() || c == '_' || c == '-' || c == ' ')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a markdown file: its headings' slugs, numbered as GitHub numbers repeats, and
/// any HTML `id="..."` / `name="..."` anchors.
fn anchors(text: &str) -> Vec<String> {
    let mut headings = Vec::new();
    let mut open: Option<(char, usize)> = None;
    let mut prev: Option<&str> = None;
    for line in text.lines() {
        if let Some((c, n)) = open {
            if let Some((c2, n2)) = fence(line) {
                if c2 == c && n2 >= n && line.trim().chars().all(|x| x == c) {
                    open = None;
                }
            }
            prev = None;
            continue;
        }
        if let Some(f) = fence(line) {
            open = Some(f);
            prev = None;
            continue;
        }
        let t = line.trim_start();
        let hashes = t.chars().take_while(|&c| c == '#').count();
        if line.len() - t.len() <= 3
            && (1..=6).contains(&hashes)
            && (t.len() == hashes || t[hashes..].starts_with(' '))
        {
            // a closing sequence of #s (after a space) is not part of the text
            let body = t[hashes..].trim();
            let bare = body.trim_end_matches('#');
            let text = if bare.is_empty() || bare.ends_with(' ') { bare.trim_end() } else { body };
            headings.push(text.to_string());
            prev = None;
            continue;
        }
        // setext: a paragraph line underlined with = or -
        let u = line.trim();
        if let Some(p) = prev {
            if !u.is_empty()
                && (u.chars().all(|c| c == '=') || u.chars().all(|c| c == '-'))
                && line.len() - line.trim_start().len() <= 3
            {
                headings.push(p.trim().to_string());
                prev = None;
                continue;
            }
        }
        prev = if u.is_empty() || u.starts_with('|') || u.starts_with('-') || u.starts_with('>') {
            None
        } else {
            Some(line)
        };
    }
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    for h in headings {
        let base = slug(&h);
        // github-slugger: count the repeats of the base slug until a free one is found
        let mut s = base.clone();
        while seen.contains_key(&s) {
            let n = seen.get_mut(&base).expect("the base slug was seen");
            *n += 1;
            s = format!("{base}-{n}");
        }
        seen.insert(s.clone(), 0);
        out.push(s);
    }
    for key in ["id=\"", "name=\""] {
        let mut rest = text;
        while let Some(k) = rest.find(key) {
            rest = &rest[k + key.len()..];
            if let Some(end) = rest.find('"') {
                out.push(rest[..end].to_string());
            }
        }
    }
    out
}

/// `%xx` escapes decoded (a link to `a%20b.md` names `a b.md`).
fn percent_decoded(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = (b[i] == b'%' && i + 2 < b.len())
            .then(|| std::str::from_utf8(&b[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok()))
            .flatten();
        match hex {
            Some(v) => {
                out.push(v);
                i += 3;
            }
            None => {
                out.push(b[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `base/rel` with `.` and `..` resolved lexically; None when it climbs out of the repository.
fn resolve(base: &Path, rel: &str) -> Option<PathBuf> {
    let joined = if let Some(root) = rel.strip_prefix('/') { PathBuf::from(root) } else { base.join(rel) };
    let mut out = PathBuf::new();
    for c in joined.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(p) => out.push(p),
            _ => return None,
        }
    }
    Some(out)
}

/// A link with a scheme (`https:`, `mailto:`, ...): not a file of the repository.
fn is_external(target: &str) -> bool {
    let Some((scheme, _)) = target.split_once(':') else { return false };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && scheme.len() > 1
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '+' || c == '-' || c == '.')
}

/// Every broken link of the markdown file `file` (a path relative to the repository), as
/// `file:line: message`.
fn check_file(files: &dyn Files, file: &Path) -> Vec<String> {
    let Some(text) = files.read(file) else {
        return vec![format!("{}: cannot read", file.display())];
    };
    let dir = file.parent().unwrap_or(Path::new(""));
    let mut own: Option<Vec<String>> = None;
    let mut errors = Vec::new();
    for (start, block) in prose_blocks(&text) {
        for (offset, target) in link_targets(&without_code_spans(&block)) {
            let at = format!("{}:{}", file.display(), start + offset);
            if target.is_empty() || is_external(&target) {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let anchor = anchor.map(percent_decoded);
            if path.is_empty() {
                let a = anchor.unwrap_or_default();
                let own = own.get_or_insert_with(|| anchors(&text));
                if !own.contains(&a) {
                    errors.push(format!("{at}: no heading for #{a} in this file"));
                }
                continue;
            }
            let Some(resolved) = resolve(dir, &percent_decoded(path)) else {
                errors.push(format!("{at}: {target} leaves the repository"));
                continue;
            };
            let md = match files.entry(&resolved) {
                Entry::Missing => {
                    errors.push(format!("{at}: {target}: no such file or folder ({})", resolved.display()));
                    continue;
                }
                Entry::Dir => resolved.join("README.md"),
                Entry::File => resolved.clone(),
            };
            let Some(a) = anchor.filter(|a| !a.is_empty()) else { continue };
            if md.extension().is_none_or(|e| e != "md") {
                continue; // anchors into code files (#L10) are GitHub's line links
            }
            match files.read(&md) {
                None => errors.push(format!("{at}: {target}: the folder has no README.md for #{a}")),
                Some(t) if !anchors(&t).contains(&a) => {
                    errors.push(format!("{at}: {target}: no heading for #{a} in {}", md.display()))
                }
                Some(_) => {}
            }
        }
    }
    errors
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md, docs/*.md and reports/**/*.md, relative to the repository.
fn documentation() -> Vec<PathBuf> {
    fn walk(root: &Path, rel: &Path, deep: bool, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(root.join(rel)) else { return };
        let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
        entries.sort();
        for name in entries {
            let p = rel.join(&name);
            let full = root.join(&p);
            if full.is_dir() {
                if deep {
                    walk(root, &p, deep, out);
                }
            } else if p.extension().is_some_and(|e| e == "md") {
                out.push(p);
            }
        }
    }
    let root = root();
    let mut files = vec![PathBuf::from("README.md")];
    walk(&root, Path::new("docs"), false, &mut files);
    walk(&root, Path::new("reports"), true, &mut files);
    files
}

#[test]
fn every_relative_link_of_the_documentation_resolves() {
    let disk = Disk(root());
    let files = documentation();
    assert!(files.len() > 5, "expected README.md, docs/ and reports/: {files:?}");
    let errors: Vec<String> = files.iter().flat_map(|f| check_file(&disk, f)).collect();
    assert!(errors.is_empty(), "{} broken links:\n{}", errors.len(), errors.join("\n"));
}

/// The checker on a small example: a good link, a good anchor, a folder, an image, links in code
/// (ignored), and one broken link and two broken anchors, which it must report.
#[test]
fn the_checker_finds_a_broken_link_and_a_broken_anchor() {
    let mut m = BTreeMap::new();
    m.insert(
        PathBuf::from("README.md"),
        "# Title\n\nSee [the guide](docs/guide.md#set-up-and-run) and [its folder](docs/), \
         ![a plot](docs/plot.png), [web](https://example.com/x.md#nothing) and [top](#title).\n\
         A [broken link](docs/missing.md) and a [broken anchor](docs/guide.md#no-such-heading).\n\
         [Same file, wrong](#nope).\n\n\
         ```sh\n[in a fence](nowhere.md)\n```\n\nInline `[in code](nowhere.md)` is not a link.\n"
            .to_string(),
    );
    m.insert(
        PathBuf::from("docs/guide.md"),
        "# Guide\n\n## Set up and run\n\n## Set up and run\n\n[back](../README.md#title), [again](#set-up-and-run-1)\n"
            .to_string(),
    );
    m.insert(PathBuf::from("docs/plot.png"), String::new());
    let files = Memory(m);
    let errors = check_file(&files, Path::new("README.md"));
    assert_eq!(errors.len(), 3, "{errors:#?}");
    assert!(errors[0].contains("docs/missing.md: no such file"), "{errors:#?}");
    assert!(errors[1].contains("no heading for #no-such-heading in docs/guide.md"), "{errors:#?}");
    assert!(errors[2].starts_with("README.md:5:") && errors[2].contains("#nope"), "{errors:#?}");
    assert!(check_file(&files, Path::new("docs/guide.md")).is_empty());
}

#[test]
fn slugs_follow_github() {
    assert_eq!(slug("Set up"), "set-up");
    assert_eq!(slug("Column groups: `--skip` and `--with`"), "column-groups---skip-and---with");
    assert_eq!(slug("Study 4: the early 5 (序盤の5切り)"), "study-4-the-early-5-序盤の5切り");
    assert_eq!(
        slug("Statistics against kobalab's 2016 houou figures"),
        "statistics-against-kobalabs-2016-houou-figures"
    );
    assert_eq!(slug("tenhou.net/6 output"), "tenhounet6-output");
    assert_eq!(slug("The `ev` group, [linked](x.md) & <b>bold</b>"), "the-ev-group-linked--bold");
    assert_eq!(slug("snake_case_name"), "snake_case_name");
    let a = anchors("# A\n## A\n### A\n```\n# not a heading\n```\nB\n---\n## C ##\n");
    assert_eq!(a, ["a", "a-1", "a-2", "b", "c"]);
}

#[test]
fn code_is_not_prose() {
    assert_eq!(
        without_code_spans("a `b` c ``d ` e`` f"),
        format!("a {} c {} f", " ".repeat(3), " ".repeat(9))
    );
    assert_eq!(without_code_spans("an ` alone"), "an ` alone");
    let targets: Vec<String> = link_targets("[a](x.md \"title\") [b](<y z.md>) [c](f(1).md)\n[ref]: r.md\n")
        .into_iter()
        .map(|t| t.1)
        .collect();
    assert_eq!(targets, ["x.md", "y z.md", "f(1).md", "r.md"]);
}

/// The README's "first ten minutes" section: from its heading to the next `## ` heading outside
/// code blocks (a recipe's output may print a markdown heading of its own).
fn first_ten_minutes(readme: &str) -> String {
    let mut out = String::new();
    let (mut inside, mut fenced) = (false, false);
    for line in readme.lines() {
        if fence(line).is_some() {
            fenced = !fenced;
        }
        if !fenced && line.starts_with("## ") {
            inside = line.starts_with("## The first ten minutes");
        }
        if inside {
            out.push_str(line);
            out.push('\n');
        }
    }
    assert!(!out.is_empty(), "README: no \"## The first ten minutes\" section");
    out
}

/// The commands of the README's "first ten minutes" (lines `$ haifu ...` in its code blocks) and its
/// python snippet, each as `make demo` runs them.
#[test]
fn the_readme_recipes_are_what_make_demo_runs() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let demo = std::fs::read_to_string(root().join("scripts/demo.sh")).unwrap();
    let section = first_ten_minutes(&readme);
    let mut commands = Vec::new();
    let mut python = Vec::new();
    let mut in_python = false;
    for line in section.lines() {
        if line.starts_with("```") {
            in_python = line.trim() == "```python";
            continue;
        }
        if in_python {
            if !line.trim().is_empty() {
                python.push(line.trim().to_string());
            }
        } else if let Some(cmd) = line.strip_prefix("$ haifu ") {
            commands.push(normalise(&format!("haifu {cmd}")));
        }
    }
    assert!(commands.len() >= 5, "README recipes: too few `$ haifu` lines: {commands:?}");
    assert!(!python.is_empty(), "README recipes: no python snippet");

    // demo.sh's `run ARGS` lines, continuation lines joined, its variables as `make demo` sets them
    let joined = demo.replace("\\\n", " ");
    let vars = [("$LOGDIR", "out/demo/logs"), ("$OUT", "out/demo"), ("$GAMES", "40")];
    let expand = |s: &str| vars.iter().fold(s.replace('"', ""), |acc, (k, v)| acc.replace(k, v));
    let runs: Vec<String> = joined
        .lines()
        .filter_map(|l| l.trim().strip_prefix("run ").or_else(|| l.trim().strip_prefix("run_to ")))
        .map(|args| normalise(&format!("haifu {}", expand(args.split(" || ").next().unwrap()))))
        .collect();
    for c in &commands {
        assert!(
            runs.contains(c),
            "README recipe `{c}` is not run by scripts/demo.sh; it runs:\n{}",
            runs.join("\n")
        );
    }
    let demo_lines: Vec<String> = demo.lines().map(|l| expand(l.trim())).collect();
    for p in &python {
        let want = p.replace('"', "");
        assert!(demo_lines.contains(&want), "README polars line `{p}` is not in scripts/demo.sh");
    }
}

fn normalise(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The demo's output folder: `HAIFU_DEMO_OUT`, else `out/demo`.
fn demo_out() -> PathBuf {
    std::env::var_os("HAIFU_DEMO_OUT").map(PathBuf::from).unwrap_or_else(|| root().join("out/demo"))
}

/// One command and what it printed: from the README (`$ haifu ...` and the lines under it, up to
/// the next command or the end of the block) or from the demo's transcript.
#[derive(Debug)]
struct Shown {
    command: String,
    lines: Vec<String>,
}

/// The outputs the README's "first ten minutes" shows: its `console` blocks, and the `text` block
/// after the polars snippet as the snippet's output (the demo records it as
/// `$ python3 (the README's polars snippet)`).
fn readme_outputs(readme: &str) -> Vec<Shown> {
    let section = first_ten_minutes(readme);
    let mut out: Vec<Shown> = Vec::new();
    let mut block: Option<&str> = None;
    let mut last_block = "";
    for line in section.lines() {
        if let Some(info) = line.strip_prefix("```") {
            match block {
                Some(b) => {
                    last_block = b;
                    block = None;
                }
                None => {
                    let info = info.trim();
                    block =
                        Some(if info == "text" && last_block == "python" { "python-output" } else { info });
                    if block == Some("python-output") {
                        out.push(Shown { command: POLARS.into(), lines: Vec::new() });
                    }
                }
            }
            continue;
        }
        match block {
            Some("console") => shown_line(&mut out, line),
            Some("python-output") => {
                out.last_mut().expect("pushed at the fence").lines.push(line.trim_end().into())
            }
            _ => {}
        }
    }
    out
}

/// The polars snippet's entry, as the demo records it.
const POLARS: &str = "python3 (the README's polars snippet)";

/// The demo's transcript: every `$ ...` line and what followed it.
fn transcript(text: &str) -> Vec<Shown> {
    let mut out: Vec<Shown> = Vec::new();
    for line in text.lines() {
        shown_line(&mut out, line);
    }
    out
}

/// One line of a console block or of the transcript: `$ ...` starts a command, any other line is
/// the last command's output.
fn shown_line(out: &mut Vec<Shown>, line: &str) {
    if let Some(cmd) = line.strip_prefix("$ ") {
        out.push(Shown { command: normalise(cmd), lines: Vec::new() });
    } else if let Some(last) = out.last_mut() {
        last.lines.push(line.trim_end().to_string());
    }
}

/// The rule for figures that depend on the machine: a number followed by a unit of time or of
/// rate (`games/s`, `/s`, `s`, `ms`, `µs`, `min`) is compared as `#`, so "written 40 (308 games/s)"
/// matches "written 40 (82 games/s)". Every other character is compared as written.
fn machine_free(line: &str) -> String {
    const UNITS: [&str; 6] = ["games/s", "/s", "ms", "µs", "min", "s"];
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find(|c: char| c.is_ascii_digit()) {
        let len = rest[start..]
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
            .unwrap_or(rest.len() - start);
        let (number, after) = (&rest[start..start + len], &rest[start + len..]);
        let unit = after.strip_prefix(' ').unwrap_or(after);
        let timed = UNITS.iter().any(|u| {
            unit.strip_prefix(u).is_some_and(|tail| !tail.starts_with(|c: char| c.is_alphanumeric()))
        });
        out.push_str(&rest[..start]);
        out.push_str(if timed { "#" } else { number });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Whether the README's `shown` lines are the run's `printed` lines: in order, every shown line
/// equal to a printed one (under [`machine_free`]), consecutive except where the README writes a
/// line `…` (any number of printed lines, none included, are left out there). None when they are;
/// otherwise the first shown line that could not be placed.
fn shown_mismatch(shown: &[String], printed: &[String]) -> Option<String> {
    // split the shown lines into runs between `…` lines; each run must appear contiguously, in order
    let mut runs: Vec<(bool, Vec<String>)> = vec![(false, Vec::new())];
    for l in shown {
        if l.trim() == "…" {
            runs.push((true, Vec::new()));
        } else {
            runs.last_mut().expect("never empty").1.push(machine_free(l));
        }
    }
    let printed: Vec<String> = printed.iter().map(|l| machine_free(l)).collect();
    let mut at = 0;
    for (i, (after_gap, run)) in runs.iter().enumerate() {
        if run.is_empty() {
            continue;
        }
        let fits = |k: usize| printed.len() >= k + run.len() && printed[k..k + run.len()] == run[..];
        let found = if *after_gap { (at..printed.len()).find(|&k| fits(k)) } else { fits(at).then_some(at) };
        match found {
            Some(k) => at = k + run.len(),
            None => {
                // name the first line of the run that is not where it should be
                let first_bad = run
                    .iter()
                    .enumerate()
                    .find(|(j, l)| !printed.iter().skip(at + j).any(|p| p == *l))
                    .map_or(&run[0], |(_, l)| l);
                return Some(format!("run {i}: `{first_bad}` not printed there"));
            }
        }
    }
    // without a trailing `…` the shown lines are the whole output (blank lines aside)
    let last_is_gap = runs.last().is_some_and(|(gap, run)| *gap && run.is_empty());
    if !last_is_gap && printed[at..].iter().any(|l| !l.trim().is_empty()) {
        return Some(format!(
            "the run printed more after the last shown line: `{}` (add a `…` line?)",
            printed[at]
        ));
    }
    None
}

#[test]
fn the_output_checker_elides_and_exempts_only_what_it_says() {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let printed = s(&["files 40", "written 40 (82 games/s)", "a", "b", "c", "wrote x"]);
    assert_eq!(shown_mismatch(&s(&["files 40", "written 40 (308 games/s)", "…", "wrote x"]), &printed), None);
    assert_eq!(shown_mismatch(&s(&["files 40", "…"]), &printed), None);
    assert!(shown_mismatch(&s(&["files 41", "…"]), &printed).is_some(), "a count is not exempt");
    assert!(shown_mismatch(&s(&["files 40", "a", "…"]), &printed).is_some(), "only … elides");
    assert!(shown_mismatch(&s(&["files 40", "written 40 (9 games/s)"]), &printed).is_some(), "no trailing …");
    assert!(shown_mismatch(&s(&["…", "c", "b", "…"]), &printed).is_some(), "order counts");
    assert_eq!(machine_free("took 1.5 s, 12ms, 3 games, 83.6%"), "took # s, #ms, 3 games, 83.6%");
}

/// The README shows what `make demo` printed: every `$ haifu ...` output block (and the polars
/// snippet's) against the demo's transcript, under [`shown_mismatch`]'s rule.
#[test]
#[ignore = "needs make demo's output (out/demo/transcript.txt): make demo runs it at its end"]
fn demo_outputs_are_the_readmes() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let path = demo_out().join("transcript.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run make demo first)", path.display()));
    let runs = transcript(&text);
    let shown = readme_outputs(&readme);
    assert!(shown.iter().filter(|s| !s.lines.is_empty()).count() >= 6, "README: too few outputs: {shown:#?}");
    let mut errors = Vec::new();
    for s in shown.iter().filter(|s| !s.lines.is_empty()) {
        match runs.iter().find(|r| r.command == s.command) {
            None => errors.push(format!("`{}`: not in the demo's transcript", s.command)),
            Some(r) => {
                if let Some(why) = shown_mismatch(&s.lines, &r.lines) {
                    errors.push(format!(
                        "`{}`: {why}\n  printed:\n    {}",
                        s.command,
                        r.lines.join("\n    ")
                    ));
                }
            }
        }
    }
    assert!(errors.is_empty(), "README outputs that the demo did not print:\n{}", errors.join("\n"));
}

/// Every link of the markdown the demo wrote resolves from where it was written (a link leaving
/// the demo's folder is broken there: the reports are read where they are).
#[test]
#[ignore = "needs make demo's output (out/demo/**/*.md): make demo runs it at its end"]
fn demo_reports_links_resolve() {
    let dir = demo_out();
    fn walk(root: &Path, rel: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(root.join(rel)) else { return };
        for e in entries.filter_map(|e| e.ok()) {
            let p = rel.join(e.file_name());
            if root.join(&p).is_dir() {
                walk(root, &p, out);
            } else if p.extension().is_some_and(|e| e == "md") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&dir, Path::new(""), &mut files);
    files.sort();
    assert!(files.len() >= 3, "{}: expected the demo's reports (make demo first): {files:?}", dir.display());
    let disk = Disk(dir.clone());
    let errors: Vec<String> = files.iter().flat_map(|f| check_file(&disk, f)).collect();
    assert!(
        errors.is_empty(),
        "{} broken links under {}:\n{}",
        errors.len(),
        dir.display(),
        errors.join("\n")
    );
}
