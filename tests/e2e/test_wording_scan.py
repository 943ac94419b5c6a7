"""Words everywhere a person reads: over a simulated day on a small floor of all four games,
every read command's text output, the floor's pages and its live feed, the shift report and
the replay page say hands, bets, modes, states and fields in the words of the regulations and
the pit: no snake_case names, no Python `True`/`False`/`None`, and every count or amount of
1,000 or more with its thousands separators. `--json` is exempt: its keys are machine fields.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path
from uuid import uuid4

import httpx

from ledger.core import clock as ledger_clock
from ledger.domain.registry import TerminalKind
from ledger.identity.envelope import sign
from tests.e2e.served import Served
from tests.signing import KEYRING, UNTRUSTED, clock_after, open_ledger

DAY = "2026-11-01"
TABLES = ("BAC-01", "SP-01", "QP-01", "F8-01")

SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
PYTHON = re.compile(r"\b(True|False|None)\b")
BARE_NUMBER = re.compile(r"(?<![\w#/.:,+-])\d{4,}(?:\.\d+)?(?![\w/:-])")
"""A number of four digits or more with no separator, not part of a date, a time, a path, an
id, a fingerprint or a version (`#2632` is an event's position, a name, not a count)."""
YEAR = re.compile(r"(19|20)\d\d")
"""A year standing alone (a regulation's: `DICJ 61/2004`) is a name, not a count."""
MACHINE_TOKENS = re.compile(r"\S*(/|\\|\.key\b|\.html\b|@)\S*|\b[A-Z][A-Z0-9_]+\b")
"""Paths, URLs, key files, written files and environment variables (`LEDGER_SEAL_KEY`): what
a person copies to type it back, not words to read."""

ALLOWED: dict[str, str] = {}
"""Tokens allowed anywhere, each with its reason (none needed so far)."""

REPLAY = r"replay |replay-|/floor/tables/.+/replay"
PENDING_OTHER_OWNERS: dict[tuple[str, str], str] = {}
"""Findings in outputs whose wording is being changed elsewhere: (where the output is, what it
shows) -> reason. Empty: every output is held to the scan."""


@dataclass(frozen=True)
class Finding:
    where: str
    what: str
    context: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what!r} in ...{self.context}..."


def findings(where: str, text: str) -> list[Finding]:
    """What a person should not have to read in `text` (shown as `where`)."""
    found = []
    for line in text.splitlines():
        plain = MACHINE_TOKENS.sub(" ", line)
        for pattern, kind in ((SNAKE, "snake"), (PYTHON, "python"), (BARE_NUMBER, "number")):
            for match in pattern.finditer(plain):
                token = match.group(0)
                if token in ALLOWED or (kind == "number" and YEAR.fullmatch(token)):
                    continue
                found.append(Finding(where, token, line.strip()[:160]))
    return found


def page_text(markup: str) -> str:
    """What a browser shows of a page: no script, style or tag, no `<code>` (written to be
    typed), entities decoded."""
    markup = re.sub(r"<(script|style|code)\b.*?</\1>", " ", markup, flags=re.DOTALL | re.IGNORECASE)
    markup = re.sub(r"<[^>]+>", " ", markup)
    return html.unescape(markup)


def _simulated_day(cli, as_admin, tmp_path: Path) -> None:
    env = {**as_admin, "LEDGER_SIMULATOR_KEYS": str(tmp_path / "keys"), **clock_after(DAY)}
    done = cli("simulate", "--tables", "4", "--rounds", "8", "--seed", "6", "--day", DAY,
               "--irregularity-rate", "0.1", extra_env=env)
    assert done.code == 0, done.err + done.out
    assert cli("projections", "run", "--once").code == 0


def _read_commands(tmp_path: Path) -> list[tuple[str, ...]]:
    """Every read command a person runs, in text (the `--json` twins are for scripts)."""
    commands: list[tuple[str, ...]] = [
        ("table", "list"), ("jackpot", "list"), ("jackpot", "show", "MAIN-PROGRESSIVE"),
        ("staff", "list"), ("staff", "show", "D-SP-01-1"), ("terminal", "list"),
        ("terminal", "show", "SP-01-DT"), ("db", "status"), ("projections", "status"),
        ("seal", "status"), ("verify",), ("events", "tail", "-n", "60"),
        ("events", "show", "SP-01"),
        ("report", "shift", "--day", DAY, "--shift", "day", "--format", "html", "--output",
         str(tmp_path / "reports")),
        ("report", "day", "--day", DAY), ("report", "month"),
        ("report", "protection", "--period", "day", "--day", DAY, "--format", "html",
         "--output", str(tmp_path / "reports")),
        ("hand", "stud-poker", "AH", "KH", "QH", "JH", "TH"),
        ("hand", "stud-poker", "JS", "JC", "9D", "4H", "2C"),
        ("hand", "q-poker", "AH", "KH", "2C"), ("hand", "baccarat", "9H", "2C", "3D", "4S", "5S"),
        ("hand", "fortune-8", "8H", "2C", "KD"),
    ]
    for table in TABLES:
        commands += [("table", "show", table), ("round", "show", table), ("recall", table),
                     ("shoe", "show", table),
                     ("shift", "show", table, "--day", DAY, "--shift", "day"),
                     ("replay", table, "2", "--html", str(tmp_path / f"replay-{table}.html"))]
    return commands


