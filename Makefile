# edgenmt developer entry points. `make test` is what CI runs (.ci/run).
#   make deps     install missing Debian packages (scripts/install-deps.sh; root or sudo)
#   make build    configure + build build/host (CMake preset "host")
#   make install  install into PREFIX (default build/install): see docs/USAGE.md "Installing"
#   make models   convert models/g2p-en and models/g2p-en-mcu -> build/models/<name>.{f32,int8,int8-full}.enmt,
#                 and the Transformer models/g2p-en-transformer -> build/models/g2p-en-transformer.{f32,int8,int8-full}.enmt;
#                 the phonemizer: build/models/phonemizer-en.enmt (models/g2p-en-stress int8 + CMUdict
#                 0.7b, fetched by scripts/fetch-cmudict.sh) and, once models/g2p-en-stress-mcu
#                 exists, build/models/phonemizer-en-mcu.enmt (int8-full + only the words it misses)
#   make demo     install only the demo's packages (scripts/install-deps.sh demo), build the CLI
#                 and the converter (preset "demo": build/host without the tests), convert the
#                 int8 model and translate a few words with the default (SIMD) backend, timed
#   make lint     C/C++ formatted as .clang-format says (Google style, 100 columns) and internal
#                 headers under edgenmt/internal/ (scripts/lint.sh; --fix formats)
#   make test     deps, lint, build, models, every test (C++ and the Python reference) via ctest, then
#                 `make test-arm`, `make test-cortex-m`, `make asan` and `make fuzz FUZZ_SECONDS=60`
#   make test-arm cross-build the runtime and the portable tests for ARMv7-A (32-bit size_t;
#                 toolchains/arm-linux-gnueabihf.cmake, preset "armv7", build/armv7) and ARMv8-A
#                 (toolchains/aarch64-linux-gnu.cmake, preset "aarch64", build/aarch64) and run
#                 them under qemu-arm / qemu-aarch64 (make test-armv7, make test-aarch64: one)
#   make test-cortex-m  cross-build the runtime and the test firmware for five Cortex-M boards
#                 with arm-none-eabi-gcc (preset = build folder: cortex-m55 MPS3 AN547, cortex-m7
#                 MPS2 AN500, cortex-m4 MPS2 AN386, cortex-m33 MPS2 AN505, cortex-m3 MPS2 AN385)
#                 and run them under qemu-system-arm: the first 100 test words of each model the
#                 board holds, greedy and beam 5, must equal the host CLI's output, the kernel
#                 tests run inside a firmware of their own (the board's Helium / DSP level, or
#                 the reference alone on the M3), and the phonemizer firmware reads the sentence
#                 test set with build/models/phonemizer-en-mcu.enmt exactly as the host's
#                 `edgenmt phonemize` (needs make build models; make test-cortex-m55 etc.: one).
#                 targets/cortex-m*/README.md
#   make asan     build + run the C++ ctest suite under AddressSanitizer + UBSan (build/host-asan;
#                 UBSan does not recover, so any finding fails); tests labelled python or slow
#                 are skipped there (ASAN_SKIP_LABELS)
#   make bench    words/s, µs/word, peak RSS, model size, WER and weight-read floor: edgenmt
#                 vs PyTorch (float, dynamic int8) and ONNX Runtime (float, int8), BENCH_WORDS words,
#                 each row the median of BENCH_REPEAT interleaved passes; throughput rows
#                 (--batch 8/32, --threads 2) against the int8 peak of one core
#   make bench-arm  instructions per word of every ARM target under QEMU (QEMU gives no timings):
#                 the Cortex-M firmware (-icount), the aarch64/armv7 CLI per scheme, backend and
#                 search (a TCG plugin counts), ONNX Runtime's arm64 library under the same
#                 qemu-aarch64 -cpu cortex-a76, and each hot kernel's inner loop under llvm-mca
#                 against its core's peak; BENCH_ARM_WORDS distinct test words (tools/bench/
#                 bench_arm.py; builds what it needs: make build models test-arm test-cortex-m)
#   make bench-g2p  edgenmt's G2P (phonemize --no-lexicon) beside flite's and Festival's
#                 letter-to-sound rules and eSpeak NG en-us (scripts/install-deps.sh bench-g2p):
#                 WER / PER on the test split and on its words absent from CMUdict 0.4, words/s
#                 on one core, peak RSS, data size, licence; words/s on a real text against
#                 espeak-ng -q --ipa (tools/bench/g2p_peers.py; ends with the g2p_peers line)
#   make fuzz     build the libFuzzer targets with clang-14 (build/fuzz) and run each for
#                 FUZZ_SECONDS (default 600) from the committed seeds; fails on any finding
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c

