"""Shuffles, cuts, burns and closing a shoe, each checked against the game's shoe procedure.

Baccarat (DICJ 55/2004 art. 2, 3) and Fortune 8 (DICJ 71/2009 art. 2): shuffle, a cut by a
player or the dealer with the cut card near the end, and (baccarat) a burn by the number of
decks or by the first card's value; none of it with an automatic shuffler-dealer. Stud Poker
and Q Poker: one deck shuffled afresh for each round, by hand (cut, the blank card to the
bottom) or by a shuffler (no cut).
"""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime
from uuid import UUID

from ledger.application.handlers.tables import load_table
from ledger.application.handlers.unit_of_work import Handlers, UnitOfWork, handles
from ledger.commands.shoe import BurnCards, CloseShoe, CutShoe, ShuffleShoe
from ledger.core.cards import Card, parse_cards
from ledger.core.errors import InvalidInput, RuleViolation, WrongState
from ledger.domain.base import Aggregate, Provenance
from ledger.domain.round import Phase, Round, round_id
from ledger.domain.shoe import Shoe, ShuffleMethod
from ledger.domain.table import Table, table_id
from ledger.games import registry
from ledger.games.rulesets import parse_settings, settings_in_force
from ledger.games.settings import HouseSettings

SHUFFLER_FAILURE = "shuffler_failure"  # Q Poker art. 11(5), Stud Poker art. 11(4)


def current_shoe(uow: UnitOfWork, table: Table) -> Shoe:
    if table.current_shoe is None:
        raise WrongState(f"table {table.code} has no shoe: shuffle one first.")
    return uow.load(Shoe, table.current_shoe, f"the shoe of table {table.code}")


def settings_day(table: Table, when: datetime, uow: UnitOfWork) -> date:
    """The day a command's house settings are looked up on: the gaming day the table's open
    shift records (a setting "effective 1 December" holds from that gaming day's start); the
    UTC date of the command under the rules' first edition, or while no shift is open."""
    if uow.rules >= 2 and table.open_shift is not None:
        return table.open_shift[2]
    return when.date()


def settings_on(table: Table, when: datetime, uow: UnitOfWork) -> HouseSettings:
    """The table's house settings in force when the command says it happened."""
    history = [parse_settings(table.rule_set, data) for data in table.settings_history]
    return settings_in_force(history, settings_day(table, when, uow))


def _decks(table: Table, settings: HouseSettings, asked: int | None) -> int:
    house = registry.game(table.game).shoe.decks(settings)
    if asked is not None and asked != house:
        raise RuleViolation(
            f"table {table.code} plays with {house} deck{'s' if house > 1 else ''} "
            f"(its house settings), not {asked}."
        )
    return house


def _needs_cut(shoe: Shoe) -> bool:
    """Whether this shoe's procedure has a cut: by hand always; by a shuffler only in the
    multi-deck games, whose regulations except only the automatic shuffler-dealer."""
    if shoe.method is ShuffleMethod.AUTOMATIC:
        return False
    return shoe.method is ShuffleMethod.HAND or registry.game(shoe.game).shoe.cut_card


# --- shuffle -----------------------------------------------------------------------------


def _check_method(table: Table, command: ShuffleShoe) -> None:
    if command.method is ShuffleMethod.AUTOMATIC and registry.game(table.game).shoe.single_deck:
        raise RuleViolation(
            f"{table.game} is dealt from a shoe or by a shuffler (art. 1), not by an automatic "
            "shuffler-dealer."
        )
    if command.method is ShuffleMethod.SHUFFLER and not command.shuffler_serial:
        raise InvalidInput("a shuffle by a shuffler records the shuffler's serial number.")


def _check_not_the_failed_shuffler(uow: UnitOfWork, table: Table, command: ShuffleShoe) -> None:
    """After a shuffler fails during a deal, that shuffler is replaced or a shoe is used."""
    if command.method is not ShuffleMethod.SHUFFLER or not table.round_count:
        return
    last = uow.load(Round, round_id(table_id(table.code), table.round_count), "a round")
    failed = last.phase is Phase.VOID and any(
        fact.kind == SHUFFLER_FAILURE for fact in last.irregularities
    )
    if not failed or last.shoe_id is None:
        return
    shoe = uow.load(Shoe, last.shoe_id, "the failed round's shoe")
    if shoe.shuffler_serial == command.shuffler_serial:
        raise RuleViolation(
            f"shuffler {command.shuffler_serial} failed during {last.label}: replace it or deal "
            "from a shoe (art. 11)."
        )


