PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench screenshot clean translations fuzz bundle bundle-test desktop-entry

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
	@$(PY) main.py; status=$$?; [ $$status -eq 3 ] || [ $$status -eq 4 ] || exit $$status  # 3: no display, 4: missing system libraries (the install command was printed)

test: $(STAMP) $(QM)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest

# The whole fuzzing suite (issue 15): >= 2,000 hostile command lines, poisoned data folders, kill -9 during saves,
# two processes; prints the counts and fails on any traceback, hang, absurd verdict or lost/outside write.
fuzz: $(STAMP) $(QM)
	QT_QPA_PLATFORM=offscreen $(PY) tests/fuzz_hostile.py

# Refresh the translation sources after changing user-visible strings, then translate the new entries.
translations: $(STAMP)
	$(VENV)/bin/pyside6-lupdate -silent gui/*.py engine/*.py engine/*/*.py $(wildcard engine/*/*/*.py) -ts gui/i18n/planner_zh_CN.ts

lint: $(STAMP)
	$(PY) -m ruff check .

bench: $(STAMP) $(QM)
	$(PY) benchmarks/engine_speed.py
	$(PY) benchmarks/solver_speed.py
	QT_QPA_PLATFORM=offscreen $(PY) benchmarks/gui_latency.py
	QT_QPA_PLATFORM=offscreen $(PY) benchmarks/library_scale.py
	$(PY) benchmarks/accuracy_report.py

# Desktop bundle (PyInstaller, one folder; packaging/llm-memory-planner.spec says why): dist/llm-memory-planner/.
# Starts on a machine without Python: zip the folder, unzip elsewhere, run llm-memory-planner inside it.
BUNDLE := dist/llm-memory-planner/llm-memory-planner
BUNDLE_STAMP := $(VENV)/.bundle-tools

$(BUNDLE_STAMP): $(STAMP)
	$(PY) -m pip install --quiet "pyinstaller>=6.0"
	@touch $@

bundle: $(BUNDLE_STAMP) $(QM)
	$(PY) -m PyInstaller --noconfirm --clean --log-level WARN --distpath dist --workpath build/pyinstaller \
		packaging/llm-memory-planner.spec
	@echo "bundle: $(BUNDLE)"

# Start the bundle headless with no Python on PATH and no virtual environment: it must render the window.
bundle-test:
	@test -x $(BUNDLE) || $(MAKE) bundle
	rm -f build/bundle-test.png
	env -i HOME="$$HOME" PATH=/usr/bin:/bin LC_ALL=C.UTF-8 QT_QPA_PLATFORM=offscreen LLM_MEMORY_PLANNER_HOME="$$(mktemp -d)" \
		$(BUNDLE) --screenshot build/bundle-test.png examples/qwen3-30b-a3b-8x-h100.json --size 1366x768
	@test -s build/bundle-test.png && echo "bundle-test: the bundle started and rendered build/bundle-test.png"
	env -i PATH=/usr/bin:/bin $(BUNDLE) --version

# Linux: a menu entry and icon for the installed `llm-memory-planner` command (pipx/pip install), for this user.
desktop-entry:
	install -Dm644 packaging/llm-memory-planner.desktop ~/.local/share/applications/llm-memory-planner.desktop
	install -Dm644 gui/assets/llm-memory-planner.svg ~/.local/share/icons/hicolor/scalable/apps/llm-memory-planner.svg

clean:
	rm -rf $(VENV) build dist
