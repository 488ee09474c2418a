"""The tool-count sweep: each request answered in catalogues of growing size, per strategy.

:func:`count_sweep` shows each request inside the generator's nested decoy catalogues (1 … 256
tools), in each cell (format × protocol), under each strategy: the whole block (``one_shot``),
the ``k`` best tools by BM25 or an embedding (``retrieve``), names first then the chosen schema
(``two_stage``, names or names with descriptions). It returns a :class:`SweepResult`: one row per
turn, and :func:`summarize_sweep`'s accuracy, empty turns, tokens and cost per cell, strategy and
size. A turn here may be two model calls (two-stage), so the sweep runs its own loop rather than
the runner's; it keeps the runner's checkpoint, resume and ``on_turn`` contract.

Runs replay from cassettes: wrap the client in :class:`~toolform.clients.ReplayClient` and a
second run asks the model nothing (``mode="replay"`` makes a missing recording an error).
"""

from __future__ import annotations

import json
import math
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

import pandas as pd

from .._deprecated import renamed_keywords
from ..catalogue._retrieve import METHODS, Retriever
from ..catalogue._two_stage import SELECTION_MAX_TOKENS, TwoStage
from ..columns import upgrade_columns
from ..cost import Price, cost_of, get_price
from ..errors import CassetteMissError, ClientError, InvalidParameterError
from ..formats import get_format, render
from ..generator import decoy_catalogue
from ..grading import grade_rules, grading_version, select_calls
from ..ir import Request, Toolset
from ..journal import JournalWriter
from ..protocols import parse_reply
from ..repeats import Sampling, expand_repeats, repeat_index
from ..runs import Cell, summarize_verdicts, verdicts_frame
from ..tokens import estimate_tokens
from ._result import (DEFAULT_CONCURRENCY, DEFAULT_MAX_TOKENS, ExperimentResult, OnTurn,
                      as_cells, check_call, typed_frame)

__all__ = [
    "DEFAULT_STRATEGIES",
    "RECORDED_SWEEP_CASSETTE",
    "RECORDED_SWEEP_CONTEXT_TOKENS",
    "RECORDED_SWEEP_MAX_TOKENS",
    "RECORDED_SWEEP_SIZES",
    "RECORDED_SWEEP_STRATEGIES",
    "SWEEP_SUMMARY_COLUMNS",
    "SWEEP_CELLS",
    "SWEEP_COLUMNS",
    "SWEEP_SIZES",
    "Strategy",
    "SweepResult",
    "count_sweep",
    "make_strategies",
    "recorded_sweep",
    "recorded_sweep_requests",
    "summarize_sweep",
]

#: The study's catalogue sizes (tools), doubling from 1 to 256.
SWEEP_SIZES = (1, 2, 4, 8, 16, 32, 64, 128, 256)

_KINDS = ("one_shot", "retrieve", "two_stage")


@dataclass(frozen=True)
class Strategy:
    """One way of showing a catalogue in a sweep.

    Parameters
    ----------
    kind : {"one_shot", "retrieve", "two_stage"}
    method : {"bm25", "embed"}, optional
        The retriever (``retrieve`` only).
    k : int, optional
        Tools a retrieval keeps (``retrieve`` only).
    include_descriptions : bool, default True
        Stage one lists descriptions too (``two_stage`` only).

    Raises
    ------
    ValueError
        When the fields do not fit the kind.
    """

    kind: str
    method: str | None = None
    k: int | None = None
    include_descriptions: bool = True

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise InvalidParameterError(f"kind must be one of {_KINDS}, got {self.kind!r}")
        if self.kind == "retrieve":
            if self.method not in METHODS:
                raise InvalidParameterError(f"a retrieve strategy needs method in {METHODS}, got "
                                            f"{self.method!r}")
            if isinstance(self.k, bool) or not isinstance(self.k, int) or self.k < 1:
                raise InvalidParameterError(f"a retrieve strategy needs k >= 1, got {self.k!r}")
        elif self.method is not None or self.k is not None:
            raise InvalidParameterError(
                f"method and k apply to retrieve strategies only, not {self.kind!r}")

    @property
    def id(self) -> str:
        """The strategy's name in tables: ``one_shot``, ``bm25_k8``, ``embed_k4``,
        ``two_stage_names`` or ``two_stage_names_desc``."""
        if self.kind == "retrieve":
            return f"{self.method}_k{self.k}"
        if self.kind == "two_stage":
            return "two_stage_names_desc" if self.include_descriptions else "two_stage_names"
        return "one_shot"


