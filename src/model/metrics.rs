//! Agreement of a scorer with recorded choices: top-1, top-3 and mean rank, ties shared fairly.
//! Stored in weights files and computed by the fit, eval and report stages alike.

/// Two scores closer than this are a tie (the fit, eval and report count ties alike): the one
/// epsilon of [`crate::rank::TIE_EPS`].
pub use crate::rank::TIE_EPS;

/// Agreement of a linear scorer with the recorded choices.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Agreement {
    pub decisions: u64,
    /// Probability the chosen option is ranked first, ties broken at random.
    pub top1: f64,
    pub top3: f64,
    /// Mean rank of the chosen option (1 = first), ties counted at their middle.
    pub mean_rank: f64,
}

/// Accumulates agreement from per-decision counts of options scored above / equal to the chosen.
#[derive(Clone, Copy, Debug, Default)]
pub struct AgreementSum {
    n: u64,
    top1: f64,
    top3: f64,
    rank: f64,
}

impl AgreementSum {
    /// Adds one decision where `better` options score above the chosen one and `ties` equal it.
    pub fn add(&mut self, better: usize, ties: usize) {
        let p_top = |k: usize| -> f64 {
            if better >= k {
                0.0
            } else {
                ((k - better) as f64 / (ties + 1) as f64).min(1.0)
            }
        };
        self.n += 1;
        self.top1 += p_top(1);
        self.top3 += p_top(3);
        self.rank += better as f64 + 1.0 + ties as f64 / 2.0;
    }

    pub fn merge(mut self, o: AgreementSum) -> AgreementSum {
        self.n += o.n;
        self.top1 += o.top1;
        self.top3 += o.top3;
        self.rank += o.rank;
        self
    }

    pub fn finish(&self) -> Agreement {
        let n = self.n.max(1) as f64;
        Agreement { decisions: self.n, top1: self.top1 / n, top3: self.top3 / n, mean_rank: self.rank / n }
    }
}
