# dynd — build, test and demo. `make demo` and `make test` install what is missing first.
SWIFT ?= swift

.PHONY: all deps test-deps build inspector-build release test test-busy-lane test-waiting-lane static-release install install-files uninstall install-list deb-install-list deb dist package-deps package-test unit chaos-test fairness-test lint schema-test render-test inspector-test readme-test python-test demo inspect run fuzz chaos bench clean

all: build

# What each target needs and is missing, nothing more (tools/deps.sh: one line says what it
# installs, apt never upgrades what is installed). The build needs four Debian packages; make
# test adds the Python tools, eslint and, for its browser checks, Chromium.
deps:
	@tools/deps.sh build

test-deps:
	@tools/deps.sh build test browser

# Two packages: the core (this directory: dynd, dynctl, dynbench, the tour, every library and
# test) and inspector/ (dynd-inspect, the only code that compiles swift-nio and Hummingbird).
# BUILT=yes (what make test's lanes run with): the build is done, and no `swift build` may run
# beside the tests (it relinks the binaries they use, and waits on the build lock).
INSPECTOR = inspector
build: deps
ifneq ($(BUILT),yes)
	$(SWIFT) build
endif

# dynd-inspect, debug (make inspect).
inspector-build: deps
	$(SWIFT) build --package-path $(INSPECTOR) --product dynd-inspect

release: deps
	$(SWIFT) build -c release

# make test builds each thing once: the core's debug build with its tests, and the static release
# binaries (the core's and dynd-inspect, the only build of swift-nio and Hummingbird) that the
# package ships, the inspector's browser checks drive and the package check installs. Then two
# lanes side by side on the two cores: the one that keeps both cores busy (the Swift suite, the
# browser checks, then the timing checks, fairness and chaos, which must not run beside the Swift
# suite: beside it the rules case once took 566 ms to stop its work), and the one that mostly
# waits on pip and sockets (lint, schema, the Python package, the READMEs); then the package
# check, alone (beside fairness, its lintian left the motion case's spring step unanswered after
# 7.6 s at a load of 5).
# Each target's output is printed whole when it ends (make -O), after a line when it starts; a
# failure names its target, and the other lane finishes what it runs before make test fails.
# The last lines say where the time went (tools/timed.sh).
TEST_BUSY_LANE = unit render-test inspector-test fairness-test chaos-test
TEST_WAITING_LANE = lint schema-test python-test readme-test
export TIMINGS ?= $(CURDIR)/.build/make-test-timings
test: test-deps
	@rm -f $(TIMINGS); mkdir -p $(dir $(TIMINGS))
	@tools/timed.sh "debug build with the tests (core)" $(SWIFT) build --build-tests
	@tools/timed.sh "static release build (core and inspector)" $(MAKE) --no-print-directory static-release
	@$(MAKE) --no-print-directory -j2 --output-sync=target BUILT=yes test-busy-lane test-waiting-lane
	@tools/timed.sh "package check" $(MAKE) --no-print-directory BUILT=yes package-test
	@tools/timed.sh --summary

# The targets of $(1) one after another, each timed.
run-in-turn = for target in $(1); do \
	  tools/timed.sh $$target $(MAKE) --no-print-directory $$target || exit 1; \
	done

test-busy-lane:
	+@$(call run-in-turn,$(TEST_BUSY_LANE))

test-waiting-lane:
	+@$(call run-in-turn,$(TEST_WAITING_LANE))

# The Swift suite. The targets below that run the built binaries depend on `build`, not on this,
# so that each of them alone does not run the suite. The test binary is run as `swift test
# --skip-build` would run it, but without rewriting the build plan for tests: after `swift test`,
# the next `swift build` recompiles Hummingbird and relinks dynd-inspect (about a minute).
# The inspector's suites run first, on their own: their server runs on Swift's cooperative pool
# (two threads here), which the other suites' blocking tests (processes waited for) can hold for
# minutes in one run; alone they take seconds.
unit: deps
ifneq ($(BUILT),yes)
	$(SWIFT) build --build-tests
