//! Arbitrary socket messages through the web GUI's session, as the page's socket hands them over: each line of the
//! input is one text message, read as JSON into a request and answered by `Session::handle`.
//!
//! Run with `cargo +nightly fuzz run gui_socket -- -dict=fuzz/gui.dict` from the repository root. The session's one
//! engine is a command that does not exist (no process is started; requests for it fail as a crashed engine
//! does). Besides "never panics", it checks:
//! - a request answered with an error changes nothing the page shows (the state, clocks aside, is the same);
//! - every reply serialises to JSON, as the socket sends it.
#![no_main]

use hayate::gui::protocol::{Reply, Request};
use hayate::gui::session::Session;
use hayate::host::engine_process::EngineSpec;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// The page's state as JSON, without what moves by itself (the clocks, the engine's thinking).
fn shown(s: &Session) -> Value {
    let mut v = serde_json::to_value(s.state()).expect("the state serialises");
    if let Some(o) = v.as_object_mut() {
        o.remove("clocks");
    }
    v
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let spec = EngineSpec::parse(&["cmd=/nonexistent/hayate-fuzz-engine".to_string()])
        .expect("a valid engine spec");
    let mut session = Session::new(vec![spec], None);
    for line in text.lines().take(16) {
        let Ok(req) = serde_json::from_str::<Request>(line) else {
            continue;
        };
        let before = shown(&session);
        let replies = session.handle(req);
        for r in &replies {
            serde_json::to_string(r).expect("a reply serialises");
        }
        if replies.iter().any(|r| matches!(r, Reply::Error { .. })) {
            assert_eq!(
                shown(&session),
                before,
                "an error changed the state: {line}"
            );
        }
        for r in session.poll() {
            serde_json::to_string(&r).expect("a pushed reply serialises");
        }
    }
});
