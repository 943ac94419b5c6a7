"""Command handlers: each loads what a command touches, checks it, and records events.

A handler is `handler(command, uow)` (`ledger.application.handlers.unit_of_work`); each area's module ends
with its table, `HANDLERS`, from command class to handler, which `ledger.application.bus` gathers for the
areas a process names.
"""
