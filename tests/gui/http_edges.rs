//! The edges of the request head: its length limit whatever the reads, one deadline for all of it, a single
//! Host (and Origin), and bare LF line endings, over raw TCP.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use super::server::Server;

/// Sends `request` in pieces of `piece` bytes and returns the status code and body of the answer. The read
/// times out well before the server's 10 s head deadline, so a server that waits for more gives no answer.
fn exchange(port: u16, request: &[u8], piece: usize) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(4)))
        .expect("timeout");
    for part in request.chunks(piece) {
        s.write_all(part).expect("write");
        s.flush().expect("flush");
    }
    let mut out = Vec::new();
    if let Err(e) = s.read_to_end(&mut out) {
        panic!(
            "no complete answer ({e}); got {:?}",
            String::from_utf8_lossy(&out)
        );
    }
    let out = String::from_utf8(out).expect("UTF-8 answer");
    let status = out
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status in {out:?}"));
    let body = out
        .split_once("\r\n\r\n")
        .map(|x| x.1.to_string())
        .unwrap_or_default();
    (status, body)
}

fn host(server: &Server) -> String {
    format!("127.0.0.1:{}", server.port)
}

/// A GET of the page with the token and a query padded so that the whole head is `len` bytes.
fn padded_head(server: &Server, len: usize) -> Vec<u8> {
    let start = format!("GET /?token={}&pad=", server.token);
    let end = format!(" HTTP/1.1\r\nHost: {}\r\n\r\n", host(server));
    let pad = len - start.len() - end.len();
    format!("{start}{}{end}", "a".repeat(pad)).into_bytes()
}

#[test]
fn the_head_limit_holds_whatever_the_reads() {
    let server = Server::start(&[]);
    // within the limit: served, in one write or in small ones
    let fits = padded_head(&server, 16 * 1024);
    assert_eq!(exchange(server.port, &fits, fits.len()).0, 200);
    assert_eq!(exchange(server.port, &fits, 100).0, 200);
    // over it: refused, also when the blank line comes in the same read as the bytes that pass the limit
    for len in [16 * 1024 + 1, 17_000, 18_000, 40_000] {
        let long = padded_head(&server, len);
        for piece in [long.len(), 4096, 100] {
            let (status, body) = exchange(server.port, &long, piece);
            assert_eq!(
                (status, body.as_str()),
                (431, "request head too long"),
                "{len} bytes in pieces of {piece}"
            );
        }
    }
}

