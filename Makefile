# sonde: two commands on a fresh Debian 12 machine.
#   make demo   installs what is missing, builds, instruments and runs the
#               example training, and shows what sonde recorded
#   make test   the whole suite (what CI runs)
# Also: make build, make bench (make bench-quick), make install PREFIX=/usr/local,
#       make test-corpus (yaml-cpp, fmt, jsoncpp, tinyxml2 and leveldb from
#       Debian, instrumented)

BUILD ?= build
JOBS ?= 2
PREFIX ?= /usr/local
CMAKE_FLAGS ?=
CCACHE := $(shell command -v ccache 2>/dev/null)
# ccache keys on paths relative to the checkout, so a fresh clone (CI) or a
# second worktree reuses objects compiled elsewhere; debug info keeps the
# build's own directory out of the key.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1

.PHONY: all build configure deps demo demo-distributed test test-tsan test-asan test-corpus bench bench-quick bench-compile install clean format format-check tidy-check

all: build

# libtorch comes with the core packages: the examples and their tests use it.
deps:
	@scripts/install-deps --torch

# clang 19 builds the project: the plugin loads only into the clang it was
# built for, and the examples are compiled through it. (g++ is covered by
# rewrite mode: tests build rewritten sources with it.)
CXX_FOR_SONDE ?= clang++-19
CC_FOR_SONDE ?= clang-19

$(BUILD)/build.ninja:
	@scripts/install-deps --torch
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_COMPILER=$(CXX_FOR_SONDE) -DCMAKE_C_COMPILER=$(CC_FOR_SONDE) \
	  $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=ccache) $(CMAKE_FLAGS)

configure: $(BUILD)/build.ninja

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# Chromium renders `sonde report` in the report test.
test: build
	@scripts/install-deps --torch --report
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --timeout 900

# The runtime's own tests (threads, rings, exit paths) under ThreadSanitizer.
# TSan cannot start threads in a forked child unless told to carry on, and
# must leave SIGSEGV, SIGBUS and SIGFPE to the handlers under test.
test-tsan:
	@scripts/install-deps
	cmake -S . -B $(BUILD)-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_COMPILER=$(CXX_FOR_SONDE) -DCMAKE_C_COMPILER=$(CC_FOR_SONDE) \
	  -DSONDE_SANITIZE=thread -DSONDE_BUILD_ENGINE=OFF -DSONDE_BUILD_EXAMPLES=OFF \
	  -DSONDE_BUILD_BENCH=OFF $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
	cmake --build $(BUILD)-tsan -j $(JOBS)
	cd $(BUILD)-tsan && TSAN_OPTIONS="die_after_fork=0 handle_segv=0 handle_sigbus=0 handle_sigfpe=0" ctest --output-on-failure -j $(JOBS) -L runtime

# The whole suite under AddressSanitizer + UndefinedBehaviorSanitizer (UB is
# fatal). Everything is sanitized, the plugin and libsonde included; every
# test process preloads the one shared ASan runtime so that unsanitized
# hosts (clang, programs built by g++) can load them. The examples need
# libtorch, which is not sanitized: they are left out (make test runs them).
# Leaks are not checked here (clang, Python and ctest leak on purpose at
# exit): the fuzzers check them in the parsers. SIGSEGV, SIGBUS and SIGFPE
# are left to the runtime's handlers under test, as under TSan.
ASAN_RUNTIME = $(shell $(CXX_FOR_SONDE) -print-file-name=libclang_rt.asan-x86_64.so)
test-asan:
	@scripts/install-deps
	cmake -S . -B $(BUILD)-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_COMPILER=$(CXX_FOR_SONDE) -DCMAKE_C_COMPILER=$(CC_FOR_SONDE) \
	  -DSONDE_SANITIZE=address,undefined -DSONDE_FUZZ=OFF \
	  -DSONDE_BUILD_EXAMPLES=OFF -DSONDE_BUILD_BENCH=OFF \
	  $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
	cmake --build $(BUILD)-asan -j $(JOBS)
	cd $(BUILD)-asan && UBSAN_OPTIONS=print_stacktrace=1 \
	  ASAN_OPTIONS=detect_leaks=0:handle_segv=0:handle_sigbus=0:handle_sigfpe=0 \
	  LD_PRELOAD=$(ASAN_RUNTIME) \
	  ctest --output-on-failure -j $(JOBS) --timeout 1800

# Real code nobody here wrote: Debian's yaml-cpp and fmt with their own test
# suites, instrumented everywhere through sonde-rewrite (g++) and the plugin
# (clang++-19). Work dir: $(BUILD)/corpus. About an hour on a quiet 2-core
# machine; `make test` runs a reduced form (see test/corpus/CMakeLists.txt).
test-corpus: build
	nice scripts/test-corpus --build $(BUILD) -j $(JOBS)

demo:
	@scripts/install-deps --torch
	@$(MAKE) --no-print-directory build
	@scripts/demo $(BUILD)

# The data-parallel example on 4 ranks of c10d's Gloo group (docs/distributed.md).
demo-distributed:
	@scripts/install-deps --torch
	@$(MAKE) --no-print-directory build
	@scripts/demo-distributed $(BUILD)

# Every figure of docs/performance.md in one run (45 minutes on a quiet
# 2-core machine, well over an hour under load): the quick part
# (scripts/bench, 25 minutes), then the compile figures that take long: the
# plugin's PCH compile counted in instructions (callgrind, 5 to 10 minutes)
# and what instrumenting every function costs the builds of yaml-cpp and
# leveldb (scripts/test-corpus, 15 minutes quiet, an hour under load).
# Each writes its part; results.json is merged from all of them.
# One after the other, even under make -j: the figures are times.
bench:
	@$(MAKE) --no-print-directory bench-quick
	@$(MAKE) --no-print-directory bench-compile

# The figures that take minutes (scripts/bench).
# install-deps may have just installed the peers (spdlog, LTTng) into a
# build configured without them: configure again, so that their NOTFOUND
# results are searched anew (CMake retries a NOTFOUND find on every run).
bench-quick:
	@scripts/install-deps --all
	@if [ -f $(BUILD)/build.ninja ]; then cmake $(BUILD) >/dev/null; fi
	@$(MAKE) --no-print-directory build
	@scripts/bench $(BUILD)

# The compile figures alone, merged into results.json with the parts the
# last bench-quick wrote.
bench-compile: build
	@scripts/install-deps --all
	@python3 bench/plugin-instructions.py $(BUILD)
	@python3 bench/corpus-compile.py $(BUILD)
	@python3 bench/results.py merge $(BUILD)/bench/parts $(BUILD)/bench/results.json

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# clang-format 19 over the project's own code (scripts/format-check says
# which files; test inputs keep the shape their tests check line by line).
format:
	@scripts/format-check --fix

format-check:
	@scripts/format-check

# clang-tidy 19 with .clang-tidy over the engine and the plugin, through
# sonde-tidy (test/tidy/MainFileTidy.cpp), built first when the engine is
# (without it, scripts/tidy-check says so and runs clang-tidy-19).
tidy-check: configure
	@if ninja -C $(BUILD) -t targets all | grep -q '^test/tidy/sonde-tidy:'; then \
	  cmake --build $(BUILD) -j $(JOBS) --target sonde-tidy; fi
	@scripts/tidy-check $(BUILD)

clean:
	rm -rf $(BUILD)
