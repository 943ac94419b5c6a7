"""A replay as one self-contained HTML page for the dispute file: nothing loaded from outside.

Cards are inline SVG (suits drawn as paths, so no font is needed for them), then the timeline
with who did what from which terminal, the results as recorded beside the re-computation, the
verdict with each difference, and the hash-chain evidence of every event the replay used. The
page prints on A4 as it shows on screen.
"""

from __future__ import annotations

import html

from ledger.audit.replay import CardView, HandView, RoundReplay, Verdict
from ledger.audit.check import BetLine
from ledger.formatting import TIME_LABEL, amount, clock, iso, money, when

SUIT_PATHS = {
    "D": '<path d="M50 5 L88 50 L50 95 L12 50 Z"/>',
    "H": '<path d="M50 92 C22 68 4 50 10 28 C16 8 42 8 50 30 C58 8 84 8 90 28 '
         'C96 50 78 68 50 92 Z"/>',
    "S": '<path d="M50 6 C78 34 98 52 88 72 C80 86 60 82 54 70 L62 96 L38 96 L46 70 '
         'C40 82 20 86 12 72 C2 52 22 34 50 6 Z"/>',
    "C": '<circle cx="50" cy="28" r="19"/><circle cx="27" cy="58" r="19"/>'
         '<circle cx="73" cy="58" r="19"/><path d="M45 55 L38 96 L62 96 L55 55 Z"/>',
}
DIFF = ' class="diff"'
SUIT_NAMES = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em 2em; color: #1d1d1f; }
h1 { font-size: 1.5em; margin-bottom: .2em; } h2 { margin-top: 1.4em; font-size: 1.15em; }
table { border-collapse: collapse; margin: .5em 0; font-size: .9em; }
td, th { border: 1px solid #c8c8c8; padding: .25em .5em; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; } td.t { white-space: nowrap; }
tr.diff td { background: #fde8e8; }
.verdict { display: inline-block; padding: .3em .8em; border-radius: .3em; font-weight: bold;
           font-size: 1.3em; color: white; }
.MATCH { background: #2e7d32; } .DISCREPANCY { background: #c62828; }
.NOT_SETTLED { background: #b26a00; }
.hand { display: inline-block; margin: 0 1.2em .8em 0; vertical-align: top; }
.hand .label { font-weight: bold; } .hand .value { color: #0b5394; }
svg.card { margin-right: 4px; }
code { font-size: .8em; word-break: break-all; }
.muted { color: #666; }
@media print { body { margin: 0; } h2 { break-after: avoid; } tr { break-inside: avoid; } }
"""


def _e(value: object) -> str:
    return html.escape("" if value is None else str(value))


def card_svg(card: CardView) -> str:
    """One card: rank and suit in the corner, a large suit in the middle; the frame says how
    it was dealt (face down: dashed blue; exposed by mistake: orange)."""
    rank, suit = card.card[:-1], card.card[-1]
    shown = "10" if rank == "T" else rank
    colour = "#c62828" if suit in "HD" else "#1d1d1f"
    frame = "#e67e22" if card.exposed else ("#1d1d1f" if card.face_up else "#1f5fa8")
    dash = "" if card.face_up or card.exposed else ' stroke-dasharray="5 3"'
    how = "exposed" if card.exposed else ("face up" if card.face_up else "face down")
    return (
        f'<svg class="card" xmlns="http://www.w3.org/2000/svg" width="64" height="90" '
        f'viewBox="0 0 64 90" role="img" aria-label="{_e(card.card)} {how}">'
        f'<title>{_e(shown)} of {SUIT_NAMES.get(suit, suit)}, {how}'
        + (f", shoe position {card.shoe_position}" if card.shoe_position is not None else "")
        + f'</title><rect x="1.5" y="1.5" width="61" height="87" rx="6" fill="white" '
        f'stroke="{frame}" stroke-width="2.5"{dash}/>'
        f'<text x="6" y="20" font-family="sans-serif" font-size="17" font-weight="bold" '
        f'fill="{colour}">{_e(shown)}</text>'
        f'<g transform="translate(6 25) scale(.16)" fill="{colour}">{SUIT_PATHS.get(suit, "")}</g>'
        f'<g transform="translate(20 38) scale(.38)" fill="{colour}">{SUIT_PATHS.get(suit, "")}</g>'
        + (f'<text x="58" y="84" font-family="sans-serif" font-size="9" text-anchor="end" '
           f'fill="{frame}">{"exp" if card.exposed else "down"}</text>'
           if not card.face_up or card.exposed else "")
        + "</svg>"
    )


def _hand(hand: HandView) -> str:
    value = f' <span class="value">{_e(hand.value)}</span>' if hand.value else ""
    if hand.qualifies is not None:
        value += " - qualifies" if hand.qualifies else " - does not qualify"
    notes = f' <span class="muted">({_e(", ".join(hand.notes))})</span>' if hand.notes else ""
    return (f'<div class="hand"><div><span class="label">{_e(hand.label)}</span>{value}{notes}'
            f'</div><div>{"".join(card_svg(card) for card in hand.cards)}</div></div>')


def _results(replay: RoundReplay) -> str:
    recomputed = {(due.box, due.spot, due.player): due for due in replay.check.recomputed}
    rows = []
    for line in replay.results:
        due = recomputed.get((line.box, line.spot, line.player))
        differs = due is not None and due != line
        rows.append(
            f'<tr{DIFF if differs or due is None else ""}><td>{_e(line.name)}</td>'
            f'<td class="n">{amount(line.stake)}</td><td>{_e(line.outcome)}</td>'
            f'<td class="n">{amount(line.returned)}</td><td class="n">{amount(line.payout)}</td>'
            f'<td class="n">{amount(line.commission)}</td>'
            f'<td>{_e(_line(due)) if due else "nothing due"}</td></tr>')
    return ("<table><tr><th>bet</th><th>stake (MOP)</th><th>outcome</th><th>returned (MOP)</th>"
            "<th>paid (MOP)</th><th>commission (MOP)</th><th>re-computed</th></tr>" + "".join(rows)
            + "</table>")


def _line(line: BetLine) -> str:
    return (f"{line.outcome}, returned {money(line.returned)}, paid {money(line.payout)}"
            + (f", commission {money(line.commission)}" if line.commission else ""))


def _timeline(replay: RoundReplay) -> str:
    rows = "".join(
        f"<tr><td class=\"n\">{step.position}</td><td class=\"t\" title=\"{_e(iso(step.at))}\">"
        f"{_e(clock(step.at))}</td>"
        f"<td class=\"t\">{_e(step.role)} {_e(step.staff_id)}{_key(step.staff_key)}</td>"
        f"<td>{_e(step.terminal)}{_key(step.terminal_key)}"
        f"{'<br><em>vouched: ' + _e(step.vouched) + '</em>' if step.vouched else ''}</td>"
        f"<td>{_e(step.stream)}</td><td>{_e(step.text)}</td></tr>" for step in replay.steps)
    return (f"<table><tr><th>#</th><th>when ({TIME_LABEL})</th><th>who (verified key)</th>"
            "<th>terminal (verified key)</th><th>stream</th><th>what</th></tr>" + rows
            + "</table>")


def _key(fingerprint: str | None) -> str:
    return f"<br><small class=\"key\">{_e(fingerprint)}</small>" if fingerprint else ""


def _evidence(replay: RoundReplay) -> str:
    rows = "".join(
        f'<tr{"" if e.holds else DIFF}><td>{_e(e.stream)}</td>'
        f'<td class="n">{e.version}</td><td class="n">{e.position}</td><td>{_e(e.event)}</td>'
        f"<td><code>{_e(e.previous_hash)}</code></td><td><code>{_e(e.chain_hash)}</code></td>"
        f'<td>{"holds" if e.holds else "BROKEN"}</td></tr>' for e in replay.evidence)
    return ("<p class=\"muted\">chain_hash = SHA-256(previous hash || stream uuid || version || "
            "length of topic || topic || event body), computed by the database on insert and "
            "recomputed here.</p><table><tr><th>stream</th><th>version</th><th>position</th>"
            "<th>event</th><th>previous hash</th><th>chain hash</th><th>link</th></tr>"
            + rows + "</table>")


def _shoe(replay: RoundReplay) -> str:
    shoe = replay.shoe
    if shoe is None:
        return "<p>No shoe recorded.</p>"
    facts = [f"{shoe.decks} deck(s), shuffled by {shoe.method.replace('_', ' ')}"]
    facts += [f"shuffler serial {shoe.shuffler_serial}"] if shoe.shuffler_serial else []
    facts += [f"cut by {shoe.cut_by}"] if shoe.cut_by else []
    facts += [f"cut card after card {shoe.cut_card_position}"] if shoe.cut_card_position else []
    facts += [f"{shoe.burned} card(s) burned"
              + (f": {' '.join(shoe.burned_cards)}" if shoe.burned_cards else "")
              ] if shoe.burned else []
    commitment = (f"<p>Commitment <code>{_e(shoe.commitment)}</code></p>"
                  if shoe.commitment else "")
    return (f"<p>Shoe <code>{_e(shoe.shoe_id)}</code>: {_e('; '.join(facts))}.</p>{commitment}"
            f'<p id="shoe-proof">Proof: {_e(shoe.proof.status.value)}: '
            f"{_e(shoe.proof.sentence)}.</p>")


def _jackpot(replay: RoundReplay) -> str:
    jackpot = replay.jackpot
    if jackpot is None or jackpot.recorded is None:
        return ""
    recorded, due = jackpot.recorded, jackpot.recomputed
    prizes = "".join(
        f"<tr><td>box {p.box}</td><td>{_e(p.category)}</td><td class=\"n\">{amount(p.amount)}</td>"
        f"<td class=\"n\">{amount(p.paid_by_pool)}</td><td class=\"n\">{amount(p.paid_by_house)}"
        f"</td><td class=\"n\">{amount(p.pool_before)}</td><td class=\"n\">{amount(p.pool_after)}"
        "</td></tr>" for p in recorded.prizes)
    return (f"<h2>Jackpot: pool {_e(jackpot.pool)}</h2><p>Pool before the round "
            f"{money(recorded.pool_before)}; jackpot bets {money(recorded.stakes)}, to the pool "
            f"{money(recorded.to_pool)}, to the seed reserve {money(recorded.to_reserve)}; pool "
            f"after {money(recorded.pool_after)}"
            + (" (restarted at the seed)" if recorded.reset_to_seed else "")
            + f". Re-computed pool after: {money(due.pool_after if due else None)}.</p>"
            + ("<table><tr><th>box</th><th>hand</th><th>prize (MOP)</th><th>from the pool</th>"
               "<th>by the house</th><th>pool before</th><th>pool after</th></tr>" + prizes
               + "</table>" if prizes else "<p>No prize.</p>"))


def _verdict(replay: RoundReplay) -> str:
    check = replay.check
    differences = "".join(f"<li>{_e(str(d))}</li>" for d in check.differences)
    return (f'<p><span id="verdict" class="verdict {check.verdict.value}" '
            f'data-verdict="{check.verdict.value}">{check.verdict.value}</span></p>'
            f"<p>{_e(check.method)}.</p>"
            + (f'<ul id="differences">{differences}</ul>' if differences else
               "<p>Every recorded result, payout and jackpot figure is what the rules give."
               "</p>" if check.verdict is Verdict.MATCH else ""))


def to_html(replay: RoundReplay) -> str:
    title = f"Replay of {replay.table} round {replay.number}"
    adjustments = "".join(
        f"<li>{_e(when(a.step.at))} by {_e(a.step.role)} "
        f"{_e(a.step.staff_id)} at {_e(a.step.terminal)}: {_e(a.step.text)}</li>"
        for a in replay.adjustments)
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{_e(title)}</title>
<meta name="round-id" content="{_e(replay.round_id)}">
<style>{STYLE}</style></head><body>
<h1>{_e(title)}</h1>
<p>{_e(replay.game)} under {_e(replay.rule_set)}, dealt from a
{_e(replay.dealing.replace("_", " "))}; {_e(replay.status)}{
    f" ({_e(replay.void_reason)})" if replay.void_reason else ""}.
Round <code>{_e(replay.round_id)}</code>, opened {_e(when(replay.opened_at))}.</p>
<h2>Verdict</h2>{_verdict(replay)}
<h2>Shoe</h2>{_shoe(replay)}
<h2>Hands</h2><div id="hands">{"".join(_hand(hand) for hand in replay.hands)}</div>
<h2>Results</h2>{_results(replay)}
<p>House win as recorded: {money(replay.house_win)}; re-computed:
{money(replay.check.recomputed_house_win)}.</p>
{_jackpot(replay)}
<h2>Timeline</h2>{_timeline(replay)}
<h2>Adjustments recorded later</h2>{f"<ul>{adjustments}</ul>" if adjustments else "<p>None.</p>"}
<h2>Hash-chain evidence</h2>{_evidence(replay)}
</body></html>
"""
