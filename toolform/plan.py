"""A run as a plan: one row per turn, each keyed by what determines the model's reply.

``plan_run`` turns cells × requests into a :class:`Plan` before anything is sent. Each
:class:`PlannedTurn` holds the exact chat request (model, messages, native tools, sampling
parameters) and its **key**, the cassette key of :func:`toolform.clients.request_key`, so any
executor (``toolform.executors``: ``local``, ``ray``, ``batch``) can run the plan and any reply,
from any of them, is matched back to its turn by that key.

The tool block is rendered once per (toolset, format, protocol) and the system message reused
by every request that shares them (rendering ``yaml_schema`` takes milliseconds). Within a
cell, every request of one toolset starts with the same system message, byte for byte, and the
tools stay in the toolset's order, so a server that caches prompt prefixes (vLLM's prefix
cache, a provider's prompt caching) can reuse the tool block across the cell's requests.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator, Sequence

from .formats import render
from .ir import Request, Toolset

if TYPE_CHECKING:
    import pandas as pd

    from .repeats import Sampling

    from .runs import Cell

__all__ = ["PLAN_COLUMNS", "Plan", "PlannedTurn", "plan_run"]

#: Declared columns of :meth:`Plan.frame`: (name, dtype, unit, meaning).
PLAN_COLUMNS: tuple[tuple[str, str, str, str], ...] = (
    ("key", "string", "", "cassette key of the request (SHA-256, toolform.clients.request_key)"),
    ("model", "string", "", "model id the request goes to"),
    ("cell", "string", "", "format_id/protocol_id"),
    ("format_id", "string", "", "schema format"),
    ("protocol_id", "string", "", "answer protocol"),
    ("request_id", "string", "", "request id within its dataset"),
    ("n_messages", "int64", "messages", "chat messages sent"),
    ("schema_tokens", "Int64", "tokens", "tool block, estimated as characters / 4"),
    ("render_error", "string", "", "why the prompt could not be rendered, else empty"),
)


@dataclass(frozen=True)
class PlannedTurn:
    """One turn of a plan: the chat request of one (cell, request) and its key.

    Attributes
    ----------
    key : str
        The cassette key (64 hex digits); empty when the prompt could not be rendered.
    cell : Cell
        The resolved cell (format, protocol and model filled in).
    request : Request
        The labelled request.
    messages : list of dict
        The chat messages (the system message object is shared by the turns of one
        toolset, format and protocol; do not mutate it).
    tools : list of dict or None
        Native tool definitions (the ``native`` protocol only).
    max_tokens : int
        Completion budget, in tokens.
    temperature : float
        Sampling temperature.
    schema_tokens : int or None
        The tool block's size, estimated as characters / 4.
    render_error : str or None
        Why rendering failed (the turn becomes an error row and is never sent).
    extra_body : dict or None
        Body fields sent beside the standard ones (a repeat's ``seed``, ``top_p``...;
        :class:`toolform.repeats.Sampling`); None sends none.
    """

    key: str
    cell: Cell
    request: Request
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]] | None
    max_tokens: int
    temperature: float
    schema_tokens: int | None
    render_error: str | None = None
    extra_body: dict[str, Any] | None = None

    @property
    def turn_key(self) -> tuple[str, str, str]:
        """``(model, cell label, request id)``: the turn's key in a checkpoint."""
        return (self.cell.model, self.cell.label, self.request.id)

    def body(self) -> dict[str, Any]:
        """The OpenAI chat-completions request body of this turn (as a batch file holds it)."""
        body: dict[str, Any] = {"model": self.cell.model, "messages": self.messages,
                                "max_tokens": self.max_tokens, "temperature": self.temperature,
                                **(self.extra_body or {})}
        if self.tools:
            body["tools"] = self.tools
        return body


class Plan(Sequence[PlannedTurn]):
    """The turns of a run, in cell then request order.

    Parameters
    ----------
    turns : sequence of PlannedTurn
    """

    def __init__(self, turns: Sequence[PlannedTurn]) -> None:
        self.turns = list(turns)

    def __len__(self) -> int:
        return len(self.turns)

    def __getitem__(self, index: Any) -> Any:
        return self.turns[index]

    def __iter__(self) -> Iterator[PlannedTurn]:
        return iter(self.turns)

    def __repr__(self) -> str:
        return f"Plan({len(self.turns)} turns, {len(self.models)} model(s))"

    @property
    def models(self) -> list[str]:
        """The model ids of the plan, in first-seen order."""
        return list(dict.fromkeys(t.cell.model for t in self.turns))

    def frame(self) -> pd.DataFrame:
        """The plan as a table, one row per turn (:data:`PLAN_COLUMNS`)."""
        import pandas as pd

        rows = [(t.key, t.cell.model, t.cell.label, t.cell.format_id, t.cell.protocol_id,
                 t.request.id, len(t.messages), t.schema_tokens, t.render_error)
                for t in self.turns]
        frame = pd.DataFrame(rows, columns=[c[0] for c in PLAN_COLUMNS])
        return frame.astype({name: dtype for name, dtype, _, _ in PLAN_COLUMNS})

    def write_batch(self, path: Any, **kwargs: Any) -> Any:
        """Write the plan as an OpenAI Batch input file; see
        :func:`toolform.executors.write_batch_input`."""
        from .executors import write_batch_input

        return write_batch_input(self, path, **kwargs)


