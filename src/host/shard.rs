//! A share of a run's numbered work, for runs spread over several machines (a cluster's job array): shard `K/N`
//! takes the items whose number is `K` modulo `N`, so that the shards together do exactly the whole run's items,
//! each once, with the numbers (and so the seeds) the whole run would give them. Here, below the front ends and
//! runners, because `hayate match` (opening pairs) and `hayate selfplay` (games) both split their work this way.

use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count` (`index < count`); `Shard::WHOLE` is the whole run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u32,
    count: u32,
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    pub fn new(index: u32, count: u32) -> Option<Shard> {
        (count > 0 && index < count).then_some(Shard { index, count })
    }

    pub fn index(self) -> u32 {
        self.index
    }

    pub fn count(self) -> u32 {
        self.count
    }

    /// Whether item `n` of the whole run belongs to this shard.
    pub fn owns(self, n: u64) -> bool {
        n % u64::from(self.count) == u64::from(self.index)
    }

    /// The `j`-th item of this shard, numbered as in the whole run.
    pub fn item(self, j: u64) -> u64 {
        u64::from(self.index) + j * u64::from(self.count)
    }

    /// The first `j` whose item is at least `n` (where a resumed shard goes on).
    pub fn first_at_least(self, n: u64) -> u64 {
        n.saturating_sub(u64::from(self.index))
            .div_ceil(u64::from(self.count))
    }
}

impl Default for Shard {
    fn default() -> Self {
        Shard::WHOLE
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Why `K/N` was not a shard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardError(String);

impl fmt::Display for ShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ShardError {}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let bad = || {
            ShardError(format!(
                "'{}' is not a shard: K/N with 0 <= K < N, e.g. 0/4",
                super::truncate(s)
            ))
        };
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        Shard::new(k, n).ok_or_else(bad)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_items_exactly() {
        let shards: Vec<Shard> = (0..4).map(|k| format!("{k}/4").parse().unwrap()).collect();
        for n in 0..100u64 {
            assert_eq!(shards.iter().filter(|s| s.owns(n)).count(), 1);
        }
        let s = Shard::new(2, 4).unwrap();
        assert_eq!(
            (0..4).map(|j| s.item(j)).collect::<Vec<_>>(),
            [2, 6, 10, 14]
        );
        assert_eq!(s.first_at_least(0), 0);
        assert_eq!(s.first_at_least(3), 1);
        assert_eq!(s.first_at_least(6), 1);
        assert_eq!(s.first_at_least(7), 2);
        assert_eq!(Shard::WHOLE.first_at_least(7), 7);
        for bad in ["4/4", "1", "a/2", "1/0", "-1/3", "1/2/3", "²/4"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        assert_eq!(
            " 1 / 3 ".trim().parse::<Shard>().unwrap().to_string(),
            "1/3"
        );
    }
}
