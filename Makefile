# Two commands for a learner:  `make lab`  (set up .venv and open JupyterLab) and  `make test`.
# English edition: `make lab-en`. A teacher projecting in class: `make demo` (or `make demo-en`).
# Without make (e.g. on Windows) see README.md for the equivalent python -m pip lines.

PYTHON ?= python3
VENV   ?= .venv
ifeq ($(OS),Windows_NT)
  BIN := $(VENV)/Scripts
else
  BIN := $(VENV)/bin
endif
PY := $(BIN)/python

.PHONY: lab lab-en torch demo demo-en site board board-en test test-fast test-notebooks test-browser lint bench student release clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip

$(VENV)/.installed: requirements.txt pyproject.toml | $(PY)
	$(PY) -m pip install -r requirements.txt
	@touch $@

# lesson 13 (PyTorch, ~750 MB installed): not part of `make lab`; `make torch` adds it, the tests install it.
# On Linux PyPI's default torch is the CUDA build (several GB with its NVIDIA libraries): PyTorch's CPU index
# is asked too, and its CPU build (~190 MB) wins; where that index cannot be reached pip says so and goes on.
ifeq ($(shell uname -s 2>/dev/null),Linux)
  TORCH_CPU := --extra-index-url https://download.pytorch.org/whl/cpu
endif
$(VENV)/.installed-torch: requirements-torch.txt $(VENV)/.installed
	$(PY) -m pip install -r requirements-torch.txt $(TORCH_CPU)
	@touch $@

# The test tools go into .venv too, but nbgrader (a teacher's tool, with JupyterLab and server extensions)
# goes into .venv/teacher-tools, where the learner's JupyterLab never loads it; an nbgrader that an older
# `make test` put into .venv itself is removed.
TEACHER_TOOLS := $(VENV)/teacher-tools
$(VENV)/.installed-dev: requirements-dev.txt requirements-teacher.txt requirements-torch.txt $(VENV)/.installed
	$(PY) -m pip install -r requirements-dev.txt
	$(PY) -m pip install -r requirements-torch.txt
	-$(PY) -m pip uninstall -y -q nbgrader
	$(PY) -m pip install -q --no-deps --upgrade --target $(TEACHER_TOOLS) -r requirements-teacher.txt
	@touch $@

# Jupyter refuses to run as root unless told; root is common in containers.
ALLOW_ROOT := $(if $(filter 0,$(shell id -u 2>/dev/null)),--allow-root)

# Each edition opens JupyterLab with its menus in its language: jupyterlab-settings/<lang>/overrides.json
# sets the default of the language setting for this launch only (the learner's own settings still win
# and are never written to).
# LAB_FONTS: JupyterLab serves attn_viz/fonts/ at /custom/ and loads its custom.css: the bundled Chinese and
# emoji fonts close JupyterLab's font stacks, after the system's (no boxes on a machine without CJK fonts).
LAB_FONTS := --LabApp.custom_css=True --ServerApp.tornado_settings=static_custom_path=attn_viz/fonts
lab: $(VENV)/.installed
	$(PY) -m jupyter lab notebooks --LabApp.app_settings_dir="$(CURDIR)/jupyterlab-settings/zh" $(LAB_FONTS) $(ALLOW_ROOT)

lab-en: $(VENV)/.installed
	$(PY) -m jupyter lab notebooks/en --LabApp.app_settings_dir="$(CURDIR)/jupyterlab-settings/en" $(LAB_FONTS) $(ALLOW_ROOT)

# PyTorch for lesson 13 and ex13 (a ~190 MB download, ~750 MB installed); then reopen lesson 13 (or restart its kernel).
torch: $(VENV)/.installed-torch

