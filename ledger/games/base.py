"""`GameBase`: the `Game` members most games answer the same way, as data.

A game's `game.py` subclasses it with what is that game's own (how its hands are named) and
gives the rest as fields. The members that need the rules engine import the game's own
modules when first used: the registry stays as light as a list of names.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

from ledger.games.protocol import HandValue, NamedCards, TablePlan
from ledger.games.shoe import ShoePolicy

if TYPE_CHECKING:
    from decimal import Decimal
    from fractions import Fraction

    from ledger.core.cards import Card
    from ledger.games.boards import Roads
    from ledger.games.facts import Procedure
    from ledger.games.jackpot import JackpotPoolSettings
    from ledger.games.odds import BetOdds, Moments, RoundOdds, Stake
    from ledger.games.settings import HouseSettings


def frozen_mapping(values: Mapping[str, Any]) -> Mapping[str, Any]:
    """A read-only copy: a game's defaults are shared by every table that opens."""
    return MappingProxyType(dict(values))


@dataclass(frozen=True)
class GameBase:
    """A game's answers that are data; `package` is where its procedure and play live."""

    code: str
    name: str
    package: str
    shoe: ShoePolicy
    table_plan: TablePlan
    default_settings: Mapping[str, Any] = field(default_factory=lambda: frozen_mapping({}))
    takes_jackpot_bets: bool = False
    void_carries_jackpot: bool = False
    pushed_bets_stand: bool = False
    bet_place: str = "box {} {}"
    describes_boxes: bool = False

    @property
    def rule_sets(self) -> tuple[str, ...]:
        from ledger.games.rulesets import GAMES

        return GAMES.get(self.code, ())

    @property
    def settings_class(self) -> type[HouseSettings]:
        from ledger.games.rulesets import default_rule_set

        return default_rule_set(self.code).settings_class

    @property
    def procedure(self) -> Procedure:
        module = importlib.import_module(f"{self.package}.procedure")
        return cast("Procedure", module.PROCEDURE)

    @property
    def simulated_round(self) -> Callable[[Any, Any], bool]:
        module = importlib.import_module(f"{self.package}.simulation")
        return cast("Callable[[Any, Any], bool]", module.play_round)

    def prepare(self) -> None:
        return None

    def simulated_shoe_start(self, sim: Any) -> int:
        return 0

    def simulated_settings(self, odd: bool) -> dict[str, object]:
        return {}

    def bet_odds(self, settings: HouseSettings) -> tuple[BetOdds, ...]:
        module = importlib.import_module(f"{self.package}.odds")
        return cast("tuple[BetOdds, ...]", module.bet_odds(settings))

    def round_odds(self, settings: HouseSettings) -> RoundOdds:
        module = importlib.import_module(f"{self.package}.odds")
        return cast("RoundOdds", module.round_odds(settings))

    def round_moments(self, settings: HouseSettings, bets: Iterable[Stake]) -> Moments:
        module = importlib.import_module(f"{self.package}.odds")
        return cast("Moments", module.round_moments(settings, bets))

    def jackpot_odds(self, pool: JackpotPoolSettings, stake: Decimal,
                     pool_amount: Decimal) -> BetOdds | None:
        if not self.takes_jackpot_bets:
            return None
        module = importlib.import_module(f"{self.package}.odds")
        return cast("BetOdds", module.jackpot_odds(pool, stake, pool_amount))

    def jackpot_hit_chance(self) -> Fraction | None:
        if not self.takes_jackpot_bets:
            return None
        module = importlib.import_module(f"{self.package}.odds")
        return cast("Fraction", module.jackpot_hit_chance())

    def name_cards(self, cards: Sequence[Card]) -> NamedCards:
        raise NotImplementedError(f"{self.name} names no hands")

    def hand_value(self, target: str, cards: tuple[Card, ...]) -> HandValue:
        return HandValue(None, None, None)

    def dealer_summary(self, cards: Sequence[str]) -> str:
        return ""

    def describe_boxes(self, bets: Sequence[Mapping[str, Any]]) -> str:
        return ""

    def roads(self, outcomes: Sequence[Mapping[str, object]]) -> Roads | None:
        return None
