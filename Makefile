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

.PHONY: setup setup-localstack venv eval validate test unit lint bench fidelity doctor clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	# python-hcl2 writes its parser cache into its own package on first use: build it now,
	# so that no run changes the installation (the adversarial test fingerprints it).
	$(BIN)/python -c 'import hcl2.parser; hcl2.parser.parser()'
	touch $(STAMP)

venv: $(STAMP)

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

## validate: the full tier: every scenario's whole kill matrix (or SCENARIO's; on
## EMULATOR=localstack if given), and the every-fault sweeps marked slow
validate: setup-localstack
	@set -e; for s in $(if $(SCENARIO),$(SCENARIO),$$($(KIT) list --names)); do \
	  $(KIT) validate $$s --jobs $(JOBS) $(if $(EMULATOR),--emulator $(EMULATOR)); done
	$(if $(SCENARIO),,$(BIN)/pytest -q -m slow $(PYTEST_ARGS))

## test: unit + integration tests against real services, within the 25-minute budget;
## prints the slowest tests
test: setup-localstack
	$(BIN)/pytest -q -m "not slow" --durations=15 $(PYTEST_ARGS)

unit: $(STAMP)
	$(BIN)/pytest -q -m "not integration" $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check kit tests bench

bench: setup
	$(BIN)/python bench/run.py

## fidelity: apply, read back and destroy every in-scope example of fidelity/corpus
fidelity: setup
	$(BIN)/python bench/fidelity.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
