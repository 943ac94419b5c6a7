"""`--chips 1e999=1` answered "chips.Decimal('1E+999').[key]: …" and `--chips 100=-5` "chips.
Decimal('100'): Input should be greater than or equal to 0": pydantic's location and words. A
wrong denomination or count is named as a person would name it."""

from __future__ import annotations

from decimal import Decimal

import pytest
from pydantic import ValidationError

from ledger.commands.shift import RecordFill
from ledger.core.errors import describe_validation_error

FILL = {"table": "SP-02", "gaming_day": "2026-11-29", "shift": "day", "slip": 1,
        "runner_id": "R-1", "supervisor": "S-1", "at": "2026-11-29T06:00:00+08:00",
        "command_id": "00000000-0000-0000-0000-000000000001"}


def _said(chips: dict[object, object]) -> str:
    with pytest.raises(ValidationError) as refused:
        RecordFill.model_validate({**FILL, "chips": chips})
    return describe_validation_error(refused.value)


@pytest.mark.parametrize("denomination", [Decimal("1E+999"), "1e999"])
def test_a_denomination_in_scientific_notation_is_named_as_the_denomination(denomination):
    said = _said({denomination: 1})
    assert said.startswith(f"chips, the denomination {denomination!s}: an amount is written "
                           "in plain figures")
    assert "Decimal(" not in said and "[key]" not in said


@pytest.mark.parametrize("denomination", [Decimal(100), "100"])
def test_a_negative_count_of_chips_says_the_count_and_the_least_it_takes(denomination):
    said = _said({denomination: -5})
    assert said == "chips, the count of 100: -5 is below 0, the least it takes"

