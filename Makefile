# haifu: the two set-up commands are `make demo` and `make test`.
CARGO ?= cargo
SHARED ?= ../shared
HAIFU = target/release/haifu

.PHONY: demo test build release bench lint fmt

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
