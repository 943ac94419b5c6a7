"""Replay one round from the event store, for dispute resolution: what happened, and the proof.

Reads only `ledger_events` (never a projection), by stream and version. The round is rebuilt
step by step, each step with its time, actor and terminal: the shoe it came from (shuffle,
cut, burns, and once the shoe is closed the proof that its cards match the commitment), every
bet, every card in order face up or down, exposed cards, decisions, the dealer's hand and
whether it qualified (a void has no contest, so no qualifying), each hand's value, each
bet's recorded result, and the round's win: its table win, its jackpot stakes and prizes
apart (`ledger.reports.round_win`, what the shift report adds up). Then the independent
check (`ledger.audit.replay.check`): the rules engine re-settles the round under the rule set and
house settings the round recorded, the jackpot is re-computed on the pool as it stood just
before the round's contribution, and every recorded figure is compared. Adjustments recorded
later are listed after the round, apart from the verdict (they correct, they do not settle).
Given the trusted sealing keys (`SealTrust`), every event used is also proven against their
newest checkpoint (`ledger.audit.replay.sealed_events`): one not as sealed is a discrepancy.

The JSON form (`ledger replay ... --json`) is `RoundReplay.model_dump_json()`, format
`round-ledger/replay/1`: amounts are exact decimal strings ("100.00"), times ISO 8601, cards
`AS`. Its JSON Schema is `ledger replay --schema`; fields are only ever added under format 1.
"""

from __future__ import annotations

import json
from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from typing import Any, cast
from uuid import UUID

from psycopg import Connection
from pydantic import Field

from ledger.audit.replay.chain_evidence import Evidence, broken_links, chain_evidence
from ledger.audit.replay.check import (
    BetLine,
    Difference,
    Frozen,
    JackpotFigures,
    ShoeProof,
    compare_bets,
    compare_mapping,
    conservation,
    proof_differences,
    resettle,
)
from ledger.audit.replay.jackpot import JackpotView, replay_jackpot
from ledger.audit.replay.played import Played, load_round
from ledger.audit.replay.sealed_events import SealCheck, SealProblem, SealTrust, sealed_events
from ledger.audit.replay.shoe import ShoeView, replay_shoe
from ledger.audit.replay.store import RecordedEvent, held_table, read_stream, rounds_started
from ledger.audit.replay.views import describe, hand_values, label
from ledger.core.cards import face
from ledger.core.errors import LedgerError, NotFound
from ledger.core.formatting import macau, money, when
from ledger.domain.round import Phase, Round, round_id
from ledger.domain.shoe import Shoe
from ledger.domain.table import table_id
from ledger.games.registry import procedure_for
from ledger.games.words import in_sentence
from ledger.presentation.wording import rule_set
from ledger.reports.round_win import Prize, RoundWin, round_win, step_words, win_of

FORMAT = "round-ledger/replay/1"


class Verdict(StrEnum):
    MATCH = "MATCH"
    DISCREPANCY = "DISCREPANCY"
    NOT_SETTLED = "NOT_SETTLED"  # still in play: nothing to compare yet


class Step(Frozen):
    """One recorded event, as it reads: when, who, from where, what."""

    position: int = Field(description="the event's global position in the store")
    stream: str = Field(description="round, shoe or pool")
    version: int
    event: str = Field(description="event type, e.g. Round.CardDealt")
    at: datetime | None = Field(description="when the terminal said it happened")
    recorded_at: datetime = Field(description="when the ledger recorded it")
    staff_id: str | None
    role: str | None
    terminal: str | None
    staff_key: str | None = Field(default=None, description="fingerprint of the key the "
                                  "ledger verified the staff member's signature with")
    terminal_key: str | None = Field(default=None, description="and the terminal's")
    vouched: str | None = Field(default=None, description="set when the terminal signed for "
                                "a line it did not write (an unsigned ingested line)")
    command_id: UUID | None
    text: str = Field(description="one sentence")
    detail: dict[str, Any] = Field(description="the event's own recorded body, minus envelope")

    @classmethod
    def of(cls, recorded: RecordedEvent, stream: str) -> Step:
        by = recorded.by
        detail = {k: v for k, v in recorded.body.items()
                  if k not in ("originator_id", "originator_version", "timestamp",
                               "originator_topic", "by")}
        return cls(position=recorded.position, stream=stream, version=recorded.version,
                   event=recorded.event_type, at=by.at if by else None,
                   recorded_at=recorded.event.timestamp,
                   staff_id=by.actor.staff_id if by else None,
                   role=str(by.actor.role) if by else None, terminal=by.terminal if by else None,
                   staff_key=by.staff_key if by else None,
                   terminal_key=by.terminal_key if by else None,
                   vouched=by.vouched if by else None,
                   command_id=by.command_id if by else None,
                   text=describe(recorded.event_type, recorded.body), detail=detail)


