//! `muster lsp` driven over stdio as an editor drives it: initialize, open, change,
//! diagnostics, hover, definition, references, completion, outline, quick fixes, shutdown.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// A client of the server: sends requests and notifications, reads what comes back.
struct Client {
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Notifications read while waiting for something else.
    pending: Vec<Value>,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_muster"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("muster lsp starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut len = None;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        len = n.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; len.expect("a Content-Length header")];
                r.read_exact(&mut body).unwrap();
                if tx.send(serde_json::from_slice(&body).unwrap()).is_err() {
                    return;
                }
            }
        });
        let mut c = Client {
            child,
            stdin,
            incoming,
            next_id: 1,
            pending: Vec::new(),
        };
        let init = c.request(
            "initialize",
            json!({ "processId": null, "rootUri": null, "capabilities": {} }),
        );
        let caps = &init["capabilities"];
        assert_eq!(caps["hoverProvider"], true, "{init}");
        assert_eq!(caps["definitionProvider"], true);
        assert_eq!(caps["referencesProvider"], true);
        assert_eq!(caps["documentSymbolProvider"], true);
        assert_eq!(caps["textDocumentSync"], 1, "full sync");
        assert!(caps["completionProvider"].is_object());
        assert_eq!(init["serverInfo"]["name"], "muster");
        c.notify("initialized", json!({}));
        c
    }

    fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    fn next(&mut self) -> Value {
        self.incoming
            .recv_timeout(Duration::from_secs(30))
            .expect("the server answers within 30 s")
    }

    /// Sends a request and returns its result (failing on an error response).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let m = self.next();
            if m["id"] == id {
                assert!(m.get("error").is_none(), "{method}: {m}");
                return m["result"].clone();
            }
            self.pending.push(m);
        }
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        if let Some(i) = self.pending.iter().position(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        }) {
            let m = self.pending.remove(i);
            return m["params"]["diagnostics"].as_array().unwrap().clone();
        }
        loop {
            let m = self.next();
            if m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri {
                return m["params"]["diagnostics"].as_array().unwrap().clone();
            }
            self.pending.push(m);
        }
    }

    /// A fresh server with one document open.
    fn opened(uri: &str, text: &str) -> Client {
        let mut c = Client::start();
        c.open(uri, text);
        c
    }

    /// The code actions offered for the first diagnostic of `uri` with `code`.
    fn quick_fixes(&mut self, uri: &str, code: &str) -> Value {
        let diags = self.diagnostics(uri);
        let d = diags
            .iter()
            .find(|d| d["code"] == code)
            .unwrap_or_else(|| panic!("no {code} in {diags:#?}"))
            .clone();
        self.request(
            "textDocument/codeAction",
            json!({ "textDocument": { "uri": uri }, "range": d["range"],
                    "context": { "diagnostics": [d] } }),
        )
    }

    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "muster", "version": 1, "text": text } }),
        );
    }

    fn change(&mut self, uri: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version },
                    "contentChanges": [ { "text": text } ] }),
        );
    }

    fn at(&mut self, method: &str, uri: &str, pos: (u32, u32)) -> Value {
        let mut params = json!({ "textDocument": { "uri": uri },
                                 "position": { "line": pos.0, "character": pos.1 } });
        if method == "textDocument/references" {
            params["context"] = json!({ "includeDeclaration": true });
        }
        self.request(method, params)
    }

    /// `shutdown`, then `exit`: the server must end with status 0.
    fn finish(mut self) {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

fn game(name: &str) -> (String, String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    (uri_of(&path), text)
}

fn uri_of(path: &Path) -> String {
    format!("file://{}", path.canonicalize().unwrap().display())
}

/// The (line, UTF-16 column) of the `nth` occurrence of `needle` (from 0), plus `shift`.
fn pos(text: &str, needle: &str, nth: usize, shift: u32) -> (u32, u32) {
    let at = text.match_indices(needle).nth(nth).expect(needle).0;
    let line = text[..at].matches('\n').count() as u32;
    let col = text[..at]
        .rsplit('\n')
        .next()
        .unwrap()
        .encode_utf16()
        .count() as u32;
    (line, col + shift)
}

fn range_of(v: &Value) -> ((u64, u64), (u64, u64)) {
    let p = |x: &Value| {
        (
            x["line"].as_u64().unwrap(),
            x["character"].as_u64().unwrap(),
        )
    };
    (p(&v["start"]), p(&v["end"]))
}

/// A fresh folder for rules files written by a test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("muster-lsp-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_shipped_game_opens_clean_and_a_misspelt_name_is_reported_with_its_fix() {
    let (uri, text) = game("army_ants.muster");
    let mut c = Client::opened(&uri, &text);
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());

    // `own_cells` misspelt in the march.
    let at = text.find("runs(own_cells").unwrap() + "runs(".len();
    let broken = format!("{}own_cels{}", &text[..at], &text[at + "own_cells".len()..]);
    c.change(&uri, 2, &broken);
    let diags = c.diagnostics(&uri);
    assert_eq!(diags.len(), 1, "{diags:#?}");
    let d = &diags[0];
    let (line, col) = pos(&broken, "own_cels", 0, 0);
    assert_eq!(
        range_of(&d["range"]),
        ((line as u64, col as u64), (line as u64, col as u64 + 8))
    );
    assert_eq!(d["severity"], 1);
    assert_eq!(d["code"], "muster::unknown-name");
    assert_eq!(d["source"], "muster");
    let message = d["message"].as_str().unwrap();
    assert!(message.starts_with("unknown name `own_cels`"), "{message}");
    assert!(
        message.ends_with("help: did you mean `own_cells`?"),
        "{message}"
    );
    // The same words as `validate --format json`.
    let dir = scratch("words");
    std::fs::write(dir.join("broken.muster"), &broken).unwrap();
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("games/lib/standard_deck.muster"),
        dir.join("lib/standard_deck.muster"),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_muster"))
        .current_dir(&dir)
        .args(["validate", "--format", "json", "broken.muster"])
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        message,
        format!(
            "{}\nhelp: {}",
            json[0]["message"].as_str().unwrap(),
            json[0]["help"].as_str().unwrap()
        )
    );
    assert_eq!(json[0]["line"], line + 1);
    assert_eq!(json[0]["column"], col + 1);
    assert_eq!(json[0]["end_line"], line + 1);
    assert_eq!(json[0]["end_column"], col + 1 + 8);
    // Related information: the label, and where the suggested name is declared.
    let related = d["relatedInformation"].as_array().unwrap();
    let def_line = pos(&broken, "def own_cells", 0, 0).0 as u64;
    assert!(
        related.iter().any(|r| r["location"]["uri"] == uri.as_str()
            && r["location"]["range"]["start"]["line"] == def_line
            && r["message"] == "`own_cells` is declared here"),
        "{related:#?}"
    );

    // The quick fix replaces the misspelt name.
    let actions = c.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": uri }, "range": d["range"],
                "context": { "diagnostics": [d] } }),
    );
    let actions = actions.as_array().unwrap();
    assert_eq!(actions.len(), 1, "{actions:#?}");
    assert_eq!(actions[0]["title"], "replace with `own_cells`");
    assert_eq!(actions[0]["kind"], "quickfix");
    let edits = &actions[0]["edit"]["changes"][uri.as_str()];
    assert_eq!(edits[0]["newText"], "own_cells");
    assert_eq!(edits[0]["range"], d["range"]);

    // Fixed again: the diagnostics clear.
    c.change(&uri, 3, &text);
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());
    c.finish();
}

