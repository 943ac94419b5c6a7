"""Round numbers ran backwards in time: a new user simulated a past gaming day after a later
one, its rounds got higher numbers than the later day's, and `ledger recall --last N` listed
them in a confusing order. A table's rounds are numbered in the order recorded, and its shifts
open in time order (the house's rule, docs/rules.md): the simulator refuses such a run before
it records anything, naming the first shift free after the latest its tables hold, and an
earlier gaming day's shift is refused by the table itself through every door (the CLI, the
HTTP API, an ingest feed); recall says in which order it lists the latest rounds."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest

from ledger.commands.shift import CloseShift
from tests.e2e.served import Served
from tests.integration.helpers import DEALER, OPENING_CHIPS, PIT_BOSS, open_shift, open_table
from tests.signing import GAMING_DAY, OTHER_DAYS_ENV, event_count, key_file

NEXT_DAY = GAMING_DAY + timedelta(days=1)  # opened the evening before: a later gaming day
REFUSED = (f"table BAC-01 already holds a shift of gaming day {NEXT_DAY}, so a shift of "
           f"{GAMING_DAY} cannot open there: a table's shifts open in time order (its rounds "
           f"are numbered in the order recorded). Open a shift of {NEXT_DAY} or later, or "
           "record the earlier day at another table.")


@pytest.fixture
def admin_env(as_admin, tmp_path):
    return {**as_admin, "LEDGER_SIMULATOR_KEYS": str(tmp_path / "keys"), **OTHER_DAYS_ENV}


def _simulate(cli, env, day: str, shift: str, tables: int = 2):
    return cli("simulate", "--tables", str(tables), "--rounds", "2", "--seed", "3", "--day",
               day, "--shift", shift, "--irregularity-rate", "0", extra_env=env)


def test_round_numbers_ran_backwards_so_simulating_a_past_day_after_a_later_one_is_refused(
        cli, superuser, admin_env):
    later = _simulate(cli, admin_env, "2026-10-02", "day")
    assert later.code == 0, later.err + later.out
    before = event_count(superuser)
    earlier = _simulate(cli, admin_env, "2026-10-01", "swing")
    assert earlier.code == 1, earlier.out
    assert earlier.err.strip() == (
        "error: table BAC-01 already holds the day shift of 2026-10-02 (06:00 to 14:00 Macau "
        "time), which comes after the swing shift of 2026-10-01 (14:00 to 22:00 Macau time): a "
        "table's shifts open in time order, so its rounds are numbered in the order of time. "
        "The first shift free after the latest its tables hold is the swing shift of "
        "2026-10-02 (14:00 to 22:00 Macau time): --day 2026-10-02 --shift swing (or simulate "
        "other tables).")
    assert event_count(superuser) == before
    played = _simulate(cli, admin_env, "2026-10-02", "swing")  # the shift it named plays
    assert played.code == 0, played.err + played.out


def test_an_earlier_shift_of_the_same_gaming_day_is_not_simulated_after_a_later_one(
        cli, superuser, admin_env):
    """The simulator knows the schedule: it compares the shifts' starts, not only the days."""
    assert _simulate(cli, admin_env, "2026-10-02", "swing").code == 0
    before = event_count(superuser)
    earlier = _simulate(cli, admin_env, "2026-10-02", "day")
    assert earlier.code == 1, earlier.out
    assert ("table BAC-01 already holds the swing shift of 2026-10-02 (14:00 to 22:00 Macau "
            "time), which comes after the day shift of 2026-10-02") in earlier.err
    assert "--day 2026-10-02 --shift graveyard" in earlier.err
    assert event_count(superuser) == before


