"""Runs: cells × requests against a model, one tidy row per turn, checkpointed and resumable.

A *cell* is one (format, protocol, model) condition; a *turn* is one request answered in one
cell. ``run_cells`` plans the run (``toolform.plan``: every turn's request and cassette key, each
tool block rendered once), has an executor send it (``toolform.executors``: local threads by
default, Ray, or a batch file), parses each reply, grades it under every rule, and appends the
finished turn to a JSONL checkpoint before it is counted, so a crash loses at most the turns in
flight (the durability policy is :mod:`toolform.journal`'s). Running again with the same checkpoint skips every turn
already finished and retries the ones that ended in an error (their new row replaces the old).
A model server that fails after its retries gives a row with ``error`` set, never an exception.

Every fresh row carries a cost ledger: ``prompt_tokens`` and ``completion_tokens`` (the server's
usage, or estimates flagged by ``tokens_estimated``), and ``cost_usd`` under a price vector.

Every row carries ``grading_version`` (``toolform.grading.grading_version()``, a stamp of the
parser and grader code) and the reply as the server sent it (``reply``, ``reply_tool_calls``).
On resume, a finished turn whose stamp differs from the running code's, or whose stored gold
calls differ from its request's, is re-graded from its stored reply, without asking the model
again, and the new row is appended. A row written before ``reply_tool_calls`` was kept can be
re-graded when its protocol reads text (tools went to the server's API only for ``native``);
an old ``native`` row cannot, keeps its verdicts and old stamp, and the run warns
(``StaleVerdictWarning``).
"""

from __future__ import annotations

import json
import os
import threading
import warnings
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import pandas as pd

from ._deprecated import renamed_keywords
from .columns import upgrade_columns
from .cost import Price, cost_of, get_price
from .errors import DatasetError, InvalidParameterError, StaleVerdictWarning
from .executors import Executor, LocalExecutor, Outcome, get_executor
from .executors._base import recording
from .formats import get_format
from .grading import GRADINGS, RULES, check_rule, grade_gradings, grading_version, select_calls
from .ir import Request
from .journal import JournalWriter, torn_side_file
from .plan import PlannedTurn, plan_run
from .protocols import parse_reply
from .stats import wilson_interval
from .tokens import estimate_tokens
from .validation import Interval, check_parameters

__all__ = ["DEFAULT_CONCURRENCY", "DEFAULT_MAX_TOKENS", "SUMMARY_COLUMNS", "TURN_COLUMNS", "VERDICT_COLUMNS", "Cell", "read_checkpoint",
           "run_cells", "summarize_verdicts", "turns_frame", "verdicts_frame"]


@dataclass(frozen=True)
class Cell:
    """One experimental condition.

    Parameters
    ----------
    format_id : str
        The schema format the tools are shown in.
    protocol_id : str, optional
        The answer protocol asked for; None takes the format's default protocol.
    model : str
        The model id (filled from the client when empty).
    """

    format_id: str
    protocol_id: str | None = None
    model: str = ""

    def resolved(self, model: str) -> Cell:
        """This cell with its protocol and model filled in."""
        return Cell(self.format_id, self.protocol_id or get_format(self.format_id).default_protocol,
                    self.model or model)

    @property
    def label(self) -> str:
        """``format_id/protocol_id``: the cell's name in tables and charts."""
        return f"{self.format_id}/{self.protocol_id}"


#: Completion budget per turn, in tokens: the runner's default and every experiment's (the
#: committed recordings keep the budget they were recorded with, ``RECORDED_*_MAX_TOKENS``: the
#: budget is part of each cassette key).
DEFAULT_MAX_TOKENS = 256
#: Requests in flight at once: the runner's default and every experiment's.
DEFAULT_CONCURRENCY = 4

