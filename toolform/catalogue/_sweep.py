"""The long-catalogue comparisons, as runs that return tidy DataFrames.

* :func:`count_sweep` — the tool-count sweep: each request answered in catalogues of growing
  size (the generator's nested decoy catalogues, 1 … 256 tools), under each strategy: the whole
  block (``one_shot``), the ``k`` best tools by BM25 or an embedding (``retrieve``), names first
  then the chosen schema (``two_stage``, names or names with descriptions). One row per turn;
  :func:`summarize_sweep` gives accuracy, empty turns, tokens and cost per strategy and size.
* :func:`recall_at_k` — how often a retriever's top ``k`` holds the gold tool, on labelled
  requests (``mcp/catalogue``: 97 real MCP tools; ``generated/tasks``: 93 generated tools).
* :func:`end_to_end` — recall × selection accuracy: the share of turns that can end right when
  only the top ``k`` are shown, reading selection accuracy at ``k`` tools from the study's sweep
  (evidence table ``tool_count_pooled``) or from a measured sweep.

Runs replay from cassettes: wrap the client in :class:`~toolform.clients.ReplayClient` and a
second run asks the model nothing (``mode="replay"`` makes a missing recording an error).
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

import pandas as pd

from ..errors import CassetteMissError, ClientError, InvalidParameterError
from ..evidence import load_evidence
from ..formats import get_format, render
from ..generator import decoy_catalogue
from ..grading import grade
from ..ir import Request, Toolset
from ..protocols import parse_reply
from ..repeats import expand_repeats
from ..stats import wilson_interval
from ..tokens import estimate_tokens
from ._retrieve import METHODS, Retriever, recall_at
from ._two_stage import SELECTION_MAX_TOKENS, TwoStage

__all__ = [
    "DEFAULT_STRATEGIES",
    "END_TO_END_COLUMNS",
    "RECALL_COLUMNS",
    "SUMMARY_COLUMNS",
    "SWEEP_COLUMNS",
    "SWEEP_SIZES",
    "Strategy",
    "count_sweep",
    "end_to_end",
    "make_strategies",
    "recall_at_k",
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

#: Declared columns of a sweep turn: (name, dtype, unit, meaning).
SWEEP_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
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
    ("correct", "boolean", "", "correct under the main rule"),
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
    ("cost_usd", "float64", "usd", "prompt and reply tokens at the chosen price setting"),
    ("latency_s", "float64", "seconds", "model time over all stages"),
    ("error", "string", "", "model server error, else empty"),
)

#: Declared columns of :func:`summarize_sweep`: (name, dtype, unit, meaning).
SUMMARY_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
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
    ("cost_usd_per_1k", "float64", "usd", "cost of 1,000 turns"),
)

#: Declared columns of :func:`recall_at_k`: (name, dtype, unit, meaning).
RECALL_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("dataset", "string", "", "the requests' dataset"),
    ("method", "string", "", "bm25 or embed"),
    ("k", "int64", "tools", "tools kept"),
    ("n", "int64", "requests", "requests with a gold tool"),
    ("n_tools", "int64", "tools", "catalogue size (the largest, when requests differ)"),
    ("recall", "float64", "percent", "mean share of gold tools in the top k"),
)

#: Declared columns of :func:`end_to_end`: (name, dtype, unit, meaning).
END_TO_END_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    *RECALL_COLUMNS,
    ("selection_accuracy", "float64", "percent", "accuracy when k tools are shown with the gold "
                                                  "one among them"),
    ("end_to_end", "float64", "percent", "recall × selection accuracy"),
    ("selection_source", "string", "", "where selection accuracy comes from"),
)


def _typed(rows: list[dict[str, Any]], columns: Sequence[tuple[str, str, str, str]]
           ) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=[c[0] for c in columns])
    for name, dtype, _, _ in columns:
        if dtype != "object":
            frame[name] = frame[name].astype(dtype)
    return frame


def _prices(setting: str) -> tuple[float, float]:
    table = load_evidence("cost_prices")
    for row in table.rows:
        if row["setting"] == setting:
            return row["input_usd_per_m"], row["output_usd_per_m"]
    known = [r["setting"] for r in table.rows]
    raise InvalidParameterError(
        f"price setting must be one of {known} (evidence table cost_prices), got "
        f"{setting!r}")


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


def _gold_names(request: Request) -> list[str]:
    return list(dict.fromkeys(g.name for g in request.gold))


class _Runner:
    """One sweep's settings; ``turn`` answers one (request, size, strategy)."""

    def __init__(self, client: Any, format_id: str, protocol_id: str | None, seed: int,
                 context_tokens: int | None, max_tokens: int, prices: tuple[float, float]) -> None:
        self.client = client
        self.format_id = get_format(format_id).id
        self.protocol_id = protocol_id or get_format(format_id).default_protocol
        self.seed = seed
        self.context_tokens = context_tokens
        self.max_tokens = max_tokens
        self.prices = prices

    def catalogue(self, request: Request, n_tools: int) -> Toolset:
        return decoy_catalogue(n_tools, self.seed, target=_gold_names(request))

    def fits(self, messages: list[dict[str, Any]], reply_tokens: int) -> bool:
        return (self.context_tokens is None
                or _message_tokens(messages) + reply_tokens <= self.context_tokens)

    def turn(self, request: Request, n_tools: int, strategy: Strategy) -> dict[str, Any]:
        catalogue = self.catalogue(request, n_tools)
        gold = _gold_names(request)
        row: dict[str, Any] = {
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
        parsed = parse_reply(reply or "", catalogue, self.protocol_id)
        main = grade(parsed, request.gold, catalogue, rule="main")
        row.update(
            reply=reply or "", calls=[c.to_dict() for c in parsed.calls],
            n_calls=len(parsed.calls), correct=main.correct,
            correct_symmetric=grade(parsed, request.gold, catalogue, rule="symmetric").correct,
            tool_correct=main.tool_correct, no_call=not parsed.calls,
            empty=not parsed.calls and not (reply or "").strip(),
            schema_tokens=acc.schema_tokens, prompt_tokens=acc.prompt_tokens,
            completion_tokens=acc.completion_tokens, model_calls=acc.model_calls,
            cost_usd=(acc.prompt_tokens * self.prices[0]
                      + acc.completion_tokens * self.prices[1]) / 1e6,
            latency_s=acc.latency_s,
        )
        row.setdefault("gold_shown", False)
        return row

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
        completion = self.client.complete(prompt.messages, max_tokens=self.max_tokens,
                                          temperature=0.0, tools=prompt.api_tools)
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
        first = self.client.complete(messages, max_tokens=SELECTION_MAX_TOKENS, temperature=0.0)
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
        second = self.client.complete(prompt.messages, max_tokens=self.max_tokens,
                                      temperature=0.0, tools=prompt.api_tools)
        acc.add(prompt.messages, second)
        return second.text, 1


def count_sweep(client: Any, requests: Iterable[Request], *,
                sizes: Sequence[int] = SWEEP_SIZES,
                strategies: Sequence[Strategy] = DEFAULT_STRATEGIES,
                format_id: str = "xml_schema", protocol_id: str | None = None, seed: int = 0,
                context_tokens: int | None = None, max_tokens: int = 256,
                price_setting: str = "self_hosted", max_concurrency: int = 1,
                progress: bool = False, repeats: int = 1) -> pd.DataFrame:
    """Answer each request in catalogues of each size under each strategy.

    Parameters
    ----------
    client : ChatClient
        The model (a :class:`~toolform.clients.ReplayClient` to record or replay).
    requests : iterable of Request
        Requests whose gold tools are generated tools (``generated_tasks()``,
        ``load_dataset("generated/tasks")``); each is shown inside
        ``decoy_catalogue(size, seed, target=<gold tools>)`` instead of its own toolset.
    sizes : sequence of int, default 1, 2, 4 … 256
        Catalogue sizes, in tools.
    strategies : sequence of Strategy, default :data:`DEFAULT_STRATEGIES`
    format_id : str, default "xml_schema"
        The format every schema is shown in.
    protocol_id : str, optional
        Defaults to the format's default protocol.
    seed : int, default 0
        The decoy catalogues' seed.
    context_tokens : int, optional
        The model's context window in tokens: a prompt whose characters / 4 plus its reply cap
        exceed it is not sent and counts as an empty turn (``over_context``), as a server
        would refuse it.
    max_tokens : int, default 256
        The call prompt's reply cap (a selection call's is 48).
    price_setting : str, default "self_hosted"
        A row of the evidence table ``cost_prices`` (``frontier_api`` or ``self_hosted``); the
        cost is prompt and reply tokens at its input and output prices, caching aside.
    max_concurrency : int, default 1
        Turns in flight at once.
    progress : bool, default False
        Show a tqdm bar.
    repeats : int, default 1
        Times each request is asked (at every size and strategy; ``toolform.repeats.expand_repeats``: repeat ``i``
        has the id ``<id>#repeat<i>``; ``toolform.repeats.repeat_summary`` reads pass@k,
        pass^k and the flip rate off the turns).

    Returns
    -------
    pandas.DataFrame
        One row per (request, size, strategy), columns :data:`SWEEP_COLUMNS`, in request, size,
        strategy order. A server failure is a row with ``error`` set.

    Raises
    ------
    ValueError
        When a request's gold tool is not a generated tool, a size is out of range, or the
        price setting is unknown.
    CassetteMissError
        When a replay-only client has no recording of a request (other client failures are
        rows with ``error`` set).
    """
    runner = _Runner(client, format_id, protocol_id, seed, context_tokens, max_tokens,
                     _prices(price_setting))
    requests = expand_repeats(list(requests), repeats)
    jobs = [(r, n, s) for r in requests for n in sizes for s in strategies]
    for request in requests:  # fail on a bad request or size before asking the model anything
        for n in sizes:
            runner.catalogue(request, n)
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(jobs), desc="count sweep")
    rows: list[dict[str, Any]] = []
    with ThreadPoolExecutor(max_workers=max(1, max_concurrency)) as pool:
        for row in pool.map(lambda job: runner.turn(*job), jobs):
            rows.append(row)
            if bar is not None:
                bar.update(1)
    if bar is not None:
        bar.close()
    return _typed(rows, SWEEP_COLUMNS)


