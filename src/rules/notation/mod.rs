//! Game records in the formats other programs read and write.

pub mod bod;
pub mod header;
pub mod japanese;
pub mod ki2;
pub mod kif;
pub mod written;

#[cfg(test)]
mod tests;
