# haifu: the two set-up commands are `make demo` and `make test`.
CARGO ?= cargo
SHARED ?= ../shared
HAIFU = target/release/haifu

.PHONY: demo test python-test build release bench bench-ingest bench-figures bench-bot lint fmt weights sanma-weights sanma-trees selfplay-sanma losses ceiling seed-tables stats-report seed-studies selfplay notebook notebook-deps review-check fuzz trees trees-check danger danger-check

build:
	$(CARGO) build

release:
	$(CARGO) build --release

# The main job on data the project makes itself: self-play, then check, ingest, fit, eval, stats
# (LOGS=path runs it on your own records instead).
demo: build
	@./scripts/demo.sh target/debug/haifu

# Clippy as the compiler of our own crate only (cargo's RUSTC_WORKSPACE_WRAPPER, what `cargo clippy`
# itself uses), so the test build lints every target with -D warnings while the dependencies stay the
# ones `make demo` compiled: one dependency build for demo + test, not three (build, test, check).
CLIPPY_DRIVER ?= $(shell rustup which clippy-driver 2>/dev/null || command -v clippy-driver)
LINTED = RUSTC_WORKSPACE_WRAPPER=$(CLIPPY_DRIVER) CLIPPY_ARGS=-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__

# The whole test suite: unit tests next to the code (golden vectors from $(SHARED)), the CLI and layer
# tests, the benches once in test mode; every target linted by clippy on the way; then rustfmt.
# Then the Python package (python/): built into target/pyvenv in cargo's dev profile, reusing the
# dependencies just compiled and linting the bindings the same way, and its pytest suite run
# against target/debug/haifu (python/test.sh; "skipped: REASON" when PyPI cannot be reached).
test:
	@test -n "$(CLIPPY_DRIVER)" || { echo "make test: clippy-driver not found (rustup component add clippy)"; exit 2; }
	$(LINTED) $(CARGO) test --lib --bins --tests -- --test-threads=2
	$(LINTED) $(CARGO) test --bench shanten --bench check --bench ev --bench ingest --bench trees --bench figures --bench bot
	$(CARGO) fmt --all --check
	$(LINTED) ./python/test.sh

# The Python package's tests alone (after make test or make build has built target/debug/haifu).
python-test:
	$(LINTED) ./python/test.sh

# clippy on its own (a check build: its own copy of the dependencies' metadata).
lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

bench:
	$(CARGO) bench --bench shanten
	$(CARGO) bench --bench check
	$(CARGO) bench --bench ev
	$(CARGO) bench --bench trees

# ingest throughput on real games (games/s, decisions/s, medians): HAIFU_BENCH_GAMES,
# HAIFU_BENCH_RUNS, HAIFU_BENCH_JOBS (defaults 40, 5, 2), HAIFU_BENCH_SKIP (e.g. ev) and
# HAIFU_BENCH_WITH (e.g. ukeire2) as ingest's --skip and --with.
bench-ingest:
	$(CARGO) bench --bench ingest

# What issue 55's figures cost (benches/figures.rs): review with and without the player's summary,
# stats with and without --agreement, on the same games, medians of paired runs and their ratio.
bench-figures:
	$(CARGO) bench --bench figures

# haifu bot's response time per decision, p50 / p99 per player, on real streams (benches/bot.rs):
# HAIFU_BENCH_GAMES (default 10), HAIFU_BENCH_PLAYERS (default all).
bench-bot:
	$(CARGO) bench --bench bot

fmt:
	$(CARGO) fmt

