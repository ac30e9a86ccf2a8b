//! Statistics against hand-computed values (Python 3 `math`, same formulas written out independently).

use hayate::matches::stats::{
    elo_estimate, llr_pentanomial, llr_trinomial, los, Penta, SprtConfig, SprtDecision, Wdl,
};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn elo_interval_and_los_for_known_results() {
    // (W, D, L) -> Elo, 95% lower, upper, half-width, LOS
    let cases = [
        (
            (60, 20, 20),
            147.19071411783776,
            86.22501520030423,
            218.2517776410748,
            66.01338122038528,
            0.9999961278917845,
        ),
        (
            (10, 5, 7),
            47.67456308768351,
            -80.08811212369022,
            190.49731619934227,
            135.29271416151624,
            0.7665728645886373,
        ),
        (
            (35, 30, 35),
            0.0,
            -57.49238012876439,
            57.492380128764374,
            57.49238012876438,
            0.5,
        ),
        (
            (120, 210, 90),
            24.85916269953778,
            1.441622884934478,
            48.50472757378017,
            23.53155234442285,
            0.9807830348816091,
        ),
    ];
    for ((w, d, l), elo, lo, hi, margin, want_los) in cases {
        let wdl = Wdl::new(w, d, l);
        let e = elo_estimate(&wdl).unwrap();
        assert!(close(e.elo, elo, 1e-9), "{wdl:?}: {e:?}");
        assert!(close(e.lower, lo, 1e-9), "{wdl:?}: {e:?}");
        assert!(close(e.upper, hi, 1e-9), "{wdl:?}: {e:?}");
        assert!(close(e.margin, margin, 1e-9), "{wdl:?}: {e:?}");
        assert!(close(los(&wdl).unwrap(), want_los, 1e-12), "{wdl:?}");
    }
    // W 60 D 20 L 20 by hand: s = 0.7, Elo = 400 log10(7/3) = 147.19; per-game variance
    // (60 * 0.09 + 20 * 0.04 + 20 * 0.49) / 100 = 0.16, standard error 0.04, s ± 0.0784 -> [86.2, 218.3]
    assert!(close(
        elo_estimate(&Wdl::new(60, 20, 20)).unwrap().elo,
        400.0 * (7.0f64 / 3.0).log10(),
        1e-9
    ));
    assert_eq!(elo_estimate(&Wdl::default()), None);
    assert_eq!(los(&Wdl::new(0, 4, 0)), None);
    let all_wins = elo_estimate(&Wdl::new(5, 0, 0)).unwrap();
    assert!(all_wins.elo.is_infinite() && all_wins.elo > 0.0);
}

#[test]
fn sprt_llr_for_known_results() {
    // trinomial, logistic: W 120 D 210 L 90, elo0 0, elo1 5
    assert!(close(
        llr_trinomial(&Wdl::new(120, 210, 90), 0.0, 5.0),
        0.7778764652777673,
        1e-12
    ));
    // W 50 D 30 L 20, elo0 -5, elo1 5
    assert!(close(
        llr_trinomial(&Wdl::new(50, 30, 20), -5.0, 5.0),
        1.2331403060896227,
        1e-12
    ));
    // pentanomial pair counts (0, 1/2, 1, 3/2, 2 points) = 5 40 100 45 10, elo0 0, elo1 5
    let p = Penta {
        counts: [5, 40, 100, 45, 10],
    };
    assert!(close(
        llr_pentanomial(&p, 0.0, 5.0),
        0.4823672899192354,
        1e-12
    ));
    // all losses: N/2 ln(0.25 / s1^2), s1 = 1 / (1 + 10^(-100/400))
    let s1 = 1.0 / (1.0 + 10f64.powf(-0.25));
    assert!(close(
        llr_trinomial(&Wdl::new(0, 0, 12), 0.0, 100.0),
        6.0 * (0.25 / (s1 * s1)).ln(),
        1e-12
    ));

    let words = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
    let cfg = SprtConfig::parse(&words("elo0=0 elo1=5 alpha=0.05 beta=0.05")).unwrap();
    let (lo, hi) = cfg.bounds();
    assert!(close(lo, -2.9444389791664403, 1e-12) && close(hi, 2.9444389791664403, 1e-12));
    assert_eq!(cfg.decide(0.0), SprtDecision::Continue);
    assert_eq!(cfg.decide(3.0), SprtDecision::AcceptH1);
    assert_eq!(cfg.decide(-3.0), SprtDecision::AcceptH0);
    assert!(SprtConfig::parse(&words("elo0=5 elo1=0")).is_err());
    assert!(SprtConfig::parse(&words("elo0=0 elo1=5 alpha=1.5")).is_err());
    assert!(SprtConfig::parse(&words("elo0=0")).is_err());
    let p = SprtConfig::parse(&words("elo0=0 elo1=5 model=pentanomial")).unwrap();
    assert_eq!(p.model, hayate::matches::stats::SprtModel::Pentanomial);
}
