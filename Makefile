# Two commands matter: `make eval SCENARIO=<name>` and `make test`. Both set up what is missing.
PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
KIT    := $(BIN)/kit
STAMP  := $(VENV)/.installed

SCENARIO ?=
SOLUTION ?=
FAULT    ?=
SEED     ?=
JOBS     ?= 2
PYTEST_ARGS ?=
# `make test`'s parallel phase: XDIST pytest-xdist workers (more than the cores: much of an
# integration test is waiting on fault windows and quiescence), DIST its scheduler.
XDIST ?= 5
DIST  ?= worksteal

.PHONY: setup setup-localstack venv eval validate test unit lint bench fidelity corpus doctor clean lock canary extras docs _quick

# Installs come from the committed lock only (uv.lock, with hashes; `make lock` updates it):
# uv, and the venv's pip (`kit setup` uses it), pinned by hash in requirements-uv.txt; uv
# syncs the venv to the lock. `--inexact` keeps them, and extras installed earlier.
# `make eval` needs the base alone; the test and bench targets add the extras they use.
# `--link-mode copy`: uv hardlinks from its cache by default, so any later install on the
# machine (another venv, a test's) would change the ctime of the kit's own files.
UV   := $(BIN)/uv
SYNC  = UV_PROJECT_ENVIRONMENT=$(VENV) $(UV) sync --locked --inexact --quiet --link-mode copy \
	--python $(BIN)/python
TEST_STAMP := $(VENV)/.installed-test

$(UV): requirements-uv.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --require-hashes -r requirements-uv.txt
	touch $(UV)

$(STAMP): pyproject.toml uv.lock $(UV)
	@echo "installing the kit's base dependencies from uv.lock"
	# With their bytecode, and the kit's: where the machine sets PYTHONDONTWRITEBYTECODE, every
	# kit process (the command, moto, the gateway) would otherwise compile each module it
	# imports from source, every time (docs/benchmarks.md, "CPU per run").
	$(SYNC) --compile-bytecode
	$(BIN)/python -m compileall -q -x 'kit/skeleton/' kit
	# python-hcl2 writes its parser cache into its own package on first use: build it now,
	# so that no run changes the installation (the adversarial test fingerprints it).
	$(BIN)/python -c 'import hcl2.parser; hcl2.parser.parser()'
	touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	@echo "installing the test extras (dev, rl, ray) from uv.lock"
	$(SYNC) --extra dev --extra rl --extra ray
	# gradio (OpenEnv's client imports it) writes a random hash_seed.txt into its own
	# package on its first import: write it now, by gradio's own function, for the same reason.
	$(BIN)/python -c 'from gradio.utils import get_hash_seed; get_hash_seed()'
	touch $(TEST_STAMP)

## lock: resolve every dependency anew (newest in pyproject's ranges) into uv.lock, moto kept
## at the release the kit's fixes are written for (kit/toolchain/emulators.py); then the
## worker runtime's lock at the kit's own releases, and LocalStack's at its pinned date
LOCKS   := kit/toolchain/locks
COMPILE  = $(UV) pip compile --quiet --generate-hashes --python-version 3.11 --universal \
	  --custom-compile-command "make lock"
lock: $(UV)
	$(COMPILE) requirements-uv.in -o requirements-uv.txt
	$(UV) lock --upgrade --python $(BIN)/python \
	  $$(PYTHONPATH=. $(BIN)/python -c 'from kit.toolchain.emulators import WRITTEN_FOR as w; \
	    print(" ".join(f"--upgrade-package {n}=={v}" for n, v in w.items()))')
	$(UV) export --frozen --quiet --all-extras --no-hashes --no-emit-project -o $(LOCKS)/.kit.txt
	printf 'boto3\npsycopg[binary]\n' | $(COMPILE) -c $(LOCKS)/.kit.txt - -o $(LOCKS)/worker.txt
	rm $(LOCKS)/.kit.txt
	PYTHONPATH=. $(BIN)/python -c 'from kit.toolchain.localstack_install import REQUIREMENT, \
	  LOCKED_AT; print(REQUIREMENT, LOCKED_AT)' | { read req date; echo "$$req" | \
	  $(COMPILE) --exclude-newer "$$date" - -o $(LOCKS)/localstack.txt; }

## canary: a throw-away venv resolved to the newest versions pyproject allows (no lock),
## then the quick tier: names each dependency that moved off the lock and the first failure
CANARY ?= $(abspath .canary)
canary: $(STAMP)
	rm -rf $(CANARY) && $(PYTHON) -m venv $(CANARY)
	$(CANARY)/bin/pip install --quiet -e '.[dev,rl,ray]'
	$(CANARY)/bin/python -c 'from gradio.utils import get_hash_seed; get_hash_seed()'
	$(BIN)/python -m kit.toolchain.lockfile moved $(CANARY)/bin/python
	$(CANARY)/bin/kit setup --localstack
	$(MAKE) --no-print-directory BIN=$(CANARY)/bin PYTEST_ARGS=-x _quick

# the quick tier (what `make test` runs), with whatever BIN names
_quick:
	$(call phases,not slow,)

venv: $(STAMP)

## extras: the optional extras (dev, rl: `kit serve`, ray: `--executor ray`) from the lock
extras: $(TEST_STAMP)

