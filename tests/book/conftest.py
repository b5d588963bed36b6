"""What the browser checks of the book share: the system's Chromium."""

from __future__ import annotations

import os

import pytest

from tools.headless import INSTALL_HINT, find_chromium


@pytest.fixture(scope="session")
def chromium():
    """Path of the system's Chromium. Without one, a test that needs it is
    skipped with a message saying so, unless ``POSENC_REQUIRE_BROWSER=1``
    (set by ``.ci/run``), which makes that an error."""
    path = find_chromium()
    if path is None:
        message = f"Chromium is not installed, so the browser checks cannot run: {INSTALL_HINT}"
        if os.environ.get("POSENC_REQUIRE_BROWSER") == "1":
            pytest.fail(message + " (POSENC_REQUIRE_BROWSER=1 makes this an error)", pytrace=False)
        pytest.skip(message)
    return path
