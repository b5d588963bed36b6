# Two commands do everything: `make book` and `make test`.
# Both create .venv on first use and install the pinned requirements.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
LAB_STAMP := $(VENV)/.installed-lab
NOTEBOOKS := $(sort $(wildcard book/*.ipynb))

# OpenBLAS's AVX2 kernels, whatever the CPU, and on x86-64 NumPy's own AVX2
# code, not its AVX-512 code: the arithmetic the stored outputs were made
# with (tools/paths.py, ARITHMETIC_ENV, says why).
export OPENBLAS_CORETYPE := Haswell
ifeq ($(shell uname -m),x86_64)
export NPY_DISABLE_CPU_FEATURES := X86_V4 AVX512_ICL AVX512_SPR
endif

# Jupyter Book, strict: warnings are errors (-W), every cross-reference must
# resolve (-n), and the build starts from empty doctrees so a stale page
# cannot hide a broken one. tools/book_key.py seals a build that succeeded
# with a key of its sources, so that `make test` can tell whether
# _build/html is what building the sources as they are now would give.
JB_BUILD := $(BIN)/jupyter-book build . --builder html -W -n --keep-going

.PHONY: help venv book pdf test test-profile browser-check browser-profile execute student otter nbgrader exercises bench replicate lock clean \
	lab lab-check classroom-venv classroom-check \
	classroom-check-graders classroom-check-students browser-tools lighthouse

help:
	@echo "make book     build the HTML book into _build/html (strict)"
	@echo "make pdf      the whole book as one PDF, _build/pdf/book.pdf (needs Chromium, not TeX)"
	@echo "make test     unit tests, nbval over every notebook, strict book build, checks of the built site"
	@echo "make test-profile  make test, then where the time went, file by file (records tests/durations.json)"
	@echo "make browser-check  the book in headless Chromium: every page, axe-core, the figures, the PDF"
	@echo "make browser-profile  make browser-check, recording tests/durations-browser.json"
	@echo "make lighthouse  Lighthouse scores of the landing page and every chapter (mobile, desktop)"
	@echo "make browser-tools  install axe-core and Lighthouse (pinned, npm ci) into tools/browser"
	@echo "make lab      open the notebooks in JupyterLab (with jupyterlab-myst)"
	@echo "make lab-check  check that path in a real browser"
	@echo "make execute  re-run every notebook in place to refresh its outputs"
	@echo "make student  write the student edition (solutions removed) to _build/student"
	@echo "make otter    write Otter Assign versions of the chapters to _build/otter/<chapter>/"
	@echo "make nbgrader write an nbgrader course folder, one assignment per chapter, to _build/nbgrader"
	@echo "make classroom-venv  install otter-grader and nbgrader (pinned) into .venv-classroom"
	@echo "make classroom-check grade chapters with the real otter-grader and nbgrader"
	@echo "make exercises  rewrite the list of exercises in book/exercises.md"
	@echo "make bench    time posenc.sinusoidal against the direct formula (writes book/data/bench_sinusoidal.json),"
	@echo "              and chapter 6's training and scoring before and after issue 25's speed-up"
	@echo "make replicate  rerun chapter 6's experiment on 9 further sets of 16 seeds, with the fixed-budget"
	@echo "              control (about 7 CPU-minutes; writes posenc/data/replication_length.json)"
	@echo "make lock     re-pin requirements.txt from a fresh environment"
	@echo "make clean    remove _build (keeps .venv)"

venv: $(STAMP)

$(STAMP): requirements.txt pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
		|| { echo "Python 3.11 or newer is needed (found: $$($(PYTHON) --version))"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $(STAMP)

# axe-core (the accessibility check of `make test`) and Lighthouse (`make
# lighthouse`), exactly as tools/browser/package-lock.json pins them. They
# need Node.js and npm (Debian: apt-get install nodejs npm).
NODE_STAMP := tools/browser/node_modules/.installed

browser-tools: $(NODE_STAMP)

$(NODE_STAMP): tools/browser/package.json tools/browser/package-lock.json
	@command -v npm >/dev/null 2>&1 \
		|| { echo "npm is needed for axe-core and Lighthouse: sudo apt-get install -y nodejs npm"; exit 1; }
	cd tools/browser && npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

book: $(STAMP)
	rm -rf _build/html _build/.doctrees _build/jupyter_execute
	$(BIN)/python -m tools.book_key start
	$(JB_BUILD)
	$(BIN)/python -m tools.book_key seal
	@echo "Open _build/html/index.html in a browser to read the book."

# The whole book as one PDF, without TeX: Jupyter Book's single-page HTML
# (strict, like `make book`; it reuses the doctrees of `make book` if they
# are there), printed by the system's headless Chromium with the book's print
# stylesheet: contents page, numbered chapters, internal links, an outline.
pdf: $(STAMP)
	rm -rf _build/singlehtml _build/pdf
	$(BIN)/jupyter-book build . --builder singlehtml -W -n --keep-going
	$(BIN)/python -m tools.make_pdf _build/singlehtml _build/pdf/book.pdf

# The student editions run whole (tests marked "classroom") in classroom-check.
# xdist hands whole files to the two workers in the order conftest.py
# puts them, the slowest first (tests/durations.json), not by their number
# of tests. The run ends with where the time went (tests/breakdown.py):
# each file's wall and CPU seconds, the slowest 25 (make test-profile: all
# of them, and pytest's slowest setups and calls; it records the files'
# times in tests/durations.json).
# The tests that drive the system's Chromium (marked "browser": the site
# visits, axe-core, the interactive figures, the PDF) need tools that
# `make test` does not install (Chromium and poppler-utils from the system's
# packages, axe-core from npm): `make browser-check` runs them, and .ci/run
# runs it after `make test`.
XDIST := -n auto --dist loadfile --no-loadscope-reorder
PYTEST_ALL := $(XDIST) -m "not classroom and not browser" book tests posenc
PYTEST_BROWSER := $(XDIST) -m browser tests/book

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ALL)

test-profile: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ALL) --breakdown 0 --durations=30 \
		--breakdown-record tests/durations.json

# A missing Chromium or pdftoppm is an error here, not a skip.
browser-check: $(STAMP) $(NODE_STAMP)
	POSENC_REQUIRE_BROWSER=1 $(BIN)/python -m pytest $(PYTEST_BROWSER)

browser-profile: $(STAMP) $(NODE_STAMP)
	POSENC_REQUIRE_BROWSER=1 $(BIN)/python -m pytest $(PYTEST_BROWSER) --breakdown 0 --durations=30 \
		--breakdown-record tests/durations-browser.json

# JupyterLab and jupyterlab-myst (requirements-lab.txt) on top of the book's
# environment, opened on book/. The server's root is the repository, so
# posenc/ is one folder up in the file browser.
$(LAB_STAMP): $(STAMP) requirements-lab.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-lab.txt
	touch $(LAB_STAMP)

lab: $(LAB_STAMP)
	$(BIN)/jupyter lab --allow-root --ServerApp.root_dir=. --LabApp.default_url=/lab/tree/book $(LAB_ARGS)

# JupyterLab in headless Chromium (about half a minute; --durations lists
# each step's time); .ci/run runs it after `make test`. The chapters' run
# alone in a fresh environment is part of `make test` (tests/book/alone.py).
lab-check: $(LAB_STAMP)
	$(BIN)/python -m pytest --durations=0 tests/book/check_lab.py

execute: $(STAMP)
	$(BIN)/python -m tools.nbtools execute $(NOTEBOOKS)

# The plain editions print the numbers and titles the build gave the book
# (book/_ext/posenc_numbers.py writes them to _build/numbers.json): they need
# a book built since its sources last changed, and build it first if not.
NUMBERS := _build/numbers.json
BOOK_SOURCES := $(NOTEBOOKS) $(wildcard book/*.md) book/references.bib _toc.yml _config.yml \
	$(wildcard book/_ext/*.py)

$(NUMBERS): $(BOOK_SOURCES) | $(STAMP)
	$(MAKE) --no-print-directory book

student: $(STAMP) $(NUMBERS)
	$(BIN)/python -m tools.nbtools student

otter: $(STAMP) $(NUMBERS)
	$(BIN)/python -m tools.nbtools otter

nbgrader: $(STAMP) $(NUMBERS)
	$(BIN)/python -m tools.nbtools nbgrader

# The graders live in an environment of their own (requirements-classroom.txt
# says why); `make classroom-check` runs them, as book/teachers.md tells a
# teacher to, on the solutions, the blank student edition and one wrong answer.
CLASSROOM_VENV  := .venv-classroom
CLASSROOM_STAMP := $(CLASSROOM_VENV)/.installed

classroom-venv: $(CLASSROOM_STAMP)

$(CLASSROOM_STAMP): requirements-classroom.txt
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
		|| { echo "Python 3.11 or newer is needed (found: $$($(PYTHON) --version))"; exit 1; }
	test -x $(CLASSROOM_VENV)/bin/python || $(PYTHON) -m venv $(CLASSROOM_VENV)
	$(CLASSROOM_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-classroom.txt
	touch $(CLASSROOM_STAMP)

# Side by side: the student editions run whole (the tests
# marked "classroom", in the book's .venv, on two workers) while, in one
# process at a time, .venv-classroom installs and the graders run. Neither
# writes where the other reads: both work in pytest's temporary folders.
# In four runs of .ci/run on fresh clones (2 cores of an Intel Xeon,
# 2026-12-03, in the order old, new, new, old) this stage took 202 and
# 228 s side by side, against 252 and 233 s one after the other; 348 to
# 432 s side by side in three runs on 2 cores of an AMD EPYC.
classroom-check: $(STAMP)
	$(MAKE) --no-print-directory -j2 --output-sync=target classroom-check-graders classroom-check-students

classroom-check-graders: $(STAMP) $(CLASSROOM_STAMP)
	$(BIN)/python -m pytest tests/book/check_classroom.py
classroom-check-students: $(STAMP)
	$(BIN)/python -m pytest -n auto -m classroom tests/book/test_classroom.py

exercises: $(STAMP)
	$(BIN)/python -m tools.nbtools exercises

# Not a test: timings depend on the machine and its load. Prints a table of
# times and ratios; the appendix on fast tables shows the JSON it writes.
bench: $(STAMP)
	$(BIN)/python -m tools.bench_sinusoidal
	$(BIN)/python -m tools.bench_training
	$(BIN)/python -m tools.bench_widgets

# Not a test: chapter 6's design (its cells tagged "replicate") on set 0, the
# chapter's seeds, and on 9 further sets of 16 seeds with test sets of their
# own, each with the fixed-budget control of the primary comparisons.
# One process, nice 10; the chapter shows what it stores.
replicate: $(STAMP)
	$(BIN)/python -m tools.replicate_length --sets 9

# Not a test either: Lighthouse's scores (performance above all) depend on
# the machine's load. Builds the book, serves it on 127.0.0.1 with gzip as a
# static host does, and prints the scores of the landing page and every
# chapter and appendix with the mobile and desktop presets, the median of 3
# runs each (reports in _build/lighthouse/).
lighthouse: $(STAMP) $(NODE_STAMP)
	$(MAKE) --no-print-directory book
	$(BIN)/python -m tools.lighthouse _build/html

lock:
	rm -rf .lock-venv && $(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet $$(sed -n '/used directly/,/pulled in/p' requirements.txt | grep '==')
	.lock-venv/bin/python -m pip freeze --exclude-editable
	@echo "Copy the pins above into the second block of requirements.txt."
	rm -rf .lock-venv

clean:
	rm -rf _build