def make_strategies(*, ks: Sequence[int] = (4, 8), methods: Sequence[str] = METHODS,
                    two_stage: bool = True) -> tuple[Strategy, ...]:
    """``one_shot``, a retrieval per method and ``k``, and both two-stage arms.

    Parameters
    ----------
    ks : sequence of int, default (4, 8)
        Retrieval sizes.
    methods : sequence of str, default ("bm25", "embed")
    two_stage : bool, default True
        Add ``two_stage_names`` and ``two_stage_names_desc``.

    Returns
    -------
    tuple of Strategy
    """
    out = [Strategy("one_shot")]
    out += [Strategy("retrieve", m, k) for m in methods for k in ks]
    if two_stage:
        out += [Strategy("two_stage", include_descriptions=False), Strategy("two_stage")]
    return tuple(out)


#: The sweep's default strategies: one shot; BM25 and embedding retrieval of 4 and 8 tools;
#: names and names-with-descriptions two-stage.
DEFAULT_STRATEGIES = make_strategies()
#: The strategies of the committed recording: one shot, BM25 top 4, both two-stage arms.
RECORDED_SWEEP_STRATEGIES = (Strategy("one_shot"), Strategy("retrieve", "bm25", 4),
                             Strategy("two_stage", include_descriptions=False),
                             Strategy("two_stage"))

#: The sweep's default cell: the study's sweep format with its default protocol.
SWEEP_CELLS: tuple[Cell, ...] = (Cell("xml_schema"),)
#: The committed sweep recording of the local model (``datasets/cassettes/``).
RECORDED_SWEEP_CASSETTE = "cassettes/catalogue_sweep_qwen2.5-coder-0.5b-instruct.jsonl"
#: Its completion budget, in tokens (part of each reply's key).
RECORDED_SWEEP_MAX_TOKENS = 256
#: Its catalogue sizes, in tools.
RECORDED_SWEEP_SIZES = (1, 4, 16, 64)
#: Its context window, in tokens (``context_tokens``).
RECORDED_SWEEP_CONTEXT_TOKENS = 8192

#: Declared columns of a sweep turn: (name, dtype, unit, meaning).
SWEEP_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("cell", "string", "", "format_id/protocol_id"),
    ("model", "string", "", "model id as the client reports it"),
    ("strategy", "string", "", "strategy id (one_shot, bm25_k8, two_stage_names_desc ...)"),
    ("kind", "string", "", "one_shot, retrieve or two_stage"),
    ("format_id", "string", "", "format of the schemas shown"),
    ("protocol_id", "string", "", "protocol the call was asked in"),
    ("n_tools", "int64", "tools", "tools in the catalogue"),
    ("request_id", "string", "", "request id"),
    ("category", "string", "", "request category"),
    ("gold_names", "object", "", "the gold tools (list of names)"),
    ("shown_tools", "int64", "tools", "tools whose schema the call prompt showed"),
    ("gold_shown", "boolean", "", "every gold tool's schema was shown (retrieval hit, right "
                                  "selection, always for one_shot)"),
    ("selected", "string", "", "the tool stage one chose (two_stage; empty otherwise)"),
    ("selection_failed", "boolean", "", "stage one named no catalogue tool (two_stage)"),
    ("reply", "string", "", "the call prompt's reply"),
    ("calls", "object", "", "parsed calls under the main rule (list of call dicts)"),
    ("n_calls", "int64", "calls", "number of parsed calls"),
    ("correct_main", "boolean", "", "correct under the main rule"),
    ("correct_symmetric", "boolean", "", "correct under the symmetric rule"),
    ("tool_correct", "boolean", "", "the right tools were called"),
    ("no_call", "boolean", "", "no call was read from the reply"),
    ("empty", "boolean", "", "no call and no text: the turn returned nothing"),
    ("over_context", "boolean", "", "the prompt did not fit the context window; not sent"),
    ("schema_tokens", "int64", "tokens", "tool text shown over all stages (characters / 4)"),
    ("prompt_tokens", "int64", "tokens", "prompt tokens over all stages (server count, else "
                                         "characters / 4)"),
    ("completion_tokens", "int64", "tokens", "reply tokens over all stages (server count, else "
                                             "characters / 4)"),
    ("model_calls", "int64", "calls", "requests sent to the model for this turn"),
    ("cost_usd", "float64", "US dollars", "prompt and reply tokens at the chosen price setting"),
    ("latency_s", "float64", "seconds", "model time over all stages"),
    ("error", "string", "", "model server error, else empty"),
    ("grading_version", "string", "",
     "stamp of the parser and grader code that gave the verdicts (toolform.grading."
     "grading_version); a resumed sweep re-grades a turn whose stamp differs"),
)

