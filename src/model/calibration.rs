//! Calibrated probabilities from an evaluator's option scores: a softmax with one temperature
//! per model and decision kind, `p_i = exp(s_i / T) / Σ_j exp(s_j / T)`, the temperature fitted
//! by maximum likelihood of the recorded choices on the validation split.
//!
//! A ranking loss fixes the scores' order, not their scale: the temperature is the one number
//! that turns a score gap into a probability, and it is all a probability needs (the order, so
//! the top choice and the match rate, never changes). The fit is exact and cheap: the negative
//! log-likelihood is convex in `β = 1 / T` (a sum of log-sum-exps of `β × score`), so Newton's
//! method on `β` converges in a few passes.
//!
//! Calibration is reported on the top label (Guo et al., 2017): the model's confidence in its
//! first choice against how often the player took it, in [`BINS`] equal-width bins; the expected
//! calibration error (ECE) is the bins' mean gap weighted by their share of decisions.

use crate::rank::TIE_EPS;

/// Reliability bins: equal-width over [0, 1].
pub const BINS: usize = 10;

/// The probabilities of a decision's options under `temperature` (same order as `scores`).
pub fn probabilities(scores: &[f64], temperature: f64) -> Vec<f64> {
    let beta = 1.0 / temperature;
    let m = scores.iter().fold(f64::NEG_INFINITY, |a, &s| a.max(s));
    let e: Vec<f64> = scores.iter().map(|&s| ((s - m) * beta).exp()).collect();
    let sum: f64 = e.iter().sum();
    e.into_iter().map(|x| x / sum).collect()
}

/// How a model judged one decision's choice: the figures the review shows per decision and
/// `haifu stats` counts per dan and year, defined once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judgement {
    /// The choice scores within [`TIE_EPS`] of the best option (a tie at the top counts).
    pub matched: bool,
    /// The calibrated probability of the choice; `None` without a temperature.
    pub probability: Option<f64>,
    /// The calibrated probability of the model's first option; `None` without a temperature.
    pub best_probability: Option<f64>,
    /// The model's first option (the lowest index among ties at the top, as the review orders
    /// them): what the judge sets the choice beside.
    pub pick: usize,
}

impl Judgement {
    /// A bad move: the choice's probability is below `bad_below`; `None` without a probability.
    pub fn bad_move(&self, bad_below: f64) -> Option<bool> {
        self.probability.map(|p| p < bad_below)
    }
}

/// Judges the option `chosen` of a decision whose options score `scores` (at least one), with
/// probabilities when the model has a `temperature`.
pub fn judge(scores: &[f64], chosen: usize, temperature: Option<f64>) -> Judgement {
    let probs = temperature.map(|t| probabilities(scores, t));
    judge_with(scores, chosen, probs.as_deref())
}

/// [`judge`] for a caller that already holds the options' probabilities (the review shows them
/// per option): `probs` is [`probabilities`] of `scores`, or `None` without a temperature.
pub fn judge_with(scores: &[f64], chosen: usize, probs: Option<&[f64]>) -> Judgement {
    let best = scores.iter().fold(f64::NEG_INFINITY, |a, &s| a.max(s));
    Judgement {
        pick: scores.iter().position(|&s| s == best).unwrap_or(0),
        matched: scores[chosen] >= best - TIE_EPS,
        probability: probs.map(|p| p[chosen]),
        best_probability: probs.map(|p| p.iter().fold(0.0f64, |a, &x| a.max(x))),
    }
}

/// One decision as calibration sees it: every other option's score minus the chosen one's
/// (`z_j = s_j − s_chosen`; the chosen option is at `z = 0`).
pub type Gaps = Vec<f64>;

/// `−log p(chosen)` at `β`, with its first and second derivatives in `β`.
fn nll(z: &[f64], beta: f64) -> (f64, f64, f64) {
    let m = z.iter().fold(0.0f64, |a, &x| a.max(beta * x));
    let mut sum = (-m).exp();
    let (mut s1, mut s2) = (0.0, 0.0);
    for &x in z {
        let e = (beta * x - m).exp();
        sum += e;
        s1 += e * x;
        s2 += e * x * x;
    }
    let mean = s1 / sum;
    (m + sum.ln(), mean, s2 / sum - mean * mean)
}