def shuffle_shoe(command: ShuffleShoe, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    table = load_table(uow, command.table)
    table.check_open()
    if table.current_round is not None:
        raise WrongState(f"table {table.code} has a round in play: no shuffle until it ends.")
    _check_method(table, command)
    _check_not_the_failed_shuffler(uow, table, command)
    decks = _decks(table, settings_on(table, command.at, uow), command.decks)
    changed: list[Aggregate] = [table]
    if table.current_shoe is not None:
        old = current_shoe(uow, table)
        if not old.is_closed and old.commitment is not None:
            raise WrongState(
                f"the shoe of table {table.code} was shuffled with a commitment: close it with "
                "its order and secret before a new shuffle."
            )
        if not old.is_closed:
            old.close(revealed_order=None, secret=None, commitment_holds=None, mismatches=[],
                      by=command.provenance)
            changed.append(old)
    shoe = Shoe(table=table.code, game=table.game, decks=decks, method=command.method,
                shuffler_serial=command.shuffler_serial, commitment=command.commitment,
                by=command.provenance)
    table.start_shoe(shoe_id=shoe.id, by=command.provenance)
    return (*changed, shoe)


# --- cut ---------------------------------------------------------------------------------


def _check_cut_card_position(shoe: Shoe, position: int | None) -> None:
    game = registry.game(shoe.game)
    if position is None:
        if game.shoe.cut_card:
            raise InvalidInput(
                f"say where the cut card sits (--at): in {shoe.game} it marks the last coup "
                "of the shoe."
            )
        return
    if position > shoe.capacity:
        raise InvalidInput(
            f"the shoe holds {shoe.capacity} cards: the cut card cannot sit after card {position}."
        )
    if game.shoe.single_deck and position != shoe.capacity:
        raise RuleViolation(
            f"in {shoe.game} the blank card goes to the bottom of the deck, after card "
            f"{shoe.capacity}, not after card {position} (art. 3)."
        )
    behind = game.shoe.cards_behind_cut
    expected = shoe.capacity - (behind or 0)
    if behind is not None and position != expected:
        raise RuleViolation(
            f"the {game.name} cut card goes before the last {behind} cards "
            f"(art. 2(1)): after card {expected} of this {shoe.decks}-deck shoe, not {position}."
        )


def cut_shoe(command: CutShoe, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    table = load_table(uow, command.table)
    shoe = current_shoe(uow, table)
    shoe.check_open()
    if not _needs_cut(shoe):
        raise RuleViolation(f"a {shoe.game} shoe shuffled by {shoe.method.value} is not cut.")
    if shoe.cut_by is not None:
        raise WrongState(f"the shoe of table {table.code} is already cut, by {shoe.cut_by}.")
    if shoe.position:
        raise WrongState("the shoe is cut before its first card is drawn.")
    _check_cut_card_position(shoe, command.cut_card_position)
    shoe.cut(cut_by=command.cut_by, cut_card_position=command.cut_card_position,
             by=command.provenance)
    return (shoe,)


# --- burn --------------------------------------------------------------------------------


def _check_can_burn(table: Table, shoe: Shoe) -> None:
    policy = registry.game(table.game).shoe
    if not policy.burns_at_shoe_start:
        raise RuleViolation(policy.burn_refusal or f"{table.game} burns no cards.")
    if shoe.method is ShuffleMethod.AUTOMATIC:
        raise RuleViolation(
            "with the automatic shuffler-dealer the cards come straight from the machine: "
            "no burn (art. 2(3))."
        )
    if shoe.cut_by is None:
        raise WrongState("the shoe is cut before its first cards are burned (art. 2(1)).")
    if shoe.burned or shoe.rounds_dealt:
        raise WrongState(
            "the shoe's first cards are burned once, before its first coup (art. 2(1)); a card "
            "burned before a coup is dealt to 'burn' in that coup (art. 8)."
        )


def _check_cards_in_shoe(shoe: Shoe, cards: tuple[Card, ...]) -> None:
    """Each card against the shoe, counting the cards named before it in the same burn."""
    named: Counter[Card] = Counter()
    for card in cards:
        named[card] += 1
        if shoe.counts[card] + named[card] > shoe.decks:
            times = "once" if shoe.decks == 1 else f"{shoe.decks} times"
            raise RuleViolation(
                f"{card} cannot come out of this shoe {named[card] + shoe.counts[card]} times: "
                f"with {shoe.decks} deck{'s' if shoe.decks > 1 else ''} it holds {card} only "
                f"{times}."
            )


def burn_cards(command: BurnCards, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    table = load_table(uow, command.table)
    shoe = current_shoe(uow, table)
    shoe.check_open()
    _check_can_burn(table, shoe)
    cards = parse_cards(command.cards)
    count = command.count or len(cards)
    if not count:
        raise InvalidInput("say how many cards are burned, or which.")
    if len(cards) > count:
        raise InvalidInput(f"{len(cards)} cards named for a burn of {count}.")
    registry.game(table.game).shoe.check_burn(settings_on(table, command.at, uow), cards, count)
    _check_cards_in_shoe(shoe, cards)
    if shoe.position + count > shoe.capacity:
        raise RuleViolation(f"the shoe holds {shoe.cards_remaining} cards, not {count} to burn.")
    shoe.burn(count=count, cards=list(cards), first_position=shoe.position, by=command.provenance)
    return (shoe,)


# --- rounds from the shoe ----------------------------------------------------------------


def _round_reaching_cut_card(shoe: Shoe) -> tuple[UUID | None, int]:
    """The round that drew the last card before the cut card, and how many rounds drew
    cards after it."""
    if shoe.cut_at is None or not shoe.cut_card_reached:
        return None, 0
    rounds = list(dict.fromkeys(rid for _, _, rid in shoe.drawn if rid is not None))
    reaching = next((rid for position, _, rid in shoe.drawn
                     if rid is not None and position + 1 >= shoe.cut_at), None)
    if reaching is None:
        return None, 0
    return reaching, len(rounds) - rounds.index(reaching) - 1


def check_ready_for_round(table: Table, shoe: Shoe, settings: HouseSettings) -> None:
    """A round is dealt from a shoe that went through its start: cut, burned, not finished."""
    policy = registry.game(table.game).shoe
    if not policy.cut_card:
        return
    if _needs_cut(shoe) and shoe.cut_by is None:
        raise WrongState(
            f"the shoe of table {table.code} is not cut yet: a player or the dealer cuts it "
            "before the first round (art. 2(1))."
        )
    if policy.burns_at_shoe_start and shoe.method is not ShuffleMethod.AUTOMATIC and not shoe.burned:
        raise WrongState(
            f"the shoe of table {table.code} has not burned its first cards yet (art. 2(1))."
        )
    reaching, since = _round_reaching_cut_card(shoe)
    if reaching is None:
        return
    more = policy.coups_after_cut_card(settings)
    if since >= more:
        raise WrongState(
            f"the cut card of table {table.code} has come out and the last round of this shoe "
            "is played: shuffle a new shoe."
        )


def draw_card(shoe: Shoe, card: Card, round_: UUID, by: Provenance) -> int:
    """Take the next card out of the shoe for a round; the position it came from."""
    shoe.check_can_draw(card)
    position, reached = shoe.position, shoe.cut_card_reached
    shoe.draw(position=position, card=card, round_id=round_, by=by)
    if shoe.cut_card_reached and not reached:
        shoe.reach_cut_card(position=shoe.position, by=by)
    return position


# --- close -------------------------------------------------------------------------------


def close_shoe(command: CloseShoe, uow: UnitOfWork) -> tuple[Aggregate, ...]:
    table = load_table(uow, command.table)
    shoe = current_shoe(uow, table)
    shoe.check_open()
    if table.current_round is not None:
        raise WrongState(f"table {table.code} has a round in play: close the shoe after it.")
    revealed = command.revealed_order
    order = list(parse_cards(revealed)) if revealed is not None else None
    holds, mismatches = shoe.check_reveal(order, command.secret)
    shoe.close(revealed_order=order, secret=command.secret, commitment_holds=holds,
               mismatches=mismatches, by=command.provenance)
    return (shoe,)


HANDLERS: Handlers = (
    handles(ShuffleShoe, shuffle_shoe),
    handles(CutShoe, cut_shoe),
    handles(BurnCards, burn_cards),
    handles(CloseShoe, close_shoe),
)
