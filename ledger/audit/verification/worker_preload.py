"""Loaded once by the server `ledger verify --workers N` forks its workers from
(`ledger.audit.verification.parallel` names it among the modules that server imports), so that no worker
loads or makes it again on its first commands: every area's handlers, every event and command
class, every game's round procedure and rule sets, and what each game prepares ahead
(`Game.prepare`: the Stud Poker hand values, made on the first hand valued: a seventh of a
second, which each worker would otherwise pay)."""

from __future__ import annotations

from ledger.application.bus import EVERY_AREA, Bus
from ledger.commands import build_command_classes
from ledger.domain.base import build_event_classes
from ledger.games.registry import GAMES, prepare

Bus(EVERY_AREA)
build_event_classes()
build_command_classes()
for _game in GAMES.values():
    _ = (_game.procedure, _game.settings_class)
prepare()
