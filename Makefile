# Two commands for a learner:  `make lab`  (set up .venv and open JupyterLab) and  `make test`.
# Without make (e.g. on Windows) see README.md for the equivalent python -m pip lines.

PYTHON ?= python3
VENV   ?= .venv
ifeq ($(OS),Windows_NT)
  BIN := $(VENV)/Scripts
else
  BIN := $(VENV)/bin
endif
PY := $(BIN)/python

.PHONY: lab test lint bench student clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip

$(VENV)/.installed: requirements.txt pyproject.toml | $(PY)
	$(PY) -m pip install -r requirements.txt
	@touch $@

$(VENV)/.installed-dev: requirements-dev.txt $(VENV)/.installed
	$(PY) -m pip install -r requirements-dev.txt
	@touch $@

# Jupyter refuses to run as root unless told; root is common in containers.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u 2>/dev/null)),--allow-root)

lab: $(VENV)/.installed
	$(PY) -m jupyter lab notebooks $(ALLOW_ROOT)

test: $(VENV)/.installed-dev
	$(PY) -m ruff check .
	$(PY) -m pytest --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg

lint: $(VENV)/.installed-dev
	$(PY) -m ruff check .

bench: $(VENV)/.installed-dev
	$(PY) benchmarks/bench_explorers.py
	$(PY) benchmarks/bench_complexity.py

student: $(VENV)/.installed-dev
	$(PY) -m attn_core.student

clean:
	rm -rf $(VENV)