#[test]
fn hover_shows_zones_actions_definitions_and_built_ins() {
    let (uri, text) = game("army_ants.muster");
    let mut c = Client::opened(&uri, &text);
    c.diagnostics(&uri);
    let value = |h: &Value| h["contents"]["value"].as_str().unwrap().to_string();

    // A zone, where it is used: its visibility.
    let h = c.at("textDocument/hover", &uri, pos(&text, "to army(p)", 0, 4));
    assert!(value(&h).contains("zone army per seat hidden"), "{h}");
    let h = c.at("textDocument/hover", &uri, pos(&text, "to fallen(", 0, 4));
    assert!(value(&h).contains("zone fallen per seat public"), "{h}");
    // An action, where a turn offers it: its parameters and their domains.
    let h = c.at(
        "textDocument/hover",
        &uri,
        pos(&text, "march, move_out", 0, 8),
    );
    let v = value(&h);
    assert!(v.contains("action move_out(from, dest)"), "{v}");
    assert!(v.contains("choose dest in reach(from, orthogonal)"), "{v}");
    // A definition with its body.
    let h = c.at(
        "textDocument/hover",
        &uri,
        pos(&text, "leader(from.piece)", 0, 1),
    );
    assert!(value(&h).contains("def leader(c) = c.rank == 12"), "{h}");
    // The hover's range is the name under the cursor.
    let (l, col) = pos(&text, "leader(from.piece)", 0, 0);
    assert_eq!(
        range_of(&h["range"]),
        ((l as u64, col as u64), (l as u64, col as u64 + 6))
    );
    // A built-in function: its signature and its line of the reference.
    let h = c.at("textDocument/hover", &uri, pos(&text, "max(0,", 0, 1));
    let v = value(&h);
    assert!(v.contains("`max(a, b)`"), "{v}");
    assert!(v.contains("the larger or smaller of two numbers"), "{v}");
    // A built-in name.
    let h = c.at(
        "textDocument/hover",
        &uri,
        pos(&text, "x in territory(opponent)", 0, 16),
    );
    assert!(value(&h).contains("`opponent`: seat"), "{h}");
    // A built-in field.
    let h = c.at(
        "textDocument/hover",
        &uri,
        pos(&text, "foe.owner != me", 0, 5),
    );
    let v = value(&h);
    assert!(v.contains("built-in field `.owner`"), "{v}");
    assert!(v.contains("the seat that owns it"), "{v}");
    // A local name: what binds it.
    let h = c.at(
        "textDocument/hover",
        &uri,
        pos(&text, "require dest not in straight", 0, 21),
    );
    assert!(
        value(&h).contains("let straight = slide(from, orthogonal)"),
        "{h}"
    );
    // Nothing under the cursor: no hover.
    let h = c.at("textDocument/hover", &uri, (0, 0));
    assert_eq!(h, Value::Null);
    // A request the server does not know: "method not found", and it goes on.
    c.send(json!({ "jsonrpc": "2.0", "id": 999, "method": "textDocument/rename", "params": {} }));
    let m = loop {
        let m = c.next();
        if m["id"] == 999 {
            break m;
        }
    };
    assert_eq!(m["error"]["code"], -32601, "{m}");
    c.finish();
}