#: The declared columns of a turn row: (name, dtype, unit, meaning).
TURN_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("cell", "string", "", "format_id/protocol_id"),
    ("model", "string", "", "model id as the client reports it"),
    ("format_id", "string", "", "schema format the tools were shown in"),
    ("protocol_id", "string", "", "answer protocol the model was asked for"),
    ("request_id", "string", "", "request id within its dataset"),
    ("category", "string", "", "dataset category of the request"),
    ("n_tools", "int64", "tools", "tools shown in the prompt"),
    ("gold", "object", "", "gold calls (list of GoldCall dicts)"),
    ("reply", "string", "", "the model's reply text"),
    ("reply_tool_calls", "object", "",
     "native tool calls as the server sent them (OpenAI shape, arguments as JSON text), else None"),
    ("calls", "object", "", "parsed calls under the main rule (list of call dicts)"),
    ("n_calls", "int64", "calls", "number of parsed calls under the main rule"),
    ("parsed_strict", "boolean", "", "the asked protocol's own parser read a call"),
    ("parsed_lenient", "boolean", "", "some protocol read a call"),
    ("lenient_protocol", "string", "", "the protocol that read the reply leniently"),
    ("format_compliant", "boolean", "", "the reply kept to the asked protocol (or abstained)"),
    ("renested", "boolean", "", "a flat argument was re-nested under the main rule"),
    ("resolved_names", "object", "", "names resolved to a near twin: [given, resolved, how]"),
    ("issues", "object", "", "what the parser forgave or could not read"),
    ("verdicts", "object", "",
     "every rule's verdict: {rule: {correct, tool_correct, schema_valid, reason}} "
     "(toolform.grading.GRADINGS; {} for a failed turn); verdicts_frame makes it long"),
    ("correct_main", "boolean", "", "correct under the main rule"),
    ("correct_symmetric", "boolean", "", "correct under the symmetric rule"),
    ("correct_as_written", "boolean", "", "correct under the as-written rule"),
    ("correct_possible_answers", "boolean", "",
     "correct against possible answers, BFCL's way (toolform.grading.grade_possible_answers)"),
    ("correct_end_state", "boolean", "",
     "running the calls leaves the gold call's end state (tools with generator executors; else NA)"),
    ("tool_correct", "boolean", "", "the right tools were called (main rule's calls)"),
    ("schema_valid", "boolean", "",
     "every call (main rule) validates against its tool's schema; NA when a validator could not "
     "run, or the turn failed"),
    ("schema_issue", "string", "",
     "each schema problem as 'tool: path: problem', or why a validator could not run"),
    ("reason", "string", "", "why the main-rule verdict failed"),
    ("schema_tokens", "Int64", "tokens", "tool block, estimated as characters / 4"),
    ("prompt_tokens", "Int64", "tokens",
     "prompt tokens the server counted (an estimate when tokens_estimated)"),
    ("completion_tokens", "Int64", "tokens",
     "completion tokens the server counted (an estimate when tokens_estimated)"),
    ("latency_s", "float64", "seconds", "wall time of the model request"),
    ("error", "string", "", "why the turn failed (model server error), else empty"),
    ("error_kind", "string", "",
     "what failed (toolform.executors.ERROR_KINDS: status, timeout, connection, "
     "malformed_body, ...), else empty"),
    ("attempts", "Int64", "requests",
     "requests sent to the server for a failed turn (0: none), else NA"),
    ("grading_version", "string", "",
     "stamp of the parser and grader code that gave the verdicts "
     "(toolform.grading.grading_version)"),
    ("tokens_estimated", "boolean", "",
     "prompt_tokens and completion_tokens are estimates (characters / 4) because the server "
     "reported no usage; NA for rows older than the column or failed turns"),
    ("cost_usd", "float64", "US dollars",
     "cost of the turn under the run's price vector (toolform.cost; the study's vectors are "
     "relative prices labelled in dollars); NaN for failed turns"),
    ("price", "string", "", "name of the price vector of cost_usd"),
)

