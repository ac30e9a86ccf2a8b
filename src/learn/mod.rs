//! Learning an evaluation from Hayate's own games: `selfplay` writes labelled positions in the `record` format,
//! `train` fits a network to them (see `engine::nnue` for the network it produces).

pub mod dataset;
pub mod float_net;
pub mod packed;
pub mod record;
pub mod selfplay;
pub mod train;
