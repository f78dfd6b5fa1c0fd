//! Sequential probability ratio test for "is A stronger than B", on win/draw/loss counts, with the
//! usual normal approximation of the game-score mean (as chess engine testers use it).

use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtConfig {
    /// H0: A's Elo advantage is `elo0`; H1: it is `elo1` (elo1 > elo0).
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Verdict {
    /// LLR reached the upper bound: accept H1 (A is stronger by about elo1).
    H1,
    /// LLR reached the lower bound: accept H0.
    H0,
    Continue,
}

/// Expected score of a player `elo` points stronger.
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl SprtConfig {
    /// A test that can decide: H1 above H0, and error rates that leave the LLR bounds on either
    /// side of 0 (alpha + beta below 1).
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<SprtConfig, String> {
        // NaN compares as neither: refused too.
        if elo1.partial_cmp(&elo0) != Some(std::cmp::Ordering::Greater) {
            return Err(format!("--elo1 ({elo1}) must be above --elo0 ({elo0})"));
        }
        let rate = |p: f64| p > 0.0 && p < 1.0;
        if !(rate(alpha) && rate(beta) && alpha + beta < 1.0) {
            return Err(format!(
                "--alpha ({alpha}) and --beta ({beta}) must each be between 0 and 1, and add up to less than 1"
            ));
        }
        Ok(SprtConfig {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// (lower, upper) log-likelihood-ratio bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 vs H0 after `w` wins, `d` draws, `l` losses of A. The
    /// variance gets half a pseudo-game of each outcome so an unbroken run does not divide by 0.
    pub fn llr(&self, w: u64, d: u64, l: u64) -> f64 {
        let n = (w + d + l) as f64;
        if n == 0.0 {
            return 0.0;
        }
        let mean = (w as f64 + d as f64 / 2.0) / n;
        let (pw, pd, pl) = (w as f64 + 0.5, d as f64 + 0.5, l as f64 + 0.5);
        let m = (pw + pd / 2.0) / (pw + pd + pl);
        let var =
            (pw * (1.0 - m).powi(2) + pd * (0.5 - m).powi(2) + pl * m.powi(2)) / (pw + pd + pl);
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    pub fn verdict(&self, w: u64, d: u64, l: u64) -> Verdict {
        let llr = self.llr(w, d, l);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

/// Elo difference estimate and its 95% interval (Student's t over the games' scores) from W/D/L;
/// an end beyond a score of 0 or 1 is an infinite Elo. None when undefined: fewer than 2 games,
/// or only wins or only losses.
pub fn elo_estimate(w: u64, d: u64, l: u64) -> Option<(f64, f64, f64)> {
    let games = w + d + l;
    if games < 2 {
        return None;
    }
    let n = games as f64;
    let mean = (w as f64 + d as f64 / 2.0) / n;
    let var = (w as f64 * (1.0 - mean).powi(2)
        + d as f64 * (0.5 - mean).powi(2)
        + l as f64 * mean.powi(2))
        / n;
    let to_elo = |s: f64| -400.0 * (1.0 / s.clamp(0.0, 1.0) - 1.0).log10();
    if mean <= 0.0 || mean >= 1.0 {
        return None;
    }
    let margin = bot::splitter::stats::t95(games as usize - 1) * (var / n).sqrt();
    Some((to_elo(mean), to_elo(mean - margin), to_elo(mean + margin)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: SprtConfig = SprtConfig {
        elo0: 0.0,
        elo1: 20.0,
        alpha: 0.05,
        beta: 0.05,
    };

    #[test]
    fn configs_that_cannot_decide_are_refused() {
        assert!(SprtConfig::new(0.0, 20.0, 0.05, 0.05).is_ok());
        for (elo0, elo1, alpha, beta) in [
            (0.0, 20.0, 2.0, 0.05),
            (0.0, 20.0, 0.05, 0.0),
            (0.0, 20.0, 0.6, 0.5),
            (0.0, 20.0, f64::NAN, 0.05),
            (20.0, 0.0, 0.05, 0.05),
            (0.0, f64::NAN, 0.05, 0.05),
        ] {
            assert!(
                SprtConfig::new(elo0, elo1, alpha, beta).is_err(),
                "{elo0} {elo1} {alpha} {beta}"
            );
        }
    }

    #[test]
    fn bounds_are_the_wald_bounds() {
        let (lower, upper) = CONFIG.bounds();
        assert!((lower + 2.944).abs() < 1e-3, "{lower}");
        assert!((upper - 2.944).abs() < 1e-3, "{upper}");
    }

    #[test]
    fn even_results_lean_to_h0_and_lopsided_ones_to_h1() {
        assert!(CONFIG.llr(500, 0, 500) < 0.0);
        assert_eq!(CONFIG.verdict(1000, 0, 1000), Verdict::H0);
        assert_eq!(CONFIG.verdict(60, 0, 40), Verdict::Continue);
        assert_eq!(CONFIG.verdict(200, 0, 0), Verdict::H1);
        assert_eq!(CONFIG.verdict(0, 0, 0), Verdict::Continue);
        // More evidence at the same ratio moves the LLR further.
        assert!(CONFIG.llr(120, 0, 80) > CONFIG.llr(60, 0, 40));
    }

    #[test]
    fn elo_estimate_matches_the_logistic_formula() {
        let (elo, low, high) = elo_estimate(75, 0, 25).unwrap();
        assert!((elo - 190.85).abs() < 0.1, "{elo}");
        assert!(low < elo && elo < high);
        assert!(elo_estimate(10, 0, 0).is_none());
        let (even, _, _) = elo_estimate(10, 5, 10).unwrap();
        assert!(even.abs() < 1e-9);
    }

    #[test]
    fn few_games_give_a_students_t_interval() {
        // 3 wins, 1 loss: score 0.75 with standard error 0.2165; t(3) = 3.182 puts the upper end
        // above a score of 1, an Elo of +infinity.
        let (elo, low, high) = elo_estimate(3, 0, 1).unwrap();
        assert!((elo - 190.85).abs() < 0.1, "{elo}");
        assert_eq!(high, f64::INFINITY);
        let to_elo = |s: f64| -400.0 * (1.0 / s - 1.0).log10();
        let se = (0.1875f64 / 4.0).sqrt();
        assert!((low - to_elo(0.75 - 3.18245 * se)).abs() < 0.5, "{low}");
        // 100 games: t(99) = 1.984.
        let (_, low, high) = elo_estimate(75, 0, 25).unwrap();
        let se = (0.1875f64 / 100.0).sqrt();
        assert!((low - to_elo(0.75 - 1.98422 * se)).abs() < 0.05, "{low}");
        assert!((high - to_elo(0.75 + 1.98422 * se)).abs() < 0.05, "{high}");
        assert!(elo_estimate(0, 1, 0).is_none(), "one game: no interval");
    }
}
