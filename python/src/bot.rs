//! `haifu.Bot`: one seat of an mjai table, as `haifu bot` plays it (the library's
//! [`haifu::bot::MjaiBot`]), with `react(line) -> str | None` as Mortal's `libriichi.mjai.Bot`.

use pyo3::prelude::*;

use haifu::bot::{Answer, MjaiBot};
use haifu::sim::bots::{parse_bot_with, EvalBot};

use crate::errors::input;

/// One of haifu's players at an mjai table.
#[pyclass(module = "haifu._haifu")]
pub struct Bot {
    bot: MjaiBot<EvalBot>,
    /// The last line's error, when it could not be followed (its answer was the fallback).
    last_error: Option<String>,
}

#[pymethods]
impl Bot {
    #[new]
    #[pyo3(signature = (seat, player, weights, tonpuu))]
    fn new(seat: u8, player: &str, weights: Option<std::path::PathBuf>, tonpuu: bool) -> PyResult<Bot> {
        if seat > 3 {
            return Err(input(format!("seat {seat} (seats are 0-3)")));
        }
        let player = parse_bot_with(player, weights.as_deref()).map_err(input)?;
        let mut bot = MjaiBot::new(seat, player);
        if tonpuu {
            bot = bot.with_length(false);
        }
        Ok(Bot { bot, last_error: None })
    }

    /// The answer to one line (an event or a JSON array of events): the action's JSON, or
    /// `None` when the line gives the seat no choice.
    fn react(&mut self, py: Python<'_>, line: &str) -> Option<String> {
        let result = py.detach(|| self.bot.react(line));
        let answer = match result {
            Ok(a) => {
                self.last_error = None;
                a
            }
            Err((e, fallback)) => {
                self.last_error = Some(e.to_string());
                fallback
            }
        };
        (answer != Answer::None).then(|| self.bot.json(&answer))
    }

    /// The seat the bot plays (start_game's `id` sets it).
    #[getter]
    fn seat(&self) -> u8 {
        self.bot.seat
    }

    /// Why the last line could not be followed (its answer was a legal fallback), else None.
    #[getter]
    fn last_error(&self) -> Option<String> {
        self.last_error.clone()
    }
}
