"""CSV tables that any text survives: the one writer and reader of every CSV ToolForm writes.

A turn's reply is whatever the server sent: a lone surrogate (``"\\ud800"``, or PEP 383's
``"\\udcff"`` for an invalid UTF-8 byte), NUL, ten megabytes. UTF-8 cannot encode a lone
surrogate at all (``to_csv`` raises ``UnicodeEncodeError``), and NUL ends the text in most
tools that read CSV. :func:`write_csv` writes every text cell through :func:`escape_text`, which
leaves ordinary text as it is and writes each such character as ``_xHHHH_``, its code point in
four hex digits: the escape Office Open XML uses for what XML cannot hold (ECMA-376 Part 1,
§22.9.2.19, ``ST_Xstring``), so Excel and openpyxl read it back too. A literal ``_`` that would
start such an escape (``_`` + ``x`` + four hex digits + ``_``, NUL or a lone surrogate) is itself
written ``_x005F_``. :func:`read_csv` undoes it with :func:`unescape_text`, so
``unescape_text(escape_text(s)) == s`` for every Python string, surrogate pairs spelled as two
code points included.

Lists and dicts (the calls, the gold calls, a reply's native tool calls) are written as JSON text
and, when :func:`read_csv` is given the table's declared columns (e.g.
:data:`toolform.runs.TURN_COLUMNS`), read back as lists and dicts. A missing value and an empty
string are both written as an empty field, as pandas writes them, and both read back as missing.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from . import _jsontext as jsontext

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["csv_text", "escape_text", "read_csv", "unescape_text", "write_csv"]

# what a CSV file in UTF-8 cannot carry: NUL and lone surrogates
_UNWRITABLE = "\x00\ud800-\udfff"
# one pass over the text: a literal "_" that would read as an escape, or an unwritable character
_TO_ESCAPE = re.compile(f"_(?=x[0-9A-Fa-f]{{4}}[_{_UNWRITABLE}])|[{_UNWRITABLE}]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_ESCAPED = re.compile("_x([0-9A-Fa-f]{4})_")


def _escape(match: re.Match[str]) -> str:
    return f"_x{ord(match.group()):04X}_"


def _unescape(match: re.Match[str]) -> str:
    return chr(int(match.group(1), 16))


def escape_text(text: str) -> str:
    """``text`` with NUL and lone surrogates written as ``_xHHHH_`` (see the module docstring).

    Parameters
    ----------
    text : str
        Any Python string.

    Returns
    -------
    str
        Text that encodes to UTF-8 and holds no NUL; ``text`` itself when it holds neither and
        no literal ``_xHHHH_`` (ordinary text is unchanged).
    """
    # the common case, found without a regular expression (which would walk every character)
    if "\x00" not in text and "_x" not in text and (text.isascii()
                                                    or not _SURROGATE.search(text)):
        return text
    return _TO_ESCAPE.sub(_escape, text)


def unescape_text(text: str) -> str:
    """The inverse of :func:`escape_text`: each ``_xHHHH_`` becomes the character it names.

    Parameters
    ----------
    text : str
        A text cell as :func:`write_csv` wrote it.

    Returns
    -------
    str
        The original text.
    """
    return _ESCAPED.sub(_unescape, text) if "_x" in text else text


def _cell_out(value: Any) -> Any:
    if isinstance(value, str):
        return escape_text(value)
    if isinstance(value, (list, dict, tuple)):
        return escape_text(jsontext.dumps(value, default=str))
    return value


def write_csv(frame: pd.DataFrame, path: str | os.PathLike[str], **options: Any) -> Path:
    """Write ``frame`` as UTF-8 CSV, every text cell escaped so that any text survives.

    Parameters
    ----------
    frame : pandas.DataFrame
        The table (a turn frame, a cell summary...). It is not modified.
    path : path
        The CSV file to write (its folder must exist).
    **options
        Passed to ``DataFrame.to_csv`` (``index`` defaults to False; ``encoding`` and
        ``errors`` are fixed: UTF-8, strict, which escaped text always satisfies).

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    OSError
        When the file cannot be written.
    """
    options.setdefault("index", False)
    options.update(encoding="utf-8", errors="strict")
    _escaped(frame).to_csv(path, **options)
    return Path(path)


def csv_text(frame: pd.DataFrame) -> str:
    """``frame`` as CSV text, escaped as :func:`write_csv` writes it (for a download link).

    Parameters
    ----------
    frame : pandas.DataFrame
        The table. It is not modified.

    Returns
    -------
    str
        The CSV, without the index; it always encodes to UTF-8.
    """
    return _escaped(frame).to_csv(index=False)


def _escaped(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` with every text cell escaped (lists and dicts as JSON)."""
    from pandas.api.types import is_string_dtype  # pandas is imported only when a frame is written

    out = frame.copy()
    for name in out.columns:
        # object, "string" and pandas 3's default "str" columns alike
        if out[name].dtype == object or is_string_dtype(out[name].dtype):
            out[name] = out[name].astype(object).map(_cell_out)
    return out


def read_csv(path: str | os.PathLike[str],
             columns: Sequence[Sequence[Any]] | Mapping[str, str] | None = None) -> pd.DataFrame:
    """Read a CSV file written by :func:`write_csv`, restoring its text exactly.

    Parameters
    ----------
    path : path
        The CSV file.
    columns : sequence of (name, dtype, ...) or mapping of name to dtype, optional
        The table's declared columns, e.g. :data:`toolform.runs.TURN_COLUMNS`. Text columns
        (``"string"``) are then read as text, never as numbers ("1", "NA" and "null" stay
        text), ``"object"`` columns are parsed back from JSON, and the others take their
        declared dtype. Without it, pandas infers every column's type and the text of the
        columns it reads as text is restored.

    Returns
    -------
    pandas.DataFrame
        Only empty fields are missing values (no "NA"/"null" guessing).

    Raises
    ------
    OSError
        When the file cannot be read.
    ValueError
        When a declared ``"object"`` cell is not JSON, or a cell does not fit its declared dtype.
    """
    import pandas as pd

    declared = dict(columns) if isinstance(columns, Mapping) else {
        c[0]: c[1] for c in (columns or ())}
    as_text = {name: object for name, dtype in declared.items() if dtype in ("string", "object")}
    frame = pd.read_csv(path, dtype=as_text, keep_default_na=False, na_values=[""],
                        encoding="utf-8")
    for name in frame.columns:
        dtype = declared.get(name)
        if frame[name].dtype == object:
            frame[name] = frame[name].map(
                lambda v: unescape_text(v) if isinstance(v, str) else v)
        if dtype == "object":
            frame[name] = frame[name].map(lambda v: json.loads(v) if isinstance(v, str) else v)
        elif dtype is not None:
            frame[name] = frame[name].astype(dtype)
    return frame
