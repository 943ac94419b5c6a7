"""A count is said with its noun in the number it is (`1 witness`, `2 witnesses`), never as
`witness(es)` or `coup(s)`: every message, screen and page of the product."""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import ledger
from ledger.core.formatting import counted

PRODUCT = Path(ledger.__file__).parent
EITHER = re.compile(r"[a-z]\((?:s|es)\)")


def _strings(path: Path) -> list[tuple[int, str]]:
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text()).readline)
    return [(t.start[0], t.string) for t in tokens if t.type == tokenize.STRING]


def test_no_message_says_witness_es_or_coup_s_for_one_or_many():
    said = [f"{path.relative_to(PRODUCT)}:{line}: {text}"
            for path in sorted(PRODUCT.rglob("*.py"))
            for line, text in _strings(path) if EITHER.search(text)]
    said += [f"{path.relative_to(PRODUCT)}: {text}"
             for path in sorted(PRODUCT.rglob("*.html"))
             for text in EITHER.findall(path.read_text())]
    assert not said, "\n".join(said)


def test_one_witness_and_two_witnesses():
    assert [counted(n, "witness", "witnesses") for n in (1, 2)] == ["1 witness", "2 witnesses"]


def test_the_demos_staff_count_says_it_counts_signers_among_the_enrolled_staff_list_lists():
    """The demo said "29 enrolled staff" where `ledger staff list` lists 31: it counted the staff
    who signed a command; it now says both, each for what it is."""
    from ledger.cli.demo import who_acted

    said = who_acted(5804, 5804, 29, 31, 17, 17)
    assert "signed by 29 of the 31 enrolled staff at 17 of the 17 registered terminals" in said
    assert "`ledger staff list`" in said
