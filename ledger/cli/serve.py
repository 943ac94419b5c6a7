"""`ledger serve`: the terminal API and the floor pages over HTTP, on the configured ledger."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ledger.cli.common import console, runtime


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every interface).")]
    = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8080,
    follow: Annotated[bool, typer.Option(
        help="Keep the floor's projections up to date here (--no-follow: another process runs "
             "`ledger projections run`, as a reader login must).")] = True,
    certfile: Annotated[Path | None, typer.Option(
        "--ssl-certfile", help="TLS certificate (PEM): browsers sign in only over HTTPS, or on "
                               "this machine.")] = None,
    keyfile: Annotated[Path | None, typer.Option(
        "--ssl-keyfile", help="The certificate's private key (PEM).")] = None,
) -> None:
    """Serve the terminal API and the live floor pages over HTTP."""
    import uvicorn

    from ledger.web.app import create_app

    scheme = "https" if certfile else "http"
    with runtime(serving=True) as rt:
        app = create_app(rt, follow=follow)
        console.print(f"serving the ledger: the floor at {scheme}://{host}:{port}/floor, the API "
                      f"at {scheme}://{host}:{port}/v1 (OpenAPI at /docs); Ctrl-C stops.",
                      highlight=False)
        uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False,
                    ssl_certfile=str(certfile) if certfile else None,
                    ssl_keyfile=str(keyfile) if keyfile else None)