# Regenerates data/weights/default.json from the shared corpus: every human discard at houou and
# tokujou tables (no cap: decisions beyond the fit's memory budget stream from a cache file), seeded game split, weights gated by shanten, riichi, hand value and turn; then
# the separate riichi (declare or stay dama) and call (chi / pon / kan or pass) models beside it
# (softmax, as they were fitted: with two options, the riichi model's case, softmax and the
# pairwise logistic are the same loss).
# Same data and seed give the same files. The ingest writes out/corpus as parts and resumes: an
# interrupted `make weights` keeps the finished parts (a changed corpus: rm -rf out/corpus first).
# The discard loss is pairwise (issue 38): the pairwise logistic, each decision's n - 1 pairs
# weighted 1/(n-1); on the held-out houou discards it puts the human's pick first 67.6% of the time
# (softmax on the same columns: see reports/losses/losses.md). L2 1e-4 alone: on make losses'
# sample 1e-4, 1e-5 and 1e-6 gave the same validation top-1, so a grid would only double the time.
# LINEAR_DROP: the families a default ingest holds for the trees (danger, seats, reading) that the
# shipped linear models were fitted without: on them they gained nothing on held-out games
# (reports/danger). With it the fits reproduce data/weights/*.json: every shipped weight to the
# bit (checked 2026-12-03 for default.json and riichi.json), the newer act_kita columns at 0.
LINEAR_DROP = --drop danger_,al_,sr_,furiten_risk_,read_
weights: release
	./scripts/ingest_corpus.sh $(SHARED) out/corpus
	target/release/haifu fit --data out/corpus --kind discard --tables houou,tokujou --seats human \
		--seed 1 --loss logistic --pairs per-decision --l2 0.0001 --max-iters 150 \
		--interact shanten --interact riichi --interact value --interact turn $(LINEAR_DROP) \
		--out data/weights/default.json
	target/release/haifu fit --data out/corpus --kind riichi --tables houou,tokujou --seats human \
		--seed 1 --loss softmax --l2 0.0001,0.001,0.01 --max-iters 150 $(LINEAR_DROP) \
		--out data/weights/riichi.json
	target/release/haifu fit --data out/corpus --kind call --tables houou,tokujou --seats human \
		--seed 1 --loss softmax --l2 0.0001,0.001,0.01 --max-iters 150 $(LINEAR_DROP) \
		--out data/weights/call.json
	$(MAKE) sanma-weights

# The three-player (sanma) models, on the Houou sanma games of SHARED/data/tenhou/sanma (279 games,
# about 98,000 decisions; a minute of ingest and four fits): the discard model gated by shanten,
# riichi and turn (no value gate: 電脳麻将's ev is a four-player search, unset at three players),
# and the riichi, call and kita (set a north aside or keep it) models; then the agreement of the
# evaluators with the human picks on the test split, reports/sanma/. HAIFU: the binary. The
# ingest leaves out the danger and seats groups: the sanma models were fitted without them (the
# danger models are four-player ones).
HAIFU ?= target/release/haifu
SANMA_FIT = --players 3 --seats human --seed 1 --l2 0.0001,0.001,0.01 --max-iters 150
sanma-weights:
	$(HAIFU) ingest $(SHARED)/data/tenhou/sanma --out out/sanma --resume --skip danger,seats
	$(HAIFU) fit --data out/sanma --kind discard $(SANMA_FIT) --loss logistic --pairs per-decision \
		--interact shanten --interact riichi --interact turn --out data/weights/sanma.json
	$(HAIFU) fit --data out/sanma --kind riichi $(SANMA_FIT) --loss softmax --out data/weights/sanma-riichi.json
	$(HAIFU) fit --data out/sanma --kind call $(SANMA_FIT) --loss softmax --out data/weights/sanma-call.json
	$(HAIFU) fit --data out/sanma --kind kita $(SANMA_FIT) --loss softmax --out data/weights/sanma-kita.json
	$(HAIFU) report --data out/sanma --players 3 --weights data/weights/sanma.json --out reports/sanma
	for k in riichi call; do $(HAIFU) eval --data out/sanma --players 3 --kind $$k --split test \
		--weights data/weights/sanma-$$k.json --evaluator linear --evaluator trees --json \
		> reports/sanma/$$k-eval.json || exit 1; done
	$(HAIFU) eval --data out/sanma --players 3 --kind kita --split test \
		--weights data/weights/sanma-kita.json --evaluator linear --json > reports/sanma/kita-eval.json

