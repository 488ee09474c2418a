"""Train TS111, the guard's learned detector, choose its escalation thresholds, and write
``datasets/guard/detector.json``.

    pip install -e ".[dev]"                              # scikit-learn is a dev dependency
    python datasets/guard/train_detector.py validate     # fit on T, print V's table, choose
    python datasets/guard/train_detector.py test         # the chosen settings, scored on X once
    python datasets/guard/train_detector.py train        # the packaged model: T36 and V36
    python datasets/guard/train_detector.py writers      # item 36a: more writers, V's table

The design was fixed before any fit (``datasets/guard/README.md``, item 27):

- **T** (training): positives are the injected rows of every split of the labelled set but
  ``holdout9`` and of ``blind/confusables8.jsonl``, ``blind/confusables9.jsonl``; negatives their
  benign rows (written ones weigh :data:`WRITTEN_WEIGHT` texts each), every distinct description,
  title, default and enum value of the MCP reference catalogue (``datasets/mcp``), the BFCL
  function documents and the generated toolset, and of **every development server** of
  ``datasets/mcp_servers`` (batches 1-7).
- **V** (validation): ``holdout9``, ``blind/blind12.jsonl``, ``blind/blind13.jsonl`` and the
  held-out servers of batches 1-4.
- **X** (test, scored once): ``blind/blind14.jsonl``, ``blind/blind15.jsonl``,
  ``blind/confusables10.jsonl`` and the held-out servers of batches 5-7.

No text injected anywhere is a negative, and while V and X are held out none of their texts is
trained on. Features are those of ``toolform.guard._learned`` (counts summed over sentences); the
model is scikit-learn's L2-regularised logistic regression (liblinear, classes weighted to
balance), whose weights are written for the guard to score with in pure Python.

Real texts in which a hand rule finds a medium finding (the only texts escalation asks TS111
about) are *hard negatives* and weigh :data:`HARD_WEIGHT` texts each.

``validate`` fits one model per C of :data:`C_GRID` and hard weight of :data:`HARD_GRID` on T
and, for every threshold pair of :data:`TAU_GRID` x :data:`TAU2_GRID` (the escalation policy of
``toolform.guard._escalation``), counts on V the plants, benign rows and server fields flagged
high; it chooses by the rule of :func:`choose` and prints the shipped settings' row beside it.
``test`` fits the shipped settings (:data:`C`, :data:`HARD_WEIGHT`, :data:`TAU`, :data:`TAU2`)
on T and prints X's figures. ``train`` fits them on item 36a's training and validation parts
together (:data:`WRITERS_TRAIN` and :data:`WRITERS_VALIDATION`), the design of item 36a for the
setting it chose (item 38c of the data card).

``writers`` is item 36a's design (TS111 across writers): it fits the models of
:data:`WRITERS_MODELS` on :data:`WRITERS_TRAIN` (many more writers' plants, the servers of
batches 1-12's development halves and 1-9's held-out halves) and prints, for every threshold
pair of :data:`WRITERS_TAU_GRID` x :data:`WRITERS_TAU2_GRID`, the counts on
:data:`WRITERS_VALIDATION` (``blind20``-``blind25``, ``confusables14``-``confusables19``, the
held-out servers of batches 10-12), then the setting :func:`choose_writers` picks.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import json
import math
import sys
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np
from scipy.sparse import csr_matrix
from sklearn.linear_model import LogisticRegression

from toolform.errors import LoaderError
from toolform.generator import generated_toolset
from toolform.guard import GUARD_RULES, SPLITS, LabelledText, labelled_toolset, load_labelled_set
from toolform.guard._fields import iter_fields
from toolform.guard._learned import LOWER, NFKC_CASEFOLD, LearnedModel, long_enough, text_counts
from toolform.guard._scan import scan_toolset
from toolform.io import load_tools
from toolform.ir import Toolset

HERE = Path(__file__).resolve().parent
DATASETS = HERE.parent
BLIND = HERE / "blind"
MODEL_PATH = HERE / "detector.json"


def _script(path: Path):
    """The module of a script beside the datasets (``score_blind.py``, ``evaluate.py``)."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_score_blind = _script(HERE / "score_blind.py")
_servers = _script(DATASETS / "mcp_servers" / "evaluate.py")

