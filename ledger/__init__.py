"""The round ledger: an event-sourced system of record for live casino table games."""

from __future__ import annotations


def software_version() -> str:
    """The installed version of round-ledger, as `ledger --version` and every page print it."""
    from importlib.metadata import PackageNotFoundError, version  # only when asked

    try:
        return version("round-ledger")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"
