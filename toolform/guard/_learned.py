"""TS111: a learned reading of how much a text reads like a planted instruction.

The phrasing rules (TS101-TS105, TS109) read instruction *forms*; blind batches written after
each revision showed them stuck near 82% recall, missing calm steering and phrasings no rule
had seen (``datasets/guard/README.md``). TS111 adds a second reader that has no rule at all: a
logistic regression over the words, word pairs and character 3- to 5-grams of a text, trained by
``datasets/guard/train_detector.py`` on the labelled set's and the blind files' injected texts
against their benign ones and every description, title, default and enum value of the captured
MCP servers (``datasets/mcp_servers``), the MCP reference catalogue, the BFCL function documents
and the generated toolset, the real texts a hand rule reads medium weighing more (item 27 of the
data card). Its weights, and the escalation thresholds of :mod:`toolform.guard._escalation`,
ship as ``datasets/guard/detector.json``.

The model is linear over feature counts, so a text's score is a sum of per-sentence terms, and
a sentence's of per-word terms, each cached: catalogues repeat sentences and words, and a scan
reads each distinct one once (see :class:`LearnedModel`). Nothing is run, fetched or decoded.
"""

from __future__ import annotations

import functools
import json
import math
import operator
import re
import unicodedata
from dataclasses import dataclass, field
from importlib import resources
from itertools import repeat
from pathlib import Path
from typing import Callable, Iterator, Mapping

from ..errors import DatasetError, InvalidParameterError
from ._rule import Hit, ScanContext
from ._sentences import _spans

_DEFAULT = "guard/detector.json"
_TOKEN = re.compile(r"\w+|[^\w\s]")
_CHAR_NGRAMS = (3, 4, 5)
#: Sentences, and words, whose terms a model keeps (each cache is emptied when full).
_MAX_CACHED = 65536
#: The fewest whitespace-separated words TS111 reads. On shorter texts a few features decide the
#: score: two real MCP descriptions of five and six words ("Execute JavaScript in the browser
#: console") scored above the threshold, while the rules already read short values (TS108).
MIN_WORDS = 7
#: The readings of a sentence's letters before its features are counted, by the name a model
#: file records (``normalisation``): ``lower``, :meth:`str.lower` (every model file written
#: before the field existed); ``nfkc-casefold``, NFKC then :meth:`str.casefold`, so that
#: fullwidth and styled letters, ligatures, ``ß`` and ``ſ`` count as their plain forms
#: (``datasets/guard/README.md``, items 36a and 38c).
LOWER = "lower"
NFKC_CASEFOLD = "nfkc-casefold"


def _nfkc_casefold(sentence: str) -> str:
    return unicodedata.normalize("NFKC", sentence).casefold()


_FOLDS: dict[str, Callable[[str], str]] = {LOWER: str.lower, NFKC_CASEFOLD: _nfkc_casefold}


def fold(sentence: str, normalisation: str = LOWER) -> str:
    """``sentence`` read as a model of this ``normalisation`` reads it (:data:`LOWER` or
    :data:`NFKC_CASEFOLD`), the one mapping used both when a model is fitted and when it scores.

    Raises
    ------
    KeyError
        When ``normalisation`` is neither.
    """
    return _FOLDS[normalisation](sentence)


#: Padded words shorter than this have their n-gram slices prebuilt (longer ones, rare, are
#: sliced per word: a long unbroken token would otherwise keep a slice object per character).
_SLICED = 48
#: ``_SLICES[m]``: the slices of the character 3-, 4- and 5-grams of a padded word of ``m``
#: characters, in :func:`_grams`' order.
_SLICES = tuple(tuple(slice(i, i + n) for n in _CHAR_NGRAMS for i in range(m - n + 1))
                for m in range(_SLICED))
#: ``_CUTTERS[m]``: one call cutting those grams out of a padded word of ``m`` characters, as
#: a tuple (one C call instead of one per gram); None below 5 characters, where there are
#: fewer than two grams and ``itemgetter`` would not return a tuple.
_CUTTERS = tuple(operator.itemgetter(*s) if len(s) > 1 else None for s in _SLICES)


