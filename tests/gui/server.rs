//! A `hayate gui` process on a free port, and a socket client speaking its JSON messages.

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// The server process, killed when dropped.
pub struct Server {
    child: Child,
    pub port: u16,
    pub token: String,
}

impl Server {
    /// `hayate gui --port 0` with `args`; reads the URL from its first line.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hayate"))
            .args(["gui", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start hayate gui");
        let mut first = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut first)
            .expect("first line");
        let rest = first
            .trim_end()
            .strip_prefix("Open http://127.0.0.1:")
            .unwrap_or_else(|| panic!("unexpected first line {first:?}"));
        let (port, token) = rest.split_once("/?token=").expect("port and token");
        assert_eq!(token.len(), 32, "128-bit hex token");
        assert!(token.bytes().all(|b| b.is_ascii_hexdigit()));
        Server {
            child,
            port: port.parse().expect("port"),
            token: token.to_string(),
        }
    }

    /// The server's process id (its engines are its children).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}?token={}", self.port, self.token)
    }

    pub fn socket(&self) -> Client {
        Client::connect(&format!(
            "ws://127.0.0.1:{}/socket?token={}",
            self.port, self.token
        ))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A WebSocket client that reads the server's messages as JSON.
pub struct Client {
    ws: WebSocket<MaybeTlsStream<TcpStream>>,
    /// The last `hello`.
    pub hello: Value,
}

impl Client {
    pub fn connect(url: &str) -> Client {
        let (ws, _) = tungstenite::connect(url).expect("socket handshake");
        if let MaybeTlsStream::Plain(s) = ws.get_ref() {
            s.set_read_timeout(Some(Duration::from_millis(100)))
                .expect("timeout");
        }
        let mut c = Client {
            ws,
            hello: Value::Null,
        };
        c.hello = c.expect("hello", Duration::from_secs(5));
        c.expect("state", Duration::from_secs(5));
        c
    }

    pub fn send(&mut self, msg: Value) {
        self.ws.send(Message::text(msg.to_string())).expect("send");
    }

    pub fn send_raw(&mut self, msg: Message) {
        self.ws.send(msg).expect("send");
    }

    /// The next message within `within`, or None.
    pub fn next(&mut self, within: Duration) -> Option<Value> {
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            match self.ws.read() {
                Ok(Message::Text(t)) => {
                    return Some(serde_json::from_str(t.as_str()).expect("JSON"))
                }
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) => {}
                Err(e) => panic!("socket: {e}"),
            }
        }
        None
    }

    /// Skips messages until one of type `ty` (panics after `within`).
    pub fn expect(&mut self, ty: &str, within: Duration) -> Value {
        let deadline = Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next(left) {
                Some(v) if v["type"] == ty => return v,
                Some(_) => {}
                None => panic!("no '{ty}' message within {within:?}"),
            }
        }
    }

    /// Sends a request and returns the server's direct answer (state, error or export), skipping pushed
    /// engine output.
    pub fn request(&mut self, msg: Value) -> Value {
        self.send(msg);
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self.next(left).expect("an answer within 5 s");
            if matches!(
                v["type"].as_str(),
                Some("state" | "error" | "export" | "games")
            ) {
                return v;
            }
        }
    }

    /// Waits for a state that satisfies `pred`.
    pub fn wait_state(&mut self, within: Duration, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + within;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self.expect("state", left);
            if pred(&v) {
                return v;
            }
        }
    }
}

/// Starts a minishogi `hayate match` of `games` games of Hayate against itself at the time control `tc` (as
/// `--tc` takes it), its records in `dir`, and waits until its games.txt exists (the watched directory is then a
/// match's).
pub fn start_minishogi_match(dir: &std::path::Path, tc: &str, games: u32) -> Child {
    let bin = env!("CARGO_BIN_EXE_hayate");
    let engine = format!("cmd={bin}");
    let child = Command::new(bin)
        .args([
            "match",
            "--variant",
            "minishogi",
            "--engine",
            &engine,
            "--engine",
            &engine,
        ])
        .args(["--games", &games.to_string(), "--tc", tc, "--out"])
        .arg(dir)
        .stdout(Stdio::null())
        .spawn()
        .expect("start hayate match");
    let deadline = Instant::now() + Duration::from_secs(20);
    while !dir.join("games.txt").exists() {
        assert!(Instant::now() < deadline, "no games.txt");
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}
