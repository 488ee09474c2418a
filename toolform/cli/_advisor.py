"""``toolform recommend`` and ``toolform evidence``: the advisor and the evidence tables."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..errors import ToolFormError


def _fail(exc: Exception) -> typer.Exit:
    typer.echo(f"error: {exc}", err=True)
    return typer.Exit(code=1)


def register(app: typer.Typer) -> None:
    """Add the ``recommend`` and ``evidence`` commands to ``app``."""

    @app.command("recommend")
    def recommend_command(
        model: str = typer.Option(..., "--model", help="Model id (a checkpoint, an anchor model, "
                                                       "or any id a family pattern matches)."),
        tools: Optional[Path] = typer.Option(None, "--tools", exists=True, dir_okay=False,
                                             help="Tools file (OpenAI, Anthropic, MCP, BFCL or "
                                                  "IR JSON); gives the tool count and tier."),
        n_tools: Optional[int] = typer.Option(None, "--n-tools", min=1,
                                              help="Tools in the catalogue."),
        tier: Optional[int] = typer.Option(None, "--tier", help="Complexity tier, 1 to 5."),
        rule: str = typer.Option("main", "--rule",
                                 help="Grading rule: main, symmetric or as_written."),
        context_tokens: Optional[int] = typer.Option(None, "--context-tokens", min=1,
                                                     help="The model's context window."),
        evidence: bool = typer.Option(False, "--evidence",
                                      help="Also print every evidence row with its source."),
    ) -> None:
        """Recommend a schema format and answer protocol from the study's evidence."""
        from ..advisor import recommend

        try:
            loaded = None
            if tools is not None:
                from ..io import load_tools

                loaded = load_tools(tools)
            rec = recommend(loaded, model, n_tools=n_tools, tier=tier, rule=rule,
                            context_tokens=context_tokens)
        except (ToolFormError, ValueError) as exc:
            raise _fail(exc) from None
        typer.echo(rec.summary())
        typer.echo("")
        typer.echo(rec.ranking_frame().head(5).round(2).to_string(index=False))
        typer.echo("")
        for note in rec.notes:
            typer.echo(f"- {note}")
        if evidence:
            typer.echo("")
            typer.echo(rec.evidence_frame().to_string(index=False))

    @app.command("evidence")
    def evidence_command(
        table: Optional[str] = typer.Argument(None, help="A table id; without one, list them."),
        csv: bool = typer.Option(False, "--csv", help="Print the table as CSV."),
    ) -> None:
        """List the evidence tables, or show one."""
        from ..evidence import evidence_tables, load_evidence

        try:
            if table is None:
                listing = evidence_tables()
                typer.echo(listing[["id", "n_rows", "title"]].to_string(index=False))
                return
            loaded = load_evidence(table)
        except ToolFormError as exc:
            raise _fail(exc) from None
        frame = loaded.frame()
        if csv:
            typer.echo(frame.to_csv(index=False), nl=False)
            return
        typer.echo(f"{loaded.id}: {loaded.title}")
        typer.echo(f"source: {', '.join(loaded.source)}")
        if loaded.conditions:
            typer.echo("conditions: " + ", ".join(f"{k}={v}" for k, v in
                                                  loaded.conditions.items()))
        units = ", ".join(f"{c.name} ({c.unit})" for c in loaded.columns if c.unit)
        if units:
            typer.echo(f"units: {units}")
        typer.echo("")
        typer.echo(frame.to_string(index=False))
        from ._evidence_notes import empty_cell_notes

        for line in empty_cell_notes(loaded):
            typer.echo(line)
