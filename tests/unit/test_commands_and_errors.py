"""Commands validate their input; the CLI turns every expected error into one line."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from pydantic import ValidationError

from ledger.audit.replay.chain import GENESIS, chain_hash
from ledger.cli.errors import one_line
from ledger.commands import command_class
from ledger.commands.table import OpenTable
from ledger.core.errors import InvalidInput, NotFound
from ledger.domain.base import Actor, Role

PB = Actor(staff_id="PB-1", role=Role.PIT_BOSS)


def test_amounts_are_kept_with_exactly_two_places():
    command = OpenTable(table="B", game="baccarat", min_bet="100", max_bet="2500.5", actor=PB)
    assert (command.min_bet, command.max_bet) == (Decimal("100.00"), Decimal("2500.50"))


def test_an_amount_with_three_places_is_refused_in_one_line():
    with pytest.raises(ValidationError) as caught:
        OpenTable(table="B", game="baccarat", min_bet="1.005", max_bet="10", actor=PB)
    message = one_line(caught.value)
    assert message.startswith("min_bet: ") and "\n" not in message


@pytest.mark.parametrize("number", [0.1, 10, True])
def test_money_sent_as_a_json_number_is_refused_in_one_line(number):
    with pytest.raises(ValidationError) as caught:
        OpenTable(table="B", game="baccarat", min_bet=number, max_bet="10", actor=PB)
    assert one_line(caught.value).startswith("min_bet: money is sent as a string of patacas")


def test_an_ingested_line_finds_its_command_by_name():
    line = (
        '{"command": "open_table", "table": "BAC-1", "game": "baccarat", "min_bet": "100", '
        '"max_bet": "500", "actor": {"staff_id": "PB-1", "role": "pit_boss"}}'
    )
    assert isinstance(command_class(json.loads(line)["command"]).model_validate_json(line),
                      OpenTable)


def test_an_unknown_command_name_is_refused():
    with pytest.raises(InvalidInput, match="unknown command 'pay_me'"):
        command_class("pay_me")


def test_ledger_errors_print_as_their_sentence_and_bugs_are_not_hidden():
    assert one_line(NotFound("table X does not exist.")) == "table X does not exist."
    assert one_line(KeyError("bug")) is None


def test_the_chain_hash_depends_on_every_part_of_an_event():
    from uuid import UUID

    stream = UUID(int=1)
    base = chain_hash(GENESIS, stream, 1, "t:E", b"{}")
    assert base != chain_hash(GENESIS, stream, 2, "t:E", b"{}")
    assert base != chain_hash(GENESIS, UUID(int=2), 1, "t:E", b"{}")
    assert base != chain_hash(GENESIS, stream, 1, "t:F", b"{}")
    assert base != chain_hash(GENESIS, stream, 1, "t:E", b"{ }")
    assert base != chain_hash(base, stream, 1, "t:E", b"{}")
    # topic and body cannot trade bytes: the topic's length is part of the hash
    assert chain_hash(GENESIS, stream, 1, "t:E{", b"}") != chain_hash(GENESIS, stream, 1, "t:E", b"{}")


def test_every_area_module_lists_exactly_the_commands_it_defines_under_their_wire_names():
    """`command_class` finds a command by its wire name in the areas' `*_COMMANDS` tuples:
    each tuple must hold every command its module defines, and the authority table name them
    all."""
    from importlib import import_module

    from ledger.commands import commands_of_areas, wire_name
    from ledger.commands.base import Command
    from ledger.identity.authority import AUTHORITY

    for area, listed in commands_of_areas().items():
        module = f"ledger.commands.{area}"
        defined = {cls for cls in vars(import_module(module)).values()
                   if isinstance(cls, type) and issubclass(cls, Command)
                   and cls.__module__ == module and "command" in cls.model_fields}
        assert defined == set(listed), area
        for cls in listed:
            assert cls.__module__ == module, cls
            assert cls.model_fields["command"].default == wire_name(cls.__name__)
    assert set(AUTHORITY) == {wire_name(cls.__name__)
                              for listed in commands_of_areas().values() for cls in listed}


def test_every_area_handles_exactly_its_own_commands():
    from ledger.application.bus import EVERY_AREA, Bus
    from ledger.commands import commands_of_areas

    by_area = commands_of_areas()
    for area in EVERY_AREA:
        assert set(Bus((area,)).commands()) == set(by_area[area.name]), area.name


def test_a_command_of_an_area_not_loaded_is_refused_by_name():
    from ledger.application.bus import ROUND, TABLE, AreaNotLoaded, Bus
    from ledger.commands.table import OpenTable

    with pytest.raises(AreaNotLoaded, match="OpenTable is a command of the table area.*round"):
        Bus((ROUND,)).handler_for(OpenTable)
    assert Bus((TABLE,)).handler_for(OpenTable).__name__ == "open_table"


def test_an_envelope_copied_with_a_changed_command_is_signed_bytes_of_its_own_command():
    """The signed bytes are made once per envelope; a copy with another command must not
    carry the first one's (a changed command would then pass for the signed one)."""
    from ledger.identity.envelope import Signature, SignedCommand
    from ledger.identity.keys import canonical_json

    signature = Signature(signer="terminal", id="T-1", key="k", value="v")
    first = SignedCommand(command={"command": "place_bet", "amount": "100.00"}, terminal="T-1",
                          staff="D-1", signatures=[signature])
    assert first.message() is first.message()
    changed = first.model_copy(update={"command": {"command": "place_bet", "amount": "900.00"}})
    assert b'"900.00"' in changed.message() and b'"100.00"' not in changed.message()
    assert changed.command_size == len(canonical_json(changed.command))