def test_recall_last_lists_the_latest_rounds_by_number_newest_first_and_says_so(
        cli, admin_env):
    for day in ("2026-10-01", "2026-10-02"):
        done = _simulate(cli, admin_env, day, "day", tables=1)
        assert done.code == 0, done.err + done.out
    recalled = cli("recall", "BAC-01", "--last", "3")
    assert recalled.code == 0, recalled.err
    assert "Table BAC-01: the 3 latest rounds by number, newest first" in recalled.out
    rounds = json.loads(cli("recall", "BAC-01", "--last", "3", "--json").out)["rounds"]
    numbers = [r["number"] for r in rounds]
    opened = [r["opened_at"] for r in rounds]
    assert numbers == sorted(numbers, reverse=True) and numbers[0] == max(numbers), numbers
    assert opened == sorted(opened, reverse=True), opened  # the order of time too
    assert opened[0].startswith("2026-10-02") and opened[-1].startswith("2026-10-01"), opened
    shown = [int(n) for n in re.findall(r"^│ (\d+) ", recalled.out, re.MULTILINE)]
    assert shown == numbers, recalled.out


def _shift(cli, action: str, day: str):
    return cli("shift", action, "BAC-01", "--day", day, "--shift", "day", "--chips",
               "1000=50,100=40", "--dealer", "D-1", "--supervisor", "S-1", "--cosigner",
               key_file("S-1"))


def test_an_earlier_gaming_days_shift_is_refused_at_the_pit_after_a_later_days(cli, superuser):
    assert cli("table", "open", "BAC-01", "--game", "baccarat", "--min", "100", "--max",
               "50000").code == 0
    for action in ("open", "close"):
        done = _shift(cli, action, NEXT_DAY.isoformat())
        assert done.code == 0, done.err
    before = event_count(superuser)
    refused = _shift(cli, "open", GAMING_DAY.isoformat())
    assert refused.code == 1
    assert refused.err.strip() == f"error: {REFUSED}"
    assert event_count(superuser) == before


def test_an_earlier_gaming_days_shift_sent_over_http_is_refused_as_at_the_pit(
        served: Served, settings, superuser):
    from tests.signing import open_ledger

    with open_ledger(settings) as rt:
        rt.ledger.execute(open_table("BAC-01"))
        rt.ledger.execute(open_shift("BAC-01", gaming_day=NEXT_DAY))
        rt.ledger.execute(CloseShift(table="BAC-01", gaming_day=NEXT_DAY, shift="day",
                                     chips=OPENING_CHIPS, dealer_id=DEALER.staff_id,
                                     supervisor=PIT_BOSS, actor=PIT_BOSS, terminal="pit-1"))
        sent = rt.ledger.sign(open_shift("BAC-01")).model_dump_json()
    before = event_count(superuser)
    answer = served.post("/v1/commands", sent)
    assert answer.status_code == 409, answer.text
    error = answer.json()["error"]
    assert (error["code"], error["message"]) == ("wrong_state", REFUSED), error
    assert event_count(superuser) == before


def test_an_earlier_gaming_days_shift_in_an_ingest_feed_is_rejected_as_at_the_pit(
        cli, superuser, tmp_path):
    chips = {"1000": 50, "100": 40}
    lines = [
        {"command": "open_table", "table": "BAC-01", "game": "baccarat", "min_bet": "100.00",
         "max_bet": "50000.00", "settings": {"decks": 8}},
        {"command": "open_shift", "table": "BAC-01", "gaming_day": NEXT_DAY.isoformat(),
         "shift": "day", "chips": chips, "dealer_id": "D-101"},
        {"command": "close_shift", "table": "BAC-01", "gaming_day": NEXT_DAY.isoformat(),
         "shift": "day", "chips": chips, "dealer_id": "D-101"},
        {"command": "open_shift", "table": "BAC-01", "gaming_day": GAMING_DAY.isoformat(),
         "shift": "day", "chips": chips, "dealer_id": "D-101"},
    ]
    path = tmp_path / "feed.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    result = cli("ingest", "--vouch", str(path))
    assert result.code == 1, result.out + result.err
    said = " ".join(result.out.split())
    assert f"line 4: rejected: open_shift: {REFUSED}" in said or (
        "line 4: rejected" in said and REFUSED in said), result.out
    assert "3 accepted, 0 already recorded, 1 rejected" in said, result.out
    assert superuser.execute(
        "SELECT count(*) FROM ledger_event_log WHERE event_type = 'Table.ShiftOpened'"
    ).fetchone()[0] == 1