class CardView(Frozen):
    card: str
    face_up: bool
    exposed: bool = False
    shoe_position: int | None = None


class HandView(Frozen):
    target: str = Field(description="box:3, space:3, dealer, player, banker, burn")
    label: str
    cards: list[CardView]
    value: str | None = Field(description="what the hand is worth under the game's rules")
    name: str | None = Field(default=None, description="the same in words: Flush, queen high")
    qualifies: bool | None = Field(default=None, description="the dealer's hand only")
    notes: list[str] = Field(default_factory=list)

    @property
    def said(self) -> str:
        """The hand in a line, as every list of hands says it: `box 5: 7♣ 4♦ Q♠ (high card,
        queen high)`, each card by its face, the hand's name as a sentence holds it."""
        named = self.name or self.value
        return (f"{self.label}: {' '.join(face(card.card) for card in self.cards)}"
                + (f" ({in_sentence(named)})" if named else ""))


class BetView(Frozen):
    box: int
    spot: str
    amount: Decimal
    player: str | None = None
    carried_from: str | None = Field(default=None, description="a void round's id")


class AdjustmentView(Frozen):
    step: Step
    box: int
    spot: str
    player: str | None
    amount: Decimal
    reason: str


class Check(Frozen):
    verdict: Verdict
    rule_set: str
    settings: dict[str, Any] = Field(description="the house settings the round recorded")
    method: str
    recomputed: list[BetLine]
    recomputed_house_win: Decimal | None
    recomputed_win: RoundWin | None = Field(default=None, description="the round's win as the "
                                            "re-computed results and prizes give it")
    jackpot: JackpotFigures | None = None
    differences: list[Difference]


class RoundReplay(Frozen):
    format: str = FORMAT
    round_id: UUID
    table: str
    number: int
    game: str
    rule_set: str
    dealing: str
    status: str = Field(description="betting, dealing, revealed, settled or void")
    demonstration: bool = Field(default=False, description="a baccarat demonstration coup "
                                "(art. 2(2)): dealt and settled with no bets")
    void_reason: str | None = None
    opened_at: datetime | None
    finished_at: datetime | None
    shoe: ShoeView | None
    steps: list[Step]
    bets: list[BetView]
    hands: list[HandView]
    outcome: dict[str, Any] = Field(description="the settlement's recorded outcome summary")
    results: list[BetLine] = Field(description="each bet's result as recorded")
    house_win: Decimal | None = Field(description="as the settlement recorded it: every bet, "
                                      "jackpot bets included (the round's win is `win`)")
    win: RoundWin | None = Field(default=None, description="the round's table win (the layout's "
                                 "bets, less later adjustments: what the shift report adds up), "
                                 "with its jackpot stakes and prizes apart")
    jackpot: JackpotView | None
    adjustments: list[AdjustmentView]
    check: Check
    evidence: list[Evidence]
    seal: SealCheck | None = Field(default=None, description="whether every event used is "
                                   "the one the seal signed (None: the seal was not consulted)")


# -- rebuilding the round ---------------------------------------------------------------------


