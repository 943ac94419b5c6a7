"""The registry through the CLI, as an administrator and the staff they enrol use it.

Keys are made with `ledger key new` where they are used; the administrator enrols the public
half; the person then acts with their own key file, named by LEDGER_STAFF_CREDENTIAL.
"""

from __future__ import annotations

import json

from tests.e2e.conftest import NO_CREDENTIALS
from tests.signing import event_count


def _public_key(cli, path) -> str:
    shown = cli("key", "show", str(path))
    assert shown.code == 0, shown.err
    return next(line.split()[-1] for line in shown.out.splitlines()
                if line.startswith("public key"))


def test_without_a_credential_nothing_is_sent(cli, superuser):
    before = event_count(superuser)
    result = cli("table", "open", "BAC-01", "--game", "baccarat", "--min", "100", "--max", "500",
                 extra_env=NO_CREDENTIALS)
    assert result.code == 1
    assert result.err.strip().splitlines() == [
        ("error: no staff credential: set LEDGER_STAFF_CREDENTIAL to your key file or "
        "LEDGER_STAFF_KEY to its contents (an administrator enrols the key made by `ledger key "
        "new staff ID`).")]
    assert event_count(superuser) == before


def test_an_administrator_enrols_a_dealer_who_then_acts_with_their_own_key(
        cli, as_admin, tmp_path, superuser):
    dealer_key, terminal_key = tmp_path / "d-300.key", tmp_path / "bac-dt.key"
    made = cli("key", "new", "staff", "D-300", "--out", str(dealer_key))
    assert made.code == 0 and "fingerprint ed25519:" in made.out
    assert oct(dealer_key.stat().st_mode & 0o777) == "0o600"
    assert cli("key", "new", "staff", "D-300", "--out", str(dealer_key)).code == 1  # never
    assert cli("key", "new", "terminal", "BAC-05-DT", "--out", str(terminal_key)).code == 0

    enrol = ("staff", "enrol", "D-300", "--name", "Dora Dealer", "--role", "dealer",
             "--public-key", _public_key(cli, dealer_key))
    refused = cli(*enrol)  # the pit boss is no administrator
    assert refused.code == 1
    assert refused.err.strip() == (
        "error: enrolling staff cannot be sent from terminal PIT-E2E: a pit workstation "
        "does not carry it; an admin console does.")
    assert cli(*enrol, extra_env=as_admin).code == 0
    assert cli("terminal", "register", "BAC-05-DT", "--kind", "dealer_terminal", "--location",
               "table BAC-05", "--public-key", _public_key(cli, terminal_key),
               extra_env=as_admin).code == 0

    assert cli("table", "open", "BAC-05", "--game", "baccarat", "--min", "100", "--max",
               "500").code == 0
    dealer = {"LEDGER_STAFF_CREDENTIAL": str(dealer_key),
              "LEDGER_TERMINAL_CREDENTIAL": str(terminal_key)}
    signed_in = cli("table", "sign-in", "BAC-05", "D-300", extra_env=dealer)
    assert signed_in.code == 0, signed_in.err  # a dealer badges in at their table

    assert cli("staff", "suspend", "D-300", "--reason", "left the floor mid-shift",
               extra_env=as_admin).code == 0
    before = event_count(superuser)
    shuffled = cli("shoe", "shuffle", "BAC-05", extra_env=dealer)
    assert shuffled.code == 1
    assert shuffled.err.strip() == ("error: sent by D-300 (Dora Dealer), who is suspended (left "
                                    "the floor mid-shift): nothing recorded.")
    assert event_count(superuser) == before

    listed = cli("staff", "list").out
    assert "D-300" in listed and "suspended" in listed
    history = cli("staff", "show", "D-300").out
    assert "staff member enrolled" in history and "staff member suspended" in history
    assert "Macau time" in history
    assert "by administrator ADM-1 at ADMIN-CONSOLE" in history
    assert cli("terminal", "revoke", "BAC-05-DT", "--reason", "replaced",
               extra_env=as_admin).code == 0
    assert "revoked" in cli("terminal", "list").out


def test_db_init_bootstraps_the_first_administrator_from_the_operators_keys_only(
        cli, empty_database, tmp_path):
    url = empty_database.url
    for kind, id in (("staff", "ADM-9"), ("terminal", "CONSOLE-9")):
        assert cli("key", "new", kind, id, "--out", str(tmp_path / f"{id}.key")).code == 0
    keys = {"LEDGER_STAFF_CREDENTIAL": str(tmp_path / "ADM-9.key"),
            "LEDGER_TERMINAL_CREDENTIAL": str(tmp_path / "CONSOLE-9.key")}
    nameless = cli("db", "init", url=url, extra_env=NO_CREDENTIALS)
    assert nameless.code == 1
    assert "the registry has no administrator yet" in nameless.err
    assert "there is no default account" in nameless.err
    first = cli("db", "init", "--admin-name", "Ada Nine", url=url, extra_env=keys)
    assert first.code == 0, first.err
    assert "administrator ADM-9 (Ada Nine" in first.out
    again = cli("db", "init", "--admin-name", "Someone Else", url=url, extra_env=NO_CREDENTIALS)
    assert again.code == 0 and "bootstrapped by administrator ADM-9" in again.out
    listed = cli("staff", "list", url=url).out
    assert "ADM-9" in listed and "administrator" in listed and "Someone" not in listed


def test_a_key_is_made_only_for_an_id_the_registry_could_hold(cli, tmp_path):
    for bad in ("", "  ", ".D1", "D 101", "x" * 65):
        out = tmp_path / "never.key"
        result = cli("key", "new", "seal", bad, "--out", str(out))
        assert result.code == 1, bad
        [line] = result.err.strip().splitlines()
        assert f"'{bad}' is not an id" in line and not out.exists()


def test_a_key_fingerprint_is_never_cut_at_80_or_120_columns(cli):
    """A fingerprint is checked by eye against another copy: every list shows it whole, on
    one line, however narrow the terminal."""
    for listing, id_field in (("staff", "staff_id"), ("terminal", "terminal_id")):
        records = json.loads(cli(listing, "list", "--json").out)
        assert records
        for columns in ("80", "120"):
            shown = cli(listing, "list", extra_env={"COLUMNS": columns})
            assert shown.code == 0, shown.err
            assert "…" not in shown.out, shown.out
            lines = shown.out.splitlines()
            for record in records:
                (line,) = [line for line in lines if f" {record[id_field]} " in f" {line} "]
                assert record["fingerprint"] in line, (columns, shown.out)
