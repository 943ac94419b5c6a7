"""Command handlers: each loads what a command touches, checks it, and records events.

A module registers its handlers with `Ledger` when imported; `Ledger.handler_for` imports the
module of a command's area the first time one of its commands is executed.
"""