# The ranking losses side by side (softmax; pairwise logistic, raw pair sums, per-decision
# 1/(n-1) and LambdaRank-style ranked pairs; the seed's hinge at margin 0 with shanten pinned; per-decision hinge at margin 1 and at a
# tuned margin) on make weights' data, filter, split and gates, the same 600,000-decision sample of
# games for each (LOSS_DECISIONS; 3-8 min per fit on 2 cores): reports/losses/losses.md. The
# default's row on every decision is make weights' own fit (data/weights/default.json).
LOSS_DECISIONS ?= 600000
losses: release
	./scripts/ingest_corpus.sh $(SHARED) out/corpus
	./scripts/losses.sh out/corpus reports/losses --kind discard --tables houou,tokujou --seats human \
		--seed 1 --l2 0.0001 --max-iters 150 --max-decisions $(LOSS_DECISIONS) \
		--interact shanten --interact riichi --interact value --interact turn $(LINEAR_DROP)

# The ceiling of these features: LightGBM lambdarank (gradient-boosted trees, a pairwise
# objective) on the same columns, filter, split and LOSS_DECISIONS sample as make losses, trained
# on CEILING_TRAIN of its training decisions; a row of reports/losses/losses.md. Python packages
# in $(VENV) (scripts/ceiling-requirements.txt), never in the repo.
CEILING_TRAIN ?= 100000
VENV ?= .venv
$(VENV)/.ceiling: scripts/ceiling-requirements.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r scripts/ceiling-requirements.txt
	touch $@

