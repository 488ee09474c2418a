"""Train TS111, the guard's learned detector, and write ``datasets/guard/detector.json``.

    pip install -e ".[dev]"                       # scikit-learn is a dev dependency
    python datasets/guard/train_detector.py train       # writes the packaged model
    python datasets/guard/train_detector.py evaluate    # out-of-sample figures (a few minutes)

Positives: every injected text of the labelled set's development splits
(``toolform.guard.DEVELOPMENT_SPLITS``). Negatives: the development splits' real benign texts,
their written benign texts (the twins of ``dev3`` and ``dev4`` and the written rows of the blind
batches, each weighing :data:`WRITTEN_WEIGHT` texts), and every distinct description, title,
default and enum value of the MCP catalogue (``datasets/mcp/catalogue.json``), the BFCL function
documents (``datasets/bfcl/*.jsonl``) and the generated toolset, except texts that occur
anywhere in the labelled set (a held-out split's benign texts must not be trained on). Features
are those of ``toolform.guard._learned`` (counts summed over sentences); the model is
scikit-learn's L2-regularised logistic regression (liblinear, C = 16, classes weighted to
balance), whose weights are written for the guard to score with in pure Python.

``evaluate`` retrains with one blind split left out (``holdout3`` to ``holdout8``: each was
written by someone who never saw the rules), and with one fifth of the catalogue texts left out,
and prints how many injected, real benign and written benign texts are flagged high, by TS111
alone (which reads texts of ``MIN_WORDS`` words or more, never names) and by the whole guard
(the current rules or TS111).

C and the threshold (0.8) were chosen on leave-one-split-out figures over ``holdout3`` to
``holdout5`` before ``holdout6`` was written; the written weight (10) on ``holdout3`` to
``holdout6`` before ``holdout7`` was scored. See ``datasets/guard/README.md``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path
from typing import Sequence

import numpy as np
from scipy.sparse import csr_matrix
from sklearn.linear_model import LogisticRegression

from toolform.generator import generated_toolset
from toolform.guard import DEVELOPMENT_SPLITS, SPLITS, LabelledText, load_labelled_set
from toolform.guard._fields import iter_fields
from toolform.guard._learned import MIN_WORDS, LearnedModel, text_counts
from toolform.ir import Toolset

HERE = Path(__file__).resolve().parent
DATASETS = HERE.parent
MODEL_PATH = HERE / "detector.json"
C = 16.0
THRESHOLD = 0.8
MIN_DOCUMENT_FREQUENCY = 2
#: How many broad negatives one written benign twin weighs (chosen with C and the threshold).
WRITTEN_WEIGHT = 10.0
#: Weights smaller than this (in absolute value) are dropped from the written model: a feature
#: weighs its weight over the square root of a text's feature count (a few hundred), and dropping
#: them all moved no labelled or catalogue text's probability by more than 0.015 when measured.
MIN_WEIGHT = 0.05
#: The splits the labelled set had when the packaged model was trained: their texts are kept out
#: of the broad negatives. Splits added later (``blind3`` on, round 4) are not yet: one of their
#: texts is also a catalogue text, and taking it out changes the model, which waits for the next
#: retraining (a change to TS111 after the round's blind scoring would be tuning).
EXCLUDED_SPLITS = SPLITS[:17]
_KINDS = ("tool.title", "tool.description", "param.title", "param.description", "param.default",
          "param.enum")


def _toolsets() -> list[Toolset]:
    catalogue = (DATASETS / "mcp" / "catalogue.json").read_text(encoding="utf-8")
    out = [Toolset.from_dict(json.loads(catalogue))]
    for path in sorted((DATASETS / "bfcl").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            out.append(Toolset.from_dict(json.loads(line)["tools"]))
    out.append(generated_toolset(0))
    return out


def broad_negatives() -> list[str]:
    """Every distinct prose text of the real and generated catalogues, in first-seen order,
    without the texts of the labelled set."""
    labelled = {row.text for row in load_labelled_set(splits=EXCLUDED_SPLITS)}
    seen: dict[str, None] = {}
    for toolset in _toolsets():
        for f in iter_fields(toolset):
            if f.kind in _KINDS and f.text.strip() and f.text not in labelled:
                seen.setdefault(f.text, None)
    return list(seen)


def _matrix(texts: list[str], vocabulary: dict[str, int]) -> csr_matrix:
    indices: list[int] = []
    indptr = [0]
    data: list[float] = []
    for text in texts:
        counts = text_counts(text)
        scale = 1.0 / math.sqrt(max(sum(counts.values()), 1))
        for f, count in counts.items():
            j = vocabulary.get(f)
            if j is not None:
                indices.append(j)
                data.append(count * scale)
        indptr.append(len(indices))
    return csr_matrix((data, indices, indptr), shape=(len(texts), len(vocabulary)))


def fit(positives: list[str], negatives: list[str], *, trained_on: str, c: float = C,
        threshold: float = THRESHOLD, written: Sequence[str] = ()) -> LearnedModel:
    """Fit the model on texts; features seen in fewer than two texts are left out.

    ``written`` are benign texts written in the injected texts' voice (twins): each weighs
    :data:`WRITTEN_WEIGHT` negatives, so that the model learns the instruction, not the voice.
    """
    negatives = list(negatives) + list(written)
    counts: dict[str, int] = {}
    for text in positives + negatives:
        for f in text_counts(text):
            counts[f] = counts.get(f, 0) + 1
    vocabulary = {f: j for j, f in enumerate(sorted(f for f, n in counts.items()
                                                    if n >= MIN_DOCUMENT_FREQUENCY))}
    x = _matrix(positives + negatives, vocabulary)
    y = np.array([1] * len(positives) + [0] * len(negatives))
    lr = LogisticRegression(C=c, solver="liblinear", class_weight="balanced", max_iter=5000,
                            random_state=0)
    weights_per_row = np.ones(len(y))
    if written:
        weights_per_row[-len(written):] = WRITTEN_WEIGHT
    lr.fit(x, y, sample_weight=weights_per_row)
    names = sorted(vocabulary, key=vocabulary.__getitem__)
    weights = {names[j]: round(float(w), 4) for j, w in enumerate(lr.coef_[0])
               if abs(w) >= MIN_WEIGHT}
    return LearnedModel(round(float(lr.intercept_[0]), 5), weights, threshold, trained_on)


def _split_rows(rows: Sequence[LabelledText]) -> tuple[list[str], list[str], list[str]]:
    """(injected texts, real benign texts, written benign texts) of labelled rows."""
    return ([r.text for r in rows if r.label == "injected"],
            [r.text for r in rows if r.label == "benign" and r.style == "real"],
            [r.text for r in rows if r.label == "benign" and r.style != "real"])


def train() -> LearnedModel:
    """The packaged model: trained on the development splits and the broad negatives."""
    rows = load_labelled_set(splits=DEVELOPMENT_SPLITS)
    positives, real, written = _split_rows(rows)
    negatives = broad_negatives() + real
    return fit(positives, negatives, written=written, trained_on=(
        f"labelled set splits {', '.join(DEVELOPMENT_SPLITS)}: {len(positives)} injected, "
        f"{len(real)} real and {len(written)} written benign, and {len(negatives) - len(real)} "
        "texts of the MCP, BFCL and generated catalogues"))


def _flag(model: LearnedModel, text: str, place: str = "tool.description") -> bool:
    """Whether TS111 with this model flags a text at this place (it reads prose and values of
    MIN_WORDS words or more, never names)."""
    return (place in _KINDS and len(text.split()) >= MIN_WORDS
            and model.probability(text) >= model.threshold)


def evaluate() -> None:
    """Print leave-one-split-out figures (see the module docstring)."""
    rows = load_labelled_set()
    broad = broad_negatives()
    order = list(range(len(broad)))
    random.Random(0).shuffle(order)
    held_broad = set(order[::5])
    print("| left out | TS111: injected | real benign | written benign | guard: injected | "
          "real benign | written benign | broad texts, held out |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for split in ("holdout3", "holdout4", "holdout5", "holdout6", "holdout7", "holdout8"):
        train_rows = [r for r in rows if r.split != split and r.split in DEVELOPMENT_SPLITS]
        positives, real, written = _split_rows(train_rows)
        negatives = [t for i, t in enumerate(broad) if i not in held_broad] + real
        model = fit(positives, negatives, written=written, trained_on=f"without {split}")
        test = [r for r in rows if r.split == split]
        groups = ([r for r in test if r.label == "injected"],
                  [r for r in test if r.label == "benign" and r.style == "real"],
                  [r for r in test if r.label == "benign" and r.style != "real"])
        alone = [f"{sum(_flag(model, r.text, r.place) for r in g)}/{len(g)}" for g in groups]
        guard = [f"{sum(_rules_flag(r) or _flag(model, r.text, r.place) for r in g)}/{len(g)}"
                 for g in groups]
        held = [t for i, t in enumerate(broad) if i in held_broad]
        flagged = sum(_flag(model, t) for t in held)
        print(f"| {split} | {' | '.join(alone)} | {' | '.join(guard)} | {flagged}/{len(held)} "
              f"({100 * flagged / len(held):.2f}%) |")


def _rules_flag(row) -> bool:
    """Whether the rules written by hand (TS101-TS110) flag the row's carrier tool high."""
    from toolform.guard import GUARD_RULES, labelled_toolset, scan_toolset

    toolset = labelled_toolset(row)
    carrier = toolset.tools[-1].name
    hand = [r.id for r in GUARD_RULES if r.id != "TS111"]
    return any(f.severity == "high" and f.tool == carrier
               for f in scan_toolset(toolset, rules=hand))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("train", "evaluate"))
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    args = parser.parse_args(argv)
    if args.command == "evaluate":
        evaluate()
        return 0
    model = train()
    args.out.write_text(json.dumps(model.to_dict(), ensure_ascii=False, separators=(",", ":"))
                        + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {len(model.weights)} weights; {model.trained_on}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
