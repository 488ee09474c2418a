"""Two-stage disclosure: show the names (with or without descriptions), then the chosen schema.

Stage one lists the catalogue and asks, at the end of the user's request, for the name of the one
tool to use (:data:`SELECTION_ASK`, with a reply cap of :data:`SELECTION_MAX_TOKENS` tokens), as
the study's second two-stage design did. Stage two shows that tool's schema alone and asks for the
call, which is parsed against the whole catalogue. A stage-one reply that names no catalogue
tool is a selection failure: there is no second stage and no fallback to any tool, as in the
study (evidence table ``disclosure``: at 256 tools names with descriptions first gained 26.72
points [18.32, 34.98] over the one-shot block; names alone lost 6.66 points at 4 tools).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import InvalidParameterError
from ..formats import get_format, render, render_block
from ..ir import Request, Toolset
from ..protocols import ParsedReply, get_protocol, parse_reply

__all__ = ["ASK_PLACEMENTS", "SELECTION_ASK", "SELECTION_INSTRUCTION", "SELECTION_MAX_TOKENS",
           "Selection", "TwoStage", "TwoStageResult"]

#: Reply cap of the selection call, in tokens (the study's).
SELECTION_MAX_TOKENS = 48

#: What stage one adds to the end of the user's request (the study put its selection sentence
#: there, not in the system message).
SELECTION_ASK = (
    "\n\nStep one of two: answer with the exact name of the single tool you would call for "
    "this request, and with nothing else. Its full definition will be shown to you next."
)

#: Where stage one asks for the name: at the end of the user's request (``"request"``, the
#: study's placement) or in the system message after the list (``"system"``, with
#: :data:`SELECTION_INSTRUCTION`; the placement the committed catalogue-sweep cassette was
#: recorded with).
ASK_PLACEMENTS = ("request", "system")

#: The system-message ask of the ``"system"`` placement.
SELECTION_INSTRUCTION = (
    "Reply with the exact name of the one tool that fits the user's request, and nothing else. "
    "If no tool fits, reply with the word none."
)

_SELECTION_SYSTEM = "You can use one of the following tools.\n\n{block}\n"

# The registered two-stage formats whose rendering is stage one's list, by include_descriptions
# (names_then_schema_v2 is the study's run under this module's policy: no fallback, graded on
# the whole catalogue, both calls' tokens counted).
_STAGE_ONE_FORMATS = {True: "names_desc_then_schema", False: "names_then_schema_v2"}


@dataclass(frozen=True)
class Selection:
    """What stage one chose, and how it was read.

    Attributes
    ----------
    name : str or None
        The chosen tool's name as the catalogue spells it; None on a selection failure.
    how : str
        ``"name"`` (a catalogue name is contained in the reply; the longest when several) or
        ``"failed"``.
    """

    name: str | None
    how: str

    @property
    def failed(self) -> bool:
        """True when no tool was chosen."""
        return self.name is None


@dataclass(frozen=True)
class TwoStageResult:
    """One request answered in two stages.

    Attributes
    ----------
    request : str
        The request text.
    selected : str or None
        The tool stage one chose (None on a selection failure).
    selection_failed : bool
        Stage one named no catalogue tool; stage two was not run.
    selection_reply : str
        Stage one's reply text.
    call_messages : list of dict or None
        Stage two's chat messages (None when it was not run).
    reply : str
        Stage two's reply text ("" when it was not run).
    parsed : ParsedReply or None
        Stage two's reply parsed against the whole catalogue, so a call to a tool other than the
        selected one is still read; None on a selection failure.
    selection_prompt_tokens, selection_completion_tokens : int or None
        Stage one's token counts as the server reported them.
    call_prompt_tokens, call_completion_tokens : int or None
        Stage two's (None when it was not run or the server gave no usage).
    latency_s : float
        Wall time of both stages, in seconds.
    """

    request: str
    selected: str | None
    selection_failed: bool
    selection_reply: str
    call_messages: list[dict[str, Any]] | None
    reply: str
    parsed: ParsedReply | None
    selection_prompt_tokens: int | None
    selection_completion_tokens: int | None
    call_prompt_tokens: int | None
    call_completion_tokens: int | None
    latency_s: float

    @property
    def prompt_tokens(self) -> int | None:
        """Prompt tokens of both stages (None when the server reported none)."""
        return _total(self.selection_prompt_tokens, self.call_prompt_tokens)

    @property
    def completion_tokens(self) -> int | None:
        """Completion tokens of both stages (None when the server reported none)."""
        return _total(self.selection_completion_tokens, self.call_completion_tokens)


def _total(a: int | None, b: int | None) -> int | None:
    return None if a is None and b is None else (a or 0) + (b or 0)


def _text(request: Request | str) -> str:
    return request.text if isinstance(request, Request) else request


class TwoStage:
    """Names first, then the chosen tool's schema.

    Parameters
    ----------
    toolset : Toolset
        The whole catalogue.
    include_descriptions : bool, default True
        Stage one lists names with descriptions (``names_desc``) or names alone (``names``).
    format_id : str, default "json_schema_openai"
        The format of stage two's schema (the study's disclosure runs used the one-shot
        JSON Schema block).
    protocol_id : str, optional
        The protocol stage two asks for; defaults to ``format_id``'s default protocol.
    ask_placement : {"request", "system"}, default "request"
        Where stage one asks for the name (:data:`ASK_PLACEMENTS`).

    Raises
    ------
    ValueError
        When the toolset is empty, or ``ask_placement`` is unknown.
    UnknownFormatError, UnknownProtocolError
        For ids that are not registered.
    """

    def __init__(self, toolset: Toolset, include_descriptions: bool = True, *,
                 format_id: str = "json_schema_openai", protocol_id: str | None = None,
                 ask_placement: str = "request") -> None:
        if len(toolset) == 0:
            raise InvalidParameterError(
                f"a two-stage prompt needs tools; toolset {toolset.source!r} is "
                "empty")
        if ask_placement not in ASK_PLACEMENTS:
            raise InvalidParameterError(f"ask_placement must be one of {list(ASK_PLACEMENTS)}, got "
                                        f"{ask_placement!r}")
        self.ask_placement = ask_placement
        self.toolset = toolset
        self.include_descriptions = include_descriptions
        self.format_id = get_format(format_id).id
        self.protocol_id = get_protocol(protocol_id or get_format(format_id).default_protocol).id
        self._block = self._stage_one_block()
        # longest names first; among equal lengths, the catalogue's order
        self._names = sorted(toolset.names, key=len, reverse=True)

    def __repr__(self) -> str:
        arm = "names_desc" if self.include_descriptions else "names"
        return f"TwoStage({len(self.toolset)} tools, {arm}, format_id={self.format_id!r})"

    def _stage_one_block(self) -> str:
        return render_block(self.toolset, _STAGE_ONE_FORMATS[bool(self.include_descriptions)])

    @property
    def stage_one_block(self) -> str:
        """The list of tools stage one shows."""
        return self._block

    def selection_messages(self, request: Request | str) -> list[dict[str, Any]]:
        """Stage one's chat messages: the list of tools, then the request with
        :data:`SELECTION_ASK` appended (with ``ask_placement="system"``: the list and
        :data:`SELECTION_INSTRUCTION` in the system message, then the request alone).

        Parameters
        ----------
        request : Request or str

        Returns
        -------
        list of dict
            A system message and a user message.
        """
        system = _SELECTION_SYSTEM.format(block=self._block)
        if self.ask_placement == "system":
            return [{"role": "system", "content": f"{system}\n{SELECTION_INSTRUCTION}\n"},
                    {"role": "user", "content": _text(request)}]
        return [{"role": "system", "content": system},
                {"role": "user", "content": _text(request) + SELECTION_ASK}]

    def parse_selection(self, reply: str | None) -> str | None:
        """The tool a stage-one reply names, or None. Never raises.

        Every catalogue name contained in the reply (case ignored) is a candidate and the
        longest wins (the catalogue's first among equally long ones). Nothing else: no fallback
        to any tool. (The study also tries the reply's first word stripped of quotes and
        punctuation; a first word equal to a name is always contained in the reply, so that
        rule never adds a selection.)

        Parameters
        ----------
        reply : str or None

        Returns
        -------
        str or None
            The name as the catalogue spells it.
        """
        return self.read_selection(reply).name

    def read_selection(self, reply: str | None) -> Selection:
        """:meth:`parse_selection` as a :class:`Selection` (``name`` or ``failed``)."""
        text = (reply if isinstance(reply, str) else "").lower()
        for name in self._names:
            if name.lower() in text:
                return Selection(name, "name")
        return Selection(None, "failed")

    def call_messages(self, request: Request | str, selected: str) -> list[dict[str, Any]]:
        """Stage two's chat messages: the selected tool's schema alone, then the request.

        Parameters
        ----------
        request : Request or str
        selected : str
            A catalogue tool name.

        Returns
        -------
        list of dict

        Raises
        ------
        KeyError
            When ``selected`` is not a catalogue tool.
        """
        return self.call_prompt(request, selected).messages

    def call_prompt(self, request: Request | str, selected: str) -> Any:
        """Stage two's :class:`~toolform.formats.RenderedPrompt` (messages and token counts)."""
        return render(self.toolset.subset([selected]), self.format_id, self.protocol_id,
                      _text(request))

    def run(self, client: Any, request: Request | str, *, max_tokens: int = 256) -> TwoStageResult:
        """Ask ``client`` both stages for one request.

        Parameters
        ----------
        client : ChatClient
            Anything with ``complete(messages, *, max_tokens, temperature, ...)``.
        request : Request or str
        max_tokens : int, default 256
            Stage two's reply cap; stage one's is :data:`SELECTION_MAX_TOKENS` (48).

        Returns
        -------
        TwoStageResult

        Raises
        ------
        ClientError
            When the server fails after its retries (the caller decides what a failed turn is).
        """
        first = client.complete(self.selection_messages(request), max_tokens=SELECTION_MAX_TOKENS,
                                temperature=0.0)
        selected = self.parse_selection(first.text)
        if selected is None:
            return TwoStageResult(
                request=_text(request), selected=None, selection_failed=True,
                selection_reply=first.text, call_messages=None, reply="", parsed=None,
                selection_prompt_tokens=first.prompt_tokens,
                selection_completion_tokens=first.completion_tokens,
                call_prompt_tokens=None, call_completion_tokens=None, latency_s=first.latency_s)
        prompt = self.call_prompt(request, selected)
        second = client.complete(prompt.messages, max_tokens=max_tokens, temperature=0.0,
                                 tools=prompt.api_tools)
        return TwoStageResult(
            request=_text(request), selected=selected, selection_failed=False,
            selection_reply=first.text, call_messages=prompt.messages, reply=second.text,
            parsed=parse_reply(second.text, self.toolset, self.protocol_id),
            selection_prompt_tokens=first.prompt_tokens,
            selection_completion_tokens=first.completion_tokens,
            call_prompt_tokens=second.prompt_tokens,
            call_completion_tokens=second.completion_tokens,
            latency_s=first.latency_s + second.latency_s)
