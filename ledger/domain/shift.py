"""A table's shift: chip inventories, fill and credit slips, the drop, and the accounting win.

One stream per table and shift of a gaming day. Its id follows from the table code, the
gaming day and the shift name, so `BAC-01`, 2026-11-22, `day` always finds the same stream.

The rules the stream keeps (each refused with a sentence, and nothing recorded):

- Inventories (opening and closing) are counted by denomination, every denomination a chip of
  the casino (`CHIP_SET`), and signed by a dealer and a supervisor (or pit boss): two people.
- Fill slips (cage to table) and credit slips (table to cage) share one continuous numbering
  per shift: the first slip of a shift starts the series at its number, every later slip,
  fill or credit, must carry the next number. A reused number and a gap are both refused.
  A slip's amount is computed from its chips, never typed.
- A slip is corrected only by voiding it (a supervisor, with a reason); a voided slip keeps
  its number and no longer counts. The correct figures go on a new slip with the next number.
- The drop (cash and markers) is entered once, after the count; a supervisor corrects it with
  an adjustment that states the new figures and why. The count room often counts after the
  shift has closed, so the drop (and its adjustment) is the one thing still recorded on a
  closed shift; until it is, the shift has no accounting win.
- Nothing else is recorded on a closed shift.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import event
from pydantic import BaseModel, ConfigDict

from ledger.core.errors import InvalidInput, NotAllowed, NotFound, RuleViolation, WrongState
from ledger.core.formatting import MACAU, minute, money
from ledger.domain.base import Actor, Aggregate, Provenance, applies, require_supervisor
from ledger.domain.chips import Chips, check_chips, chips_total
from ledger.domain.shift_schedule import check_shift_name
from ledger.games.common import ZERO

SHIFT_NAMESPACE = uuid5(NAMESPACE_URL, "https://round-ledger/shift")

def shift_id(code: str, gaming_day: date, shift: str) -> UUID:
    return uuid5(SHIFT_NAMESPACE, f"{code}/{gaming_day.isoformat()}/{shift}")


def describe_shift(code: str, gaming_day: date, shift: str) -> str:
    return f"the {shift} shift of {code} on {gaming_day.isoformat()}"


def check_signatures(dealer_id: str, supervisor: Actor, what: str) -> None:
    """A dealer and a supervisor (or pit boss) sign an inventory: two people."""
    require_supervisor(supervisor, f"signing {what}")
    if supervisor.staff_id == dealer_id:
        raise NotAllowed(
            f"{what} is signed by two people: {dealer_id} cannot sign as dealer and supervisor."
        )


# -- the stream ------------------------------------------------------------------------
class SlipKind(StrEnum):
    FILL = "fill"  # chips from the cage to the table
    CREDIT = "credit"  # chips from the table back to the cage


@dataclass(frozen=True, slots=True)
class Slip:
    number: int
    kind: SlipKind
    chips: dict[Decimal, int]
    amount: Decimal
    runner_id: str
    supervisor: Actor
    voided: str | None = None  # "by <actor>: <reason>"


@dataclass(frozen=True, slots=True)
class Drop:
    cash: Decimal
    markers: Decimal
    counted_by: tuple[str, ...]

    @property
    def total(self) -> Decimal:
        return self.cash + self.markers


class ShiftFigures(BaseModel):
    """A shift's accounting figures; the closing ones are None until the shift is closed."""

    model_config = ConfigDict(frozen=True)

    opening: Decimal
    fills: Decimal
    credits: Decimal
    drop: Decimal | None
    closing: Decimal | None
    accounting_win: Decimal | None


