"""The `make lab` path, checked with a real client (``make lab-check``).

Not part of ``make test`` (its file name does not start with ``test_``):
it needs JupyterLab and jupyterlab-myst (requirements-lab.txt, which
``make lab-check`` installs as ``make lab`` does) and takes about a minute.

One session, recorded by the ``session`` fixture and judged by the tests:

1. A copy of a chapter (outputs cleared, one probe cell added after the
   imports) goes into an empty folder, and JupyterLab from ``.venv`` starts
   there on 127.0.0.1 with a random token, a free port, and configuration,
   data and runtime folders of its own.
2. Headless Chromium (the system's, driven by the pinned playwright package,
   as in tests/book/test_site_visit.py) opens the chapter. Every request to anything
   but the server is recorded and blocked.
3. The first exercise must render as jupyterlab-myst's exercise admonition;
   no rendered markdown may show directive text such as ``:label:``, nor an
   unknown directive; an interactive figure shows as a box that says where it is.
4. The chapter runs from its first code cell (the bootstrap cell) to its
   first cell with stored output, with Shift+Enter as a reader would; the
   output must appear and equal the stored one, and the probe cell shows
   that the kernel imported ``posenc`` from this repository.
5. The server is stopped by its process id (SIGTERM), with bounded waits,
   and it and its kernel must be gone.

Screenshots go to ``_build/screenshots/``: ``lab.png`` (the cells that
ran) and ``lab-exercise.png`` (the first exercise).
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import nbformat
import pytest

from tools import classroom, nbtools
from tools.paths import BOOK, ROOT


BIN = Path(sys.executable).parent  # the .venv that runs the tests
# chapter 2: exercises, and interactive figures, which only the HTML book draws
CHAPTER = BOOK / "02_sines.ipynb"
SCREENSHOT = ROOT / "_build" / "screenshots" / "lab.png"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run"]
START_TIMEOUT = 120  # seconds for the server to answer
STOP_TIMEOUT = 30  # seconds for the server and its kernel to exit after SIGTERM
CELL_TIMEOUT = 120_000  # milliseconds for a cell to run (a loaded machine is slow)
RENDER_TIMEOUT = 60_000  # milliseconds for jupyterlab-myst to render the exercise
PROBE = 'print("posenc imported from", posenc.__file__)'


def chromium():
    path = os.environ.get("POSENC_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path or not Path(path).is_file():
        pytest.fail("Chromium is needed for the JupyterLab check: sudo apt-get install -y chromium",
                    pytrace=False)
    return path


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def is_local(url, port):
    parts = urllib.parse.urlsplit(url)
    return parts.scheme in ("data", "blob", "about") or (parts.hostname == "127.0.0.1" and parts.port == port)


def chapter_copy(folder):
    """Write the chapter to ``folder`` with its outputs cleared and the probe
    cell after its imports. Returns the path and a dict: the index of the
    bootstrap cell, of the probe cell and of the first code cell with stored
    output (``first_out``), the execution count each of them gets when the
    chapter runs from the top, and the stored text of ``first_out``."""
    nb = nbformat.read(CHAPTER, as_version=4)
    first_out = next(c for c in nb.cells if c.cell_type == "code" and c.outputs)
    stored = "".join(o.get("text", "") or o.get("data", {}).get("text/plain", "") for o in first_out.outputs)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    imports = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code" and not nbtools.is_bootstrap(c))
    nb.cells.insert(imports + 1, nbformat.v4.new_code_cell(PROBE))
    where = {"boot": next(i for i, c in enumerate(nb.cells) if nbtools.is_bootstrap(c)),
             "probe": imports + 1,
             "first_out": next(i for i, c in enumerate(nb.cells) if c is first_out)}
    counts = {role: f"[{sum(c.cell_type == 'code' for c in nb.cells[:i + 1])}]:" for role, i in where.items()}
    path = folder / CHAPTER.name
    nbformat.write(nb, path)
    return path, {"cells": where, "counts": counts, "stored": stored, "n_cells": len(nb.cells)}


def wait_for_server(proc, url, deadline):
    """Poll the server's status API until it answers, it exits, or the deadline passes."""
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as reply:
                if reply.status == 200:
                    return True
        except OSError:
            pass
        try:
            proc.wait(timeout=0.5)  # also the pause between polls
            return False  # it exited
        except subprocess.TimeoutExpired:
            pass
    return False


