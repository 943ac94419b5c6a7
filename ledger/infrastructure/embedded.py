"""The embedded PostgreSQL: a real server (from the `pgserver` package) living in a folder.

`pgserver` counts the processes using a data folder and stops the server when the last one
exits, so several `ledger` commands (or a command and a test run) share one server safely.
"""

from __future__ import annotations

import logging
import warnings
from pathlib import Path

from ledger.errors import DatabaseUnavailable


def embedded_server_url(data_dir: Path, database: str = "postgres") -> str:
    """Start the server in `data_dir` (or join the one already running there); its URL."""
    with warnings.catch_warnings():  # platformdirs warns when XDG_RUNTIME_DIR is unset
        warnings.simplefilter("ignore")
        import pgserver  # imported here: it is only needed when no server is named

    logging.getLogger("pgserver").setLevel(logging.WARNING)
    data_dir = data_dir.expanduser().resolve()
    try:
        data_dir.parent.mkdir(parents=True, exist_ok=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            server = pgserver.get_server(data_dir, cleanup_mode="stop")
        return str(server.get_uri(database))
    except Exception as error:  # pgserver raises bare subprocess and OS errors
        raise DatabaseUnavailable(
            f"the embedded PostgreSQL in {data_dir} could not start ({error}); "
            f"see {data_dir / 'log'}"
        ) from None