#: Declared columns of :func:`summarize_sweep`: (name, dtype, unit, meaning).
SWEEP_SUMMARY_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("cell", "string", "", "format_id/protocol_id"),
    ("strategy", "string", "", "strategy id"),
    ("kind", "string", "", "one_shot, retrieve or two_stage"),
    ("n_tools", "int64", "tools", "tools in the catalogue"),
    ("n", "int64", "turns", "turns graded (server errors left out; over-context turns kept)"),
    ("n_errors", "int64", "turns", "turns lost to a server error"),
    ("accuracy", "float64", "percent", "correct under the main rule"),
    ("ci_low", "float64", "percent", "Wilson 95% interval, lower bound"),
    ("ci_high", "float64", "percent", "Wilson 95% interval, upper bound"),
    ("empty", "float64", "percent", "turns that returned nothing (over-context turns included)"),
    ("no_call", "float64", "percent", "turns with no call read"),
    ("over_context", "float64", "percent", "turns whose prompt did not fit the context"),
    ("gold_shown", "float64", "percent", "turns whose call prompt showed the gold tool"),
    ("selection_failed", "float64", "percent", "two-stage turns whose stage one named no tool"),
    ("schema_tokens", "float64", "tokens", "mean tool text shown per turn"),
    ("prompt_tokens", "float64", "tokens", "mean prompt tokens per turn"),
    ("completion_tokens", "float64", "tokens", "mean reply tokens per turn"),
    ("cost_usd_per_1k", "float64", "US dollars", "cost of 1,000 turns"),
)

def _message_tokens(messages: list[dict[str, Any]]) -> int:
    return sum(estimate_tokens(str(m.get("content") or "")) for m in messages)


@dataclass
class _Turn:
    """What one turn's prompts and replies add up to, stage by stage."""

    schema_tokens: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model_calls: int = 0
    latency_s: float = 0.0

    def add(self, messages: list[dict[str, Any]], completion: Any) -> None:
        self.model_calls += 1
        self.prompt_tokens += (completion.prompt_tokens if completion.prompt_tokens is not None
                               else _message_tokens(messages))
        self.completion_tokens += (completion.completion_tokens
                                   if completion.completion_tokens is not None
                                   else estimate_tokens(completion.text))
        self.latency_s += completion.latency_s


def gold_names(request: Request) -> list[str]:
    """The request's gold tools, each once, in gold-call order."""
    return list(dict.fromkeys(g.name for g in request.gold))