# The classroom demo board, served by Voilà (pictures and controls, no code); it opens in the browser.
# VOILA_FONTS: Voilà's files root is the project, and only attn_viz/fonts/ is served from it
# (/voila/files/attn_viz/fonts/course-fonts.css: the bundled fonts, for a projector PC without CJK fonts).
# Its template (share/jupyter/voila/templates/attn-board) hides the notebook's text and asks no CDN for icons.
VOILA_FONTS := --Voila.root_dir=. "--VoilaConfiguration.file_allowlist=['attn_viz/fonts/.*']"
VOILA := JUPYTER_PATH="$(CURDIR)/share/jupyter" $(PY) -m voila --template=attn-board $(VOILA_FONTS)
demo: $(VENV)/.installed
	$(VOILA) notebooks/demo.ipynb

demo-en: $(VENV)/.installed
	$(VOILA) notebooks/en/demo.ipynb

# The course site: every lesson of both editions with saved outputs and live explorers, static files in
# site/ (open site/index.html, or serve the folder); needs no kernel, no network. Sphinx: requirements-site.txt.
$(VENV)/.installed-site: requirements-site.txt $(VENV)/.installed
	$(PY) -m pip install -r requirements-site.txt
	@touch $@

site: $(VENV)/.installed-site
	$(PY) tools/build_site.py

# The board without Python: board/ (index.html + its font), for a USB stick; double-click board/index.html.
board: $(VENV)/.installed
	$(PY) tools/build_board.py

board-en: $(VENV)/.installed
	$(PY) tools/build_board.py --lang en

# Every printed digit must hold on a learner's laptop too, so `make test` runs the notebooks a second time
# on the most different machine this one can pretend to be: OpenBLAS's pre-FMA kernel (Prescott), one
# thread (another summation order) and, on x86-64, numpy's baseline SIMD for exp/log (other last bits).
ODD_MACHINE := OPENBLAS_CORETYPE=Prescott OPENBLAS_NUM_THREADS=1
ifeq ($(shell uname -m 2>/dev/null),x86_64)
  ODD_MACHINE += NPY_DISABLE_CPU_FEATURES="X86_V4 X86_V3 AVX512_ICL AVX512_SPR"
endif
NBVAL    := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg
# One worker per core; a notebook's cells (and a test module) stay together in one worker.
PARALLEL := -n auto --dist loadscope

# The whole suite, as CI runs it: lint, then every test in parallel (unit and property tests, the grader,
# strict nbval on every notebook, the browser), then the notebooks again on the odd machine.
test: lint
	$(PY) -m pytest $(PARALLEL) $(NBVAL) tests benchmarks notebooks
	$(ODD_MACHINE) $(PY) -m pytest $(PARALLEL) $(NBVAL) notebooks

# Tiers a contributor can run on their own:
# unit and property tests: no kernel, no browser (under a minute: one worker per core)
test-fast: $(VENV)/.installed-dev
	$(PY) -m pytest -n auto -m "not kernel and not browser" tests benchmarks
# every notebook under strict nbval, here and on the odd machine; then the tests that start kernels
test-notebooks: $(VENV)/.installed-dev
	$(PY) -m pytest $(PARALLEL) $(NBVAL) notebooks
	$(ODD_MACHINE) $(PY) -m pytest $(PARALLEL) $(NBVAL) notebooks
	$(PY) -m pytest -m kernel tests
# what only a browser can prove: widgets, pictures, glyphs, the homework round trip (needs Chromium)
test-browser: $(VENV)/.installed-dev
	$(PY) -m pytest -m browser tests

lint: $(VENV)/.installed-dev
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(BIN)/lint-imports
	$(PY) tools/lint_style.py

bench: $(VENV)/.installed-dev
	$(PY) benchmarks/bench_explorers.py
	$(PY) benchmarks/bench_complexity.py
	$(PY) benchmarks/bench_grader.py

# the student versions need only what a learner installs (nbformat, nbclient come with attn_core)
student: $(VENV)/.installed
	$(BIN)/attn-student

# what students get: lessons, student exercises and the package, as a folder and a zip (EDITION=en for English)
EDITION ?= zh
release: $(VENV)/.installed
	$(BIN)/attn-release --edition $(EDITION)

clean:
	rm -rf $(VENV)
