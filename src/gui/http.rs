//! One HTTP connection: reads the request head, checks access, then serves a page file or hands the
//! connection to the WebSocket. Every response closes the connection: the page loads four files once, so
//! keep-alive would buy nothing and cost a parser for request bodies.

use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::{Duration, Instant};

use super::access::{self, Credentials};
use super::assets;
use super::server::Context;
use super::socket;

/// The longest request head read, its blank line included; a browser's is well under 4 KiB.
const MAX_HEAD: usize = 16 * 1024;
/// Time a client gets to send its whole request head: one deadline, so that a client sending a byte now and
/// then cannot hold a connection (and its thread) for ever.
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// After a head is refused unread, how long and how much of what the client still sends is read and dropped.
const LINGER: Duration = Duration::from_secs(1);
const MAX_LINGER_BYTES: usize = 64 * 1024;

/// Why a request was refused for its Host or Origin header: the access checks read one, as text.
#[derive(Debug, thiserror::Error)]
enum HeaderError {
    #[error("unreadable {0} header")]
    Unreadable(&'static str),
    #[error("more than one {0} header")]
    Repeated(&'static str),
}

/// Why no request head was read.
enum HeadError {
    TooLong,
    TimedOut,
    /// The client closed the connection or it failed: there is no one to answer.
    Gone(String),
}

pub fn handle(mut stream: TcpStream, ctx: &Context) {
    let Some((head, rest)) = head_or_refusal(&mut stream) else {
        return;
    };
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut req = httparse::Request::new(&mut headers);
    let problem = match req.parse(&head) {
        Ok(httparse::Status::Complete(_)) => None,
        Ok(httparse::Status::Partial) => Some("incomplete request head".to_string()),
        Err(e) => Some(e.to_string()),
    };
    if let Some(why) = problem {
        log::debug!("gui: bad request: {why}");
        respond(
            &mut stream,
            400,
            "text/plain",
            format!("bad request: {why}").as_bytes(),
        );
        return;
    }
    let single = |name: &'static str| single_header(req.headers, name);
    let (host, origin) = match (single("Host"), single("Origin")) {
        (Ok(h), Ok(o)) => (h, o),
        (Err(why), _) | (_, Err(why)) => {
            log::warn!("gui: refused a request: {why}");
            respond(&mut stream, 400, "text/plain", why.to_string().as_bytes());
            return;
        }
    };
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
        host,
        origin,
    };
    if let Err(why) = access::check(&ctx.token, ctx.port, &creds) {
        log::warn!("gui: refused {}: {why}", access::path(target));
        respond(&mut stream, 403, "text/plain", why.to_string().as_bytes());
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

/// The request's head and what came after it, or None once a head that could not be read has been answered (or
/// the client is gone).
fn head_or_refusal(stream: &mut TcpStream) -> Option<(Vec<u8>, Vec<u8>)> {
    match read_head(stream, Instant::now() + HEAD_TIMEOUT) {
        Ok(x) => Some(x),
        Err(HeadError::TooLong) => {
            log::debug!("gui: refused a request head over {MAX_HEAD} bytes");
            refuse_unread(stream, 431, "request head too long");
            None
        }
        Err(HeadError::TimedOut) => {
            log::debug!("gui: no request head within {HEAD_TIMEOUT:?}");
            refuse_unread(stream, 408, "request head not received in time");
            None
        }
        Err(HeadError::Gone(why)) => {
            log::debug!("gui: no request head: {why}");
            None
        }
    }
}

/// The value of header `name` when the request has at most one. The access checks read one Host and one Origin;
/// with two, a proxy or browser in between might have judged the request by the other one.
fn single_header<'h>(
    headers: &[httparse::Header<'h>],
    name: &'static str,
) -> Result<Option<&'h str>, HeaderError> {
    let mut values = headers.iter().filter(|h| h.name.eq_ignore_ascii_case(name));
    match (values.next(), values.next()) {
        (None, _) => Ok(None),
        (Some(h), None) => std::str::from_utf8(h.value)
            .map(Some)
            .map_err(|_| HeaderError::Unreadable(name)),
        (Some(_), Some(_)) => Err(HeaderError::Repeated(name)),
    }
}

/// The bytes up to the blank line that ends the head, and whatever came after them. The limit and the
/// deadline hold for the head as a whole, however the client splits it.
fn read_head(stream: &mut TcpStream, deadline: Instant) -> Result<(Vec<u8>, Vec<u8>), HeadError> {
    let mut buf = Vec::with_capacity(2048);
    let mut chunk = [0u8; 2048];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(HeadError::TimedOut);
        }
        stream
            .set_read_timeout(Some(left))
            .map_err(|e| HeadError::Gone(format!("set timeout: {e}")))?;
        let n = match stream.read(&mut chunk) {
            Ok(0) => {
                return Err(HeadError::Gone(
                    "connection closed before the request head ended".into(),
                ))
            }
            Ok(n) => n,
            // whether time is left is decided at the top of the loop, by the deadline alone
            Err(e)
                if matches!(
                    e.kind(),
                    ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted
                ) =>
            {
                continue
            }
            Err(e) => return Err(HeadError::Gone(format!("read: {e}"))),
        };
        let start = buf.len();
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = head_end(&buf, start) {
            if end > MAX_HEAD {
                return Err(HeadError::TooLong);
            }
            let rest = buf.split_off(end);
            return Ok((buf, rest));
        }
        // the end is at least one byte further: a head this long without it is over the limit
        if buf.len() >= MAX_HEAD {
            return Err(HeadError::TooLong);
        }
    }
}

