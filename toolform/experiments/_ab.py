"""The eight-cell A/B test: the eight core formats, each with its default protocol, on one model.

The study's best selection procedure is to measure these eight cells on the target model
(``evidence: selection``); ``ab_test`` runs them on N requests, summarises accuracy per cell under
the three grading rules with Wilson 95% intervals, picks the best cell (under ``symmetric`` by
default, the rule the study recommends for measurement), and gives each cell's paired contrast
against ``json_schema_openai`` with a bootstrap interval.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import Any, Sequence

import pandas as pd

from .._deprecated import renamed_keywords
from ..columns import upgrade_columns
from ..grading import RULE_MEANINGS, RULES, check_rule
from ..repeats import Sampling, expand_repeats
from ..runs import Cell, run_cells, summarize_verdicts, verdicts_frame
from ..errors import InvalidParameterError
from ..stats import noise_floor, paired_bootstrap
from ..recordings import (LOCAL_MODEL_ID, RECORDED_AB_CASSETTE, RECORDED_AB_DATASETS,
                          RECORDED_AB_MAX_TOKENS, select_requests)
from ..study import CORE_FORMATS
from ._result import (DEFAULT_CONCURRENCY, DEFAULT_MAX_TOKENS, ExperimentResult, OnTurn,
                      as_cells, check_call)

__all__ = ["CELL_COLUMNS", "CORE_CELLS", "HEADLINE_REASON", "LOCAL_MODEL_ID",
           "RECORDED_AB_CASSETTE", "RECORDED_AB_DATASETS", "RECORDED_AB_MAX_TOKENS",
           "REFERENCE_FORMAT", "ABResult", "ab_test", "recorded_ab", "recorded_ab_client",
           "select_requests", "summarize_cells"]

#: The format every cell is contrasted with (the ``delta`` columns).
REFERENCE_FORMAT = "json_schema_openai"
#: The eight core formats of the study's main grid, each with its default protocol.
CORE_CELLS: tuple[Cell, ...] = tuple(Cell(f) for f in CORE_FORMATS)

#: Why the headline rule is ``symmetric`` (numbers: evidence ``main_grid``).
HEADLINE_REASON = ("it repairs every protocol alike, so a protocol is not ranked up by the "
                   "repairs it alone gets (in the study, XML's lead over JSON Schema is 13.8 "
                   "points under main and 1.1 under symmetric; evidence main_grid)")

#: Declared columns of ``ABResult.cells``: (name, dtype, unit, meaning).
CELL_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("cell", "string", "", "format_id/protocol_id"),
    ("format_id", "string", "", "schema format"),
    ("protocol_id", "string", "", "answer protocol"),
    ("rule", "string", "", "grading rule: main, symmetric or as_written"),
    ("n", "int64", "turns", "graded turns (turns with a server error are left out)"),
    ("n_errors", "int64", "turns", "turns lost to a server error"),
    ("correct", "int64", "turns", "turns graded correct"),
    ("accuracy", "float64", "percent", "correct / n"),
    ("ci_low", "float64", "percent", "Wilson 95% interval, lower bound"),
    ("ci_high", "float64", "percent", "Wilson 95% interval, upper bound"),
    ("delta", "float64", "percentage points",
     "accuracy minus json_schema_openai's on the same requests"),
    ("delta_ci_low", "float64", "percentage points", "paired bootstrap 95% interval, lower"),
    ("delta_ci_high", "float64", "percentage points", "paired bootstrap 95% interval, upper"),
    ("tokens", "float64", "tokens",
     "prompt plus completion tokens of the graded turns (server usage, or estimates where it "
     "gave none); NaN when no turn has a count"),
    ("cost_usd", "float64", "US dollars",
     "cost of the graded turns (turn column cost_usd; toolform.cost); NaN when none is priced"),
    ("tokens_per_correct", "float64", "tokens", "tokens / correct; NaN with no correct turn"),
    ("cost_usd_per_correct", "float64", "US dollars",
     "cost_usd / correct; NaN with no correct turn"),
)


def recorded_ab_client() -> Any:
    """A replay-only client over the committed eight-cell cassette of the local model.

    With it, ``ab_test([load_dataset(n) for n in RECORDED_AB_DATASETS], client, n=50,
    max_tokens=RECORDED_AB_MAX_TOKENS)`` replays the 400 recorded turns offline (what
    :func:`recorded_ab` does); any other request raises ``CassetteMissError``.
    """
    from ..clients import ReplayClient
    from ..datasets import data_path

    return ReplayClient(data_path(RECORDED_AB_CASSETTE), model=LOCAL_MODEL_ID, mode="replay")


def summarize_cells(turns: pd.DataFrame, *, reference: str = REFERENCE_FORMAT, seed: int = 0,
                    n_boot: int = 2000) -> pd.DataFrame:
    """Accuracy per cell and rule from a turn frame (see :data:`CELL_COLUMNS`), with the
    tokens and cost of the cell's graded turns and per correct call.

    The contrast against ``reference`` pairs the two cells on the requests both answered
    without a server error; it is NaN when the reference cell is absent.

    This is the summary the runner's experiments share (``ABResult.cells``); when the grading
    package's long-form verdict frame and its one summary function land, this function becomes
    a call to it plus the paired contrast and the ledger sums (the seam: only this body).
    """
    turns = upgrade_columns(turns, "turns")
    rows = []
    nan = float("nan")
    ok = turns[turns["error"].isna()]
    ref = ok[ok["format_id"] == reference]
    summary = summarize_verdicts(verdicts_frame(turns, RULES)).set_index(["cell", "rule"])
    for cell, group in turns.groupby("cell", sort=False):
        graded = group[group["error"].isna()]
        tokens, cost = _ledger_sums(graded)
        for rule in RULES:
            column = f"correct_{rule}"
            s = summary.loc[(cell, rule)]
            correct = int(s["correct"])
            diff = (float("nan"),) * 3
            if len(ref):
                paired = graded[["request_id", column]].merge(
                    ref[["request_id", column]], on="request_id", suffixes=("", "_ref"))
                if len(paired):
                    diff = paired_bootstrap(paired[column].tolist(), paired[f"{column}_ref"].tolist(),
                                            n_boot=n_boot, seed=seed)
            rows.append({
                "cell": cell, "format_id": group["format_id"].iloc[0],
                "protocol_id": group["protocol_id"].iloc[0], "rule": rule, "n": int(s["n"]),
                "n_errors": int(s["n_errors"]), "correct": correct,
                "accuracy": s["accuracy"], "ci_low": s["ci_low"], "ci_high": s["ci_high"],
                "delta": diff[0], "delta_ci_low": diff[1], "delta_ci_high": diff[2],
                "tokens": tokens, "cost_usd": cost,
                "tokens_per_correct": tokens / correct if correct else nan,
                "cost_usd_per_correct": cost / correct if correct else nan,
            })
    frame = pd.DataFrame(rows, columns=[c[0] for c in CELL_COLUMNS])
    return frame.astype({name: dtype for name, dtype, _, _ in CELL_COLUMNS})


def _ledger_sums(graded: pd.DataFrame) -> tuple[float, float]:
    """(tokens, cost) of a cell's graded turns; NaN where no turn has the figure (a frame
    without the ledger columns, or rows older than them)."""
    nan = float("nan")
    tokens = nan
    if "prompt_tokens" in graded and "completion_tokens" in graded:
        both = graded["prompt_tokens"].astype("Float64") + graded["completion_tokens"]
        if both.notna().any():
            tokens = float(both.sum())
    cost = nan
    if "cost_usd" in graded and graded["cost_usd"].notna().any():
        cost = float(graded["cost_usd"].sum())
    return tokens, cost


@dataclass(frozen=True)
class ABResult(ExperimentResult):
    """What ``ab_test`` returns (an :class:`~toolform.experiments.ExperimentResult`).

    Attributes
    ----------
    turns : pandas.DataFrame
        One row per turn (``toolform.runs.TURN_COLUMNS``).
    cells : pandas.DataFrame
        One row per cell and rule (:data:`CELL_COLUMNS`); accuracies in percent, Wilson 95%
        intervals, paired bootstrap contrasts against ``json_schema_openai`` in percentage
        points.
    model : str
        The model measured.
    headline_rule : str
        The rule the best cell is chosen under ("" while a run is still going).
    best : tuple of str
        The best cell label(s) under ``headline_rule``; more than one when tied.
    """

    headline_rule: str
    best: tuple[str, ...]

    def table(self) -> pd.DataFrame:
        """A display table: one row per cell; accuracy, interval and contrast under each rule.

        Returns
        -------
        pandas.DataFrame
            Shape ``(cells, 3 + 6 × 3)``, in cell order: ``cell``, ``n`` (graded turns),
            ``n_errors`` (failed turns); then for each rule ``<rule>``, ``<rule>_low``,
            ``<rule>_high`` (accuracy and its Wilson 95% interval, percent) and
            ``<rule>_vs_json``, ``<rule>_vs_json_low``, ``<rule>_vs_json_high`` (the paired
            contrast against ``json_schema_openai`` and its bootstrap 95% interval, percentage
            points). All numeric, rounded to one decimal.
        """
        out = []
        for cell, group in self.cells.groupby("cell", sort=False):
            row: dict[str, Any] = {"cell": cell, "n": int(group["n"].iloc[0]),
                                   "n_errors": int(group["n_errors"].iloc[0])}
            for r in group.itertuples():
                row.update({r.rule: r.accuracy, f"{r.rule}_low": r.ci_low,
                            f"{r.rule}_high": r.ci_high, f"{r.rule}_vs_json": r.delta,
                            f"{r.rule}_vs_json_low": r.delta_ci_low,
                            f"{r.rule}_vs_json_high": r.delta_ci_high})
            out.append(row)
        return pd.DataFrame(out).round(1)

    def report(self, *, width: int = 100) -> str:
        """The A/B result as text for a terminal: the units, the rules, the table, the headline.

        Accuracy under each rule (percent of graded turns); for the headline rule also its
        Wilson 95% interval and the paired contrast against ``json_schema_openai`` (percentage
        points, bootstrap 95% interval); the graded and failed turns per cell. Every line fits
        ``width`` columns.

        Parameters
        ----------
        width : int, default 100
            Longest line, in characters.

        Returns
        -------
        str
            Several lines, no trailing newline.
        """
        import textwrap

        head = self.headline_rule
        others = [r for r in RULES if r != head]
        header = ["cell", "n", "failed", f"{head} [95% CI]", "vs JSON, pp [95% CI]", *others]
        rows = []
        for values in self.table().to_dict("records"):
            contrast = ("reference" if values["cell"].startswith(f"{REFERENCE_FORMAT}/") else
                        _signed(values[f"{head}_vs_json"]) + " " + _interval(
                            values[f"{head}_vs_json_low"], values[f"{head}_vs_json_high"], True))
            rows.append([values["cell"], str(values["n"]), str(values["n_errors"]),
                         _percent(values[head]) + " "
                         + _interval(values[f"{head}_low"], values[f"{head}_high"]),
                         contrast, *(_percent(values[r]) for r in others)])
        widths = [max(len(line[i]) for line in [header, *rows]) for i in range(len(header))]
        lines = [" ".join(text.ljust(w) if i == 0 else text.rjust(w)
                          for i, (text, w) in enumerate(zip(line, widths))).rstrip()
                 for line in [header, *rows]]
        notes = [
            f"Eight-cell A/B on {self.model}. Accuracy: percent of graded turns (a failed turn "
            "is not graded); 95% CI: Wilson interval; vs JSON: the cell minus "
            f"{REFERENCE_FORMAT} on the same requests, in percentage points, with a paired "
            "bootstrap 95% interval.",
            "Rules: " + "; ".join(f"{r}: {RULE_MEANINGS[r]}" for r in RULES) + ".",
            f"The best cell is chosen under {head}" + (
                f": {HEADLINE_REASON}" if head == "symmetric" else "") + ".",
        ]
        floor = self.noise_floor()
        if floor is not None:
            sentence = floor["sentence"]
            notes.append(f"Noise floor under {head}: {sentence[0].lower()}{sentence[1:]}")
        wrapped = [textwrap.fill(note, width) for note in [*notes, self.summary()]]
        return "\n".join(wrapped[:1] + [""] + lines + [""] + wrapped[1:])

    def chart(self) -> Any:
        """Altair chart: accuracy per cell with 95% intervals, one colour per rule; the
        subtitle states the run's noise floor (:meth:`noise_floor`)."""
        from ..charts import ab_chart

        floor = self.noise_floor()
        return ab_chart(self.cells, title=f"Eight-cell A/B on {self.model}",
                        note=None if floor is None else floor["sentence"])

    def noise_floor(self) -> dict[str, Any] | None:
        """The smallest difference this run could tell apart, under the headline rule, in the
        cells' pairs with the reference cell (``json_schema_openai``'s).

        Returns
        -------
        dict or None
            ``toolform.stats.noise_floor`` of the turns (``mde_points`` in percentage points,
            ``n`` requests, ``discordance`` as a proportion, ``sentence`` in words); None when
            there is no reference cell, or no other cell shares a graded request with it.
        """
        references = [c for c in dict.fromkeys(self.turns["cell"])
                      if c.startswith(f"{REFERENCE_FORMAT}/")]
        if not references or not self.headline_rule:
            return None
        try:
            return noise_floor(self.turns, references[0], rule=self.headline_rule)
        except InvalidParameterError:  # nothing paired with the reference: no floor to state
            return None

    def summary(self) -> str:
        """One line: the best cell, its accuracy and interval under the headline rule."""
        if not self.best:  # every turn failed: there is no accuracy to rank
            return f"{self.model}: no cell has a graded turn (every turn failed)"
        head = self.cells[(self.cells["rule"] == self.headline_rule)
                          & self.cells["cell"].isin(self.best)].iloc[0]
        tie = f" (tied: {', '.join(self.best)})" if len(self.best) > 1 else ""
        return (f"{self.model}: best cell {self.best[0]}{tie} at {head.accuracy:.1f}% "
                f"[{head.ci_low:.1f}, {head.ci_high:.1f}] under {self.headline_rule}, "
                f"n={int(head.n)} per cell")


