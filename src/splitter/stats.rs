//! Mean, standard deviation and a normal-approximation 95% confidence interval, for the bench
//! (`bot bench splitter`) and the Tester's summary (`tester splitter`).

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stats {
    pub n: usize,
    pub mean: f64,
    pub sd: f64,
    /// Half-width of the 95% confidence interval of the mean.
    pub ci95: f64,
}

pub fn stats(xs: &[f64]) -> Stats {
    let n = xs.len();
    if n == 0 {
        return Stats {
            n,
            mean: 0.0,
            sd: 0.0,
            ci95: 0.0,
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
        ci95: 1.96 * sd / (n as f64).sqrt(),
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
        assert!((s.ci95 - 1.96 * s.sd / 8f64.sqrt()).abs() < 1e-12);
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
        assert!((s.ci95 - 12.7062 * s.sd / 2f64.sqrt()).abs() < 1e-3, "{}", s.ci95);
        let xs: Vec<f64> = (0..30).map(f64::from).collect();
        let s = stats(&xs);
        assert!((s.ci95 - 2.04523 * s.sd / 30f64.sqrt()).abs() < 1e-4, "{}", s.ci95);
        // Below two values there is no interval.
        assert!(stats(&[3.0]).ci95.is_nan());
    }
}
