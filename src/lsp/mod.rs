//! `muster lsp`: a Language Server Protocol server, over stdio, on `lsp-server` and
//! `lsp-types` (the crates rust-analyzer is built on).
//!
//! - `mod.rs` (this file): the loop, the open documents, the dispatch of requests.
//! - `diagnostics.rs`: a document checked as `validate` checks it; diagnostics and quick
//!   fixes in the protocol's terms; positions.
//! - `index.rs`: the navigation index, every declaration and use of a name, from the AST.
//! - `hover.rs`: what a name is.
//! - `completion.rs`: names and keywords at the cursor; the outline.
//!
//! Every change of a document is checked in full (the base game and every variant, with
//! its imports read from disk): checking the largest rules file takes milliseconds.
//! Changes that arrive together are checked once.

pub mod completion;
pub mod diagnostics;
pub mod hover;
pub mod index;

use diagnostics::Analysis;
use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types as lsp;
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

type Error = Box<dyn std::error::Error + Send + Sync>;

/// Runs the server on stdin and stdout until the client asks it to exit.
pub fn run_stdio() -> Result<(), Error> {
    let (conn, io) = Connection::stdio();
    serve(&conn)?;
    drop(conn);
    io.join()?;
    Ok(())
}

/// What the server can do, as told to the client at `initialize`.
pub fn capabilities() -> lsp::ServerCapabilities {
    lsp::ServerCapabilities {
        text_document_sync: Some(lsp::TextDocumentSyncCapability::Kind(
            lsp::TextDocumentSyncKind::FULL,
        )),
        hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
        definition_provider: Some(lsp::OneOf::Left(true)),
        references_provider: Some(lsp::OneOf::Left(true)),
        document_symbol_provider: Some(lsp::OneOf::Left(true)),
        completion_provider: Some(lsp::CompletionOptions {
            trigger_characters: Some(vec![".".into()]),
            ..lsp::CompletionOptions::default()
        }),
        code_action_provider: Some(lsp::CodeActionProviderCapability::Options(
            lsp::CodeActionOptions {
                code_action_kinds: Some(vec![lsp::CodeActionKind::QUICKFIX]),
                ..lsp::CodeActionOptions::default()
            },
        )),
        ..lsp::ServerCapabilities::default()
    }
}

/// Serves one client on a connection: the handshake, then messages until `shutdown` and
/// `exit`.
pub fn serve(conn: &Connection) -> Result<(), Error> {
    let caps = serde_json::to_value(capabilities())?;
    let (id, _params) = conn.initialize_start()?;
    conn.initialize_finish(
        id,
        serde_json::json!({
            "capabilities": caps,
            "serverInfo": { "name": "muster", "version": env!("CARGO_PKG_VERSION") },
        }),
    )?;
    let mut server = Server::default();
    loop {
        let msg = match conn.receiver.try_recv() {
            Ok(m) => m,
            Err(e) if e.is_empty() => {
                // Nothing more waiting: check the documents changed so far.
                server.flush(conn)?;
                match conn.receiver.recv() {
                    Ok(m) => m,
                    Err(_) => return Ok(()),
                }
            }
            Err(_) => return Ok(()),
        };
        match msg {
            Message::Request(req) => {
                if conn.handle_shutdown(&req)? {
                    return Ok(());
                }
                server.flush(conn)?;
                let resp = server.request(req);
                conn.sender.send(Message::Response(resp))?;
            }
            Message::Notification(n) => server.notification(conn, n)?,
            Message::Response(_) => {}
        }
    }
}

/// One open document.
struct Doc {
    path: PathBuf,
    text: String,
    version: i32,
    latest: Analysis,
    /// The last analysis that parsed, while the latest does not (navigation uses it).
    parsed: Option<Analysis>,
    /// Other files (imports) this document's diagnostics were published to.
    extra: HashSet<lsp::Url>,
}

impl Doc {
    /// The analysis to navigate with: the latest if it parsed, else the last that did.
    fn nav(&self) -> &Analysis {
        if self.latest.index.is_some() {
            &self.latest
        } else {
            self.parsed.as_ref().unwrap_or(&self.latest)
        }
    }
}

/// The requests the server answers (besides `initialize` and `shutdown`).
const SUPPORTED: &[&str] = &[
    "textDocument/hover",
    "textDocument/definition",
    "textDocument/references",
    "textDocument/completion",
    "textDocument/documentSymbol",
    "textDocument/codeAction",
];

#[derive(Default)]
struct Server {
    docs: HashMap<lsp::Url, Doc>,
    dirty: HashSet<lsp::Url>,
}

fn path_of(uri: &lsp::Url) -> PathBuf {
    uri.to_file_path()
        .map(|p| diagnostics::absolute(&p))
        .unwrap_or_else(|_| PathBuf::from(uri.path()))
}