def sign_in(served: Served, staff_id: str, terminal: str) -> str:
    """A session for a member of staff, as a pit screen's sign-in makes one."""
    challenge = served.post("/v1/sessions/challenge", "").json()["challenge"]
    fields = {"command": "sign_in", "command_id": str(uuid4()),
              "at": ledger_clock.now().isoformat(), "challenge": challenge}
    signed = sign(fields, KEYRING.credential("terminal", terminal),
                  KEYRING.credential("staff", staff_id),
                  ledger=served.get("/v1/ledger").json()["ledger"])
    answer = served.post("/v1/sessions", signed.model_dump_json())
    assert answer.status_code == 201, answer.text
    return str(answer.json()["token"])


def _floor_feed(served: Served, token: str) -> str:
    """The live feed's first messages: the whole floor, the jackpot meters and the alerts."""
    received = ""
    with httpx.stream("GET", f"{served.url}/floor/events", timeout=30.0,
                      cookies={"ledger_session": token}) as stream:
        for chunk in stream.iter_text():
            received += chunk
            if "event: alerts" in received and received.endswith("\n\n"):
                break
    return "\n".join(line.removeprefix("data: ") for line in received.splitlines()
                     if line.startswith("data: "))


def _pages(served: Served, token: str) -> dict[str, str]:
    paths = ["/floor", f"/floor/reports/shift/{DAY}/day", f"/floor/reports/day/{DAY}",
             *(f"/floor/tables/{table}" for table in TABLES),
             *(f"/floor/tables/{table}/rounds/2/replay" for table in TABLES)]
    pages = {}
    served.client.cookies.set("ledger_session", token)
    for path in paths:
        answer = served.client.get(path)
        assert answer.status_code == 200, (path, answer.text[:300])
        pages[path] = page_text(answer.text)
    pages["floor feed"] = page_text(_floor_feed(served, token))
    return pages


def test_no_screen_page_or_feed_shows_internal_names_python_values_or_bare_counts(
        cli, as_admin, served, settings, tmp_path):
    _simulated_day(cli, as_admin, tmp_path)
    outputs: dict[str, str] = {}
    for command in _read_commands(tmp_path):
        done = cli(*command)
        assert done.code in (0, 1, UNTRUSTED), (command, done.err)
        outputs[" ".join(command)] = done.out + done.err
    for written in sorted(tmp_path.rglob("*.html")):
        outputs[written.name] = page_text(written.read_text())
    with open_ledger(settings) as rt:
        rt.ledger.admin.ensure_terminal("FLOOR-1", TerminalKind.PIT_WORKSTATION, "pit podium")
    outputs |= _pages(served, sign_in(served, "PB-E2E", "FLOOR-1"))
    for table in TABLES:  # the floor's tables closed at the shift's end: their pages say so
        assert re.search(rf"{table}: table closed after round \d+\.",
                         outputs[f"/floor/tables/{table}"]), table
    found = [f for where, text in outputs.items() for f in findings(where, text)
             if not any(re.match(place, f.where) and re.fullmatch(token, f.what)
                        for place, token in PENDING_OTHER_OWNERS)]
    stud = re.search(r"#\d+ dealer (10|[2-9JQKA])[♠♥♣♦] .*?(qualifies|does not qualify); box",
                     outputs["/floor"])
    assert stud, "Stud Poker's results on the floor say the dealer's hand and the boxes"
    unique = list({(f.where, f.what): f for f in found}.values())
    assert not unique, f"{len(unique)} findings:\n" + "\n".join(map(str, unique))


def test_piped_output_draws_no_rule_wider_than_a_screen(cli):
    """Piped to a file (no terminal, no COLUMNS), a rule is a screen wide, not 400 characters."""
    done = cli("events", "tail", "-n", "3", extra_env={"COLUMNS": None})
    assert done.code == 0, done.err
    widest = max(len(line) for line in done.out.splitlines() if set(line) & {"─", "━"})
    assert widest <= 120, widest


def test_the_scan_sees_what_the_complaint_saw():
    """The scan itself: each thing complained of is a finding, each proper wording is not."""
    complained = ("dealer one_pair (JS JC 9D): qualifies", "dealt all_spaces", "is_open True",
                  "checked 5804 commands", "max_bet 50000.00", "royal_flush")
    assert all(findings("complaint", text) for text in complained)
    proper = ("dealer one pair (JS JC 9D): qualifies", "open: yes", "checked 5,804 commands",
              "maximum bet MOP 50,000.00", "gaming day 2026-11-01 14:03:05 Macau time",
              "DICJ 61/2004", "wrote /tmp/pytest_x/shift_report.html", "key ed25519:f111e1bb",
              "set LEDGER_SEAL_PUBLIC_KEY", "#2632 bet settled")
    assert not [f for text in proper for f in findings("proper", text)]
