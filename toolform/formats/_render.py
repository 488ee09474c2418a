"""``render``: a toolset in a format, with a protocol's instruction, as chat messages."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..io import to_openai
from ..ir import Toolset
from ..protocols._registry import get_protocol
from ..tokens import estimate_tokens, tiktoken_tokens
from ._registry import RenderOptions, get_format

SYSTEM_TEMPLATE = (
    "You have access to the following tools.\n\n{block}\n\n{instruction}\n"
    "If no tool fits the request, answer in plain text without any call."
)


@dataclass(frozen=True)
class RenderedPrompt:
    """A prompt ready for a chat model.

    Attributes
    ----------
    messages : list of dict
        OpenAI-style chat messages: a system message with the tool block and the protocol's
        instruction, then the user's request when one was given.
    format_id, protocol_id : str
        What was rendered.
    schema_text : str
        The tool block alone.
    schema_chars : int
        Its length in characters.
    schema_tokens : int
        Its estimated length in tokens (characters / 4).
    schema_tokens_tiktoken : int or None
        Its exact ``cl100k_base`` length in tokens, when tiktoken is available offline.
    api_tools : list of dict or None
        Tools to pass in the API's ``tools`` field (the ``native`` protocol only).
    """

    messages: list[dict[str, Any]]
    format_id: str
    protocol_id: str
    schema_text: str
    schema_chars: int
    schema_tokens: int
    schema_tokens_tiktoken: int | None
    api_tools: list[dict[str, Any]] | None = field(default=None)


def render_block(toolset: Toolset, format_id: str, options: RenderOptions | None = None) -> str:
    """The tool block alone, in ``format_id``.

    Raises
    ------
    UnknownFormatError
        When no format has that id (the message names the closest ids).
    RenderError
        When the toolset cannot be shown in that format (e.g. nesting past ``max_depth``).
    """
    return get_format(format_id).render(toolset, options or RenderOptions())


def render(toolset: Toolset, format_id: str, protocol_id: str | None = None,
           request: str | None = None, *, options: RenderOptions | None = None) -> RenderedPrompt:
    """Render ``toolset`` in ``format_id`` and ask for answers in ``protocol_id``.

    Parameters
    ----------
    toolset : Toolset
        The tools to show.
    format_id : str
        A registered format id (see ``format_ids()``).
    protocol_id : str, optional
        A registered protocol id; defaults to the format's default protocol.
    request : str, optional
        The user's request, appended as a user message.
    options : RenderOptions, optional
        Renderer options (descriptions on or off, depth cap).

    Returns
    -------
    RenderedPrompt

    Raises
    ------
    UnknownFormatError, UnknownProtocolError
        For ids that are not registered.
    RenderError
        When the toolset cannot be shown in that format.
    """
    spec = get_format(format_id)
    protocol = get_protocol(protocol_id or spec.default_protocol)
    block = spec.render(toolset, options or RenderOptions())
    messages: list[dict[str, Any]] = [
        {"role": "system",
         "content": SYSTEM_TEMPLATE.format(block=block, instruction=protocol.instruction)},
    ]
    if request is not None:
        messages.append({"role": "user", "content": request})
    return RenderedPrompt(
        messages=messages, format_id=spec.id, protocol_id=protocol.id, schema_text=block,
        schema_chars=len(block), schema_tokens=estimate_tokens(block),
        schema_tokens_tiktoken=tiktoken_tokens(block),
        # the native protocol also hands the tools to the API's own `tools` field
        api_tools=to_openai(toolset) if protocol.id == "native" else None,
    )
