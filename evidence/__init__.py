"""The study's figures as ToolForm's own evidence tables.

``build.py`` reads the study's files (``../shared/study``) and writes one JSON table per finding
under ``tables/`` with a checksum manifest; this package reads them back::

    from toolform.evidence import load_evidence
    grid = load_evidence("main_grid").frame()      # one row per format x rule

Every table carries the study tables its rows come from (``source``) and the settings they
were measured under (``conditions``); a missing or altered table raises ``EvidenceError``.
"""

from ._tables import EvidenceColumn, EvidenceRow, EvidenceTable, evidence_tables, load_evidence

__all__ = ["EvidenceColumn", "EvidenceRow", "EvidenceTable", "evidence_tables", "load_evidence"]
