"""A write command says what it recorded in the floor's words, not the events' class names
(issue 15: "recorded BetSettled, BetSettled, ..., RoundFinished")."""

from __future__ import annotations

from uuid import uuid4

import ledger.domain.jackpot_pool  # noqa: F401 - every aggregate's events defined
import ledger.domain.receipt  # noqa: F401
import ledger.domain.gaming_day  # noqa: F401
import ledger.domain.registry  # noqa: F401
import ledger.domain.round  # noqa: F401
import ledger.domain.shift  # noqa: F401
import ledger.domain.shoe  # noqa: F401
import ledger.domain.table  # noqa: F401
from ledger.application import Recorded
from ledger.domain.base import Aggregate
from ledger.wording import ONE_AND_MANY, RECEIPT, describe


def _recorded_kinds() -> set[str]:
    found, waiting = set(), list(Aggregate.Event.__subclasses__())
    while waiting:
        kind = waiting.pop()
        waiting.extend(kind.__subclasses__())
        generated = (kind.__name__ == "Created"
                     and set(kind.model_fields) == set(Aggregate.Created.model_fields))
        if (kind.__module__.startswith("ledger.domain.") and not kind.__subclasses__()
                and not generated):  # the library's own `Created`, never recorded here
            found.add(kind.__qualname__)
    return found


def test_a_settled_round_says_how_many_bets_were_settled_without_its_receipt():
    said = Recorded(uuid4(), duplicate=False, events=tuple(
        (uuid4(), n, kind) for n, kind in enumerate(
            ["Round.BetSettled"] * 4 + ["Round.Settled", "Table.RoundFinished", RECEIPT])))
    assert said.summary() == "recorded: 4 bets settled, round settled, round finished"


def test_every_event_the_ledger_records_has_words_of_its_own():
    kinds = _recorded_kinds() - {RECEIPT}
    assert {"Round.BetSettled", "Shift.FillRecorded", "JackpotPool.Created",
            "GamingDay.Closed", "Table.ShiftOpened"} <= kinds
    assert sorted(kinds - set(ONE_AND_MANY)) == []


def test_an_event_nobody_worded_yet_is_still_said_in_words():
    assert describe(["Shoe.SealBroken"]) == "shoe: seal broken"
