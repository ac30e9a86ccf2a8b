//! Squares, numbered file-major: `file_index * ranks + rank_index`.

/// A square index; its meaning (file and rank) depends on the board's number of ranks.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Square(u8);

impl Square {
    #[inline(always)]
    pub const fn new(index: u8) -> Self {
        Square(index)
    }
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The square at `file_index` (0 = file 1) and `rank_index` (0 = rank a) on a board with `ranks` ranks.
    #[inline(always)]
    pub const fn from_coords(file_index: usize, rank_index: usize, ranks: usize) -> Self {
        Square((file_index * ranks + rank_index) as u8)
    }
    #[inline(always)]
    pub const fn file_index(self, ranks: usize) -> usize {
        self.0 as usize / ranks
    }
    #[inline(always)]
    pub const fn rank_index(self, ranks: usize) -> usize {
        self.0 as usize % ranks
    }
}
