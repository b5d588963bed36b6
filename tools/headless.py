"""The headless Chromium that the site checks, the PDF and the benchmarks drive.

Where the system's Chromium is (:func:`find_chromium`), what counts as a
request that leaves the machine (:func:`is_outside`), and a browser started
with a context that blocks every such request (:func:`launch`).
"""

from __future__ import annotations

import os
import shutil
import urllib.parse
from pathlib import Path

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
# Schemes that a page may load from: its own files, and data the page holds.
LOCAL_SCHEMES = {"file", "data", "blob", "about"}
INSTALL_HINT = "sudo apt-get update && sudo apt-get install -y chromium"


def find_chromium():
    """Path of the system's Chromium, or None. POSENC_CHROMIUM overrides."""
    override = os.environ.get("POSENC_CHROMIUM")
    if override:
        return override if Path(override).is_file() else None
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def is_outside(url):
    """True for a URL that would reach another host (http, https, //host...).

    A relative URL (no scheme) stays on the site.
    """
    url = url.strip()
    if url.startswith("//"):
        return True
    scheme = urllib.parse.urlsplit(url).scheme.lower()
    return bool(scheme) and scheme not in LOCAL_SCHEMES


def launch(p, chromium, *, timeout, **context):
    """Start ``chromium`` through Playwright's ``p``, and a context with the
    options ``context`` (viewport...) in which every request to another host
    is aborted and nothing waits longer than ``timeout`` ms. Returns
    ``(browser, context)``."""
    browser = p.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_FLAGS)
    return browser, new_context(browser, timeout=timeout, **context)


def new_context(browser, *, timeout, **context):
    """A new context of ``browser``, as :func:`launch` makes it: requests to
    another host aborted, no step waiting longer than ``timeout`` ms."""
    ctx = browser.new_context(service_workers="block", **context)
    ctx.set_default_timeout(timeout)
    ctx.route(lambda url: is_outside(url), lambda route: route.abort())
    return ctx