endif
	"$$($(SWIFT) build --show-bin-path)/dyndPackageTests.xctest" --testing-library swift-testing

# The Swift sources by swift-format; the page scripts (Sources/**/*.js) by Debian's eslint with
# .eslintrc.yml. Debian's eslint finds its modules in /usr/share/nodejs, where Debian's node looks
# and a node from elsewhere (NodeSource's) does not: NODE_PATH says it. Then docs/DESIGN.md's module
# tables against Package.swift (tools/check_design.py), and every copy of the protocol's
# definitions against the description the code gives (tools/generate.py --check: the schemas'
# ranges, PROTOCOL.md's field ranges, the Python client's constants; needs the built dynctl).
lint: deps
ifneq ($(BUILT),yes)
	$(SWIFT) build --product dynctl
endif
	$(SWIFT) format lint --strict --recursive Sources Tests examples Package.swift $(INSPECTOR)/Sources \
	  $(INSPECTOR)/Package.swift
	@command -v eslint >/dev/null || { echo "lint: no eslint (tools/deps.sh test installs Debian's)" >&2; exit 1; }
	NODE_PATH=/usr/share/nodejs eslint --max-warnings 0 Sources
	python3 tools/check_design.py
	python3 tools/generate.py --check --dynctl "$$($(SWIFT) build --show-bin-path)/dynctl"

# The schema checker's samples, then the request schema against a private dynd, value by value.
schema-test: build
	python3 tools/test_schema_check.py
	python3 tools/schema_agreement.py "$$($(SWIFT) build --show-bin-path)"

# dynctl record and render, the page checked in headless Chromium (needs the built binaries).
render-test: build
	python3 tools/test_render.py "$$($(SWIFT) build --show-bin-path)"

# The live inspector (dynd-inspect) in Debian's Chromium driven by Playwright: a drag, a tap,
# the parameter form, a scene's behaviors, the recording, the access guard on raw HTTP (needs the
# built binaries: the debug dynd and dynctl, the static release dynd-inspect that the package ships).
inspector-test: build static-release
	python3 tools/test_inspector.py "$$($(SWIFT) build --show-bin-path)" $(STATIC_BIN)/dynd-inspect

# The Python package (clients/python): mypy --strict, its tests against the built dynd, and a
# fresh venv that installs it and runs the example test file.
python-test: build
	clients/python/check.sh "$$($(SWIFT) build --show-bin-path)"

# Every command the READMEs show, in their order, against a private dynd (console blocks: the
# output must match), and every path the documents cite (tools/test_readme.py).
readme-test: build
	python3 tools/test_readme.py "$$($(SWIFT) build --show-bin-path)"

# The engine tour, then a private dynd on a temporary socket driven by dynctl.
demo: deps
	$(SWIFT) build
	$$($(SWIFT) build --show-bin-path)/dynamics-tour
	examples/demo.sh "$$($(SWIFT) build --show-bin-path)"

# A private dynd with a few sessions and the browser inspector; prints the address to open.
# INSPECT_PORT=8080 make inspect listens on a port of your choice (default: a free one).
INSPECT_PORT ?= 0
inspect: build inspector-build
	examples/inspect.sh "$$($(SWIFT) build --show-bin-path)" \
	  "$$($(SWIFT) build --package-path $(INSPECTOR) --show-bin-path)/dynd-inspect" $(INSPECT_PORT)

# dynd in the foreground on the default socket.
run: deps
	$(SWIFT) build --product dynd
	$$($(SWIFT) build --show-bin-path)/dynd

# make test's short chaos run (tools/chaos.py; needs the built binaries). CHAOS_ARGS adds options,
# e.g. CHAOS_ARGS="--seed 42" to replay a schedule. The debug build under a test load answers the
# probe in about 1 ms (p50) with rare spikes of a few hundred; 1 s catches a loop that blocks. The
# 50 ms target is measured on the release build by tools/fairness_bench.py (make bench).
CHAOS_TEST_SECONDS ?= 30
CHAOS_ARGS ?=
chaos-test: build
	python3 tools/chaos.py "$$($(SWIFT) build --show-bin-path)" --seconds $(CHAOS_TEST_SECONDS) \
	  --progress 0 --max-rtt-ms 1000 $(CHAOS_ARGS)

