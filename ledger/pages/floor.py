"""The live floor (`templates/floor.html`) and the fragments the server sends it as the floor
changes: one a table, the jackpot meters, the alerts, and the whole floor when a table is
opened. Each fragment is the same template the full page includes, so a live update and a
reload show the same thing."""

from __future__ import annotations

from typing import Any

from ledger.pages import environment, render


def floor_page(view: Any, property_name: str, reader: str) -> str:
    return render("floor.html", title=f"{property_name}: the floor", view=view, reader=reader,
                  generated_at=view.generated_at)


def fragment(template: str, **context: Any) -> str:
    """One of the floor's parts, for a server-sent event."""
    return environment().get_template(template).render(**context)


def fragments(view: Any, tables: Any = None) -> dict[str, str]:
    """The parts of the floor by event name: `table-<code>` for each of `tables` (default: every
    table), `pools`, `alerts`."""
    parts = {table.dom_id: fragment("floor_article.html", table=table)
             for table in (view.tables if tables is None else tables)}
    parts["pools"] = fragment("floor_pools.html", view=view)
    parts["alerts"] = fragment("floor_alerts.html", view=view)
    return parts


def whole_floor(view: Any) -> str:
    return fragment("floor_tables.html", view=view)