/// Just past the empty line that ends the head, looking at the LFs from `start` on (those before were looked
/// at already). Lines may end in a bare LF as well as in CRLF, as httparse reads them, so the head ends at
/// `\n\n` or `\n\r\n`; waiting for `\r\n\r\n` alone would leave a bare-LF client unanswered.
fn head_end(buf: &[u8], start: usize) -> Option<usize> {
    (start..buf.len()).find_map(|i| {
        let before = &buf[..i];
        let empty_line = buf[i] == b'\n' && (before.ends_with(b"\n") || before.ends_with(b"\n\r"));
        empty_line.then_some(i + 1)
    })
}

/// Answers a request whose head was not read to its end. Closing a socket with unread bytes resets the
/// connection, and the reset can reach the client before it has read the answer, so what it still sends is
/// read and dropped for a while (bounded in time and bytes) after the answer.
fn refuse_unread(stream: &mut TcpStream, status: u16, why: &str) {
    respond(stream, status, "text/plain", why.as_bytes());
    let _ = stream.shutdown(Shutdown::Write);
    let until = Instant::now() + LINGER;
    let mut sink = [0u8; 2048];
    let mut dropped = 0;
    while dropped < MAX_LINGER_BYTES {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            break;
        }
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => dropped += n,
        }
    }
}

fn respond(stream: &mut TcpStream, status: u16, content_type: &str, body: &[u8]) {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        431 => "Request Header Fields Too Large",
        _ => "",
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_head_ends_at_the_first_empty_line_whatever_the_line_endings() {
        let end = |s: &str| head_end(s.as_bytes(), 0);
        assert_eq!(end("GET / HTTP/1.1\r\nHost: h\r\n\r\nrest"), Some(27));
        assert_eq!(end("GET / HTTP/1.1\nHost: h\n\nrest"), Some(24));
        assert_eq!(end("GET / HTTP/1.1\nHost: h\n\r\nrest"), Some(25));
        assert_eq!(end("GET / HTTP/1.1\r\nHost: h\r\n\nrest"), Some(26));
        assert_eq!(end("GET / HTTP/1.1\r\nHost: h\r\n\r"), None);
        assert_eq!(end("GET / HTTP/1.1\r\nHost: h\r\n"), None);
        assert_eq!(end("\r\nGET / HTTP/1.1\r\n"), None);
        // an end split between reads is found from where the new bytes start
        let buf = b"GET / HTTP/1.1\r\nHost: h\r\n\r\n";
        assert_eq!(head_end(buf, buf.len() - 1), Some(buf.len()));
        assert_eq!(head_end(buf, buf.len()), None);
    }
}
