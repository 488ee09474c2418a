"""The public SDK surface: what the study's documentation imports, and the pieces around it.

Code written for the study's own package runs here unchanged where it uses these names::

    from toolform.sdk import (generated_toolset, OpenAICompatClient, Toolset, parse_reply,
                              ParsedReply, CROSSING_PROTOCOLS, CORE_FORMAT_LABELS,
                              TWO_STAGE_FORMATS, RULE_COLUMNS)

``docs/reference-parity.md`` maps every public name of the study's SDK to ToolForm's equivalent
(or says why there is none).
"""

from __future__ import annotations

from .clients import ChatClient, Completion, OpenAICompatClient, ReplayClient
from .cost import PRICES, Price, cost_of
from .errors import (ClientError, EvidenceError, LoaderError, ToolFormError, UnknownFormatError,
                     UnknownProtocolError)
from .formats import RenderedPrompt, compare_formats, render
from .formats._render import PERSONAS, build_messages
from .frontier import pareto_front
from .generator import generated_toolset
from .grading import RULES
from .io import detect_kind, load_tools, to_anthropic, to_ir, to_mcp, to_openai, tool
from .ir import ToolCall, ToolIR, Toolset, ToolUniverse
from .protocols import ParsedReply, parse_reply
from .sensitivity import format_sensitivity_index
from .study import (CORE_DEFAULT_PROTOCOLS, CORE_FORMAT_LABELS, CORE_FORMATS, CROSSING_PROTOCOLS,
                    RULE_COLUMNS, TWO_STAGE_FORMATS)
from .tokens import count_tokens, estimate_tokens

__all__ = [
    "CORE_DEFAULT_PROTOCOLS",
    "CORE_FORMATS",
    "CORE_FORMAT_LABELS",
    "CROSSING_PROTOCOLS",
    "ChatClient",
    "ClientError",
    "Completion",
    "EvidenceError",
    "LoaderError",
    "OpenAICompatClient",
    "PERSONAS",
    "PRICES",
    "ParsedReply",
    "Price",
    "RULES",
    "RULE_COLUMNS",
    "RenderedPrompt",
    "ReplayClient",
    "TWO_STAGE_FORMATS",
    "ToolCall",
    "ToolFormError",
    "ToolIR",
    "ToolUniverse",
    "Toolset",
    "UnknownFormatError",
    "UnknownProtocolError",
    "build_messages",
    "compare_formats",
    "cost_of",
    "count_tokens",
    "detect_kind",
    "estimate_tokens",
    "format_sensitivity_index",
    "generated_toolset",
    "load_tools",
    "pareto_front",
    "parse_reply",
    "render",
    "to_anthropic",
    "to_ir",
    "to_mcp",
    "to_openai",
    "tool",
]
