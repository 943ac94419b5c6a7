"""A gaming table: opened with its game, rule set and limits; dealers in and out; closed.

The table also knows which of its shifts is open (`ShiftOpened` and `ShiftClosed`, recorded in
the same command as the shift's own opening and closing): a round opens only inside an open
shift, so every round is in some shift's books, and one shift at a time is open at a table.
It keeps the last closing inventory, which the next opener's count is checked against, and the
latest gaming day a shift of it opened: its rounds are numbered in the order they are recorded,
so its shifts open in time order, and a shift of an earlier gaming day is refused after it.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event

from ledger.core.errors import InvalidInput, NotFound, WrongState
from ledger.core.formatting import money
from ledger.domain.base import Aggregate, Provenance, applies
from ledger.domain.grammar import kept_ids, normal_identifier

TABLE_NAMESPACE = uuid5(NAMESPACE_URL, "https://round-ledger/table")


@kept_ids
def table_id(code: str) -> UUID:
    """A table's stream id follows from its code, so `BAC-01` always finds the same stream."""
    return uuid5(TABLE_NAMESPACE, check_table_code(code))


def check_table_code(code: str) -> str:
    """The code in the identifiers' normal form (`ledger.domain.grammar`): `bac-01` is BAC-01."""
    return normal_identifier(code, "a table code")


def no_such_table(code: str) -> NotFound:
    """A table the ledger does not hold, in the one sentence every command says it in."""
    return Table.missing(f"table {code}")


def check_limits(min_bet: Decimal, max_bet: Decimal) -> None:
    if min_bet <= 0:
        raise InvalidInput(f"the table minimum must be above zero, not {min_bet}.")
    if min_bet > max_bet:
        raise InvalidInput(f"the table minimum {money(min_bet)} is above the table maximum "
                           f"{money(max_bet)}.")


