"""Catalogue hygiene: lint a catalogue before a model sees it, and prune it from a call log.

``lint_catalogue`` flags what makes tools hard to tell apart or to route: near-duplicate pairs
(cosine similarity of their texts), names that are not unique on their first 8 characters,
descriptions that never say when *not* to use the tool, and — given the tools a user may call —
the tools a permission filter must remove *before* retrieval ranks anything (a retriever should
never spend a slot on a tool the caller cannot use).

``prune_report`` reads a call log and flags tools under 2% of calls that are not
safety-critical, pairs called within two turns of each other in over 40% of their calls (merge
candidates), and parameters that always took the same value (hard-code or drop them).
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from typing import Any, Iterable, Sequence

import numpy as np
import pandas as pd

from ..errors import InvalidParameterError
from ..ir import Toolset
from ._retrieve import embed_texts, tokenize, tool_text

__all__ = ["LINT_COLUMNS", "PRUNE_COLUMNS", "filter_permitted", "lint_catalogue",
           "prune_report"]

#: Declared columns of :func:`lint_catalogue`: (name, dtype, unit, meaning).
LINT_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("rule", "string", "", "near_duplicate, name_prefix, no_when_not_to_use or not_permitted"),
    ("tool", "string", "", "the tool flagged"),
    ("other", "string", "", "the other tool(s) involved, comma-separated, else empty"),
    ("score", "float64", "proportion", "similarity of the pair (near_duplicate), else NaN"),
    ("detail", "string", "", "what is wrong and what to do"),
)

#: Declared columns of :func:`prune_report`: (name, dtype, unit, meaning).
PRUNE_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("finding", "string", "", "rarely_used, called_together or constant_parameter"),
    ("tool", "string", "", "the tool flagged"),
    ("other", "string", "", "the tool it is called with (called_together), else empty"),
    ("parameter", "string", "", "the parameter (constant_parameter), else empty"),
    ("value", "string", "", "the value it always took, as JSON (constant_parameter)"),
    ("calls", "int64", "calls", "calls of the tool (of the pair, for called_together)"),
    ("share", "float64", "percent", "share of all calls (rarely_used); of the pair's calls "
                                    "made within the window of each other (called_together)"),
    ("detail", "string", "", "what to do"),
)

_WHEN_NOT = re.compile(
    r"\b(do not|don't|never|avoid|not for|not meant|not intended|should not|shouldn't|"
    r"instead|rather than|unless|only (?:use|for|when|if))\b", re.IGNORECASE)
_PREFIX = 8


def _frame(rows: list[dict[str, Any]], columns: Sequence[tuple[str, str, str, str]]
           ) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=[c[0] for c in columns])
    return frame.astype({c[0]: c[1] for c in columns})


def filter_permitted(toolset: Toolset, allowed: Iterable[str]) -> Toolset:
    """The tools of ``toolset`` the caller may use, in catalogue order: filter before retrieval.

    Parameters
    ----------
    toolset : Toolset
    allowed : iterable of str
        Tool names the caller is permitted to call.

    Returns
    -------
    Toolset

    Raises
    ------
    ValueError
        When ``allowed`` names a tool the catalogue does not have (a stale permission list).
    """
    allowed = set(allowed)
    unknown = sorted(allowed - set(toolset.names))
    if unknown:
        raise InvalidParameterError(f"allowed names tools the catalogue does not have: {unknown}")
    return toolset.subset([n for n in toolset.names if n in allowed])


def _tfidf(texts: list[str]) -> np.ndarray:
    docs = [Counter(tokenize(t)) for t in texts]
    vocab = {w: i for i, w in enumerate(sorted({w for d in docs for w in d}))}
    df = np.zeros(len(vocab))
    for d in docs:
        for w in d:
            df[vocab[w]] += 1
    idf = np.log((1 + len(docs)) / (1 + df)) + 1
    matrix = np.zeros((len(docs), len(vocab)))
    for i, d in enumerate(docs):
        for w, tf in d.items():
            matrix[i, vocab[w]] = tf * idf[vocab[w]]
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.where(norms == 0, 1, norms)


def lint_catalogue(toolset: Toolset, *, similarity: float = 0.8, method: str = "tfidf",
                   allowed: Iterable[str] | None = None) -> pd.DataFrame:
    """Flag what makes a catalogue hard to route.

    Parameters
    ----------
    toolset : Toolset
    similarity : float, default 0.8
        Cosine similarity (0 to 1) from which two tools' texts count as near duplicates.
    method : {"tfidf", "embed"}, default "tfidf"
        How tool texts (name, description, parameters) become vectors: TF-IDF over the
        retriever's terms, or the all-MiniLM-L6-v2 embeddings (needs ``toolform[embed]``).
    allowed : iterable of str, optional
        The tools the caller may use; every other tool is flagged ``not_permitted`` (remove it
        with :func:`filter_permitted` before retrieval).

    Returns
    -------
    pandas.DataFrame
        One row per finding, columns :data:`LINT_COLUMNS`: near-duplicate pairs (most similar
        first), then names sharing their first 8 characters, descriptions with no
        when-not-to-use sentence, and tools not permitted.

    Raises
    ------
    ValueError
        On an unknown method, a similarity outside (0, 1], or ``allowed`` naming unknown tools.
    MissingDependencyError
        For ``"embed"`` without its packages.
    """
    if method not in ("tfidf", "embed"):
        raise InvalidParameterError(f"method must be 'tfidf' or 'embed', got {method!r}")
    if not 0 < similarity <= 1:
        raise InvalidParameterError(f"similarity must be in (0, 1], got {similarity!r}")
    names = toolset.names
    rows: list[dict[str, Any]] = []
    if len(names) > 1:
        texts = [tool_text(t) for t in toolset]
        vectors = embed_texts(texts) if method == "embed" else _tfidf(texts)
        sims = vectors @ vectors.T
        i, j = np.triu_indices(len(names), k=1)
        close = sims[i, j] >= similarity
        for a, b, s in sorted(zip(i[close], j[close], sims[i, j][close]), key=lambda x: -x[2]):
            rows.append({"rule": "near_duplicate", "tool": names[a], "other": names[b],
                         "score": float(min(s, 1.0)),
                         "detail": "the two read alike: merge them, or say in each description "
                                   "when to use it rather than the other"})
    prefixes: dict[str, list[str]] = defaultdict(list)
    for name in names:
        prefixes[name[:_PREFIX].lower()].append(name)
    for prefix, group in prefixes.items():
        if len(group) > 1:
            for name in group:
                rows.append({"rule": "name_prefix", "tool": name,
                             "other": ", ".join(n for n in group if n != name), "score": np.nan,
                             "detail": f"shares its first {_PREFIX} characters ({prefix!r}) with "
                                       "other tools; make names differ early"})
    for tool in toolset:
        if not _WHEN_NOT.search(tool.description):
            rows.append({"rule": "no_when_not_to_use", "tool": tool.name, "other": "",
                         "score": np.nan,
                         "detail": "the description never says when not to use the tool; add "
                                   "a sentence naming the cases and the tool to use instead"})
    if allowed is not None:
        permitted = set(filter_permitted(toolset, allowed).names)
        for name in names:
            if name not in permitted:
                rows.append({"rule": "not_permitted", "tool": name, "other": "",
                             "score": np.nan,
                             "detail": "the caller may not use it: filter it out before "
                                       "retrieval"})
    return _frame(rows, LINT_COLUMNS)


_LOG_COLUMNS = ("session", "turn", "tool")


def _log_frame(call_log: Any) -> pd.DataFrame:
    frame = call_log.copy() if isinstance(call_log, pd.DataFrame) else pd.DataFrame(list(call_log))
    missing = [c for c in _LOG_COLUMNS if c not in frame.columns]
    if missing:
        raise InvalidParameterError(f"call_log needs columns {list(_LOG_COLUMNS)} (and optionally "
                                    f"'arguments'); missing {missing}")
    if "arguments" not in frame.columns:
        frame["arguments"] = [{} for _ in range(len(frame))]
    return frame


def prune_report(call_log: Any, *, toolset: Toolset | None = None,
                 safety_critical: Sequence[str] = (), min_share: float = 0.02,
                 pair_share: float = 0.40, window: int = 2, min_calls: int = 3) -> pd.DataFrame:
    """What a call log says could be pruned or merged.

    Parameters
    ----------
    call_log : pandas.DataFrame or iterable of dict
        One row per call: ``session`` (a conversation id), ``turn`` (an integer), ``tool`` and
        optionally ``arguments`` (a dict).
    toolset : Toolset, optional
        The catalogue; its tools never called are reported as rarely used (0%).
    safety_critical : sequence of str
        Tools kept however rarely they are called (an emergency stop, a revoke-access tool).
    min_share : float, default 0.02
        A tool under this proportion of all calls is ``rarely_used``.
    pair_share : float, default 0.40
        Two tools whose calls fall within ``window`` turns of a call of the other (same
        session) in over this proportion of their calls are ``called_together``.
    window : int, default 2
        Turns apart that still count as together.
    min_calls : int, default 3
        Calls a tool needs before a parameter that never changed is ``constant_parameter``.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`PRUNE_COLUMNS`; shares in percent.

    Raises
    ------
    ValueError
        When the log lacks ``session``, ``turn`` or ``tool``.
    """
    log = _log_frame(call_log)
    total = len(log)
    counts = Counter(log["tool"])
    rows: list[dict[str, Any]] = []
    tools = list(counts)
    if toolset is not None:
        tools += [n for n in toolset.names if n not in counts]
    keep = set(safety_critical)
    for tool in tools:
        share = counts.get(tool, 0) / total if total else 0.0
        if share < min_share and tool not in keep:
            rows.append({"finding": "rarely_used", "tool": tool, "other": "", "parameter": "",
                         "value": "", "calls": counts.get(tool, 0), "share": 100 * share,
                         "detail": f"under {100 * min_share:g}% of calls and not safety-critical: "
                                   "a candidate to drop from the catalogue"})
    together: Counter[tuple[str, str]] = Counter()
    for _, session in log.groupby("session", sort=False):
        calls = list(zip(session["turn"], session["tool"]))
        for idx, (turn, tool) in enumerate(calls):
            partners = {t for j, (u, t) in enumerate(calls)
                        if j != idx and t != tool and abs(u - turn) <= window}
            for other in partners:
                together[(tool, other)] += 1
    pairs = {tuple(sorted(p)) for p in together}
    for a, b in sorted(pairs):
        both = counts[a] + counts[b]
        share = (together[(a, b)] + together[(b, a)]) / both
        if share > pair_share:
            rows.append({"finding": "called_together", "tool": a, "other": b, "parameter": "",
                         "value": "", "calls": both, "share": 100 * share,
                         "detail": f"called within {window} turns of each other in "
                                   f"{100 * share:.0f}% of their calls: consider merging them"})
    for tool, group in log.groupby("tool", sort=False):
        if len(group) < min_calls:
            continue
        arguments = [a if isinstance(a, dict) else {} for a in group["arguments"]]
        shared = set(arguments[0]).intersection(*arguments[1:])
        for param in sorted(shared):
            values = {json.dumps(a[param], sort_keys=True, default=str) for a in arguments}
            if len(values) == 1:
                rows.append({"finding": "constant_parameter", "tool": tool, "other": "",
                             "parameter": param, "value": values.pop(), "calls": len(group),
                             "share": 100.0,
                             "detail": "always took the same value: give it that default or "
                                       "drop it"})
    return _frame(rows, PRUNE_COLUMNS)