def replay_round(conn: Connection[Any], rid: UUID, seal: SealTrust | None = None) -> RoundReplay:
    """The round `rid` rebuilt from the store, with the independent check and its verdict;
    given `seal`, every event used is also proven against the newest trusted checkpoint, and an
    event not as sealed is a discrepancy."""
    played = load_round(conn, rid)
    round_ = played.round_
    shoe, shoe_events = replay_shoe(conn, played)
    jackpot, pool_events = replay_jackpot(conn, played)
    recorded = [BetLine.of(bet) for bet in round_.results]
    settled = played.last(Round.Settled)
    house_win = settled.house_win if settled else None
    recomputed, differences = check_settlement(played, recorded, house_win)
    differences += jackpot.differences if jackpot else []
    differences += proof_differences(shoe.proof) if shoe else []
    streams = {rid: "round", **({shoe.shoe_id: "shoe"} if shoe else {}),
               **({jackpot.pool_id: "pool"} if jackpot else {})}
    used = [*played.events, *shoe_events, *pool_events]
    evidence = chain_evidence(conn, used, streams)
    sealed = sealed_events(conn, used, streams, seal) if seal is not None else None
    differences = (played.gaps + differences + broken_links(evidence)
                   + [_unsealed(problem) for problem in (sealed.problems if sealed else [])])
    finished = round_.is_finished or bool(recorded)
    verdict = (Verdict.DISCREPANCY if differences else
               Verdict.MATCH if finished else Verdict.NOT_SETTLED)
    voided = played.last(Round.Voided)
    win = round_win(round_, map(Prize.of, jackpot.awards) if jackpot else None)
    due = jackpot.recomputed.prizes if jackpot and jackpot.recomputed else None
    recomputed_win = win_of(win.status, recomputed, (a["amount"] for a in round_.adjustments),
                            win.prizes if due is None else map(Prize.of, due))
    return RoundReplay(
        round_id=rid, table=round_.table, number=round_.number, game=round_.game,
        rule_set=round_.rule_set, dealing=round_.dealing, status=str(round_.phase),
        demonstration=round_.demonstration, void_reason=voided.reason if voided else None,
        opened_at=played.events[0].by.at if played.events[0].by else None,
        finished_at=played.finished_at(), shoe=shoe,
        steps=_settled_in_words(timeline(played.events, shoe_events, pool_events), win),
        bets=bets_of(round_), hands=hands_of(round_),
        outcome=settled.outcome if settled else {}, results=recorded, house_win=house_win,
        win=win, jackpot=jackpot, adjustments=adjustments_of(played),
        check=Check(verdict=verdict, rule_set=round_.rule_set, settings=round_.settings_data,
                    method=_method(round_), recomputed=recomputed,
                    recomputed_house_win=(sum((line.house_win for line in recomputed),
                                              Decimal("0.00")) if recomputed else None),
                    recomputed_win=recomputed_win if finished else None,
                    jackpot=jackpot.recomputed if jackpot else None, differences=differences),
        evidence=evidence, seal=sealed,
    )


def timeline(round_events: list[RecordedEvent], shoe_events: list[RecordedEvent],
             pool_events: list[RecordedEvent]) -> list[Step]:
    """Every step in the order recorded; adjustments and the shoe's card-by-card draws (each
    a twin of a dealt card) are kept out of it."""
    steps = ([Step.of(e, "round") for e in round_events if not isinstance(e.event, Round.Adjusted)]
             + [Step.of(e, "shoe") for e in shoe_events if not isinstance(e.event, Shoe.CardDrawn)]
             + [Step.of(e, "pool") for e in pool_events])
    return sorted(steps, key=lambda step: step.position)


def _settled_in_words(steps: list[Step], win: RoundWin) -> list[Step]:
    """The settlement's steps in words once the round's win is known (`step_words`)."""
    return [step.model_copy(update={"text": said})
            if (said := step_words(step.event, step.detail, win)) else step for step in steps]


def _unsealed(problem: SealProblem) -> Difference:
    if problem.stream_id is None:
        return Difference(subject="seal", field=problem.field, recorded=problem.recorded,
                          recomputed=problem.recomputed)
    return Difference(subject=f"{problem.stream} stream {problem.stream_id} version "
                              f"{problem.version} (position {problem.position}, {problem.event})",
                      field=problem.field, recorded=problem.recorded,
                      recomputed=problem.recomputed)


def check_settlement(played: Played, recorded: list[BetLine],
                     house_win: Decimal | None) -> tuple[list[BetLine], list[Difference]]:
    """Re-settle from the facts as they stood when settlement began, and compare."""
    round_ = played.round_
    if not (round_.is_finished or recorded):
        return [], []
    void = round_.phase is Phase.VOID
    try:
        recomputed = resettle(played.facts, void=void)
    except LedgerError as error:
        return [], [Difference(subject="round", field="settlement", recorded=str(round_.phase),
                               recomputed=f"cannot be settled from its facts: {error}")]
    differences = compare_bets(recorded, recomputed) + conservation(recorded, house_win)
    due = sum((line.house_win for line in recomputed), Decimal("0.00"))
    if house_win is not None and house_win != due:
        differences.append(Difference(subject="round", field="house_win",
                                      recorded=str(house_win), recomputed=str(due)))
    if void:
        carried = any(line.outcome == "carried" for line in recomputed)
        voided = played.last(Round.Voided)
        if voided is not None and voided.jackpot_carried != carried:
            differences.append(Difference(subject="round", field="jackpot_carried",
                                          recorded=str(voided.jackpot_carried),
                                          recomputed=str(carried)))
    settled = played.last(Round.Settled)
    if settled is not None:
        outcome = _jsonable(procedure_for(round_.game).outcome(played.facts))
        differences += compare_mapping("outcome", settled.outcome, outcome)
    return recomputed, differences