def test_a_command_copied_with_another_actor_carries_its_own_provenance():
    """A command's provenance is made once; the door's copy that names who acted must not keep
    a provenance made before (its events would then name the wrong person)."""
    command = OpenTable(table="BAC-01", game="baccarat", min_bet="100", max_bet="500", pit="A",
                        actor=PB, terminal="T-1")
    assert command.provenance is command.provenance
    other = Actor(staff_id="PB-2", role=Role.PIT_BOSS)
    copied = command.model_copy(update={"actor": other, "terminal": "T-2"})
    assert (copied.provenance.actor, copied.provenance.terminal) == (other, "T-2")
    assert (command.provenance.actor, command.provenance.terminal) == (PB, "T-1")


def test_an_envelope_signed_here_keeps_the_very_bytes_its_signatures_cover():
    """`sign` keeps the bytes it signed with the envelope, so they are not made again; they
    must be the signed bytes of the envelope's own fields, as a verifier makes them."""
    from ledger.identity.envelope import sign, signed_bytes
    from ledger.identity.keys import Credential, canonical_json, verify

    terminal, staff = Credential.generate("terminal", "T-1"), Credential.generate("staff", "D-1")
    signed = sign({"command": "place_bet", "table": "BAC-01", "amount": "100.00"}, terminal,
                  staff, vouched="line 3 of a feed", ledger="6c1e2f5a-ledger")
    made = signed_bytes(signed.command, signed.terminal, signed.staff, signed.vouched,
                        signed.ledger)
    assert b'"ledger":"6c1e2f5a-ledger"' in made
    assert signed.message() == made
    assert all(verify(key.public_key, s.value, made)
               for key, s in zip((terminal, staff), signed.signatures, strict=True))
    assert signed.command_size == len(canonical_json(signed.command))


def test_text_refuses_every_ascii_control_character_and_keeps_every_printable_one():
    """Printable ASCII is let through at once (most of what terminals send); every ASCII
    control character is still refused, at its position, as any other refused character is."""
    import unicodedata

    from ledger.domain.grammar import REFUSED_CATEGORIES, clean_text

    for code in range(128):
        char = chr(code)
        text = f"ab{char}cd"
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            with pytest.raises(InvalidInput, match=f"U\\+{code:04X} at position 3"):
                clean_text(text)
        else:
            assert clean_text(text) == text.strip()
