"""The thin Typer CLI: options in, one application call, a rich rendering out."""