## setup: Python env + toolchain (terraform/tofu, provider mirror, toxiproxy, postgres)
setup: $(STAMP)
	$(KIT) setup

## setup-localstack: setup, plus LocalStack (the optional second emulator) in its own venv
setup-localstack: $(STAMP)
	$(KIT) setup --localstack

doctor: $(STAMP)
	$(KIT) doctor

## eval: grade a solution (default: the scenario's golden one)
eval: setup
	@test -n "$(SCENARIO)" || { echo "usage: make eval SCENARIO=<name> [SOLUTION=<dir>] [FAULT=<f>] [SEED=<n>]"; exit 2; }
	$(KIT) eval $(SCENARIO) $(if $(SOLUTION),--solution $(SOLUTION)) $(if $(FAULT),--fault $(FAULT)) $(if $(SEED),--seed $(SEED))

# a team repository, checked as it is (its .kit/ holds its scenarios and variants)
TEAM_REPO = examples/team-repo

## validate: the full tier: every scenario's whole kill matrix (or SCENARIO's; on
## EMULATOR=localstack if given), the example team repository's scenarios, and the
## every-fault sweeps marked slow
validate: setup-localstack $(TEST_STAMP)
	@set -e; for s in $(if $(SCENARIO),$(SCENARIO),$$($(KIT) list --names)); do \
	  $(KIT) validate $$s --jobs $(JOBS) $(if $(EMULATOR),--emulator $(EMULATOR)); done
	$(if $(SCENARIO),,@set -e; for s in $$(ls $(TEAM_REPO)/.kit/scenarios); do \
	  $(KIT) validate $$s --scenarios $(TEAM_REPO)/.kit --jobs $(JOBS); done)
	$(if $(SCENARIO),,$(call phases,slow,))

# $(call phases,<marker expression>,<pytest options>): the tests selected, in two phases:
# the others on XDIST workers, then those marked `serial` (they look at machine-global state:
# processes, /tmp, freed ports, signals, timings) alone. Both phases always run; the exit is
# non-zero if either fails. A phase with nothing selected (pytest's 5, e.g. under a -k of
# PYTEST_ARGS) is no failure unless the other selected nothing either.
define phases
	@one=0; two=0; \
	$(BIN)/pytest -q -m "$(1) and not serial" -n $(XDIST) --dist $(DIST) $(2) $(PYTEST_ARGS) \
	  || one=$$?; \
	echo "== serial phase (tests marked serial, one at a time)"; \
	$(BIN)/pytest -q -m "$(1) and serial" $(2) $(PYTEST_ARGS) || two=$$?; \
	echo "== parallel phase: exit $$one; serial phase: exit $$two"; \
	case "$$one:$$two" in 0:0|0:5|5:0) ;; *) exit 1;; esac
endef

# CPU seconds per test (tests/cpu_time.py), both phases in one file; each phase's summary
# prints the top consumers so far. CPU seconds, unlike wall time, do not change with load.
CPU_LOG ?= .pytest_cache/cpu-seconds.txt
## test: unit + integration tests against real services, within the 15-minute budget, in
## a parallel and a serial phase; prints the slowest tests and the
## top CPU consumers of each
test: export KIT_TEST_CPU = $(abspath $(CPU_LOG))
# Every Python process of the suite (xdist workers, kit commands, servers) compiles the
# kit's modules and pytest rewrites every test module once, not once per process: the
# bytecode goes to a tree of its own, never beside the sources or into the venv (which the
# adversarial test fingerprints), whatever PYTHONDONTWRITEBYTECODE the machine sets.
test: export PYTHONPYCACHEPREFIX = $(abspath .pytest_cache/pycache)
test: export PYTHONDONTWRITEBYTECODE =
test: setup-localstack $(TEST_STAMP)
	@mkdir -p $(dir $(CPU_LOG)) && rm -f $(CPU_LOG)
	$(call phases,not slow,--durations=15)

unit: $(TEST_STAMP)
	$(BIN)/pytest -q -m "not integration" $(PYTEST_ARGS)

lint: $(TEST_STAMP)
	$(BIN)/ruff check kit tests bench

bench: setup $(TEST_STAMP)
	$(BIN)/python bench/run.py

## fidelity: apply, read back and destroy every in-scope example of fidelity/corpus and
## fidelity/vendored, on moto and on LocalStack (in parallel)
# The corpus is fetched code, never committed: vendored here from the fetch tool's snapshots
# (MIRRORS: one bare git directory per repository as <owner>+<name>/repo), pinned to the
# commits bench/fidelity_vendor.py and bench/fidelity_sources.py name.
MIRRORS ?= $(abspath ../.mirror)
fidelity: setup-localstack corpus
	$(BIN)/python bench/fidelity.py

corpus: $(STAMP)
	test -d fidelity/corpus || $(BIN)/python bench/fidelity_vendor.py $(MIRRORS)
	test -d fidelity/vendored || $(BIN)/python bench/fidelity_sources.py $(MIRRORS)

## docs: the documentation site (mkdocs.yml; README.md is the introduction) into site/,
## with mkdocs from PATH: it is no dependency of the kit, so it is not in the lock
docs:
	@command -v mkdocs >/dev/null || { echo "mkdocs is not on PATH: pip install mkdocs"; exit 2; }
	mkdocs build --strict -d site

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache $(CANARY)
