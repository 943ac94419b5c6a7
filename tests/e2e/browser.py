"""Pages checked in a real headless Chromium (Debian's package at /usr/bin/chromium): rendered,
screenshot, printed to PDF as an accountant would print them."""

from __future__ import annotations

import subprocess
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ledger.core import clock as ledger_clock

CHROMIUM = Path("/usr/bin/chromium")
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="Chromium is not installed at /usr/bin/chromium (Debian: apt-get install -y "
           "chromium); the pages are only checked in a real browser",
)


def chromium(tmp_path: Path, page: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", *extra,
         page.as_uri()],
        capture_output=True, text=True, timeout=120, check=False,
    )


def printed_text(tmp_path: Path, page: Path) -> str:
    """The page printed to PDF by Chromium (A4, no browser header or footer), read back as
    text: what a printed copy in the file says."""
    from pypdf import PdfReader

    pdf = tmp_path / (page.stem + ".pdf")
    done = chromium(tmp_path, page, f"--print-to-pdf={pdf}", "--no-pdf-header-footer")
    assert pdf.exists() and pdf.read_bytes()[:5] == b"%PDF-", done.stderr
    text = "\n".join(p.extract_text() for p in PdfReader(pdf).pages)
    return unicodedata.normalize("NFKC", text)  # the PDF's ligatures (ﬂ, ﬁ) as letters


@dataclass(frozen=True)
class PrintedPage:
    """One sheet of a page printed to PDF: its size in points, its text, and where the text
    starts furthest left and right (points from the sheet's left edge)."""

    width: float
    height: float
    text: str
    leftmost: float
    rightmost: float

    @property
    def flat(self) -> str:
        return " ".join(self.text.split())


def printed_pages(tmp_path: Path, page: Path) -> list[PrintedPage]:
    """The page printed to PDF by Chromium as it asks to be printed (its own @page size and
    margin boxes, no browser header or footer), sheet by sheet."""
    from pypdf import PdfReader

    pdf = tmp_path / (page.stem + ".pdf")
    done = chromium(tmp_path, page, f"--print-to-pdf={pdf}", "--no-pdf-header-footer")
    assert pdf.exists() and pdf.read_bytes()[:5] == b"%PDF-", done.stderr
    return [_sheet(sheet) for sheet in PdfReader(pdf).pages]


def _sheet(sheet: Any) -> PrintedPage:
    starts: list[float] = []

    def seen(text: str, cm: list[float], tm: list[float], *_: object) -> None:
        if text.strip():  # where the text is drawn: the text matrix in the page's space
            starts.append(tm[4] * cm[0] + tm[5] * cm[2] + cm[4])

    text = unicodedata.normalize("NFKC", sheet.extract_text(visitor_text=seen))
    box = sheet.mediabox
    return PrintedPage(float(box.width), float(box.height), text, min(starts, default=0.0),
                       max(starts, default=0.0))


class _OnTheRunsClock:
    """A browser whose pages keep the run's time (`tests/clock.py`), as a floor terminal keeps
    the server's: a page's own clock dates what it signs (a sign-in)."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser

    def new_page(self, **options: Any) -> Any:
        page = self.browser.new_page(**options)
        page.clock.install(time=ledger_clock.now())
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self.browser, name)


@contextmanager
def headless_chromium() -> Iterator[Any]:
    """Chromium driven by Playwright, for what a page measures on screen; its pages' clocks
    run from the run's time."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM),
                                         args=["--no-sandbox", "--disable-gpu"])
        try:
            yield _OnTheRunsClock(browser)
        finally:
            browser.close()


OVERFLOWING_TABLES = """() => {
  const edge = document.documentElement.clientWidth;
  const over = [];
  for (const t of document.querySelectorAll('table')) {
    const name = t.id || 'a table';
    let right = edge;  // the nearest edge that clips it: the window's or a scrolling box's
    for (let box = t.parentElement; box && box !== document.documentElement;
         box = box.parentElement) {
      if (getComputedStyle(box).overflowX === 'visible') continue;
      right = Math.min(right, box.getBoundingClientRect().right);
      if (box.scrollWidth > box.clientWidth + 0.5)
        over.push(`${name} scrolls in its box (${box.scrollWidth}px in ${box.clientWidth}px)`);
    }
    const end = t.getBoundingClientRect().right;
    if (end > right + 0.5 || t.scrollWidth > t.clientWidth)
      over.push(`${name} ends at ${end}px of ${right}px`);
    for (const cell of t.querySelectorAll('td, th'))
      if (cell.scrollWidth > cell.clientWidth + 1)
        over.push(`${name}: "${cell.textContent.trim()}" runs out of its cell`);
  }
  if (document.documentElement.scrollWidth > window.innerWidth)
    over.push(`the page is ${document.documentElement.scrollWidth}px wide`);
  return over;
}"""
"""Script: what runs off the right edge of the window or of a box that scrolls or clips it (each
table, each cell whose text runs out of it, or the page itself)."""


CONTRASTS = """(selector) => {
  const parse = text => {
    const m = text.match(/rgba?\\(([^)]*)\\)/);
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    const a = p.length > 3 ? p[3] : 1;
    return [p[0] / 255 * a, p[1] / 255 * a, p[2] / 255 * a, a];  // premultiplied
  };
  const over = (s, d) => s.map((v, i) => v + d[i] * (1 - s[3]));
  const white = [1, 1, 1, 1];
  const paint = (chain, i, top) => {  // what chain[i] and what it holds paint, over nothing
    const style = getComputedStyle(chain[i]);
    const inner = i === chain.length - 1 ? top : paint(chain, i + 1, top);
    const painted = over(inner, parse(style.backgroundColor));
    return painted.map(v => v * Number(style.opacity));
  };
  const luminance = c => {
    const [r, g, b] = c.map(v => v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const seen = [];
  for (const element of document.querySelectorAll(selector + ', ' + selector + ' *')) {
    const own = [...element.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent)
      .join('').trim();
    if (!own || !element.getClientRects().length) continue;
    const chain = [];
    for (let node = element; node; node = node.parentElement) chain.unshift(node);
    const text = over(paint(chain, 0, parse(getComputedStyle(element).color)), white);
    const ground = over(paint(chain, 0, [0, 0, 0, 0]), white);
    const [light, dark] = [luminance(text), luminance(ground)].sort((x, y) => y - x);
    seen.push({text: own, ratio: (light + 0.05) / (dark + 0.05)});
  }
  return seen;
}"""
"""Script: the contrast of each piece of text in the elements `selector` picks against what is
painted behind it, as WCAG counts it, the opacity and backgrounds of every ancestor included."""