def _jsonable(value: Any) -> Any:
    """The re-computed outcome as the stored one reads (JSON types), to compare like for like."""
    return json.loads(json.dumps(value, default=str))


def _method(round_: Round) -> str:
    data = round_.settings_data
    since, authorised = data.get("effective_from"), data.get("authorisation")
    said = ", ".join(([f"in force from {since}"] if since else [])
                     + ([f"authorisation {authorised}"] if authorised else []))
    return (f"re-settled by the rules engine of {rule_set(round_.rule_set)}, with the "
            "house settings the round recorded when it opened" + (f" ({said})" if said else ""))


# -- what the replay shows --------------------------------------------------------------------


def bets_of(round_: Round) -> list[BetView]:
    return [BetView(box=b.box, spot=b.spot, amount=b.amount, player=b.player,
                    carried_from=b.carried_from) for b in round_.bets]


def _order(target: str) -> tuple[int, int]:
    kind, _, number = target.partition(":")
    rank = {"box": 0, "space": 0, "player": 1, "banker": 2, "dealer": 3, "burn": 4}
    return rank.get(kind, 5), int(number) if number.isdigit() else 0


def hands_of(round_: Round) -> list[HandView]:
    """Every hand dealt, its cards in order (up or down, exposed), its value and notes."""
    facts = round_.facts()
    values = hand_values(facts)
    exposed = {(card.to, card.card) for card in round_.exposed}
    targets = sorted({card.to for card in round_.cards}, key=_order)
    hands = []
    for target in targets:
        cards = [CardView(card=str(c.card), face_up=c.face_up, exposed=(target, c.card) in exposed,
                          shoe_position=c.shoe_position)
                 for c in round_.cards if c.to == target]
        value, name, qualifies = values.get(target, (None, None, None))
        qualifies = None if round_.phase is Phase.VOID else qualifies  # a void has no contest
        hands.append(HandView(target=target, label=label(target), cards=cards, value=value,
                              name=name, qualifies=qualifies, notes=_notes(round_, target)))
    return hands


def _notes(round_: Round, target: str) -> list[str]:
    kind, _, number = target.partition(":")
    if kind != "box" or not number.isdigit():
        return []
    box = int(number)
    notes = [f"{d.player + ' ' if d.player else ''}{d.decision}"
             + (f" {money(d.amount)}" if d.decision == "raise" else "")
             for d in round_.decisions if d.box == box]
    return notes + (["void (cards without a bet)"] if box in round_.void_boxes else [])


def adjustments_of(played: Played) -> list[AdjustmentView]:
    return [AdjustmentView(step=Step.of(e, "round"), box=e.event.box, spot=e.event.spot,
                           player=e.event.player, amount=e.event.amount, reason=e.event.reason)
            for e in played.events if e.event_type == Round.Adjusted.event_type]


# -- finding rounds ---------------------------------------------------------------------------

def find_round(conn: Connection[Any], table: str, number: int | None = None,
               at: datetime | None = None) -> UUID:
    """A table's round by number, or the round it had in play (or last opened) at a time."""
    code = held_table(conn, table)
    if number is not None:
        rid = round_id(table_id(code), number)
        if not read_stream(conn, rid, limit=1):
            raise NotFound(f"table {code} has no round {number}.")
        return rid
    if at is None:
        raise NotFound(f"say which round of table {code}: its number, or a time.")
    moment = macau(at)  # the floor's clock: a naive time is Macau time
    for started in rounds_started(conn, table_id(code)):
        if started.by is not None and started.by.at <= moment:
            return cast(UUID, started.event.round_id)
    raise NotFound(f"table {code} had no round open at or before {when(moment)}.")


__all__ = ["FORMAT", "BetLine", "Difference", "JackpotFigures", "RoundReplay", "ShoeProof",
           "Verdict", "find_round", "replay_round"]