def _percent(value: float) -> str:
    return "–" if value != value else f"{value:.1f}"  # NaN: no graded turn


def _signed(value: float) -> str:
    return "–" if value != value else f"{value:+.1f}"


def _interval(low: float, high: float, signed: bool = False) -> str:
    """``[4.3, 21.4]``, or ``–`` when there is none (no graded turn, no reference cell)."""
    if low != low or high != high:
        return "–"
    form = "{:+.1f}" if signed else "{:.1f}"
    return f"[{form.format(low)}, {form.format(high)}]"


@renamed_keywords({"formats": "cells", "max_concurrency": "concurrency"})
def ab_test(requests: Any, client: Any, *, cells: Sequence[Any] = CORE_CELLS,
            checkpoint: str | os.PathLike[str] | None = None, on_turn: OnTurn | None = None,
            max_tokens: int = DEFAULT_MAX_TOKENS, concurrency: int = DEFAULT_CONCURRENCY,
            progress: bool = False, stop: threading.Event | None = None, repeats: int = 1,
            seed: int = 0, n: int = 50, headline_rule: str = "symmetric",
            executor: Any = None, price: Any = "frontier_api",
            sampling: Sampling | None = None) -> ABResult:
    """Run the eight-cell A/B test (or any cells) on one model.

    Parameters
    ----------
    requests : Dataset, sequence of Dataset, or sequence of Request
        Where the requests come from; ``n`` are drawn by a seeded shuffle.
    client : ChatClient
        The model (``OpenAICompatClient``, ``ReplayClient``...).
    cells : sequence of Cell, str or (str, str), default :data:`CORE_CELLS`
        The cells: ``Cell``, ``"format_id"`` (its default protocol), ``"format_id/protocol_id"``
        or ``(format_id, protocol_id)``. Default: the eight core formats.
    checkpoint : path, optional
        JSONL checkpoint; a rerun resumes from it.
    on_turn : callable, optional
        Called with each finished turn's row, from the calling thread, once per turn of the
        result (turns the checkpoint already held first; ``toolform.runs.run_cells``).
    max_tokens : int, default :data:`DEFAULT_MAX_TOKENS`
        Completion budget per turn, in tokens (the committed cassette was recorded with
        :data:`RECORDED_AB_MAX_TOKENS`).
    concurrency : int, default :data:`DEFAULT_CONCURRENCY`
        Requests in flight at once.
    progress : bool, default False
        Show a tqdm bar.
    stop : threading.Event, optional
        When set, no new turn starts (resume by running again on the checkpoint).
    repeats : int, default 1
        Times each request is asked, after the draw, so the repeats are of the same requests
        (``toolform.repeats.expand_repeats``: repeat ``i`` has the id ``<id>#repeat<i>``;
        ``toolform.repeats.repeat_summary`` reads pass@k, pass^k and the flip rate off the
        turns).
    seed : int, default 0
        Seed of the request draw and the bootstrap.
    n : int, default 50
        Requests per cell (the study measured 50 per cell, 400 turns in all).
    headline_rule : str, default "symmetric"
        Rule the best cell is chosen under (``symmetric``, as the study recommends).
    executor, price
        Passed to :func:`toolform.runs.run_cells` (``executor``: ``toolform.executors``;
        ``price``: the price vector of the cost ledger).
    sampling : toolform.repeats.Sampling, optional
        Temperature, ``top_p``, body fields and the base seed of every ask; repeat ``i`` is asked
        with seed ``base + i``, so repeats are distinct samples with their own cassette keys
        (default: temperature 0; ``toolform.runs.run_cells``).

    The old spellings ``formats=`` (of ``cells=``) and ``max_concurrency=`` (of
    ``concurrency=``) are read one release, with a ``DeprecationWarning``.

    Returns
    -------
    ABResult

    Raises
    ------
    GradingError
        When ``headline_rule`` is not one of the three rules.
    InvalidParameterError
        When the client comes before the requests, or ``cells`` is empty.
    """
    check_call(requests, client, "ab_test", max_tokens=max_tokens,
               concurrency=concurrency, repeats=repeats)
    check_rule(headline_rule, parameter="headline_rule")
    chosen = expand_repeats(select_requests(requests, n, seed), repeats)
    turns = run_cells(as_cells(cells), chosen, client, checkpoint=checkpoint,
                      max_concurrency=concurrency, max_tokens=max_tokens, progress=progress,
                      stop=stop, executor=executor, price=price, on_turn=on_turn,
                      sampling=sampling)
    summary = summarize_cells(turns, seed=seed)
    head = summary[summary["rule"] == headline_rule]
    top = head["accuracy"].max()
    best = tuple(head.loc[head["accuracy"] == top, "cell"]) if len(head) else ()
    return ABResult(turns=turns, cells=summary, model=getattr(client, "model", ""),
                    headline_rule=headline_rule, best=best)


def recorded_ab(n: int = 50, **options: Any) -> ABResult:
    """Replay the committed eight-cell A/B of the local model, offline.

    ``n`` requests per cell drawn from :data:`RECORDED_AB_DATASETS`, at the recorded budget
    :data:`RECORDED_AB_MAX_TOKENS`, against :func:`recorded_ab_client`.

    Parameters
    ----------
    n : int, default 50
        Requests per cell (the recording holds 50).
    **options
        Passed to :func:`ab_test` (``on_turn``, ``checkpoint``, ``concurrency``...).

    Returns
    -------
    ABResult

    Raises
    ------
    CassetteMissError
        When a prompt differs from the recording.
    """
    from ..datasets import load_dataset

    options.setdefault("max_tokens", RECORDED_AB_MAX_TOKENS)
    return ab_test([load_dataset(name) for name in RECORDED_AB_DATASETS], recorded_ab_client(),
                   n=n, **options)
