//! `hayate bench --scaling`.

use super::*;

/// `hayate bench --scaling`: one line per bench position with the calibrated depth and both timings, the
/// minishogi mate-in-one position left out of the ratios, and a summary whose total ratio matches the lines.
#[test]
fn bench_scaling_reports_every_position() {
    let lines = Mutex::new(Vec::new());
    let mean = hayate::engine::bench::run_scaling(&[GameKind::Minishogi], 2, 8, 30, 1, &|l| {
        lines.lock().unwrap().push(l.to_string())
    });
    let lines = lines.into_inner().unwrap();
    let per_position: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("minishogi position"))
        .collect();
    assert_eq!(
        per_position.len(),
        hayate::engine::bench::MINISHOGI_POSITIONS.len()
    );
    let mut counted = 0;
    for l in &per_position {
        let depth: i32 = l.split_whitespace().nth(4).unwrap().parse().unwrap();
        assert!(depth >= 1, "{l}");
        assert!(l.contains(" 1 thread ") && l.contains(" 2 threads "), "{l}");
        if !l.ends_with("(not counted)") {
            counted += 1;
        }
    }
    assert!(counted >= 1);
    assert!(
        lines.contains(&format!("Positions: {counted}")),
        "{lines:?}"
    );
    assert!(mean > 0.0 && mean.is_finite());
    assert!(lines
        .iter()
        .any(|l| l == &format!("Mean time-to-depth ratio: {mean:.2}")));
    assert!(lines.iter().any(|l| l.starts_with("Total time ratio: ")));
}
