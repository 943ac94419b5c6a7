"""Pages checked in a real headless Chromium (Debian's package at /usr/bin/chromium): rendered,
screenshot, printed to PDF as an accountant would print them."""

from __future__ import annotations

import subprocess
import unicodedata
from pathlib import Path

import pytest

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
