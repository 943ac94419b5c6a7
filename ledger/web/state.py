"""What the application keeps on `app.state`, read back typed: the runtime, the sessions and the
command threads (set once in `ledger.web.app`). Starlette's state is untyped; these check what they return."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from fastapi import Request

from ledger.runtime.bootstrap import Runtime
from ledger.web.sessions import Sessions


def runtime(request: Request) -> Runtime:
    rt = request.app.state.runtime
    if not isinstance(rt, Runtime):
        raise TypeError(f"app.state.runtime is a {type(rt).__name__}, not a Runtime")
    return rt


def sessions(request: Request) -> Sessions:
    held = request.app.state.sessions
    if not isinstance(held, Sessions):
        raise TypeError(f"app.state.sessions is a {type(held).__name__}, not Sessions")
    return held


def command_threads(request: Request) -> ThreadPoolExecutor:
    """The threads commands block in when they must (`ledger.web.app.COMMAND_THREADS`)."""
    held = request.app.state.command_threads
    if not isinstance(held, ThreadPoolExecutor):
        raise TypeError(f"app.state.command_threads is a {type(held).__name__}, not a pool")
    return held