def remote_addresses(procs):
    """Remote (address, port) of every inet connection of ``procs``."""
    import psutil

    found = set()
    for p in procs:
        try:
            for conn in p.net_connections(kind="inet"):
                if conn.raddr:
                    found.add((conn.raddr.ip, conn.raddr.port))
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    return found


def stop(proc):
    """SIGTERM to the server's pid, then bounded waits. Returns what happened."""
    import psutil

    children = psutil.Process(proc.pid).children(recursive=True)
    started = time.monotonic()
    os.kill(proc.pid, signal.SIGTERM)
    try:
        code = proc.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        code = None
    _, alive = psutil.wait_procs(children, timeout=max(1.0, STOP_TIMEOUT - (time.monotonic() - started)))
    result = {"exit": code, "seconds": round(time.monotonic() - started, 1),
              "children": [c.pid for c in children], "left": [c.pid for c in alive]}
    # Never leave anything behind, whatever the tests then say.
    if code is None:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    for c in alive:
        try:
            c.kill()
        except psutil.NoSuchProcess:
            pass
    return result


EXERCISE_JS = """label => {
    const box = document.getElementById(label);
    return box && box.classList.contains("myst-exercise") && {
        tag: box.tagName, classes: [...box.classList],
        title: (box.querySelector(".myst-exercise-title") || {}).textContent || "",
        inMarkdownCell: Boolean(box.closest(".jp-MarkdownCell")),
    };
}"""

# The text of every rendered markdown cell (jupyterlab-myst renders into .myst);
# textContent, not innerText, which is empty for cells scrolled out of view.
RENDERED_TEXT_JS = """() => [...document.querySelectorAll(".jp-Notebook .jp-MarkdownCell")]
    .map(c => { const r = c.querySelector(".myst, .jp-RenderedMarkdown"); return r ? r.textContent : null; })"""