#: TS111 reports a text (medium) at or above this probability (unchanged since the first model).
THRESHOLD = 0.8
#: The shipped settings: C, the weight of a hard negative (:attr:`TrainingData.hard`), tau and
#: tau2 (``toolform.guard._escalation``). They were chosen on V from a grid that had C = 4 with
#: hard weight 1 only; the test set was then scored once with them. The full grid, run after
#: that, makes :func:`choose` pick C = 4, hard weight 30, tau = 0.999, tau2 = 0.99 (5 more V
#: plants high, one V server fewer passing); the shipped settings were not switched, since that
#: would have needed a second look at the test set (item 27 of the data card). Run again with
#: the seventeenth revision's hand rules (item 30), the grid picks C = 16, hard weight 30,
#: tau = 0.999, tau2 = 0.995 (131 of 180 V plants high against 123, one V server fewer
#: passing); ``test`` then gave 67 of 74 X servers passing against 72 with tau2 unset (4 more
#: X plants high), so tau2 stays unset and the model was not retrained.
#: Item 36a's design, fixed before its fit, picked C = 64, hard weight 30, NFKC+casefold text,
#: tau = 0.999, tau2 = 0.999 on T36/V36 (201 of 360 V plants against 191, the same V servers
#: passing); by that design the winner is shipped, fitted on T36 + V36 (item 38c).
C = 64.0
HARD_WEIGHT = 30.0
TAU = 0.999
TAU2: float | None = 0.999
#: How the shipped model reads a sentence's letters (``toolform.guard._learned.fold``).
NORMALISATION = NFKC_CASEFOLD
C_GRID = (4.0, 16.0, 64.0)
HARD_GRID = (1.0, 10.0, 30.0)
TAU_GRID = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995,
            0.999)
TAU2_GRID: tuple[float | None, ...] = (0.9, 0.95, 0.97, 0.98, 0.99, 0.995, None)
MIN_DOCUMENT_FREQUENCY = 2
#: How many broad negatives one written benign twin weighs.
WRITTEN_WEIGHT = 10.0
#: Weights smaller than this (in absolute value) are dropped from the written model: a feature
#: weighs its weight over the square root of a text's feature count (a few hundred).
MIN_WEIGHT = 0.05
_KINDS = ("tool.title", "tool.description", "param.title", "param.description", "param.default",
          "param.enum")
_HAND = tuple(r.id for r in GUARD_RULES if r.id != "TS111")


@dataclasses.dataclass(frozen=True)
class Part:
    """One part of the design: labelled rows (splits of the labelled set and blind files) and
    captured servers (a split of ``datasets/mcp_servers`` and its batches)."""

    name: str
    splits: tuple[str, ...] = ()
    blind: tuple[str, ...] = ()
    server_split: str | None = None
    batches: tuple[int, ...] = ()
    #: further servers: (split, batches) pairs read after those of ``server_split``
    more_servers: tuple[tuple[str, tuple[int, ...]], ...] = ()

    def rows(self) -> list[LabelledText]:
        """The part's labelled rows: its splits', then its blind files' (split: the file)."""
        out = list(load_labelled_set(splits=self.splits)) if self.splits else []
        for name in self.blind:
            out += _score_blind.read_batch(BLIND / f"{name}.jsonl", name)
        return out

    def servers(self) -> list[tuple[str, Toolset | None]]:
        """(server name, toolset or ``None`` when the loader cannot read the capture)."""
        out: list[tuple[str, Toolset | None]] = []
        groups = ((self.server_split, self.batches),) + self.more_servers
        for split, batches in groups:
            for batch in batches:
                for server, path in _servers.captures(split, batch):
                    try:
                        out.append((server["name"], load_tools(path)))
                    except LoaderError:  # `toolform guard` exits 2 on it: it does not pass
                        out.append((server["name"], None))
        return out


TRAIN = Part("T", tuple(s for s in SPLITS if s != "holdout9"), ("confusables8", "confusables9"),
             "dev", (1, 2, 3, 4, 5, 6, 7))
VALIDATION = Part("V", ("holdout9",), ("blind12", "blind13"), "heldout", (1, 2, 3, 4))
TEST = Part("X", (), ("blind14", "blind15", "confusables10"), "heldout", (5, 6, 7))
#: Item 36a's training part: every labelled split, ten writers' blind files and six
#: confusables files; the development servers of batches 1-12 and the held-out ones of 1-9.
WRITERS_TRAIN = Part(
    "T36", SPLITS, tuple(f"blind{n}" for n in range(10, 20))
    + tuple(f"confusables{n}" for n in range(8, 14)), "dev", tuple(range(1, 13)),
    (("heldout", tuple(range(1, 10))),))