ceiling: $(VENV)/.ceiling
	$(VENV)/bin/python scripts/ceiling.py out/corpus reports/losses/ceiling.json \
		--max-decisions $(LOSS_DECISIONS) --train-decisions $(CEILING_TRAIN)
	python3 scripts/loss_table.py --into reports/losses/losses.md reports/losses/*.json

# Gradient-boosted trees on every training decision of make weights' filter and split (issue 53):
# LightGBM lambdarank over the option columns plus the context, relative, margin and table
# families (src/model/trees/inputs.rs), early-stopped on the validation split, written gzipped to
# data/weights/trees.txt.gz (`--evaluator trees`). The parts are cached once as float32 chunks
# under out/trees-cache (about 35 GB of disk) and fed to LightGBM a chunk at a time.
# TREES_ARGS: scripts/trees.py options for the discard model. The shipped one is trained on every
# training decision with trees at most 8 deep and at most 800 rounds, without the reading family (it
# did not help on the validation split) and with the danger and seats groups a default ingest holds,
# and keeps the most rounds whose gzipped file fits the 2 MB the repository holds (643); see
# reports/losses/losses.md for its cost (1 h 32 min on 2 cores, 13.5 GiB at its peak). TREES_ARGS="--fraction 0.5 --rounds 370" is the half-data run (30 min,
# 6 GB). Then the riichi model (the families it was shipped with: the new ones did not beat it on
# validation) and the call model on every training decision of riichi.json's and call.json's filter
# and split (data/weights/trees-riichi.txt.gz, trees-call.txt.gz: 30 s and 3-9 min), and each
# model's softmax temperature on its validation split (haifu calibrate --trees:
# trees*.calibration.json).
TREES_ARGS ?= --fraction 1 --max-depth 8 --rounds 800 --without reading --max-bytes 2000000
trees: release $(VENV)/.ceiling
	./scripts/ingest_corpus.sh $(SHARED) out/corpus
	$(VENV)/bin/python scripts/trees.py out/corpus --out data/weights/trees.txt.gz \
		--report reports/losses/trees.json $(TREES_ARGS)
	$(VENV)/bin/python scripts/trees.py out/corpus --kind riichi --out data/weights/trees-riichi.txt.gz \
		--families options,context,relative --without reading,danger,seats --threads 1 \
		--report reports/losses/trees-riichi.json
	$(VENV)/bin/python scripts/trees.py out/corpus --kind call --out data/weights/trees-call.txt.gz \
		--without danger,seats --report reports/losses/trees-call.json
	target/release/haifu calibrate --data out/corpus --trees
	target/release/haifu calibrate --data out/corpus --weights data/weights/riichi.json --trees
	target/release/haifu calibrate --data out/corpus --weights data/weights/call.json --trees
	target/release/haifu eval --data out/corpus --evaluator linear --evaluator trees --split test \
		--tables houou --json > reports/losses/trees-eval.json
	$(MAKE) sanma-trees

# The three-player trees (on make sanma-weights' out/sanma, its filter and split), each shipped
# because it beats its linear model on the validation split (top-1: discards 70.5% against 68.4%,
# riichi 77.7% against 73.9%, calls 90.3% against 88.0%); about 3 min.
sanma-trees: $(VENV)/.ceiling
	$(VENV)/bin/python scripts/trees.py out/sanma --players 3 --tables houou --threads 1 \
		--out data/weights/trees-sanma.txt.gz --report reports/sanma/trees.json
	for k in riichi call; do $(VENV)/bin/python scripts/trees.py out/sanma --players 3 --tables houou \
		--kind $$k --families options,context,relative --without reading --threads 1 \
		--out data/weights/trees-sanma-$$k.txt.gz --report reports/sanma/trees-$$k.json || exit 1; done

# The danger models (issue 69, src/features/danger.rs): each opponent's P(tenpai), each kind's
# P(deal-in) and the points of that deal-in, LightGBM fitted on the opponents' real waits
# (replay::waits) from the public view (features::danger_inputs), on the complete 4-player shared
# games (train and validation games sampled by DANGER_FRACTION, every test game kept): written to
# data/weights/danger-*.txt.gz; the comparison with safety_*_danger_est, 電脳麻将's weixian
# (majiang-ai's own values: node and npm needed) and the genbutsu / suji / kabe classes on the
# houou test split: reports/danger/. Then danger-check: haifu's served values of the test games'
# rows against LightGBM's predict of the shipped files.
DANGER_FRACTION ?= 0.15
danger: $(VENV)/.ceiling
	./scripts/danger.sh $(SHARED) out/danger data/weights reports/danger $(DANGER_FRACTION) $(VENV)/bin/python
	$(MAKE) danger-check

danger-check: $(VENV)/.ceiling
	$(CARGO) run --release --example danger_rows -- out/danger-check --train-fraction 0 --models data/weights \
		$(wordlist 1,200,$(sort $(wildcard $(SHARED)/data/tenhou/20*.mjlog)))
	$(VENV)/bin/python scripts/danger_check.py out/danger-check data/weights

# LightGBM as the outside referee of haifu's trees on real rows (scripts/trees_check.sh): the
# shipped discard model's scores of every option of the decisions among out/corpus's first 100,000
# option rows, to 1e-9, and its TreeSHAP contributions on the first 10,000, to 1e-6. haifu builds
# the rows as --evaluator trees does, LightGBM gets them from make trees' training code.
trees-check: release $(VENV)/.ceiling
	./scripts/ingest_corpus.sh $(SHARED) out/corpus
	./scripts/trees_check.sh out/corpus data/weights/trees.txt.gz 100000 10000

# reports/seed_tables.md's table and plot: the seed's own features fitted with the seed's loss
# and with the pairwise logistic, each level's points beside the seed's (one shanten step =
# 10,000). SEED_DATA must hold the levels columns: an ingest by this haifu (out/corpus written
# before the levels family lacks them: rm -rf it first, or point SEED_DATA at a fresh ingest).
SEED_DATA ?= out/corpus
seed-tables: release
	./scripts/seed_tables.sh $(SEED_DATA) reports/seed_tables

# Seed 000's duplicate self-play table (issue 39): majiang-0400 / 0401 / 0402 (改善前 / 改善(1) /
# 改善(2)) each in SELFPLAY_GAMES duplicate hanchan against three majiang-0400, beside the seed's
# figures: reports/selfplay/README.md (+ the hand-written reports/selfplay/notes.md). The records
# go to out/selfplay. About 10-15 min on 2 cores for 3 x 1000 games.
SELFPLAY_GAMES ?= 1000
selfplay: release
	$(CARGO) run --release --example selfplay_table -- $(SELFPLAY_GAMES) 1 out/selfplay reports/selfplay/README.md

# The three-player self-play table: 600 duplicate sanma hanchan (200 wall sets, each played 3 times,
# bots rotated) of the linear bot (data/weights/sanma.json), the max-ukeire bot and the random
# baseline on Tenhou's three-player rules, every record re-checked by haifu check:
# reports/selfplay/sanma.md. About a minute.
selfplay-sanma:
	$(HAIFU) simulate --players 3 --games 600 --bots linear,ukeire,random --duplicate --seed 1 \
		--out out/selfplay-sanma > /dev/null
	{ echo "# Three-player self-play"; echo; \
	  echo "Generated by \`make selfplay-sanma\`. Every record re-checked (\`haifu check out/selfplay-sanma\`):"; \
	  echo; echo '```'; $(HAIFU) check out/selfplay-sanma; echo '```'; echo; \
	  tail -n +3 out/selfplay-sanma/summary.md; } > reports/selfplay/sanma.md

# Player and table statistics, the kabe / early-outside / push-fold / early-5 studies and the
# cross-check against kobalab's 2016 houou figures, over the shared corpus: reports/stats/README.md
# (+ plots; the parquet / CSV tables and counts stay uncommitted). About 5 s on 2 cores.
stats-report: release
	./scripts/stats_corpus.sh $(SHARED) reports/stats

# Seeds 003 and 004 rebuilt (issue 40): the wait studies with the seeds' definitions over the shared
# corpus, over SEED_SIM_GAMES hanchan of the seed bot (boten) and over SEED_PAIRS paired walls; the
# yaku evaluators' held-out houou top-1 on SEED_CORPUS (an ingest of the whole shared corpus at
# today's columns, as make weights writes it): reports/seed_studies.md. About 3 min on 2 cores.
SEED_SIM_GAMES ?= 6000
SEED_PAIRS ?= 20000
SEED_CORPUS ?= out/corpus
seed-studies: release
	rm -rf out/seed-sim
	$(HAIFU) simulate --games $(SEED_SIM_GAMES) --bots boten --seed 40 --out out/seed-sim > /dev/null
	$(HAIFU) eval --data $(SEED_CORPUS) --evaluator yaku --evaluator yaku-seed --evaluator ukeire \
		--tables houou --seats human --seed 1 --split test --json > out/seed_yaku.json
	$(HAIFU) stats $(SHARED)/data/tenhou/*.mjlog $(SHARED)/data/tenhou/*.mjlog.gz $(SHARED)/data/tenhou/*.t6.json \
		--seed-studies --seed-sim out/seed-sim --seed-pairs $(SEED_PAIRS) --seed-yaku out/seed_yaku.json \
		--out reports/seed_studies.md

# The exploration notebook (notebooks/explore.ipynb), executed headless on 20 shared files: the
# haifu package (built into .venv in cargo's dev profile, linted as make test builds it, so the
# artifacts make test compiled are reused) ingests, fits and evaluates; `haifu stats` writes the
# study it plots. LOGS=path (files or folders, space-separated) to run on something else.
VENV ?= .venv
NB_OUT ?= out/notebook
LOGS ?= $(wordlist 1,20,$(sort $(wildcard $(SHARED)/data/tenhou/20*.mjlog)))

$(VENV)/.installed: notebooks/requirements.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r notebooks/requirements.txt
	touch $@

notebook-deps: $(VENV)/.installed

notebook: build notebook-deps
	@test -n "$(LOGS)" || { echo "notebook: no logs (set LOGS=path or SHARED=...)"; exit 1; }
	rm -rf $(NB_OUT) && mkdir -p $(NB_OUT)
	$(LINTED) MATURIN_PEP517_ARGS="--profile dev" PATH="$(CURDIR)/$(VENV)/bin:$$PATH" $(VENV)/bin/pip install \
		--quiet --disable-pip-version-check --no-build-isolation --no-deps --force-reinstall ./python
	target/debug/haifu stats $(LOGS) --out $(NB_OUT)/stats
	HAIFU_LOGS="$(abspath $(LOGS))" HAIFU_STATS=$(CURDIR)/$(NB_OUT)/stats HAIFU_NB_OUT=$(CURDIR)/$(NB_OUT) \
		$(VENV)/bin/jupyter nbconvert --to notebook --execute notebooks/explore.ipynb \
		--ExecutePreprocessor.timeout=600 --output-dir $(NB_OUT) --output explore.executed.ipynb
	@echo "notebook: executed -> $(NB_OUT)/explore.executed.ipynb, plot $(NB_OUT)/kabe_from_notebook.png"

# The review page of a real houou game, as a person sees it: `haifu review` writes the page and its
# JSON, headless Chromium renders it (DOM dump with the filter's JS run, and a screenshot), and
# scripts/review_check.py checks the decision blocks against the mjlog record itself. Then
# scripts/review_filter_check.py loads the page in Chromium with no hash, #only-disagreements and
# #bad-moves and checks which blocks are displayed and the summary block against the JSON, and
# checks the player's summary page (`haifu review --player --summary`) over REVIEW_SUMMARY_GAMES
# (default: REVIEW_GAME alone). REVIEW_WEIGHTS: calibrated weights give bad moves to check. The
# filter is checked again on the page of `--trees`, where the calibrated trees models judge.
REVIEW_GAME ?= $(SHARED)/data/tenhou/2010091009gm-00a9-0000-83af2648.mjlog
REVIEW_SEAT ?= 0
REVIEW_OUT ?= out/review-check
REVIEW_WEIGHTS ?= data/weights/default.json
REVIEW_SUMMARY_GAMES ?= $(REVIEW_GAME)
CHROMIUM ?= $(shell command -v chromium || command -v chromium-browser || command -v google-chrome)
CHROME_FLAGS = --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run
BIN_DIR = $(or $(CARGO_TARGET_DIR),target)/debug

review-check: build
	@test -n "$(CHROMIUM)" || { echo "review-check: chromium not found (apt-get install chromium)"; exit 2; }
	@test -f "$(REVIEW_GAME)" || { echo "review-check: $(REVIEW_GAME) not found (set SHARED or REVIEW_GAME)"; exit 2; }
	mkdir -p $(REVIEW_OUT)
	$(BIN_DIR)/haifu review $(REVIEW_GAME) --seat $(REVIEW_SEAT) --weights $(REVIEW_WEIGHTS) --out $(REVIEW_OUT)/page.html --json $(REVIEW_OUT)/page.json
	$(CHROMIUM) $(CHROME_FLAGS) --dump-dom "file://$(abspath $(REVIEW_OUT))/page.html#only-disagreements" > $(REVIEW_OUT)/dom.html 2>$(REVIEW_OUT)/chromium.log
	$(CHROMIUM) $(CHROME_FLAGS) --window-size=1200,2600 --screenshot=$(abspath $(REVIEW_OUT))/page.png "file://$(abspath $(REVIEW_OUT))/page.html" 2>>$(REVIEW_OUT)/chromium.log
	python3 scripts/review_check.py $(REVIEW_GAME) $(REVIEW_SEAT) $(REVIEW_OUT)/dom.html $(REVIEW_OUT)/page.json
	python3 scripts/review_filter_check.py harness $(REVIEW_OUT) $(REVIEW_OUT)/page.html
	for h in all only-disagreements bad-moves; do \
		$(CHROMIUM) $(CHROME_FLAGS) --allow-file-access-from-files --virtual-time-budget=10000 --dump-dom \
			"file://$(abspath $(REVIEW_OUT))/filter-$$h.html" > $(REVIEW_OUT)/filter-$$h.dom.html 2>>$(REVIEW_OUT)/chromium.log || exit 1; \
	done
	$(CHROMIUM) $(CHROME_FLAGS) --window-size=1200,2600 --screenshot=$(abspath $(REVIEW_OUT))/page-bad-moves.png "file://$(abspath $(REVIEW_OUT))/page.html#bad-moves" 2>>$(REVIEW_OUT)/chromium.log
	python3 scripts/review_filter_check.py filter $(REVIEW_OUT) $(REVIEW_OUT)/page.json
	mkdir -p $(REVIEW_OUT)/trees
	$(BIN_DIR)/haifu review $(REVIEW_GAME) --seat $(REVIEW_SEAT) --weights $(REVIEW_WEIGHTS) --trees \
		--out $(REVIEW_OUT)/trees/page.html --json $(REVIEW_OUT)/trees/page.json
	python3 scripts/review_filter_check.py harness $(REVIEW_OUT)/trees $(REVIEW_OUT)/trees/page.html
	for h in all only-disagreements bad-moves; do \
		$(CHROMIUM) $(CHROME_FLAGS) --allow-file-access-from-files --virtual-time-budget=10000 --dump-dom \
			"file://$(abspath $(REVIEW_OUT))/trees/filter-$$h.html" > $(REVIEW_OUT)/trees/filter-$$h.dom.html 2>>$(REVIEW_OUT)/chromium.log || exit 1; \
	done
	python3 scripts/review_filter_check.py filter $(REVIEW_OUT)/trees $(REVIEW_OUT)/trees/page.json
	$(CHROMIUM) $(CHROME_FLAGS) --window-size=1200,2600 --screenshot=$(abspath $(REVIEW_OUT))/page-trees.png "file://$(abspath $(REVIEW_OUT))/trees/page.html" 2>>$(REVIEW_OUT)/chromium.log
	player=$$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['player'])" $(REVIEW_OUT)/page.json) && \
		$(BIN_DIR)/haifu review $(REVIEW_SUMMARY_GAMES) --player "$$player" --weights $(REVIEW_WEIGHTS) --summary $(REVIEW_OUT)/summary
	$(CHROMIUM) $(CHROME_FLAGS) --dump-dom "file://$(abspath $(REVIEW_OUT))/summary/index.html" > $(REVIEW_OUT)/summary.dom.html 2>>$(REVIEW_OUT)/chromium.log
	$(CHROMIUM) $(CHROME_FLAGS) --window-size=1200,1600 --screenshot=$(abspath $(REVIEW_OUT))/summary.png "file://$(abspath $(REVIEW_OUT))/summary/index.html" 2>>$(REVIEW_OUT)/chromium.log
	python3 scripts/review_filter_check.py summary $(REVIEW_OUT)/summary.dom.html $(REVIEW_OUT)/summary
	@echo "review-check: screenshots $(REVIEW_OUT)/page.png, page-bad-moves.png, page-trees.png, summary.png"

# Fuzzing (nightly + cargo-fuzz): FUZZ_TARGET (replay_game: parse + replay + re-score + ingest rows;
# parse_game: the readers, format sniffed; mjlog, tenhou6, mjai: one reader each; phoenix_row: a
# phoenix-logs row's log_content) for FUZZ_TIME seconds, seeded from fuzz/seeds and $(SHARED) on
# the first run (fuzz/seed.sh).
FUZZ_TARGET ?= replay_game
FUZZ_TIME ?= 600
fuzz:
	@command -v cargo-fuzz >/dev/null || { echo "make fuzz: cargo install cargo-fuzz (and rustup toolchain install nightly)"; exit 2; }
	@test -n "$$(ls fuzz/corpus/$(FUZZ_TARGET) 2>/dev/null)" || ./fuzz/seed.sh $(SHARED)
	cd fuzz && $(CARGO) +nightly fuzz run $(FUZZ_TARGET) corpus/$(FUZZ_TARGET) -- \
		-max_total_time=$(FUZZ_TIME) -max_len=65536 -timeout=30 -rss_limit_mb=4096 -print_final_stats=1