impl Server {
    fn notification(&mut self, conn: &Connection, n: Notification) -> Result<(), Error> {
        match n.method.as_str() {
            lsp::notification::DidOpenTextDocument::METHOD => {
                let p: lsp::DidOpenTextDocumentParams = serde_json::from_value(n.params)?;
                let uri = p.text_document.uri;
                let path = path_of(&uri);
                let latest = Analysis::new(&path, &p.text_document.text);
                self.docs.insert(
                    uri.clone(),
                    Doc {
                        path,
                        text: p.text_document.text,
                        version: p.text_document.version,
                        latest,
                        parsed: None,
                        extra: HashSet::new(),
                    },
                );
                self.publish(conn, &uri)?;
            }
            lsp::notification::DidChangeTextDocument::METHOD => {
                let p: lsp::DidChangeTextDocumentParams = serde_json::from_value(n.params)?;
                if let Some(doc) = self.docs.get_mut(&p.text_document.uri) {
                    for change in p.content_changes {
                        match change.range {
                            None => doc.text = change.text,
                            Some(r) => {
                                let a = diagnostics::offset(&doc.text, r.start);
                                let b = diagnostics::offset(&doc.text, r.end).max(a);
                                doc.text.replace_range(a..b, &change.text);
                            }
                        }
                    }
                    doc.version = p.text_document.version;
                    self.dirty.insert(p.text_document.uri);
                }
            }
            lsp::notification::DidSaveTextDocument::METHOD => {
                // Another open document may import the saved one: check them all again.
                let all: Vec<lsp::Url> = self.docs.keys().cloned().collect();
                self.dirty.extend(all);
            }
            lsp::notification::DidCloseTextDocument::METHOD => {
                let p: lsp::DidCloseTextDocumentParams = serde_json::from_value(n.params)?;
                if let Some(doc) = self.docs.remove(&p.text_document.uri) {
                    let mut uris = doc.extra;
                    uris.insert(p.text_document.uri.clone());
                    for uri in uris {
                        send_diagnostics(conn, uri, Vec::new(), None)?;
                    }
                }
                self.dirty.remove(&p.text_document.uri);
            }
            _ => {}
        }
        Ok(())
    }

    /// Checks every changed document and publishes its diagnostics.
    fn flush(&mut self, conn: &Connection) -> Result<(), Error> {
        let dirty: Vec<lsp::Url> = self.dirty.drain().collect();
        for uri in dirty {
            let Some(doc) = self.docs.get_mut(&uri) else {
                continue;
            };
            let new = Analysis::new(&doc.path, &doc.text);
            if new.index.is_some() {
                doc.latest = new;
                doc.parsed = None;
            } else {
                let old = std::mem::replace(&mut doc.latest, new);
                if old.index.is_some() {
                    doc.parsed = Some(old);
                }
            }
            self.publish(conn, &uri)?;
        }
        Ok(())
    }

    /// Publishes a document's diagnostics: its own, and those in its imports that are not
    /// open themselves (an open file reports its own).
    fn publish(&mut self, conn: &Connection, uri: &lsp::Url) -> Result<(), Error> {
        let open: HashSet<lsp::Url> = self.docs.keys().cloned().collect();
        let Some(doc) = self.docs.get_mut(uri) else {
            return Ok(());
        };
        let mut extra = HashSet::new();
        for (f, diags) in doc.latest.published() {
            if f == 0 {
                send_diagnostics(conn, uri.clone(), diags, Some(doc.version))?;
                continue;
            }
            let Some(file_uri) = doc
                .latest
                .paths
                .get(f as usize)
                .and_then(|p| lsp::Url::from_file_path(p).ok())
            else {
                continue;
            };
            if !open.contains(&file_uri) {
                extra.insert(file_uri.clone());
                send_diagnostics(conn, file_uri, diags, None)?;
            }
        }
        for gone in doc.extra.difference(&extra) {
            send_diagnostics(conn, gone.clone(), Vec::new(), None)?;
        }
        doc.extra = extra;
        Ok(())
    }

    fn request(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        if !SUPPORTED.contains(&req.method.as_str()) {
            return Response::new_err(
                id,
                lsp_server::ErrorCode::MethodNotFound as i32,
                format!("unsupported request `{}`", req.method),
            );
        }
        match self.answer(req) {
            Ok(v) => Response::new_ok(id, v),
            Err(e) => Response::new_err(
                id,
                lsp_server::ErrorCode::InvalidParams as i32,
                e.to_string(),
            ),
        }
    }