#[test]
fn definition_and_references_follow_every_kind_of_name() {
    let (uri, text) = game("army_ants.muster");
    let lib = uri_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/lib/standard_deck.muster"));
    let mut c = Client::opened(&uri, &text);
    c.diagnostics(&uri);
    let line_of = |v: &Value| v["range"]["start"]["line"].as_u64().unwrap();
    let only = |v: &Value| -> Value {
        let a = v.as_array().unwrap();
        assert_eq!(a.len(), 1, "{v:#}");
        a[0].clone()
    };

    // A definition used in an action.
    let d = only(&c.at(
        "textDocument/definition",
        &uri,
        pos(&text, "runs(own_cells", 0, 6),
    ));
    assert_eq!(d["uri"], uri.as_str());
    assert_eq!(line_of(&d), pos(&text, "def own_cells", 0, 0).0 as u64);
    assert_eq!(d["range"]["start"]["character"], 4);
    // A phase named by `next` and by a comparison.
    let d = only(&c.at(
        "textDocument/definition",
        &uri,
        pos(&text, "next battle", 0, 6),
    ));
    assert_eq!(line_of(&d), pos(&text, "phase battle", 0, 0).0 as u64);
    // A region declared once per seat: both declarations.
    let d = c.at(
        "textDocument/definition",
        &uri,
        pos(&text, "in territory(opponent)", 0, 4),
    );
    let lines: Vec<u64> = d.as_array().unwrap().iter().map(line_of).collect();
    assert_eq!(
        lines,
        vec![
            pos(&text, "region territory(Red)", 0, 0).0 as u64,
            pos(&text, "region territory(Black)", 0, 0).0 as u64
        ]
    );
    // A per-seat variable through a field.
    let d = only(&c.at(
        "textDocument/definition",
        &uri,
        pos(&text, "me.rally_turns == 5", 0, 4),
    ));
    assert_eq!(line_of(&d), pos(&text, "var rally_turns", 0, 0).0 as u64);
    // A local `choose` parameter.
    let d = only(&c.at(
        "textDocument/definition",
        &uri,
        pos(&text, "shifts(run, dir)", 0, 7),
    ));
    assert_eq!(line_of(&d), pos(&text, "choose run in", 0, 0).0 as u64);
    // An action named in a turn.
    let d = only(&c.at(
        "textDocument/definition",
        &uri,
        pos(&text, "one of march", 0, 8),
    ));
    assert_eq!(line_of(&d), pos(&text, "action march", 0, 0).0 as u64);
    // A kind declared in the imported file.
    let d = only(&c.at(
        "textDocument/definition",
        &uri,
        pos(&text, "label Card", 0, 7),
    ));
    assert_eq!(d["uri"], lib.as_str());
    // The import itself: the imported file.
    let d = only(&c.at(
        "textDocument/definition",
        &uri,
        pos(&text, "import \"lib", 0, 10),
    ));
    assert_eq!(d["uri"], lib.as_str());

    // References: every use of the variable, and its declaration.
    let refs = c.at(
        "textDocument/references",
        &uri,
        pos(&text, "var rally_turns", 0, 5),
    );
    let refs = refs.as_array().unwrap();
    assert_eq!(refs.len(), text.matches("rally_turns").count(), "{refs:#?}");
    // A local's references stay within its action.
    let refs = c.at(
        "textDocument/references",
        &uri,
        pos(&text, "let straight", 0, 5),
    );
    let lines: Vec<u64> = refs.as_array().unwrap().iter().map(line_of).collect();
    assert_eq!(
        lines,
        vec![
            pos(&text, "let straight", 0, 0).0 as u64,
            pos(&text, "not in straight", 0, 0).0 as u64
        ]
    );
    c.finish();
}