def _grams(word: str) -> list[str]:
    """The character 3-, 4- and 5-grams of ``word`` padded with a space on each side."""
    padded = f" {word} "
    if len(padded) < _SLICED:
        return list(map(padded.__getitem__, _SLICES[len(padded)]))
    return [padded[i:i + n] for n in _CHAR_NGRAMS for i in range(len(padded) - n + 1)]


def _gram_terms(word: str, weight: Callable[[str, float], float]) -> tuple[float, int]:
    """The sum of the weights of :func:`_grams` of ``word``, in its order (the same float),
    and how many there are; ``weight`` looks a gram up (0.0 when the model does not know it)."""
    padded = f" {word} "
    cut = _CUTTERS[len(padded)] if len(padded) < _SLICED else None
    grams = cut(padded) if cut is not None else _grams(word)
    return sum(map(weight, grams, repeat(0.0))), len(grams)


@functools.lru_cache(maxsize=65536)
def word_ngrams(word: str) -> tuple[str, ...]:
    """The character 3-, 4- and 5-grams of one folded, whitespace-free word padded with a
    space on each side, as features (``c: al`` marks a word starting with "al"), repeats kept."""
    return tuple("c:" + g for g in _grams(word))


def _tokens(sentence: str, normalisation: str = LOWER) -> tuple[list[str], list[str]]:
    """The tokens (words and punctuation) and whitespace-separated words of the :func:`fold`
    of ``sentence``."""
    folded = fold(sentence, normalisation)
    return _TOKEN.findall(folded), folded.split()


def sentence_counts(sentence: str, normalisation: str = LOWER) -> dict[str, int]:
    """The feature counts of one sentence, read through :func:`fold`: ``w:<token>`` for every
    word or punctuation token, ``b:<token> <token>`` for every pair of neighbouring tokens, and
    the :func:`word_ngrams` of every whitespace-separated word."""
    tokens, words = _tokens(sentence, normalisation)
    counts: dict[str, int] = {}
    features = ["w:" + t for t in tokens]
    features += [f"b:{a} {b}" for a, b in zip(tokens, tokens[1:])]
    for word in words:
        features += word_ngrams(word)
    for f in features:
        counts[f] = counts.get(f, 0) + 1
    return counts


def sentence_texts(text: str) -> list[str]:
    """The sentences of ``text`` as the guard splits them (the whole text when it has none)."""
    return [text[start:end] for start, end in (_spans(text) or ((0, len(text)),))]


def text_counts(text: str, normalisation: str = LOWER) -> dict[str, int]:
    """The feature counts of ``text``, summed over its sentences (split before they are folded,
    as a model scores them; neighbouring tokens pair up only inside a sentence): the model's
    input before scaling."""
    counts: dict[str, int] = {}
    for sentence in sentence_texts(text):
        for f, n in sentence_counts(sentence, normalisation).items():
            counts[f] = counts.get(f, 0) + n
    return counts


