//! One page's WebSocket: a single loop on one thread that reads the page's messages with a short timeout and,
//! between reads, forwards what the engines and clocks of its [`Session`] produced. One thread owns the socket,
//! so replies and pushed messages never interleave.

use std::io::{ErrorKind, Write};
use std::net::TcpStream;
use std::time::Duration;

use tungstenite::handshake::derive_accept_key;
use tungstenite::protocol::{Role, WebSocketConfig};
use tungstenite::{Message, WebSocket};

use super::protocol::{Reply, Request};
use super::session::Session;
use super::GuiConfig;

/// How long a read waits before the loop looks at the engines: the latency of their output on the page.
const TICK: Duration = Duration::from_millis(20);
/// The largest message accepted from the page (an imported record).
const MAX_MESSAGE: usize = 1 << 20;

/// Completes the handshake (the request head was read and checked by the caller) and serves the page.
pub fn run(mut stream: TcpStream, rest: Vec<u8>, key: &str, gui: &GuiConfig) {
    let accept = derive_accept_key(key.as_bytes());
    let head = format!(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Accept: {accept}\r\n\r\n"
    );
    if stream.write_all(head.as_bytes()).is_err() || stream.set_read_timeout(Some(TICK)).is_err() {
        return;
    }
    let config = WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE));
    let mut ws = WebSocket::from_partially_read(stream, rest, Role::Server, Some(config));
    let mut session = Session::new(gui.engines.clone(), gui.watch.clone());
    let mut ok =
        send(&mut ws, &session.hello()) && send(&mut ws, &Reply::State(Box::new(session.state())));
    while ok {
        match ws.read() {
            Ok(Message::Text(text)) => {
                let replies = match serde_json::from_str::<Request>(text.as_str()) {
                    Ok(req) => session.handle(req),
                    Err(e) => vec![Reply::Error {
                        message: format!("bad message: {e}"),
                    }],
                };
                ok = replies.iter().all(|r| send(&mut ws, r));
            }
            Ok(Message::Binary(_)) => {
                ok = send(
                    &mut ws,
                    &Reply::Error {
                        message: "bad message: binary frames are not understood".into(),
                    },
                );
            }
            Ok(Message::Close(_)) => break,
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(e) => {
                log::debug!("gui: socket closed: {e}");
                break;
            }
        }
        if ok {
            ok = session.poll().iter().all(|r| send(&mut ws, r));
        }
    }
}

fn send(ws: &mut WebSocket<TcpStream>, reply: &Reply) -> bool {
    let text = match serde_json::to_string(reply) {
        Ok(t) => t,
        Err(e) => {
            log::error!("gui: reply not serialisable: {e}");
            return true;
        }
    };
    match ws.send(Message::text(text)) {
        Ok(()) => true,
        Err(tungstenite::Error::Io(e))
            if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
        {
            // the frame is queued; the next read or send flushes it
            true
        }
        Err(e) => {
            log::debug!("gui: send failed: {e}");
            false
        }
    }
}