    /// The document and byte offset of a position.
    fn at(&self, p: &lsp::TextDocumentPositionParams) -> Option<(&Doc, u32)> {
        let doc = self.docs.get(&p.text_document.uri)?;
        let offset = diagnostics::offset(doc.nav().text(0), p.position);
        Some((doc, offset as u32))
    }

    fn answer(&mut self, req: Request) -> Result<serde_json::Value, Error> {
        use lsp::request as r;
        let null = serde_json::Value::Null;
        Ok(match req.method.as_str() {
            r::HoverRequest::METHOD => {
                let p: lsp::HoverParams = serde_json::from_value(req.params)?;
                let Some((doc, offset)) = self.at(&p.text_document_position_params) else {
                    return Ok(null);
                };
                let a = doc.nav();
                match hover::hover(a, 0, offset) {
                    Some((text, span)) => serde_json::to_value(lsp::Hover {
                        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                            kind: lsp::MarkupKind::Markdown,
                            value: text,
                        }),
                        range: Some(a.range(span)),
                    })?,
                    None => null,
                }
            }
            r::GotoDefinition::METHOD => {
                let p: lsp::GotoDefinitionParams = serde_json::from_value(req.params)?;
                let Some((doc, offset)) = self.at(&p.text_document_position_params) else {
                    return Ok(null);
                };
                serde_json::to_value(definition(doc.nav(), offset))?
            }
            r::References::METHOD => {
                let p: lsp::ReferenceParams = serde_json::from_value(req.params)?;
                let Some((doc, offset)) = self.at(&p.text_document_position) else {
                    return Ok(null);
                };
                let a = doc.nav();
                let Some(index) = a.index.as_ref() else {
                    return Ok(null);
                };
                let Some((target, _)) = index.at(0, offset) else {
                    return Ok(null);
                };
                let locs: Vec<lsp::Location> = index
                    .references(&target, p.context.include_declaration)
                    .into_iter()
                    .filter_map(|s| a.location(s))
                    .collect();
                serde_json::to_value(locs)?
            }
            r::Completion::METHOD => {
                let p: lsp::CompletionParams = serde_json::from_value(req.params)?;
                let Some((doc, offset)) = self.at(&p.text_document_position) else {
                    return Ok(null);
                };
                let empty = index::Index::default();
                let index = doc.nav().index.as_ref().unwrap_or(&empty);
                serde_json::to_value(lsp::CompletionResponse::Array(completion::complete(
                    index, 0, offset,
                )))?
            }
            r::DocumentSymbolRequest::METHOD => {
                let p: lsp::DocumentSymbolParams = serde_json::from_value(req.params)?;
                let Some(doc) = self.docs.get(&p.text_document.uri) else {
                    return Ok(null);
                };
                serde_json::to_value(lsp::DocumentSymbolResponse::Nested(completion::outline(
                    doc.nav(),
                    0,
                )))?
            }
            r::CodeActionRequest::METHOD => {
                let p: lsp::CodeActionParams = serde_json::from_value(req.params)?;
                let Some(doc) = self.docs.get(&p.text_document.uri) else {
                    return Ok(null);
                };
                let actions: Vec<lsp::CodeActionOrCommand> = doc
                    .latest
                    .quick_fixes(0, p.range)
                    .into_iter()
                    .map(lsp::CodeActionOrCommand::CodeAction)
                    .collect();
                serde_json::to_value(actions)?
            }
            _ => {
                return Err(format!("unsupported request `{}`", req.method).into());
            }
        })
    }
}

/// Where the name at `offset` of the document is declared (an import: the file itself).
fn definition(a: &Analysis, offset: u32) -> Vec<lsp::Location> {
    let Some(index) = a.index.as_ref() else {
        return Vec::new();
    };
    if let Some(imp) = index
        .imports
        .iter()
        .find(|i| i.span.file == 0 && i.span.start <= offset && offset <= i.span.end)
    {
        let path = diagnostics::absolute(std::path::Path::new(&imp.path));
        return lsp::Url::from_file_path(path)
            .ok()
            .map(|uri| lsp::Location::new(uri, lsp::Range::default()))
            .into_iter()
            .collect();
    }
    let Some((target, _)) = index.at(0, offset) else {
        return Vec::new();
    };
    index
        .resolve(&target)
        .into_iter()
        .filter_map(|d| a.location(d.span))
        .collect()
}

fn send_diagnostics(
    conn: &Connection,
    uri: lsp::Url,
    diagnostics: Vec<lsp::Diagnostic>,
    version: Option<i32>,
) -> Result<(), Error> {
    let params = lsp::PublishDiagnosticsParams::new(uri, diagnostics, version);
    conn.sender.send(Message::Notification(Notification::new(
        lsp::notification::PublishDiagnostics::METHOD.to_string(),
        params,
    )))?;
    Ok(())
}
