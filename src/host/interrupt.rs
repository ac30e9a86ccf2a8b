//! Stopping a match from outside: SIGINT and SIGTERM set a flag that the match host polls, and every engine
//! process dies with the host even when the host itself is killed outright.
//!
//! The handler does nothing but store into atomics (async-signal-safe); the workers look at the flag between games
//! and at least every [`POLL`] while they wait for an engine, so a stop takes effect within about that long. A
//! second signal while the first is being handled ends the host at once (`_exit`): the engines then die by their
//! parent-death signal.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::time::Duration;

/// The longest a wait for an engine goes without looking at the flag.
pub const POLL: Duration = Duration::from_millis(50);

static REQUESTED: AtomicBool = AtomicBool::new(false);
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// Whether the match should stop.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// The signal that asked for the stop (0 when none did).
pub fn signal() -> i32 {
    SIGNAL.load(Ordering::Relaxed)
}

#[cfg(target_os = "linux")]
extern "C" fn on_signal(sig: libc::c_int) {
    if REQUESTED.load(Ordering::Relaxed) {
        // SAFETY: _exit is async-signal-safe
        unsafe { libc::_exit(128 + sig) };
    }
    SIGNAL.store(sig, Ordering::Relaxed);
    REQUESTED.store(true, Ordering::Relaxed);
}

/// Installs the SIGINT and SIGTERM handlers; false where signals are not supported (the match then cannot be
/// stopped gracefully, only killed).
#[cfg(target_os = "linux")]
pub fn install_handlers() -> bool {
    let mut ok = true;
    for sig in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the sigaction struct is zeroed and then filled in; the handler only touches atomics
        unsafe {
            let mut act: libc::sigaction = std::mem::zeroed();
            act.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            act.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut act.sa_mask);
            ok &= libc::sigaction(sig, &act, std::ptr::null_mut()) == 0;
        }
    }
    ok
}

#[cfg(not(target_os = "linux"))]
pub fn install_handlers() -> bool {
    false
}

/// Prepares an engine's command so that the engine dies with the host and is not hit by a Ctrl-C meant for the
/// host.
///
/// - Its own process group: the terminal's SIGINT reaches the host only, which then stops the engines itself
///   instead of finding them dead in the middle of a game (which would look like a crash).
/// - `PR_SET_PDEATHSIG` = SIGKILL: the kernel kills the engine when the *thread* that spawned it ends, which covers
///   a host killed with SIGKILL. The host spawns engines only from threads that outlive them: the main thread (the
///   first engine pair, handed to worker 0, which the main thread outlives) and each worker thread, which quits or
///   kills every engine it owns before it returns.
#[cfg(target_os = "linux")]
pub fn guard_child(cmd: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: getpid has no preconditions
    let host = unsafe { libc::getpid() };
    // SAFETY: the closure runs between fork and exec and calls only async-signal-safe functions (setpgid, prctl,
    // getppid, _exit), allocating nothing
    unsafe {
        cmd.pre_exec(move || {
            libc::setpgid(0, 0);
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // the host may have died between fork and prctl: then nobody will send the signal
            if libc::getppid() != host {
                libc::_exit(1);
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
pub fn guard_child(_cmd: &mut std::process::Command) {}
