"""``ParsedCall``: one call read from a reply, with where it came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from ..ir import ToolCall

__all__ = ["ParsedCall"]


@dataclass(frozen=True)
class ParsedCall:
    """One call read from a reply, with its provenance.

    A parser's ``read`` returns these with ``name``, ``arguments``, ``span`` and its own
    ``repairs``; :func:`~toolform.protocols.parse_reply` fills in the rest (who read it, the
    span in the reply's own characters, the example flag, and the name and re-nesting repairs).

    Attributes
    ----------
    name : str
        The tool name as written.
    arguments : mapping of str to JSON value
        The arguments as the parser read them (values of text-valued protocols typed from the
        schema, which is part of reading them).
    span : tuple of (int, int)
        ``(start, end)``: the characters the call was read from, ``reply_text[start:end]``,
        where the reply text is the string reply, or a message's content (content parts
        joined), or, for ``native`` tool calls, their JSON text. Inside a parser's ``read``
        the span counts characters of the text ``read`` was given.
    repairs : tuple of str
        What reading it needed, in words: slips the parser forgave, values that fit no member
        of their type, the name resolution and the re-nesting move (each saying whether the
        grading rule applied it).
    protocol_id : str or None
        The registered protocol whose parser read the call; None when a vendor-shape reader
        read it (``vendor_shape`` then says which).
    vendor_shape : str or None
        The vendor shape (``toolform.protocols.VENDOR_SHAPES``) the call was written in, when
        it sits in one (a Hermes ``<tool_call>`` tag, a Mistral ``[TOOL_CALLS]`` block, ...).
    example : bool
        The call was shown as an illustration, not made (see ``parse_reply``, "examples").
    """

    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    span: tuple[int, int] = (0, 0)
    repairs: tuple[str, ...] = ()
    protocol_id: str | None = None
    vendor_shape: str | None = None
    example: bool = False

    @property
    def call(self) -> ToolCall:
        """The call alone, as a :class:`~toolform.ir.ToolCall`."""
        return ToolCall(self.name, dict(self.arguments))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict (the span as a two-item list)."""
        return {"name": self.name, "arguments": dict(self.arguments), "span": list(self.span),
                "repairs": list(self.repairs), "protocol_id": self.protocol_id,
                "vendor_shape": self.vendor_shape, "example": self.example}