class _Runner:
    """One sweep's settings; ``turn`` answers one (request, size, strategy)."""

    def __init__(self, client: Any, format_id: str, protocol_id: str | None, seed: int,
                 context_tokens: int | None, max_tokens: int, price: Price,
                 sampling: Sampling) -> None:
        self.client = client
        self.sampling = sampling
        self.format_id = get_format(format_id).id
        self.protocol_id = protocol_id or get_format(format_id).default_protocol
        self.cell = f"{self.format_id}/{self.protocol_id}"
        self.seed = seed
        self.context_tokens = context_tokens
        self.max_tokens = max_tokens
        self.price = price

    def complete(self, request: Request, messages: list[dict[str, Any]], **options: Any) -> Any:
        """Ask the client, with the sampling and this request's repeat seed (``Sampling``)."""
        temperature, body = self.sampling.turn_options(repeat_index(request.id))
        if body:  # only then, so clients without ``extra_body`` keep working
            options["extra_body"] = body
        return self.client.complete(messages, temperature=temperature, **options)

    def catalogue(self, request: Request, n_tools: int) -> Toolset:
        return decoy_catalogue(n_tools, self.seed, target=gold_names(request))

    def fits(self, messages: list[dict[str, Any]], reply_tokens: int) -> bool:
        return (self.context_tokens is None
                or _message_tokens(messages) + reply_tokens <= self.context_tokens)

    def turn(self, request: Request, n_tools: int, strategy: Strategy) -> dict[str, Any]:
        catalogue = self.catalogue(request, n_tools)
        gold = gold_names(request)
        row: dict[str, Any] = {
            "cell": self.cell,
            "model": getattr(self.client, "model", ""), "strategy": strategy.id,
            "kind": strategy.kind, "format_id": self.format_id, "protocol_id": self.protocol_id,
            "n_tools": n_tools, "request_id": request.id, "category": request.category,
            "gold_names": gold, "selected": None, "selection_failed": False, "reply": "",
            "error": None, "over_context": False,
        }
        acc = _Turn()
        try:
            if strategy.kind == "two_stage":
                reply, shown = self._two_stage(request, catalogue, strategy, row, acc)
            else:
                reply, shown = self._one_prompt(request, catalogue, strategy, row, acc)
        except CassetteMissError:
            raise  # a replay that lacks a recording is a setup error, not a failed turn
        except ClientError as exc:
            reply, shown = None, row.get("shown_tools", 0)
            row["error"] = f"{type(exc).__name__}: {exc}"
        row["shown_tools"] = shown
        row.update(
            reply=reply or "",
            schema_tokens=acc.schema_tokens, prompt_tokens=acc.prompt_tokens,
            completion_tokens=acc.completion_tokens, model_calls=acc.model_calls,
            cost_usd=cost_of(acc.prompt_tokens, acc.completion_tokens, price=self.price,
                             cached_tokens=acc.schema_tokens if self.price.schema_cached else 0),
            latency_s=acc.latency_s,
        )
        row.setdefault("gold_shown", False)
        return self.graded(row, request, catalogue)

    def graded(self, row: dict[str, Any], request: Request,
               catalogue: Toolset | None = None) -> dict[str, Any]:
        """``row`` with the verdict columns of its reply, read and graded by the current code
        (a fresh turn and a stale one resumed from a checkpoint go through it alike)."""
        if catalogue is None:
            catalogue = self.catalogue(request, int(row["n_tools"]))
        reply = row["reply"]
        parsed = parse_reply(reply, catalogue, self.protocol_id)
        verdicts = grade_rules(parsed, request.gold, catalogue)  # each distinct selection once
        main = verdicts["main"]
        calls = select_calls(parsed, "main", nearest=True)  # as read: nearest names resolved
        return {**row, "calls": [c.to_dict() for c in calls], "n_calls": len(calls),
                "correct_main": main.correct, "correct_symmetric": verdicts["symmetric"].correct,
                "tool_correct": main.tool_correct, "no_call": not calls,
                "empty": not calls and not reply.strip(), "grading_version": grading_version()}

    def _one_prompt(self, request: Request, catalogue: Toolset, strategy: Strategy,
                    row: dict[str, Any], acc: _Turn) -> tuple[str | None, int]:
        shown = catalogue
        if strategy.kind == "retrieve":
            shown = Retriever(catalogue, strategy.method).search(request.text, k=strategy.k).toolset
        row["gold_shown"] = all(g in shown for g in row["gold_names"])
        row["shown_tools"] = len(shown)
        prompt = render(shown, self.format_id, self.protocol_id, request.text)
        acc.schema_tokens += prompt.schema_tokens
        if not self.fits(prompt.messages, self.max_tokens):
            row["over_context"] = True
            return None, len(shown)
        completion = self.complete(request, prompt.messages, max_tokens=self.max_tokens,
                                   tools=prompt.api_tools)
        acc.add(prompt.messages, completion)
        return completion.text, len(shown)

    def _two_stage(self, request: Request, catalogue: Toolset, strategy: Strategy,
                   row: dict[str, Any], acc: _Turn) -> tuple[str | None, int]:
        # The committed sweep cassette was recorded with the ask in the system message; moving
        # to the study's placement (the TwoStage default) needs a re-recording.
        stages = TwoStage(catalogue, strategy.include_descriptions, format_id=self.format_id,
                          protocol_id=self.protocol_id, ask_placement="system")
        messages = stages.selection_messages(request)
        acc.schema_tokens += estimate_tokens(stages.stage_one_block)
        if not self.fits(messages, SELECTION_MAX_TOKENS):
            row["over_context"] = True
            return None, 0
        first = self.complete(request, messages, max_tokens=SELECTION_MAX_TOKENS)
        acc.add(messages, first)
        selection = stages.read_selection(first.text)
        row["selected"] = selection.name
        row["selection_failed"] = selection.failed
        row["gold_shown"] = selection.name in row["gold_names"]
        if selection.failed:
            return None, 0
        prompt = stages.call_prompt(request, selection.name)
        acc.schema_tokens += prompt.schema_tokens
        if not self.fits(prompt.messages, self.max_tokens):
            row["over_context"] = True
            return None, 1
        second = self.complete(request, prompt.messages, max_tokens=self.max_tokens,
                               tools=prompt.api_tools)
        acc.add(prompt.messages, second)
        return second.text, 1


