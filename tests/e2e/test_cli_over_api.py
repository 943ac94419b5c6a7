"""`ledger` at a pit podium with no database login: with LEDGER_API_URL the table, shoe and
round commands are signed on the podium and sent to `ledger serve`, which records them at its
door like any terminal's. The pit boss reads the same sentences either way, a refusal is the
same one red line with nothing recorded, and such a command loads no database client."""

from __future__ import annotations

import os
import subprocess
import sys

from ledger.domain.registry import TerminalKind
from tests.e2e.served import free_port
from tests.e2e.shifts import open_shift
from tests.e2e.test_cli_rounds import ok, refused
from tests.signing import E2E_PIT_BOSS, E2E_WORKSTATION, acting_env

NO_DATABASE = "postgresql://nobody@127.0.0.1:1/no_database"  # nothing listens on port 1

COUP = (("round", "open"), ("round", "bet", "1", "banker", "1000", "--player", "P-1"),
        ("round", "bet", "3", "player_pair", "100"), ("round", "deal", "player", "2S"),
        ("round", "deal", "banker", "4H"), ("round", "deal", "player", "2D"),
        ("round", "deal", "banker", "KC"), ("round", "deal", "player", "9S"),
        ("round", "settle"))


def _ready(cli, as_staff, table: str) -> None:
    ok(cli, "table", "open", table, "--game", "baccarat", "--min", "100", "--max", "50000")
    open_shift(cli, table)
    ok(cli, "table", "sign-in", table, "D-101")
    ok(cli, "shoe", "shuffle", table, env=as_staff("D-101", "dealer", terminal=f"{table}-DT",
                                                   kind=TerminalKind.DEALER_TERMINAL))
    ok(cli, "shoe", "cut", table, "--by", "player P-3", "--at", "404")
    ok(cli, "shoe", "burn", table, "--count", "8")


def _play(cli, table: str, env: dict[str, str] | None) -> list[str]:
    return [ok(cli, verb, noun, table, *rest, env=env) for verb, noun, *rest in COUP]


def test_a_coup_sent_through_the_api_says_what_the_same_coup_says_on_the_database(
        cli, superuser, as_staff, served):
    _ready(cli, as_staff, "BAC-01")
    _ready(cli, as_staff, "BAC-02")
    local = _play(cli, "BAC-01", None)
    podium = {"LEDGER_API_URL": served.url, "LEDGER_DATABASE_URL": NO_DATABASE}
    remote = _play(cli, "BAC-02", podium)
    assert [said.replace("BAC-01", "BAC-02") for said in local] == remote
    assert "box 1 (P-1) banker MOP 1,000.00 wins MOP 950.00 after commission MOP 50.00" in remote[-1]
    assert remote[-1].startswith("recorded: 2 bets settled, round settled, round finished\n  ")
    rows = superuser.execute(
        "SELECT count(*) FILTER (WHERE body->>'table' = 'BAC-01'), "
        "       count(*) FILTER (WHERE body->>'table' = 'BAC-02') "
        "  FROM ledger_event_log WHERE event_type = 'Round.Opened'").fetchone()
    assert rows == (1, 1)

    # a refusal: the server's sentence, one red line, exit code 1, nothing recorded
    ok(cli, "round", "open", "BAC-02", env=podium)
    assert refused(cli, superuser, "round", "bet", "BAC-02", "2", "player", "60000",
                   env=podium) == (
        "error: box 2 player: MOP 60,000.00 is above the table maximum MOP 50,000.00.")
    # a person the registry does not know is refused at the server's door
    stranger = {**podium, **acting_env("S-NOBODY", E2E_WORKSTATION)}
    assert refused(cli, superuser, "round", "bet", "BAC-02", "2", "player", "100",
                   env=stranger) == "error: sent by S-NOBODY, who is not enrolled: nothing recorded."


def test_a_podium_whose_api_does_not_answer_waits_to_the_deadline_then_says_so(cli, superuser):
    before = superuser.execute("SELECT count(*) FROM ledger_events").fetchone()
    gone = f"http://127.0.0.1:{free_port()}"
    result = cli("round", "bet", "BAC-09", "1", "banker", "100",
                 extra_env={"LEDGER_API_URL": gone, "LEDGER_DATABASE_URL": NO_DATABASE,
                            "LEDGER_COMMAND_DEADLINE_SECONDS": "2"})
    assert result.code == 1, result.out
    lines = result.err.strip().splitlines()
    assert lines[0].startswith(f"waiting: the ledger's API at {gone} does not answer")
    assert lines[-1].startswith(f"error: the ledger's API at {gone} did not answer")
    assert lines[-1].endswith("it was never received, so nothing was recorded.")
    assert superuser.execute("SELECT count(*) FROM ledger_events").fetchone() == before


def test_a_command_sent_to_the_api_loads_no_database_client_and_no_event_store(served):
    probe = ("import sys\n"
             "sys.argv = ['ledger', 'round', 'bet', 'NO-SUCH', '1', 'banker', '100']\n"
             "from ledger.cli.main import main\n"
             "try:\n    main()\nexcept SystemExit:\n    pass\n"
             "print('LOADED', [m for m in ('psycopg', 'eventsourcing.application', "
             "'ledger.runtime.bootstrap', 'ledger.domain.round', 'ledger.application.handlers') if m in sys.modules])")
    env = {**os.environ, **acting_env(E2E_PIT_BOSS, E2E_WORKSTATION),
           "LEDGER_API_URL": served.url, "LEDGER_DATABASE_URL": NO_DATABASE}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert "LOADED []" in done.stdout, done.stdout + done.stderr
    assert "error: " in done.stderr  # the server answered: no such table


def test_a_podium_pointed_at_something_other_than_the_ledgers_api_is_told_so(
        cli, superuser, served):
    assert refused(cli, superuser, "round", "bet", "BAC-09", "1", "banker", "100",
                   env={"LEDGER_API_URL": f"{served.url}/floor",
                        "LEDGER_DATABASE_URL": NO_DATABASE}) == (
        "error: the server answered 404 without the ledger's JSON: is LEDGER_API_URL the "
        "ledger's API (`ledger serve`)?")


def test_a_podium_whose_command_was_taken_but_never_answered_is_told_it_may_be_recorded(
        cli, superuser):
    """A server that says which ledger it is, then takes the command and never answers: the
    command may have been recorded, and typing it again would be a new one."""
    import json
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    done = threading.Event()

    class Silent(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # GET /v1/ledger, asked before the command is signed
            body = json.dumps({"ledger": "9d0c6a4e-silent"}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self) -> None:  # the command: read, never answered
            done.wait(60)

        def log_message(self, *args) -> None:
            pass

    silent = ThreadingHTTPServer(("127.0.0.1", 0), Silent)
    silent.daemon_threads = True
    threading.Thread(target=silent.serve_forever, daemon=True).start()
    try:
        result = cli("round", "bet", "BAC-09", "1", "banker", "100",
                     extra_env={"LEDGER_API_URL": f"http://127.0.0.1:{silent.server_port}",
                                "LEDGER_DATABASE_URL": NO_DATABASE,
                                "LEDGER_COMMAND_DEADLINE_SECONDS": "1"})
    finally:
        done.set()
        silent.shutdown()
        silent.server_close()
    assert result.code == 1, result.out
    last = result.err.strip().splitlines()[-1]
    assert "was recorded is not known" in last and "a command typed again is a new one" in last
