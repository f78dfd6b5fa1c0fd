//! A small neural network on top of the table features: the value is the table's sum plus this
//! network's output, so the table carries what each feature is worth alone and the network learns
//! how they interact (several groups wanting the same dice, the room they share, the stage).
//!
//! Inputs are the table entries with the game stage taken out (an entry of stage s and the same
//! entry of stage t are one input; the rolls to come are inputs of their own). Two hidden layers
//! with ReLU, a linear output. The first layer is sparse: only the active inputs' rows are added.
//! The parameters live at the end of the value's one weight vector (one file, one optimiser
//! state), laid out as `Shape` says.
//!
//! Training (`backward`) is a plain gradient step with per-parameter RMS scaling (Adam's moments
//! without bias correction, so resuming needs no step counter): the moments live in the same
//! slots of the training state as the table's temporal-coherence sums.

/// Where the network's parameters sit in the weight vector, and its sizes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    pub inputs: usize,
    pub hidden1: usize,
    pub hidden2: usize,
    /// Offset of the first parameter in the weight vector.
    pub at: usize,
}

impl Shape {
    pub(super) fn w1(&self) -> usize {
        self.at
    }
    pub(super) fn b1(&self) -> usize {
        self.w1() + self.inputs * self.hidden1
    }
    pub(super) fn w2(&self) -> usize {
        self.b1() + self.hidden1
    }
    pub(super) fn b2(&self) -> usize {
        self.w2() + self.hidden1 * self.hidden2
    }
    pub(super) fn w3(&self) -> usize {
        self.b2() + self.hidden2
    }
    /// Parameters in all.
    pub fn params(&self) -> usize {
        self.w3() + self.hidden2 - self.at
    }
}

/// Largest hidden layers supported (the forward pass keeps its activations on the stack).
pub const MAX_HIDDEN: usize = 128;

/// The forward pass's activations, kept for the backward pass.
#[derive(Clone)]
pub struct Activations {
    pre1: [f32; MAX_HIDDEN],
    pre2: [f32; MAX_HIDDEN],
}

impl Default for Activations {
    fn default() -> Self {
        Activations {
            pre1: [0.0; MAX_HIDDEN],
            pre2: [0.0; MAX_HIDDEN],
        }
    }
}