@dataclass(frozen=True)
class SweepResult(ExperimentResult):
    """What :func:`count_sweep` returns (an :class:`~toolform.experiments.ExperimentResult`).

    Attributes
    ----------
    turns : pandas.DataFrame
        One row per (cell, request, size, strategy), columns :data:`SWEEP_COLUMNS`.
    cells : pandas.DataFrame
        :func:`summarize_sweep`: one row per (cell, strategy, size), columns
        :data:`SWEEP_SUMMARY_COLUMNS`; shares in percent.
    model : str
        The model measured.
    """

    def table(self) -> pd.DataFrame:
        """Accuracy (percent) by catalogue size (rows) and strategy (columns; cell and strategy
        when the sweep ran more than one cell), rounded to one decimal."""
        columns = ["cell", "strategy"] if self.cells["cell"].nunique() > 1 else "strategy"
        return self.cells.pivot_table(index="n_tools", columns=columns, values="accuracy",
                                      sort=False).round(1)

    def chart(self) -> Any:
        """Altair chart: accuracy by catalogue size, one line per strategy
        (``toolform.charts.count_sweep_chart``)."""
        from ..charts import count_sweep_chart

        return count_sweep_chart(self.cells)


def _sweep_key(row: dict[str, Any]) -> tuple[str, str, int, str]:
    return (str(row["cell"]), str(row["strategy"]), int(row["n_tools"]), str(row["request_id"]))


def _read_sweep_checkpoint(path: Path) -> dict[tuple[str, str, int, str], dict[str, Any]]:
    """The finished sweep turns in a checkpoint (a later row replaces an earlier one; old
    column names read as the current ones, ``toolform.columns``); the journal writer has
    already set a torn last line aside."""
    rows: dict[tuple[str, str, int, str], dict[str, Any]] = {}
    if not path.exists():
        return rows
    for number, line in enumerate(path.read_bytes().split(b"\n"), start=1):
        if line.strip():
            try:
                row = upgrade_columns(json.loads(line), "sweep_turns")
                rows[_sweep_key(row)] = row
            except (ValueError, KeyError, TypeError) as exc:
                raise InvalidParameterError(
                    f"sweep checkpoint {path}, line {number}: not a sweep turn row "
                    f"({type(exc).__name__}: {exc})") from exc
    return rows