#[test]
fn completion_offers_locals_declared_names_built_ins_and_keywords() {
    let (uri, text) = game("army_ants.muster");
    let mut c = Client::opened(&uri, &text);
    c.diagnostics(&uri);
    let labels = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };
    // Inside the attack's `do` block.
    let inside = labels(&c.at("textDocument/completion", &uri, pos(&text, "win me", 0, 0)));
    for want in [
        "att",
        "foe",
        "from",
        "target",
        "own_cells",
        "leader",
        "fallen",
        "rally_turns",
        "march",
        "sight",
        "opponent",
        "orthogonal",
        "move",
        "if",
    ] {
        assert!(inside.iter().any(|l| l == want), "{want} in {inside:?}");
    }
    // The locals of another action are not offered there.
    assert!(!inside.iter().any(|l| l == "straight"), "{inside:?}");
    // Each name once.
    let mut sorted = inside.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), inside.len());
    // Built-ins carry their signature.
    let items = c.at("textDocument/completion", &uri, pos(&text, "win me", 0, 0));
    let adjacent = items
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == "adjacent")
        .unwrap();
    assert_eq!(adjacent["detail"], "adjacent(cell, DIRS)");
    assert_eq!(adjacent["kind"], 3, "a function");
    // At the top level: no locals.
    let top = labels(&c.at("textDocument/completion", &uri, (0, 0)));
    assert!(!top.iter().any(|l| l == "att"));
    assert!(top.iter().any(|l| l == "variant"));
    c.finish();
}

