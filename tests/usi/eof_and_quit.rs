//! End of input and quit.

use std::time::{Duration, Instant};

use crate::process::Engine;
use crate::{ms, shared, SEARCH};

#[test]
fn eof_while_searching_exits_with_status_0_within_a_second() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.send("position startpos");
    e.send("go infinite");
    e.wait_for(SEARCH, "search info", |l| l.starts_with("info depth"));
    let t = Instant::now();
    e.close_stdin();
    let status = e.wait_exit(Duration::from_secs(1));
    let Some(status) = status else {
        e.fail("still running a second after end of input");
    };
    assert!(status.success(), "exit status {status:?}");
    eprintln!("exit {:.1} ms after EOF", ms(t.elapsed()));
}

#[test]
fn eof_when_idle_and_quit_while_searching_exit_with_status_0() {
    let _cpu = shared();
    let mut e = Engine::new();
    e.close_stdin();
    let status = e.wait_exit(Duration::from_secs(1));
    assert!(matches!(status, Some(s) if s.success()), "{status:?}");

    let mut e = Engine::new();
    e.send("position startpos");
    e.send("go infinite");
    e.wait_for(SEARCH, "search info", |l| l.starts_with("info depth"));
    e.send("quit");
    let status = e.wait_exit(Duration::from_secs(1));
    assert!(matches!(status, Some(s) if s.success()), "{status:?}");
}
