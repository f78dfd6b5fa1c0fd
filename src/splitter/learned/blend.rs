//! One value that is a weighted average of two: (1 - share) x a table-only value + share x a value
//! with more entries or a network. V is linear in the table entries and in the network's output
//! layer, so the average is itself a value of the larger feature set: the shared entries are
//! averaged, the larger one's other entries and its output layer are scaled by `share`. It costs
//! nothing more to evaluate than the larger value alone.

use super::LearnedValue;

/// The blended value, or why the two cannot be blended.
pub fn blend(
    table: &LearnedValue,
    other: &LearnedValue,
    share: f32,
) -> Result<LearnedValue, String> {
    if !(0.0..=1.0).contains(&share) {
        return Err(format!("the share must be in 0..1, not {share}"));
    }
    let (small, large) = (table.features.set, other.features.set);
    if small.net.is_some() || (small.pairs && !large.pairs) {
        return Err(format!(
            "cannot blend {} into {}: the first must be a table whose entries the second has",
            small.name(),
            large.name()
        ));
    }
    if table.features.geo != other.features.geo {
        return Err("the two values are for different layouts".into());
    }
    // Entries both have are averaged; the other's further entries are scaled, and of its
    // network only the linear output (the last layer, no bias) is: the hidden layers stay.
    let shared = table.features.table_len();
    let table_end = other.features.table_len();
    let mut weights = other.weights.clone();
    for (w, &t) in weights[..shared].iter_mut().zip(&table.weights) {
        *w = (1.0 - share) * t + share * *w;
    }
    for w in &mut weights[shared..table_end] {
        *w *= share;
    }
    if let Some(shape) = &other.features.net {
        let output = weights.len() - shape.hidden2;
        for w in &mut weights[output..] {
            *w *= share;
        }
    }
    Ok(LearnedValue {
        features: other.features.clone(),
        weights,
    })
}

#[cfg(test)]
mod tests {
    use super::super::features::FeatureSet;
    use super::*;
    use crate::splitter::layout::official;
    use rand::{Rng, SeedableRng};

    fn random_value(set: &str, rng: &mut impl Rng) -> LearnedValue {
        let layout = official(1);
        let mut v = LearnedValue::untrained_with(&layout, FeatureSet::parse(set).unwrap()).unwrap();
        for w in &mut v.weights {
            *w = rng.random_range(-1.0..1.0);
        }
        v
    }

    /// The blend's value equals the weighted average of the two values, on random boards and
    /// random weights, for every pair of feature sets it accepts.
    #[test]
    fn the_blend_is_the_weighted_average_of_the_two_values() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        for (small, large) in [
            ("groups-v1", "groups-v1+pairs+net16x8"),
            ("groups-v1", "groups-v1+pairs"),
            ("groups-v1+pairs", "groups-v1+pairs+net16x8"),
            ("groups-v1", "groups-v1"),
        ] {
            let a = random_value(small, &mut rng);
            let b = random_value(large, &mut rng);
            let share = rng.random_range(0.0..1.0f32);
            let mixed = blend(&a, &b, share).unwrap();
            let geo = a.features.geo.clone();
            for case in 0..60 {
                let placements = rng.random_range(0..20);
                let board = crate::splitter::geometry::random_board(&geo, &mut rng, placements);
                let r = rng.random_range(0..16);
                let want = (1.0 - share) * a.value(&board, r) + share * b.value(&board, r);
                let got = mixed.value(&board, r);
                assert!(
                    (got - want).abs() < 1e-3 * (1.0 + want.abs()),
                    "{small} / {large}, case {case}: {got} vs {want}"
                );
            }
        }
    }

    #[test]
    fn blends_that_make_no_sense_are_refused() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let table = random_value("groups-v1", &mut rng);
        let net = random_value("groups-v1+pairs+net16x8", &mut rng);
        let pairs = random_value("groups-v1+pairs", &mut rng);
        assert!(blend(&net, &table, 0.5)
            .unwrap_err()
            .contains("cannot blend"));
        assert!(blend(&pairs, &table, 0.5)
            .unwrap_err()
            .contains("cannot blend"));
        assert!(blend(&table, &net, 1.5).unwrap_err().contains("share"));
        let other = LearnedValue::untrained(&official(2)).unwrap();
        assert!(blend(&table, &other, 0.5).unwrap_err().contains("layouts"));
    }
}