#[test]
fn the_outline_lists_the_declarations_with_a_variants_inside_it() {
    let (uri, text) = game("army_ants.muster");
    let mut c = Client::opened(&uri, &text);
    c.diagnostics(&uri);
    let syms = c.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": uri } }),
    );
    let syms = syms.as_array().unwrap();
    let names: Vec<&str> = syms.iter().map(|s| s["name"].as_str().unwrap()).collect();
    for want in [
        "Red",
        "Black",
        "territory",
        "box",
        "army",
        "fallen",
        "value",
        "leader",
        "rally_turns",
        "rally",
        "battle",
        "march",
        "attack",
        "favor",
        "minor_deployment",
    ] {
        assert!(names.contains(&want), "{want} in {names:?}");
    }
    let variant = syms
        .iter()
        .find(|s| s["name"] == "minor_deployment")
        .unwrap();
    let inner: Vec<&str> = variant["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(
        inner.contains(&"hand") && inner.contains(&"deployment"),
        "{inner:?}"
    );
    // Kinds: 23 = class, zones: 23 (struct) ... the zone `army` is a struct.
    let army = syms.iter().find(|s| s["name"] == "army").unwrap();
    assert_eq!(army["kind"], 23);
    c.finish();
}

#[test]
fn errors_in_variants_and_imports_are_shown_where_they_are() {
    let dir = scratch("variants");
    std::fs::write(
        dir.join("pieces.muster"),
        "kind Piece { value: 1..3 }\n\nzone spare shared publik\n",
    )
    .unwrap();
    let main_text = "import \"pieces.muster\"\n\
        game \"Tiny\" { players 2 }\n\
        seat A {}\nseat B {}\n\
        board grid 3 x 3 {}\n\
        action pass_turn { do { } }\n\
        phase play { turn { one of pass_turn } }\n\
        variant quick {\n  phase play { turn { one of pas_turn } }\n}\n";
    std::fs::write(dir.join("main.muster"), main_text).unwrap();
    let main = uri_of(&dir.join("main.muster"));
    let lib = uri_of(&dir.join("pieces.muster"));
    let mut c = Client::opened(&main, main_text);
    // The import's syntax error is published for the imported file.
    let in_lib = c.diagnostics(&lib);
    assert_eq!(in_lib.len(), 1, "{in_lib:#?}");
    assert_eq!(in_lib[0]["range"]["start"]["line"], 2);
    let _ = c.diagnostics(&main);

    // Fixed: the variant's own mistake shows, in the variant.
    std::fs::write(dir.join("pieces.muster"), "kind Piece { value: 1..3 }\n").unwrap();
    c.notify(
        "textDocument/didSave",
        json!({ "textDocument": { "uri": main } }),
    );
    let in_lib = c.diagnostics(&lib);
    assert_eq!(in_lib, Vec::<Value>::new());
    let diags = c.diagnostics(&main);
    let unknown: Vec<&Value> = diags
        .iter()
        .filter(|d| d["code"] == "muster::unknown-name")
        .collect();
    assert_eq!(unknown.len(), 1, "{diags:#?}");
    assert_eq!(unknown[0]["range"]["start"]["line"], 8);
    assert!(unknown[0]["message"]
        .as_str()
        .unwrap()
        .contains("`pas_turn`"));
    // Its quick fix.
    let actions = c.request(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": main }, "range": unknown[0]["range"],
                "context": { "diagnostics": [] } }),
    );
    assert_eq!(
        actions[0]["edit"]["changes"][main.as_str()][0]["newText"],
        "pass_turn"
    );
    c.finish();
}

