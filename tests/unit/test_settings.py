"""The settings are the `LEDGER_*` variables, checked by pydantic; what code gives wins."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from pydantic import ValidationError

from ledger.application.config import LedgerSettings, from_environment


def test_each_field_is_read_from_its_ledger_variable_in_any_case(monkeypatch):
    monkeypatch.setenv("LEDGER_POOL_SIZE", "7")
    monkeypatch.setenv("ledger_group_commit", "false")
    monkeypatch.setenv("LEDGER_DATA_DIR", "/srv/ledger/pg")
    monkeypatch.setenv("LEDGER_SEAL_EVERY_SECONDS", "2.5")
    settings = LedgerSettings()
    assert settings.pool_size == 7
    assert settings.group_commit is False
    assert settings.data_dir == Path("/srv/ledger/pg")
    assert Decimal(str(settings.seal_every_seconds)) == Decimal("2.5")


def test_the_property_is_named_by_LEDGER_PROPERTY_and_in_code_by_its_field(monkeypatch):
    monkeypatch.setenv("LEDGER_PROPERTY", "macau_east")
    assert LedgerSettings().property_code == "macau_east"
    assert LedgerSettings(property_code="macau_north").property_code == "macau_north"
    monkeypatch.delenv("LEDGER_PROPERTY")
    monkeypatch.setenv("LEDGER_PROPERTY_CODE", "ignored")
    assert LedgerSettings().property_code is None


def test_a_value_given_in_code_overrides_the_environment_and_the_rest_still_come_from_it(
        monkeypatch):
    monkeypatch.setenv("LEDGER_POOL_SIZE", "7")
    monkeypatch.setenv("LEDGER_DATABASE_URL", "postgresql://from-the-environment/x")
    settings = LedgerSettings(database_url="postgresql://given/y")
    assert settings.database_url == "postgresql://given/y"
    assert settings.pool_size == 7


def test_a_bad_value_is_refused_naming_the_field(monkeypatch):
    monkeypatch.setenv("LEDGER_POOL_SIZE", "many")
    with pytest.raises(ValidationError) as refused:
        LedgerSettings()
    assert refused.value.errors()[0]["loc"] == ("pool_size",)
    monkeypatch.setenv("LEDGER_POOL_SIZE", "0")
    with pytest.raises(ValidationError, match="greater than or equal to 1"):
        LedgerSettings()


def test_other_variables_and_unknown_ledger_variables_are_left_alone():
    environ = {"LEDGER_NO_SUCH_SETTING": "1", "PATH": "/bin", "POOL_SIZE": "9",
               "LEDGER_POOL_SIZE": "3"}
    assert from_environment(LedgerSettings.model_fields, environ) == {"pool_size": "3"}


def test_as_root_the_embedded_data_lives_in_var_lib_outside_a_private_home(monkeypatch):
    monkeypatch.delenv("LEDGER_DATA_DIR", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", "/root")
    monkeypatch.setattr("os.geteuid", lambda: 0)
    assert LedgerSettings().data_dir == Path("/var/lib/round-ledger/postgres")
    monkeypatch.setattr("os.geteuid", lambda: 1000)
    assert LedgerSettings().data_dir == Path("/root/.local/share/round-ledger/postgres")
