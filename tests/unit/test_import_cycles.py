"""Dependencies go one way: no module of the ledger imports, directly or through others, a
module that imports it back (imports inside functions and under TYPE_CHECKING count too)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("ledger", "projections")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, known: set[str]) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        found |= {name for name in names if name in known}
    return found


def graph() -> dict[str, set[str]]:
    files = {module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}
    known = set(files)
    edges = {name: imports_of(path, known) - {name} for name, path in files.items()}
    for name, deps in edges.items():  # a module importing `a.b.c` also runs `a` and `a.b`
        edges[name] = {dep for dep in deps if not name.startswith(dep + ".")}
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    found, state, stack = [], {}, []

    def visit(node: str) -> None:
        state[node] = "open"
        stack.append(node)
        for dep in sorted(edges.get(node, ())):
            if state.get(dep) == "open":
                found.append(stack[stack.index(dep):] + [dep])
            elif dep not in state:
                visit(dep)
        stack.pop()
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node)
    return found


def test_no_module_imports_one_that_imports_it_back():
    assert cycles(graph()) == []


def test_the_audit_package_does_not_reach_into_the_cli_or_the_demo():
    edges = graph()
    for name, deps in edges.items():
        if name.startswith("ledger.audit"):
            assert not {d for d in deps if d.startswith(("ledger.cli", "ledger.cli.demo"))}, name


def test_pages_sit_above_the_audit_reports_and_projections_only_entry_points_render_them():
    """The rendering package reads the views; nothing it renders may import it back, so a
    page can change without touching the domain, the audit or the read models."""
    edges = graph()
    importers = {name for name, deps in edges.items()
                 if any(dep == "ledger.pages" or dep.startswith("ledger.pages.") for dep in deps)}
    below = {name for name in importers
             if not name.startswith(("ledger.pages", "ledger.cli.", "ledger.web."))
             and name != "ledger.cli.demo"}
    assert below == set()


ABOVE_THE_PROJECTIONS = ("ledger.cli", "ledger.web", "ledger.cli.demo", "ledger.runtime.bootstrap",
                         "ledger.pages", "ledger.reports", "ledger.audit", "ledger.simulation")
"""What reads the projections: the entry points (CLI, HTTP, the simulated floor, whose month
draws a table-day's band by the statistics' own reading), the composition root, the
rendering and the audit (which checks them). Everything else of `ledger` is the core the projections read."""


def _above(name: str) -> bool:
    return any(name == top or name.startswith(top + ".") for top in ABOVE_THE_PROJECTIONS)


def test_the_core_sits_below_the_projections_and_the_rendering_above_them():
    """Issue 15: `ledger/queries.py`, `ledger/reports/shift.py` and the verifier imported
    `projections`, which imports `ledger`. The arrows now go one way: the core (domain, games,
    commands, the application, infrastructure) imports no projection; the projections import
    nothing that renders, audits or runs them."""
    edges = graph()
    core_up = {name: sorted(dep for dep in deps if dep.split(".")[0] == "projections")
               for name, deps in edges.items()
               if name.split(".")[0] == "ledger" and not _above(name)}
    assert {name: deps for name, deps in core_up.items() if deps} == {}
    projections_up = {name: sorted(dep for dep in deps if _above(dep))
                      for name, deps in edges.items() if name.split(".")[0] == "projections"}
    assert {name: deps for name, deps in projections_up.items() if deps} == {}
