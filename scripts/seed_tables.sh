#!/bin/sh
# The fits behind reports/seed_tables.md (`make seed-tables`): the seed's own features (shanten_min,
# ukeire_count, tile energy, dora, red fives, yakuhai, the levels family, menzen), no gates, fitted
# once with the seed's loss (hinge at margin 0, raw pair sums, shanten pinned) and once with the
# pairwise default (logistic, per-decision pairs); then every level's fitted points beside the
# seed's, one shanten step = 10,000 (examples/seed_tables.rs writes the table and the plot).
#   scripts/seed_tables.sh DATA OUTDIR [extra haifu fit arguments...]
# DATA must hold the levels columns (an ingest by a haifu with the levels family).
set -eu
DATA=$1
OUT=$2
shift 2
HAIFU=${HAIFU:-target/release/haifu}
KEEP=shanten_min,ukeire_count,energy_,dora_,red_fives,yakuhai_,lv_,menzen
mkdir -p "$OUT"
fit() {
    name=$1
    shift
    echo "== $name"
    "$HAIFU" fit --data "$DATA" --out "$OUT/$name.json" --kind discard --tables houou,tokujou --seats human \
        --seed 1 --keep "$KEEP" "$@"
}
fit seed_loss --loss seed --l2 0.0001 "$@"
fit seed_pairwise --loss logistic --pairs per-decision --l2 0.0001 "$@"
${SEED_TABLES:-cargo run --release --quiet --example seed_tables --} "$OUT" \
    "seed's loss=$OUT/seed_loss.json" "pairwise default=$OUT/seed_pairwise.json"
cat "$OUT/seed_tables.table.md"
