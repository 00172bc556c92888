# Two commands set everything up on a fresh machine:
#   make run    install, create the model, build the index, serve on http://127.0.0.1:8000
#   make test   install, create the model, run the tests
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
E5_MODEL := models/multilingual-e5-small.onnx/manifest.json
INDEX := var/index/manifest.json
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

EVAL_CONFIGS := --config e5-small --config e5-small-dense --config e5-small-lexical --config use-m3 --config e5-use-concat \
	--config e5-small-torch --config e5-small-int8

.PHONY: install model browser servers corpus index run test eval bench bench-tools deploy-demo soak lint clean

install: $(STAMP)

# Reinstalls only when pyproject.toml changes. torch goes first and pinned,
# so nothing later can pull an unpinned (CUDA) build.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Converts e5 only when its folder is missing (about 10 s) and exports it to ONNX (fp32 and int8,
# about 40 s) when no export of those weights exists; USE's folder is three small files and is
# always brought up to date.
model: $(STAMP)
	$(BIN)/kb model --all

$(E5_MODEL): | $(STAMP)
	$(BIN)/kb --backend e5-small model

corpus: install
	$(BIN)/kb curate

index: $(INDEX)

# Rebuilt when an article, a spec file or the code that builds it changes; `kb build`
# is atomic, so an interrupted or failed build leaves the previous index in place.
$(INDEX): $(wildcard corpus/*/*.md corpus/specs/*.yaml kb/*.py kb/specs/*.py kb/embedding/*.py kb/data/*.json) | $(STAMP) $(E5_MODEL)
	$(BIN)/kb build

run: install model index
	$(BIN)/kb serve --host 127.0.0.1 --port 8000

# The widget's tests drive Debian's Chromium (Playwright never downloads a browser here);
# a CJK font makes Chinese text legible in screenshots.
browser:
	@test -x /usr/bin/chromium && fc-list 2>/dev/null | grep -qi "wenquanyi\|noto sans cjk" || { \
	  SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium fonts-wqy-zenhei; }

# PostgreSQL, Redis and nginx for the shared-state and replica tests: Debian's packages. The tests never use
# a system instance: they start throwaway ones on free loopback ports (on a machine with systemd the
# packages also start their own services; `systemctl disable --now postgresql redis-server nginx` stops them).
servers:
	@{ test -x /usr/lib/postgresql/15/bin/initdb || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; } \
	  && command -v redis-server >/dev/null && { command -v nginx >/dev/null || test -x /usr/sbin/nginx; } || { \
	  SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq postgresql redis-server nginx-light; }

test: install model browser servers bench-tools
	$(BIN)/python -m pytest

# The full evaluation: both suites, every configuration, the sweep (dev only), then the README figures
# rendered from the results; everything goes to eval/results/ and the READMEs (commit them).
eval: install model
	$(BIN)/kb eval --suite all $(EVAL_CONFIGS) --quiet
	$(BIN)/kb eval --sweep --quiet
	$(BIN)/kb eval --readme

# Latency in process and throughput over HTTP against a plain pipeline (about 6 minutes); wrk from apt.
bench-tools:
	@command -v wrk >/dev/null || { SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq wrk; }

bench: install model index bench-tools
	$(BIN)/kb bench

# The reliability suite, longer (about 2 minutes): writes eval/results/reliability.{md,json}.
soak: install model index bench-tools
	$(BIN)/kb bench --reliability --seconds 60

# The multi-replica layout on this machine: PostgreSQL, Redis, 2 replicas, nginx on http://127.0.0.1:8080.
deploy-demo: install model index servers
	$(BIN)/python deploy/demo.py --replicas 2

lint: install
	$(BIN)/ruff check kb service tests

clean:
	rm -rf var/index var/index.builds
