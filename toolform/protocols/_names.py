"""Tool names as written: which tool a name refers to (case, separators, nearest name)."""

from __future__ import annotations

import difflib
import functools
import itertools
import re
from collections import Counter

from ..ir import ToolIR, Toolset
from ._text import contains

__all__ = ["NAME_RATIO", "find_tool", "holds_a_name", "mentions_a_tool", "name_pieces",
           "names_a_tool", "resolve_name", "tool_finder"]

#: Smallest ``difflib`` similarity ratio at which an unknown tool name resolves to a tool.
NAME_RATIO = 0.85


_SEPARATORS = re.compile(r"[-_.\s]+")
_NOT_SEPARATOR = re.compile(r"[^-_.\s]")


def _sep_key(name: str) -> str:
    return _SEPARATORS.sub("", name).casefold()


@functools.lru_cache(maxsize=256)
def _name_keys(names: tuple[str, ...]) -> tuple[int, dict[str, list[str]], dict[str, list[str]],
                                                tuple[tuple[str, int, Counter[str]], ...]]:
    """Per toolset's names, what :func:`resolve_name` compares a name with: the longest
    name's length, the names by case-folded form and by separator key (each list in toolset
    order), and each name with its length and character counts (memoised: parsers resolve
    many words against the same few names). Shared: read them, never change them."""
    by_folded: dict[str, list[str]] = {}
    by_key: dict[str, list[str]] = {}
    for n in names:
        by_folded.setdefault(n.casefold(), []).append(n)
        by_key.setdefault(_sep_key(n), []).append(n)
    return (max(map(len, names), default=0), by_folded, by_key,
            tuple((n, len(n), Counter(n)) for n in names))


def resolve_name(name: str, toolset: Toolset, *, nearest: bool = True
                 ) -> tuple[str, str | None]:
    """The tool a written name refers to, and how it was found.

    Tried in order, each accepted only when exactly one tool fits: the exact name; the same
    name ignoring case (``"case"``); the same name ignoring case and the separators ``-``,
    ``_``, ``.`` and white space (``"separator"``); the most similar name with a ``difflib``
    ratio of at least :data:`NAME_RATIO` (``"nearest"``, ties go to the earlier tool).

    Parameters
    ----------
    name : str
        The name as written.
    toolset : Toolset
        The tools on offer.
    nearest : bool
        Whether to try the nearest-name step.

    Returns
    -------
    tuple of (str, str or None)
        The tool's name and how it was found (``None`` for an exact name); the name as written
        and ``None`` when nothing fits.
    """
    if name in toolset:
        return name, None
    names = toolset._names  # the toolset's own tuple: no copy per call, one shared by cache entries
    if type(name) is str and len(name) <= _REMEMBERED_CHARS:
        return _remembered(name, names, nearest)
    return _resolve(name, names, nearest)


#: Longest name whose resolution is remembered (longer ones are rare, and would be kept alive).
_REMEMBERED_CHARS = 256