#[test]
fn a_missing_attribute_is_added_by_its_quick_fix() {
    let dir = scratch("attr");
    let text = "game \"Tiny\" { players 2 }\n\
        seat A { home: a1 }\nseat B {}\n\
        board grid 3 x 3 {}\n\
        action pass_turn { do { } }\n\
        phase play { turn { one of pass_turn } }\n";
    std::fs::write(dir.join("main.muster"), text).unwrap();
    let uri = uri_of(&dir.join("main.muster"));
    let mut c = Client::opened(&uri, text);
    let actions = c.quick_fixes(&uri, "muster::seats");
    assert_eq!(actions[0]["title"], "add `home: a1`", "{actions:#}");
    let edit = &actions[0]["edit"]["changes"][uri.as_str()][0];
    assert_eq!(edit["newText"], " home: a1");
    // Applied, the file checks.
    let at = text.find("seat B {").unwrap() + "seat B {".len();
    let fixed = format!("{} home: a1{}", &text[..at], &text[at..]);
    assert_eq!(edit["range"]["start"]["line"], 2);
    assert_eq!(edit["range"]["start"]["character"], 8);
    c.change(&uri, 2, &fixed);
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());
    c.finish();
}

#[test]
fn navigation_keeps_working_while_the_text_does_not_parse() {
    let (uri, text) = game("army_ants.muster");
    let mut c = Client::opened(&uri, &text);
    c.diagnostics(&uri);
    // Half-typed: a syntax error at the end.
    let typing = format!("{text}\naction half {{ choose x in ");
    c.change(&uri, 2, &typing);
    let diags = c.diagnostics(&uri);
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0]["code"], "muster::syntax");
    let d = c.at(
        "textDocument/definition",
        &uri,
        pos(&text, "runs(own_cells", 0, 6),
    );
    assert_eq!(d.as_array().unwrap().len(), 1);
    let items = c.at(
        "textDocument/completion",
        &uri,
        pos(&typing, "choose x in ", 0, 12),
    );
    assert!(items
        .as_array()
        .unwrap()
        .iter()
        .any(|i| i["label"] == "own_cells"));
    // Closed: its diagnostics are cleared.
    c.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": uri } }),
    );
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());
    c.finish();
}

#[test]
fn a_library_file_opened_alone_is_not_reported_as_a_game_without_a_game() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/lib/standard_deck.muster");
    let uri = uri_of(&path);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut c = Client::opened(&uri, &text);
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());
    // Its own syntax errors are shown.
    c.change(&uri, 2, &format!("{text}\nkind {{"));
    let diags = c.diagnostics(&uri);
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0]["code"], "muster::syntax");
    // Its names can be followed.
    c.change(&uri, 3, &text);
    c.diagnostics(&uri);
    let syms = c.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": uri } }),
    );
    assert!(!syms.as_array().unwrap().is_empty());
    c.finish();
}

#[test]
fn a_card_missing_an_attribute_gets_it_from_its_quick_fix() {
    let dir = scratch("card");
    let text = "game \"Tiny\" { players 2 }\n\
        seat A {}\nseat B {}\n\
        board grid 3 x 3 {}\n\
        kind Token { worth: 1..5 }\n\
        deck tokens of Token { card { worth: 2 } card { } }\n\
        zone pile shared public { holds tokens }\n\
        action pass_turn { do { shuffle pile } }\n\
        phase play { turn { one of pass_turn } }\n";
    std::fs::write(dir.join("main.muster"), text).unwrap();
    let uri = uri_of(&dir.join("main.muster"));
    let mut c = Client::opened(&uri, text);
    let actions = c.quick_fixes(&uri, "muster::missing-field");
    assert_eq!(actions[0]["title"], "add `worth: 2`", "{actions:#}");
    let edit = &actions[0]["edit"]["changes"][uri.as_str()][0];
    assert_eq!(edit["newText"], " worth: 2");
    // Inside the second card's braces.
    let (line, col) = pos(text, "card { }", 0, 6);
    assert_eq!(
        edit["range"]["start"],
        json!({ "line": line, "character": col })
    );
    let fixed = text.replace("card { }", "card { worth: 2 }");
    c.change(&uri, 2, &fixed);
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());
    c.finish();
}

