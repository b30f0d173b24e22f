# Two commands for a new user: `make book` and `make test`.
# Both set up .venv from the lock file first (only when the lock or pyproject changed).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

# `make test-fast`: everything but the tests that run pages, build the book or drive a browser
# (pytest markers book, browser, slow; tests/conftest.py gives them). Both run on two workers
# (pytest-xdist; tests/conftest.py groups the tests so the preview is built once, and orders
# the groups longest first).
# --no-loadscope-reorder: the workers take the groups in the order tests/conftest.py gives
# (the preview's and the other long groups first), not xdist's (most tests first).
WORKERS := -n 2 --dist loadgroup --no-loadscope-reorder
# Some machines set PYTHONDONTWRITEBYTECODE=1; then every pytest worker, kernel and subprocess
# compiles the project's modules again and pytest rewrites every test file's asserts again
# (collection: 15.5 s CPU against 8.5 s with the bytecode kept). __pycache__ is git-ignored.
unexport PYTHONDONTWRITEBYTECODE
.PHONY: setup book test test-fast lint format lock preview clean data-validate bench bench-formats

setup: $(STAMP)

$(STAMP): requirements.lock pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11+ is required")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.lock
	$(PY) -m pip install --quiet --no-deps -e .
	$(PY) -m ipykernel install --sys-prefix --name python3 --display-name "Python 3 (book .venv)" >/dev/null
	touch $(STAMP)

book: setup
	$(PY) -m analysis book

preview: setup
	$(PY) -m analysis book --preview-only

test: setup
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m pytest $(WORKERS)

test-fast: setup
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m pytest $(WORKERS) -m "not book and not browser and not slow"

lint: setup
	$(PY) -m ruff check .
	$(PY) -m analysis chapters lint

format: setup
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .

data-validate: setup
	$(PY) -m analysis data validate

# The scale benchmark runs 1M rows here; 10M only when asked:
#   .venv/bin/python benchmarks/bench_scale.py --rows 1000000 10000000
bench: setup
	$(PY) benchmarks/bench_data.py
	$(PY) benchmarks/bench_scale.py

# Every chapter executed for HTML then for Typst, as `quarto render` does, with the result cache
# emptied first: the second format's time shows what the cache saves.
bench-formats: setup
	$(PY) benchmarks/bench_formats.py --cold

# Re-resolve the newest versions allowed by pyproject.toml and pin them.
lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/pip install --quiet -e '.[dev]'
	{ echo "# Exact versions of every dependency (direct and transitive), Python 3.11."; \
	  echo "# Regenerate with: make lock"; \
	  .lock-venv/bin/pip freeze --exclude-editable; } > requirements.lock
	rm -rf .lock-venv

clean:
	rm -rf _book _preview _freeze _figures _deps _cache .pytest_cache .ruff_cache
