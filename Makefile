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

.PHONY: lab test test-odd-machine lint bench student clean

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

# Every printed digit must hold on a learner's laptop too, so `make test` runs the notebooks a second time
# on the most different machine this one can pretend to be: OpenBLAS's pre-FMA kernel (Prescott), one
# thread (another summation order) and, on x86-64, numpy's baseline SIMD for exp/log (other last bits).
ODD_MACHINE := OPENBLAS_CORETYPE=Prescott OPENBLAS_NUM_THREADS=1
ifeq ($(shell uname -m 2>/dev/null),x86_64)
  ODD_MACHINE += NPY_DISABLE_CPU_FEATURES="X86_V4 X86_V3 AVX512_ICL AVX512_SPR"
endif
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg

test: $(VENV)/.installed-dev
	$(PY) -m ruff check .
	$(PY) -m pytest $(NBVAL)
	$(ODD_MACHINE) $(PY) -m pytest $(NBVAL) notebooks

# The notebooks only, on the odd machine described above.
test-odd-machine: $(VENV)/.installed-dev
	$(ODD_MACHINE) $(PY) -m pytest $(NBVAL) notebooks

lint: $(VENV)/.installed-dev
	$(PY) -m ruff check .

bench: $(VENV)/.installed-dev
	$(PY) benchmarks/bench_explorers.py
	$(PY) benchmarks/bench_complexity.py

student: $(VENV)/.installed-dev
	$(PY) -m attn_core.student

clean:
	rm -rf $(VENV)
