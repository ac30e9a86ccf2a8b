//! The `info` lines of an engine, as far as the page shows them: MultiPV rank, depth, nodes, score and PV.

/// A mate score on the evaluation graph, in centipawns.
pub const MATE_CP: i32 = 30_000;

/// The parts of an `info` line the page shows.
#[derive(Debug, PartialEq)]
pub struct Info {
    pub multipv: u32,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// `cp 35` or `mate -3`.
    pub score: String,
    /// The score for the evaluation graph, from the side to move; mates as ±[`MATE_CP`].
    pub cp: Option<i32>,
    pub pv: Vec<String>,
}

pub fn parse_info(line: &str) -> Option<Info> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let mut info = Info {
        multipv: 1,
        depth: None,
        nodes: None,
        score: String::new(),
        cp: None,
        pv: Vec::new(),
    };
    let mut i = 1;
    while i < w.len() {
        let next = w.get(i + 1).copied().unwrap_or("");
        match w[i] {
            "multipv" => info.multipv = next.parse().ok()?,
            "depth" => info.depth = next.parse().ok(),
            "nodes" => info.nodes = next.parse().ok(),
            "score" => {
                let v: i32 = w.get(i + 2)?.parse().ok()?;
                match next {
                    "cp" => info.cp = Some(v.clamp(-MATE_CP, MATE_CP)),
                    "mate" => info.cp = Some(if v >= 0 { MATE_CP } else { -MATE_CP }),
                    _ => return None,
                }
                info.score = format!("{next} {v}");
                i += 1;
            }
            "pv" => {
                info.pv = w[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            _ => {}
        }
        i += 2;
    }
    Some(info)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        let i = parse_info(
            "info depth 7 seldepth 9 multipv 2 score cp -35 nodes 1200 nps 5 pv 7g7f 3c3d",
        )
        .unwrap();
        assert_eq!((i.multipv, i.depth, i.nodes), (2, Some(7), Some(1200)));
        assert_eq!((i.score.as_str(), i.cp), ("cp -35", Some(-35)));
        assert_eq!(i.pv, vec!["7g7f", "3c3d"]);
        let i = parse_info("info depth 3 score mate -2 pv 5a4a").unwrap();
        assert_eq!(i.cp, Some(-MATE_CP));
        assert_eq!(parse_info("info multipv x"), None);
    }
}
