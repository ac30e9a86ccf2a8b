//! `hayate gui`, driven as a page drives it: the real binary on a free port, every socket message and bad
//! input over a WebSocket client ([`protocol`]), what an attack on the socket found ([`hardening`]), the HTTP access checks ([`protocol`]) and the request head's
//! edges: its limit, deadline, single Host and bare LF ([`http_edges`]), and the page itself in
//! Debian's headless Chromium, moves played by clicking on each of the three boards ([`browser`], over the
//! DevTools client in [`cdp`]).
//!
//! The browser tests need `chromium` (Debian: `chromium`, and `fonts-noto-cjk` for the kanji; `.ci/run` installs
//! them). Without it they fail and say so, unless `HAYATE_SKIP_GUI_TESTS=1` is set.

// a test fails by panicking: unwrap is how it states what must succeed (the library keeps to [lints])
#![allow(clippy::unwrap_used)]

mod browser;
mod cdp;
mod hardening;
mod http_edges;
mod protocol;
mod server;
