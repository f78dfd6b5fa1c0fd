//! Time management: a turn budget measured from the moment the turn's first input line arrived,
//! with a soft limit (do not start new work) and a hard limit (stop now), and a clock that is read
//! only every `batch` polls because `Instant::now` is not free.

use std::time::{Duration, Instant};

/// Soft and hard limits of one turn, both measured from `start`.
#[derive(Clone, Copy, Debug)]
pub struct TimeBudget {
    pub start: Instant,
    pub soft: Duration,
    pub hard: Duration,
}

impl TimeBudget {
    /// A budget for a turn of `turn_limit` (as the referee counts it): the hard limit keeps
    /// `safety` in reserve for output and scheduling noise, and the soft limit is `soft_share` of
    /// the hard one (iterative deepening will not start an iteration after it).
    pub fn for_turn(
        start: Instant,
        turn_limit: Duration,
        safety: Duration,
        soft_share: f64,
    ) -> Self {
        let hard = turn_limit.saturating_sub(safety);
        let soft = hard.mul_f64(soft_share.clamp(0.0, 1.0));
        TimeBudget { start, soft, hard }
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}

/// What stops a search: a node (or playout) limit, a time budget, or both.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchLimit {
    /// Stop after this many nodes (alpha-beta) or playouts (MCTS); deterministic.
    pub nodes: Option<u64>,
    pub time: Option<TimeBudget>,
    /// Deepest iteration for iterative deepening.
    pub depth: Option<u32>,
}

impl SearchLimit {
    pub fn nodes(n: u64) -> Self {
        SearchLimit {
            nodes: Some(n),
            ..Self::default()
        }
    }

    pub fn time(budget: TimeBudget) -> Self {
        SearchLimit {
            time: Some(budget),
            ..Self::default()
        }
    }

    pub fn depth(d: u32) -> Self {
        SearchLimit {
            depth: Some(d),
            ..Self::default()
        }
    }
}

/// Counts work and answers "must I stop?", reading the clock once per `batch` polls.
#[derive(Clone, Debug)]
pub struct Clock {
    limit: SearchLimit,
    batch: u32,
    until_check: u32,
    pub nodes: u64,
    stopped: bool,
}

impl Clock {
    pub fn new(limit: SearchLimit, batch: u32) -> Self {
        Clock {
            limit,
            batch: batch.max(1),
            until_check: 0,
            nodes: 0,
            stopped: false,
        }
    }

    /// Counts one node and says whether the search must stop (hard limit or node limit).
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        self.must_stop()
    }

    /// Whether the search must stop, without counting a node.
    #[inline]
    pub fn must_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if let Some(n) = self.limit.nodes {
            if self.nodes >= n {
                self.stopped = true;
                return true;
            }
        }
        if let Some(budget) = self.limit.time {
            if self.until_check == 0 {
                self.until_check = self.batch;
                if budget.elapsed() >= budget.hard {
                    self.stopped = true;
                    return true;
                }
            }
            self.until_check -= 1;
        }
        false
    }

    /// Past the soft limit: finish what is running but start nothing new (reads the clock now).
    pub fn soft_expired(&self) -> bool {
        self.stopped
            || self
                .limit
                .time
                .is_some_and(|budget| budget.elapsed() >= budget.soft)
    }

    pub fn stopped(&self) -> bool {
        self.stopped
    }

    pub fn limit(&self) -> &SearchLimit {
        &self.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_limit_stops_exactly() {
        let mut clock = Clock::new(SearchLimit::nodes(10), 4);
        let mut ticks = 0;
        while !clock.tick() {
            ticks += 1;
        }
        assert_eq!(ticks, 9);
        assert_eq!(clock.nodes, 10);
        assert!(clock.stopped() && clock.soft_expired());
    }

    #[test]
    fn expired_budget_stops_at_first_poll() {
        let start = Instant::now() - Duration::from_millis(100);
        let budget = TimeBudget::for_turn(
            start,
            Duration::from_millis(50),
            Duration::from_millis(10),
            0.5,
        );
        assert_eq!(budget.hard, Duration::from_millis(40));
        assert_eq!(budget.soft, Duration::from_millis(20));
        let mut clock = Clock::new(SearchLimit::time(budget), 1000);
        assert!(clock.soft_expired());
        assert!(clock.tick());
    }

    #[test]
    fn fresh_budget_does_not_stop() {
        let budget = TimeBudget::for_turn(
            Instant::now(),
            Duration::from_millis(1000),
            Duration::from_millis(100),
            0.6,
        );
        assert_eq!(budget.hard, Duration::from_millis(900));
        let mut clock = Clock::new(SearchLimit::time(budget), 1000);
        assert!(!clock.tick());
        assert!(!clock.soft_expired());
    }
}
