"""``toolform guard``: scan a tools file, optionally clean it, pin it or check it against a pin.

Exit status: 0 when the tools pass, 1 when a high finding or a pin mismatch is present (so the
command can gate a CI pipeline), 2 for a usage error or an unreadable file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from ._common import print_load_warnings

#: Exit status when a high finding or a pin mismatch is present.
EXIT_FINDINGS = 1
#: Exit status for a usage error or an unreadable input.
EXIT_USAGE = 2


def _out_kind(path: Path) -> str:
    """The document kind to write a cleaned copy in: the input's own, else IR JSON."""
    from ..io import detect_kind

    try:
        kind = detect_kind(json.loads(path.read_text(encoding="utf-8")), str(path))
    except (ValueError, OSError):
        return "ir"
    return kind if kind in ("openai", "anthropic", "mcp", "ir") else "ir"


def register(app: typer.Typer) -> None:
    """Add the ``guard`` command to ``app``."""

    @app.command("guard")
    def guard_command(
        tools: Path = typer.Argument(..., help="Tools file: MCP tools/list, OpenAI, Anthropic, "
                                               "BFCL or ToolForm IR JSON."),
        clean: Optional[str] = typer.Option(
            None, "--clean", help="Write a cleaned copy: strip_high (drop flagged sentences and "
                                  "hidden characters) or drop_descriptions. Needs --out."),
        out: Optional[Path] = typer.Option(
            None, "--out", help="Where the cleaned copy goes (same document kind as the input; "
                                "BFCL input is written as IR JSON)."),
        pin_file: Optional[Path] = typer.Option(
            None, "--pin", help="Write a lockfile (one SHA-256 per tool) of the tools as served: "
                                "the cleaned copy with --clean, else the input."),
        verify_file: Optional[Path] = typer.Option(
            None, "--verify", help="Check the input against a lockfile; a changed, added or "
                                   "removed tool fails."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON report instead of "
                                                           "text."),
        min_severity: str = typer.Option("low", help="Lowest severity to print: high, medium "
                                                     "or low (the exit status counts high only)."),
    ) -> None:
        """Scan tool metadata for injected instructions (rules TS101-TS111); exit 1 on a high
        finding or a pin mismatch."""
        from ..errors import LoaderError
        from ..guard import CLEAN_MODES, SEVERITIES, guard, write_lockfile
        from ..io import save_tools

        if clean is not None and clean not in CLEAN_MODES:
            raise typer.BadParameter(f"must be one of {', '.join(CLEAN_MODES)}, got {clean!r}",
                                     param_hint="--clean")
        if (clean is None) != (out is None):
            raise typer.BadParameter("--clean and --out go together", param_hint="--clean/--out")
        if min_severity not in SEVERITIES:
            raise typer.BadParameter(f"must be one of {', '.join(SEVERITIES)}",
                                     param_hint="--min-severity")
        try:
            report = guard(tools, clean=clean, lockfile=verify_file)
        except LoaderError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(EXIT_USAGE) from None
        print_load_warnings(report.toolset)

        if out is not None and report.cleaned is not None:
            save_tools(report.cleaned, out, kind=_out_kind(tools))
        if pin_file is not None:
            write_lockfile(report.cleaned if report.cleaned is not None else report.toolset,
                           pin_file)

        limit = SEVERITIES.index(min_severity)
        shown = [f for f in report.findings if SEVERITIES.index(f.severity) <= limit]
        if as_json:
            typer.echo(json.dumps({
                "source": report.source, "ok": report.ok,
                "counts": {s: report.count(s) for s in SEVERITIES},
                "findings": [f.to_dict() for f in shown],
                "clean_log": [e.to_dict() for e in report.clean_log],
                "pin": None if report.pin is None else {
                    "ok": report.pin.ok, "changed": list(report.pin.changed),
                    "added": list(report.pin.added), "removed": list(report.pin.removed)},
            }, ensure_ascii=False, indent=2))
        else:
            for f in shown:
                typer.echo(f"{f.severity.upper():6} {f.rule} {f.name:21} {f.path} "
                           f"[{f.start}:{f.end}] {f.excerpt!r} - {f.detail}")
            for entry in report.clean_log:
                typer.echo(f"cleaned {entry.path} ({entry.action}"
                           + (f"; {', '.join(entry.rules)}" if entry.rules else "") + ")")
            if out is not None:
                typer.echo(f"wrote {out}")
            if pin_file is not None:
                typer.echo(f"wrote lockfile {pin_file}")
            typer.echo(report.summary())
        if not report.ok:
            raise typer.Exit(EXIT_FINDINGS)