class Table(Aggregate):
    """One physical table. Re-opened each gaming day; its stream runs for its whole life."""

    class Opened(Aggregate.Created):
        code: str
        game: str
        rule_set: str
        min_bet: Decimal
        max_bet: Decimal
        pit: str
        settings: dict[str, Any]
        by: Provenance

    @staticmethod
    def create_id(code: str, **_: object) -> UUID:
        return table_id(code)

    @classmethod
    def missing(cls, what: str) -> NotFound:
        return NotFound(f"{what} does not exist: `ledger table list` shows the tables.")

    @event(Opened)
    def __init__(
        self, code: str, game: str, rule_set: str, min_bet: Decimal, max_bet: Decimal,
        pit: str, settings: dict[str, Any], by: Provenance,
    ) -> None:
        self.code = code
        self.dealer: str | None = None
        self.settings_history: list[dict[str, Any]] = []
        self.round_count = 0
        self.current_round: UUID | None = None
        self.current_shoe: UUID | None = None
        self.shoe_coups = 0  # rounds dealt from the current shoe, demonstration coups aside
        self.shoe_demonstrations = 0  # demonstration coups of the current shoe (art. 2(2))
        self.carried_jackpot_bets: list[dict[str, Any]] = []
        self.pool: UUID | None = None
        self.open_shift: tuple[UUID, str, date] | None = None  # (stream, label, gaming day)
        self.last_closing: dict[Decimal, int] | None = None  # the last closer's count
        # the shift last opened on the latest gaming day a shift of this table opened on
        self.latest_shift: tuple[date, str] | None = None  # (gaming day, shift)
        self._apply_opening(game, rule_set, min_bet, max_bet, pit, settings)

    def _apply_opening(
        self, game: str, rule_set: str, min_bet: Decimal, max_bet: Decimal, pit: str,
        settings: dict[str, Any],
    ) -> None:
        self.game, self.rule_set, self.pit = game, rule_set, pit
        self.min_bet, self.max_bet = min_bet, max_bet
        self.settings_history.append(settings)
        self.is_open = True
        self.session_first_round = self.round_count + 1  # rounds before it were another session

    # -- re-opening -------------------------------------------------------------------
    def check_can_reopen(self) -> None:
        if self.is_open:
            raise WrongState(f"table {self.code} is already open.")

    class Reopened(Aggregate.Event):
        game: str
        rule_set: str
        min_bet: Decimal
        max_bet: Decimal
        pit: str
        settings: dict[str, Any]
        by: Provenance

    @applies(Reopened)
    def reopen(
        self, game: str, rule_set: str, min_bet: Decimal, max_bet: Decimal, pit: str,
        settings: dict[str, Any], by: Provenance,
    ) -> None:
        self._apply_opening(game, rule_set, min_bet, max_bet, pit, settings)

    # -- closing ----------------------------------------------------------------------
    def check_can_close(self) -> None:
        if not self.is_open:
            raise WrongState(f"table {self.code} is not open, so it cannot be closed.")
        if self.current_round is not None:
            raise WrongState(
                f"table {self.code} has round {self.round_count} in play: settle or void it "
                "before closing the table."
            )

    class Closed(Aggregate.Event):
        by: Provenance

    @applies(Closed)
    def close(self, by: Provenance) -> None:
        self.is_open = False

    # -- dealers ----------------------------------------------------------------------
    def check_can_sign_in(self, dealer_id: str) -> None:
        if not self.is_open:
            raise WrongState(f"table {self.code} is closed: open it before a dealer signs in.")
        if self.dealer == dealer_id:
            raise WrongState(f"dealer {dealer_id} is already signed in at table {self.code}.")
        if self.dealer is not None:
            raise WrongState(
                f"dealer {self.dealer} is still signed in at table {self.code}: "
                "sign them out first."
            )

    class DealerSignedIn(Aggregate.Event):
        dealer_id: str
        by: Provenance

    @applies(DealerSignedIn)
    def sign_in(self, dealer_id: str, by: Provenance) -> None:
        self.dealer = dealer_id

    def check_can_sign_out(self, dealer_id: str) -> None:
        if self.dealer != dealer_id:
            at_table = f"dealer {self.dealer} is" if self.dealer else "no dealer is"
            raise WrongState(
                f"dealer {dealer_id} is not signed in at table {self.code} ({at_table} signed in)."
            )

    class DealerSignedOut(Aggregate.Event):
        dealer_id: str
        by: Provenance

    @applies(DealerSignedOut)
    def sign_out(self, dealer_id: str, by: Provenance) -> None:
        self.dealer = None

    # -- house settings ---------------------------------------------------------------
    class SettingsChanged(Aggregate.Event):
        settings: dict[str, Any]
        by: Provenance

    @applies(SettingsChanged)
    def change_settings(self, settings: dict[str, Any], by: Provenance) -> None:
        self.settings_history.append(settings)

    # -- shoes, rounds, the jackpot -----------------------------------------------------
    def check_open(self) -> None:
        if not self.is_open:
            raise WrongState(f"table {self.code} is closed.")

    class ShoeStarted(Aggregate.Event):
        shoe_id: UUID
        by: Provenance

    @applies(ShoeStarted)
    def start_shoe(self, shoe_id: UUID, by: Provenance) -> None:
        self.current_shoe = shoe_id
        self.shoe_coups = self.shoe_demonstrations = 0

    class RoundStarted(Aggregate.Event):
        round_id: UUID
        number: int
        by: Provenance
        demonstration: bool = False  # a baccarat demonstration coup (art. 2(2))

    @applies(RoundStarted)
    def start_round(self, round_id: UUID, number: int, by: Provenance,
                    demonstration: bool = False) -> None:
        self.current_round, self.round_count = round_id, number
        self.carried_jackpot_bets = []
        if demonstration:
            self.shoe_demonstrations += 1
        else:
            self.shoe_coups += 1

    class RoundFinished(Aggregate.Event):
        round_id: UUID
        by: Provenance

    @applies(RoundFinished)
    def finish_round(self, round_id: UUID, by: Provenance) -> None:
        self.current_round = None

    class JackpotBetsCarried(Aggregate.Event):
        from_round: UUID
        bets: list[dict[str, Any]]
        by: Provenance

    @applies(JackpotBetsCarried)
    def carry_jackpot_bets(self, from_round: UUID, bets: list[dict[str, Any]],
                           by: Provenance) -> None:
        self.carried_jackpot_bets = bets

    class PoolLinked(Aggregate.Event):
        pool_id: UUID
        pool: str
        by: Provenance

    @applies(PoolLinked)
    def link_pool(self, pool_id: UUID, pool: str, by: Provenance) -> None:
        self.pool = pool_id

    # -- shifts -----------------------------------------------------------------------
    def check_can_open_shift(self, gaming_day: date, in_time_order: bool = True) -> None:
        """One shift at a time; and, `in_time_order` (the rules' third edition on), none of a
        gaming day before the latest one a shift of this table opened on: the table's rounds
        are numbered in the order recorded, so an earlier day's rounds would come after a
        later day's."""
        if self.open_shift is not None:
            raise WrongState(
                f"{self.open_shift[1]} is still open: close it (its closing inventory) "
                f"before the next shift opens at table {self.code}.")
        latest = self.latest_shift[0] if self.latest_shift else None
        if in_time_order and latest is not None and gaming_day < latest:
            raise WrongState(
                f"table {self.code} already holds a shift of gaming day {latest}, so a shift "
                f"of {gaming_day} cannot open there: a table's shifts open in time order (its "
                f"rounds are numbered in the order recorded). Open a shift of {latest} or "
                "later, or record the earlier day at another table.")

    def check_can_close_shift(self) -> None:
        if self.current_round is not None:
            raise WrongState(
                f"table {self.code} has round {self.round_count} in play: settle or void it "
                "before the shift's closing count.")

    def check_in_shift(self) -> None:
        """No round outside the books: the shift's opening inventory comes first."""
        if self.open_shift is None:
            raise WrongState(
                f"table {self.code} has no shift open: open the shift (its opening inventory) "
                "before the first round.")

    class ShiftOpened(Aggregate.Event):
        shift_id: UUID
        gaming_day: date
        shift: str
        label: str
        by: Provenance

    @applies(ShiftOpened)
    def shift_opened(self, shift_id: UUID, gaming_day: date, shift: str, label: str,
                     by: Provenance) -> None:
        self.open_shift = (shift_id, label, gaming_day)
        # never refused here: a ledger's shifts recorded out of order replay as they were
        if self.latest_shift is None or gaming_day >= self.latest_shift[0]:
            self.latest_shift = (gaming_day, shift)

    class ShiftClosed(Aggregate.Event):
        shift_id: UUID
        chips: dict[Decimal, int]
        by: Provenance

    @applies(ShiftClosed)
    def shift_closed(self, shift_id: UUID, chips: dict[Decimal, int], by: Provenance) -> None:
        if self.open_shift is not None and self.open_shift[0] == shift_id:
            self.open_shift = None
        self.last_closing = chips