def summarize_sweep(turns: pd.DataFrame) -> pd.DataFrame:
    """Accuracy, empty turns, tokens and cost per strategy and catalogue size.

    Parameters
    ----------
    turns : pandas.DataFrame
        :func:`count_sweep`'s rows.

    Returns
    -------
    pandas.DataFrame
        One row per (strategy, n_tools), columns :data:`SUMMARY_COLUMNS`; shares in percent,
        token means per turn, cost per 1,000 turns in US dollars. Turns with a server error are
        left out of every mean and counted in ``n_errors``.
    """
    rows = []
    for (strategy, n_tools), group in turns.groupby(["strategy", "n_tools"], sort=False):
        graded = group[group["error"].isna()]
        n = len(graded)
        correct = int(graded["correct"].sum())
        low, high = wilson_interval(correct, n)

        def share(column: str, frame: pd.DataFrame = graded) -> float:
            return 100 * float(frame[column].mean()) if len(frame) else math.nan

        staged = graded[graded["kind"] == "two_stage"]
        rows.append({
            "strategy": strategy, "kind": group["kind"].iloc[0], "n_tools": n_tools, "n": n,
            "n_errors": len(group) - n, "accuracy": 100 * correct / n if n else math.nan,
            "ci_low": low, "ci_high": high, "empty": share("empty"), "no_call": share("no_call"),
            "over_context": share("over_context"), "gold_shown": share("gold_shown"),
            "selection_failed": share("selection_failed", staged) if len(staged) else math.nan,
            "schema_tokens": float(graded["schema_tokens"].mean()) if n else math.nan,
            "prompt_tokens": float(graded["prompt_tokens"].mean()) if n else math.nan,
            "completion_tokens": float(graded["completion_tokens"].mean()) if n else math.nan,
            "cost_usd_per_1k": 1000 * float(graded["cost_usd"].mean()) if n else math.nan,
        })
    return _typed(rows, SUMMARY_COLUMNS)


