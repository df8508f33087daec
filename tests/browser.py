"""A real headless Chromium (Debian's `chromium` package) driven by Playwright for Python.

Playwright's own browser downloads are never used: it drives the system Chromium through
`executable_path`. Without Chromium (or Playwright) the browser tests skip on a developer's
machine and fail under CI=true, where .ci/run installs it.

Also a script: `python tests/browser.py REPORT.html SHOT.png [WIDTH HEIGHT [SELECTOR]]` takes a
screenshot of the top of a report, or of one element (how the README's data/report-clough*.png
were made, then reduced to 64 colours).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

# No GPU, no sandbox (CI runs as root), and nothing that reaches for the network on start-up.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--no-default-browser-check",
]


def chromium_path() -> str | None:
    """DEDUP_CHROMIUM (if that file exists), else `chromium` on PATH, else None."""
    given = os.environ.get("DEDUP_CHROMIUM")
    if given:
        return given if Path(given).is_file() else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


def missing_browser() -> str | None:
    """Why the browser tests cannot run here, or None if they can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install '.[test]')"
    if chromium_path() is None:
        return "Chromium is not installed (apt-get install chromium, or DEDUP_CHROMIUM=/path/to/chromium)"
    return None


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium with a fresh profile (Playwright makes a new user-data-dir per launch)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def screenshot(report: Path, out: Path, width: int = 1100, height: int = 1250, selector: str | None = None) -> None:
    with chromium() as browser:
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(report.resolve().as_uri())
        (page.locator(selector).first if selector else page).screenshot(path=str(out))


if __name__ == "__main__":
    sizes = [int(value) for value in sys.argv[3:5]]
    screenshot(Path(sys.argv[1]), Path(sys.argv[2]), *sizes, *sys.argv[5:6])  # type: ignore[arg-type]