def _resolve(name: str, names: tuple[str, ...], nearest: bool) -> tuple[str, str | None]:
    """:func:`resolve_name` past its exact step: a function of the name and the tool names
    alone (``name in toolset`` is ``name in names``), so it can be remembered."""
    longest, by_folded, by_key, entries = _name_keys(names)
    # case folding makes a name at most three times longer, so a name with more characters
    # than three times the longest tool's, separators aside, fits no step (the nearest one
    # needs lengths within a factor of 1.35); a long word is refused without a pass over it
    bound = 3 * longest
    if len(name) > bound and next(itertools.islice(_NOT_SEPARATOR.finditer(name), bound, None),
                                  None) is not None:
        return name, None
    folded = by_folded.get(name.casefold(), ())
    if len(folded) == 1:
        return folded[0], "case"
    loose = by_key.get(_sep_key(name), ())
    if len(loose) == 1:
        return loose[0], "separator"
    if nearest and names:
        best, best_ratio = None, NAME_RATIO
        size = len(name)
        name_counts: Counter[str] | None = None  # counted once a name passes the length bound
        for n, n_size, n_counts in entries:
            # a ratio is at most 2 * min(lengths) / (sum of lengths)
            shorter, length = (n_size if n_size < size else size), n_size + size
            if 2 * shorter < NAME_RATIO * length or 2.0 * shorter / length < best_ratio:
                continue
            # difflib's quick_ratio bound, computed without building a SequenceMatcher (most
            # names fail it; building one costs more than the bound)
            if name_counts is None:
                name_counts = Counter(name)
            get, common = n_counts.get, 0
            for ch, c in name_counts.items():
                have = get(ch, 0)
                common += c if c < have else have
            if 2.0 * common / length < best_ratio:
                continue
            r = difflib.SequenceMatcher(None, name, n, autojunk=False).ratio()
            if r > best_ratio or (best is None and r >= best_ratio):
                best, best_ratio = n, r
        if best is not None:
            return best, "nearest"
    return name, None


# the lenient readers of one reply look up the same words (and replies the same prose words)
_remembered = functools.lru_cache(maxsize=4096)(_resolve)


def find_tool(name: str, toolset: Toolset) -> ToolIR | None:
    """The tool ``name`` resolves to by any step of :func:`resolve_name`, or None."""
    resolved, _ = resolve_name(name, toolset)
    return toolset.get(resolved)


def tool_finder(toolset: Toolset):  # noqa: ANN201 - returns a closure
    """:func:`find_tool` remembered per name, for one reply that names many words.

    Parameters
    ----------
    toolset : Toolset
        The tools on offer.

    Returns
    -------
    callable
        ``find(name) -> ToolIR | None``.
    """
    memo: dict[str, ToolIR | None] = {}

    def find(name: str) -> ToolIR | None:
        if name not in memo:
            memo[name] = find_tool(name, toolset)
        return memo[name]

    return find


_PIECE = re.compile(r"[^\W_]+")


@functools.lru_cache(maxsize=256)
def name_pieces(names: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Per tool name, its lower-case pieces between separators (``get_weather`` → ``get``,
    ``weather``)."""
    return tuple(tuple(p.lower() for p in _PIECE.findall(n)) or (n.lower(),) for n in names)


@functools.lru_cache(maxsize=8)
def _no_letters(low: str) -> bool:
    """Whether ``low`` holds no cased letter (then it names no tool): two C passes, once per
    text (memoised: upper-casing a megabyte that is not ASCII takes about 15 ms)."""
    return low == low.upper()


@functools.lru_cache(maxsize=8)
def mentions_a_tool(low: str, names: tuple[str, ...]) -> bool:
    """Whether the lower-cased text ``low`` holds some piece of a tool's name (``get`` or
    ``weather`` for ``get_weather``): a fast test (memoised; longest pieces first, so most
    searches skip ahead) that a reader whose calls start with a tool's name runs before
    reading line by line. A name written up to case and separators passes, and so does a
    misspelled one that keeps a piece intact."""
    if _no_letters(low):
        return False
    pieces = sorted({p for ps in name_pieces(names) for p in ps}, key=len, reverse=True)
    return any(contains(low, p) for p in pieces)


@functools.lru_cache(maxsize=8)
def names_a_tool(low: str, names: tuple[str, ...]) -> bool:
    """Whether ``low`` holds every piece of some tool's name (so the name may be there up to
    case and separators; memoised)."""
    if _no_letters(low):
        return False
    return any(all(contains(low, p) for p in sorted(ps, key=len, reverse=True))
               for ps in name_pieces(names))


@functools.lru_cache(maxsize=8)
def holds_a_name(low: str, names: tuple[str, ...]) -> bool:
    """Whether ``low`` holds some tool's whole name, lower-cased (memoised)."""
    if _no_letters(low):
        return False
    return any(contains(low, n.lower()) for n in names)
