"""No reading of the time of day outside the ledger's clock, in the product or the tests.

The ledger's time is its clock's (`ledger/core/clock.py`), given at its composition root; a
test gives it (`tests/clock.py`). A reading of the host's clock anywhere else (`datetime.now()`,
`date.today()`, `time.time()` and their kin, under any import name) is named here with its file
and line. How long something takes (`time.monotonic`, `time.perf_counter`) is not the time of
day and stays free. A line that must read the host's clock says why in a `# real time:` comment
(a certificate's validity checked by a library against the host's clock).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
THE_CLOCK = ROOT / "ledger" / "core" / "clock.py"
TIME_OF_DAY = {
    ("datetime", "datetime", "now"), ("datetime", "datetime", "utcnow"),
    ("datetime", "datetime", "today"), ("datetime", "date", "today"),
    ("time", "time"), ("time", "time_ns"), ("time", "localtime"), ("time", "gmtime"),
    ("time", "ctime"), ("time", "asctime"),
}
"""Each as the dotted path of what is called: module, then attribute(s)."""


def _imported(tree: ast.Module) -> dict[str, tuple[str, ...]]:
    """Each name a module binds by import, as the dotted path it stands for."""
    names: dict[str, tuple[str, ...]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name.split(".")[0]] = tuple(
                    alias.name.split(".") if alias.asname else alias.name.split(".")[:1])
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                names[alias.asname or alias.name] = (*node.module.split("."), alias.name)
    return names


def _dotted(node: ast.expr, names: dict[str, tuple[str, ...]]) -> tuple[str, ...] | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.insert(0, node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in names:
        return (*names[node.id], *parts)
    return None


def readings_of_the_time_of_day(path: Path) -> list[str]:
    source = path.read_text()
    lines = source.splitlines()
    tree = ast.parse(source)
    names = _imported(tree)
    found = []
    for node in ast.walk(tree):
        target = node.func if isinstance(node, ast.Call) else None
        if isinstance(node, ast.keyword) and isinstance(node.value, ast.Attribute):
            target = node.value  # field(default=time.time): read later, still the host's
        if target is None:
            continue
        dotted = _dotted(target, names)
        if dotted in TIME_OF_DAY and "# real time:" not in lines[node.lineno - 1]:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {'.'.join(dotted)}")
    return found


def _sources() -> list[Path]:
    return [path for folder in ("ledger", "projections", "tests")
            for path in sorted((ROOT / folder).rglob("*.py")) if path != THE_CLOCK]


def test_nothing_reads_the_time_of_day_but_the_ledgers_clock() -> None:
    found = [line for path in _sources() for line in readings_of_the_time_of_day(path)]
    assert not found, "read the ledger's clock instead (ledger.core.clock):\n" + "\n".join(found)


def test_nothing_defaults_to_the_hosts_clock_but_the_process_clock() -> None:
    """A part given no clock reads the process's (`THE_CLOCK`: the open ledger's), never the
    host's directly, which a practice ledger's or a test's clock would not reach."""
    named = [f"{path.relative_to(ROOT)}:{number}" for path in _sources()
             if path.parts[len(ROOT.parts)] in ("ledger", "projections")
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if "SYSTEM_CLOCK" in line or "SystemClock()" in line]
    assert not named, named


def test_the_check_finds_a_reading_under_any_import_name(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import time as clock\nfrom datetime import datetime as moment, date\n"
                      "from time import time\n"
                      "a = clock.time()\nb = moment.now()\nc = date.today()\nd = time()\n"
                      "e = clock.monotonic()\n")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        found = readings_of_the_time_of_day(sample)
    finally:
        ROOT = saved
    assert [line.split(": ")[1] for line in found] == [
        "time.time", "datetime.datetime.now", "datetime.date.today", "time.time"]
