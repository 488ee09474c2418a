"""JSON text that any Python string survives: what ToolForm writes to cassettes and tool files.

A model server can send a lone surrogate (``"\\ud800"`` in its JSON), and a body that is not
UTF-8 reaches ToolForm as lone surrogates too (PEP 383's ``surrogateescape``: byte ``0xFF``
becomes ``"\\udcff"``). ``json.dumps(..., ensure_ascii=False)`` keeps such characters raw, and
then no UTF-8 writer can write the text. :func:`dumps` keeps every other character as it is and
writes each lone surrogate as its ``\\uXXXX`` escape, so the text is valid UTF-8 and
``json.loads(dumps(x)) == x``.

One string JSON cannot hold: a high surrogate directly followed by a low one, as two code
points (``"\\ud83d" + "\\ude00"``), reads back as the one character the pair spells (``"😀"``);
UTF-16 and JSON do not tell the two apart. Neither a server's JSON nor ``surrogateescape``
decoding (which makes only ``U+DC80``–``U+DCFF``) produces such a string.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["dumps", "dumps_line"]

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def dumps(value: Any, **options: Any) -> str:
    """``json.dumps(value, ensure_ascii=False, **options)`` with lone surrogates escaped.

    Parameters
    ----------
    value : object
        Anything ``json.dumps`` takes.
    **options
        Passed to ``json.dumps`` (``indent``, ``sort_keys``, ``separators``, ``default``...);
        ``ensure_ascii`` is always False.

    Returns
    -------
    str
        Text that encodes to UTF-8 without error and parses back to ``value``.

    Raises
    ------
    TypeError, ValueError
        As ``json.dumps`` does (a value it cannot write, a circular reference).
    """
    text = json.dumps(value, ensure_ascii=False, **options)
    # a raw lone surrogate can only stand inside a string literal, where its escape means it
    return _LONE_SURROGATE.sub(_escape, text) if _LONE_SURROGATE.search(text) else text


def dumps_line(value: Any, **options: Any) -> bytes:
    """One JSON Lines record: :func:`dumps` encoded as UTF-8, with a final newline.

    Parameters
    ----------
    value : object
        The record.
    **options
        As for :func:`dumps` (without ``indent``: a record is one line).

    Returns
    -------
    bytes
        Valid UTF-8 ending in ``b"\\n"``, with no other newline (JSON escapes those in strings).
    """
    text = json.dumps(value, ensure_ascii=False, **options)
    try:
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: the rare path, searched only then
        return (_LONE_SURROGATE.sub(_escape, text) + "\n").encode("utf-8")