#: Item 36a's validation part: six new writers' blind files, six confusables files and the
#: held-out servers of batches 10-12 (batch 13 is never read).
WRITERS_VALIDATION = Part(
    "V36", (), tuple(f"blind{n}" for n in range(20, 26))
    + tuple(f"confusables{n}" for n in range(14, 20)), "heldout", (10, 11, 12))
#: Item 36a's models, in the design's order: (C, hard weight, normalised text).
WRITERS_MODELS = ((16.0, 30.0, False), (4.0, 30.0, False), (64.0, 30.0, False),
                  (4.0, 30.0, True), (16.0, 30.0, True), (64.0, 30.0, True),
                  (16.0, 10.0, False))
WRITERS_TAU_GRID = (0.99, 0.995, 0.999)
WRITERS_TAU2_GRID: tuple[float | None, ...] = (None, 0.999, 0.9995)
#: Item 36a's baseline, the settings shipped when its design was fixed (the sixteenth
#: revision's): (C, hard weight, normalised text, tau, tau2).
WRITERS_BASELINE: tuple = (16.0, 30.0, False, 0.999, None)


def _catalogue_toolsets() -> list[Toolset]:
    catalogue = (DATASETS / "mcp" / "catalogue.json").read_text(encoding="utf-8")
    out = [Toolset.from_dict(json.loads(catalogue))]
    for path in sorted((DATASETS / "bfcl").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            out.append(Toolset.from_dict(json.loads(line)["tools"]))
    out.append(generated_toolset(0))
    return out


def field_texts(toolsets: Iterable[Toolset | None]) -> list[str]:
    """Every distinct non-blank title, description, default and enum value, first seen first."""
    seen: dict[str, None] = {}
    for toolset in toolsets:
        for f in iter_fields(toolset) if toolset is not None else ():
            if f.kind in _KINDS and f.text.strip():
                seen.setdefault(f.text, None)
    return list(seen)


@dataclasses.dataclass
class TrainingData:
    """Texts to fit on: injected, plain negatives (weight 1), written benign (weight
    :data:`WRITTEN_WEIGHT`) and hard negatives (the weight given to :func:`fit`)."""

    positives: list[str]
    negatives: list[str]
    written: list[str]
    #: negatives of the catalogues and servers that a hand rule finds a medium finding in
    hard: list[str] = dataclasses.field(default_factory=list)

    def describe(self, parts: Sequence[Part]) -> str:
        """What the model was trained on, in one line (``LearnedModel.trained_on``)."""
        return (f"{' + '.join(p.name for p in parts)}: {len(self.positives)} injected, "
                f"{len(self.written)} written benign, {len(self.negatives)} other benign texts "
                "(real rows, MCP reference, BFCL and generated catalogues, "
                f"{'the development' if len(parts) == 1 else 'the'} captured servers of "
                f"batches {_span(b for p in parts for b in p.batches)}) and "
                f"{len(self.hard)} with a hand rule's medium finding (weight {HARD_WEIGHT:g})")


def _span(batches: Iterable[int]) -> str:
    """``1-7`` for the batches 1 to 7, ``1, 3`` when they are not a run."""
    got = sorted(set(batches))
    if got == list(range(got[0], got[-1] + 1)):
        return f"{got[0]}-{got[-1]}" if len(got) > 1 else str(got[0])
    return ", ".join(map(str, got))


def gather(parts: Sequence[Part], held_out: Sequence[Part] = ()) -> TrainingData:
    """The training texts of ``parts``; no text of ``held_out`` and no injected text of any part
    (or of the labelled set) is a negative."""
    rows = [r for p in parts for r in p.rows()]
    positives = list(dict.fromkeys(r.text for r in rows if r.label == "injected"))
    injected = {r.text for p in (TRAIN, VALIDATION, TEST, *parts, *held_out) for r in p.rows()
                if r.label == "injected"}
    unseen = {r.text for p in held_out for r in p.rows()}
    unseen.update(field_texts(ts for p in held_out for _, ts in p.servers()))
    banned = injected | unseen
    written = [r.text for r in rows if r.label == "benign" and r.style != "real"
               and r.text not in banned]
    real = [r.text for r in rows if r.label == "benign" and r.style == "real"]
    toolsets = _catalogue_toolsets() + [ts for p in parts for _, ts in p.servers()]
    broad = field_texts(toolsets)
    hard = dict.fromkeys(f.text for ts in toolsets if ts is not None for f in read_fields(ts)
                         if f.medium and f.text not in banned)
    negatives = [t for t in dict.fromkeys(real + broad) if t not in banned and t not in hard]
    return TrainingData(positives, negatives, written, list(hard))


def _matrix(texts: list[str], vocabulary: dict[str, int], normalisation: str) -> csr_matrix:
    indices: list[int] = []
    indptr = [0]
    data: list[float] = []
    for text in texts:
        counts = text_counts(text, normalisation)
        scale = 1.0 / math.sqrt(max(sum(counts.values()), 1))
        for f, count in counts.items():
            j = vocabulary.get(f)
            if j is not None:
                indices.append(j)
                data.append(count * scale)
        indptr.append(len(indices))
    return csr_matrix((data, indices, indptr), shape=(len(texts), len(vocabulary)))


def fit(data: TrainingData, *, c: float, trained_on: str, tau: float | None = None,
        tau2: float | None = None, hard_weight: float = 1.0,
        normalisation: str = LOWER) -> LearnedModel:
    """Fit the model; features seen in fewer than :data:`MIN_DOCUMENT_FREQUENCY` texts are left
    out, and written benign texts weigh :data:`WRITTEN_WEIGHT` negatives each (so that the model
    learns the instruction, not the voice). ``normalisation``: how every sentence's letters are
    read before its features are counted (``toolform.guard._learned.fold``); the model records
    it and scores through the same reading."""
    texts = data.positives + data.negatives + data.hard + data.written
    counts: dict[str, int] = {}
    for text in texts:
        for f in text_counts(text, normalisation):
            counts[f] = counts.get(f, 0) + 1
    vocabulary = {f: j for j, f in enumerate(sorted(f for f, n in counts.items()
                                                    if n >= MIN_DOCUMENT_FREQUENCY))}
    x = _matrix(texts, vocabulary, normalisation)
    y = np.array([1] * len(data.positives)
                 + [0] * (len(data.negatives) + len(data.hard) + len(data.written)))
    weights_per_row = np.ones(len(y))
    start = len(data.positives) + len(data.negatives)
    weights_per_row[start:start + len(data.hard)] = hard_weight
    if data.written:
        weights_per_row[-len(data.written):] = WRITTEN_WEIGHT
    lr = LogisticRegression(C=c, solver="liblinear", class_weight="balanced", max_iter=5000,
                            random_state=0)
    lr.fit(x, y, sample_weight=weights_per_row)
    names = sorted(vocabulary, key=vocabulary.__getitem__)
    weights = {names[j]: round(float(w), 4) for j, w in enumerate(lr.coef_[0])
               if abs(w) >= MIN_WEIGHT}
    return LearnedModel(round(float(lr.intercept_[0]), 5), weights, THRESHOLD, trained_on,
                        tau, tau2, normalisation)


@dataclasses.dataclass(frozen=True)
class FieldReading:
    """What the hand rules found in one text field: whether a finding is high, and whether one
    is medium in a text TS111 reads (a prose field of ``MIN_WORDS`` words: escalation)."""

    kind: str
    text: str
    high: bool
    medium: bool
    learned: bool


def read_fields(toolset: Toolset, tool: str | None = None) -> list[FieldReading]:
    """The hand rules' reading of every text field of ``toolset`` (of one tool when given),
    names included (a name's finding is never escalated)."""
    findings: dict[str, list] = {}
    for f in scan_toolset(toolset, rules=_HAND):
        if tool is None or f.tool == tool:
            findings.setdefault(f.path, []).append(f)
    out = []
    for f in iter_fields(toolset):
        if tool is not None and f.tool != tool or f.kind == "param.name":
            continue
        found = findings.get(f.path, [])
        learned = f.kind in _KINDS and long_enough(f.text)
        out.append(FieldReading(
            f.kind, f.text, any(x.severity == "high" for x in found),
            learned and any(x.severity == "medium" for x in found), learned))
    return out


@dataclasses.dataclass
class Readings:
    """A part's readings: labelled rows (label, the carrier's fields) and servers (name,
    fields other than names, name fields, readable)."""

    rows: list[tuple[LabelledText, list[FieldReading]]]
    servers: list[tuple[str, list[FieldReading], bool]]


def read_part(part: Part) -> Readings:
    rows = []
    for row in part.rows():
        toolset = labelled_toolset(row)
        rows.append((row, read_fields(toolset, toolset.tools[-1].name)))
    servers = [(name, read_fields(ts) if ts is not None else [], ts is not None)
               for name, ts in part.servers()]
    return Readings(rows, servers)


def flagged(field: FieldReading, p: float, tau: float | None, tau2: float | None) -> bool:
    """Whether the field is high under the escalation policy (tau, tau2), ``p`` being TS111's
    probability for its text."""
    return (field.high or (tau is not None and field.medium and p >= tau)
            or (tau2 is not None and field.learned and p >= tau2))


def counts(model: LearnedModel | None, readings: Readings,
           grid: Iterable[tuple[float | None, float | None]]) -> dict[tuple, dict[str, int]]:
    """For each (tau, tau2): plants high, benign rows high (written, real), server text fields
    and fields high, servers passing. ``model=None`` counts the hand rules alone."""
    grid = list(grid)
    out = {g: dict.fromkeys(("plants", "plants_high", "written", "written_high", "real",
                             "real_high", "servers", "passing", "fields", "fields_high"), 0)
           for g in grid}
    def score(f: FieldReading) -> float:
        return model.probability(f.text) if model is not None and f.learned else 0.0

    scored_rows = [(row, [(f, score(f)) for f in fields]) for row, fields in readings.rows]
    scored_servers = [(ok, [(f, score(f)) for f in fields]) for _, fields, ok in readings.servers]
    for g in grid:
        c = out[g]
        for row, fields in scored_rows:
            key = ("plants" if row.label == "injected"
                   else "real" if row.style == "real" else "written")
            c[key] += 1
            c[key + "_high"] += any(flagged(f, s, *g) for f, s in fields)
        for ok, fields in scored_servers:
            high = sum(flagged(f, s, *g) for f, s in fields)
            c["servers"] += 1
            c["passing"] += ok and high == 0
            c["fields"] += sum(f.kind != "tool.name" for f, _ in fields)
            c["fields_high"] += high
    return out


def choose(table: dict[tuple, dict[str, int]], rules: dict[str, int]) -> tuple:
    """The design's rule: the most plants high, with server fields high at most the rules'
    count plus 0.10% of the fields, at most one server fewer passing than the rules, and at
    most two more benign rows high; ties: fewest server fields high, then the larger tau."""
    def ok(c: dict[str, int]) -> bool:
        return (c["fields_high"] <= rules["fields_high"] + 0.001 * rules["fields"]
                and c["passing"] >= rules["passing"] - 1
                and c["written_high"] + c["real_high"]
                <= rules["written_high"] + rules["real_high"] + 2)
    allowed = [k for k, c in table.items() if ok(c)]
    if not allowed:
        raise ValueError("no setting meets the design's constraints on V")
    return max(allowed, key=lambda k: (table[k]["plants_high"], -table[k]["fields_high"],
                                       k[-2], k[-1] if k[-1] is not None else 2.0))


def _line(label: str, c: dict[str, int]) -> str:
    return (f"| {label} | {c['plants_high']}/{c['plants']} | {c['written_high']}/{c['written']} "
            f"| {c['real_high']}/{c['real']} | {c['fields_high']}/{c['fields']} "
            f"({100 * c['fields_high'] / max(c['fields'], 1):.2f}%) | "
            f"{c['passing']}/{c['servers']} |")


_HEADER = ("| setting | plants high | written benign high | real benign high | server fields high "
           "| servers passing |\n| --- | --- | --- | --- | --- | --- |")


def validate(cache: Path | None = None) -> tuple:
    """Fit each (C, hard weight) on T, print V's table for every (tau, tau2), and return the
    chosen (C, hard weight, tau, tau2)."""
    data = gather([TRAIN], held_out=[VALIDATION, TEST])
    readings = read_part(VALIDATION)
    rules = counts(None, readings, [(None, None)])[(None, None)]
    print(_HEADER)
    print(_line("hand rules alone (TS111 medium)", rules))
    table: dict[tuple, dict[str, int]] = {}
    grid = [(t, t2) for t in TAU_GRID for t2 in TAU2_GRID]
    if (TAU, TAU2) not in grid:  # the shipped pair's row is printed beside the chosen one
        grid.append((TAU, TAU2))
    for c in C_GRID:
        for h in HARD_GRID:
            model = fit(data, c=c, trained_on=data.describe([TRAIN]), hard_weight=h,
                        normalisation=NORMALISATION)
            if cache is not None:
                _write(model, cache / f"model_C{c:g}_H{h:g}.json")
            for (t, t2), row in counts(model, readings, grid).items():
                table[(c, h, t, t2)] = row
                print(_line(f"C={c:g} hard={h:g} tau={t} tau2={t2}", row), flush=True)
    chosen = choose(table, rules)
    print(f"chosen: C={chosen[0]:g} hard={chosen[1]:g} tau={chosen[2]} tau2={chosen[3]}")
    print(_line("chosen", table[chosen]))
    print(_line("shipped (see C)", table[(C, HARD_WEIGHT, TAU, TAU2)]))
    return chosen


#: The columns of item 36a's table: blind plants, honest notes, confusables plants and honest
#: texts, server fields high, servers exit 0.
_WRITERS_KEYS = ("plants_high", "honest_high", "conf_high", "conf_honest_high", "fields_high",
                 "passing")


def _writers_counts(scorer: LearnedModel | None,
                    parts: tuple[Readings, Readings, Readings],
                    grid: list[tuple[float | None, float | None]]) -> dict[tuple, dict[str, int]]:
    """For each (tau, tau2), item 36a's counts on V's blind files, confusables and servers."""
    blind, confusables, servers = (counts(scorer, r, grid) for r in parts)
    return {g: {"plants_high": blind[g]["plants_high"], "plants": blind[g]["plants"],
                "honest_high": blind[g]["written_high"], "honest": blind[g]["written"],
                "conf_high": confusables[g]["plants_high"], "conf": confusables[g]["plants"],
                "conf_honest_high": confusables[g]["written_high"],
                "conf_honest": confusables[g]["written"],
                "fields_high": servers[g]["fields_high"], "fields": servers[g]["fields"],
                "passing": servers[g]["passing"], "servers": servers[g]["servers"]}
            for g in grid}


def choose_writers(table: dict[tuple, dict[str, int]], baseline: tuple) -> tuple | None:
    """Item 36a's rule: among the settings whose V servers exit 0 no fewer than the
    baseline's, honest notes high at most two more, confusables honest no more and
    confusables plants no fewer, and fields high at most 0.10% of V's fields more, the most
    plants high; ties: fewest fields high, fewest honest high, then nearest the shipped
    setting (:data:`WRITERS_BASELINE`). Returns the winner, or ``None`` when no allowed setting
    has more plants high than the baseline. Keys: (C, hard weight, normalised, tau, tau2)."""
    b = table[baseline]

    def allowed(c: dict[str, int]) -> bool:
        return (c["passing"] >= b["passing"] and c["honest_high"] <= b["honest_high"] + 2
                and c["conf_honest_high"] <= b["conf_honest_high"]
                and c["conf_high"] >= b["conf_high"]
                and c["fields_high"] <= b["fields_high"] + 0.001 * b["fields"])

    def rank(k: tuple) -> tuple:
        c, (cc, hard, norm, tau, tau2) = table[k], k
        return (c["plants_high"], -c["fields_high"], -c["honest_high"], tau,
                tau2 is None, tau2 or 0.0, not norm, cc == baseline[0], hard == baseline[1])

    best = max((k for k, c in table.items() if allowed(c)), key=rank)
    return best if table[best]["plants_high"] > b["plants_high"] else None


def _writers_line(label: str, c: dict[str, int]) -> str:
    return (f"| {label} | {c['plants_high']}/{c['plants']} | {c['honest_high']}/{c['honest']} "
            f"| {c['conf_high']}/{c['conf']} | {c['conf_honest_high']}/{c['conf_honest']} "
            f"| {c['fields_high']}/{c['fields']} | {c['passing']}/{c['servers']} |")


def writers(cache: Path | None = None) -> tuple | None:
    """Item 36a: fit each model of :data:`WRITERS_MODELS` on :data:`WRITERS_TRAIN`, print V's
    table for every (tau, tau2) and return the winner of :func:`choose_writers` (``None``:
    no setting beats :data:`WRITERS_BASELINE` fitted on the same part)."""
    v = WRITERS_VALIDATION
    data = gather([WRITERS_TRAIN], held_out=[v])
    print(f"T36: {data.describe([WRITERS_TRAIN])}", flush=True)
    parts = (read_part(Part("blind", blind=tuple(b for b in v.blind if b.startswith("blind")))),
             read_part(Part("conf", blind=tuple(b for b in v.blind if b.startswith("conf")))),
             read_part(dataclasses.replace(v, blind=())))
    print("| setting | plants high | honest high | confusables high | confusables honest high "
          "| server fields high | servers exit 0 |\n| --- | --- | --- | --- | --- | --- | --- |")
    print(_writers_line("hand rules alone (TS111 medium)",
                        _writers_counts(None, parts, [(None, None)])[(None, None)]), flush=True)
    grid = [(t, t2) for t in WRITERS_TAU_GRID for t2 in WRITERS_TAU2_GRID]
    table: dict[tuple, dict[str, int]] = {}
    for c, hard, norm in WRITERS_MODELS:
        model = fit(data, c=c, trained_on=data.describe([WRITERS_TRAIN]), hard_weight=hard,
                    normalisation=NFKC_CASEFOLD if norm else LOWER)
        if cache is not None:
            _write(model, cache / f"writers_C{c:g}_H{hard:g}{'_nfkc' if norm else ''}.json")
        for (t, t2), row in _writers_counts(model, parts, grid).items():
            table[(c, hard, norm, t, t2)] = row
            print(_writers_line(f"C={c:g} hard={hard:g} {'nfkc' if norm else 'raw'} tau={t} "
                                f"tau2={t2}", row), flush=True)
    print(_writers_line("baseline (item 36a's shipped settings on T36)",
                        table[WRITERS_BASELINE]))
    won = choose_writers(table, WRITERS_BASELINE)
    print("winner: none (negative result)" if won is None else
          f"winner: {won}\n" + _writers_line("winner", table[won]))
    return won


def test(out: Path | None = None) -> None:
    """Fit the chosen settings on T and print X's figures, the hand rules alone beside them
    (once); ``out``: also write the model fitted on T there."""
    data = gather([TRAIN], held_out=[VALIDATION, TEST])
    model = fit(data, c=C, trained_on=data.describe([TRAIN]), tau=TAU, tau2=TAU2,
                hard_weight=HARD_WEIGHT, normalisation=NORMALISATION)
    if out is not None:
        _write(model, out)
    print(_HEADER)
    for name, part in [("held-out servers, batches 5-7", dataclasses.replace(TEST, blind=()))] + [
            (b, Part(b, blind=(b,))) for b in TEST.blind]:
        readings = read_part(part)
        print(_line(f"{name}: hand rules alone", counts(None, readings, [(None, None)])[
            (None, None)]))
        print(_line(f"{name}: C={C:g} hard={HARD_WEIGHT:g} tau={TAU} tau2={TAU2}",
                    counts(model, readings, [(TAU, TAU2)])[(TAU, TAU2)]))


def train() -> LearnedModel:
    """The packaged model: the shipped settings (item 36a's winner), fitted on item 36a's
    training and validation parts together."""
    parts = [WRITERS_TRAIN, WRITERS_VALIDATION]
    data = gather(parts)
    return fit(data, c=C, trained_on=data.describe(parts), tau=TAU, tau2=TAU2,
               hard_weight=HARD_WEIGHT, normalisation=NORMALISATION)


def _write(model: LearnedModel, path: Path) -> None:
    path.write_text(json.dumps(model.to_dict(), ensure_ascii=False, separators=(",", ":"))
                    + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("train", "validate", "test", "writers"))
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    parser.add_argument("--cache", type=Path, help="validate, writers: a folder to write each "
                        "fitted model in; test: a file to write the model fitted on T to")
    args = parser.parse_args(argv)
    if args.command == "validate":
        validate(args.cache)
        return 0
    if args.command == "test":
        test(args.cache)
        return 0
    if args.command == "writers":
        writers(args.cache)
        return 0
    model = train()
    _write(model, args.out)
    print(f"wrote {args.out}: {len(model.weights)} weights; {model.trained_on}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
