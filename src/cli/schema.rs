//! `haifu schema`: the option columns and their storage types as markdown.

use std::process::ExitCode;

use anyhow::Result;

/// Print the option feature columns (name, family, meaning) and their storage types as markdown.
#[derive(clap::Args)]
pub struct SchemaArgs {}

/// Prints the catalog's columns (name, family, meaning), then the storage type of each.
pub fn run(_args: SchemaArgs) -> Result<ExitCode> {
    print!("{}", haifu::dataset::rows::features_markdown());
    print!(
        "\nStorage types of the option columns (first match wins):\n\n{}",
        haifu::dataset::storage::markdown()
    );
    Ok(ExitCode::SUCCESS)
}