#[test]
fn the_server_answers_every_request_on_mangled_text() {
    let (uri, text) = game("battalion_emperor.muster");
    let mut c = Client::opened(&uri, &text);
    assert_eq!(c.diagnostics(&uri), Vec::<Value>::new());
    let lines = text.lines().count() as u32;
    let mut version = 1;
    // Cut the file at many places, put non-ASCII text in, and ask for everything at
    // places inside and outside the text.
    for k in 1..24u32 {
        let mut cut = k as usize * text.len() / 24;
        while !text.is_char_boundary(cut) {
            cut += 1;
        }
        for mangled in [
            text[..cut].to_string(),
            format!("{}é—✓ 𝄞{}", &text[..cut], &text[cut..]),
        ] {
            version += 1;
            c.change(&uri, version, &mangled);
            let diags = c.diagnostics(&uri);
            for d in &diags {
                assert!(d["message"].as_str().is_some_and(|m| !m.is_empty()), "{d}");
            }
            for at in [
                (0, 0),
                (k * lines / 24, 3),
                (k * lines / 24, 999),
                (lines + 5, 0),
            ] {
                for method in [
                    "textDocument/hover",
                    "textDocument/definition",
                    "textDocument/references",
                    "textDocument/completion",
                ] {
                    c.at(method, &uri, at);
                }
            }
            c.request(
                "textDocument/documentSymbol",
                json!({ "textDocument": { "uri": uri } }),
            );
            c.request(
                "textDocument/codeAction",
                json!({ "textDocument": { "uri": uri },
                        "range": { "start": { "line": 0, "character": 0 },
                                   "end": { "line": lines + 5, "character": 0 } },
                        "context": { "diagnostics": [] } }),
            );
        }
    }
    // Incremental changes too (ranges in UTF-16 columns), though the server asks for full text.
    version += 1;
    c.change(&uri, version, "/* é𝄞 */ game \"\" { players 2 }\n");
    let diags = c.diagnostics(&uri);
    assert!(diags.iter().any(|d| d["message"] == "the game has no name\nhelp: write `game \"My Game\" { ... }`"), "{diags:#?}");
    // The name typed between the quotes: column 16 in UTF-16 units (`𝄞` counts 2).
    version += 1;
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": version },
                "contentChanges": [ { "range": { "start": { "line": 0, "character": 16 },
                                                 "end": { "line": 0, "character": 16 } },
                                      "text": "Tiny" } ] }),
    );
    let diags = c.diagnostics(&uri);
    assert!(!diags.is_empty());
    assert!(
        diags
            .iter()
            .all(|d| !d["message"].as_str().unwrap().contains("no name")),
        "{diags:#?}"
    );
    c.finish();
}

// The board's size and `cell(f, r)` are hovered from their rows of the reference.
#[test]
fn hover_knows_the_boards_size_and_cell() {
    let (sig, doc) = muster::lsp::hover::builtin("width").expect("width is documented");
    assert_eq!(sig, "`width`: number");
    assert!(doc.contains("number of files"), "{doc}");
    let (sig, doc) = muster::lsp::hover::builtin("height").expect("height is documented");
    assert_eq!(sig, "`height`: number");
    assert!(doc.contains("number of ranks"), "{doc}");
    let (sig, doc) = muster::lsp::hover::builtin("cell").expect("cell is documented");
    assert_eq!(sig, "`cell(f, r)`");
    assert!(doc.contains("`none` off the board"), "{doc}");
}
