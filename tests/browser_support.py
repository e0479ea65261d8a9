"""What every browser test shares: Debian's Chromium, how it is started, where pictures go."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",  # this machine's closed network refuses the rest
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).parent.parent / "test-artifacts"
MARKS = [
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason="needs Debian's chromium (installed by .ci/run)"
    ),
    pytest.mark.browser,
]
"""The ``pytestmark`` of a browser test module."""


def launched_chromium(playwright_api: Any) -> Iterator[Any]:
    """One headless Chromium for a module's tests; Playwright never downloads a browser."""
    os.environ["PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD"] = "1"
    with playwright_api.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()
