"""What a terminal's author is told of a line the ledger cannot read: where the JSON is wrong
(the line's own column, its end for a line cut short), a number out of range as the number it
is (money only where the field holds money), an unknown command with the nearest one and where
every one is listed, and never a model's class name or pydantic's wording."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict, ValidationError

from ledger.application.ingest import parse_object
from ledger.commands import unknown_command
from ledger.core.errors import LedgerError, describe_validation_error


def refusal(text: str) -> str:
    with pytest.raises(LedgerError) as refused:
        parse_object(text)
    return str(refused.value)


def test_a_line_cut_short_is_wrong_at_its_end_not_on_a_line_after_it():
    line = '{"command": "place_bet", "table": "BAC-01", "box": 2,\n'
    said = refusal(line)
    assert said.startswith(f"not JSON: it ends at column {len(line.strip()) + 1} before the "
                           "JSON is complete"), said
    assert "line 2" not in said and "column 1 " not in said


def test_a_missing_comma_is_named_at_its_own_column():
    assert refusal('{"table": "BAC-01" "box": 2}') == \
        "not JSON: expecting ',' delimiter at column 20; nothing recorded."


def test_a_box_out_of_range_names_the_field_and_the_whole_number_it_takes_not_money():
    said = refusal('{"command": "place_bet", "box": 1e999}')
    assert said == ("'box' is the number 1e999: not a finite number; 'box' takes a whole number "
                    "from 1 to 99; nothing recorded.")


def test_an_amount_out_of_range_is_told_how_money_is_sent():
    said = refusal('{"command": "place_bet", "amount": 1e999}')
    assert "'amount' is the number 1e999: not a finite amount of money (money is sent as a " \
           "string of patacas" in said


def test_an_unknown_command_names_the_nearest_one_and_where_every_one_is_listed():
    said = str(unknown_command("shuffle_the_deck"))
    assert said == ("unknown command 'shuffle_the_deck' (did you mean 'shuffle_shoe'?): "
                    "`ledger schema` lists every command a terminal can send, with its fields.")
    assert "README" not in str(unknown_command("drain_the_cage"))


class TrustFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ledger: str
    seal_key: str


@pytest.mark.parametrize(("text", "said"), [
    ("{x", "not JSON at line 1, column 2: key must be a string"),
    ('{"ledger": "L",\n "seal_key": }', "not JSON at line 2, column 14: expected value"),
    ("{}", "'ledger' and 'seal_key' are missing"),
    ('{"seal_key": "K"}', "'ledger' is missing"),
    ('{"ledger": "L", "seal_key": "K", "sael_key": "K"}', "'sael_key' is not a field it takes"),
    # every problem, never "(and 1 more problem)": the file is mended in one go
    ('{"seal_key": "K", "sael_key": "K"}',
     "'ledger' is missing; 'sael_key' is not a field it takes"),
])
def test_a_file_the_model_refuses_is_told_in_words_without_the_models_name(text, said):
    with pytest.raises(ValidationError) as refused:
        TrustFile.model_validate_json(text)
    assert describe_validation_error(refused.value) == said
    assert "TrustFile" not in said and "Field required" not in said
