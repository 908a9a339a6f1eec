# edgenmt developer entry points. `make test` is what CI runs (.ci/run).
#   make deps     install missing Debian packages (scripts/install-deps.sh; root or sudo)
#   make build    configure + build build/host (CMake preset "host")
#   make models   convert models/g2p-en -> build/models/g2p-en.f32.enmt
#   make demo     translate a few words with the CLI and print the timing
#   make test     deps, build, models, then every test (C++ and the Python reference) via ctest
#   make asan     build + test under AddressSanitizer/UBSan (build/host-asan)
#   make fuzz     build the libFuzzer targets with clang-14 (build/fuzz)
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c

JOBS ?= $(shell nproc)
BUILD_DIR := build/host
CONVERT := $(BUILD_DIR)/converter/edgenmt-convert
CLI := $(BUILD_DIR)/edgenmt
CHECKPOINT := models/g2p-en
MODEL := build/models/g2p-en.f32.enmt
DEMO_WORDS := hello world phoneme edge translation

.PHONY: all deps configure build models demo test asan fuzz clean

all: build

deps:
	scripts/install-deps.sh

configure:
	cmake --preset host

build: configure
	cmake --build --preset host -j $(JOBS)

models: build
	@if [[ ! -f $(CHECKPOINT)/model.safetensors ]]; then \
	  echo "make models: $(CHECKPOINT)/model.safetensors is missing (train it: see converter/reference)" >&2; \
	  exit 2; \
	fi
	mkdir -p $(dir $(MODEL))
	$(CONVERT) --checkpoint $(CHECKPOINT) --out $(MODEL)

demo: deps build models
	@printf '%s\n' $(DEMO_WORDS) > build/demo-words.txt
	@start=$$(date +%s%N); \
	$(CLI) translate -m $(MODEL) < build/demo-words.txt; \
	end=$$(date +%s%N); \
	echo "demo: $(words $(DEMO_WORDS)) words in $$(( (end - start) / 1000000 )) ms (process start, model load and translation)"

test: deps build models
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS)

asan: deps
	cmake --preset host-asan
	cmake --build --preset host-asan -j $(JOBS)
	ctest --test-dir build/host-asan --output-on-failure -j $(JOBS)

fuzz: deps
	cmake --preset fuzz
	cmake --build --preset fuzz -j $(JOBS)

clean:
	rm -rf build/host build/host-asan build/fuzz build/models
