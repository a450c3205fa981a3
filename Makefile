PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench screenshot clean translations fuzz

QM := gui/i18n/planner_zh_CN.qm

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	@touch $(STAMP)

# Compiled translations (the app also compiles them at start-up when missing or stale).
$(QM): gui/i18n/planner_zh_CN.ts $(STAMP)
	$(VENV)/bin/pyside6-lrelease -silent $< -qm $@

run: $(STAMP) $(QM)
	@$(PY) main.py; status=$$?; [ $$status -eq 3 ] || exit $$status  # 3: no display, already explained

test: $(STAMP) $(QM)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest

# The whole fuzzing suite (issue 15): >= 2,000 hostile command lines, poisoned data folders, kill -9 during saves,
# two processes; prints the counts and fails on any traceback, hang, absurd verdict or lost/outside write.
fuzz: $(STAMP) $(QM)
	QT_QPA_PLATFORM=offscreen $(PY) tests/fuzz_hostile.py

# Refresh the translation sources after changing user-visible strings, then translate the new entries.
translations: $(STAMP)
	$(VENV)/bin/pyside6-lupdate -silent gui/*.py engine/*.py engine/*/*.py -ts gui/i18n/planner_zh_CN.ts

lint: $(STAMP)
	$(PY) -m ruff check .

bench: $(STAMP) $(QM)
	$(PY) benchmarks/engine_speed.py
	$(PY) benchmarks/solver_speed.py
	QT_QPA_PLATFORM=offscreen $(PY) benchmarks/gui_latency.py
	QT_QPA_PLATFORM=offscreen $(PY) benchmarks/library_scale.py
	$(PY) benchmarks/accuracy_report.py

clean:
	rm -rf $(VENV)
