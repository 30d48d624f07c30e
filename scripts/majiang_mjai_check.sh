#!/bin/sh
# Self-test of the mjai adapter of 電脳麻将 (scripts/majiang_mjai.sh): plays seeded games of four
# @kobalab/majiang-ai 1.0.13 players in majiang-core 1.4.1's Majiang.Game (default rules,
# 東南戦, the games scripts/majiang_paipu.sh would write for the same seed), recording every
# reply each player gives; writes each game as mjai, cuts it into each seat's stream as a server
# sends it (other seats' draws and start hands "?"), feeds every stream line by line to a fresh
# `scripts/majiang_mjai.sh --seat S` and compares each answer with the reply the same player gave
# in the game. See scripts/majiang_mjai_check.js for the details.
#   scripts/majiang_mjai_check.sh [GAMES] [SEED]       (defaults 20 games, seed 1)
#       prints decisions compared, equal, different by kind, lines the adapter failed on, and the
#       answer times; exit status 0 when every answer agreed. 20 to 40 s of one core per game
#       (the game, then the four adapters replaying it). Run it under `nice` next to a build.
#   MAJIANG_MJAI_KEEP=DIR scripts/majiang_mjai_check.sh ...
#       also keeps each seat's stream and its decisions (expected, got, time) in DIR.
#   MAJIANG_MJAI_CMD='node /path/adapter.js' scripts/majiang_mjai_check.sh ...
#       tests another adapter command (given --seat S).
# The npm packages come from scripts/majiang_mjai.sh's cache (installed on first use).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
modules=$("$here/majiang_mjai.sh" --install)
NODE_PATH="$modules" exec node "$here/majiang_mjai_check.js" "$@"
