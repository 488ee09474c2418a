"""The ``toolform`` command line (typer). Each command only calls library functions."""

from __future__ import annotations

import typer

from . import _abtest, _advisor, _bfcl_arm, _catalogue, _guard, _local_model

app = typer.Typer(no_args_is_help=True, add_completion=False,
                  help="ToolForm: how should an agent show its tools to a model, and read the calls back?")

for _module in (_abtest, _advisor, _bfcl_arm, _catalogue, _guard, _local_model):
    _module.register(app)

__all__ = ["app"]
