# haifu: the two set-up commands are `make demo` and `make test`.
CARGO ?= cargo
SHARED ?= ../shared
HAIFU = target/release/haifu

.PHONY: demo test build release bench lint fmt weights notebook notebook-deps

# Top-level records of the shared corpus (complete 4-player games; partial/ and sanma/ left out).
CORPUS = $(wildcard $(SHARED)/data/tenhou/*.mjlog) $(wildcard $(SHARED)/data/tenhou/*.mjlog.gz) $(wildcard $(SHARED)/data/tenhou/*.t6.json)

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
test:
	@test -n "$(CLIPPY_DRIVER)" || { echo "make test: clippy-driver not found (rustup component add clippy)"; exit 2; }
	$(LINTED) $(CARGO) test --lib --bins --tests -- --test-threads=2
	$(LINTED) $(CARGO) test --bench shanten --bench check --bench ev
	$(CARGO) fmt --check

# clippy on its own (a check build: its own copy of the dependencies' metadata).
lint:
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings

bench:
	$(CARGO) bench --bench shanten
	$(CARGO) bench --bench check
	$(CARGO) bench --bench ev

fmt:
	$(CARGO) fmt

# Regenerates data/weights/default.json from the shared corpus: human discards at houou and
# tokujou tables, seeded game split, weights gated by shanten, riichi, hand value and turn; then
# the separate riichi (declare or stay dama) and call (chi / pon / kan or pass) models beside it.
# Same data and seed give the same files. The ingest writes out/corpus as parts and resumes: an
# interrupted `make weights` keeps the finished parts (a changed corpus: rm -rf out/corpus first).
weights: release
	target/release/haifu ingest $(CORPUS) --out out/corpus --resume
	target/release/haifu fit --data out/corpus --kind discard --tables houou,tokujou --seats human \
		--seed 1 --l2 0.0001,0.001 --max-iters 150 --max-decisions 600000 \
		--interact shanten --interact riichi --interact value --interact turn \
		--out data/weights/default.json
	target/release/haifu fit --data out/corpus --kind riichi --tables houou,tokujou --seats human \
		--seed 1 --l2 0.0001,0.001,0.01 --max-iters 150 --out data/weights/riichi.json
	target/release/haifu fit --data out/corpus --kind call --tables houou,tokujou --seats human \
		--seed 1 --l2 0.0001,0.001,0.01 --max-iters 150 --max-decisions 600000 --out data/weights/call.json

# The exploration notebook (notebooks/explore.ipynb), executed headless on a few shared files:
# `haifu ingest` and `haifu stats` write parquet into out/notebook, polars reads it back.
# LOGS=path (files or folders) to run on something else.
VENV ?= .venv
NB_OUT ?= out/notebook
LOGS ?= $(wordlist 1,5,$(sort $(wildcard $(SHARED)/data/tenhou/20*.mjlog)))

$(VENV)/.installed: notebooks/requirements.txt
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r notebooks/requirements.txt
	touch $@

notebook-deps: $(VENV)/.installed

notebook: build notebook-deps
	@test -n "$(LOGS)" || { echo "notebook: no logs (set LOGS=path or SHARED=...)"; exit 1; }
	rm -rf $(NB_OUT) && mkdir -p $(NB_OUT)
	target/debug/haifu ingest $(LOGS) --out $(NB_OUT)/ingest || echo "notebook: ingest reported failed files (a folder with sanma games does); going on"
	target/debug/haifu stats $(LOGS) --out $(NB_OUT)/stats
	HAIFU_INGEST=$(CURDIR)/$(NB_OUT)/ingest HAIFU_STATS=$(CURDIR)/$(NB_OUT)/stats HAIFU_NB_OUT=$(CURDIR)/$(NB_OUT) \
		$(VENV)/bin/jupyter nbconvert --to notebook --execute notebooks/explore.ipynb \
		--ExecutePreprocessor.timeout=300 --output-dir $(NB_OUT) --output explore.executed.ipynb
	@echo "notebook: executed -> $(NB_OUT)/explore.executed.ipynb, plot $(NB_OUT)/kabe_from_notebook.png"