JOBS ?= $(shell nproc)
BUILD_DIR := build/host
CONVERT := $(BUILD_DIR)/converter/edgenmt-convert
CLI := $(BUILD_DIR)/edgenmt
CHECKPOINT := models/g2p-en
# The microcontroller model (models/g2p-en-mcu/README.md): converted beside the shipped one.
MCU_CHECKPOINT := models/g2p-en-mcu
# The Transformer (models/g2p-en-transformer/README.md), in all three schemes.
TRANSFORMER_CHECKPOINT := models/g2p-en-transformer
TRANSFORMER_MCU_CHECKPOINT := models/g2p-en-transformer-mcu
# The models with stress (issue 59) and the phonemizer files packed from them.
STRESS_CHECKPOINT := models/g2p-en-stress
STRESS_MCU_CHECKPOINT := models/g2p-en-stress-mcu
PHONEMIZER_PACK := $(BUILD_DIR)/converter/edgenmt-phonemizer-pack
MODEL := build/models/g2p-en.f32.enmt
MODEL_INT8 := build/models/g2p-en.int8.enmt
MODEL_INT8_FULL := build/models/g2p-en.int8-full.enmt
DEMO_WORDS := hello world phoneme edge translation
ASAN_DIR := build/host-asan
ASAN_SKIP_LABELS := python|slow
# LeakSanitizer on; UBSan stops at the first report (the build also uses -fno-sanitize-recover).
SANITIZER_ENV := ASAN_OPTIONS=detect_leaks=1:check_initialization_order=1 \
                 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
FUZZ_DIR := build/fuzz
FUZZ_SECONDS ?= 600
BENCH_WORDS ?= 2000
# Timed passes per bench row, interleaved across rows; the median is shown with its spread
# (at least 3 for figures one reports; more passes: less noise on a shared machine).
BENCH_REPEAT ?= 3
# Words per row of make bench-arm (QEMU runs them one instruction at a time: about half an hour
# for 500 on 2 cores).
BENCH_ARM_WORDS ?= 500
FUZZ_TARGETS := model_load_fuzzer translate_fuzzer phonemize_text_fuzzer user_lexicon_fuzzer

PREFIX ?= build/install

.PHONY: all deps configure lint build install models demo test test-arm test-armv7 test-aarch64 \
        test-cortex-m test-cortex-m55 test-cortex-m7 test-cortex-m4 \
        test-cortex-m33 test-cortex-m3 asan fuzz bench bench-arm bench-g2p clean

all: build

deps:
	scripts/install-deps.sh

# The host preset builds the tests (EDGENMT_BUILD_TESTS=ON), the demo preset the same tree without.
configure:
	cmake --preset host

# The house rules a tool checks (scripts/lint.sh): C/C++ formatted by .clang-format (100 columns),
# internal headers under edgenmt/internal/. `scripts/lint.sh --fix` formats.
lint:
	scripts/lint.sh

build: configure
	cmake --build --preset host -j $(JOBS)

# Libraries (static and shared), headers, CLI, converter, CMake package, edgenmt.pc, Python module.
install: build
	cmake --install $(BUILD_DIR) --prefix $(PREFIX)

