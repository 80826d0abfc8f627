//! The graph of imports between the files of one module directory, for the layout test that
//! counts the imports pointing back up (`layout::few_imports_point_back_up_inside_…`).

use crate::layout::each_rust_file;
use std::collections::BTreeSet;
use std::path::Path;

/// The files of one module directory and which of them each names items of: an arrow from a
/// file to the file that defines what it names through a path (`crate::<module>::…`,
/// `super::…`, `self::…` or a child module's name), in a `use` tree or in code, a name a
/// `mod.rs` re-exports followed to where it is defined. Tests are left out.
pub struct UseGraph {
    /// By module path (`["game", "explore"]` for `game/explore/mod.rs`).
    files: Vec<Vec<String>>,
    arrows: BTreeSet<(usize, usize)>,
}

impl UseGraph {
    pub fn of(module: &str) -> UseGraph {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(module);
        let mut paths = Vec::new();
        each_rust_file(&root, &mut |p| paths.push(p.to_path_buf()));
        paths.sort();
        let files: Vec<Vec<String>> = paths.iter().map(|p| module_path(&root, p)).collect();
        let code: Vec<String> = (paths.iter())
            .map(|p| code_of(&std::fs::read_to_string(p).unwrap()))
            .collect();
        let exports: Vec<Vec<(String, Vec<String>)>> = (0..files.len())
            .map(|i| match paths[i].ends_with("mod.rs") {
                true => re_exports(&files, i, &code[i], module),
                false => Vec::new(),
            })
            .collect();
        let find = |segments: &[String]| files.iter().position(|f| f.as_slice() == segments);
        let resolve = |absolute: &[String]| -> Option<usize> {
            let mut absolute = absolute.to_vec();
            for _ in 0..5 {
                let depth = (0..=absolute.len()).rev().find(|&d| find(&absolute[..d]).is_some())?;
                let file = find(&absolute[..depth])?;
                let followed =
                    (absolute.get(depth)).and_then(|name| exports[file].iter().find(|(alias, _)| alias == name));
                match followed {
                    Some((_, target)) => absolute = [target.clone(), absolute[depth + 1..].to_vec()].concat(),
                    None => return Some(file),
                }
            }
            None
        };
        let mut arrows = BTreeSet::new();
        for (i, text) in code.iter().enumerate() {
            for path in paths_named(&files, i, text, module) {
                if let Some(j) = resolve(&path).filter(|&j| j != i) {
                    arrows.insert((i, j));
                }
            }
        }
        UseGraph { files, arrows }
    }

    /// The arrows that point up in the order of the files that has the fewest, the module's
    /// `mod.rs` on top (it declares the others): every arrow into it, and within each cycle
    /// of the other files (files that reach one another) those of its best order.
    pub fn arrows_back_up(&self) -> Vec<String> {
        let n = self.files.len();
        let root = self
            .files
            .iter()
            .position(Vec::is_empty)
            .expect("the module has a mod.rs");
        let mut up: Vec<String> = (self.arrows.iter())
            .filter(|&&(_, b)| b == root)
            .map(|&(a, _)| format!("{} -> mod.rs", self.files[a].join("/")))
            .collect();
        let reach: Vec<Vec<bool>> = (0..n).map(|a| self.reachable(a, root)).collect();
        let mut done = vec![false; n];
        done[root] = true;
        for a in 0..n {
            if done[a] {
                continue;
            }
            let cycle: Vec<usize> = (0..n).filter(|&b| reach[a][b] && reach[b][a]).collect();
            cycle.iter().for_each(|&b| done[b] = true);
            if cycle.len() > 1 {
                up.extend(self.fewest_up(&cycle));
            }
        }
        up
    }

    /// The files `from` reaches, without passing through `root`.
    fn reachable(&self, from: usize, root: usize) -> Vec<bool> {
        let mut seen = vec![false; self.files.len()];
        let mut stack = vec![from];
        seen[from] = true;
        seen[root] = true;
        while let Some(a) = stack.pop() {
            for &(_, b) in self.arrows.range((a, 0)..(a + 1, 0)) {
                if !std::mem::replace(&mut seen[b], true) {
                    stack.push(b);
                }
            }
        }
        seen
    }

