"""Shuffles, cuts, burns and closing a shoe."""

from __future__ import annotations

from typing import cast

from ledger.application import Ledger
from ledger.cards import parse_cards
from ledger.commands import BurnCards, CloseShoe, CutShoe, ShuffleShoe
from ledger.domain.base import Aggregate
from ledger.domain.shoe import Shoe, ShuffleMethod
from ledger.domain.table import Table
from ledger.errors import InvalidInput, RuleViolation, WrongState
from ledger.games.rulesets import parse_settings
from ledger.handlers.tables import load_table

SINGLE_DECK_GAMES = ("stud-poker", "q-poker")


def current_shoe(ledger: Ledger, table: Table) -> Shoe:
    if table.current_shoe is None:
        raise WrongState(f"table {table.code} has no shoe: shuffle one first.")
    return cast(Shoe, ledger.load(table.current_shoe, f"the shoe of table {table.code}"))


def _decks(table: Table, asked: int | None) -> int:
    settings = parse_settings(table.rule_set, table.settings_history[-1])
    house = 1 if table.game in SINGLE_DECK_GAMES else int(getattr(settings, "decks", 1))
    if asked is not None and asked != house:
        raise RuleViolation(
            f"table {table.code} plays with {house} deck{'s' if house > 1 else ''} "
            f"(its house settings), not {asked}."
        )
    return house


@Ledger.handles(ShuffleShoe)
def shuffle_shoe(ledger: Ledger, command: ShuffleShoe) -> tuple[Aggregate, ...]:
    table = load_table(ledger, command.table)
    table.check_open()
    if table.current_round is not None:
        raise WrongState(f"table {table.code} has a round in play: no shuffle until it ends.")
    if command.method is ShuffleMethod.SHUFFLER and not command.shuffler_serial:
        raise InvalidInput("a shuffle by a shuffler records the shuffler's serial number.")
    changed: list[Aggregate] = [table]
    if table.current_shoe is not None:
        old = current_shoe(ledger, table)
        if not old.is_closed and old.commitment is not None:
            raise WrongState(
                f"the shoe of table {table.code} was shuffled with a commitment: close it with "
                "its order and secret before a new shuffle."
            )
        if not old.is_closed:
            old.close(revealed_order=None, secret=None, commitment_holds=None, mismatches=[],
                      by=command.provenance)
            changed.append(old)
    shoe = Shoe(table=table.code, game=table.game, decks=_decks(table, command.decks),
                method=command.method, shuffler_serial=command.shuffler_serial,
                commitment=command.commitment, by=command.provenance)
    table.start_shoe(shoe_id=shoe.id, by=command.provenance)
    return (*changed, shoe)


@Ledger.handles(CutShoe)
def cut_shoe(ledger: Ledger, command: CutShoe) -> tuple[Aggregate, ...]:
    table = load_table(ledger, command.table)
    shoe = current_shoe(ledger, table)
    shoe.check_open()
    if shoe.method is not ShuffleMethod.HAND:
        raise RuleViolation(f"a shoe shuffled by {shoe.method.value} is not cut.")
    if shoe.position:
        raise WrongState("the shoe is cut before its first card is drawn.")
    shoe.cut(cut_by=command.cut_by, cut_card_position=command.cut_card_position,
             by=command.provenance)
    return (shoe,)


@Ledger.handles(BurnCards)
def burn_cards(ledger: Ledger, command: BurnCards) -> tuple[Aggregate, ...]:
    table = load_table(ledger, command.table)
    shoe = current_shoe(ledger, table)
    cards = parse_cards(command.cards)
    count = command.count or len(cards)
    if not count:
        raise InvalidInput("say how many cards are burned, or which.")
    if cards and len(cards) > count:
        raise InvalidInput(f"{len(cards)} cards named for a burn of {count}.")
    for card in cards:
        shoe.check_can_draw(card)
    if shoe.position + count > shoe.capacity:
        raise RuleViolation(f"the shoe holds {shoe.cards_remaining} cards, not {count} to burn.")
    shoe.burn(count=count, cards=list(cards), first_position=shoe.position, by=command.provenance)
    return (shoe,)


@Ledger.handles(CloseShoe)
def close_shoe(ledger: Ledger, command: CloseShoe) -> tuple[Aggregate, ...]:
    table = load_table(ledger, command.table)
    shoe = current_shoe(ledger, table)
    shoe.check_open()
    if table.current_round is not None:
        raise WrongState(f"table {table.code} has a round in play: close the shoe after it.")
    order = list(parse_cards(command.revealed_order)) if command.revealed_order is not None else None
    holds, mismatches = shoe.check_reveal(order, command.secret)
    shoe.close(revealed_order=order, secret=command.secret, commitment_holds=holds,
               mismatches=mismatches, by=command.provenance)
    return (shoe,)


