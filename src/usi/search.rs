//! The body of a search job: search, report, and answer with `bestmove`.

use crate::engine::eval::GameEval;
use crate::engine::search::{Info, Limits, SearchResult, Searcher};
use crate::rules::position::notation::move_to_usi;
use crate::rules::position::Position;

use crate::host::job::Reporter;
use crate::host::Options;

use super::report::info_line;

/// Searches `pos`, reports its progress and writes the answer.
pub(super) fn run_search<V: GameEval>(
    searcher: &Searcher,
    pos: &Position<V>,
    limits: &Limits,
    options: &Options,
    report: &Reporter,
) {
    let control = searcher.control();
    // entering-king declaration (9×9 only)
    if V::ENTERING_KING && pos.can_declare(options.entering_king) {
        // a declaration answers without a search, but still honours infinite and ponder: it begins the control
        // as a search would
        control.begin(limits.start, limits.ponder);
        control.wait_until_released(limits.infinite);
        report.finish("bestmove win");
        return;
    }
    let on_info = |i: &Info| report.send(&info_line::<V>(i));
    let r: SearchResult = searcher.search(pos, limits, &options.time, &on_info);
    report.finish(&bestmove_line::<V>(&r, options));
}

/// `bestmove <move> [ponder <move>]`, or `bestmove resign` with no move or a score below ResignValue.
fn bestmove_line<V: GameEval>(r: &SearchResult, options: &Options) -> String {
    match r.best {
        None => "bestmove resign".to_string(),
        Some(_) if options.resign_value > 0 && r.score <= -options.resign_value => {
            "bestmove resign".to_string()
        }
        Some(m) => {
            let mut s = format!("bestmove {}", move_to_usi::<V>(m));
            if options.ponder {
                if let Some(p) = r.ponder {
                    s.push_str(&format!(" ponder {}", move_to_usi::<V>(p)));
                }
            }
            s
        }
    }
}