def _cells_from_format(old: dict[str, Any]) -> list[tuple[str, str | None]]:
    """``cells`` from the old ``format_id=``/``protocol_id=`` keywords: one cell (the old
    default format, ``xml_schema``, when only ``protocol_id=`` was given)."""
    return [(old.get("format_id", "xml_schema"), old.get("protocol_id"))]


@renamed_keywords({"format_id": "cells", "protocol_id": "cells",
                   "max_concurrency": "concurrency", "price_setting": "price"},
                  {"cells": _cells_from_format})
def count_sweep(requests: Iterable[Request], client: Any, *,
                cells: Sequence[Any] = SWEEP_CELLS,
                checkpoint: str | os.PathLike[str] | None = None, on_turn: OnTurn | None = None,
                max_tokens: int = DEFAULT_MAX_TOKENS, concurrency: int = DEFAULT_CONCURRENCY,
                progress: bool = False, stop: threading.Event | None = None, repeats: int = 1,
                seed: int = 0, sizes: Sequence[int] = SWEEP_SIZES,
                strategies: Sequence[Strategy] = DEFAULT_STRATEGIES,
                context_tokens: int | None = None,
                price: Price | str = "frontier_api",
                sampling: Sampling | None = None) -> SweepResult:
    """Answer each request in catalogues of each size, in each cell, under each strategy.

    Parameters
    ----------
    requests : iterable of Request
        Requests whose gold tools are generated tools (``generated_tasks()``,
        ``load_dataset("generated/tasks")``); each is shown inside
        ``decoy_catalogue(size, seed, target=<gold tools>)`` instead of its own toolset.
    client : ChatClient
        The model (a :class:`~toolform.clients.ReplayClient` to record or replay).
    cells : sequence of Cell, str or (str, str), default :data:`SWEEP_CELLS`
        The formats (and protocols) every schema is shown in, as
        :func:`~toolform.experiments.ab_test` takes them. Default: ``xml_schema``.
    checkpoint : path, optional
        JSONL file every finished turn is appended to (the runner's durability policy,
        :mod:`toolform.journal`); a rerun asks only the turns not finished (a turn that ended
        in a server error is asked again).
    on_turn : callable, optional
        Called with each finished turn's row (:data:`SWEEP_COLUMNS`), from the calling thread,
        once per turn of the result: the checkpoint's turns first, then each new one in
        (cell, request, size, strategy) order.
    max_tokens : int, default :data:`DEFAULT_MAX_TOKENS`
        The call prompt's reply cap (a selection call's is 48; the recording's
        :data:`RECORDED_SWEEP_MAX_TOKENS`).
    concurrency : int, default :data:`DEFAULT_CONCURRENCY`
        Turns in flight at once.
    progress : bool, default False
        Show a tqdm bar.
    stop : threading.Event, optional
        When set, no new turn starts; the result holds the turns finished (resume by running
        again on the checkpoint).
    repeats : int, default 1
        Times each request is asked (at every size and strategy;
        ``toolform.repeats.expand_repeats``: repeat ``i`` has the id ``<id>#repeat<i>``;
        ``toolform.repeats.repeat_summary`` reads pass@k, pass^k and the flip rate off the
        turns).
    seed : int, default 0
        The decoy catalogues' seed.
    sizes : sequence of int, default 1, 2, 4 … 256
        Catalogue sizes, in tools.
    strategies : sequence of Strategy, default :data:`DEFAULT_STRATEGIES`
    context_tokens : int, optional
        The model's context window in tokens: a prompt whose characters / 4 plus its reply cap
        exceed it is not sent and counts as an empty turn (``over_context``), as a server
        would refuse it.
    price : toolform.cost.Price or str, default "frontier_api"
        The price vector of ``cost_usd``, as the runner takes it (``toolform.cost``: the
        study's ``frontier_api`` or ``self_hosted``, from evidence table ``cost_prices``, or a
        ``Price``); a vector that caches the tool block prices the schema tokens as cached
        input. ``price_setting=`` is its old spelling, read one release with a warning.
    sampling : toolform.repeats.Sampling, optional
        Temperature, ``top_p``, body fields and the base seed of every ask (both stages of a
        two-stage turn); repeat ``i`` is asked with seed ``base + i`` (default: temperature 0).

    The old spellings ``format_id=`` and ``protocol_id=`` (of ``cells=``: one cell) and
    ``max_concurrency=`` (of ``concurrency=``) are read one release, with a
    ``DeprecationWarning``.

    Returns
    -------
    SweepResult
        ``turns``: one row per (cell, request, size, strategy) in that order; a server failure
        is a row with ``error`` set.

    Raises
    ------
    InvalidParameterError
        When a request's gold tool is not a generated tool, a size is out of range, the price
        setting is unknown, ``cells`` is empty, or the client comes before the requests.
    CassetteMissError
        When a replay-only client has no recording of a request (other client failures are
        rows with ``error`` set).
    """
    check_call(requests, client, "count_sweep", max_tokens=max_tokens,
               concurrency=concurrency, repeats=repeats)
    price = get_price(price)
    runners = [_Runner(client, cell.format_id, cell.protocol_id, seed, context_tokens,
                       max_tokens, price, sampling if sampling is not None else Sampling())
               for cell in as_cells(cells)]
    requests = expand_repeats(list(requests), repeats)
    jobs = [(runner, r, n, s) for runner in runners for r in requests for n in sizes
            for s in strategies]
    for request in requests:  # fail on a bad request or size before asking the model anything
        for n in sizes:
            runners[0].catalogue(request, n)
    writer = JournalWriter(checkpoint) if checkpoint is not None else None
    try:
        done = _read_sweep_checkpoint(Path(checkpoint)) if checkpoint is not None else {}
        keys = [(runner.cell, s.id, n, r.id) for runner, r, n, s in jobs]
        kept = {k: done[k] for k in keys if k in done and not done[k].get("error")}
        for (runner, request, _, _), k in zip(jobs, keys):
            if k in kept and kept[k].get("grading_version") != grading_version():
                # graded by other code: read and graded again from its reply, no model asked
                kept[k] = runner.graded(kept[k], request)
                if writer is not None:
                    writer.append(kept[k])
        todo = [job for job, k in zip(jobs, keys) if k not in kept]
        if on_turn is not None:
            for k in keys:
                if k in kept:
                    on_turn(kept[k])
        bar = None
        if progress:
            from tqdm.auto import tqdm

            bar = tqdm(total=len(jobs), initial=len(jobs) - len(todo), desc="count sweep")

        def answer(job: tuple[Any, ...]) -> dict[str, Any] | None:
            if stop is not None and stop.is_set():
                return None  # stopped: this turn is not started
            runner, request, n_tools, strategy = job
            return runner.turn(request, n_tools, strategy)

        fresh: dict[tuple[str, str, int, str], dict[str, Any]] = {}
        with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
            for row in pool.map(answer, todo):
                if row is None:
                    continue
                if writer is not None:
                    writer.append(row)
                fresh[_sweep_key(row)] = row
                if bar is not None:
                    bar.update(1)
                if on_turn is not None:
                    on_turn(row)
        if bar is not None:
            bar.close()
    finally:
        if writer is not None:
            writer.close()
    rows = [kept.get(k) or fresh[k] for k in keys if k in kept or k in fresh]
    turns = typed_frame(rows, SWEEP_COLUMNS)
    return SweepResult(turns=turns, cells=summarize_sweep(turns),
                       model=getattr(client, "model", ""))


