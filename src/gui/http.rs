//! One HTTP connection: reads the request head, checks access, then serves a page file or hands the
//! connection to the WebSocket. Every response closes the connection: the page loads four files once, so
//! keep-alive would buy nothing and cost a parser for request bodies.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use super::access::{self, Credentials};
use super::assets;
use super::server::Context;
use super::socket;

/// The longest request head read; a browser's is well under 4 KiB.
const MAX_HEAD: usize = 16 * 1024;
/// Time a client gets to send its request head.
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);

pub fn handle(mut stream: TcpStream, ctx: &Context) {
    let _ = stream.set_read_timeout(Some(HEAD_TIMEOUT));
    let (head, rest) = match read_head(&mut stream) {
        Ok(x) => x,
        Err(e) => {
            log::debug!("gui: unreadable request: {e}");
            respond(&mut stream, 400, "text/plain", e.as_bytes());
            return;
        }
    };
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut req = httparse::Request::new(&mut headers);
    match req.parse(&head) {
        Ok(httparse::Status::Complete(_)) => {}
        _ => {
            respond(&mut stream, 400, "text/plain", b"bad request");
            return;
        }
    }
    let header = |name: &str| {
        req.headers
            .iter()
            .find(|h| h.name.eq_ignore_ascii_case(name))
            .and_then(|h| std::str::from_utf8(h.value).ok())
    };
    let target = req.path.unwrap_or("");
    if req.method != Some("GET") {
        respond(&mut stream, 405, "text/plain", b"only GET");
        return;
    }
    let creds = Credentials {
        target,
        host: header("Host"),
        origin: header("Origin"),
    };
    if let Err(why) = access::check(&ctx.token, ctx.port, &creds) {
        log::warn!("gui: refused {}: {why}", access::path(target));
        respond(&mut stream, 403, "text/plain", why.as_bytes());
        return;
    }
    let path = access::path(target);
    if path == "/socket" {
        let upgrade = header("Upgrade").is_some_and(|u| u.eq_ignore_ascii_case("websocket"));
        match (upgrade, header("Sec-WebSocket-Key")) {
            (true, Some(key)) => {
                let key = key.to_string();
                socket::run(stream, rest, &key, &ctx.config);
            }
            _ => respond(
                &mut stream,
                400,
                "text/plain",
                b"a WebSocket upgrade is needed",
            ),
        }
        return;
    }
    match assets::get(path) {
        Some(a) => respond(&mut stream, 200, a.content_type, a.body),
        None => respond(&mut stream, 404, "text/plain", b"not found"),
    }
}

/// The bytes up to the blank line that ends the head, and whatever came after them.
fn read_head(stream: &mut TcpStream) -> Result<(Vec<u8>, Vec<u8>), String> {
    let mut buf = Vec::with_capacity(2048);
    let mut chunk = [0u8; 2048];
    loop {
        let n = stream.read(&mut chunk).map_err(|e| format!("read: {e}"))?;
        if n == 0 {
            return Err("connection closed before the request head ended".into());
        }
        let from = buf.len().saturating_sub(3);
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf[from..].windows(4).position(|w| w == b"\r\n\r\n") {
            let end = from + i + 4;
            let rest = buf.split_off(end);
            return Ok((buf, rest));
        }
        if buf.len() > MAX_HEAD {
            return Err("request head too long".into());
        }
    }
}

fn respond(stream: &mut TcpStream, status: u16, content_type: &str, body: &[u8]) {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        _ => "Method Not Allowed",
    };
    let head = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
    let _ = stream.flush();
}
