"""Two-stage disclosure: show the names (with or without descriptions), then the chosen schema.

Stage one asks the model to name the one tool that fits the request; stage two shows that tool's
schema alone and asks for the call. A stage-one reply that names no catalogue tool is a
selection failure: there is no second stage and no fallback to the whole catalogue, as in the
study (evidence table ``disclosure``: at 256 tools names with descriptions first gained 26.72
points [18.32, 34.98] over the one-shot block; names alone lost 6.66 points at 4 tools).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..formats import get_format, render, render_block
from ..ir import Request, Toolset
from ..protocols import ParsedReply, parse_reply

__all__ = ["SELECTION_INSTRUCTION", "SELECTION_MAX_TOKENS", "Selection", "TwoStage",
           "TwoStageResult"]

#: Reply cap of the selection call, in tokens.
SELECTION_MAX_TOKENS = 48

#: What stage one asks for, after the list of tools.
SELECTION_INSTRUCTION = (
    "Reply with the exact name of the one tool that fits the user's request, and nothing else. "
    "If no tool fits, reply with the word none."
)

_SELECTION_TEMPLATE = "You can use one of the following tools.\n\n{block}\n\n{instruction}\n"

# The registered two-stage formats whose rendering is stage one's list, by include_descriptions
# (names_then_schema_v2 is the study's run under this module's policy: no fallback, graded on
# the whole catalogue, both calls' tokens counted).
_STAGE_ONE_FORMATS = {True: "names_desc_then_schema", False: "names_then_schema_v2"}
_IDENT = r"[A-Za-z0-9_]"


@dataclass(frozen=True)
class Selection:
    """What stage one chose.

    Attributes
    ----------
    name : str or None
        The chosen tool's name as the catalogue spells it; None on a selection failure.
    how : str
        ``"name"`` (a catalogue name found in the reply; the longest when several),
        ``"first_word"`` (the reply's first word, stripped of quotes and punctuation, is a
        name written another way) or ``"failed"``.
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
    selected : str or None
        The tool stage one chose (None on a selection failure).
    selection_failed : bool
        Stage one named no catalogue tool; stage two was not run.
    selection_reply : str
        Stage one's reply text.
    reply : str
        Stage two's reply text ("" when it was not run).
    parsed : ParsedReply
        Stage two's reply parsed against the whole catalogue (an empty reply on a selection
        failure), so a call to a tool other than the selected one is still read.
    selection_prompt_tokens, selection_completion_tokens : int or None
        Stage one's token counts as the server reported them.
    call_prompt_tokens, call_completion_tokens : int or None
        Stage two's (None when it was not run or the server gave no usage).
    latency_s : float
        Wall time of both stages, in seconds.
    """

    selected: str | None
    selection_failed: bool
    selection_reply: str
    reply: str
    parsed: ParsedReply
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


def _key(word: str) -> str:
    """A word lower-cased with everything but letters and digits removed."""
    return re.sub(r"[^0-9a-z]", "", word.lower())


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

    Raises
    ------
    ValueError
        When the toolset is empty.
    UnknownFormatError, UnknownProtocolError
        For ids that are not registered.
    """

    def __init__(self, toolset: Toolset, include_descriptions: bool = True, *,
                 format_id: str = "json_schema_openai", protocol_id: str | None = None) -> None:
        if len(toolset) == 0:
            raise ValueError(f"a two-stage prompt needs tools; toolset {toolset.source!r} is "
                             "empty")
        self.toolset = toolset
        self.include_descriptions = include_descriptions
        self.format_id = get_format(format_id).id
        self.protocol_id = protocol_id or get_format(format_id).default_protocol
        self._block = self._stage_one_block()
        # Longest names first, so that "get_weather_v2" wins over "get_weather".
        self._by_lower = {n.lower(): n for n in toolset.names}
        ordered = sorted(self._by_lower, key=len, reverse=True)
        keys: dict[str, list[str]] = {}
        for n in toolset.names:
            keys.setdefault(_key(n), []).append(n)
        # A stripped form shared by two names identifies neither.
        self._by_key = {k: v[0] for k, v in keys.items() if len(v) == 1 and k}
        self._pattern = re.compile(
            "|".join(f"(?<!{_IDENT}){re.escape(n)}(?!{_IDENT})" for n in ordered), re.IGNORECASE)

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
        """Stage one's chat messages: the list of tools and the instruction, then the request.

        Parameters
        ----------
        request : Request or str

        Returns
        -------
        list of dict
            A system message and a user message.
        """
        system = _SELECTION_TEMPLATE.format(block=self._block, instruction=SELECTION_INSTRUCTION)
        return [{"role": "system", "content": system},
                {"role": "user", "content": _text(request)}]

    def parse_selection(self, reply: str | None) -> Selection:
        """Read the chosen tool from stage one's reply. Never raises.

        Every catalogue name in the reply is found (case-insensitive, as a whole identifier);
        the longest wins, then the earliest. When none is found, the reply's first word is
        taken when, stripped of quotes and punctuation (separators included) and lower-cased,
        it equals one name so stripped (``GetCurrentWeather`` for ``get_current_weather``).
        Otherwise the selection failed.

        Parameters
        ----------
        reply : str or None

        Returns
        -------
        Selection
        """
        text = reply if isinstance(reply, str) else ""
        found = [m.group(0).lower() for m in self._pattern.finditer(text)]
        if found:
            best = max(found, key=len)  # max keeps the first of equal lengths
            return Selection(self._by_lower[best], "name")
        words = text.split()
        if words:
            name = self._by_key.get(_key(words[0]))
            if name is not None:
                return Selection(name, "first_word")
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
        selection = self.parse_selection(first.text)
        if selection.failed:
            return TwoStageResult(
                selected=None, selection_failed=True, selection_reply=first.text, reply="",
                parsed=parse_reply("", self.toolset, self.protocol_id),
                selection_prompt_tokens=first.prompt_tokens,
                selection_completion_tokens=first.completion_tokens,
                call_prompt_tokens=None, call_completion_tokens=None, latency_s=first.latency_s)
        prompt = self.call_prompt(request, selection.name)
        second = client.complete(prompt.messages, max_tokens=max_tokens, temperature=0.0,
                                 tools=prompt.api_tools)
        return TwoStageResult(
            selected=selection.name, selection_failed=False, selection_reply=first.text,
            reply=second.text, parsed=parse_reply(second.text, self.toolset, self.protocol_id),
            selection_prompt_tokens=first.prompt_tokens,
            selection_completion_tokens=first.completion_tokens,
            call_prompt_tokens=second.prompt_tokens,
            call_completion_tokens=second.completion_tokens,
            latency_s=first.latency_s + second.latency_s)
