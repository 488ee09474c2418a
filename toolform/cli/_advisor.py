"""``toolform recommend`` and ``toolform evidence``: the advisor and the evidence tables."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..errors import ToolFormError
from ._common import print_load_warnings


def _fail(exc: Exception) -> typer.Exit:
    typer.echo(f"error: {exc}", err=True)
    return typer.Exit(code=1)


def register(app: typer.Typer) -> None:
    """Add the ``recommend`` and ``evidence`` commands to ``app``."""

    @app.command("recommend")
    def recommend_command(
        model: Optional[str] = typer.Option(None, "--model", help="Model id (a checkpoint, an "
                                            "anchor model, or any id a zoo pattern matches)."),
        family: Optional[str] = typer.Option(None, "--family", help="A zoo family key (glm, "
                                             "qwen3, qwen3.5-large, ...); wins over --model."),
        params_b: Optional[float] = typer.Option(None, "--params-b", min=0.0,
                                                 help="Model size in billions of parameters."),
        tools: Optional[Path] = typer.Option(None, "--tools", exists=True, dir_okay=False,
                                             help="Tools file (OpenAI, Anthropic, MCP, BFCL or "
                                                  "IR JSON); gives the tool count and tier."),
        n_tools: Optional[int] = typer.Option(None, "--n-tools", min=1,
                                              help="Tools in the catalogue."),
        tier: Optional[int] = typer.Option(None, "--tier", help="Complexity tier, 1 to 5."),
        rule: str = typer.Option("main", "--rule",
                                 help="Grading rule: main, symmetric or as_written."),
        protocol: Optional[str] = typer.Option(None, "--protocol",
                                               help="Fix the answer protocol."),
        search_protocols: bool = typer.Option(False, "--search-protocols",
                                              help="Rank every crossing protocol for every "
                                                   "format (an extrapolation)."),
        objective: str = typer.Option("accuracy", "--objective",
                                      help="accuracy, cost or accuracy_per_token."),
        price: str = typer.Option("frontier_api", "--price",
                                  help="Price vector: frontier_api or self_hosted."),
        token_budget: Optional[int] = typer.Option(None, "--token-budget", min=1,
                                                   help="Most tokens the tool block may take."),
        context_tokens: Optional[int] = typer.Option(None, "--context-tokens", min=1,
                                                     help="The model's context window."),
        candidate: Optional[list[str]] = typer.Option(None, "--candidate",
                                                      help="A format to consider (repeat the "
                                                           "option); default the core eight."),
        third_party: bool = typer.Option(False, "--third-party",
                                         help="The tool descriptions come from a third party."),
        evidence: bool = typer.Option(False, "--evidence",
                                      help="Also print every evidence row with its source."),
        as_json: bool = typer.Option(False, "--json", help="Print the whole result as JSON."),
    ) -> None:
        """Recommend a schema format and answer protocol from the study's evidence."""
        import json

        from ..advisor import recommend

        try:
            loaded = None
            if tools is not None:
                from ..io import load_tools

                loaded = load_tools(tools)
                print_load_warnings(loaded)
            rec = recommend(loaded, model, family=family, params_b=params_b, n_tools=n_tools,
                            tier=tier, rule=rule, protocol=protocol,
                            search_protocols=search_protocols, objective=objective, price=price,
                            token_budget=token_budget, context_tokens=context_tokens,
                            candidates=tuple(candidate) if candidate else None,
                            third_party_tools=third_party)
        except (ToolFormError, ValueError) as exc:
            raise _fail(exc) from None
        if as_json:
            typer.echo(json.dumps(rec.to_dict(), indent=2, ensure_ascii=False))
            return
        typer.echo(rec.summary())
        typer.echo("")
        ranking = rec.ranking_frame().head(5).round(
            {"expected_accuracy": 2, "low": 2, "high": 2, "cost_per_request": 7, "score": 2})
        typer.echo(ranking.to_string(index=False))
        typer.echo("")
        if rec.catalogue is not None:
            typer.echo(f"catalogue: {rec.catalogue.strategy}. {rec.catalogue.reason}")
        if rec.guard is not None:
            typer.echo(f"guard: {rec.guard.action}. {rec.guard.reason}")
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
