"""Draw the installable app's PNG icons from static/icons/app.svg with Chromium (the
browser tests' own), so that they are made again, not edited, when the SVG changes:

    PYTHONPATH=src .venv/bin/python scripts/make-icons.py

The SVG fills its square and keeps the tile inside the middle 80 %, the safe zone of a
maskable icon, so one drawing serves as "any" and "maskable" icon.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent.parent / "src" / "triominos" / "server" / "static" / "icons"
SIZES = (192, 512)


def main() -> None:
    svg = (ICONS / "app.svg").read_text(encoding="utf-8")
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True)
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f'<body style="margin:0">{sized}</body>')
            page.screenshot(path=str(ICONS / f"app-{size}.png"), omit_background=True)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