def recall_at_k(requests: Any, *, methods: Sequence[str] = ("bm25",),
                ks: Sequence[int] = (1, 2, 4, 8, 16, 32), dataset: str | None = None
                ) -> pd.DataFrame:
    """Recall@k of each retriever on labelled requests.

    Parameters
    ----------
    requests : Dataset or sequence of Request
        Each request is ranked against its own toolset (one index per distinct toolset);
        requests without a gold call are skipped.
    methods : sequence of str, default ("bm25",)
        ``"bm25"`` and/or ``"embed"``.
    ks : sequence of int, default (1, 2, 4, 8, 16, 32)
    dataset : str, optional
        The label in the ``dataset`` column; defaults to the dataset's name.

    Returns
    -------
    pandas.DataFrame
        One row per (method, k), columns :data:`RECALL_COLUMNS`; recall in percent.

    Raises
    ------
    ValueError
        On an unknown method or a k below 1.
    MissingDependencyError
        For ``"embed"`` without its packages.
    """
    name = dataset or getattr(requests, "name", "requests")
    items = [r for r in getattr(requests, "requests", requests) if r.gold]
    if any(isinstance(k, bool) or not isinstance(k, int) or k < 1 for k in ks):
        raise InvalidParameterError(f"every k must be an integer >= 1, got {list(ks)}")
    groups: dict[int, list[Request]] = {}
    for r in items:
        groups.setdefault(id(r.toolset), []).append(r)
    rows = []
    for method in methods:
        hits: dict[int, list[float]] = {k: [] for k in ks}
        for group in groups.values():
            retriever = Retriever(group[0].toolset, method)
            for r in group:
                order = [n for n, _ in retriever.rank(r.text)]
                for k in ks:
                    hits[k].append(recall_at(order[:k], _gold_names(r)))
        for k in ks:
            rows.append({"dataset": name, "method": method, "k": k, "n": len(hits[k]),
                         "n_tools": max((len(r.toolset) for r in items), default=0),
                         "recall": 100 * sum(hits[k]) / len(hits[k]) if hits[k] else math.nan})
    return _typed(rows, RECALL_COLUMNS)


