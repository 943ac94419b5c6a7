"""A shuffler that failed is said as far as it got: before any card was dealt, after 1 card,
after 7 cards; never "after 0 cards"."""

from __future__ import annotations

from ledger.simulation.table import shuffler_stopped
from ledger.web.happenings import sentence


def test_a_shuffler_that_stopped_before_any_card_says_so_in_words():
    note = f"{shuffler_stopped('SHF-QP-01-1', 0)}; replaced"
    said = sentence(9, "D-QP-01-1", "Round.IrregularityRecorded",
                    {"kind": "shuffler_failure", "note": note, "consequence": "round_void"})
    assert said == ("round 9, dealer D-QP-01-1: shuffler failure (the shuffler SHF-QP-01-1 "
                    "stopped before any card was dealt; replaced), round void")
    assert "0 cards" not in said


def test_a_shuffler_that_stopped_mid_deal_counts_the_cards_dealt():
    assert shuffler_stopped("SHF-SP-01-2", 1).endswith("stopped after 1 card")
    assert shuffler_stopped("SHF-SP-01-2", 7).endswith("stopped after 7 cards")