@dataclass(frozen=True)
class LearnedModel:
    """The weights of TS111.

    A text's log-odds is ``bias + W / sqrt(N)``, where ``N`` is the number of feature
    occurrences in the text (see :func:`text_counts`) and ``W`` the sum of their weights
    (features the model does not know weigh 0). Both are sums over sentences, and inside a
    sentence over words, tokens and token pairs, so each word's and each sentence's share is
    computed once and cached. A sentence alone scores ``bias + W_s / sqrt(N_s)``.

    Parameters
    ----------
    bias : float
        The intercept (log-odds).
    weights : mapping of str to float
        Feature (as :func:`sentence_counts` spells it) to weight (log-odds per unit of the
        scaled feature). Weights too small to matter were dropped when the model was written.
    threshold : float
        The probability (a proportion, 0 to 1) at or above which TS111 reports a text (medium).
    trained_on : str
        What the model was trained on, in one line.
    escalate_at : float or None
        tau: the score (proportion) at or above which a hand rule's medium finding on the same
        text becomes high (:mod:`toolform.guard._escalation`); ``None``: never.
    alone_at : float or None
        tau2: the probability at or above which TS111's own finding is high; ``None``: never.
    normalisation : str
        How a sentence's letters are read before its features are counted (see :func:`fold`):
        the reading the model was fitted with, so that fit and scan cannot drift.

    Raises
    ------
    InvalidParameterError
        When ``normalisation`` is not one :func:`fold` knows (a ``ValueError``).
    """

    bias: float
    weights: Mapping[str, float]
    threshold: float
    trained_on: str = ""
    escalate_at: float | None = None
    alone_at: float | None = None
    normalisation: str = LOWER
    _terms: dict[str, tuple[float, int]] = field(default_factory=dict, init=False, repr=False,
                                                 compare=False)
    _words: dict[str, tuple[float, int]] = field(default_factory=dict, init=False, repr=False,
                                                 compare=False)
    # the token, token-pair and character n-gram weights keyed without their prefix (no
    # string built per token or n-gram)
    _token_weights: dict[str, float] = field(default_factory=dict, init=False, repr=False,
                                             compare=False)
    _gram_weights: dict[str, float] = field(default_factory=dict, init=False, repr=False,
                                            compare=False)
    _pair_weights: dict[tuple[str, str], float] = field(default_factory=dict, init=False,
                                                        repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.normalisation not in _FOLDS:
            raise InvalidParameterError(
                f"unknown normalisation {self.normalisation!r}; one of {sorted(_FOLDS)}",
                parameter="normalisation", allowed=", ".join(sorted(_FOLDS)),
                value=self.normalisation)
        for feature, weight in self.weights.items():
            if feature.startswith("w:"):
                self._token_weights[feature[2:]] = weight
            elif feature.startswith("c:"):
                self._gram_weights[feature[2:]] = weight
            elif feature.startswith("b:") and feature.count(" ") == 1:
                a, b = feature[2:].split(" ")
                self._pair_weights[(a, b)] = weight

    def sentence_terms(self, sentence: str) -> tuple[float, int]:
        """``(W_s, N_s)`` of one sentence, cached (catalogues repeat sentences), and the terms
        of its words cached (catalogues repeat words)."""
        terms = self._terms.get(sentence)
        if terms is not None:
            return terms
        tokens, folded_words = _tokens(sentence, self.normalisation)
        total = sum(map(self._token_weights.get, tokens, repeat(0.0)))
        total += sum(map(self._pair_weights.get, zip(tokens, tokens[1:]), repeat(0.0)))
        size = 2 * len(tokens) - 1 if tokens else 0
        words, gram_weight = self._words, self._gram_weights.get
        for word in folded_words:
            known = words.get(word)
            if known is None:
                # the weights of word_ngrams(word), looked up without the "c:" prefix and
                # summed in its order (the same float)
                known = _gram_terms(word, gram_weight)
                if len(words) >= _MAX_CACHED:
                    words.clear()
                words[word] = known
            total += known[0]
            size += known[1]
        terms = (total, size)
        if len(self._terms) >= _MAX_CACHED:
            self._terms.clear()
        self._terms[sentence] = terms
        return terms

    def _probability(self, total: float, size: int) -> float:
        z = self.bias + (total / math.sqrt(size) if size else 0.0)
        return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0

    def probability(self, text: str) -> float:
        """The probability (proportion) that ``text`` carries a planted instruction."""
        total, size = 0.0, 0
        cached, terms = self._terms.get, self.sentence_terms
        # the sentences of sentence_texts(text), each looked up in the cache before the call
        for start, end in _spans(text) or ((0, len(text)),):
            sentence = text[start:end]
            w, n = cached(sentence) or terms(sentence)
            total += w
            size += n
        return self._probability(total, size)

    def sentence_probability(self, sentence: str) -> float:
        """The probability (proportion) for one sentence read alone."""
        return self._probability(*self.sentence_terms(sentence))

    def clear_cache(self) -> None:
        """Forget the cached sentence and word terms."""
        self._terms.clear()
        self._words.clear()

    def to_dict(self) -> dict[str, object]:
        """The JSON form :func:`load_model` reads."""
        return {"toolform_guard_model": 1, "kind": "logistic-regression/sentence-ngrams",
                "trained_on": self.trained_on, "threshold": self.threshold,
                "escalate_at": self.escalate_at, "alone_at": self.alone_at,
                "normalisation": self.normalisation, "bias": self.bias,
                "weights": dict(sorted(self.weights.items()))}


def load_model(path: str | Path | None = None) -> LearnedModel:
    """Read TS111's weights.

    Parameters
    ----------
    path : path, optional
        A file written by ``datasets/guard/train_detector.py``; default: the packaged
        ``datasets/guard/detector.json``.

    Raises
    ------
    toolform.errors.DatasetError
        When the file is missing, is not JSON, lacks a field or names a normalisation
        :func:`fold` does not know (the file is named). A file without ``normalisation`` (one
        written before the field) is read lower-cased, as it was fitted.
    """
    source = (Path(path) if path is not None
              else Path(str(resources.files("toolform.datasets").joinpath(_DEFAULT))))
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DatasetError(f"guard model not found: {source}") from None
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{source}: not JSON ({exc.msg}, line {exc.lineno})") from None
    try:
        weights = {str(k): float(v) for k, v in data["weights"].items()}
        tau, tau2 = data.get("escalate_at"), data.get("alone_at")
        return LearnedModel(float(data["bias"]), weights, float(data["threshold"]),
                            str(data.get("trained_on", "")),
                            None if tau is None else float(tau),
                            None if tau2 is None else float(tau2),
                            str(data.get("normalisation", LOWER)))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DatasetError(f"{source}: not a guard model ({exc!r})") from None


@functools.lru_cache(maxsize=1)
def packaged_model() -> LearnedModel:
    """The packaged model, read once."""
    return load_model()


def instruction_probability(text: str, model: LearnedModel | None = None) -> float:
    """How likely TS111 finds it that ``text`` carries a planted instruction.

    Parameters
    ----------
    text : str
        Any text (a description, a title, a value).
    model : LearnedModel, optional
        Default: the packaged model (:func:`packaged_model`).

    Returns
    -------
    float
        A proportion, 0 to 1; TS111 flags a text of at least :data:`MIN_WORDS` words high at
        or above ``model.threshold``.

    Raises
    ------
    toolform.errors.DatasetError
        When the packaged model is asked for and cannot be read.
    """
    return (model or packaged_model()).probability(text)


def long_enough(text: str) -> bool:
    """Whether ``text`` has the :data:`MIN_WORDS` whitespace-separated words TS111 reads."""
    return len(text.split(None, MIN_WORDS - 1)) >= MIN_WORDS


def ts111(text: str, ctx: ScanContext) -> Iterator[Hit]:
    """TS111's matcher: one high hit over the sentence that reads most like an instruction,
    when the whole text scores at or above the threshold.

    It always scores with the packaged model (``ctx`` is not read: the field kind does not
    change the reading). Texts of fewer than :data:`MIN_WORDS` words (names, codes, most enum
    values) are left to the rules.
    """
    if not long_enough(text):
        return
    model = packaged_model()
    p = model.probability(text)
    if p < model.threshold:
        return
    spans = [(s, e) for s, e in (_spans(text) or ((0, len(text)),)) if text[s:e].strip()]
    own, start, end = max((model.sentence_probability(text[s:e]), s, e) for s, e in spans)
    # trailing whitespace stays with the text, as the phrase rules' spans do
    while end > start and text[end - 1].isspace():
        end -= 1
    # a learned signal alone is medium below the model's alone_at, high at or above it; its
    # score also makes a hand rule's medium finding high (toolform.guard._escalation, and
    # docs/guard.md)
    yield Hit(start, end, "medium", f"learned detector: p={p:.2f} for the text, {own:.2f} for "
                                  "this sentence")
