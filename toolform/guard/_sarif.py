"""The guard's findings as a SARIF 2.1.0 log, for code-scanning tools.

:func:`sarif_log` turns one or more :class:`~toolform.guard.GuardReport` objects (one per tools
file, one file per server) into one SARIF run: the rules of :data:`GUARD_RULES` as the
driver's rules, one result per finding. Severities map to SARIF levels as ``high`` → ``error``,
``medium`` → ``warning``, ``low`` → ``note``. A result's physical location is the tools file
and, when the field's text can be found in it, the line and column where it starts; its logical
location is the field's path (``tools[2].params.notify.description``), and the character span
inside the field is kept in the result's properties.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from ._rule import SEVERITIES
from ._rules import GUARD_RULES

if TYPE_CHECKING:
    from ._report import GuardReport
    from ._scan import Finding

__all__ = ["SARIF_LEVELS", "SARIF_SCHEMA_URI", "sarif_log"]

#: The SARIF level of each severity.
SARIF_LEVELS = {"high": "error", "medium": "warning", "low": "note"}
#: The schema a log names (the OASIS SARIF 2.1.0 schema, errata 01).
SARIF_SCHEMA_URI = ("https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
                    "sarif-schema-2.1.0.json")


def _pascal(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("-"))


def _rules() -> list[dict[str, Any]]:
    return [{
        "id": r.id,
        "name": _pascal(r.name),
        "shortDescription": {"text": r.summary},
        "defaultConfiguration": {"level": SARIF_LEVELS[r.severity]},
        "properties": {"tags": ["security", "prompt-injection"], "kinds": list(r.kinds)},
    } for r in GUARD_RULES]


def _position(raw: str | None, text: str) -> dict[str, int] | None:
    """Line and column (1-based) where ``text`` starts in the file's raw JSON, if found."""
    if raw is None or not text:
        return None
    for needle in (json.dumps(text, ensure_ascii=False)[1:-1], json.dumps(text)[1:-1]):
        at = raw.find(needle)
        if at >= 0:
            line = raw.count("\n", 0, at) + 1
            return {"startLine": line, "startColumn": at - (raw.rfind("\n", 0, at) + 1) + 1}
    return None


def _result(f: Finding, uri: str, raw: str | None, index: dict[str, int],
            field_text: str | None) -> dict[str, Any]:
    location: dict[str, Any] = {"artifactLocation": {"uri": uri}}
    region = _position(raw, field_text or "")
    location["region"] = region or {"startLine": 1}
    return {
        "ruleId": f.rule,
        "ruleIndex": index[f.rule],
        "level": SARIF_LEVELS[f.severity],
        "message": {"text": f"{f.detail} ({f.severity}): {f.excerpt}"},
        "locations": [{
            "physicalLocation": location,
            "logicalLocations": [{"fullyQualifiedName": f.path, "kind": "member",
                                  "decoratedName": f.tool}],
        }],
        "properties": {"severity": f.severity, "tool": f.tool, "field": f.path,
                       "fieldKind": f.kind, "span": [f.start, f.end]},
    }


def sarif_log(reports: Sequence[GuardReport], *, tool_version: str | None = None
              ) -> dict[str, Any]:
    """One SARIF 2.1.0 log holding the findings of ``reports``.

    Parameters
    ----------
    reports : sequence of GuardReport
        One per tools file (their ``source`` is used as the artifact's URI, relative paths
        kept as given).
    tool_version : str, optional
        The version the driver reports (default: ToolForm's).

    Returns
    -------
    dict
        A JSON-ready SARIF log: ``version`` "2.1.0", one run, every finding a result.
    """
    from .. import __version__
    from ._fields import iter_fields

    index = {r.id: i for i, r in enumerate(GUARD_RULES)}
    results: list[dict[str, Any]] = []
    artifacts: list[dict[str, Any]] = []
    for report in reports:
        uri = Path(report.source).as_posix()
        artifacts.append({"location": {"uri": uri}})
        path = Path(report.source)
        raw = path.read_text(encoding="utf-8") if path.is_file() else None
        texts = {f.path: f.text for f in iter_fields(report.toolset)}
        results.extend(_result(f, uri, raw, index, texts.get(f.path))
                       for f in sorted(report.findings,
                                       key=lambda f: SEVERITIES.index(f.severity)))
    return {
        "$schema": SARIF_SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "toolform-guard",
                                "version": tool_version or __version__,
                                "rules": _rules()}},
            "artifacts": artifacts,
            "results": results,
            "columnKind": "unicodeCodePoints",
        }],
    }
