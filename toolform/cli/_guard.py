"""``toolform guard``: scan tools files (one per server), optionally clean, pin or check one.

Each file is read as one server's tools (an MCP ``tools/list`` result, an OpenAI, Anthropic,
BFCL or ToolForm IR file). The command prints the findings, then one summary line per server:
tools, text fields read, findings by severity and whether the server passes the gate.
``--json`` prints one JSON report instead; ``--sarif F`` also writes a SARIF 2.1.0 log for
code-scanning tools.

Exit status: 0 when every server passes, 1 when a server has a finding at the ``--fail-on``
severity or above (``high`` by default, or ``medium``) or a pin mismatch (so the command can
gate a CI pipeline), 2 for a usage error or an unreadable file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, List, Optional

import typer

from .. import _jsontext as jsontext
from ._common import print_load_warnings

#: Exit status when a server fails the gate (a finding at the --fail-on severity, or a pin
#: mismatch).
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


def _report_json(report: Any, shown: list[Any], fail_on: str) -> dict[str, Any]:
    from ..guard import SEVERITIES

    return {
        "source": report.source, "ok": report.passes(fail_on), "tools": len(report.toolset),
        "texts": report.texts, "counts": {s: report.count(s) for s in SEVERITIES},
        "findings": [f.to_dict() for f in shown],
        "clean_log": [e.to_dict() for e in report.clean_log],
        "pin": None if report.pin is None else {
            "ok": report.pin.ok, "changed": list(report.pin.changed),
            "added": list(report.pin.added), "removed": list(report.pin.removed)},
    }


def _summary_table(reports: list[Any], fail_on: str) -> list[str]:
    """One line per server, aligned: name, tools, texts, high, medium, low, status."""
    rows = [(r.source, str(len(r.toolset)), str(r.texts), str(r.count("high")),
             str(r.count("medium")), str(r.count("low")), "OK" if r.passes(fail_on) else "FAIL")
            for r in reports]
    head = ("server", "tools", "texts", "high", "medium", "low", f"fail on {fail_on}")
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(len(head))]
    lines = []
    for row in [head, *rows]:
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:-1], widths[1:-1])]
        lines.append("  ".join(cells + [row[-1]]))
    return lines


def register(app: typer.Typer) -> None:
    """Add the ``guard`` command to ``app``."""

    @app.command("guard")
    def guard_command(
        tools: List[Path] = typer.Argument(..., help="Tools files, one per server: MCP "
                                                     "tools/list, OpenAI, Anthropic, BFCL or "
                                                     "ToolForm IR JSON."),
        fail_on: str = typer.Option("high", "--fail-on", help="The gate: exit 1 when a "
                                                              "server has a finding at this "
                                                              "severity or above (high or "
                                                              "medium)."),
        clean: Optional[str] = typer.Option(
            None, "--clean", help="Write a cleaned copy: strip_high (drop flagged sentences and "
                                  "hidden characters) or drop_descriptions. Needs --out and one "
                                  "tools file."),
        out: Optional[Path] = typer.Option(
            None, "--out", help="Where the cleaned copy goes (same document kind as the input; "
                                "BFCL input is written as IR JSON)."),
        pin_file: Optional[Path] = typer.Option(
            None, "--pin", help="Write a lockfile (one SHA-256 per tool) of the tools as served: "
                                "the cleaned copy with --clean, else the input (one tools "
                                "file)."),
        verify_file: Optional[Path] = typer.Option(
            None, "--verify", help="Check the input against a lockfile; a changed, added or "
                                   "removed tool fails (one tools file)."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON report instead of "
                                                           "text."),
        sarif_file: Optional[Path] = typer.Option(
            None, "--sarif", help="Also write the findings as a SARIF 2.1.0 log to this file."),
        min_severity: str = typer.Option("low", help="Lowest severity to print: high, medium "
                                                     "or low (the gate is --fail-on)."),
    ) -> None:
        """Scan tool metadata for planted instructions (rules TS101-TS112); exit 1 when a
        server has a finding at the --fail-on severity or a pin mismatch."""
        from ..errors import LoaderError
        from ..guard import CLEAN_MODES, FAIL_ON, SEVERITIES, guard, sarif_log, write_lockfile
        from ..io import save_tools

        if fail_on not in FAIL_ON:
            raise typer.BadParameter(f"must be one of {', '.join(FAIL_ON)}, got {fail_on!r}",
                                     param_hint="--fail-on")
        if clean is not None and clean not in CLEAN_MODES:
            raise typer.BadParameter(f"must be one of {', '.join(CLEAN_MODES)}, got {clean!r}",
                                     param_hint="--clean")
        if (clean is None) != (out is None):
            raise typer.BadParameter("--clean and --out go together", param_hint="--clean/--out")
        if len(tools) > 1 and (clean or pin_file or verify_file):
            raise typer.BadParameter("--clean, --pin and --verify take one tools file",
                                     param_hint="TOOLS")
        if min_severity not in SEVERITIES:
            raise typer.BadParameter(f"must be one of {', '.join(SEVERITIES)}",
                                     param_hint="--min-severity")
        reports = []
        for path in tools:
            try:
                reports.append(guard(path, clean=clean, lockfile=verify_file))
            except LoaderError as exc:
                typer.echo(f"error: {exc}", err=True)
                raise typer.Exit(EXIT_USAGE) from None
            print_load_warnings(reports[-1].toolset)

        report = reports[0]
        if out is not None and report.cleaned is not None:
            save_tools(report.cleaned, out, kind=_out_kind(tools[0]))
        if pin_file is not None:
            write_lockfile(report.cleaned if report.cleaned is not None else report.toolset,
                           pin_file)
        if sarif_file is not None:
            sarif_file.write_text(jsontext.dumps(sarif_log(reports), indent=1)
                                  + "\n", encoding="utf-8")

        limit = SEVERITIES.index(min_severity)
        shown = [[f for f in r.findings if SEVERITIES.index(f.severity) <= limit]
                 for r in reports]
        passed = all(r.passes(fail_on) for r in reports)
        if as_json:
            documents = [_report_json(r, s, fail_on) for r, s in zip(reports, shown)]
            if len(reports) == 1:
                document = documents[0]
            else:
                document = {"ok": passed, "fail_on": fail_on, "servers": documents}
            typer.echo(jsontext.dumps(document, indent=2))
        else:
            for r, findings in zip(reports, shown):
                for f in findings:
                    prefix = f"{r.source}: " if len(reports) > 1 else ""
                    typer.echo(f"{prefix}{f.severity.upper():6} {f.rule} {f.name:21} {f.path} "
                               f"[{f.start}:{f.end}] {f.excerpt!r} - {f.detail}")
            for entry in report.clean_log:
                typer.echo(f"cleaned {entry.path} ({entry.action}"
                           + (f"; {', '.join(entry.rules)}" if entry.rules else "") + ")")
            if out is not None:
                typer.echo(f"wrote {out}")
            if pin_file is not None:
                typer.echo(f"wrote lockfile {pin_file}")
            if sarif_file is not None:
                typer.echo(f"wrote SARIF log {sarif_file}")
            if len(reports) == 1:
                typer.echo(report.summary(fail_on))
            else:
                for line in _summary_table(reports, fail_on):
                    typer.echo(line)
                failed = sum(not r.passes(fail_on) for r in reports)
                typer.echo(f"{len(reports) - failed} of {len(reports)} servers pass "
                           f"(fail on {fail_on})")
        if not passed:
            raise typer.Exit(EXIT_FINDINGS)