# make test's short fairness run (tools/fairness_bench.py, issue 25; needs the built binaries):
# seven reproducers (action rules then a disconnect, failing add_groups in one write, non-reading
# connections, a contact storm, pipelined requests from a reader, a spring and a decay over 1 000
# items each, issue 39's group storm) while a healthy client in its
# own process sends hello every 5 ms and a one-frame step every 20 ms. Debug-build thresholds
# (FAIRNESS_ARGS: make test runs it after the Swift suite, beside the Python and README checks);
# the 50 / 100 ms targets, and the rules case's 100 ms until the work stops, are measured on the
# release build by make bench. Before issue 25 the work went on for over 42 s.
FAIRNESS_ARGS ?= --max-hello-ms 250 --max-step-ms 500 --max-stop-ms 1000
fairness-test: build
	python3 tools/fairness_bench.py "$$($(SWIFT) build --show-bin-path)" --quick \
	  --only rules,add-group,nonreaders,contacts,pipelined,motion,group-storm $(FAIRNESS_ARGS)

# Randomized multi-connection chaos against a private dynd: make chaos CHAOS_SECONDS=600
# [CHAOS_ARGS="--seed 42 --heavy 0.2 --heavy-kinds overlap"].
CHAOS_SECONDS ?= 600
chaos: deps
	$(SWIFT) build
	python3 tools/chaos.py "$$($(SWIFT) build --show-bin-path)" --seconds $(CHAOS_SECONDS) \
	  $(CHAOS_ARGS)

# libFuzzer over line → decode → apply (time-boxed: make fuzz FUZZ_SECONDS=600).
FUZZ_SECONDS ?= 60
fuzz: deps
	tools/fuzz.sh $(FUZZ_SECONDS)

# Every table of BENCHMARKS.md, release build: engine step, springs and decays (accuracy, cost
# against gravity), frame encoding, socket latency, gesture → frame latency, realtime sessions
# (spawns the release dynd), idle cost, fairness (a healthy client's round trips while one
# client runs each heavy reproducer). About fifteen minutes.
bench: release
	@tools/deps.sh browser
	$(SWIFT) build --package-path $(INSPECTOR) -c release --product dynd-inspect
	B=$$($(SWIFT) build -c release --show-bin-path); \
	  I=$$($(SWIFT) build --package-path $(INSPECTOR) -c release --show-bin-path); \
	  $$B/dynbench step --markdown --items 1,10,100 --runs 5 && \
	  $$B/dynbench worst-step --markdown && \
	  $$B/dynbench motion && $$B/dynbench motion-cost --runs 20 && \
	  $$B/dynbench document-cost --runs 500 --markdown && \
	  $$B/dynbench encode --markdown && \
	  for p in same split free; do $$B/dynbench latency --markdown --placement $$p || exit 1; done && \
	  $$B/dynbench gesture-latency --markdown && \
	  $$B/dynbench sessions --markdown --counts 100,250,500,750,1000,1250 --until-delivery 99 && \
	  $$B/dynbench sessions --markdown --workers 1 --counts 100,250,500,750,1000 --until-delivery 99 && \
	  $$B/dynbench sessions --markdown --counts 500 --heavy-items 300 && \
	  $$B/dynbench sessions --markdown --counts 500 && \
	  $$B/dynbench idle --sessions 1000 && \
	  $$B/dynbench idle --sessions 1000 --per-connection 1000 && \
	  python3 tools/fairness_bench.py $$B --markdown && \
	  for n in 10 100 101 1000; do python3 tools/suggestion_bench.py $$B --sessions $$n || exit 1; done && \
	  python3 tools/inspector_bench.py $$B --inspect $$I/dynd-inspect