#[test]
fn a_head_dripped_slowly_is_cut_off_at_one_deadline() {
    let server = Server::start(&[]);
    let mut s = TcpStream::connect(("127.0.0.1", server.port)).expect("connect");
    // the read timeout paces the drip: a byte every half second, each well within a per-read timeout
    s.set_read_timeout(Some(Duration::from_millis(500)))
        .expect("timeout");
    let start = Instant::now();
    write!(
        s,
        "GET /?token={} HTTP/1.1\r\nHost: {}\r\nX-Slow: ",
        server.token,
        host(&server)
    )
    .expect("write");
    let mut answer = Vec::new();
    let mut buf = [0u8; 1024];
    let ended = loop {
        if start.elapsed() > Duration::from_secs(14) {
            break None;
        }
        if s.write_all(b"a").is_err() {
            break Some(start.elapsed());
        }
        match s.read(&mut buf) {
            Ok(0) => break Some(start.elapsed()),
            Ok(n) => {
                let at = start.elapsed();
                answer.extend_from_slice(&buf[..n]);
                let _ = s.read_to_end(&mut answer);
                break Some(at);
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => break Some(start.elapsed()),
        }
    };
    let ended = ended.expect("the connection still open after 14 s of dripping");
    assert!(
        ended > Duration::from_secs(9) && ended < Duration::from_secs(12),
        "cut off after {ended:?}, not at the 10 s deadline"
    );
    if !answer.is_empty() {
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 408 "), "{answer:?}");
    }
}

#[test]
fn a_second_host_or_origin_header_is_refused() {
    let server = Server::start(&[]);
    let good = format!("/?token={}", server.token);
    let host = host(&server);
    let origin = format!("http://{host}");
    let request = |headers: &str| format!("GET {good} HTTP/1.1\r\n{headers}\r\n").into_bytes();
    let one = request(&format!("Host: {host}\r\nOrigin: {origin}\r\n"));
    assert_eq!(exchange(server.port, &one, one.len()).0, 200);
    for headers in [
        format!("Host: {host}\r\nHost: evil.example\r\n"),
        format!("Host: evil.example\r\nHost: {host}\r\n"),
        format!("Host: {host}\r\nhost: {host}\r\n"),
    ] {
        let r = request(&headers);
        assert_eq!(
            exchange(server.port, &r, r.len()),
            (400, "more than one Host header".into()),
            "{headers:?}"
        );
    }
    for headers in [
        format!("Host: {host}\r\nOrigin: {origin}\r\nOrigin: http://evil.example\r\n"),
        format!("Host: {host}\r\nOrigin: http://evil.example\r\nOrigin: {origin}\r\n"),
    ] {
        let r = request(&headers);
        assert_eq!(
            exchange(server.port, &r, r.len()),
            (400, "more than one Origin header".into()),
            "{headers:?}"
        );
    }
}

#[test]
fn bare_lf_line_endings_are_accepted_and_checked() {
    let server = Server::start(&[]);
    let host = host(&server);
    let good = format!("/?token={}", server.token);
    let served = |head: String, piece: usize| {
        let head = head.into_bytes();
        exchange(server.port, &head, piece)
    };
    for (head, piece) in [
        (format!("GET {good} HTTP/1.1\nHost: {host}\n\n"), 4096),
        (format!("GET {good} HTTP/1.1\nHost: {host}\n\n"), 1),
        (format!("GET {good} HTTP/1.1\nHost: {host}\n\r\n"), 4096),
        (format!("GET {good} HTTP/1.1\r\nHost: {host}\n\r\n"), 4096),
        (format!("GET {good} HTTP/1.1\r\nHost: {host}\r\n\n"), 4096),
        (format!("GET {good} HTTP/1.1\nHost: {host}\r\n\r\n"), 1),
    ] {
        assert_eq!(served(head.clone(), piece).0, 200, "{head:?}");
    }
    let app = format!("/app.js?token={}", server.token);
    let (status, body) = served(format!("GET {app} HTTP/1.1\nHost: {host}\n\n"), 4096);
    assert_eq!(status, 200);
    assert!(body.contains("WebSocket"), "the page's script");
    // the access checks hold with bare LF as with CRLF
    for (head, answer) in [
        (
            format!("GET / HTTP/1.1\nHost: {host}\n\n"),
            (403, "no token"),
        ),
        (
            format!("GET /socket HTTP/1.1\nHost: {host}\nUpgrade: websocket\n\n"),
            (403, "no token"),
        ),
        (
            format!("GET {good} HTTP/1.1\nHost: evil.example\n\n"),
            (403, "wrong Host header"),
        ),
        (
            format!("GET {good} HTTP/1.1\nHost: {host}\nOrigin: http://evil.example\n\n"),
            (403, "wrong Origin header"),
        ),
        (
            format!("GET {good} HTTP/1.1\nHost: {host}\nHost: evil.example\n\n"),
            (400, "more than one Host header"),
        ),
    ] {
        let (status, body) = served(head.clone(), 4096);
        assert_eq!((status, body.as_str()), answer, "{head:?}");
    }
}

#[test]
fn an_unreadable_host_or_origin_is_refused() {
    let server = Server::start(&[]);
    let host = host(&server);
    let start = format!("GET /?token={} HTTP/1.1\r\n", server.token);
    // httparse passes bytes over 0x7f in header values; an Origin that is not text is not the page's
    for (headers, answer) in [
        (
            [
                format!("Host: {host}\r\nOrigin: http://").as_bytes(),
                &[0xff],
                b"\r\n",
            ]
            .concat(),
            "unreadable Origin header",
        ),
        (
            [b"Host: ".as_slice(), &[0xff], b"\r\n"].concat(),
            "unreadable Host header",
        ),
    ] {
        let request = [start.as_bytes(), &headers, b"\r\n"].concat();
        assert_eq!(
            exchange(server.port, &request, request.len()),
            (400, answer.into())
        );
    }
}
