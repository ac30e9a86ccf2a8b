//! The stdin reader thread: it turns input into whole lines on a channel, so that the protocol thread never
//! blocks on a read and one bad line (too long, not text) costs one error reply instead of the session. Every
//! protocol front end reads its input through it.

use std::io::{BufRead, Read};
use std::sync::mpsc::{self, Receiver};

/// The longest line read whole; the rest of a longer line is discarded and the line reported as an error.
const MAX_LINE: usize = 64 * 1024;

/// One read from stdin.
pub enum Input {
    Line(String),
    /// A line that was too long or not text.
    Bad(String),
    Eof,
}

/// Starts the reader thread; its lines, then `Eof`, come on the returned channel.
pub fn spawn_reader() -> Receiver<Input> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("usi-reader".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            loop {
                let msg = read_line(&mut input);
                let eof = matches!(msg, Input::Eof);
                if tx.send(msg).is_err() || eof {
                    return;
                }
            }
        })
        .unwrap_or_else(|e| panic!("cannot start the input thread: {e}"));
    rx
}

/// The first input that is not a blank line (a blank line means nothing in either protocol): what the binary
/// chooses the protocol by, before handing `rx` on with it.
pub fn first_input(rx: &Receiver<Input>) -> Input {
    loop {
        match rx.recv().unwrap_or(Input::Eof) {
            Input::Line(l) if l.trim().is_empty() => continue,
            first => return first,
        }
    }
}

fn read_line(input: &mut impl BufRead) -> Input {
    let mut buf = Vec::new();
    let n = input
        .by_ref()
        .take(MAX_LINE as u64)
        .read_until(b'\n', &mut buf)
        .unwrap_or_default();
    if n == 0 {
        return Input::Eof;
    }
    if buf.last() != Some(&b'\n') && buf.len() >= MAX_LINE {
        let skipped = skip_rest_of_line(input);
        return Input::Bad(format!("line too long ({} bytes)", buf.len() + skipped));
    }
    match String::from_utf8(buf) {
        Ok(s) => Input::Line(s.trim_end_matches(['\n', '\r']).to_string()),
        Err(_) => Input::Bad("line is not valid UTF-8 text".into()),
    }
}

/// Reads and drops the rest of an overlong line in bounded pieces (a line may be larger than memory); returns
/// how many bytes it dropped.
fn skip_rest_of_line(input: &mut impl BufRead) -> usize {
    let mut skipped = 0usize;
    loop {
        let mut rest = Vec::new();
        match input
            .by_ref()
            .take(MAX_LINE as u64)
            .read_until(b'\n', &mut rest)
        {
            Ok(0) | Err(_) => return skipped,
            Ok(k) => {
                skipped += k;
                if rest.last() == Some(&b'\n') {
                    return skipped;
                }
            }
        }
    }
}
