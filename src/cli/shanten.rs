//! `haifu shanten`: the shanten of one hand, overall and by form.

use std::process::ExitCode;

use anyhow::Result;
use haifu::eval::nanikiru::parse_hand;

use super::usage;

/// Shanten of a hand: the minimum and each form (standard, chiitoitsu, kokushi).
///
/// HAND is mpsz notation (`123m456p789s1122z`, `0` = red five, 1z-7z = E S W N white green red)
/// with 13 or 14 concealed tiles, or fewer when melds follow. Each meld is its own group after a
/// space or comma: three equal tiles = pon, three in a row = chi, four equal = open kan,
/// `(1111m)` = closed kan. Example: `haifu shanten "2367m34p11z 555z 789s"`.
///
/// Majiang notation, as 電脳麻将 and kobalab's tools write it, works too (a leading suit
/// letter tells it apart): `m34567p2388s5779p1`, `p456788s3477p0,p222=` (melds after commas,
/// the called tile marked + / = / - by where it came from; `z1111` a closed kan).
#[derive(clap::Args)]
pub struct ShantenArgs {
    /// The hand, e.g. "123m456p789s1122z" or "2367m34p11z 555z 789s".
    hand: String,
    /// Print JSON: {"shanten":s,"standard":a,"chiitoitsu":b,"kokushi":c} (null = form not possible).
    #[arg(long)]
    json: bool,
}

/// Parses the hand (a bad hand is a usage error) and prints its shanten by form, as text or JSON.
pub fn run(args: ShantenArgs) -> Result<ExitCode> {
    let hand = parse_hand(&args.hand).map_err(|e| usage(e.to_string()))?;
    let s = hand.shanten();
    if args.json {
        println!("{}", serde_json::to_string(&s)?);
    } else {
        let form = |v: Option<i8>| v.map_or("-".to_string(), |v| v.to_string());
        println!("hand        {hand}");
        println!("shanten     {}", s.shanten);
        println!("standard    {}", s.standard);
        println!("chiitoitsu  {}", form(s.chiitoitsu));
        println!("kokushi     {}", form(s.kokushi));
    }
    Ok(ExitCode::SUCCESS)
}
