//! Which decisions a command over an ingested dataset uses (`fit`, `eval`, `report`): the kind,
//! table levels and seats, and the seeded game split.

use std::path::PathBuf;

use haifu::eval::dataset::DatasetConfig;
use haifu::fit::split::Split;
use haifu::model::defaults;
use haifu::model::filter::Filter;
use haifu::rank::push_fold::Thresholds;

/// Which decisions to use (shared by fit and eval).
#[derive(clap::Args, Clone, Debug)]
pub struct Select {
    /// Decision kind: discard, riichi or call.
    #[arg(long, default_value = defaults::KIND)]
    pub kind: String,
    /// Table levels to keep, comma-separated (houou, tokujou, joukyuu, ippan); default all.
    #[arg(long, value_delimiter = ',')]
    pub tables: Vec<String>,
    /// Seats to keep: human, ai or all.
    #[arg(long, value_enum, default_value = defaults::SEATS)]
    pub seats: Seats,
    /// The variant: decisions of 4-player or of 3-player (sanma) games. The two are never mixed.
    #[arg(long, default_value_t = defaults::PLAYERS, value_parser = clap::value_parser!(u8).range(3..=4))]
    pub players: u8,
    /// Seed of the game split.
    #[arg(long, default_value_t = defaults::SPLIT_SEED)]
    pub seed: u64,
    /// Fraction of games held out for validation.
    #[arg(long, default_value_t = defaults::VALIDATION)]
    pub validation: f64,
    /// Fraction of games held out for test.
    #[arg(long, default_value_t = defaults::TEST)]
    pub test: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Seats {
    Human,
    Ai,
    All,
}

impl Select {
    /// The decision filter of the fit and scoring passes.
    pub fn filter(&self) -> Filter {
        Filter {
            kind: self.kind.clone(),
            tables: self.tables.clone(),
            ai: match self.seats {
                Seats::Human => Some(false),
                Seats::Ai => Some(true),
                Seats::All => None,
            },
            players: self.players,
        }
    }

    /// The scoring pass over `data` for these decisions (`haifu eval`, `haifu report`).
    pub fn dataset(
        &self,
        data: PathBuf,
        weights: Option<PathBuf>,
        split: Option<Split>,
        push_fold: Option<Thresholds>,
        enabled: [bool; haifu::rank::Evaluator::COUNT],
    ) -> DatasetConfig {
        DatasetConfig {
            data,
            weights: Some(
                weights.unwrap_or_else(|| haifu::model::weights::default_for(self.players, &self.kind)),
            ),
            trees: None,
            filter: self.filter(),
            seed: self.seed,
            validation: self.validation,
            test: self.test,
            split,
            thresholds: push_fold.unwrap_or_default(),
            push_fold: push_fold.is_some(),
            enabled,
            gaps_of: None,
        }
    }
}