/// Defines `$name` calling `$body`, compiled a second time with AVX2 and taken when the CPU has
/// it: the same operations in the same order, so the same result to the bit, in wider registers.
macro_rules! with_avx2 {
    ($(#[$doc:meta])* $vis:vis fn $name:ident, $fast:ident, $body:ident ($($arg:ident: $ty:ty),*) -> $ret:ty) => {
        $(#[$doc])*
        #[inline]
        $vis fn $name($($arg: $ty),*) -> $ret {
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2 (checked just above).
                return unsafe { $fast($($arg),*) };
            }
            $body($($arg),*)
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2")]
        fn $fast($($arg: $ty),*) -> $ret {
            $body($($arg),*)
        }
    };
}

with_avx2! {
    /// The network's output for the active `inputs` (indices below `shape.inputs`, repeats count
    /// twice), keeping the activations in `act` for `backward`.
    pub fn forward, forward_avx2, forward_body(
        shape: &Shape, w: &[f32], inputs: &[u32], act: &mut Activations
    ) -> f32
}

#[inline(always)]
fn forward_body(shape: &Shape, w: &[f32], inputs: &[u32], act: &mut Activations) -> f32 {
    let h1 = shape.hidden1;
    let pre1 = &mut act.pre1[..h1];
    pre1.copy_from_slice(&w[shape.b1()..shape.b1() + h1]);
    for &i in inputs {
        add_row(pre1, w, shape.w1() + i as usize * h1, 1);
    }
    rest(shape, w, &act.pre1[..h1], &mut act.pre2)
}

/// A board's first-layer sum: its afterstates' sums are this plus the rows of the inputs they
/// have and it has not, minus the rows of those it has and they have not — a few rows instead of
/// every active input's.
pub struct Base {
    pre1: [f32; MAX_HIDDEN],
    inputs: Vec<u32>,
    /// Per input, how many more times the afterstate being valued has it than the base (all
    /// zero between calls).
    diff: Vec<i16>,
}

impl Base {
    pub fn new(shape: &Shape) -> Base {
        Base {
            pre1: [0.0; MAX_HIDDEN],
            inputs: Vec::with_capacity(160),
            diff: vec![0; shape.inputs],
        }
    }

    /// Whether this base was made for networks of `shape`'s input count.
    pub fn fits(&self, shape: &Shape) -> bool {
        self.diff.len() == shape.inputs
    }
}

with_avx2! {
    /// Make `inputs` (a board's) the base.
    pub fn set_base, set_base_avx2, set_base_body(
        base: &mut Base, shape: &Shape, w: &[f32], inputs: &[u32]
    ) -> ()
}

#[inline(always)]
fn set_base_body(base: &mut Base, shape: &Shape, w: &[f32], inputs: &[u32]) {
    let h1 = shape.hidden1;
    let pre1 = &mut base.pre1[..h1];
    pre1.copy_from_slice(&w[shape.b1()..shape.b1() + h1]);
    for &i in inputs {
        add_row(pre1, w, shape.w1() + i as usize * h1, 1);
    }
    base.inputs.clear();
    base.inputs.extend_from_slice(inputs);
}

with_avx2! {
    /// The network's output for `inputs` (an afterstate of the base's board) from the base's
    /// sum. Equal to `forward` up to float rounding (the rows are added in another order).
    pub fn forward_from, forward_from_avx2, forward_from_body(
        base: &mut Base, shape: &Shape, w: &[f32], inputs: &[u32]
    ) -> f32
}

#[inline(always)]
fn forward_from_body(base: &mut Base, shape: &Shape, w: &[f32], inputs: &[u32]) -> f32 {
    let h1 = shape.hidden1;
    let d = &mut base.diff;
    for &i in inputs {
        d[i as usize] += 1;
    }
    for &i in &base.inputs {
        d[i as usize] -= 1;
    }
    let mut pre1 = base.pre1;
    for &i in inputs.iter().chain(&base.inputs) {
        let k = std::mem::take(&mut d[i as usize]);
        if k != 0 {
            add_row(&mut pre1[..h1], w, shape.w1() + i as usize * h1, k);
        }
    }
    rest(shape, w, &pre1[..h1], &mut [0.0; MAX_HIDDEN])
}

/// `pre1 += k * w[row..]` (k = 1 or -1 exactly as an addition or a subtraction).
#[inline(always)]
fn add_row(pre1: &mut [f32], w: &[f32], row: usize, k: i16) {
    fn fixed<const H: usize>(pre1: &mut [f32], w: &[f32], row: usize, k: i16) {
        let pre1: &mut [f32; H] = pre1.try_into().unwrap();
        let r: &[f32; H] = w[row..row + H].try_into().unwrap();
        match k {
            1 => (0..H).for_each(|j| pre1[j] += r[j]),
            -1 => (0..H).for_each(|j| pre1[j] -= r[j]),
            _ => (0..H).for_each(|j| pre1[j] += r[j] * k as f32),
        }
    }
    match pre1.len() {
        64 => fixed::<64>(pre1, w, row, k),
        32 => fixed::<32>(pre1, w, row, k),
        128 => fixed::<128>(pre1, w, row, k),
        h => add_scaled(pre1, &w[row..row + h], k as f32),
    }
}

/// The second layer and the output from the first layer's pre-activations (the second layer's
/// pre-activations go to `out2`).
#[inline(always)]
fn rest(shape: &Shape, w: &[f32], pre1: &[f32], out2: &mut [f32; MAX_HIDDEN]) -> f32 {
    match shape.hidden2 {
        32 => rest_fixed::<32>(shape, w, pre1, out2),
        16 => rest_fixed::<16>(shape, w, pre1, out2),
        _ => rest_any(shape, w, pre1, out2),
    }
}

#[inline(always)]
fn rest_fixed<const H2: usize>(
    shape: &Shape,
    w: &[f32],
    pre1: &[f32],
    out2: &mut [f32; MAX_HIDDEN],
) -> f32 {
    let mut pre2: [f32; H2] = w[shape.b2()..shape.b2() + H2].try_into().unwrap();
    for (i, &x) in pre1.iter().enumerate() {
        if x > 0.0 {
            let row = shape.w2() + i * H2;
            let row: &[f32; H2] = w[row..row + H2].try_into().unwrap();
            for k in 0..H2 {
                pre2[k] += row[k] * x;
            }
        }
    }
    out2[..H2].copy_from_slice(&pre2);
    output(shape, w, &pre2)
}

#[inline(always)]
fn rest_any(shape: &Shape, w: &[f32], pre1: &[f32], out2: &mut [f32; MAX_HIDDEN]) -> f32 {
    let h2 = shape.hidden2;
    let pre2 = &mut out2[..h2];
    pre2.copy_from_slice(&w[shape.b2()..shape.b2() + h2]);
    for (i, &x) in pre1.iter().enumerate() {
        if x > 0.0 {
            let row = shape.w2() + i * h2;
            add_scaled(pre2, &w[row..row + h2], x);
        }
    }
    output(shape, w, pre2)
}

#[inline(always)]
fn output(shape: &Shape, w: &[f32], pre2: &[f32]) -> f32 {
    let w3 = &w[shape.w3()..shape.w3() + pre2.len()];
    let mut out = 0.0;
    for (&x, &k) in pre2.iter().zip(w3) {
        out += x.max(0.0) * k;
    }
    out
}

/// One step of the network's parameters towards raising its output by `delta` for the inputs of
/// the last `forward` (gradient of the output times `delta`, each parameter's step scaled by
/// `opt`).
pub fn backward(shape: &Shape, opt: &mut Optimiser, inputs: &[u32], act: &Activations, delta: f32) {
    let (h1, h2) = (shape.hidden1, shape.hidden2);
    // Output layer, and the gradient reaching the second layer's pre-activations.
    let mut d2 = [0.0f32; MAX_HIDDEN];
    for (j, (d, &x)) in d2[..h2].iter_mut().zip(&act.pre2[..h2]).enumerate() {
        let k = shape.w3() + j;
        *d = if x > 0.0 { opt.w[k] * delta } else { 0.0 };
        opt.step(k, x.max(0.0) * delta);
    }
    let d2 = &d2[..h2];
    // Second layer, and the gradient reaching the first layer's pre-activations.
    let mut d1 = [0.0f32; MAX_HIDDEN];
    for (i, (d, &x)) in d1[..h1].iter_mut().zip(&act.pre1[..h1]).enumerate() {
        if x <= 0.0 {
            continue;
        }
        let row = shape.w2() + i * h2;
        *d = d2
            .iter()
            .enumerate()
            .fold(0.0, |back, (j, &g)| back + opt.w[row + j] * g);
        opt.step_nonzero(row, d2, x);
    }
    opt.step_nonzero(shape.b2(), d2, 1.0);
    let d1 = &d1[..h1];
    opt.step_nonzero(shape.b1(), d1, 1.0);
    for &inp in inputs {
        opt.step_nonzero(shape.w1() + inp as usize * h1, d1, 1.0);
    }
}

/// Gradient steps scaled by the running RMS of each parameter's gradient (Adam's moments `m`
/// and `v`, laid out as the weights `w`, without bias correction).
pub struct Optimiser<'a> {
    pub w: &'a mut [f32],
    pub m: &'a mut [f32],
    pub v: &'a mut [f32],
    pub rate: f32,
}

impl Optimiser<'_> {
    #[inline(always)]
    fn step(&mut self, k: usize, g: f32) {
        self.m[k] = 0.9 * self.m[k] + 0.1 * g;
        self.v[k] = 0.999 * self.v[k] + 0.001 * g * g;
        self.w[k] += self.rate * self.m[k] / (self.v[k].sqrt() + 1e-6);
    }

    /// Steps of the parameters from `at` on by the gradients `grad` times `x`, skipping those
    /// whose gradient is zero (ReLUs that were off).
    #[inline(always)]
    fn step_nonzero(&mut self, at: usize, grad: &[f32], x: f32) {
        for (j, &g) in grad.iter().enumerate() {
            if g != 0.0 {
                self.step(at + j, x * g);
            }
        }
    }
}

