"""Helpers the command modules share."""

from __future__ import annotations

import typer

from ..ir import Toolset

__all__ = ["print_load_warnings"]


def print_load_warnings(toolset: Toolset | None) -> None:
    """Print each of ``toolset``'s load warnings (``Toolset.warnings``) on stderr, one line
    each: ``warning: [code] what was found (file ..., tool ..., at $.path)``."""
    for found in getattr(toolset, "warnings", ()):
        typer.echo(f"warning: {found}", err=True)
