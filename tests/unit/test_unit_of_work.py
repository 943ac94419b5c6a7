"""A handler reads each stream by its kind, and each command class is paired with a handler
that takes it: a stream of another kind, or a handler under another command, is refused in a
sentence, never met later as a bare attribute error."""

from __future__ import annotations

from pathlib import Path

import pytest

from ledger.application.bus import EVERY_AREA, Bus, HandlerMismatch, registered
from ledger.application.handlers.rounds import open_round, place_bet
from ledger.application.handlers.unit_of_work import handles
from ledger.commands.round import OpenRound, PlaceBet
from ledger.commands.table import OpenTable
from ledger.core.errors import NotFound, WrongKind
from ledger.domain.base import Aggregate
from ledger.domain.jackpot_pool import JackpotPool
from ledger.domain.round import Round, round_id
from ledger.domain.table import Table, table_id
from tests.unit.handlers.floor import Floor

ROOT = Path(__file__).resolve().parents[2]


def test_a_stream_read_as_another_kind_is_refused_in_a_sentence_naming_both_kinds():
    floor = Floor()
    floor.table("BAC-01", "baccarat")
    stream = table_id("BAC-01")
    with pytest.raises(WrongKind) as refusal:
        floor.uow.load(Round, stream, "round 3 of table BAC-01")
    assert str(refusal.value) == (f"round 3 of table BAC-01 cannot be read as a round: its "
                                  f"stream {stream} holds a table.")
    with pytest.raises(WrongKind, match=f"^stream {stream} holds a table, not a jackpot pool.$"):
        floor.uow.get(JackpotPool, stream)
    assert isinstance(refusal.value, NotFound)  # over HTTP: 404, not_found


def test_a_stream_of_its_own_kind_is_read_as_that_kind_and_a_missing_one_is_not_found():
    floor = Floor()
    floor.baccarat("BAC-01")
    assert floor.uow.load(Table, table_id("BAC-01"), "table BAC-01").code == "BAC-01"
    assert floor.uow.load(Round, round_id(table_id("BAC-01"), 1), "round 1").number == 1
    assert isinstance(floor.uow.load(Aggregate, table_id("BAC-01"), "the stream"), Table)
    assert floor.uow.get(Round, round_id(table_id("BAC-01"), 2)) is None
    with pytest.raises(NotFound, match="^round 2 of table BAC-01 does not exist.$"):
        floor.uow.load(Round, round_id(table_id("BAC-01"), 2), "round 2 of table BAC-01")


def test_every_area_pairs_each_command_class_with_a_handler_that_takes_it():
    bus = Bus(EVERY_AREA)
    assert bus.handler_for(PlaceBet) is place_bet
    assert OpenTable in bus.commands()


def test_a_handler_registered_under_another_command_is_refused_when_the_bus_is_built():
    wrong = handles(PlaceBet, open_round)  # type: ignore[arg-type]  # the mistake under test
    with pytest.raises(HandlerMismatch) as refusal:
        registered((handles(OpenRound, open_round), wrong))
    assert str(refusal.value) == ("open_round is registered to handle PlaceBet, but it takes "
                                  "OpenRound: pair each command class with its own handler.")


def test_a_command_class_registered_twice_is_refused():
    with pytest.raises(HandlerMismatch, match="^PlaceBet is registered twice"):
        registered((handles(PlaceBet, place_bet),), (handles(PlaceBet, place_bet),))


def test_the_type_checker_refuses_a_handler_registered_under_another_command(tmp_path):
    api = pytest.importorskip("mypy.api")
    table = tmp_path / "table.py"
    table.write_text(
        "from ledger.application.handlers.rounds import open_round, place_bet\n"
        "from ledger.application.handlers.unit_of_work import Handlers, handles\n"
        "from ledger.commands.round import OpenRound, PlaceBet\n"
        "HANDLERS: Handlers = (handles(OpenRound, open_round), handles(PlaceBet, open_round))\n")
    said, _, status = api.run(["--strict", "--no-incremental", "--cache-dir",
                               str(tmp_path / "cache"), "--config-file",
                               str(ROOT / "pyproject.toml"), str(table)])
    assert status == 1, said
    assert said.count("error:") == 1 and 'Argument 2 to "handles"' in said, said
    assert "table.py:4:" in said, said