/// Starting parameters: small random first and second layers (scaled to their fan-in, from a
/// fixed generator), zero output weights — so a fresh network adds nothing to the table.
pub fn initial(shape: &Shape, seed: u64, fan_in1: usize) -> Vec<f32> {
    let mut state = seed ^ 0x2545_F491_4F6C_DD1D;
    let mut uniform = || {
        // xorshift64*: enough for initial weights, and the same on every machine.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        let x = state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40;
        x as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    };
    let mut p = vec![0.0f32; shape.params()];
    let s1 = (3.0 / fan_in1.max(1) as f32).sqrt();
    let s2 = (3.0 / shape.hidden1 as f32).sqrt();
    let at = shape.at;
    for w in &mut p[shape.w1() - at..shape.b1() - at] {
        *w = uniform() * s1;
    }
    for w in &mut p[shape.w2() - at..shape.b2() - at] {
        *w = uniform() * s2;
    }
    p
}

#[inline(always)]
fn add_scaled(acc: &mut [f32], row: &[f32], x: f32) {
    for (a, &r) in acc.iter_mut().zip(row) {
        *a += r * x;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> (Shape, Vec<f32>) {
        let shape = Shape {
            inputs: 7,
            hidden1: 5,
            hidden2: 4,
            at: 3,
        };
        let mut w = vec![0.5f32; 3];
        w.extend(initial(&shape, 9, 3));
        // Non-zero output weights and biases so every path carries gradient.
        for j in 0..4 {
            w[shape.w3() + j] = 0.3 * (j as f32 - 1.5);
            w[shape.b2() + j] = 0.1;
        }
        for i in 0..5 {
            w[shape.b1() + i] = 0.05 * i as f32;
        }
        (shape, w)
    }

    /// The output computed the obvious way: dense input vector, matrix products.
    fn forward_dense(shape: &Shape, w: &[f32], inputs: &[u32]) -> f32 {
        let mut x = vec![0.0f32; shape.inputs];
        for &i in inputs {
            x[i as usize] += 1.0;
        }
        // relu(x . W + b), W stored row by row (one row per input unit).
        let layer = |x: &[f32], weights: usize, bias: usize, outputs: usize| -> Vec<f32> {
            (0..outputs)
                .map(|j| {
                    let s: f32 = (0..x.len())
                        .map(|k| x[k] * w[weights + k * outputs + j])
                        .sum();
                    (s + w[bias + j]).max(0.0)
                })
                .collect()
        };
        let h1 = layer(&x, shape.w1(), shape.b1(), shape.hidden1);
        let h2 = layer(&h1, shape.w2(), shape.b2(), shape.hidden2);
        (0..shape.hidden2).map(|j| h2[j] * w[shape.w3() + j]).sum()
    }

    #[test]
    fn sparse_forward_matches_the_dense_products() {
        let (shape, w) = small();
        let mut act = Activations::default();
        for inputs in [&[0u32, 3, 6][..], &[1, 1, 2], &[], &[5]] {
            let fast = forward(&shape, &w, inputs, &mut act);
            let slow = forward_dense(&shape, &w, inputs);
            assert!((fast - slow).abs() < 1e-5, "{inputs:?}: {fast} vs {slow}");
        }
    }

    /// Every parameter's step has the sign of the numerical gradient of the output (the first
    /// step of the RMS-scaled update is the gradient's sign times a constant), and parameters
    /// with no gradient do not move.
    #[test]
    fn backward_follows_the_numerical_gradient() {
        let (shape, w) = small();
        let inputs = [0u32, 3, 3, 6];
        let mut act = Activations::default();
        forward(&shape, &w, &inputs, &mut act);
        let mut after = w.clone();
        let (mut m, mut v) = (vec![0.0; w.len()], vec![0.0; w.len()]);
        let mut opt = Optimiser {
            w: &mut after,
            m: &mut m,
            v: &mut v,
            rate: 1e-3,
        };
        backward(&shape, &mut opt, &inputs, &act, 1.0);
        let mut checked = 0;
        for k in shape.at..w.len() {
            let h = 1e-3;
            let mut up = w.clone();
            up[k] += h;
            let mut down = w.clone();
            down[k] -= h;
            let g = (forward_dense(&shape, &up, &inputs) - forward_dense(&shape, &down, &inputs))
                / (2.0 * h);
            let moved = after[k] - w[k];
            if g.abs() > 1e-3 {
                assert!(moved * g > 0.0, "param {k}: gradient {g}, moved {moved}");
                checked += 1;
            } else if g == 0.0 {
                assert_eq!(moved, 0.0, "param {k} has no gradient but moved");
            }
        }
        assert!(checked > 20, "{checked}");
        assert_eq!(&after[..3], &w[..3], "the table part is not the network's");
    }
}