def summarize_sweep(turns: pd.DataFrame) -> pd.DataFrame:
    """Accuracy, empty turns, tokens and cost per cell, strategy and catalogue size.

    Parameters
    ----------
    turns : pandas.DataFrame
        ``SweepResult.turns``.

    Returns
    -------
    pandas.DataFrame
        One row per (cell, strategy, n_tools), columns :data:`SWEEP_SUMMARY_COLUMNS`; shares in
        percent, token means per turn, cost per 1,000 turns in US dollars. Turns with a server
        error are left out of every mean and counted in ``n_errors``; accuracy and its Wilson
        interval come from ``toolform.runs.summarize_verdicts``.
    """
    turns = upgrade_columns(turns, "sweep_turns")
    keys = ["cell", "strategy", "n_tools"]
    # n, n_errors, accuracy and its interval: the runner's one summary of verdicts
    verdicts = summarize_verdicts(verdicts_frame(turns, ("main",), keep=keys[1:]),
                                  by=keys).set_index(keys)
    rows = []
    for (cell, strategy, n_tools), group in turns.groupby(keys, sort=False):
        graded = group[group["error"].isna()]
        n = len(graded)
        summary = verdicts.loc[(cell, strategy, n_tools)]

        def share(column: str, frame: pd.DataFrame = graded) -> float:
            return 100 * float(frame[column].mean()) if len(frame) else math.nan

        staged = graded[graded["kind"] == "two_stage"]
        rows.append({
            "cell": cell, "strategy": strategy, "kind": group["kind"].iloc[0], "n_tools": n_tools,
            "n": int(summary["n"]), "n_errors": int(summary["n_errors"]),
            "accuracy": summary["accuracy"], "ci_low": summary["ci_low"],
            "ci_high": summary["ci_high"], "empty": share("empty"), "no_call": share("no_call"),
            "over_context": share("over_context"), "gold_shown": share("gold_shown"),
            "selection_failed": share("selection_failed", staged) if len(staged) else math.nan,
            "schema_tokens": float(graded["schema_tokens"].mean()) if n else math.nan,
            "prompt_tokens": float(graded["prompt_tokens"].mean()) if n else math.nan,
            "completion_tokens": float(graded["completion_tokens"].mean()) if n else math.nan,
            "cost_usd_per_1k": 1000 * float(graded["cost_usd"].mean()) if n else math.nan,
        })
    return typed_frame(rows, SWEEP_SUMMARY_COLUMNS)


