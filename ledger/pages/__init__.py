"""Pages people file: HTML rendered from Jinja2 templates (autoescaped), each self-contained
(inline CSS and SVG, nothing fetched from anywhere) and printable on A4.

The pages read the audit and report views; nothing below them knows about HTML. Every page
carries what makes a printed copy a record: the property, when it was generated (Macau time),
the software version and how far into the ledger it reaches.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from ledger import software_version
from ledger.core import clock as ledger_clock
from ledger.core.cards import faces
from ledger.core.formatting import (
    CURRENCY,
    PRACTICE_MARK,
    TIME_LABEL,
    amount,
    clock,
    counted,
    iso,
    money,
    when,
)
from ledger.presentation.wording import (
    NO_CARDS,
    game,
    line_name,
    pool_name,
    rule_set,
    term,
    void_reason,
)
from ledger.reports.shift import dealt_no_round


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("ledger.pages", "templates"),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,  # a misspelt name fails the render, not the page silently
        trim_blocks=True, lstrip_blocks=True,
        auto_reload=False,  # templates ship with the code: no file's time checked a render
    )
    env.filters.update(money=money, amount=amount, clock=clock, when=when, iso=iso,
                       void_reason=void_reason, counted=counted, game=game, rule_set=rule_set,
                       term=term, pool_name=pool_name, faces=faces)
    env.globals.update(line_name=line_name, NO_CARDS=NO_CARDS, dealt_no_round=dealt_no_round)
    env.globals.update(CURRENCY=CURRENCY, TIME_LABEL=TIME_LABEL, PRACTICE_MARK=PRACTICE_MARK)
    return env


def render(template: str, **context: Any) -> str:
    """The page `template` with `context`, and the record's own facts (generated at, version)."""
    context.setdefault("generated_at", ledger_clock.now())
    context.setdefault("software_version", software_version())
    context.setdefault("practice", any(  # a practice ledger's property is named as practice
        PRACTICE_MARK in str(context.get(key) or "")
        for key in ("property_name", "title", "running_head")))
    return environment().get_template(template).render(**context)
