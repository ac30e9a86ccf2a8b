//! Just enough of the Chrome DevTools Protocol for the browser tests, over the crate's own `tungstenite`: a
//! general client's generated bindings for the whole protocol cost minutes of build time on the CI machine,
//! and the tests use half a dozen commands.
//!
//! One WebSocket to the browser; the page's commands go through it in a flattened session (`sessionId`), so
//! there is a single stream to read, and each reply is found by its `id` among the events Chromium sends.

use std::cell::{Cell, RefCell};
use std::io::{BufRead, BufReader, ErrorKind};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::{Message, WebSocket};

/// How long Chromium may take to open its DevTools socket: a cold start on a loaded machine is slow.
const START_TIMEOUT: Duration = Duration::from_secs(60);

pub struct Browser {
    child: Child,
    conn: RefCell<Connection>,
    /// The longest any one command may take before the test fails instead of hanging on a stuck browser.
    timeout: Cell<Duration>,
}

struct Connection {
    ws: WebSocket<TcpStream>,
    next_id: u64,
}

/// One `Input.dispatchMouseEvent` kind.
#[derive(Clone, Copy, Debug)]
pub enum Mouse {
    Pressed,
    Moved,
    Released,
}

impl Browser {
    /// Starts headless Chromium with a DevTools socket on a port of its choosing (so parallel runs never
    /// collide) and connects to it. `args` come after the ones every run needs.
    pub fn launch(path: &Path, profile: &Path, window: (u32, u32), args: &[&str]) -> Browser {
        let mut child = Command::new(path)
            .args([
                "--headless=new",
                "--no-sandbox",
                "--remote-debugging-port=0",
                &format!("--user-data-dir={}", profile.display()),
                &format!("--window-size={},{}", window.0, window.1),
            ])
            .args(args)
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start chromium");
        // stderr is read on a thread for the whole run: Chromium logs there, and a full pipe would block it
        let stderr = child.stderr.take().expect("chromium's stderr");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                // the receiver is gone once the socket is known; the lines are still drained
                let _ = tx.send(line);
            }
        });
        let deadline = Instant::now() + START_TIMEOUT;
        let mut seen = Vec::new();
        let url = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) => match line.strip_prefix("DevTools listening on ") {
                    Some(url) => break url.trim().to_string(),
                    None => seen.push(line),
                },
                Err(e) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    panic!(
                        "chromium gave no DevTools socket ({e}); its stderr:\n{}",
                        seen.join("\n")
                    );
                }
            }
        };
        let host = url
            .strip_prefix("ws://")
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("unexpected DevTools address {url}"));
        let stream = TcpStream::connect(host).expect("connect to chromium's DevTools socket");
        let (ws, _) = tungstenite::client(url.as_str(), stream)
            .unwrap_or_else(|e| panic!("DevTools WebSocket handshake with {url}: {e}"));
        Browser {
            child,
            conn: RefCell::new(Connection { ws, next_id: 1 }),
            timeout: Cell::new(Duration::from_secs(30)),
        }
    }

    /// A new page, attached in flattened mode so that its commands share the browser's socket.
    pub fn new_tab(&self) -> Tab<'_> {
        let target = self.call(None, "Target.createTarget", json!({"url": "about:blank"}));
        let target_id = target["targetId"].as_str().expect("targetId");
        let attached = self.call(
            None,
            "Target.attachToTarget",
            json!({"targetId": target_id, "flatten": true}),
        );
        let session = attached["sessionId"]
            .as_str()
            .expect("sessionId")
            .to_string();
        let tab = Tab {
            browser: self,
            session,
        };
        tab.call("Page.enable", json!({}));
        tab
    }

    /// Sends one command and returns its `result`; events and other replies on the way are dropped, as
    /// nothing here subscribes to events it needs.
    fn call(&self, session: Option<&str>, method: &str, params: Value) -> Value {
        let mut conn = self.conn.borrow_mut();
        let id = conn.next_id;
        conn.next_id += 1;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        conn.ws
            .send(Message::text(msg.to_string()))
            .unwrap_or_else(|e| panic!("send {method} to chromium: {e}"));
        let deadline = Instant::now() + self.timeout.get();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            assert!(
                !left.is_zero(),
                "chromium did not answer {method} within {:?}",
                self.timeout.get()
            );
            conn.ws
                .get_ref()
                .set_read_timeout(Some(left))
                .expect("socket read timeout");
            let text = match conn.ws.read() {
                Ok(Message::Text(t)) => t,
                Ok(_) => continue,
                Err(tungstenite::Error::Io(e))
                    if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
                {
                    continue
                }
                Err(e) => panic!("reading chromium's answer to {method}: {e}"),
            };
            let reply: Value = serde_json::from_str(&text).expect("DevTools message is JSON");
            if reply["id"].as_u64() != Some(id) {
                continue;
            }
            if let Some(err) = reply.get("error") {
                panic!("{method} failed: {err}");
            }
            return reply["result"].clone();
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // waited for so that the caller can remove the profile once the browser is dropped
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub struct Tab<'a> {
    browser: &'a Browser,
    session: String,
}