    /// The up arrows of the best order of one cycle's files: over the sets of files placed
    /// on top, the fewest arrows up so far (placing a file under a set adds its arrows into
    /// the set), so every order is weighed without trying each.
    fn fewest_up(&self, cycle: &[usize]) -> Vec<String> {
        assert!(
            cycle.len() <= 20,
            "a cycle of {} files: {:?}",
            cycle.len(),
            self.named(cycle)
        );
        let k = cycle.len();
        // Per file of the cycle, the files of the cycle it points to, as a set.
        let points_to: Vec<u32> = (cycle.iter())
            .map(|&a| {
                (0..k)
                    .filter(|&j| self.arrows.contains(&(a, cycle[j])))
                    .fold(0, |m, j| m | 1 << j)
            })
            .collect();
        let mut fewest = vec![(usize::MAX, 0usize); 1 << k];
        fewest[0] = (0, 0);
        for placed in 0..(1u32 << k) {
            let (up, _) = fewest[placed as usize];
            for next in (0..k).filter(|&j| placed & (1 << j) == 0) {
                let with = (placed | 1 << next) as usize;
                let cost = up + (points_to[next] & placed).count_ones() as usize;
                if cost < fewest[with].0 {
                    fewest[with] = (cost, next);
                }
            }
        }
        // Back from the whole set: each step says which file went under the rest.
        let (mut placed, mut up) = ((1u32 << k) - 1, Vec::new());
        while placed != 0 {
            let last = fewest[placed as usize].1;
            placed &= !(1 << last);
            let name = |j: usize| self.files[cycle[j]].join("/");
            up.extend(
                (0..k)
                    .filter(|&j| points_to[last] & placed & (1 << j) != 0)
                    .map(|j| format!("{} -> {}", name(last), name(j))),
            );
        }
        up
    }

    fn named(&self, files: &[usize]) -> Vec<String> {
        files.iter().map(|&f| self.files[f].join("/")).collect()
    }
}

/// A file's module path below the module's root: `game/explore/mod.rs` is `game/explore`.
fn module_path(root: &Path, path: &Path) -> Vec<String> {
    let relative = path.strip_prefix(root).unwrap().with_extension("");
    let mut segments: Vec<String> = relative.iter().map(|s| s.to_string_lossy().into_owned()).collect();
    if segments.last().is_some_and(|s| s == "mod") {
        segments.pop();
    }
    segments
}

/// A file's code without its tests, comments and the contents of its strings.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let at = |k: usize| chars.get(i + k).copied().unwrap_or(' ');
        match (at(0), at(1)) {
            ('/', '/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            ('/', '*') => {
                while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                    i += 1;
                }
                i += 2;
            }
            ('r', '#') | ('r', '"') if !at_word(&chars, i) => {
                let hashes = (1..).take_while(|&k| at(k) == '#').count();
                let end: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
                let body: String = chars[i + 2 + hashes..].iter().collect();
                i += 2
                    + hashes
                    + body
                        .find(&end)
                        .map_or(body.len(), |e| body[..e].chars().count() + end.len());
                out.push_str("\"\"");
            }
            ('"', _) => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            }
            ('\'', '\\') => {
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
            }
            ('\'', _) if at(2) == '\'' => i += 3,
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// Whether the character before `i` continues a word (so `r` there is not a raw string's).
fn at_word(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

/// Every path a file names, made absolute within `module` (segments below its root), from
/// its `use` trees and its code.
fn paths_named(files: &[Vec<String>], file: usize, code: &str, module: &str) -> Vec<Vec<String>> {
    let children = children_of(files, &files[file]);
    let mut written = Vec::new();
    let mut rest = code.to_string();
    while let Some(start) = find_word(&rest, "use") {
        let end = start + rest[start..].find(';').unwrap_or(rest.len() - start);
        written.extend(use_tree(&rest[start + 3..end]).into_iter().map(|(path, _)| path));
        rest.replace_range(start..(end + 1).min(rest.len()), " ");
    }
    let starts: Vec<&str> = ["crate", "super", "self"]
        .into_iter()
        .chain(children.iter().map(String::as_str))
        .collect();
    let chars: Vec<char> = rest.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let word: String = chars[i..]
            .iter()
            .take_while(|c| c.is_alphanumeric() || **c == '_')
            .collect();
        let after_colons = i >= 2 && chars[i - 1] == ':' && chars[i - 2] == ':';
        if !word.is_empty() && !at_word(&chars, i) && !after_colons && starts.contains(&word.as_str()) {
            let path: String = chars[i..]
                .iter()
                .take_while(|c| c.is_alphanumeric() || **c == '_' || **c == ':')
                .collect();
            if path.contains("::") {
                written.push(path.split("::").filter(|s| !s.is_empty()).map(String::from).collect());
            }
            i += path.chars().count().max(1);
        } else {
            i += word.chars().count().max(1);
        }
    }
    (written.into_iter())
        .filter_map(|path| absolute(files, file, &children, path, module))
        .collect()
}