/// Mean negative log-likelihood of the chosen options at `temperature` (natural log).
pub fn log_loss(decisions: &[Gaps], temperature: f64) -> f64 {
    let beta = 1.0 / temperature;
    decisions.iter().map(|z| nll(z, beta).0).sum::<f64>() / decisions.len().max(1) as f64
}

/// The temperature that maximises the likelihood of the chosen options; 1 for no decisions.
/// Newton's method on `β = 1 / T` with step halving, kept within `β ∈ [1e-6, 1e6]`.
pub fn fit_temperature(decisions: &[Gaps]) -> f64 {
    if decisions.is_empty() {
        return 1.0;
    }
    let total = |beta: f64| -> (f64, f64, f64) {
        decisions.iter().fold((0.0, 0.0, 0.0), |(f, g, h), z| {
            let (a, b, c) = nll(z, beta);
            (f + a, g + b, h + c)
        })
    };
    let mut beta = 1.0f64;
    let (mut f, mut g, mut h) = total(beta);
    for _ in 0..100 {
        let step = if h > 0.0 { -g / h } else { -g.signum() * beta };
        let mut t = 1.0;
        let mut moved = false;
        while t > 1e-12 {
            let next = (beta + t * step).clamp(1e-6, 1e6);
            let (f2, g2, h2) = total(next);
            if f2 <= f {
                moved = (next - beta).abs() > 1e-12 * beta.max(1.0);
                (beta, f, g, h) = (next, f2, g2, h2);
                break;
            }
            t /= 2.0;
        }
        if !moved || g.abs() < 1e-9 * decisions.len() as f64 {
            break;
        }
    }
    1.0 / beta
}

/// One bin of a reliability table.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Bin {
    /// The bin's confidence range `[lo, hi)` (the last includes 1).
    pub lo: f64,
    pub hi: f64,
    pub decisions: u64,
    /// Mean confidence of the model's first choice.
    pub confidence: f64,
    /// How often the player took it (ties shared as top-1 shares them).
    pub accuracy: f64,
}

/// Calibration of a model on one split.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Report {
    pub decisions: u64,
    /// Mean `−ln p(chosen)`.
    pub log_loss: f64,
    /// Expected calibration error of the first choice over [`BINS`] bins (0-1).
    pub ece: f64,
    pub bins: Vec<Bin>,
}

/// The calibration of `decisions` at `temperature` (see the module doc).
pub fn report(decisions: &[Gaps], temperature: f64) -> Report {
    let beta = 1.0 / temperature;
    let mut n = [0u64; BINS];
    let (mut conf, mut acc) = ([0.0f64; BINS], [0.0f64; BINS]);
    let mut loss = 0.0;
    for z in decisions {
        loss += nll(z, beta).0;
        let top = z.iter().fold(0.0f64, |a, &x| a.max(x));
        let sum: f64 = 1.0 + z.iter().map(|&x| (beta * x).exp()).sum::<f64>();
        // Confidence: the first choice's probability (the chosen option's when it leads).
        let confidence = (beta * top).exp() / sum;
        let ties = z.iter().filter(|&&x| (x - top).abs() <= TIE_EPS).count();
        let chosen_top = top <= TIE_EPS;
        let hit = if chosen_top { 1.0 / (ties + 1) as f64 } else { 0.0 };
        let b = ((confidence * BINS as f64) as usize).min(BINS - 1);
        n[b] += 1;
        conf[b] += confidence;
        acc[b] += hit;
    }
    let total = decisions.len().max(1) as f64;
    let bins: Vec<Bin> = (0..BINS)
        .map(|b| {
            let k = n[b].max(1) as f64;
            Bin {
                lo: b as f64 / BINS as f64,
                hi: (b + 1) as f64 / BINS as f64,
                decisions: n[b],
                confidence: conf[b] / k,
                accuracy: acc[b] / k,
            }
        })
        .collect();
    let ece = bins.iter().map(|b| b.decisions as f64 / total * (b.confidence - b.accuracy).abs()).sum();
    Report { decisions: decisions.len() as u64, log_loss: loss / total, ece, bins }
}

