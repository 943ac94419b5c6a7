"""Command handlers: each loads what a command touches, checks it, and records events.

Importing this package registers every handler with `Ledger`.
"""

from ledger.handlers import jackpots, rounds, shoes, tables  # noqa: F401
from ledger.handlers import days, registry, shift  # noqa: F401
