"""Cleaning: a copy of a toolset with the injected text taken out, and a log of every change.

Two modes:

``strip_high``
    In every title and description, remove invisible characters (TS106) and then every sentence
    that carries a high finding. A default or an enum value that carries a high finding is
    removed whole (the value is the carrier); one whose only fault is invisible characters
    loses those characters when it is a string, and is removed otherwise. Nothing else changes.
``drop_descriptions``
    Empty every tool and parameter description and title (what the study's minimal format
    shows: no description, and no hijack, ``injection.json``), and treat defaults and enum
    values as ``strip_high`` does.

Sentences end at ``.``, ``!``, ``?`` or a line break (see ``sentence_spans``): an instruction glued
to the text before it without a full stop is part of that sentence, and both go. Names are never
changed: a shadowing or hidden-character finding on a name stays in the report and the tool
stays; remove it yourself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import InvalidParameterError
from ..ir import Toolset
from ._fields import REMOVE, FieldText, iter_fields, rebuild_toolset
from ._concealment import invisible_spans
from ._sentences import _Sentences
from ._scan import Finding, scan_text, scan_toolset

__all__ = ["CLEAN_MODES", "CleanLogEntry", "clean_toolset", "strip_text"]

#: The cleaning modes :func:`clean_toolset` accepts.
CLEAN_MODES = ("strip_high", "drop_descriptions")

_PROSE = ("tool.title", "tool.description", "param.title", "param.description")
_VALUES = ("param.default", "param.enum")

# Removing sentences can join text into something new; a few passes settle it.
_MAX_PASSES = 3


@dataclass(frozen=True)
class CleanLogEntry:
    """One field :func:`clean_toolset` changed.

    Parameters
    ----------
    tool : str
        The tool the field belongs to.
    path : str
        The field's path (as in findings), e.g. ``tools[2].params.notify.description``.
    kind : str
        The field's kind.
    action : str
        ``"strip"`` (sentences or characters removed), ``"drop"`` (a description or title
        emptied), ``"remove_default"`` or ``"remove_enum_value"``.
    rules : tuple of str
        The rules whose high findings caused it (empty for ``drop``).
    before : str
        The field's text before.
    after : str or None
        Its text after; None when the value was removed.
    """

    tool: str
    path: str
    kind: str
    action: str
    rules: tuple[str, ...]
    before: str
    after: str | None

    def to_dict(self) -> dict[str, Any]:
        """A plain JSON-ready dict."""
        return {"tool": self.tool, "path": self.path, "kind": self.kind, "action": self.action,
                "rules": list(self.rules), "before": self.before, "after": self.after}


def _without_invisible(text: str) -> str:
    spans = invisible_spans(text)
    if not spans:
        return text
    out, last = [], 0
    for s, e in spans:
        out.append(text[last:s])
        last = e
    out.append(text[last:])
    return "".join(out)


def strip_text(text: str, kind: str = "tool.description", *, tool: str = "",
               tool_names: tuple[str, ...] = ()) -> tuple[str, tuple[str, ...]]:
    """``text`` without invisible characters and without the sentences carrying high findings.

    Parameters
    ----------
    text : str
        A title or description.
    kind : str, default "tool.description"
        The field kind it sits in (it decides which rules read it).
    tool, tool_names : optional
        The tool it belongs to and the catalogue's names (for TS104's name check).

    Returns
    -------
    (str, tuple of str)
        The cleaned text (stripped of surrounding whitespace when anything was removed) and the
        ids of the rules whose findings were removed, sorted.
    """
    rules: set[str] = set()
    cleaned = _without_invisible(text)
    if cleaned != text:
        rules.add("TS106")
    for _ in range(_MAX_PASSES):
        high = [f for f in scan_text(cleaned, kind, tool=tool, tool_names=tool_names)
                if f.severity == "high"]
        if not high:
            break
        sentences = _Sentences(cleaned)
        cut: list[tuple[int, int]] = sorted(sentences.around(f.start, f.end) for f in high)
        rules.update(f.rule for f in high)
        kept, last = [], 0
        for s, e in cut:
            if s >= last:
                kept.append(cleaned[last:s])
            last = max(last, e)
        kept.append(cleaned[last:])
        cleaned = "".join(kept)
    if cleaned != text:
        cleaned = cleaned.strip()
    return cleaned, tuple(sorted(rules))


def _high_rules(findings: list[Finding]) -> dict[str, tuple[str, ...]]:
    by_path: dict[str, set[str]] = {}
    for f in findings:
        if f.severity == "high":
            by_path.setdefault(f.path, set()).add(f.rule)
    return {p: tuple(sorted(r)) for p, r in by_path.items()}


def clean_toolset(toolset: Toolset,
                  mode: str = "strip_high") -> tuple[Toolset, list[CleanLogEntry]]:
    """A cleaned copy of ``toolset`` and the log of what was removed.

    Parameters
    ----------
    toolset : Toolset
        The toolset to clean (left unchanged).
    mode : {"strip_high", "drop_descriptions"}, default "strip_high"
        See the module docstring.

    Returns
    -------
    (Toolset, list of CleanLogEntry)
        The copy, equal to ``toolset`` except exactly in the logged fields, and one log entry
        per changed field in field order.

    Raises
    ------
    ValueError
        When ``mode`` is not one of :data:`CLEAN_MODES`.
    """
    if mode not in CLEAN_MODES:
        raise InvalidParameterError(f"mode must be one of {CLEAN_MODES}, got {mode!r}")
    names = tuple(toolset.names)
    high = _high_rules(scan_toolset(toolset))
    edits: dict[str, Any] = {}
    log: list[CleanLogEntry] = []

    def record(f: FieldText, action: str, rules: tuple[str, ...], after: str | None,
               value: Any) -> None:
        edits[f.path] = value
        log.append(CleanLogEntry(f.tool, f.path, f.kind, action, rules, f.text, after))

    for f in iter_fields(toolset):
        if f.kind in _PROSE:
            if mode == "drop_descriptions":
                record(f, "drop", (), "", "")
            elif f.path in high or invisible_spans(f.text):
                after, rules = strip_text(f.text, f.kind, tool=f.tool, tool_names=names)
                if after != f.text:
                    record(f, "strip", rules, after, after)
        elif f.kind in _VALUES:
            carried = tuple(r for r in high.get(f.path, ()) if r != "TS106")
            hidden = bool(invisible_spans(f.text))
            if carried or (hidden and not isinstance(f.value, str)):
                action = "remove_default" if f.kind == "param.default" else "remove_enum_value"
                record(f, action, carried or ("TS106",), None, REMOVE)
            elif hidden:
                after = _without_invisible(f.text)
                record(f, "strip", ("TS106",), after, after)
    return rebuild_toolset(toolset, edits), log