/// A model's calibration: its temperature (fitted on the validation split) and how well it does
/// on the validation and test splits. Stored in the weights file.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Calibration {
    pub temperature: f64,
    pub validation: Report,
    pub test: Report,
}

impl Calibration {
    /// Fits the temperature on `validation` and reports both splits.
    pub fn fit(validation: &[Gaps], test: &[Gaps]) -> Calibration {
        let temperature = fit_temperature(validation);
        Calibration {
            temperature,
            validation: report(validation, temperature),
            test: report(test, temperature),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny deterministic generator (splitmix64) for simulated decisions.
    fn rng(state: &mut u64) -> f64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Decisions whose choice is drawn from softmax(scores / t_true): the fit recovers t_true
    /// and the report is calibrated there, not at a wrong temperature.
    fn simulated(t_true: f64, n: usize) -> Vec<Gaps> {
        let mut s = 7u64;
        (0..n)
            .map(|_| {
                let k = 2 + (rng(&mut s) * 8.0) as usize;
                let scores: Vec<f64> = (0..k).map(|_| rng(&mut s) * 4.0).collect();
                let p = probabilities(&scores, t_true);
                let u = rng(&mut s);
                let mut acc = 0.0;
                let chosen = p.iter().position(|&x| {
                    acc += x;
                    u < acc
                });
                let c = chosen.unwrap_or(k - 1);
                (0..k).filter(|&j| j != c).map(|j| scores[j] - scores[c]).collect()
            })
            .collect()
    }

    #[test]
    fn probabilities_sum_to_one_and_keep_the_order() {
        let p = probabilities(&[3.0, 1.0, 2.0], 0.5);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(p[0] > p[2] && p[2] > p[1]);
        let hot = probabilities(&[3.0, 1.0, 2.0], 1e6);
        assert!(hot.iter().all(|&x| (x - 1.0 / 3.0).abs() < 1e-5), "a high temperature is uniform");
    }

    #[test]
    fn the_fit_recovers_the_temperature_that_made_the_choices() {
        for t in [0.3, 1.0, 2.5] {
            let d = simulated(t, 20_000);
            let fitted = fit_temperature(&d);
            assert!((fitted / t - 1.0).abs() < 0.05, "true {t}, fitted {fitted}");
            let at = |x| log_loss(&d, x);
            assert!(at(fitted) <= at(fitted * 1.1) && at(fitted) <= at(fitted / 1.1));
        }
    }

    #[test]
    fn calibrated_at_the_true_temperature_not_at_a_wrong_one() {
        let d = simulated(1.0, 20_000);
        let good = report(&d, fit_temperature(&d));
        let bad = report(&d, 0.2);
        assert!(good.ece < 0.02, "ece {}", good.ece);
        assert!(bad.ece > 0.1, "a too-sharp model is overconfident: ece {}", bad.ece);
        assert_eq!(good.bins.iter().map(|b| b.decisions).sum::<u64>(), 20_000);
    }

    #[test]
    fn ties_share_the_hit() {
        // Chosen tied with one other option at the top: half a hit at confidence 0.5.
        let r = report(&[vec![0.0]], 1.0);
        let b = &r.bins[5];
        assert_eq!((b.decisions, b.confidence, b.accuracy), (1, 0.5, 0.5));
        assert!(r.ece.abs() < 1e-12);
    }

    #[test]
    fn judge_counts_a_tie_at_the_top_and_gives_the_choice_its_probability() {
        let j = judge(&[1.0, 3.0, 3.0], 1, None);
        assert!(j.matched && j.probability.is_none() && j.bad_move(0.05).is_none());
        assert!(judge(&[1.0, 3.0, 3.0], 2, None).matched, "a tie at the top is a match");
        assert_eq!(judge(&[1.0, 3.0, 3.0], 2, None).pick, 1, "the first of a tie is the pick");
        let j = judge(&[0.0, 3.0, -1.0], 2, Some(1.0));
        assert!(!j.matched && j.pick == 1);
        let p = probabilities(&[0.0, 3.0, -1.0], 1.0);
        assert_eq!((j.probability, j.best_probability), (Some(p[2]), Some(p[1])));
        assert!(p[2] < 0.05 && j.bad_move(0.05) == Some(true) && j.bad_move(0.01) == Some(false));
    }
}