def end_to_end(recall: pd.DataFrame, selection: pd.DataFrame | None = None, *,
               reading: str = "exact_tool") -> pd.DataFrame:
    """End-to-end accuracy read as recall@k × selection accuracy at k tools.

    Parameters
    ----------
    recall : pandas.DataFrame
        :func:`recall_at_k`'s rows.
    selection : pandas.DataFrame, optional
        Measured selection accuracy: columns ``n_tools`` and ``accuracy`` (percent), e.g. a
        :func:`summarize_sweep` frame filtered to ``one_shot``. By default the study's pooled
        sweep (evidence table ``tool_count_pooled``) under ``reading``.
    reading : str, default "exact_tool"
        The ``tool_count_pooled`` reading used by default: ``exact_tool`` (the right tool was
        called) or ``strict`` (the whole call was right), among others.

    Returns
    -------
    pandas.DataFrame
        Columns :data:`END_TO_END_COLUMNS`, one row per recall row; ``selection_accuracy`` and
        ``end_to_end`` are NaN where no selection accuracy was measured at that k.

    Raises
    ------
    ValueError
        When ``reading`` is not a reading of ``tool_count_pooled``.
    """
    if selection is None:
        table = load_evidence("tool_count_pooled")
        readings = sorted({r["reading"] for r in table.rows})
        if reading not in readings:
            raise InvalidParameterError(f"reading must be one of {readings}, got {reading!r}")
        by_size = {r["n_tools"]: r["value"] for r in table.rows if r["reading"] == reading}
        source = f"evidence tool_count_pooled ({reading}; {', '.join(table.source)})"
    else:
        by_size = dict(zip(selection["n_tools"].astype(int), selection["accuracy"].astype(float)))
        source = "measured"
    rows = []
    for row in recall.to_dict("records"):
        acc = by_size.get(int(row["k"]), math.nan)
        rows.append({**row, "selection_accuracy": acc,
                     "end_to_end": row["recall"] * acc / 100, "selection_source": source})
    return _typed(rows, END_TO_END_COLUMNS)
