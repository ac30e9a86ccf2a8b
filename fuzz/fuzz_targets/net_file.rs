//! Arbitrary bytes as a net file for each game, through the loader `EvalFile` and `--eval-file` use.
//!
//! Run with `cargo +nightly fuzz run net_file` from the repository root. The input's hash field is set to its
//! payload's hash (with probability one half) so that the fuzzer gets past the checksum to the fields behind it.
//! Besides "never panics" (and no allocation beyond what the header's checked sizes imply), it checks that a net
//! the loader accepts writes back to exactly the bytes it was read from.
#![no_main]

use hayate::engine::nnue::{file, inputs};
use hayate::GameKind;
use libfuzzer_sys::fuzz_target;

/// Where the header keeps the payload's FNV-1a hash.
const HASH_AT: usize = 40;
const HEADER: usize = file::HEADER_SIZE;

fuzz_target!(|data: &[u8]| {
    let mut bytes = data.to_vec();
    if bytes.len() >= HEADER && bytes[0] & 1 == 1 {
        let h = file::fnv1a(&bytes[HEADER..]);
        bytes[HASH_AT..HASH_AT + 8].copy_from_slice(&h.to_le_bytes());
    }
    for game in GameKind::ALL {
        if let Ok(net) = file::from_bytes(&bytes, game, inputs(game)) {
            assert_eq!(
                file::to_bytes(&net),
                bytes,
                "{game}: a loaded net writes back to other bytes"
            );
        }
    }
});
