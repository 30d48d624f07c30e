#!/usr/bin/env bash
# make demo: a guided walk through what haifu does today, on hands written here (no outside data).
set -euo pipefail
HAIFU=${1:-target/debug/haifu}
say() { printf '\n== %s\n' "$*"; }
say "Shanten of a hand in every form (standard, chiitoitsu, kokushi)"
echo "\$ haifu shanten 19m19p19s1234567z"; "$HAIFU" shanten 19m19p19s1234567z
say "A hand with melds: concealed part first, then each meld as a group"
echo "\$ haifu shanten '2367m34p11z 555z 789s' --json"; "$HAIFU" shanten '2367m34p11z 555z 789s' --json
say "What to discard (nanikiru) with the max-ukeire evaluator; dora indicator 4p makes 5p dora"
echo "\$ haifu nanikiru 1234678m056p3s114z --dora 4p"; "$HAIFU" nanikiru 1234678m056p3s114z --dora 4p
say "The same as JSON"
echo "\$ haifu nanikiru 1234678m056p3s114z --dora 4p --json"; "$HAIFU" nanikiru 1234678m056p3s114z --dora 4p --json
say "Done: haifu ranked every discard by shanten, then unseen effective tiles, then the guest-wind..dora order."
