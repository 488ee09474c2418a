"""``toolform catalogue``: plan how to show a tools file, optionally fitting it to a budget.

Exit status: 0 on success (also when ``--fit`` could not reach the budget: the report says so),
2 for a usage error or an unreadable file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from ._common import print_load_warnings

#: Exit status for a usage error or an unreadable input.
EXIT_USAGE = 2


def register(app: typer.Typer) -> None:
    """Add the ``catalogue`` command to ``app``."""

    @app.command("catalogue")
    def catalogue_command(
        tools: Path = typer.Argument(..., help="Tools file: MCP tools/list, OpenAI, Anthropic, "
                                               "BFCL or ToolForm IR JSON."),
        format_id: str = typer.Option("xml_schema", "--format",
                                      help="Format the tool block is shown in."),
        context: Optional[int] = typer.Option(None, "--context", min=1,
                                              help="The model's context window, in tokens."),
        query: Optional[str] = typer.Option(None, "--query",
                                            help="A request: retrieve for it, or show the "
                                                 "first-stage prompt."),
        k: int = typer.Option(8, "--k", min=1, help="Tools a retrieval keeps."),
        budget: Optional[int] = typer.Option(None, "--budget", min=1,
                                             help="Most tokens the tool block may take."),
        fit: bool = typer.Option(False, "--fit", help="Shrink the catalogue to --budget and "
                                                      "write it to --out."),
        out: Optional[Path] = typer.Option(None, "--out", help="Where --fit writes the reduced "
                                                               "tools (IR JSON)."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON report."),
    ) -> None:
        """Plan a catalogue: one shot, retrieve or two-stage, with the study's evidence."""
        from ..catalogue import fit_to_budget, plan_catalogue
        from ..errors import LoaderError, UnknownFormatError
        from ..io import load_tools, save_tools

        if fit and (budget is None or out is None):
            raise typer.BadParameter("--fit needs --budget and --out", param_hint="--fit")
        if out is not None and not fit:
            raise typer.BadParameter("--out goes with --fit", param_hint="--out")
        try:
            toolset = load_tools(tools)
            print_load_warnings(toolset)
            plan = plan_catalogue(toolset, format_id=format_id, context_tokens=context,
                                  budget_tokens=budget, query=query, k=k)
        except UnknownFormatError as exc:
            raise typer.BadParameter(str(exc), param_hint="--format") from None
        except (LoaderError, ValueError, OSError) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(EXIT_USAGE) from None
        report = plan.to_dict()
        fitted = None
        if fit:
            assert budget is not None and out is not None
            fitted = fit_to_budget(toolset, format_id, budget, query=query)
            save_tools(fitted.toolset, out, kind="ir")
            report["fit"] = {"fits": fitted.fits, "tokens_before": fitted.tokens_before,
                             "tokens_after": fitted.tokens_after, "steps": list(fitted.steps),
                             "dropped": list(fitted.dropped), "out": str(out),
                             "n_tools": len(fitted.toolset)}
        if as_json:
            typer.echo(json.dumps(report, indent=2, ensure_ascii=False, default=str))
            return
        typer.echo(f"{tools}: {plan.n_tools} tools, {plan.schema_tokens} tokens in "
                   f"{plan.format_id}")
        typer.echo(f"strategy: {plan.strategy}")
        typer.echo(f"why: {plan.reason}")
        if plan.retrieval is not None:
            typer.echo(f"top {len(plan.retrieval.ranked)} for the query "
                       f"({plan.retrieved_tokens} tokens):")
            for name, score in plan.retrieval.ranked:
                typer.echo(f"  {score:8.3f}  {name}")
        if plan.selection_messages is not None:
            typer.echo("first-stage prompt:")
            for message in plan.selection_messages:
                typer.echo(f"[{message['role']}]")
                typer.echo(message["content"])
        typer.echo("evidence:")
        for row in plan.evidence:
            unit = {"percent": "%", "percentage_points": " points"}.get(row.unit or "", "")
            typer.echo(f"  [{row.table}; {', '.join(row.source)}] {row.label}: "
                       f"{row.value}{unit}")
        if fitted is not None:
            verdict = "fits" if fitted.fits else "does NOT fit"
            typer.echo(f"fit: {fitted.tokens_before} -> {fitted.tokens_after} tokens "
                       f"({verdict} {budget}); steps: {', '.join(fitted.steps)}; "
                       f"dropped {len(fitted.dropped)}; {len(fitted.toolset)} tools written to "
                       f"{out}")