#: The declared columns of the long verdict frame (:func:`verdicts_frame`), one row per
#: (turn, rule): (name, dtype, unit, meaning). The wide ``correct_<rule>`` turn columns are a
#: derived view of ``correct``, kept one release for the CSVs and notebooks that read them.
VERDICT_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("cell", "string", "", "format_id/protocol_id"),
    ("model", "string", "", "model id"),
    ("format_id", "string", "", "schema format"),
    ("protocol_id", "string", "", "answer protocol"),
    ("request_id", "string", "", "request id within its dataset"),
    ("category", "string", "", "dataset category of the request"),
    ("repeat", "Int64", "", "which ask of the request (NA when the turns have no repeat column)"),
    ("rule", "string", "", "grading rule: one of toolform.grading.GRADINGS"),
    ("correct", "boolean", "", "the verdict; NA for a turn that failed (error set)"),
    ("tool_correct", "boolean", "",
     "the right tools were called under this rule; NA when the turn failed or the row "
     "predates per-rule verdicts"),
    ("schema_valid", "boolean", "",
     "the rule's calls validate against their schemas; NA when a validator could not run, "
     "the turn failed, or the row predates per-rule verdicts"),
    ("reason", "string", "",
     "why the verdict failed ('' when correct); NA when unknown (a failed turn, or a row "
     "predating per-rule verdicts for a rule other than main)"),
    ("error", "string", "", "why the turn failed, else NA"),
)

#: The declared columns of :func:`summarize_verdicts`: the grouping columns first, then these.
SUMMARY_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("rule", "string", "", "grading rule: one of toolform.grading.GRADINGS"),
    ("n", "int64", "turns", "graded turns (turns with a server error are left out)"),
    ("n_errors", "int64", "turns", "turns lost to a server error"),
    ("correct", "int64", "turns", "turns graded correct"),
    ("accuracy", "float64", "percent", "correct / n; NaN when n is 0"),
    ("ci_low", "float64", "percent", "Wilson 95% interval, lower bound"),
    ("ci_high", "float64", "percent", "Wilson 95% interval, upper bound"),
)


def _turn_key(row: dict[str, Any]) -> tuple[str, str, str]:
    return (row["model"], row["cell"], row["request_id"])


