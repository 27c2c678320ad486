# ptxjit: the compiler library, the ptxjitc command, C tests and fuzzers.
# The Python extension is built by pip (setup.py) from the same sources.

CC      ?= cc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -D_GNU_SOURCE -fPIC -Wall -Wextra -Wno-unused-parameter
LDLIBS  += -lm -ldl
BUILD   ?= build

STAGES  := base front sema ir opt ptx sim rt cgen math
LIBSRC  := $(foreach s,$(STAGES),$(wildcard src/$(s)/*.c))
LIBOBJ  := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(LIBSRC))
HEADERS := $(wildcard src/*.h src/*/*.h)
TESTSRC := $(wildcard tests/c/test_*.c)
TESTBIN := $(patsubst tests/c/%.c,$(BUILD)/%,$(TESTSRC))

.PHONY: all lib cli tests test golden asan asan-py fuzz clean

all: lib cli tests

lib: $(BUILD)/libptxjit.a
cli: $(BUILD)/ptxjitc
tests: $(TESTBIN)

$(BUILD)/obj/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/libptxjit.a: $(LIBOBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/ptxjitc: $(wildcard src/cli/*.c) $(BUILD)/libptxjit.a
	$(CC) $(CFLAGS) $(filter %.c,$^) $(BUILD)/libptxjit.a $(LDLIBS) -o $@

$(BUILD)/test_%: tests/c/test_%.c tests/c/check.h $(BUILD)/libptxjit.a
	$(CC) $(CFLAGS) -Isrc $< $(BUILD)/libptxjit.a $(LDLIBS) -o $@

# C unit tests, then the golden files (AST/IR/PTX/error text, ptxas).
test: all
	@set -e; for t in $(TESTBIN); do echo "== $$t"; $$t; done
	@python3 tests/golden/run.py --ptxjitc $(BUILD)/ptxjitc $(GOLDEN_ARGS)

golden: cli
	@python3 tests/golden/run.py --ptxjitc $(BUILD)/ptxjitc

# The same under AddressSanitizer and UndefinedBehaviorSanitizer, built by
# clang at -O1: its ptxjitc must also write the very IR and PTX of the
# normal build's (gcc, -O2) for every golden kernel.
asan: cli
	$(MAKE) BUILD=build-asan CC=clang \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  LDLIBS="-lm -ldl -fsanitize=address,undefined" GOLDEN_ARGS="--same-as $(CURDIR)/$(BUILD)/ptxjitc" test

# libFuzzer targets for the front end and type checker.  The seed inputs
# are tests/fuzz/corpus (hand-written), tests/fuzz/grown.tar.gz (the
# inputs earlier runs found that reach code the others do not, kept with
# `make fuzz-keep` after a long run), and the golden kernels and error
# cases themselves.  FUZZ_SEED fixes libFuzzer's random sequence, so a
# run is reproducible (a faster machine goes further along the same
# sequence); 0 draws a new seed each run, for exploring.
FUZZ_SECONDS ?= 60
FUZZ_SEED ?= 1
FUZZ_SEEDS = build-fuzz/corpus build-fuzz/grown tests/fuzz/corpus tests/golden/kernels tests/golden/errors
fuzz: build-fuzz/fuzz_front
	@mkdir -p build-fuzz/corpus
	@rm -rf build-fuzz/grown && mkdir -p build-fuzz/grown && tar xzf tests/fuzz/grown.tar.gz -C build-fuzz/grown
	build-fuzz/fuzz_front -max_total_time=$(FUZZ_SECONDS) -seed=$(FUZZ_SEED) -max_len=4096 -timeout=10 \
	  -dict=tests/fuzz/python.dict $(FUZZ_SEEDS)

.PHONY: build-fuzz/fuzz_front fuzz-keep
build-fuzz/fuzz_front:
	@mkdir -p build-fuzz
	clang -std=c11 -D_GNU_SOURCE -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  -Isrc tests/fuzz/fuzz_front.c $(LIBSRC) -lm -ldl -o build-fuzz/fuzz_front

# Adds to tests/fuzz/grown.tar.gz the inputs of build-fuzz/corpus that
# reach new code (libFuzzer's -merge=1), in a reproducible archive.
# The other seed inputs take part in the merge, so that what they reach
# already is not kept twice, and are taken out after it.
fuzz-keep: build-fuzz/fuzz_front
	@rm -rf build-fuzz/keep && mkdir -p build-fuzz/keep && tar xzf tests/fuzz/grown.tar.gz -C build-fuzz/keep
	@for f in tests/fuzz/corpus/* tests/golden/kernels/*.py tests/golden/errors/*.py; do \
	  cp "$$f" "build-fuzz/keep/seed-$$(echo "$$f" | tr / _)"; done
	build-fuzz/fuzz_front -merge=1 -max_len=4096 -timeout=10 build-fuzz/keep build-fuzz/corpus
	rm -f build-fuzz/keep/seed-*
	tar -C build-fuzz/keep --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - . | \
	  gzip -n -9 > tests/fuzz/grown.tar.gz

# The Python extension under AddressSanitizer and UndefinedBehaviorSanitizer,
# run under the simulator's pytest suite.  It is built with gcc (the compiler
# of the normal build) into $(ASANPY)/python (a copy of the package: the
# in-place build stays as it is) and libasan is preloaded into Python; the
# extension pulls in libubsan itself.  LeakSanitizer reports but does not
# change exit codes (compilers run by tests leak by design).  Every report
# goes to a log file, child processes' included; tests/sanitizer_report.py
# fails on any error report and on leaks whose allocation happened in our
# own code (Python's own leaks at exit are not ours; PYTHONMALLOC=malloc
# lets LeakSanitizer see pointers held by Python objects).
ASANPY  ?= build-asan-py
ASANCC  ?= gcc
ASANRT  := $(shell $(ASANCC) -print-file-name=libasan.so 2>/dev/null)
PYTHON  := $(shell python3 -c 'import sys; print(sys.executable)')
PYTEST_ARGS ?= tests
# both pytest runs spread the test files over the machine's cores when
# pytest-xdist is installed (the test extra brings it); a file's tests
# stay in one process
PYTEST_JOBS ?= $(shell python3 -c 'import xdist' 2>/dev/null && echo '-n auto --dist loadfile')
asan-py:
	@rm -rf $(ASANPY)/python $(ASANPY)/log
	@mkdir -p $(ASANPY)/python $(ASANPY)/log
	cp -r python/ptxjit $(ASANPY)/python/
	rm -rf $(ASANPY)/python/ptxjit/_core*.so $$(find $(ASANPY)/python -name __pycache__)
	CC=$(ASANCC) LDSHARED="$(ASANCC) -shared" PTXJIT_SANITIZE=address,undefined \
	  $(PYTHON) setup.py -q build_ext --build-lib $(ASANPY)/python --build-temp $(ASANPY)/tmp
	PYTHONMALLOC=malloc PYTHONPATH=$(CURDIR)/$(ASANPY)/python PTXJIT_SIM=1 LD_PRELOAD=$(ASANRT) \
	  ASAN_OPTIONS=detect_leaks=1:log_path=$(CURDIR)/$(ASANPY)/log/asan:handle_segv=1:allocator_may_return_null=1 \
	  LSAN_OPTIONS=max_leaks=200:exitcode=0 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$(CURDIR)/$(ASANPY)/log/ubsan \
	  $(PYTHON) -m pytest -q -p no:cacheprovider $(PYTEST_JOBS) $(PYTEST_ARGS); \
	  rc=$$?; $(PYTHON) tests/sanitizer_report.py $(ASANPY)/log || exit 1; exit $$rc

clean:
	rm -rf build build-asan build-asan-py build-fuzz build-ci build-wheels

# Everything CI runs: C tests and goldens, the sanitizer builds (the C tests,
# and the extension under pytest: about 6 minutes on 2 cores), the fuzzer,
# and the Python suite on the simulator.
.PHONY: check prereqs docs pytest quick ext numba-compat
ext:
	python3 setup.py -q build_ext --inplace

pytest: ext
	PYTHONPATH=$(CURDIR)/python PTXJIT_SIM=1 python3 -m pytest -q $(PYTEST_JOBS) tests

# A first run in about a minute: the extension, then the catalogue kernels,
# the seeds' programs, @njit, the documentation's examples and the feature table on the simulator.
quick: ext
	PYTHONPATH=$(CURDIR)/python PTXJIT_SIM=1 python3 -m pytest -q tests/test_kernels.py tests/test_seeds.py \
	  tests/test_njit.py tests/test_docs.py tests/test_features.py

# numba-cuda's own tests against ptxjit, every file on the simulator
# (tests/numba_compat/run.py; NUMBA_COMPAT_ARGS=--gpu for the GPU): the
# tables and the classes of failures in tests/numba_compat/RESULTS.md
# (cudapy/, the kernel language) and RESULTS_cudadrv.md (the driver-level API).
numba-compat: ext
	python3 tests/numba_compat/run.py --results tests/numba_compat/RESULTS.md $(NUMBA_COMPAT_ARGS)
	python3 tests/numba_compat/run.py --suite cudadrv --results tests/numba_compat/RESULTS_cudadrv.md $(NUMBA_COMPAT_ARGS)

# A wheel of the checkout for this machine's Python (pip wheel .), installed
# into a fresh virtual environment: the README's first example, an @njit
# function and the ptxjitc command it installs, on the simulator
# (tools/wheel-check.py; about 30 s of CPU, most of it the compile).
.PHONY: wheel-check
wheel-check:
	rm -rf build-ci/wheel build-ci/wheel-venv
	python3 -m pip wheel -q --no-deps --disable-pip-version-check -w build-ci/wheel .
	python3 -m venv build-ci/wheel-venv
	build-ci/wheel-venv/bin/pip install -q --disable-pip-version-check build-ci/wheel/ptxjit-*.whl
	cd build-ci && PTXJIT_SIM=1 wheel-venv/bin/python $(CURDIR)/tools/wheel-check.py $(CURDIR)/README.md --script

# Names everything the targets below need and this machine lacks, up front.
prereqs:
	@bash tools/check-prereqs.sh

# The user documentation (docs/, mkdocs.yml) as HTML in build/site; any
# warning (a broken link, a page missing from the navigation, a docstring
# that does not render) fails the build.
docs:
	python3 -m mkdocs build --strict --quiet

check: prereqs
	$(MAKE) test asan asan-py fuzz docs pytest
