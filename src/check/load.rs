//! Reading a rules file and the files it imports.

use super::Failed;
use crate::diagnostic::{Diagnostic, Sources};
use crate::syntax::ast::{Item, ItemKind};
use crate::syntax::parse;
use std::path::{Path, PathBuf};

/// The largest rules file Muster reads.
pub const MAX_FILE_BYTES: usize = 4 * 1024 * 1024;

/// Every item of a game and its imports (imports first), with their sources.
#[derive(Debug)]
pub struct Loaded {
    pub sources: Sources,
    pub items: Vec<Item>,
}

/// Reads `path` and its imports. Problems reading or parsing come back as diagnostics.
pub fn load_file(path: &Path) -> Result<Loaded, Failed> {
    let text = read_text(path).map_err(|msg| io_failure(path, msg))?;
    load_source(&path.display().to_string(), &text, path.parent())
}

fn io_failure(path: &Path, msg: String) -> Failed {
    let mut sources = Sources::default();
    let f = sources.add(path.display().to_string(), "");
    // A file that exists but is not text is bad input, not an I/O failure.
    let code = if msg.contains("not a text file")
        || msg.contains("not UTF-8")
        || msg.contains("too large")
        || msg.contains("not a regular file")
    {
        "muster::not-text"
    } else {
        "muster::io"
    };
    Failed {
        sources,
        diagnostics: vec![Diagnostic::error(
            code,
            crate::syntax::ast::Span::new(f, 0, 0),
            msg,
        )],
    }
}

/// Reads a file as UTF-8 text, refusing binary junk and huge files with a plain message.
pub fn read_text(path: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(path)
        .map_err(|e| format!("cannot read `{}`: {}", path.display(), plain_io(&e)))?;
    if meta.is_dir() {
        return Err(format!(
            "`{}` is a folder, not a rules file",
            path.display()
        ));
    }
    if !meta.is_file() {
        // A device or a pipe may never end (`/dev/zero`) or never start.
        return Err(format!(
            "`{}` is not a regular file (a device, a pipe or a socket)",
            path.display()
        ));
    }
    let too_large = |len: u64| {
        format!(
            "`{}` is too large ({len} bytes or more; the limit is {MAX_FILE_BYTES})",
            path.display()
        )
    };
    if meta.len() > MAX_FILE_BYTES as u64 {
        return Err(too_large(meta.len()));
    }
    // Read at most one byte past the limit, in case the file grew since.
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| {
            std::io::Read::read_to_end(
                &mut std::io::Read::take(f, MAX_FILE_BYTES as u64 + 1),
                &mut bytes,
            )
        })
        .map_err(|e| format!("cannot read `{}`: {}", path.display(), plain_io(&e)))?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(too_large(bytes.len() as u64));
    }
    if bytes.contains(&0) {
        return Err(format!(
            "`{}` is not a text file (it contains NUL bytes)",
            path.display()
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "`{}` is not UTF-8 text (bad byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// The path as the file system resolves it (links and `..` followed), or as written if
/// it cannot be resolved.
fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

fn plain_io(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

/// Parses `text` (named `name`) and, recursively, its imports relative to `dir`.
pub fn load_source(name: &str, text: &str, dir: Option<&Path>) -> Result<Loaded, Failed> {
    let mut sources = Sources::default();
    let mut items = Vec::new();
    let mut diags = Vec::new();
    // Files are known by their canonical path, so that one file imported by two
    // spellings (`lib/x.muster`, `./lib/../lib/x.muster`) is read once, and a file that
    // imports itself is a cycle.
    let root = Path::new(name);
    let root = if dir.is_some() {
        canonical(root)
    } else {
        root.to_path_buf()
    };
    let mut stack = vec![root.clone()];
    let mut read = vec![root];
    load_into(
        &mut sources,
        &mut items,
        &mut diags,
        (&mut stack, &mut read),
        name,
        text,
        dir,
    );
    if diags.iter().any(|d| d.is_error()) {
        return Err(Failed {
            sources,
            diagnostics: diags,
        });
    }
    Ok(Loaded { sources, items })
}

fn load_into(
    sources: &mut Sources,
    items: &mut Vec<Item>,
    diags: &mut Vec<Diagnostic>,
    (stack, read): (&mut Vec<PathBuf>, &mut Vec<PathBuf>),
    name: &str,
    text: &str,
    dir: Option<&Path>,
) {
    let file = sources.add(name, text);
    let parsed = match parse(file, text) {
        Ok(p) => p,
        Err(d) => {
            diags.push(d);
            return;
        }
    };
    for item in parsed {
        if let ItemKind::Import(rel) = &item.kind {
            let path = dir
                .map(|d| d.join(rel))
                .unwrap_or_else(|| PathBuf::from(rel));
            let key = canonical(&path);
            if stack.contains(&key) {
                diags.push(
                    Diagnostic::error(
                        "muster::import-cycle",
                        item.span,
                        format!("`{rel}` imports itself, directly or through other files"),
                    )
                    .label("this import closes a cycle")
                    .help("remove one of the imports in the cycle"),
                );
                continue;
            }
            if read.contains(&key) {
                continue; // already imported once
            }
            match read_text(&path) {
                Ok(t) => {
                    stack.push(key.clone());
                    read.push(key);
                    load_into(
                        sources,
                        items,
                        diags,
                        (&mut *stack, &mut *read),
                        &path.display().to_string(),
                        &t,
                        path.parent(),
                    );
                    stack.pop();
                }
                Err(msg) => diags.push(
                    Diagnostic::error("muster::import", item.span, msg)
                        .label("imported here")
                        .help("import paths are relative to the file that imports them"),
                ),
            }
        } else {
            items.push(item);
        }
    }
}
