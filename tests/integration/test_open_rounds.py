"""Rounds left open (by a crash, or a terminal that went quiet) are listed, open since when."""

from __future__ import annotations

from datetime import timedelta

from ledger.audit.verification.open_rounds import open_rounds
from ledger.audit.verification.verify import verify_ledger
from ledger.commands.round import OpenRound, VoidRound
from tests.integration.round_helpers import baccarat_table
from tests.signing import open_ledger


def test_a_round_never_settled_is_listed_open_since_its_first_event_and_flagged_when_quiet(
        settings, superuser):
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger)
        bac.send(OpenRound)
    [cut_off] = open_rounds(superuser)
    assert (cut_off.table, cut_off.number) == ("BAC-01", 1)
    assert not cut_off.is_stale()
    later = cut_off.last_event_at + timedelta(minutes=31)
    assert cut_off.is_stale(later)
    sentence = cut_off.describe(later)
    assert sentence.startswith("round 1 of BAC-01 open since ") and "Macau time" in sentence
    assert sentence.endswith("last event 31 min ago: cut off? settle or void it")
    assert any(note.startswith("round 1 of BAC-01 open since")
               for note in verify_ledger(superuser, projections=False).notes)


def test_a_round_voided_by_a_supervisor_is_no_longer_open(settings, superuser):
    with open_ledger(settings) as rt:
        bac = baccarat_table(rt.ledger)
        bac.send(OpenRound)
        assert [r.number for r in open_rounds(superuser)] == [1]
        bac.as_supervisor().send(VoidRound, reason="terminal crashed mid-coup")
    assert open_rounds(superuser) == []