def recorded_sweep_requests() -> list[Request]:
    """The committed sweep's requests: four generated tier-1 and tier-2 tasks in clear style,
    drawn with seed 0."""
    from ..generator import generated_tasks
    from ..recordings import select_requests

    return select_requests(generated_tasks(tiers=(1, 2), styles=("clear",)), 4, seed=0)


def recorded_sweep(**options: Any) -> SweepResult:
    """Replay the committed count sweep of the local model, offline (an illustration).

    :func:`recorded_sweep_requests` in ``xml_schema`` catalogues of
    :data:`RECORDED_SWEEP_SIZES` tools under :data:`RECORDED_SWEEP_STRATEGIES`, in a
    :data:`RECORDED_SWEEP_CONTEXT_TOKENS`-token context, at :data:`RECORDED_SWEEP_MAX_TOKENS`.

    Parameters
    ----------
    **options
        Passed to :func:`count_sweep` (``on_turn``, ``checkpoint``, ``concurrency``...).

    Returns
    -------
    SweepResult

    Raises
    ------
    CassetteMissError
        When a prompt differs from the recording.
    """
    from ..clients import ReplayClient
    from ..datasets import data_path
    from ..recordings import LOCAL_MODEL_ID

    client = ReplayClient(data_path(RECORDED_SWEEP_CASSETTE), mode="replay", model=LOCAL_MODEL_ID)
    settings = {"sizes": RECORDED_SWEEP_SIZES, "strategies": RECORDED_SWEEP_STRATEGIES,
                "context_tokens": RECORDED_SWEEP_CONTEXT_TOKENS,
                "max_tokens": RECORDED_SWEEP_MAX_TOKENS}
    return count_sweep(recorded_sweep_requests(), client, **{**settings, **options})
