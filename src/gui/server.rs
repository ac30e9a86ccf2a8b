//! The listener: 127.0.0.1 only, one thread per connection (a page opens a handful).

use std::io::Write;
use std::net::{Ipv4Addr, TcpListener};
use std::sync::Arc;
use std::thread;

use super::access::Token;
use super::http;
use super::GuiConfig;

/// What every connection needs to know.
pub struct Context {
    pub token: Token,
    pub port: u16,
    pub config: GuiConfig,
}

/// Why the server did not start: the port cannot be listened on, or no token can be drawn.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("cannot listen on 127.0.0.1:{port}: {error}")]
    Listen { port: u16, error: std::io::Error },
    #[error("no local address: {0}")]
    LocalAddr(std::io::Error),
    #[error("no random source for the token: {0}")]
    Token(getrandom::Error),
}

/// Binds, prints the URL to open as the first line on stdout, and serves until the process is killed.
pub fn serve(config: GuiConfig) -> Result<(), ServeError> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, config.port)).map_err(|error| {
        ServeError::Listen {
            port: config.port,
            error,
        }
    })?;
    let port = listener.local_addr().map_err(ServeError::LocalAddr)?.port();
    let token = Token::random().map_err(ServeError::Token)?;
    {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(
            out,
            "Open http://127.0.0.1:{port}/?token={}",
            token.as_str()
        );
        let _ = out.flush();
    }
    let ctx = Arc::new(Context {
        token,
        port,
        config,
    });
    for stream in listener.incoming() {
        match stream {
            Ok(s) => {
                let ctx = Arc::clone(&ctx);
                thread::spawn(move || http::handle(s, &ctx));
            }
            Err(e) => log::warn!("gui: accept failed: {e}"),
        }
    }
    Ok(())
}