def read_checkpoint(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The turns in a JSONL checkpoint, later rows replacing earlier ones with the same key
    (columns under their old names are read under the current ones: ``toolform.columns``).

    A torn last line (a record cut short by a crash or power loss) is skipped with a warning;
    a run given this checkpoint sets it aside in ``<path>.torn`` and runs that turn again
    (:mod:`toolform.journal`).

    Raises
    ------
    toolform.errors.DatasetError
        When a line other than the last is not a JSON row (the file and line are named).
    """
    path = Path(path)
    if not path.exists():
        return []
    rows: dict[tuple[str, str, str], dict[str, Any]] = {}
    raw = path.read_bytes()
    lines = raw.split(b"\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = upgrade_columns(json.loads(line), "turns")
            rows[_turn_key(row)] = row
        except (ValueError, KeyError, TypeError) as exc:
            if number == len(lines):  # no newline after it: cut short mid-write
                warnings.warn(f"{path}: skipping its torn last line {number}; a run sets it "
                              f"aside in {torn_side_file(path)}", RuntimeWarning, stacklevel=2)
                continue
            raise DatasetError(f"checkpoint {path}, line {number}: not a turn row "
                               f"({type(exc).__name__}: {exc})") from exc
    return list(rows.values())


def turns_frame(rows: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """Turn rows as a DataFrame with the declared columns and dtypes of :data:`TURN_COLUMNS`."""
    frame = pd.DataFrame(list(rows), columns=[c[0] for c in TURN_COLUMNS])
    for name, dtype, _, _ in TURN_COLUMNS:
        if dtype != "object":
            frame[name] = frame[name].astype(dtype)
    return frame


def _ledger(row: dict[str, Any], turn: PlannedTurn, completion: Any, price: Price) -> None:
    """Fill the token and cost columns of a fresh turn: the server's usage when it gave one,
    else estimates (characters / 4) marked in ``tokens_estimated``."""
    prompt, reply = completion.prompt_tokens, completion.completion_tokens
    estimated = prompt is None or reply is None
    if prompt is None:
        prompt = estimate_tokens("".join(m.get("content") or "" for m in turn.messages)) + (
            estimate_tokens(json.dumps(turn.tools)) if turn.tools else 0)
    if reply is None:
        reply = estimate_tokens(completion.text + (json.dumps(completion.tool_calls)
                                                   if completion.tool_calls else ""))
    cached = (turn.schema_tokens or 0) if price.schema_cached else 0
    row.update(prompt_tokens=prompt, completion_tokens=reply, tokens_estimated=estimated,
               cost_usd=cost_of(prompt, reply, cached_tokens=cached, price=price),
               price=price.name)


def _turn_row(outcome: Outcome, price: Price) -> dict[str, Any]:
    """The row of one finished turn: graded from its reply, or an error row."""
    turn = outcome.turn
    cell, request = turn.cell, turn.request
    row: dict[str, Any] = {
        "cell": cell.label, "model": cell.model, "format_id": cell.format_id,
        "protocol_id": cell.protocol_id, "request_id": request.id, "category": request.category,
        "n_tools": len(request.toolset), "schema_tokens": turn.schema_tokens,
    }
    completion = outcome.completion
    if completion is None:  # a render or server failure becomes a row, never a lost turn
        row.update(reply="", reply_tool_calls=None, calls=[], n_calls=0, parsed_strict=False,
                   parsed_lenient=False, lenient_protocol=None, format_compliant=False,
                   renested=False, resolved_names=[], issues=[], correct_end_state=None,
                   correct_possible_answers=False, tool_correct=False,
                   schema_valid=None, schema_issue="", gold=[g.to_dict() for g in request.gold],
                   reason="", prompt_tokens=None, completion_tokens=None, latency_s=None,
                   error=outcome.error or "unknown failure",
                   error_kind=outcome.error_kind or ("render" if turn.render_error else "client"),
                   attempts=0 if turn.render_error else outcome.attempts,
                   grading_version=grading_version(),
                   tokens_estimated=None, cost_usd=None, price=price.name, verdicts={},
                   **{f"correct_{rule}": False for rule in RULES})
        return row
    latency = completion.latency_s
    row.update(reply=completion.text, reply_tool_calls=completion.tool_calls,
               latency_s=None if latency != latency else latency,  # NaN: a batch reply
               error=None, error_kind=None, attempts=None)
    _ledger(row, turn, completion, price)
    return _graded(row, request)


def _graded(row: dict[str, Any], request: Request) -> dict[str, Any]:
    """``row`` with every parse and verdict column filled from its stored reply.

    The one grading path of a turn: a fresh turn and a re-graded one go through it alike.
    """
    # the whole reply: the native protocol reads its tool_calls, the others its text
    reply = {"content": row["reply"], "tool_calls": row.get("reply_tool_calls")}
    parsed = parse_reply(reply, request.toolset, row["protocol_id"])
    verdicts = grade_gradings(parsed, request.gold, request.toolset)
    main = verdicts["main"]
    calls = select_calls(parsed, "main", nearest=True)  # as read: nearest names resolved
    return {
        **row, "gold": [g.to_dict() for g in request.gold],
        "reply_tool_calls": row.get("reply_tool_calls"),  # None in rows older than the column
        "calls": [c.to_dict() for c in calls],
        "n_calls": len(calls), "parsed_strict": parsed.parsed_strict,
        "parsed_lenient": parsed.parsed_lenient, "lenient_protocol": parsed.lenient_protocol,
        "format_compliant": parsed.format_compliant, "renested": parsed.renested,
        "resolved_names": [list(r) for r in parsed.resolved_names],
        "issues": list(parsed.issues),
        "correct_end_state": _end_state(calls, request),
        "tool_correct": main.tool_correct, "schema_valid": main.schema_valid,
        "schema_issue": main.schema_issue, "reason": main.reason,
        "grading_version": grading_version(),
        "verdicts": {g: {"correct": v.correct, "tool_correct": v.tool_correct,
                         "schema_valid": v.schema_valid, "reason": v.reason}
                     for g, v in verdicts.items()},
        **{f"correct_{g}": v.correct for g, v in verdicts.items()},
    }


def _is_stale(row: dict[str, Any], request: Request) -> bool:
    """A finished turn graded by other parser or grader code, or against other gold calls."""
    gold = json.loads(json.dumps([g.to_dict() for g in request.gold], default=str))
    return row.get("grading_version") != grading_version() or row.get("gold") != gold


def _regradable(row: dict[str, Any]) -> bool:
    """Whether the stored reply is all the server sent: always for rows that keep the server's
    tool calls; for older rows, when the protocol reads text (only ``native`` sent tools)."""
    return "reply_tool_calls" in row or row.get("protocol_id") != "native"


def _end_state(calls: Sequence[Any], request: Request) -> bool | None:
    """End-state grading when every tool has a generator executor (a simulated world); None
    (NA) for toolsets without executors, which cannot be run."""
    executors = request.toolset.executors
    if not executors:
        return None
    from .generator import Executor, end_state_correct

    if not all(isinstance(e, Executor) for e in executors.values()):
        return None
    return end_state_correct(list(calls), request.gold, request.toolset)


def run_cells(cells: Sequence[Cell], requests: Sequence[Request], client: Any, *,
              checkpoint: str | os.PathLike[str] | None = None,
              max_concurrency: int = DEFAULT_CONCURRENCY, max_tokens: int = DEFAULT_MAX_TOKENS,
              progress: bool = True,
              stop: threading.Event | None = None, executor: Executor | str | None = None,
              cassette: str | os.PathLike[str] | None = None,
              price: Price | str = "frontier_api",
              on_turn: Callable[[dict[str, Any]], None] | None = None,
              sampling: Any = None) -> pd.DataFrame:
    """Answer every request in every cell and return one row per turn.

    The run is first a plan (:func:`toolform.plan.plan_run`: each turn's exact request and its
    cassette key, the tool block rendered once per toolset, format and protocol); an executor
    sends it; each reply is graded and written to the checkpoint as it arrives.

    Parameters
    ----------
    cells : sequence of Cell
        The conditions; protocol and model are filled from the format and the client if empty.
    requests : sequence of Request
        The labelled requests (each carries its own toolset and gold calls).
    client : ChatClient, mapping of str to ChatClient, str, or None
        Anything with ``model`` and ``complete(messages, *, max_tokens, temperature, tools)``
        returning a ``Completion`` (``OpenAICompatClient``, ``ReplayClient``...); or one client
        per model id, for a sweep over models (each cell names its model); or, with an
        executor that reaches the servers itself (``RayExecutor``, ``BatchExecutor``), the
        model id of cells that name none (or None when every cell names its model).
    checkpoint : path, optional
        JSONL file every finished turn is appended to, under the durability policy of
        :mod:`toolform.journal` (a process kill loses no finished turn; an ``fsync`` every 256
        turns or second). Turns already in it are not asked again (those that ended in an
        error are); its rows are part of the result. A torn last line is set aside in
        ``<checkpoint>.torn`` and its turn run again. Turns graded by other parser or grader
        code (``grading_version``) or against other gold calls are re-graded from their stored
        replies first (see the module docstring).
    max_concurrency : int
        Requests in flight at once (the local executor).
    max_tokens : int
        Completion budget per turn, in tokens.
    progress : bool
        Show a ``tqdm.auto`` progress bar (Jupyter or terminal).
    stop : threading.Event, optional
        When set, no new turn starts; finished turns are kept (resume by running again).
    executor : Executor or "local", optional
        What sends the requests (``toolform.executors``); default a ``LocalExecutor`` at
        ``max_concurrency``. Whatever the executor, the same replies give the same rows.
    cassette : path, optional
        A cassette file every reply the executor returns is appended to, keyed as
        ``ReplayClient`` keys it (for executors that do not record, such as ``RayExecutor``;
        a ``ReplayClient`` client records on its own).
    price : Price or str, default "frontier_api"
        The price vector of the ``cost_usd`` column (``toolform.cost``).
    on_turn : callable, optional
        Called with each turn's row (a dict with the columns of :data:`TURN_COLUMNS`) once it is
        final, from the thread that called ``run_cells``, never from a worker: first every turn
        the checkpoint already holds (re-graded if stale), in plan order, then each new turn as
        it is written. Every turn of the result is seen exactly once; a failed turn the
        checkpoint holds is seen when it is run again. An exception from it stops the run
        (the turns written so far stay in the checkpoint).
    sampling : toolform.repeats.Sampling, optional
        Temperature, ``top_p``... and each repeat's seed (default: temperature 0; a repeat is
        still asked with its own seed, so repeats have distinct cassette keys).

    Returns
    -------
    pandas.DataFrame
        One row per (cell, request) turn with the columns of :data:`TURN_COLUMNS`, in cell then
        request order.

    Raises
    ------
    InvalidParameterError
        When ``max_tokens`` or ``max_concurrency`` is below 1 (``ParameterTypeError`` when
        not an int), or a cell's model has no client (and the executor needs one).

    Warns
    -----
    StaleVerdictWarning
        When the checkpoint holds turns that are stale but cannot be re-graded (their verdicts
        are kept, with their old ``grading_version``).
    """
    from tqdm.auto import tqdm

    check_parameters({"max_tokens": [Interval(int, 1, None)],
                      "max_concurrency": [Interval(int, 1, None)]}, where="run_cells",
                     max_tokens=max_tokens, max_concurrency=max_concurrency)
    price = get_price(price)
    runner = get_executor(executor, max_concurrency=max_concurrency)
    plan = plan_run(cells, requests, model=_default_model(client), max_tokens=max_tokens,
                    sampling=sampling)
    clients = _clients_by_model(client, plan.models, runner)
    writer = JournalWriter(checkpoint) if checkpoint else None
    recorder = JournalWriter(cassette) if cassette else None
    try:
        done = {_turn_key(r): r for r in read_checkpoint(checkpoint)} if checkpoint else {}
        todo = [t for t in plan
                if not ((key := t.turn_key) in done and not done[key].get("error"))]
        results = dict(done)
        _regrade_stale(results, {t.turn_key: t.request for t in plan}, writer, checkpoint)
        if on_turn is not None:
            waiting = {t.turn_key for t in todo}
            for key in (t.turn_key for t in plan):
                if key in results and key not in waiting:
                    on_turn(results[key])
        bar = tqdm(total=len(plan), initial=len(plan) - len(todo), disable=not progress,
                   desc="turns")
        unrendered = [Outcome(t, None, t.render_error) for t in todo if t.render_error]
        sendable = [t for t in todo if not t.render_error]
        for outcome in chain(unrendered, runner.execute(sendable, clients, stop=stop)):
            row = _turn_row(outcome, price)
            if writer is not None:
                writer.append(row)
            if recorder is not None and outcome.completion is not None:
                recorder.append(recording(outcome.turn, outcome.completion))
            results[_turn_key(row)] = row
            bar.update(1)
            if on_turn is not None:
                on_turn(row)
        bar.close()
    finally:
        for journal in (writer, recorder):
            if journal is not None:
                journal.close()
    order = {t.turn_key: i for i, t in enumerate(plan)}
    rows = sorted((r for k, r in results.items() if k in order), key=lambda r: order[_turn_key(r)])
    return turns_frame(rows)


def _default_model(client: Any) -> str:
    if isinstance(client, str):
        return client
    if client is None or isinstance(client, Mapping):
        return ""
    return getattr(client, "model", "") or ""


def _clients_by_model(client: Any, models: Sequence[str], runner: Executor) -> dict[str, Any]:
    """One client per model of the plan: a mapping as given, or the one client for all."""
    if isinstance(client, Mapping):
        clients = dict(client)
    elif client is None or isinstance(client, str):
        clients = {}
    else:
        clients = {model: client for model in models}
    missing = [m for m in models if m not in clients]
    if missing and isinstance(runner, LocalExecutor):
        raise InvalidParameterError(f"no client for model(s) {missing}: pass client={{model: client}} "
                         f"with one for each (got {sorted(clients)})")
    return clients


def _regrade_stale(results: dict[tuple[str, str, str], dict[str, Any]],
                   requests: dict[tuple[str, str, str], Request], writer: JournalWriter | None,
                   checkpoint: Any) -> None:
    """Re-grade, in place and in the checkpoint, the finished turns whose verdicts are stale."""
    kept = 0
    for key, row in list(results.items()):
        request = requests.get(key)
        if request is None or row.get("error") or not _is_stale(row, request):
            continue
        if not _regradable(row):
            kept += 1
            continue
        results[key] = _graded(row, request)
        if writer is not None:
            writer.append(results[key])
    if kept:
        warnings.warn(f"{checkpoint}: {kept} native-protocol turns were graded by older code and "
                      "cannot be re-graded (the checkpoint predates reply_tool_calls); their "
                      "verdicts are kept", StaleVerdictWarning, stacklevel=3)


_VERDICT_KEYS = ("cell", "model", "format_id", "protocol_id", "request_id", "category")


@renamed_keywords({"gradings": "rules"})
def verdicts_frame(turns: pd.DataFrame | Iterable[dict[str, Any]],
                   rules: Sequence[str] = GRADINGS, *, keep: Sequence[str] = ()) -> pd.DataFrame:
    """The turns' verdicts in long form: one row per (turn, rule), :data:`VERDICT_COLUMNS`.

    ``correct`` comes from the ``correct_<rule>`` columns (every turn row has them); the rest
    of each verdict from the ``verdicts`` column, or, for rows written before it, from the
    main rule's ``tool_correct``/``schema_valid``/``reason`` (NA for the other rules).

    Parameters
    ----------
    turns : pandas.DataFrame or iterable of dict
        Turn rows (:data:`TURN_COLUMNS`; a ``repeat`` column is carried when present).
    rules : sequence of str
        Which grading rules, in order (default every one of ``GRADINGS``; ``gradings=`` is
        its old name, read one release with a warning).
    keep : sequence of str
        More turn columns to carry onto every verdict row, after :data:`VERDICT_COLUMNS` (what
        an experiment summarises by: the hijack's ``condition``, the sweep's ``strategy``...).

    Returns
    -------
    pandas.DataFrame
        ``len(turns) × len(rules)`` rows, turn-major (each turn's rules together).

    Raises
    ------
    GradingError
        When a rule is not one of ``GRADINGS``.
    DatasetError
        When the turns lack a ``correct_<rule>`` column or a ``keep`` column asked for.
    """
    frame = turns if isinstance(turns, pd.DataFrame) else turns_frame(turns)
    rules = [check_rule(r, GRADINGS, parameter="rules") for r in rules]
    missing = [f"correct_{r}" for r in rules if f"correct_{r}" not in frame.columns]
    missing += [c for c in keep if c not in frame.columns]
    if missing:
        raise DatasetError(f"the turn frame has no {missing} column(s)")
    n, k = len(frame), len(rules)
    failed = frame["error"].notna().to_numpy() if "error" in frame else [False] * n
    stored = frame["verdicts"].tolist() if "verdicts" in frame else [None] * n
    out: dict[str, Any] = {c: frame[c].repeat(k).to_numpy() if c in frame else [None] * (n * k)
                           for c in _VERDICT_KEYS}
    out["repeat"] = frame["repeat"].repeat(k).to_numpy() if "repeat" in frame else None
    out["rule"] = rules * n
    wide = [frame[f"correct_{r}"].tolist() for r in rules]
    legacy = [frame[c].tolist() if c in frame else [None] * n
              for c in ("tool_correct", "schema_valid", "reason")]
    correct, tool, valid, reason = [], [], [], []
    for i in range(n):
        mine = stored[i] if isinstance(stored[i], Mapping) else None
        for j, rule in enumerate(rules):
            if failed[i]:
                correct.append(None), tool.append(None), valid.append(None), reason.append(None)
                continue
            correct.append(wide[j][i])
            v = mine.get(rule) if mine is not None else None
            if v is not None:
                tool.append(v.get("tool_correct")), valid.append(v.get("schema_valid"))
                reason.append(v.get("reason"))
            elif mine is None and rule == "main":
                tool.append(legacy[0][i]), valid.append(legacy[1][i]), reason.append(legacy[2][i])
            else:
                tool.append(None), valid.append(None), reason.append(None)
    out.update(correct=correct, tool_correct=tool, schema_valid=valid, reason=reason,
               error=frame["error"].repeat(k).to_numpy() if "error" in frame else None)
    long = pd.DataFrame(out, columns=[c[0] for c in VERDICT_COLUMNS])
    long = long.astype({name: dtype for name, dtype, _, _ in VERDICT_COLUMNS})
    for column in keep:
        long[column] = frame[column].repeat(k).to_numpy()
    return long


def summarize_verdicts(verdicts: pd.DataFrame, by: Sequence[str] = ("cell",)) -> pd.DataFrame:
    """Accuracy per group and rule from a long verdict frame: the one summary of verdicts.

    The A/B (``summarize_cells``), the BFCL arm (``bfcl_arm_table``) and the atlas read it.

    Parameters
    ----------
    verdicts : pandas.DataFrame
        A frame of :data:`VERDICT_COLUMNS` (:func:`verdicts_frame`).
    by : sequence of str
        The grouping columns (default ``("cell",)``; the BFCL arm adds ``"category"``).

    Returns
    -------
    pandas.DataFrame
        One row per group and rule, groups in first-seen order and rules in their order
        in ``verdicts``: the ``by`` columns, then :data:`SUMMARY_COLUMNS` (accuracy and its
        Wilson 95% interval in percent; ``toolform.stats.wilson_interval``).

    Raises
    ------
    DatasetError
        When a column of ``by`` is not in ``verdicts``.
    """
    by = list(by)
    missing = [c for c in by if c not in verdicts.columns]
    if missing:
        raise DatasetError(f"the verdict frame has no {missing} column(s)")
    nan = float("nan")
    keyed = verdicts.assign(_failed=verdicts["error"].notna(),
                            _correct=verdicts["correct"].fillna(False).astype(bool))
    counts = keyed.groupby([*by, "rule"], sort=False, dropna=False).agg(
        n_rows=("_failed", "size"), n_errors=("_failed", "sum"), correct=("_correct", "sum"))
    rows = []
    for key, row in counts.iterrows():
        n, correct = int(row.n_rows - row.n_errors), int(row.correct)
        low, high = wilson_interval(correct, n)
        rows.append({**dict(zip([*by, "rule"], key)), "n": n, "n_errors": int(row.n_errors),
                     "correct": correct, "accuracy": 100 * correct / n if n else nan,
                     "ci_low": low, "ci_high": high})
    columns = [*by, *(c[0] for c in SUMMARY_COLUMNS)]
    frame = pd.DataFrame(rows, columns=columns)
    return frame.astype({name: dtype for name, dtype, _, _ in SUMMARY_COLUMNS})
