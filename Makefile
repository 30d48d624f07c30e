# haifu: the two set-up commands are `make demo` and `make test`.
CARGO ?= cargo
SHARED ?= ../shared
HAIFU = target/release/haifu

.PHONY: demo test build release bench lint fmt weights

# Top-level records of the shared corpus (complete 4-player games; partial/ and sanma/ left out).
CORPUS = $(wildcard $(SHARED)/data/tenhou/*.mjlog) $(wildcard $(SHARED)/data/tenhou/*.mjlog.gz) $(wildcard $(SHARED)/data/tenhou/*.t6.json)

build:
	$(CARGO) build

release:
	$(CARGO) build --release

# The main job on data the project makes itself (a walk-through until the pipeline's later stages land).
demo: build
	@./scripts/demo.sh target/debug/haifu

# The whole test suite: unit tests next to the code (golden vectors from $(SHARED)) and the CLI tests.
test:
	$(CARGO) test --all-targets -- --test-threads=2
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings

bench:
	$(CARGO) bench --bench shanten
	$(CARGO) bench --bench check

fmt:
	$(CARGO) fmt

# Regenerates data/weights/default.json from the shared corpus: human discards at houou and
# tokujou tables, seeded game split. Same data and seed give the same file.
weights: release
	target/release/haifu ingest $(CORPUS) --out out/corpus
	target/release/haifu fit --data out/corpus --kind discard --tables houou,tokujou --seats human \
		--seed 1 --out data/weights/default.json