/// Where `word` first stands as a whole word in `text`.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let chars_ok = |c: Option<char>| !c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    (text.match_indices(word).map(|(i, _)| i))
        .find(|&i| chars_ok(text[..i].chars().last()) && chars_ok(text[i + word.len()..].chars().next()))
}

/// A `use` tree's paths, each with the name it brings in.
fn use_tree(tree: &str) -> Vec<(Vec<String>, String)> {
    let tree: String = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = Vec::new();
    expand(&[], tree.trim(), &mut out);
    out
}

fn expand(prefix: &[String], tree: &str, out: &mut Vec<(Vec<String>, String)>) {
    let tree = tree.trim();
    if tree.is_empty() {
        return;
    }
    let Some(open) = tree.find('{') else {
        let (path, alias) = tree.split_once(" as ").unwrap_or((tree, ""));
        let mut full: Vec<String> = prefix.to_vec();
        full.extend(path.trim().split("::").filter(|s| !s.is_empty()).map(String::from));
        if full.last().is_some_and(|s| s == "self") {
            full.pop();
        }
        let name = if alias.is_empty() {
            full.last().cloned().unwrap_or_default()
        } else {
            alias.trim().to_string()
        };
        out.push((full, name));
        return;
    };
    let mut head = prefix.to_vec();
    head.extend(
        tree[..open]
            .split("::")
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from),
    );
    let body = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let (mut depth, mut from) = (0, 0);
    for (i, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                expand(&head, &body[from..i], out);
                from = i + 1;
            }
            _ => {}
        }
    }
    expand(&head, &body[from..], out);
}

/// The names of the modules right below module path `of`.
fn children_of(files: &[Vec<String>], of: &[String]) -> Vec<String> {
    (files.iter())
        .filter(|f| f.len() == of.len() + 1 && f.starts_with(of))
        .map(|f| f[of.len()].clone())
        .collect()
}

/// `path` as written in `file`, made absolute within `module`; `None` for what lies outside.
fn absolute(
    files: &[Vec<String>],
    file: usize,
    children: &[String],
    path: Vec<String>,
    module: &str,
) -> Option<Vec<String>> {
    let (first, rest) = path.split_first()?;
    let mut here = files[file].clone();
    match first.as_str() {
        "crate" => return (rest.first()? == module).then(|| rest[1..].to_vec()),
        "self" => {}
        "super" => {
            let supers = path.iter().take_while(|s| *s == "super").count();
            here.truncate(here.len().checked_sub(supers)?);
            return Some([here, path[supers..].to_vec()].concat());
        }
        child if children.iter().any(|c| c == child) => return Some([here, path].concat()),
        _ => return None,
    }
    Some([here, rest.to_vec()].concat())
}

/// What a `mod.rs` re-exports: each name it makes public, with the absolute path it names.
fn re_exports(files: &[Vec<String>], file: usize, code: &str, module: &str) -> Vec<(String, Vec<String>)> {
    let children = children_of(files, &files[file]);
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = find_word(rest, "use") {
        let before = rest[..at].trim_end();
        let end = at + rest[at..].find(';').unwrap_or(rest.len() - at);
        if before.ends_with("pub") || before.ends_with(')') {
            for (path, name) in use_tree(&rest[at + 3..end]) {
                if let Some(target) = absolute(files, file, &children, path, module) {
                    out.push((name, target));
                }
            }
        }
        rest = &rest[(end + 1).min(rest.len())..];
    }
    out
}