models: build
	@if [[ ! -f $(CHECKPOINT)/model.safetensors ]]; then \
	  echo "make models: $(CHECKPOINT)/model.safetensors is missing (train it: see converter/reference)" >&2; \
	  exit 2; \
	fi
	mkdir -p $(dir $(MODEL))
	$(CONVERT) --checkpoint $(CHECKPOINT) --out $(MODEL) --dtype float32
	$(CONVERT) --checkpoint $(CHECKPOINT) --out $(MODEL_INT8) --dtype int8
	$(CONVERT) --checkpoint $(CHECKPOINT) --out $(MODEL_INT8_FULL) --dtype int8-full \
	  --calibration data/g2p/dev.tsv
	for dtype in float32 int8 int8-full; do \
	  name=$$dtype; [[ $$dtype == float32 ]] && name=f32; \
	  $(CONVERT) --checkpoint $(MCU_CHECKPOINT) --out build/models/g2p-en-mcu.$$name.enmt \
	    --dtype $$dtype --calibration data/g2p/dev.tsv; \
	done
	for checkpoint in $(TRANSFORMER_CHECKPOINT) $(TRANSFORMER_MCU_CHECKPOINT) \
	                  $(STRESS_CHECKPOINT) $(STRESS_MCU_CHECKPOINT); do \
	  [[ -f $$checkpoint/metrics.json ]] || continue; \
	  for dtype in float32 int8 int8-full; do \
	    name=$$dtype; [[ $$dtype == float32 ]] && name=f32; \
	    $(CONVERT) --checkpoint $$checkpoint \
	      --out build/models/$$(basename $$checkpoint).$$name.enmt --dtype $$dtype \
	      --calibration data/g2p/dev.tsv; \
	  done; \
	done
	# The phonemizer files (issue 59; docs/PHONEMIZER.md): a model with stress + CMUdict 0.7b.
	scripts/fetch-cmudict.sh build/cmudict
	phonemizer_model=$(TRANSFORMER_CHECKPOINT); \
	[[ -f $(STRESS_CHECKPOINT)/metrics.json ]] && phonemizer_model=$(STRESS_CHECKPOINT); \
	$(PHONEMIZER_PACK) --model build/models/$$(basename $$phonemizer_model).int8.enmt \
	  --lexicon build/cmudict/dict.txt --lexicon-words all --out build/models/phonemizer-en.enmt \
	  --report build/models/phonemizer-en.json
	if [[ -f $(STRESS_MCU_CHECKPOINT)/metrics.json ]]; then \
	  $(PHONEMIZER_PACK) --model build/models/g2p-en-stress-mcu.int8-full.enmt \
	    --lexicon build/cmudict/dict.txt --lexicon-words misses \
	    --out build/models/phonemizer-en-mcu.enmt --report build/models/phonemizer-en-mcu.json; \
	fi

demo:
	scripts/install-deps.sh demo
	cmake --preset demo
	cmake --build --preset demo -j $(JOBS)
	mkdir -p $(dir $(MODEL_INT8))
	@if [[ ! -f $(CHECKPOINT)/model.safetensors ]]; then \
	  echo "make demo: $(CHECKPOINT)/model.safetensors is missing" >&2; exit 2; \
	fi
	$(CONVERT) --checkpoint $(CHECKPOINT) --out $(MODEL_INT8) --dtype int8
	@printf '%s\n' $(DEMO_WORDS) > build/demo-words.txt
	@start=$$(date +%s%N); \
	$(CLI) translate -m $(MODEL_INT8) --beam 1 --timing < build/demo-words.txt; \
	end=$$(date +%s%N); \
	echo "demo: $(words $(DEMO_WORDS)) words in $$(( (end - start) / 1000000 )) ms (process start, model load and translation)"

test: deps lint build models
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j $(JOBS)
	$(MAKE) --no-print-directory test-arm
	$(MAKE) --no-print-directory test-cortex-m
	$(MAKE) --no-print-directory asan
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=60

test-arm: test-armv7 test-aarch64

test-cortex-m: test-cortex-m55 test-cortex-m7 test-cortex-m4 test-cortex-m33 test-cortex-m3

# The Linux presets' target sysroot (Debian architecture) from scripts/make-sysroot.sh.
SYSROOT_ARCH_armv7 := armhf
SYSROOT_ARCH_aarch64 := arm64

