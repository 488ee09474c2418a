"""Which of the study's rows a model id reads: its own checkpoint, an anchor model, a family.

The study measured three kinds of model on its main grid (8 tools, tier 3): the open
checkpoints, each with a row of its own (evidence table ``checkpoint_accuracy``); a few anchor
models, some at several reasoning-effort levels (``anchor_accuracy``); and the open families, each
row the mean of its checkpoints (``family_accuracy``). Its model zoo maps ids to families
(``zoo_models``, ``zoo_patterns``, ``zoo_families``).

:func:`resolve_model` follows the study's order, first match wins:

1. an explicit ``family`` (a zoo family key; ``qwen3-quant`` reads ``qwen3``, the zoo's alias);
2. an anchor model: the anchor's name with its effort level ("GLM-5.3 (high)"), compared in
   lower-case letters and digits, found anywhere in the id (the longest such name wins); else
   an id equal to an anchor's name without its effort, which reads the effort the study
   prefers (``medium``, then ``none``, then the row without an effort, then ``low``, ``high``);
3. a main-grid checkpoint, by its exact id (case ignored);
4. an exact id of the zoo, which names its family;
5. the zoo's id patterns, in priority order; a Qwen 3.5 id of 100 billion parameters or more
   reads the separate ``qwen3.5-large`` family (the study's two 122B checkpoints);
6. nothing: the advisor then reads the pooled tables.

The size in billions comes from ``params_b`` when given, else the zoo, else the largest
``<number>b`` in the id.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

from .errors import InvalidParameterError
from .evidence import load_evidence

__all__ = [
    "EFFORT_PREFERENCE",
    "MATCHED_BY",
    "ModelResolution",
    "QWEN35_LARGE_MIN_B",
    "anchor_label",
    "parse_params_b",
    "resolve_model",
]

#: How a resolution was made, in the order tried.
MATCHED_BY = ("family", "anchor", "checkpoint", "zoo", "pattern", "none")

#: With no effort in the id, the anchor row read, most preferred first (None: a row with no
#: effort level).
EFFORT_PREFERENCE: tuple[str | None, ...] = ("medium", "none", None, "low", "high")

#: A Qwen 3.5 model this size or larger (billions of parameters) reads the ``qwen3.5-large``
#: family; the study's largest ordinary Qwen 3.5 checkpoint has 35B, its large rows 122B.
QWEN35_LARGE_MIN_B = 100.0
_QWEN35, _QWEN35_LARGE = "qwen3.5", "qwen3.5-large"

_SIZE = re.compile(r"(\d+(?:\.\d+)?)b(?![a-z0-9])")


@dataclass(frozen=True)
class ModelResolution:
    """What the study knows about a model id.

    Attributes
    ----------
    query : str or None
        The id asked about.
    matched_by : str
        One of :data:`MATCHED_BY`.
    family : str or None
        The zoo family key (after the zoo's aliases).
    family_label : str or None
        The family's table label ("Qwen 3"), when the study names it.
    anchor : str or None
        The anchor row's label, effort included ("Claude Opus 5.5 (medium)").
    checkpoint : str or None
        The main-grid checkpoint id, as the study spells it.
    params_b : float or None
        Size in billions of parameters.
    kind : str or None
        The zoo's kind (``instruct``, ``base``, ...), for a listed id.
    context_tokens : int or None
        The zoo's context window for a listed id, in tokens.
    """

    query: str | None
    matched_by: str
    family: str | None = None
    family_label: str | None = None
    anchor: str | None = None
    checkpoint: str | None = None
    params_b: float | None = None
    kind: str | None = None
    context_tokens: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The fields as a JSON-ready dict."""
        return dict(vars(self))


def anchor_label(anchor: str, effort: str | None) -> str:
    """An anchor row's label: its name, with the effort level in parentheses when it has one."""
    return f"{anchor} ({effort})" if effort else anchor


def parse_params_b(model_id: str) -> float | None:
    """The largest ``<number>b`` in a model id, in billions (``Qwen3.5-122B-A10B`` gives 122)."""
    sizes = [float(m.group(1)) for m in _SIZE.finditer(model_id.lower())]
    return max(sizes) if sizes else None


def _fold(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


@dataclass(frozen=True)
class _Zoo:
    models: Mapping[str, Mapping[str, Any]]
    patterns: tuple[tuple[re.Pattern[str], str], ...]
    aliases: Mapping[str, str]
    labels: Mapping[str, str | None]
    anchors: tuple[tuple[str, str, str | None], ...]  # (label, name, effort)
    checkpoints: Mapping[str, tuple[str, str]]  # lower-cased id -> (id, family)


@functools.lru_cache(maxsize=1)
def _zoo() -> _Zoo:
    anchors = {}
    for r in load_evidence("anchor_accuracy").rows:
        anchors.setdefault(anchor_label(r["anchor"], r["effort"]), (r["anchor"], r["effort"]))
    labels = {r["family"]: r["family_label"] for r in load_evidence("zoo_families").rows}
    for r in load_evidence("family_accuracy").rows:
        labels[r["family"]] = r["family_label"]
    return _Zoo(
        models=MappingProxyType({r["model_id"].lower(): r
                                 for r in load_evidence("zoo_models").rows}),
        patterns=tuple((re.compile(r["pattern"], re.IGNORECASE), r["family"])
                       for r in sorted(load_evidence("zoo_patterns").rows,
                                       key=lambda r: r["priority"])),
        aliases=MappingProxyType({r["family"]: r["alias_of"]
                                  for r in load_evidence("zoo_families").rows if r["alias_of"]}),
        labels=MappingProxyType(labels),
        anchors=tuple((label, name, effort) for label, (name, effort) in anchors.items()),
        checkpoints=MappingProxyType({r["checkpoint_id"].lower(): (r["checkpoint_id"], r["family"])
                                      for r in load_evidence("checkpoint_accuracy").rows}),
    )


def _match_anchor(zoo: _Zoo, model: str) -> str | None:
    folded = _fold(model)
    if not folded:
        return None
    inside = [label for label, _, _ in zoo.anchors if _fold(label) and _fold(label) in folded]
    if inside:
        return max(inside, key=lambda label: len(_fold(label)))
    same_name = [(label, effort) for label, name, effort in zoo.anchors if _fold(name) == folded]
    if not same_name:
        return None

    def preference(item: tuple[str, str | None]) -> int:
        effort = item[1]
        return (EFFORT_PREFERENCE.index(effort) if effort in EFFORT_PREFERENCE
                else len(EFFORT_PREFERENCE))

    return min(same_name, key=preference)[0]


def _pattern_family(zoo: _Zoo, model: str, params_b: float | None) -> str | None:
    for pattern, family in zoo.patterns:
        if pattern.search(model):
            if family == _QWEN35 and params_b is not None and params_b >= QWEN35_LARGE_MIN_B:
                return _QWEN35_LARGE
            return family
    return None


def resolve_model(model: str | None = None, *, family: str | None = None,
                  params_b: float | None = None) -> ModelResolution:
    """Match a model id (or a family key) to the study's rows, in the study's order.

    Parameters
    ----------
    model : str, optional
        A model id ("Qwen/Qwen3-8B", "claude-opus-5-5-low", "acme/llama-3-70b").
    family : str, optional
        A zoo family key; when given it wins over the id.
    params_b : float, optional
        Size in billions when the zoo does not list the id.

    Returns
    -------
    ModelResolution
        ``matched_by="none"`` when nothing matched.

    Raises
    ------
    ValueError
        When ``family`` is not a zoo family key (the message lists them).
    """
    zoo = _zoo()
    entry = zoo.models.get(model.lower()) if model else None
    size = params_b
    if size is None and entry is not None:
        size = entry["params_b"]
    if size is None and model:
        size = parse_params_b(model)
    listed = dict(kind=entry["kind"], context_tokens=entry["context_tokens"]) if entry else {}

    def found(matched_by: str, fam: str | None = None, **more: Any) -> ModelResolution:
        return ModelResolution(query=model, matched_by=matched_by, family=fam,
                               family_label=zoo.labels.get(fam) if fam else None,
                               params_b=size, **more)

    if family is not None:
        if family not in zoo.labels:
            raise InvalidParameterError(f"family must be one of the zoo's families "
                                        f"{sorted(zoo.labels)}, got {family!r}")
        return found("family", zoo.aliases.get(family, family), **listed)
    if model:
        anchor = _match_anchor(zoo, model)
        if anchor is not None:
            return found("anchor", anchor=anchor, **listed)
        checkpoint = zoo.checkpoints.get(model.lower())
        if checkpoint is not None:
            return found("checkpoint", checkpoint[1], checkpoint=checkpoint[0], **listed)
        if entry is not None:
            fam = entry["family"]
            return found("zoo", zoo.aliases.get(fam, fam) if fam else None, **listed)
        fam = _pattern_family(zoo, model, size)
        if fam is not None:
            return found("pattern", fam)
    return found("none")
