#!/usr/bin/env bash
# The new user's `make test`: the README's test command as it runs on a fresh clone with no
# ../shared beside it. HAIFU_SHARED points at an empty folder and CI is unset for this pass only,
# so every test, bench and Python test that needs the shared data must be ignored or skipped with
# its reason, never panic. The dependencies are the ones the first pass compiled (same target/,
# same profile): only haifu itself is rebuilt, since build.rs sets `haifu_no_shared`.
# Prints the counts of what ran and what was skipped; exits with make test's status.
set -uo pipefail
cd "$(dirname "$0")/.."
empty=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$empty" "$log"' EXIT
start=$(date +%s)
env -u CI -u HAIFU_REQUIRE_SHARED HAIFU_SHARED="$empty" make test 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
echo
echo "== make test without ../shared: exit $status in $(( $(date +%s) - start )) s"
# libtest's summaries, summed over every test binary, and the benches' and pytest's skip lines
awk '/^test result:/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i; if ($(i+1) ~ /^ignored/) g += $i } }
     END { printf "rust tests: %d passed, %d failed, %d ignored\n", p, f, g }' "$log"
echo "ignored, by reason:"
grep -o 'ignored, .*$' "$log" | sed 's/^ignored, //' | sort | uniq -c | sort -rn | sed 's/^/  /'
echo "benches and Python:"
grep -E 'bench: skipped|model: skipped|^python tests:|passed|skipped' "$log" | grep -vE '^test |^test result' | sed 's/^/  /' | tail -20
exit "$status"
