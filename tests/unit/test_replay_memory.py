"""The rules check a round at every command from its first fact; what is kept to make that
cheap (replayed engine values, verified signatures, derived stream ids) must never answer for
anything but exactly what it was computed from."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from ledger.games.facts import RoundFacts
from ledger.games.replayer import Replayer
from ledger.games.rulesets import parse_settings
from ledger.identity.keys import Credential, verify

SETTINGS = parse_settings("baccarat/2004", {
    "effective_from": "2026-01-01", "authorisation": "DICJ-TEST", "min_bet": "100.00",
    "max_bet": "5000.00", "decks": 8})


def _facts(*log: tuple[str, object]) -> RoundFacts:
    return RoundFacts(game="baccarat", rule_set="baccarat/2004", settings=SETTINGS,
                      dealing="shoe", log=tuple(log))


class Counted:
    """An engine whose value is the facts applied so far, counting the steps taken."""

    def __init__(self) -> None:
        self.steps = 0

    def start(self, facts: RoundFacts) -> tuple[object, ...]:
        return (facts.dealing,)

    def step(self, value: tuple[object, ...], kind: str, fact: object) -> tuple[object, ...]:
        self.steps += 1
        return (*value, (kind, fact))


def test_a_round_one_fact_longer_than_one_replayed_costs_one_step_and_equals_a_full_replay():
    engine = Counted()
    replay = Replayer(engine.start, engine.step)
    facts = [("bet", n) for n in range(30)]
    replay(_facts(*facts[:29]))
    engine.steps = 0
    value = replay(_facts(*facts))
    assert engine.steps == 1
    assert value == Replayer(Counted().start, Counted().step)(_facts(*facts))


def test_two_rounds_that_differ_in_an_earlier_fact_never_share_a_replayed_value():
    engine = Counted()
    replay = Replayer(engine.start, engine.step)
    honest = replay(_facts(("bet", 1), ("card", "9H")))
    changed = replay(_facts(("bet", 2), ("card", "9H")))  # same length, same last fact
    assert honest != changed and changed[1] == ("bet", 2)


def test_the_same_facts_from_other_equipment_are_replayed_afresh():
    engine = Counted()
    replay = Replayer(engine.start, engine.step)
    shoe = replay(_facts(("bet", 1)))
    shuffler = replay(RoundFacts(game="baccarat", rule_set="baccarat/2004", settings=SETTINGS,
                                 dealing="shuffler", log=(("bet", 1),)))
    assert shoe[0] == "shoe" and shuffler[0] == "shuffler"


def test_settings_kept_are_the_ones_validated_and_a_changed_value_is_validated_again():
    data = {"effective_from": "2026-01-01", "authorisation": "DICJ-TEST", "min_bet": "100.00",
            "max_bet": "5000.00", "decks": 8}
    assert parse_settings("baccarat/2004", data) is parse_settings("baccarat/2004", dict(data))
    raised = parse_settings("baccarat/2004", {**data, "max_bet": "9000.00"})
    assert raised.max_bet == Decimal("9000.00") and raised.effective_from == date(2026, 1, 1)


def test_a_signature_found_good_is_not_taken_for_other_bytes_or_another_key():
    dealer, other = Credential.generate("staff", "D-1"), Credential.generate("staff", "D-2")
    signature = dealer.sign(b"place_bet 100")
    assert verify(dealer.public_key, signature, b"place_bet 100")
    assert verify(dealer.public_key, signature, b"place_bet 100")  # kept: still good
    assert not verify(dealer.public_key, signature, b"place_bet 900")
    assert not verify(other.public_key, signature, b"place_bet 100")