def plan_run(cells: Sequence[Cell], requests: Sequence[Request], *, model: str = "",
             max_tokens: int = 256, temperature: float = 0.0,
             sampling: Sampling | None = None) -> Plan:
    """The plan of a run: every request in every cell, rendered and keyed.

    Parameters
    ----------
    cells : sequence of Cell
        The conditions; an empty protocol takes the format's default and an empty model
        takes ``model``.
    requests : sequence of Request
        The labelled requests.
    model : str, optional
        The model id of cells that name none.
    max_tokens : int, default 256
        Completion budget per turn, in tokens.
    temperature : float, default 0.0
        Sampling temperature (ignored when ``sampling`` is given).
    sampling : Sampling, optional
        Temperature, ``top_p`` and other body fields, and each repeat's seed: a request whose
        id carries a repeat mark (``toolform.repeats.expand_repeats``) is asked with seed
        ``sampling.seed + i``, so its repeats have distinct keys (see :mod:`toolform.repeats`).

    Returns
    -------
    Plan
        ``len(cells) * len(requests)`` turns in cell then request order. A prompt that cannot
        be rendered gives a turn with ``render_error`` set (it becomes an error row).
    """
    from .clients import request_key
    from .repeats import Sampling, repeat_index

    sampling = sampling if sampling is not None else Sampling(temperature=temperature)
    temperature = float(sampling.temperature)
    resolved = [c.resolved(model) for c in cells]
    params = {"max_tokens": max_tokens, "temperature": temperature, "extra_body": None}
    toolset_tokens: dict[int, Any] = {}  # id of a toolset -> a token shared by equal ones
    equal_toolsets: dict[Toolset, int] = {}
    blocks: dict[tuple[Any, str, str], _Block] = {}
    turns = []
    for cell in resolved:
        for request in requests:
            toolset = request.toolset
            token = toolset_tokens.get(id(toolset))
            if token is None:  # hashing a toolset walks all of it: once per toolset object
                token = toolset_tokens[id(toolset)] = _toolset_token(toolset, equal_toolsets)
            block_key = (token, cell.format_id, cell.protocol_id)
            block = blocks.get(block_key)
            if block is None:
                block = blocks[block_key] = _Block.of(toolset, cell, params)
            if block.error is not None:
                turns.append(PlannedTurn("", cell, request, [], None, max_tokens, temperature,
                                         None, render_error=block.error))
                continue
            user = {"role": "user", "content": request.text}
            _, extra_body = sampling.turn_options(repeat_index(request.id))
            messages = [block.system, user]
            if request.system:  # the source's own system message goes ahead of the tool prompt
                messages = [{"role": "system",
                             "content": f"{request.system}\n\n{block.system['content']}"}, user]
            if request.system or extra_body is not None:
                key = request_key(cell.model, messages, max_tokens=max_tokens,
                                  temperature=temperature, tools=block.tools,
                                  extra_body=extra_body)
            else:
                key = block.key_with(user)
            turns.append(PlannedTurn(key, cell, request, messages, block.tools, max_tokens,
                                     temperature, block.schema_tokens, extra_body=extra_body))
    return Plan(turns)


class _Block:
    """A rendered tool block of one (toolset, format, protocol), and the start of the cassette
    key of every request that opens with its system message.

    The key is SHA-256 of the canonical JSON ``{"messages": [system, user], "model", "params"}``
    (sorted keys, so ``messages`` comes first): the hash of everything up to the user message
    is computed once and copied per request, giving :func:`toolform.clients.request_key`'s
    value byte for byte (the tests check it).
    """

    def __init__(self, system: dict[str, Any] | None, tools: list[dict[str, Any]] | None,
                 schema_tokens: int | None, head: Any, tail: str, error: str | None) -> None:
        self.system, self.tools, self.schema_tokens = system, tools, schema_tokens
        self._head, self._tail, self.error = head, tail, error

    @classmethod
    def of(cls, toolset: Toolset, cell: Cell, params: dict[str, Any]) -> _Block:
        from .clients._replay import _canonical

        try:
            prompt = render(toolset, cell.format_id, cell.protocol_id)
        except Exception as exc:  # noqa: BLE001 - a render failure becomes an error row
            return cls(None, None, None, None, "", f"{type(exc).__name__}: {exc}")
        system = prompt.messages[0]
        head = hashlib.sha256(('{"messages":[' + _canonical(system) + ",").encode("utf-8"))
        tail = ('],"model":' + _canonical(cell.model) + ',"params":'
                + _canonical({**params, "tools": prompt.api_tools}) + "}")
        return cls(system, prompt.api_tools, prompt.schema_tokens, head, tail, None)

    def key_with(self, user: dict[str, Any]) -> str:
        """The cassette key of ``[system, user]`` with this block's model and parameters."""
        from .clients._replay import _canonical

        digest = self._head.copy()
        digest.update((_canonical(user) + self._tail).encode("utf-8"))
        return digest.hexdigest()


def _toolset_token(toolset: Toolset, seen: dict[Toolset, int]) -> Any:
    """A small token for the toolset's value, shared by equal toolsets (they share a block);
    its identity when it does not hash (a default value that is a list or dict)."""
    try:
        return seen.setdefault(toolset, len(seen))
    except TypeError:
        return ("id", id(toolset))
