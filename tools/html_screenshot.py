"""Screenshot an exported kg HTML page in headless Chromium, after its layout has settled.

    .venv/bin/python tools/html_screenshot.py [PAGE.html] [OUT.png] [--search TEXT] [--paper TEXT]
        [--open-region ID]
    (defaults: out/graph.html and out/screenshot.png; --search types TEXT into the page's search box;
    map view only: --paper opens the panel of the first paper whose title holds TEXT, --open-region
    opens region ID on the map of regions)

`make screenshot` runs it on the demo page (docs/screenshot.png, the README's picture, is a copy of
its output for the seed graph) and `make screenshot-corpus` on the 22k-paper map
(docs/screenshot-corpus.png). The browser tests call :func:`screenshot` too. Uses the same Chromium
and flags as the browser tests (tests/fixtures/browser.py). Prints how long the page took to load
and settle, and fails (exit 1) if the page logged an error, raised, opened a dialog or requested
anything but its own file.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.fixtures.browser import CHROMIUM, CHROMIUM_ARGS, VIEWPORT  # noqa: E402

SETTLED = "() => document.body.dataset.stabilized === 'true'"


def screenshot(page_path: Path, out_path: Path, search: str | None = None,
               timeout_ms: float = 120_000, paper: str | None = None,
               open_region: int | None = None) -> float:
    """Load ``page_path``, wait for the layout to settle, write ``out_path``; return the seconds taken.

    Raises:
        RuntimeError: the page logged a console error, raised, opened a dialog or made a request.
    """
    from playwright.sync_api import Dialog, sync_playwright

    url = page_path.resolve().as_uri()
    problems: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            page = browser.new_page(viewport=VIEWPORT)
            page.on("console", lambda m: problems.append(f"console: {m.text}") if m.type == "error" else None)
            page.on("pageerror", lambda e: problems.append(f"exception: {e}"))
            def _dialog(dialog: Dialog) -> None:
                problems.append(f"dialog: {dialog.message}")
                dialog.dismiss()

            page.on("dialog", _dialog)
            page.on("request", lambda r: problems.append(f"request: {r.url}") if r.url != url else None)
            started = time.perf_counter()
            page.goto(url, wait_until="load", timeout=timeout_ms)
            page.wait_for_function(SETTLED, timeout=timeout_ms)
            seconds = time.perf_counter() - started
            if open_region is not None:
                page.evaluate("(id) => kg.openRegion(id, true)", open_region)
            if search:
                page.fill("#kg-search", search)
            if paper:
                found = page.evaluate("""(text) => {
                  const i = kg.data.papers.findIndex(p => p.title.toLowerCase().includes(text.toLowerCase()));
                  if (i >= 0) { kg.panels.paper(i); }
                  return i;
                }""", paper)
                if found < 0:
                    problems.append(f"no paper title holds {paper!r}")
            out_path.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(out_path))
        finally:
            browser.close()
    if problems:
        raise RuntimeError("; ".join(problems))
    return seconds


def _option(argv: list[str], name: str) -> tuple[str | None, list[str]]:
    if name not in argv:
        return None, argv
    at = argv.index(name)
    return (argv[at + 1] if at + 1 < len(argv) else ""), argv[:at] + argv[at + 2:]


def main(argv: list[str]) -> int:
    search, argv = _option(argv, "--search")
    paper, argv = _option(argv, "--paper")
    region, argv = _option(argv, "--open-region")
    page_path = Path(argv[0]) if argv else REPO / "out" / "graph.html"
    out_path = Path(argv[1]) if len(argv) > 1 else REPO / "out" / "screenshot.png"
    if not page_path.is_file():
        print(f"html_screenshot: {page_path}: no such page (run `make demo` first)", file=sys.stderr)
        return 2
    try:
        seconds = screenshot(page_path, out_path, search, paper=paper,
                             open_region=int(region) if region is not None else None)
    except RuntimeError as exc:
        print(f"html_screenshot: {page_path}: {exc}", file=sys.stderr)
        return 1
    print(f"{page_path}: loaded and settled in {seconds:.2f} s; wrote {out_path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
