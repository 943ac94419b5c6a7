"""The shift report's tables (`projections.shifts.report` writes them): per shift, its handle
by spot and by dealer and terms, its slips, the tables and rounds it follows, the terms and
investigations; and the columns an older version's tables lack.
"""

from __future__ import annotations

SHIFTS_DDL = """
CREATE TABLE IF NOT EXISTS {report_shifts} (
    shift_id uuid PRIMARY KEY,
    table_code text NOT NULL,
    gaming_day date NOT NULL,
    shift text NOT NULL,
    game text,
    pit text,
    status text NOT NULL,
    opening_total numeric(18, 2) NOT NULL,
    previous_closing numeric(18, 2),  -- the table's last closing count, where the chips differ
    closing_total numeric(18, 2),
    fills numeric(18, 2) NOT NULL DEFAULT 0,
    credits numeric(18, 2) NOT NULL DEFAULT 0,
    drop_cash numeric(18, 2) NOT NULL DEFAULT 0,
    drop_markers numeric(18, 2) NOT NULL DEFAULT 0,
    drop_entered boolean NOT NULL DEFAULT false,
    drop_after_close boolean NOT NULL DEFAULT false,  -- entered or adjusted after the day closed
    rounds_played integer NOT NULL DEFAULT 0,
    rounds_voided integer NOT NULL DEFAULT 0,
    payouts numeric(18, 2) NOT NULL DEFAULT 0,
    commission numeric(18, 2) NOT NULL DEFAULT 0,
    table_win numeric(18, 2) NOT NULL DEFAULT 0,
    adjustments numeric(18, 2) NOT NULL DEFAULT 0,
    adjustments_after_close numeric(18, 2) NOT NULL DEFAULT 0,
    jackpot_stakes numeric(18, 2) NOT NULL DEFAULT 0,
    jackpot_contributions numeric(18, 2) NOT NULL DEFAULT 0,
    jackpot_prizes numeric(18, 2) NOT NULL DEFAULT 0,
    irregularities integer NOT NULL DEFAULT 0,
    dealers text[] NOT NULL DEFAULT '{{}}',
    updated_position bigint NOT NULL,
    UNIQUE (gaming_day, shift, table_code)  -- the report's lookup: one shift of one day
)
"""

HANDLE_DDL = """
CREATE TABLE IF NOT EXISTS {report_handle} (
    shift_id uuid NOT NULL,
    spot text NOT NULL,
    bets integer NOT NULL,
    handle numeric(18, 2) NOT NULL,
    sum_of_squares numeric(24, 4) NOT NULL,
    table_win numeric(18, 2) NOT NULL,
    PRIMARY KEY (shift_id, spot)
)
"""

# The handle finer than by spot: by the round's dealer and the rule set and settings it was
# played under (its terms), so each bet's expected win uses the odds in force for its round.
STAKES_DDL = """
CREATE TABLE IF NOT EXISTS {report_stakes} (
    shift_id uuid NOT NULL,
    dealer text NOT NULL,
    terms text NOT NULL,
    spot text NOT NULL,
    bets integer NOT NULL,
    handle numeric(18, 2) NOT NULL,
    sum_of_squares numeric(24, 4) NOT NULL,
    table_win numeric(18, 2) NOT NULL,
    PRIMARY KEY (shift_id, dealer, terms, spot)
)
"""

TERMS_DDL = """
CREATE TABLE IF NOT EXISTS {report_terms} (
    terms text PRIMARY KEY,  -- a digest of the rule set and the settings
    game text NOT NULL,
    rule_set text NOT NULL,
    settings jsonb NOT NULL
)
"""

INVESTIGATIONS_DDL = """
CREATE TABLE IF NOT EXISTS {report_investigations} (
    note_id uuid PRIMARY KEY,
    first_day date NOT NULL,
    last_day date NOT NULL,
    scope text NOT NULL,
    subject text NOT NULL,
    finding text NOT NULL,
    noted_by text NOT NULL,
    noted_at timestamptz NOT NULL
)
"""

SLIPS_DDL = """
CREATE TABLE IF NOT EXISTS {report_slips} (
    shift_id uuid NOT NULL,
    slip integer NOT NULL,
    kind text NOT NULL,
    amount numeric(18, 2) NOT NULL,
    voided boolean NOT NULL DEFAULT false,
    PRIMARY KEY (shift_id, slip)
)
"""

# Bookkeeping: which shift is open at each table, and which shift each round belongs to.
TABLES_DDL = """
CREATE TABLE IF NOT EXISTS {report_tables} (
    table_code text PRIMARY KEY,
    stream_id uuid NOT NULL UNIQUE,
    game text NOT NULL,
    pit text NOT NULL,
    open_shift uuid
)
"""

ROUNDS_DDL = """
CREATE TABLE IF NOT EXISTS {report_rounds} (
    round_id uuid PRIMARY KEY,
    table_code text NOT NULL,
    shift_id uuid,  -- NULL: opened outside every shift (before the ledger refused it)
    number integer,
    opened_at timestamptz,
    dealer text,  -- who opened the round
    terms text  -- the rule set and settings it is played under ({report_terms})
)
"""

# Columns an older version's tables lack (their rows keep NULL until a rebuild).
ADDED_COLUMNS = (
    "ALTER TABLE {report_shifts} ADD COLUMN IF NOT EXISTS previous_closing numeric(18, 2)",
    ("ALTER TABLE {report_shifts} ADD COLUMN IF NOT EXISTS drop_after_close boolean NOT NULL "
    "DEFAULT false"),
    ("ALTER TABLE {report_shifts} ADD COLUMN IF NOT EXISTS adjustments_after_close "
    "numeric(18, 2) NOT NULL DEFAULT 0"),
    "ALTER TABLE {report_rounds} ADD COLUMN IF NOT EXISTS number integer",
    "ALTER TABLE {report_rounds} ADD COLUMN IF NOT EXISTS opened_at timestamptz",
    "ALTER TABLE {report_rounds} ADD COLUMN IF NOT EXISTS dealer text",
    "ALTER TABLE {report_rounds} ADD COLUMN IF NOT EXISTS terms text",
)
