# minige: `make run` sets everything up and starts the daemon on the embedded cell;
# `make test` sets everything up and runs lint, type checks and the whole suite.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench soak clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/pip install -q -e '.[test,sim]'
	touch $(STAMP)

# editable installs leave out setuptools' data-files: the man pages are copied here, where
# man-db finds them from the venv's bin on PATH (bin/../share/man)
MAN1     := $(wildcard man/man1/*.1)
MANSTAMP := $(VENV)/share/man/.installed

$(MANSTAMP): $(MAN1) | $(STAMP)
	install -d $(VENV)/share/man/man1
	install -m 644 $(MAN1) $(VENV)/share/man/man1/
	touch $@

run: $(STAMP) $(MANSTAMP)
	$(BIN)/qmaster start --foreground

lint: $(STAMP)
	$(BIN)/ruff check qmaster clients schedd tests bench
	$(BIN)/ruff format --check qmaster clients schedd tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

# pytest-xdist workers: twice the cores, as most tests wait on daemon and command processes;
# a test file stays on one worker (its module-wide cell is started once)
PYTEST_WORKERS ?= $(shell echo $$(( $$(nproc) * 2 )))
# the suite starts over a thousand Python processes (daemons, clients, qsim): compiling
# the package once here spares each of them doing it again where PYTHONDONTWRITEBYTECODE is set
pytest: $(STAMP) $(MANSTAMP)
	$(BIN)/python -m compileall -q qmaster clients schedd > /dev/null
	PATH="$(abspath $(BIN)):$$PATH" $(BIN)/pytest -q -n $(PYTEST_WORKERS) --dist loadfile

test: lint typecheck pytest

# the scale part's sizes under make bench (python -m bench.scale_bench defaults to 10k,100k,1M)
SCALE_SIZES ?= 10000
# the jobs of gen_swf.py's trace the sim part replays (python -m bench.sim_bench: 50,000)
SIM_JOBS ?= 10000
# the local execution part's short tasks queued at once (python -m bench.local_bench: 1,000)
LOCAL_TASKS ?= 200
bench: $(STAMP)
	PATH="$(abspath $(BIN)):$$PATH" BENCH_SCALE_SIZES=$(SCALE_SIZES) BENCH_SIM_JOBS=$(SIM_JOBS) \
		BENCH_LOCAL_TASKS=$(LOCAL_TASKS) \
		$(BIN)/python -m bench

# the reliability suite's long versions (not part of make test): >= 50 kill -9 trials, 200
# clients for 60 s with a real qsub among them, slow clients, a 100k-job/1,000-AR restart;
# SOAK_ARGS shortens them, e.g. SOAK_ARGS="--trials 10 --seconds 20 --jobs 20000"
SOAK_ARGS ?=
soak: $(STAMP)
	PATH="$(abspath $(BIN)):$$PATH" $(BIN)/python -m bench.soak $(SOAK_ARGS)

clean:
	rm -rf $(VENV) build *.egg-info
