//! Mean, standard deviation and the 95% confidence interval of the mean (Student's t, so a
//! handful of games gets the wide interval it deserves), for the benches and the testers'
//! summaries (`bot bench splitter`, `tester splitter`, `tester arena`).

use statrs::distribution::{ContinuousCDF, StudentsT};

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stats {
    pub n: usize,
    pub mean: f64,
    pub sd: f64,
    /// Half-width of the 95% confidence interval of the mean; NaN below two values.
    pub ci95: f64,
}

impl Stats {
    /// The 95% interval of the mean, if there are two values or more.
    pub fn interval(&self) -> Option<(f64, f64)> {
        (!self.ci95.is_nan()).then_some((self.mean - self.ci95, self.mean + self.ci95))
    }

    /// `95% CI [low, high]` with `decimals`, or `95% CI: n too small` below two values.
    pub fn ci_text(&self, decimals: usize) -> String {
        match self.interval() {
            None => "95% CI: n too small".to_string(),
            Some((low, high)) => format!("95% CI [{low:.decimals$}, {high:.decimals$}]"),
        }
    }

    /// `+-half` with `decimals`, or `n too small`.
    pub fn pm_text(&self, decimals: usize) -> String {
        match self.ci95.is_nan() {
            true => "n too small".to_string(),
            false => format!("+-{:.decimals$}", self.ci95),
        }
    }
}

/// The two-sided 95% quantile of Student's t with `df` degrees of freedom (NaN for 0).
pub fn t95(df: usize) -> f64 {
    match StudentsT::new(0.0, 1.0, df as f64) {
        Ok(t) if df > 0 => t.inverse_cdf(0.975),
        _ => f64::NAN,
    }
}

pub fn stats(xs: &[f64]) -> Stats {
    let n = xs.len();
    if n == 0 {
        return Stats {
            n,
            mean: 0.0,
            sd: 0.0,
            ci95: f64::NAN,
        };
    }
    let mean = xs.iter().sum::<f64>() / n as f64;
    let var = if n > 1 {
        xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64
    } else {
        0.0
    };
    let sd = var.sqrt();
    Stats {
        n,
        mean,
        sd,
        ci95: t95(n - 1) * sd / (n as f64).sqrt(),
    }
}

/// The value at `q` (0..=1) of sorted data (nearest rank).
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        let s = stats(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(s.mean, 5.0);
        assert!((s.sd - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        assert!((s.ci95 - 2.36462 * s.sd / 8f64.sqrt()).abs() < 1e-5);
        assert_eq!(stats(&[]).n, 0);
        assert_eq!(stats(&[3.0]).sd, 0.0);
        assert_eq!(quantile(&[1.0, 2.0, 3.0], 0.5), 2.0);
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0], 1.0), 4.0);
    }

    #[test]
    fn small_samples_get_students_t() {
        // Two values: sd 0.707 and t(1) = 12.706, so the mean 44.5 is known to +-6.35 (the
        // normal 1.96 claimed +-0.98).
        let s = stats(&[44.0, 45.0]);
        assert!(
            (s.ci95 - 12.7062 * s.sd / 2f64.sqrt()).abs() < 1e-3,
            "{}",
            s.ci95
        );
        let xs: Vec<f64> = (0..30).map(f64::from).collect();
        let s = stats(&xs);
        assert!(
            (s.ci95 - 2.04523 * s.sd / 30f64.sqrt()).abs() < 1e-4,
            "{}",
            s.ci95
        );
        assert_eq!(stats(&[44.0, 45.0]).ci_text(2), "95% CI [38.15, 50.85]");
        // Below two values there is no interval.
        assert!(stats(&[3.0]).ci95.is_nan());
        assert_eq!(stats(&[3.0]).ci_text(2), "95% CI: n too small");
        assert_eq!(stats(&[]).pm_text(2), "n too small");
    }
}
