//! The language server's latency on the largest shipped games: from a `didChange` to the
//! `publishDiagnostics` that answers it (the whole file checked again, base game and
//! variants), and a hover and a completion after it. The server runs in process on an
//! in-memory connection, so the figures leave out only the pipe. Run with
//! `cargo bench --bench lsp`. (A benchmark, not a timed test.)

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{json, Value};
use std::path::Path;
use std::time::{Duration, Instant};

fn request(client: &Connection, id: i32, method: &str, params: Value) -> Value {
    client
        .sender
        .send(Message::Request(Request::new(
            RequestId::from(id),
            method.into(),
            params,
        )))
        .unwrap();
    loop {
        match client.receiver.recv().unwrap() {
            Message::Response(r) if r.id == RequestId::from(id) => {
                return r.result.unwrap_or(Value::Null)
            }
            _ => {}
        }
    }
}

fn notify(client: &Connection, method: &str, params: Value) {
    client
        .sender
        .send(Message::Notification(Notification::new(
            method.into(),
            params,
        )))
        .unwrap();
}

/// Waits for the diagnostics of `version`; returns how many there are.
fn diagnostics(client: &Connection, version: i32) -> usize {
    loop {
        if let Message::Notification(n) = client.receiver.recv().unwrap() {
            if n.method == "textDocument/publishDiagnostics" && n.params["version"] == version {
                return n.params["diagnostics"].as_array().unwrap().len();
            }
        }
    }
}

fn stats(name: &str, what: &str, mut times: Vec<Duration>) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{name:<28} {what:<26} median {:6.2} ms   p90 {:6.2} ms   max {:6.2} ms   ({} runs)",
        ms(times[times.len() / 2]),
        ms(times[times.len() * 9 / 10]),
        ms(*times.last().unwrap()),
        times.len()
    );
}

fn measure(file: &str, needle: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games")
        .join(file)
        .canonicalize()
        .unwrap();
    let uri = format!("file://{}", path.display());
    let text = std::fs::read_to_string(&path).unwrap();
    let at = text.find(needle).expect(needle);
    // The same file with the name misspelt (one letter dropped).
    let broken = format!("{}{}", &text[..at + 1], &text[at + 2..]);
    let (server, client) = Connection::memory();
    let thread = std::thread::spawn(move || muster::lsp::serve(&server).unwrap());
    request(
        &client,
        0,
        "initialize",
        json!({ "processId": null, "rootUri": null, "capabilities": {} }),
    );
    notify(&client, "initialized", json!({}));
    notify(
        &client,
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "muster", "version": 1, "text": text } }),
    );
    assert_eq!(diagnostics(&client, 1), 0, "{file} checks clean");
    let line = text[..at].matches('\n').count();
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    let position = json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": col + 1 } });

    let (mut change, mut hover, mut complete) = (Vec::new(), Vec::new(), Vec::new());
    let runs = 40;
    for v in 2..2 + runs {
        let (body, want) = if v % 2 == 0 { (&broken, 1) } else { (&text, 0) };
        let t = Instant::now();
        notify(
            &client,
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": v }, "contentChanges": [ { "text": body } ] }),
        );
        let n = diagnostics(&client, v);
        change.push(t.elapsed());
        assert!(n >= want, "{file}: version {v} has {n} diagnostic(s)");
        let t = Instant::now();
        request(&client, 10 * v, "textDocument/hover", position.clone());
        hover.push(t.elapsed());
        let t = Instant::now();
        let items = request(
            &client,
            10 * v + 1,
            "textDocument/completion",
            position.clone(),
        );
        complete.push(t.elapsed());
        assert!(items.as_array().is_some_and(|a| !a.is_empty()));
    }
    stats(file, "didChange -> diagnostics", change);
    stats(file, "hover", hover);
    stats(file, "completion", complete);
    request(&client, 1, "shutdown", Value::Null);
    notify(&client, "exit", Value::Null);
    thread.join().unwrap();
}

fn main() {
    // The largest shipped games; the name misspelt is one each file uses.
    measure("battalion_emperor.muster", "worth(");
    measure("battle_line.muster", "rank_of(");
}
