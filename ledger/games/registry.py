"""Every game the ledger plays, by its code: `GAMES` and `game(code)`.

>>> game("stud-poker").name
'Stud Poker'
>>> [g.code for g in GAMES.values()]
['stud-poker', 'q-poker', 'fortune-8', 'baccarat']

A game is added by writing its package and listing its `GAME` here (docs/adding-a-game.md).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING

from ledger.core.errors import InvalidInput
from ledger.games.baccarat.game import GAME as BACCARAT
from ledger.games.fortune8.game import GAME as FORTUNE_8
from ledger.games.protocol import Game
from ledger.games.q_poker.game import GAME as Q_POKER
from ledger.games.stud_poker.game import GAME as STUD_POKER

if TYPE_CHECKING:
    from ledger.games.facts import Procedure
    from ledger.games.rulesets import RuleSet
    from ledger.games.settings import HouseSettings

_ALL: tuple[Game, ...] = (STUD_POKER, Q_POKER, FORTUNE_8, BACCARAT)

_BY_CODE: dict[str, Game] = {g.code: g for g in _ALL}

GAMES: Mapping[str, Game] = MappingProxyType(_BY_CODE)
"""Each game by its code, in the order of the rule sets."""


def register(new: Game, rule_sets: Sequence[RuleSet]) -> None:
    """Play a game this list does not name, with its rule sets (oldest first), until
    `unregister`: how a test plays a game of its own through the whole ledger. The product's
    games are listed above (docs/adding-a-game.md)."""
    from ledger.games.rulesets import add_rule_sets

    if new.code in _BY_CODE:
        raise InvalidInput(f"the game {new.code} is already registered.")
    add_rule_sets(new.code, rule_sets)
    _BY_CODE[new.code] = new


def unregister(code: str) -> None:
    """Forget a game `register` added; the product's own games stay."""
    if code in {g.code for g in _ALL}:
        raise InvalidInput(f"the game {code} is one of the ledger's own: it stays registered.")
    from ledger.games.rulesets import remove_rule_sets

    _BY_CODE.pop(code, None)
    remove_rule_sets(code)


def game(code: str) -> Game:
    """The game with this code; `InvalidInput` with the known games for any other.

    >>> game("poker")
    Traceback (most recent call last):
    ...
    ledger.core.errors.InvalidInput: unknown game 'poker': known are stud-poker, q-poker, fortune-8, baccarat.
    """
    found = GAMES.get(code)
    if found is None:
        raise _unknown(code)
    return found


def game_code(given: str) -> str:
    """A game as a person gives it, wherever one is given: its code (`fortune-8`) or its name
    in words as every screen prints it (`Fortune 8`), in any case; its code back.

    >>> game_code("Fortune 8"), game_code("fortune-8"), game_code(" stud poker "), game_code("Q POKER")
    ('fortune-8', 'fortune-8', 'stud-poker', 'q-poker')
    """
    wanted = _key(given)
    found = next((g.code for g in GAMES.values() if wanted in (_key(g.code), _key(g.name))), None)
    if found is None:
        raise _unknown(given)
    return found


def _key(text: str) -> str:
    """A code and a name compared alike: `Fortune 8`, `fortune-8` and `FORTUNE_8` are one."""
    return "-".join(re.split(r"[\s_-]+", text.strip().casefold()))


def _unknown(given: str) -> InvalidInput:
    return InvalidInput(f"unknown game '{given}': known are {', '.join(GAMES)}.")


def floor_order() -> tuple[str, ...]:
    """The games' codes in the order the floor simulator spreads its tables over them."""
    return tuple(sorted(GAMES, key=lambda code: GAMES[code].table_plan.floor_order))


def prepare() -> None:
    """Every game makes ahead what its rules would make on first use (`Game.prepare`)."""
    for each in GAMES.values():
        each.prepare()


def procedure_for(code: str) -> Procedure:
    """The round procedure of the game with this code."""
    return game(code).procedure


def standard_settings(code: str) -> HouseSettings:
    """A table of the game as the house opens one when it names nothing else: the latest rule
    set, the game's defaults and the simulator's table limits (`ledger edges --game`)."""
    from datetime import date

    from ledger.games.rulesets import default_rule_set, parse_settings

    plan = game(code).table_plan
    return parse_settings(default_rule_set(code).id, {
        "effective_from": date(2000, 1, 1).isoformat(), "authorisation": "standard",
        "min_bet": str(plan.min_bet), "max_bet": str(plan.max_bet),
        **game(code).default_settings})
