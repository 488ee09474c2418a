"""The one-call guard: scan a tools file or toolset, optionally clean it and check it against
a lockfile, and keep what was found in a :class:`GuardReport` (what ``toolform guard`` prints
and gates on)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InvalidParameterError
from ..ir import Toolset
from ._clean import CleanLogEntry, clean_toolset
from ._fields import iter_fields
from ._pin import PinReport, verify
from ._rule import SEVERITIES, severity_rank
from ._scan import Finding, findings_frame, scan_toolset

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["FAIL_ON", "GuardReport", "guard"]

#: The severities a gate can fail on (``toolform guard --fail-on``), most severe first.
FAIL_ON = ("high", "medium")

@dataclass(frozen=True)
class GuardReport:
    """What :func:`guard` found, and what it did.

    Parameters
    ----------
    source : str
        Where the toolset came from (a path or the toolset's own label).
    toolset : Toolset
        The toolset as read.
    findings : tuple of Finding
        Every finding in ``toolset``.
    cleaned : Toolset or None
        The cleaned copy when a clean mode was asked for.
    clean_log : tuple of CleanLogEntry
        What cleaning changed (empty without cleaning).
    clean_mode : str or None
        The clean mode used.
    pin : PinReport or None
        The check against a lockfile, when one was given.
    """

    source: str
    toolset: Toolset
    findings: tuple[Finding, ...]
    cleaned: Toolset | None = None
    clean_log: tuple[CleanLogEntry, ...] = ()
    clean_mode: str | None = None
    pin: PinReport | None = None

    @property
    def frame(self) -> pd.DataFrame:
        """The findings as a DataFrame (see :func:`findings_frame`)."""
        return findings_frame(self.findings)

    def count(self, severity: str) -> int:
        """How many findings have this severity."""
        if severity not in SEVERITIES:
            raise InvalidParameterError(f"severity must be one of {SEVERITIES}, got {severity!r}")
        return sum(f.severity == severity for f in self.findings)

    @property
    def ok(self) -> bool:
        """True when there is no high finding and no pin mismatch."""
        return self.passes("high")

    def passes(self, fail_on: str = "high") -> bool:
        """True when no finding is at ``fail_on`` severity or above and no pin mismatch.

        Raises
        ------
        ValueError
            When ``fail_on`` is not ``"high"`` or ``"medium"``.
        """
        if fail_on not in FAIL_ON:
            raise InvalidParameterError(f"fail_on must be one of {FAIL_ON}, got {fail_on!r}")
        limit = severity_rank(fail_on)
        return (not any(severity_rank(f.severity) <= limit for f in self.findings)
                and (self.pin is None or self.pin.ok))

    @property
    def texts(self) -> int:
        """How many text fields the scan read: titles, descriptions, defaults and enum values
        (names aside)."""
        return sum(f.kind not in ("tool.name", "param.name") for f in iter_fields(self.toolset))

    def summary(self, fail_on: str = "high") -> str:
        """One line: tools, findings by severity, cleaning and pin outcome, and whether the
        toolset passes a gate failing on ``fail_on`` (see :meth:`passes`)."""
        parts = [f"{len(self.toolset)} tools",
                 ", ".join(f"{self.count(s)} {s}" for s in SEVERITIES)]
        if self.clean_mode:
            parts.append(f"{self.clean_mode}: {len(self.clean_log)} field(s) changed")
        if self.pin is not None:
            parts.append(self.pin.summary())
        return f"{self.source}: " + "; ".join(parts) + (" — OK" if self.passes(fail_on)
                                                        else " — FAIL")


def guard(source: Toolset | str | os.PathLike[str], *, clean: str | None = None,
          lockfile: dict[str, Any] | str | os.PathLike[str] | None = None) -> GuardReport:
    """Scan a toolset in one call, optionally clean it and check it against a lockfile.

    Parameters
    ----------
    source : Toolset or path
        A toolset, or a tools file that ``toolform.io.load_tools`` reads.
    clean : {"strip_high", "drop_descriptions"}, optional
        Also build a cleaned copy (see :func:`~toolform.guard.clean_toolset`).
    lockfile : dict or path, optional
        A lockfile from :func:`~toolform.guard.pin` to verify the toolset against.

    Returns
    -------
    GuardReport

    Raises
    ------
    toolform.errors.LoaderError
        When the tools file or the lockfile cannot be read.
    ValueError
        On an unknown clean mode.
    """
    if isinstance(source, Toolset):
        toolset, label = source, source.source or "<toolset>"
    else:
        from ..io import load_tools

        toolset, label = load_tools(source), str(Path(source))
    findings = tuple(scan_toolset(toolset))
    cleaned, log = None, ()
    if clean is not None:
        cleaned, entries = clean_toolset(toolset, mode=clean)
        log = tuple(entries)
    pin_report = verify(toolset, lockfile) if lockfile is not None else None
    return GuardReport(source=label, toolset=toolset, findings=findings, cleaned=cleaned,
                       clean_log=log, clean_mode=clean, pin=pin_report)