test-armv7 test-aarch64 test-cortex-m55 test-cortex-m7 test-cortex-m4 test-cortex-m33 \
    test-cortex-m3: test-%: deps
	@start=$$(date +%s); \
	scripts/fetch-cross-headers.sh; \
	$(if $(SYSROOT_ARCH_$*),scripts/make-sysroot.sh $(SYSROOT_ARCH_$*);) \
	cmake --preset $*; \
	cmake --build --preset $* -j $(JOBS); \
	ctest --preset $* -j $(JOBS); \
	echo "make test-$*: build and tests took $$(( $$(date +%s) - start )) s"

asan: deps
	@start=$$(date +%s); \
	cmake --preset host-asan; \
	cmake --build --preset host-asan -j $(JOBS); \
	$(SANITIZER_ENV) ctest --test-dir $(ASAN_DIR) --output-on-failure -j $(JOBS) -LE '$(ASAN_SKIP_LABELS)'; \
	echo "make asan: build and tests took $$(( $$(date +%s) - start )) s"

# Builds only the fuzz targets (and the runtime they link), not the whole tree, under clang-14.
fuzz: deps
	@start=$$(date +%s); \
	cmake --preset fuzz; \
	cmake --build --preset fuzz -j $(JOBS) --target $(FUZZ_TARGETS); \
	tests/fuzz/run_fuzzers.sh $(FUZZ_DIR) $(FUZZ_SECONDS); \
	echo "make fuzz: build and $(FUZZ_SECONDS) s of fuzzing took $$(( $$(date +%s) - start )) s"

# edgenmt against its peers (PyTorch float and dynamic int8, ONNX Runtime float and int8), side
# by side in one table with the weight-read floor and the read bandwidth of each working set
# (tools/bench/bench.py), one thread each (checked), each row the median of BENCH_REPEAT passes;
# then the --batch / --threads rows and the int8 peak (tools/bench/batching.py, int8_peak.c) with
# batch_speedup=X threads_speedup=Y mac_efficiency=Z third from last;
# the last line gives the default backend's int8 greedy speedup over each peer. setup_node.sh
# installs onnxruntime-node into build/bench-node once (npm registry).
bench: deps build models
	tools/bench/setup_node.sh
	/usr/bin/python3 tools/bench/bench.py --words $(BENCH_WORDS) --repeat $(BENCH_REPEAT) \
	  --json build/bench/bench.json --chart docs/bench-words-per-second.png

bench-arm: build models
	scripts/install-deps.sh bench-arm
	$(MAKE) --no-print-directory test-arm test-cortex-m
	tools/bench/setup_node.sh
	tools/bench/node_sysroot.sh
	/usr/bin/python3 tools/bench/bench_arm.py --words $(BENCH_ARM_WORDS)

# edgenmt's G2P beside the classic peers, one run (issue 59 §5): flite 2.2's letter-to-sound
# rules (tools/bench/flite_lts.c, lexicon bypassed), Festival 2.5's CMU letter-to-sound rules,
# eSpeak NG 1.51 en-us and `edgenmt phonemize --no-lexicon` on data/g2p/test.tsv and on its
# words absent from CMUdict 0.4 (festlex-cmu): WER / PER (stressless, mapped to ARPAbet),
# words/s on one core, peak RSS, data size, licence, each the median of BENCH_REPEAT passes;
# then words/s of `edgenmt phonemize` against `espeak-ng -q --ipa` on the GPL-3 text of
# base-files. Table, build/bench/g2p_peers.json, and the g2p_peers line last.
bench-g2p: build models
	scripts/install-deps.sh bench-g2p
	mkdir -p build/bench
	cc -O2 -Wall -I/usr/include/flite tools/bench/flite_lts.c -o build/bench/flite_lts \
	  -lflite_cmulex -lflite -lm
	/usr/bin/python3 tools/bench/g2p_peers.py --cli $(CLI) \
	  --phonemizer build/models/phonemizer-en.enmt --flite-lts build/bench/flite_lts \
	  --repeat $(BENCH_REPEAT) --json build/bench/g2p_peers.json

clean:
	rm -rf build/host build/host-asan build/fuzz build/models build/armv7 build/aarch64 \
	  build/cortex-m55 build/cortex-m7 build/cortex-m4 build/cortex-m33 build/cortex-m3