impl Tab<'_> {
    pub fn set_default_timeout(&self, timeout: Duration) {
        self.browser.timeout.set(timeout);
    }

    fn call(&self, method: &str, params: Value) -> Value {
        self.browser.call(Some(&self.session), method, params)
    }

    /// Opens `url` and returns once its document has loaded.
    pub fn navigate_to(&self, url: &str) {
        let r = self.call("Page.navigate", json!({"url": url}));
        if let Some(err) = r.get("errorText") {
            panic!("open {url}: {err}");
        }
        // polled rather than waited on as an event: the load event of the blank page the tab started with
        // could otherwise pass for this one
        let deadline = Instant::now() + self.browser.timeout.get();
        while self.evaluate(
            "location.href === 'about:blank' || document.readyState !== 'complete'",
            false,
        ) == Value::Bool(true)
        {
            assert!(Instant::now() < deadline, "{url} did not load");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The value of `js` (awaited when it is a promise), `null` when it has none (`undefined`); an exception
    /// thrown in the page fails the test with its message.
    pub fn evaluate(&self, js: &str, await_promise: bool) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": js, "awaitPromise": await_promise, "returnByValue": true}),
        );
        if let Some(ex) = r.get("exceptionDetails") {
            let text = ex["exception"]["description"]
                .as_str()
                .or(ex["text"].as_str())
                .unwrap_or("?");
            panic!("JavaScript exception in `{js}`: {text}");
        }
        r["result"].get("value").cloned().unwrap_or(Value::Null)
    }

    /// One event with the left button; `buttons` says whether it is held, as a real mouse reports.
    pub fn mouse(&self, kind: Mouse, (x, y): (f64, f64)) {
        let (ty, buttons) = match kind {
            Mouse::Pressed => ("mousePressed", 1),
            Mouse::Moved => ("mouseMoved", 1),
            Mouse::Released => ("mouseReleased", 0),
        };
        self.call(
            "Input.dispatchMouseEvent",
            json!({"type": ty, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1}),
        );
    }

    /// A click as a user makes it: the pointer moves there first (hover state), then press and release.
    pub fn click_point(&self, (x, y): (f64, f64)) {
        self.call(
            "Input.dispatchMouseEvent",
            json!({"type": "mouseMoved", "x": x, "y": y, "button": "none", "buttons": 0}),
        );
        self.mouse(Mouse::Pressed, (x, y));
        self.mouse(Mouse::Released, (x, y));
    }

    /// The viewport as PNG bytes.
    pub fn capture_png(&self) -> Vec<u8> {
        let r = self.call(
            "Page.captureScreenshot",
            json!({"format": "png", "fromSurface": true}),
        );
        decode_base64(r["data"].as_str().expect("screenshot data"))
    }
}

/// Standard base64 with padding, as DevTools sends binary data.
fn decode_base64(text: &str) -> Vec<u8> {
    fn sextet(c: u8) -> u32 {
        match c {
            b'A'..=b'Z' => u32::from(c - b'A'),
            b'a'..=b'z' => u32::from(c - b'a') + 26,
            b'0'..=b'9' => u32::from(c - b'0') + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {:?}", c as char),
        }
    }
    let bytes = text.trim_end_matches('=').as_bytes();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0, |n, (i, &c)| n | sextet(c) << (18 - 6 * i));
        // a chunk of k characters carries k - 1 whole bytes
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

#[test]
fn base64_decodes_with_and_without_padding() {
    assert_eq!(decode_base64(""), b"");
    assert_eq!(decode_base64("TQ=="), b"M");
    assert_eq!(decode_base64("TWE="), b"Ma");
    assert_eq!(decode_base64("TWFu"), b"Man");
    assert_eq!(decode_base64("iVBORw0KGgo="), b"\x89PNG\r\n\x1a\n");
    assert_eq!(decode_base64("+/+/"), [0xfb, 0xff, 0xbf]);
}
