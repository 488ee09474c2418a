"""Reading the evidence tables: checksum-verified, frozen, one DataFrame per table."""

from __future__ import annotations

import difflib
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

import pandas as pd

from toolform.errors import EvidenceError, NotFoundError

__all__ = ["EvidenceColumn", "EvidenceRow", "EvidenceTable", "evidence_tables", "load_evidence"]

EVIDENCE_DIR = Path(__file__).resolve().parent
_REBUILD = "rebuild with: python -m toolform.evidence.build"


@dataclass(frozen=True)
class EvidenceColumn:
    """One declared column of an evidence table.

    Attributes
    ----------
    name : str
        The snake_case column name.
    dtype : str
        ``string``, ``int``, ``float``, ``bool`` or ``list[string]``.
    unit : str or None
        ``percent`` (0-100), ``percentage_points`` (a difference of percents), ``proportion``
        (0-1), ``tokens``, ``count``, ``ratio``, ... or None for ids and labels.
    meaning : str
        What the column holds.
    """

    name: str
    dtype: str
    unit: str | None
    meaning: str


_PANDAS_DTYPES = {"string": "str", "float": "float64"}


@dataclass(frozen=True)
class EvidenceRow:
    """One value of an evidence table that a result rests on, with where it comes from.

    The advisor and the catalogue planner cite their figures with it, so every number they show
    can be traced back to a table row (``load_evidence(row.table)``) and to the study tables
    behind it (``row.source``).

    Attributes
    ----------
    table : str
        The evidence table's id, or ``"measurement"`` for a cell of the caller's own A/B result.
    source : tuple of str
        The study tables the value comes from (``("paper:tab_main",)``), or ``("ab_test",)``.
    key : mapping
        The columns that identify the row (``{"format_id": "xml_schema", "rule": "main"}``).
    column : str
        The column read.
    value : float, int, bool or None
        The value read, in ``unit``.
    unit : str or None
        The column's declared unit (``percent``, ``percentage_points``, ``tokens`` ...).
    label : str
        What the value is, in words ("XML at 64 tools, main rule").
    role : str
        What the result uses it for (the advisor's ``base``, ``pooled``, ``tool_count``,
        ``tier``, ``protocol``, ``cost``, ``catalogue``, ``guard`` ...; "" when not said).
    row : mapping
        The whole stored row.
    """

    table: str
    source: tuple[str, ...]
    key: Mapping[str, Any]
    column: str
    value: Any
    unit: str | None
    label: str
    role: str = ""
    row: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def cite(cls, table: EvidenceTable, row: Mapping[str, Any], column: str, *,
             key: tuple[str, ...], label: str, role: str = "") -> EvidenceRow:
        """The value ``row[column]`` of ``table``, identified by the columns ``key``.

        Raises
        ------
        KeyError
            When the table declares no such column, or the row lacks a key column.
        """
        unit = table.column(column).unit
        return cls(table=table.id, source=table.source,
                   key=MappingProxyType({k: row[k] for k in key}), column=column,
                   value=row[column], unit=unit, label=label, role=role,
                   row=MappingProxyType(dict(row)))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready record: ``table, source, key, column, value, unit, label, role``."""
        return {"table": self.table, "source": list(self.source), "key": _thaw_all(self.key),
                "column": self.column, "value": _thaw_all(self.value), "unit": self.unit,
                "label": self.label, "role": self.role}


@dataclass(frozen=True)
class EvidenceTable:
    """One evidence table: the study's figures for one finding, with where they come from.

    Attributes
    ----------
    id : str
        The table's id (``load_evidence(id)``).
    title : str
        One line saying what the table shows.
    source : tuple of str
        The study tables the rows come from, e.g. ``("paper:tab_count",)``.
    conditions : mapping
        Settings shared by every row (``n_tools``, ``tier``, ``rule``, ``n_checkpoints``,
        ``seeds``, ...). Read-only.
    columns : tuple of EvidenceColumn
        Declared columns, in order.
    rows : tuple of mapping
        Long-form records, one observation each. Read-only.
    sha256 : str
        Checksum of the table file, as verified against the manifest.
    """

    id: str
    title: str
    source: tuple[str, ...]
    conditions: Mapping[str, Any]
    columns: tuple[EvidenceColumn, ...]
    rows: tuple[Mapping[str, Any], ...]
    sha256: str

    def __len__(self) -> int:
        return len(self.rows)

    def column(self, name: str) -> EvidenceColumn:
        """The declaration of column ``name``.

        Raises
        ------
        NotFoundError
            When the table has no such column (a ``KeyError`` too; the message lists the
            columns it has).
        """
        for c in self.columns:
            if c.name == name:
                return c
        raise NotFoundError(f"evidence table {self.id!r} has no column {name!r}; "
                            f"columns: {', '.join(c.name for c in self.columns)}", key=name)

    def frame(self) -> pd.DataFrame:
        """The rows as a new DataFrame with the declared columns and dtypes.

        Returns
        -------
        pandas.DataFrame
            Shape ``(len(rows), len(columns))``. ``int`` columns are ``int64`` (``Int64`` when
            some value is missing), ``bool`` columns ``bool`` (``boolean`` when missing),
            ``float`` columns ``float64`` (missing as NaN), ``string`` columns ``str``, and
            ``list[string]`` columns hold Python lists. A fresh copy on every call.
        """
        names = [c.name for c in self.columns]
        data = {n: [_thaw(r[n]) for r in self.rows] for n in names}
        out = pd.DataFrame(data, columns=names)
        for c in self.columns:
            values = data[c.name]
            missing = any(v is None for v in values)
            if c.dtype == "int":
                out[c.name] = out[c.name].astype("Int64" if missing else "int64")
            elif c.dtype == "bool":
                out[c.name] = out[c.name].astype("boolean" if missing else "bool")
            elif c.dtype in _PANDAS_DTYPES:
                out[c.name] = out[c.name].astype(_PANDAS_DTYPES[c.dtype])
        return out


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    return value


def _thaw(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _thaw_all(value: Any) -> Any:
    """A frozen value (tuples, read-only mappings) as plain JSON-ready lists and dicts."""
    if isinstance(value, (tuple, list)):
        return [_thaw_all(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _thaw_all(v) for k, v in value.items()}
    return value


_MANIFESTS: dict[tuple[str, int, int], dict[str, Any]] = {}


def _manifest(root: Path) -> dict[str, Any]:
    path = root / "manifest.json"
    try:
        stat = path.stat()
    except FileNotFoundError:
        raise EvidenceError(f"the evidence manifest {path} is missing; {_REBUILD}") from None
    # parsed once per file version (the tables themselves are re-hashed on every load)
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    if key not in _MANIFESTS:
        try:
            _MANIFESTS[key] = json.loads(path.read_text("utf-8"))
        except json.JSONDecodeError as exc:
            raise EvidenceError(f"the evidence manifest {path} is not valid JSON ({exc}); "
                                f"{_REBUILD}") from None
    return _MANIFESTS[key]


_CACHE: dict[tuple[str, str], EvidenceTable] = {}


def load_evidence(table_id: str, *, root: str | Path | None = None) -> EvidenceTable:
    """Load one evidence table, verified against the manifest's checksum.

    Parameters
    ----------
    table_id : str
        A table id such as ``"main_grid"`` or ``"tool_count"`` (see :func:`evidence_tables`).
    root : str or Path, optional
        A folder holding ``manifest.json`` and ``tables/``; defaults to the installed
        ``toolform.evidence`` package.

    Returns
    -------
    EvidenceTable

    Raises
    ------
    EvidenceError
        When the manifest or the table is missing, when no table has that id (the message names
        the closest ids), or when the table file's SHA-256 differs from the manifest's (the
        table was altered). Every message names the table.
    """
    base = Path(root) if root is not None else EVIDENCE_DIR
    entries = {e["id"]: e for e in _manifest(base)["tables"]}
    entry = entries.get(table_id)
    if entry is None:
        close = difflib.get_close_matches(str(table_id), list(entries), n=3, cutoff=0.5)
        hint = f"; closest: {', '.join(close)}" if close else ""
        raise EvidenceError(f"no evidence table {table_id!r}{hint} "
                            f"(known: {', '.join(sorted(entries))})")
    path = base / entry["path"]
    if not path.exists():
        raise EvidenceError(f"evidence table {table_id!r} is missing: {path} ({_REBUILD})")
    raw = path.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    if digest != entry["sha256"]:
        raise EvidenceError(f"evidence table {table_id!r} was altered: {path} has sha256 "
                            f"{digest}, the manifest expects {entry['sha256']} ({_REBUILD})")
    key = (str(path), digest)
    if key not in _CACHE:
        data = json.loads(raw)
        if data.get("id") != table_id:
            raise EvidenceError(f"evidence table {table_id!r}: {path} holds table "
                                f"{data.get('id')!r}")
        _CACHE[key] = EvidenceTable(
            id=data["id"], title=data["title"], source=tuple(data["source"]),
            conditions=_freeze(data["conditions"]),
            columns=tuple(EvidenceColumn(**c) for c in data["columns"]),
            rows=tuple(_freeze(r) for r in data["rows"]), sha256=digest,
        )
    return _CACHE[key]


def evidence_tables(*, root: str | Path | None = None) -> pd.DataFrame:
    """List the evidence tables from the manifest (no table is opened).

    Parameters
    ----------
    root : str or Path, optional
        As for :func:`load_evidence`.

    Returns
    -------
    pandas.DataFrame
        One row per table, in build order, with columns ``id``, ``title``, ``source`` (the
        study tables, comma-separated) and ``n_rows``.

    Raises
    ------
    EvidenceError
        When the manifest is missing or unreadable.
    """
    base = Path(root) if root is not None else EVIDENCE_DIR
    rows = [{"id": e["id"], "title": e["title"], "source": ", ".join(e["source"]),
             "n_rows": e["n_rows"]} for e in _manifest(base)["tables"]]
    return pd.DataFrame(rows, columns=["id", "title", "source", "n_rows"])