class Shift(Aggregate):
    """One table's shift of one gaming day, from its opening count to its closing count."""

    class Opened(Aggregate.Created):
        code: str
        gaming_day: date
        shift: str
        chips: dict[Decimal, int]
        total: Decimal
        dealer_id: str
        supervisor: Actor
        by: Provenance
        previous_closing: dict[Decimal, int] | None = None  # the last closer's count, if any

    @staticmethod
    def create_id(code: str, gaming_day: date, shift: str, **_: object) -> UUID:
        return shift_id(code, gaming_day, shift)

    @staticmethod
    def check_opening(shift: str, chips: Chips, dealer_id: str, supervisor: Actor,
                      gaming_day: date | None = None, at: datetime | None = None) -> None:
        check_shift_name(shift)
        if gaming_day is not None and at is not None:
            local = at.astimezone(MACAU).date()
            if abs((gaming_day - local).days) > 1:
                raise RuleViolation(
                    f"the {shift} shift of {gaming_day.isoformat()} cannot be opened at "
                    f"{minute(at)}: a shift opens on its "
                    "gaming day (or the evening before).")
        check_chips(chips, "the opening inventory")
        check_signatures(dealer_id, supervisor, "the opening inventory")

    @classmethod
    def open(
        cls, code: str, gaming_day: date, shift: str, chips: Chips, dealer_id: str,
        supervisor: Actor, by: Provenance, previous_closing: dict[Decimal, int] | None = None,
    ) -> Shift:
        """Record the opening inventory with the total its chips add up to, beside the count
        the table's last closer left (a difference is recorded, not refused: the chips on the
        table are what they are, and the report flags it for the pit and accounting)."""
        counted = check_chips(chips, "the opening inventory")
        return cls(
            code=code, gaming_day=gaming_day, shift=shift, chips=counted,
            total=chips_total(counted), dealer_id=dealer_id, supervisor=supervisor, by=by,
            previous_closing=previous_closing,
        )

    @event(Opened)
    def __init__(
        self, code: str, gaming_day: date, shift: str, chips: dict[Decimal, int],
        total: Decimal, dealer_id: str, supervisor: Actor, by: Provenance,
        previous_closing: dict[Decimal, int] | None = None,
    ) -> None:
        self.code, self.gaming_day, self.shift = code, gaming_day, shift
        self.opening_chips, self.opening_total = chips, total
        self.previous_closing = previous_closing
        self.opened_by = (dealer_id, supervisor)
        self.slips: dict[int, Slip] = {}
        self.drop: Drop | None = None
        self.closing_chips: dict[Decimal, int] | None = None
        self.closing_total: Decimal | None = None
        self.closed_by: tuple[str, Actor] | None = None

    @property
    def label(self) -> str:
        return describe_shift(self.code, self.gaming_day, self.shift)

    @property
    def is_closed(self) -> bool:
        return self.closed_by is not None

    def check_can_open(self) -> None:
        """A shift opens once: its stream exists only because it was opened."""
        dealer_id, supervisor = self.opened_by
        if self.closed_by is not None:
            raise WrongState(
                f"{self.label} is already in the ledger, opened and closed (closed by "
                f"{self.closed_by[1].staff_id}): a shift is opened once; choose another shift."
            )
        raise WrongState(
            f"{self.label} is already open: its opening inventory of "
            f"{money(self.opening_total)} was signed by {dealer_id} and {supervisor.staff_id}."
        )

    def _check_still_open(self) -> None:
        if self.closed_by is not None:
            raise WrongState(
                f"{self.label} was closed (signed by {self.closed_by[1].staff_id}): "
                "nothing more is recorded on it but the count of its drop."
            )

    # -- fill and credit slips -----------------------------------------------------------
    @property
    def next_slip(self) -> int | None:
        """The number the next slip must carry; None before the first slip of the shift."""
        return max(self.slips) + 1 if self.slips else None

    def check_can_record_slip(
        self, kind: SlipKind, number: int, chips: Chips, supervisor: Actor
    ) -> None:
        self._check_still_open()
        what = f"{kind} slip {number}"
        counted = check_chips(chips, what)
        if chips_total(counted) <= 0:
            raise InvalidInput(f"{what} carries no chips: its amount would be 0.00.")
        if number in self.slips:
            used = self.slips[number]
            voided = ", since voided" if used.voided else ""
            raise RuleViolation(
                f"slip {number} was already recorded in this shift (a {used.kind} of "
                f"{money(used.amount)}{voided}): a slip number is used once, the next is "
                f"{self.next_slip}."
            )
        if self.next_slip is not None and number != self.next_slip:
            raise RuleViolation(
                f"slip {number} is out of sequence: slips are numbered continuously and the "
                f"next slip of {self.label} is {self.next_slip}."
            )
        require_supervisor(supervisor, f"signing {what}")

    class SlipRecorded(Aggregate.Event):
        slip: int
        kind: SlipKind
        chips: dict[Decimal, int]
        amount: Decimal
        runner_id: str
        supervisor: Actor
        by: Provenance

    class FillRecorded(SlipRecorded):
        pass

    class CreditRecorded(SlipRecorded):
        pass

    def record_slip(
        self, kind: SlipKind, number: int, chips: Chips, runner_id: str, supervisor: Actor,
        by: Provenance,
    ) -> None:
        """Record the slip with the amount its chips add up to (never a typed amount)."""
        counted = check_chips(chips, f"{kind} slip {number}")
        record = self._record_fill if kind is SlipKind.FILL else self._record_credit
        record(
            slip=number, kind=kind, chips=counted, amount=chips_total(counted),
            runner_id=runner_id, supervisor=supervisor, by=by,
        )

    @applies(FillRecorded)
    def _record_fill(
        self, slip: int, kind: SlipKind, chips: dict[Decimal, int], amount: Decimal,
        runner_id: str, supervisor: Actor, by: Provenance,
    ) -> None:
        self.slips[slip] = Slip(slip, kind, chips, amount, runner_id, supervisor)

    @applies(CreditRecorded)
    def _record_credit(
        self, slip: int, kind: SlipKind, chips: dict[Decimal, int], amount: Decimal,
        runner_id: str, supervisor: Actor, by: Provenance,
    ) -> None:
        self.slips[slip] = Slip(slip, kind, chips, amount, runner_id, supervisor)

    def check_can_void_slip(self, number: int, by: Actor) -> None:
        self._check_still_open()
        require_supervisor(by, "voiding a slip")
        if number not in self.slips:
            raise NotFound(f"no slip {number} was recorded in {self.label}.")
        if self.slips[number].voided:
            raise WrongState(f"slip {number} was already voided {self.slips[number].voided}.")

    class SlipVoided(Aggregate.Event):
        slip: int
        reason: str
        by: Provenance

    @applies(SlipVoided)
    def void_slip(self, slip: int, reason: str, by: Provenance) -> None:
        self.slips[slip] = replace(self.slips[slip], voided=f"by {by.actor}: {reason}")

    # -- the drop ------------------------------------------------------------------------
    def check_can_enter_drop(self) -> None:
        if self.drop is not None:
            raise WrongState(
                f"the drop of {self.label} was already entered ({money(self.drop.cash)} cash, "
                f"{money(self.drop.markers)} markers): a supervisor corrects it with an "
                "adjustment."
            )

    class DropEntered(Aggregate.Event):
        cash: Decimal
        markers: Decimal
        counted_by: tuple[str, ...]
        by: Provenance
        after_close: bool = False  # entered after its gaming day closed (a late drop)

    @applies(DropEntered)
    def enter_drop(
        self, cash: Decimal, markers: Decimal, counted_by: tuple[str, ...], by: Provenance,
        after_close: bool = False,
    ) -> None:
        self.drop = Drop(cash, markers, tuple(counted_by))

    def check_can_adjust_drop(self, cash: Decimal, markers: Decimal, by: Actor) -> None:
        require_supervisor(by, "adjusting the drop")
        if self.drop is None:
            raise WrongState(f"no drop was entered for {self.label}: there is nothing to adjust.")
        if (self.drop.cash, self.drop.markers) == (cash, markers):
            raise InvalidInput(
                f"the drop of {self.label} is already {money(cash)} cash and {money(markers)} "
                "markers: there is nothing to adjust."
            )

    class DropAdjusted(Aggregate.Event):
        cash: Decimal
        markers: Decimal
        reason: str
        by: Provenance
        after_close: bool = False  # adjusted after its gaming day closed

    @applies(DropAdjusted)
    def adjust_drop(self, cash: Decimal, markers: Decimal, reason: str, by: Provenance,
                    after_close: bool = False) -> None:
        counted_by = self.drop.counted_by if self.drop else ()
        self.drop = Drop(cash, markers, counted_by)

    # -- closing -------------------------------------------------------------------------
    def check_can_close(self, chips: Chips, dealer_id: str, supervisor: Actor) -> None:
        self._check_still_open()
        check_chips(chips, "the closing inventory")
        check_signatures(dealer_id, supervisor, "the closing inventory")

    class Closed(Aggregate.Event):
        chips: dict[Decimal, int]
        total: Decimal
        dealer_id: str
        supervisor: Actor
        by: Provenance

    def close(self, chips: Chips, dealer_id: str, supervisor: Actor, by: Provenance) -> None:
        """Record the closing inventory with the total its chips add up to."""
        counted = check_chips(chips, "the closing inventory")
        self._close(
            chips=counted, total=chips_total(counted), dealer_id=dealer_id,
            supervisor=supervisor, by=by,
        )

    @applies(Closed)
    def _close(
        self, chips: dict[Decimal, int], total: Decimal, dealer_id: str, supervisor: Actor,
        by: Provenance,
    ) -> None:
        self.closing_chips, self.closing_total = chips, total
        self.closed_by = (dealer_id, supervisor)

    # -- the accounting figures ----------------------------------------------------------
    def _slips_total(self, kind: SlipKind) -> Decimal:
        counted = (s.amount for s in self.slips.values() if s.kind is kind and not s.voided)
        return sum(counted, ZERO)

    @property
    def fills_total(self) -> Decimal:
        return self._slips_total(SlipKind.FILL)

    @property
    def credits_total(self) -> Decimal:
        return self._slips_total(SlipKind.CREDIT)

    @property
    def drop_total(self) -> Decimal | None:
        return self.drop.total if self.drop else None

    @property
    def accounting_win(self) -> Decimal | None:
        """closing − opening + credits − fills + drop, once the shift is closed.

        Credits are chips the table sent back to the cage (the inventory fell, yet the house
        lost nothing), fills chips the cage sent to the table (the inventory rose, yet the
        house won nothing); the drop is what players paid in for chips.
        """
        if self.closing_total is None or self.drop is None:
            return None
        return (
            self.closing_total - self.opening_total + self.credits_total - self.fills_total
            + self.drop.total
        )

    def figures(self) -> ShiftFigures:
        return ShiftFigures(
            opening=self.opening_total, fills=self.fills_total, credits=self.credits_total,
            drop=self.drop_total, closing=self.closing_total,
            accounting_win=self.accounting_win,
        )

