"""`ledger projections rebuild NAME`: a projection rebuilt by hand from the first event, beside
the live one, and swapped in when complete (`projections.engine.shadow` says how; the runner does the
same by itself for a projection whose live tables another version of the code built).

A rebuild is refused while another session builds the same projection: a runner rebuilding
it by itself, or another person's rebuild.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ledger.core.errors import WrongState
from ledger.infrastructure.database import Database
from projections.engine.base import Projection
from projections.engine.runner import DEFAULT_BATCH_SIZE, ensure_tracked, head, session
from projections.engine.shadow import ShadowBuild, claim, release

OnProgress = Callable[[int, int], None]
"""Called after each shadow batch with (position reached, last position in the store)."""


@dataclass(frozen=True)
class Rebuilt:
    projection: str
    events: int
    position: int


def rebuild(
    database: Database,
    projection_class: type[Projection],
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
    on_progress: OnProgress | None = None,
) -> Rebuilt:
    """Rebuild one projection from the first event and swap the result in."""
    name = projection_class.name
    with database.connect(long=True) as conn:
        session(conn, "ledger projections rebuild")
        if not claim(conn, name):
            raise WrongState(f"a rebuild of {name.replace('_', '-')} is already running (by "
                             "`ledger projections run` or another rebuild): let it finish first.")
        try:
            ensure_tracked(conn, projection_class())
            build = ShadowBuild.start(conn, projection_class)
            while build.step(conn, batch_size):
                if on_progress is not None:
                    on_progress(build.position, head(conn))
            position = build.swap_in(conn, batch_size)
        finally:  # released here: the server frees a closed session's locks only as its
            if not conn.broken:  # backend exits, after a rebuild started next may have asked
                release(conn, name)
    return Rebuilt(name, build.events, position)