# Release packaging: binaries that run without Swift, make install / uninstall, the Debian package,
# the Python wheel, and the test that uses them on a machine without the toolchain.
# The version of all of them is the file VERSION.
VERSION := $(shell cat VERSION)
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/dynd
DATADIR ?= $(PREFIX)/share/dynd
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
USERUNITDIR ?= $(PREFIX)/lib/systemd/user
# The static build has its own scratch directory: linking the Swift runtime and Foundation in
# changes every object, and the debug build of make test stays untouched. It is one build of the
# inspector package's graph, which holds the core (dynd, dynctl and argument-parser's manual
# generator are products of its dependencies): what the four binaries share (swift-log,
# argument-parser, the socket rule, the page scripts) compiles once.
STATIC_SCRATCH ?= .build-static
STATIC_BIN = $(STATIC_SCRATCH)/release
PLACES = DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" BINDIR="$(BINDIR)" MANDIR="$(MANDIR)" \
  DOCDIR="$(DOCDIR)" DATADIR="$(DATADIR)" BASHCOMPDIR="$(BASHCOMPDIR)" \
  ZSHCOMPDIR="$(ZSHCOMPDIR)" FISHCOMPDIR="$(FISHCOMPDIR)" USERUNITDIR="$(USERUNITDIR)" \
  BUILT="$(STATIC_BIN)" GENERATED="$(STATIC_SCRATCH)/generated"

# dynd, dynctl and dynd-inspect linked with the Swift runtime and Foundation statically (they need
# only Debian's shared libraries; -z now: relocations read-only from the start, as Debian's
# hardening flags do), and argument-parser's manual generator.
STATIC_FLAGS = -c release --static-swift-stdlib --package-path $(INSPECTOR) \
  --scratch-path $(STATIC_SCRATCH) -Xlinker -z -Xlinker now
static-release: deps
ifneq ($(BUILT),yes)
	for product in dynd dynctl dynd-inspect generate-manual; do \
	  $(SWIFT) build $(STATIC_FLAGS) --product $$product || exit 1; \
	done
endif

# make install [PREFIX=/usr/local] [DESTDIR=]: the binaries, man pages, completions, the systemd
# user units, the protocol and its schemas (packaging/install.sh lists them); make uninstall
# removes exactly those.
install: static-release
	@$(MAKE) --no-print-directory install-files

install-files:
	$(PLACES) packaging/generate.sh $(STATIC_BIN) $(STATIC_BIN)/generate-manual \
	  $(STATIC_SCRATCH)/generated
	$(PLACES) packaging/install.sh install

uninstall:
	$(PLACES) packaging/install.sh uninstall

# What make install writes (and make deb puts under /usr), one path a line.
install-list:
	@$(PLACES) packaging/install.sh list

deb-install-list:
	@$(MAKE) --no-print-directory -s install-list $(DEB_PLACES)

package-deps:
	@tools/deps.sh build package

# dist/dynd_$(VERSION)_amd64.deb: make install's files under /usr, the metadata of debian/, and
# lintian (packaging/build_deb.sh).
DEB_ROOT = $(CURDIR)/$(STATIC_SCRATCH)/deb-root
DEB_PLACES = PREFIX=/usr ZSHCOMPDIR=/usr/share/zsh/vendor-completions
deb: package-deps static-release
	rm -rf $(DEB_ROOT)
	@$(MAKE) --no-print-directory install-files DESTDIR=$(DEB_ROOT) $(DEB_PLACES) >/dev/null
	packaging/build_deb.sh $(DEB_ROOT) $(VERSION) dist

# dist/dynd-$(VERSION).tar.gz and dist/dynd-$(VERSION)-py3-none-any.whl: the Python client.
dist: package-deps
	packaging/build_dist.sh dist

# The package on a machine without Swift: tools/test_package.py installs the .deb into a
# throwaway root, hides /opt/swift from the process (a private mount namespace), drives the
# installed dynd with the installed dynctl, checks the man pages, completions, units, make
# install / uninstall and the wheel.
package-test: deb dist
	python3 tools/test_package.py --deb dist/dynd_$(VERSION)_amd64.deb \
	  --wheel dist/dynd-$(VERSION)-py3-none-any.whl

clean:
	rm -rf .build $(STATIC_SCRATCH) $(INSPECTOR)/.build .build-python dist
