"""The BFCL arm: cells of formats × protocols on BFCL requests, graded four ways.

Every turn is graded under the study's three rules (``toolform.grading``) and against BFCL's
possible answers (``toolform.grading.grade_possible_answers``, the ``correct_possible_answers``
turn column).
:func:`bfcl_arm` returns a :class:`BFCLArmResult`; its ``cells`` (:func:`bfcl_arm_table`) lay the
four side by side, per cell and BFCL category, so a reader sees
where the study's rules and BFCL's checker part ways (BFCL wants exact names, exact types and no
argument left at its default; the study forgives separators in names under ``main``).
:func:`grading_disagreements` lists the turns where the main rule and BFCL's checker disagree,
with each grader's reason.

The committed recording of the local model (:data:`RECORDED_BFCL_CASSETTE`) holds one cell,
``json_schema_openai/bfcl_python_list`` (BFCL's own answer style: a Python list of calls), on
:data:`RECORDED_BFCL_DRAW` (160 requests from four categories); the eight-cell A/B cassette adds
eight more cells on ``simple_python`` and ``multiple``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Sequence

import pandas as pd

from .._deprecated import renamed_keywords
from ..columns import upgrade_columns
from ..errors import GradingError
from ..grading import GRADINGS, grade, grade_possible_answers
from ..ir import Request
from ..protocols import parse_reply
from ..repeats import Sampling, expand_repeats
from ..runs import Cell, run_cells, summarize_verdicts, verdicts_frame
from ._ab import LOCAL_MODEL_ID, select_requests
from ._result import (DEFAULT_CONCURRENCY, DEFAULT_MAX_TOKENS, ExperimentResult, OnTurn,
                      as_cells, check_call)

__all__ = ["BFCL_ARM_COLUMNS", "DISAGREEMENT_COLUMNS", "RECORDED_BFCL_CASSETTE",
           "RECORDED_BFCL_CELL", "RECORDED_BFCL_DRAW", "RECORDED_BFCL_MAX_TOKENS", "BFCLArmResult",
           "bfcl_arm", "bfcl_arm_requests", "bfcl_arm_table", "grading_disagreements",
           "recorded_bfcl_arm", "recorded_bfcl_client"]

#: The committed cassette of the local model's BFCL-arm replies (``datasets/cassettes/``).
RECORDED_BFCL_CASSETTE = "cassettes/bfcl_arm_qwen2.5-coder-0.5b-instruct.jsonl"
#: The one cell the cassette holds.
RECORDED_BFCL_CELL = Cell("json_schema_openai", "bfcl_python_list")
#: The recorded draw: (dataset, requests, seed) for :func:`bfcl_arm_requests`.
RECORDED_BFCL_DRAW: tuple[tuple[str, int, int], ...] = (
    ("bfcl/simple_python", 40, 2), ("bfcl/multiple", 40, 2), ("bfcl/parallel", 50, 2),
    ("bfcl/parallel_multiple", 30, 2))
#: Completion budget the cassette was recorded with, in tokens (part of each reply's key).
RECORDED_BFCL_MAX_TOKENS = 256

#: The declared columns of :func:`bfcl_arm_table`: (name, dtype, unit, meaning).
BFCL_ARM_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("cell", "string", "", "format_id/protocol_id"),
    ("category", "string", "", "BFCL category (simple_python, multiple, parallel...)"),
    ("rule", "string", "", "grading rule: main, symmetric, as_written or possible_answers"),
    ("n", "int64", "turns", "turns graded (server errors left out)"),
    ("n_errors", "int64", "turns", "turns lost to a server error"),
    ("correct", "int64", "turns", "turns graded correct"),
    ("accuracy", "float64", "percent", "correct / n"),
    ("ci_low", "float64", "percent", "Wilson 95% interval, low end"),
    ("ci_high", "float64", "percent", "Wilson 95% interval, high end"),
)


#: The declared columns of :func:`grading_disagreements`: (name, dtype, unit, meaning).
DISAGREEMENT_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("request_id", "string", "", "request id within its dataset"),
    ("cell", "string", "", "format_id/protocol_id"),
    ("category", "string", "", "BFCL category (simple_python, multiple, parallel...)"),
    ("reply", "string", "", "the model's reply text"),
    ("correct_main", "boolean", "", "correct under the study's main rule"),
    ("reason_main", "string", "", "the main rule's first mismatch; \"\" when correct"),
    ("correct_possible_answers", "boolean", "", "correct against possible answers, BFCL's way"),
    ("reason_possible_answers", "string", "",
     "the possible-answers grader's first mismatch; \"\" when correct"),
)


def bfcl_arm_requests(draw: Sequence[tuple[str, int, int]] = RECORDED_BFCL_DRAW
                      ) -> list[Request]:
    """The requests of a draw: for each (dataset, n, seed), ``n`` drawn by a seeded shuffle.

    Parameters
    ----------
    draw : sequence of (str, int, int)
        Dataset name (``toolform.datasets``), requests, seed. Default: the recorded draw.

    Returns
    -------
    list of Request
        In draw order.

    Raises
    ------
    DatasetError
        For an unknown dataset.
    """
    from ..datasets import load_dataset

    return [r for name, n, seed in draw for r in select_requests(load_dataset(name), n, seed)]


def recorded_bfcl_client() -> Any:
    """A replay-only client over the committed BFCL-arm cassette of the local model.

    ``bfcl_arm(bfcl_arm_requests(), recorded_bfcl_client(), max_tokens=RECORDED_BFCL_MAX_TOKENS)``
    replays the 160 recorded turns offline (what :func:`recorded_bfcl_arm` does); any other
    request raises ``CassetteMissError``.
    """
    from ..clients import ReplayClient
    from ..datasets import data_path

    return ReplayClient(data_path(RECORDED_BFCL_CASSETTE), model=LOCAL_MODEL_ID, mode="replay")


@dataclass(frozen=True)
class BFCLArmResult(ExperimentResult):
    """What :func:`bfcl_arm` returns (an :class:`~toolform.experiments.ExperimentResult`).

    Attributes
    ----------
    turns : pandas.DataFrame
        One row per turn (``toolform.runs.TURN_COLUMNS``); ``correct_possible_answers`` is
        BFCL's verdict.
    cells : pandas.DataFrame
        :func:`bfcl_arm_table`: one row per cell, BFCL category and grading
        (:data:`BFCL_ARM_COLUMNS`), accuracy and Wilson 95% interval in percent.
    model : str
        The model measured.
    """

    def table(self) -> pd.DataFrame:
        """Accuracy (percent) per cell and category, one column per grading rule.

        Returns
        -------
        pandas.DataFrame
            Index (cell, category) in run order; columns ``toolform.grading.GRADINGS``;
            rounded to one decimal.
        """
        wide = self.cells.pivot_table(index=["cell", "category"], columns="rule",
                                      values="accuracy", sort=False)
        return wide[[g for g in GRADINGS if g in wide.columns]].round(1)

    def chart(self) -> Any:
        """Altair chart: accuracy per category under each grading (``bfcl_arm_chart``)."""
        from ..charts import bfcl_arm_chart

        return bfcl_arm_chart(self.cells)

    def disagreements(self, requests: Sequence[Request] | Mapping[str, Request]
                      ) -> pd.DataFrame:
        """The turns where the main rule and BFCL's checker disagree
        (:func:`grading_disagreements` over :attr:`turns`)."""
        return grading_disagreements(self.turns, requests)


@renamed_keywords({"max_concurrency": "concurrency"})
def bfcl_arm(requests: Sequence[Request], client: Any, *,
             cells: Sequence[Any] = (RECORDED_BFCL_CELL,),
             checkpoint: str | os.PathLike[str] | None = None, on_turn: OnTurn | None = None,
             max_tokens: int = DEFAULT_MAX_TOKENS, concurrency: int = DEFAULT_CONCURRENCY,
             progress: bool = False, stop: threading.Event | None = None,
             repeats: int = 1, sampling: Sampling | None = None, executor: Any = None,
             price: Any = "frontier_api") -> BFCLArmResult:
    """Answer BFCL requests in each cell; one row per turn, graded four ways.

    Parameters
    ----------
    requests : sequence of Request
        BFCL requests (e.g. :func:`bfcl_arm_requests`); any labelled requests work.
    client : ChatClient
        The model (a live ``OpenAICompatClient``, :func:`recorded_bfcl_client`...).
    cells : sequence of Cell, str or (str, str), default (:data:`RECORDED_BFCL_CELL`,)
        Formats × protocols to run (as :func:`~toolform.experiments.ab_test` takes them).
    checkpoint, on_turn, max_tokens, concurrency, progress, stop
        As in :func:`~toolform.experiments.ab_test` (the recording's budget is
        :data:`RECORDED_BFCL_MAX_TOKENS`).
    repeats : int, default 1
        Times each request is asked (in every cell; ``toolform.repeats.expand_repeats``: repeat
        ``i`` has the id ``<id>#repeat<i>``; ``toolform.repeats.repeat_summary`` reads pass@k,
        pass^k and the flip rate off the turns).
    sampling : toolform.repeats.Sampling, optional
        Temperature, ``top_p``, body fields and the base seed of every ask; repeat ``i`` is asked
        with seed ``base + i``, so repeats are distinct samples with their own cassette keys
        (default: temperature 0; ``toolform.runs.run_cells``).
    executor, price
        As in :func:`~toolform.experiments.ab_test` (the executor that runs the turns; the
        price vector of the ``cost_usd`` column).

    The old spelling ``max_concurrency=`` (of ``concurrency=``) is read one release, with a
    ``DeprecationWarning``.

    Returns
    -------
    BFCLArmResult

    Raises
    ------
    InvalidParameterError
        When the client comes before the requests, or ``cells`` is empty.
    """
    check_call(requests, client, "bfcl_arm", max_tokens=max_tokens,
               concurrency=concurrency, repeats=repeats)
    turns = run_cells(as_cells(cells), expand_repeats(requests, repeats), client,
                      checkpoint=checkpoint, max_concurrency=concurrency,
                      max_tokens=max_tokens, progress=progress, stop=stop, on_turn=on_turn,
                      sampling=sampling, executor=executor, price=price)
    return BFCLArmResult(turns=turns, cells=bfcl_arm_table(turns),
                         model=getattr(client, "model", ""))


def recorded_bfcl_arm(**options: Any) -> BFCLArmResult:
    """Replay the committed BFCL arm of the local model, offline: :data:`RECORDED_BFCL_DRAW` in
    :data:`RECORDED_BFCL_CELL` at :data:`RECORDED_BFCL_MAX_TOKENS`.

    Parameters
    ----------
    **options
        Passed to :func:`bfcl_arm` (``on_turn``, ``checkpoint``...).

    Returns
    -------
    BFCLArmResult

    Raises
    ------
    CassetteMissError
        When a prompt differs from the recording.
    """
    options.setdefault("max_tokens", RECORDED_BFCL_MAX_TOKENS)
    return bfcl_arm(bfcl_arm_requests(), recorded_bfcl_client(), **options)


def bfcl_arm_table(turns: pd.DataFrame) -> pd.DataFrame:
    """Accuracy per cell, BFCL category and grading rule (:data:`BFCL_ARM_COLUMNS`).

    Parameters
    ----------
    turns : pandas.DataFrame
        Turn rows (``BFCLArmResult.turns``, ``ABResult.turns`` or ``run_cells``).

    Returns
    -------
    pandas.DataFrame
        One row per (cell, category, rule): graded turns ``n``, failed turns ``n_errors``,
        accuracy and its Wilson interval in percent.
    """
    turns = upgrade_columns(turns, "turns")
    summary = summarize_verdicts(verdicts_frame(turns, GRADINGS), by=("cell", "category"))
    frame = summary[[c[0] for c in BFCL_ARM_COLUMNS]].reset_index(drop=True)
    return frame.astype({name: dtype for name, dtype, _, _ in BFCL_ARM_COLUMNS})


def grading_disagreements(turns: pd.DataFrame,
                          requests: Sequence[Request] | Mapping[str, Request]) -> pd.DataFrame:
    """The turns where the study's main rule and BFCL's possible answers part ways, with reasons.

    A turn is kept when its ``correct_main`` and ``correct_possible_answers`` columns differ.
    Its reply is parsed again (``parse_reply``, the turn's protocol, the request's toolset) and
    graded by both graders to give each one's reason.

    Parameters
    ----------
    turns : pandas.DataFrame
        Turn rows (``BFCLArmResult.turns`` or ``run_cells``; ``toolform.runs.TURN_COLUMNS``).
    requests : sequence of Request, or mapping of str to Request
        The requests the turns answered (a sequence is keyed by ``Request.id``); each kept turn's
        ``request_id`` must be among them.

    Returns
    -------
    pandas.DataFrame
        Shape ``(k, 8)``: one row per disagreeing turn, ``k`` of them, in the turns' order;
        columns :data:`DISAGREEMENT_COLUMNS`. Empty (with those columns) when the graders agree
        on every turn.

    Raises
    ------
    GradingError
        When a kept turn's request is not in ``requests``, or when grading its reply again does
        not give the turn's recorded verdicts (turns recorded before a parser change, or turns
        of the ``native`` protocol, whose tool calls are not in the reply text).
    """
    by_id = dict(requests) if isinstance(requests, Mapping) else {r.id: r for r in requests}
    kept = turns[turns["correct_main"].astype(bool)
                 != turns["correct_possible_answers"].astype(bool)]
    rows = []
    for turn in kept.itertuples(index=False):
        request = by_id.get(turn.request_id)
        if request is None:
            raise GradingError(f"turn {turn.request_id!r} (cell {turn.cell}) has no request in "
                               f"`requests`; pass the requests the turns answered")
        parsed = parse_reply(turn.reply, request.toolset, turn.protocol_id)
        main = grade(parsed, request.gold, request.toolset, "main")
        bfcl = grade_possible_answers(parsed, request.gold, request.toolset)
        if (main.correct, bfcl.correct) != (bool(turn.correct_main),
                                            bool(turn.correct_possible_answers)):
            raise GradingError(
                f"turn {turn.request_id!r} (cell {turn.cell}): its reply grades main="
                f"{main.correct}, possible_answers={bfcl.correct} now, but the turn says "
                f"{bool(turn.correct_main)}, {bool(turn.correct_possible_answers)}; grade the "
                f"turns again with the current parser")
        rows.append({"request_id": turn.request_id, "cell": turn.cell,
                     "category": turn.category, "reply": turn.reply,
                     "correct_main": main.correct, "reason_main": main.reason,
                     "correct_possible_answers": bfcl.correct,
                     "reason_possible_answers": bfcl.reason})
    frame = pd.DataFrame(rows, columns=[c[0] for c in DISAGREEMENT_COLUMNS])
    return frame.astype({name: dtype for name, dtype, _, _ in DISAGREEMENT_COLUMNS})