# Cell i of the notebook (JupyterLab adds the cells to the page progressively).
CELL_JS = """i => document.querySelector(`.jp-Notebook .jp-Cell[data-windowed-list-index="${i}"]`)"""
PROMPT_JS = f"""i => {{
    const prompt = ({CELL_JS})(i)?.querySelector(".jp-InputPrompt");
    return prompt ? prompt.innerText.trim() : null;
}}"""
OUTPUT_JS = f"""i => {{
    const area = ({CELL_JS})(i)?.querySelector(".jp-OutputArea");
    return area ? [...area.querySelectorAll(".jp-OutputArea-output")].map(o => o.innerText).join("") : null;
}}"""
CELL_COUNT_JS = """() => document.querySelectorAll(".jp-Notebook .jp-Cell").length"""


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    if not (BIN / "jupyter-lab").is_file():
        pytest.fail(f"JupyterLab is not installed in {BIN.parent}: run `make lab-check`, which "
                    "installs requirements-lab.txt", pytrace=False)
    browser_path = chromium()
    home = tmp_path_factory.mktemp("lab")
    root = home / "root"
    root.mkdir()
    path, plan = chapter_copy(root)
    exercise = classroom.find_exercises(nbformat.read(CHAPTER, as_version=4))[0][0]
    port, token = free_port(), secrets.token_hex(16)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "JPY_"))}
    env.update(JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_DATA_DIR=str(home / "data"),
               JUPYTER_RUNTIME_DIR=str(home / "runtime"), JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"))
    command = [str(BIN / "jupyter-lab"), "--no-browser", "--allow-root",
               "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}",
               "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    log = (home / "server.log").open("w")
    proc = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=root,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    record = {"pid": proc.pid, "outside": [], "websockets": [], "console": [], "stop": None,
              "exercise_label": exercise.label, "exercise_title": exercise.title,
              "plan": plan, "log": home / "server.log"}
    started = time.monotonic()
    try:
        base = f"http://127.0.0.1:{port}"
        up = wait_for_server(proc, f"{base}/api/status?token={token}", started + START_TIMEOUT)
        record["up"], record["start_seconds"] = up, round(time.monotonic() - started, 1)
        if up:
            record.update(drive_browser(browser_path, base, token, path.name, port, record, home))
        import psutil
        procs = [psutil.Process(proc.pid), *psutil.Process(proc.pid).children(recursive=True)]
        record["remote"] = {a for a in remote_addresses(procs)}
    finally:
        record["stop"] = stop(proc) if proc.poll() is None else {"exit": proc.returncode, "seconds": 0,
                                                                 "children": [], "left": []}
        log.close()
    record["total_seconds"] = round(time.monotonic() - started, 1)
    print(f"\nJupyterLab check: server up in {record['start_seconds']} s, session "
          f"{record['total_seconds']} s, stopped in {record['stop']['seconds']} s")
    return record


def drive_browser(browser_path, base, token, name, port, record, home):
    """Open the chapter, look at its exercise, run its first cells. Each wait
    is bounded; one that runs out is noted in ``waits`` and the tests say
    what is missing."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import sync_playwright

    seen = {"waits": []}
    plan = record["plan"]
    where, n_cells = plan["cells"], plan["n_cells"]
    boot, first_out = where["boot"], where["first_out"]
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(home / "profile"), executable_path=browser_path, headless=True, args=CHROMIUM_FLAGS,
            viewport={"width": 1280, "height": 1000}, service_workers="block")
        context.set_default_timeout(RENDER_TIMEOUT)

        def block(route):
            record["outside"].append(route.request.url)
            route.abort()

        context.route(lambda url: not is_local(url, port), block)
        page = context.new_page()
        page.on("websocket", lambda ws: record["websockets"].append(ws.url))
        page.on("pageerror", lambda e: record["console"].append(f"uncaught exception: {e}"))

        def wait(what, js, arg=None, timeout=RENDER_TIMEOUT):
            try:
                page.wait_for_function(js, arg=arg, timeout=timeout)
                return True
            except PlaywrightTimeout:
                seen["waits"].append(f"gave up after {timeout / 1000:.0f} s waiting for {what}")
                return False

        page.goto(f"{base}/lab/tree/{name}?token={token}")
        wait(f"the {n_cells} cells of the notebook", f"() => ({CELL_COUNT_JS})() === {n_cells}")
        wait("an idle kernel",
             "() => document.querySelector('.jp-Notebook-ExecutionIndicator')?.dataset.status === 'idle'")

        # The first exercise, once jupyterlab-myst has rendered it.
        label = record["exercise_label"]
        wait(f"the exercise {label}", f"label => Boolean(({EXERCISE_JS})(label))", label)
        seen["exercise"] = page.evaluate(EXERCISE_JS, label)
        # Every markdown cell, once jupyterlab-myst has rendered them all (it
        # renders cell by cell: on a busy machine the last ones come later).
        wait("every markdown cell rendered", f"() => ({RENDERED_TEXT_JS})().every(t => t !== null)")
        seen["rendered_text"] = page.evaluate(RENDERED_TEXT_JS)

        # Run from the bootstrap cell to the first cell with output, as a
        # reader would: select the cell, then Shift+Enter, Shift+Enter, ...
        page.locator(f'.jp-Notebook .jp-Cell[data-windowed-list-index="{boot}"] .jp-InputPrompt').click()
        page.keyboard.press("Escape")  # command mode
        for _ in range(boot, first_out + 1):
            page.keyboard.press("Shift+Enter")
        for role, i in where.items():
            wait(f"the {role} cell (cell {i + 1}) to run",
                 f"() => /^\\[\\d+\\]:$/.test(({PROMPT_JS})({i}) || '')", timeout=CELL_TIMEOUT)
        seen["prompts"] = {role: page.evaluate(PROMPT_JS, i) for role, i in where.items()}
        seen["outputs"] = {role: page.evaluate(OUTPUT_JS, i) for role, i in where.items()}
        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOT))
        page.evaluate("label => document.getElementById(label)?.scrollIntoView()", label)
        page.screenshot(path=str(SCREENSHOT.with_name("lab-exercise.png")))
        context.close()
    return seen


# --- the tests: each judges one part of the session --------------------------


def test_server_answers_on_127_0_0_1_with_a_token(session):
    assert session["up"], f"JupyterLab did not answer within {START_TIMEOUT} s; see {session['log']}"


def test_every_wait_ended_in_time(session):
    assert session.get("waits") == [], session.get("waits")


def test_exercise_renders_as_an_admonition(session):
    box = session.get("exercise")
    assert box, f"no element with the id {session['exercise_label']}: jupyterlab-myst did not render the exercise"
    assert box["inMarkdownCell"] and "myst-exercise" in box["classes"], box
    assert box["title"].startswith("Exercise") and session["exercise_title"] in box["title"], box


def test_no_directive_text_in_rendered_markdown(session):
    texts = session.get("rendered_text") or []
    assert texts and None not in texts, f"markdown cells left unrendered: {texts}"
    raw = [t[:120] for t in texts if ":label:" in t or ":class:" in t or ":::{" in t or "```{" in t]
    assert not raw, f"markdown cells show MyST directive text: {raw}"
    unknown = [t[:120] for t in texts if "Unknown Directive" in t or "Unknown Role" in t]
    assert not unknown, f"jupyterlab-myst does not know what these cells use: {unknown}"


def test_an_interactive_figure_says_where_it_is(session):
    """The HTML book draws the interactive figures; JupyterLab shows a box
    that says so, with the caption, instead of an unknown directive."""
    boxes = [t for t in session.get("rendered_text") or [] if t and "Interactive figure (in the HTML book)" in t]
    assert boxes, "no interactive figure's box in chapter 2"
    # every caption opens so (test_widgets' test_captions_speak_to_each_reader)
    assert all("In the HTML book you can" in t for t in boxes), boxes


def test_first_code_cells_run_and_the_kernel_imported_posenc(session):
    plan, prompts, outputs = session["plan"], session.get("prompts"), session.get("outputs")
    assert prompts == plan["counts"], f"execution counts {prompts}, expected {plan['counts']}"
    assert outputs["boot"] == "", f"the bootstrap cell printed {outputs['boot']!r}; it must be quiet"
    expected = f"posenc imported from {ROOT / 'posenc' / '__init__.py'}"
    assert outputs["probe"].strip() == expected, outputs["probe"]
    assert outputs["first_out"].strip() == plan["stored"].strip(), (
        f"the first output differs from the stored one:\n{outputs['first_out']!r}\n{plan['stored']!r}")


def test_no_request_leaves_127_0_0_1(session):
    assert session["outside"] == [], f"the page asked for {session['outside']}"
    assert session["websockets"] and all(u.startswith("ws://127.0.0.1:") for u in session["websockets"]), (
        session["websockets"])
    outside = {a for a in session["remote"] if a[0] != "127.0.0.1"}
    assert not outside, f"the server or its kernel is connected to {outside}"


def test_no_uncaught_exception_in_the_page(session):
    assert session["console"] == [], session["console"]


def test_server_stops_by_its_pid(session):
    stop = session["stop"]
    assert stop["exit"] is not None, f"JupyterLab (pid {session['pid']}) ignored SIGTERM for {STOP_TIMEOUT} s"
    assert stop["children"], "no kernel process was seen under the server"
    assert stop["left"] == [], f"processes {stop['left']} outlived the server"
