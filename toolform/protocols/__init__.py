"""Answer protocols: how a model writes its calls, and how ToolForm reads them back.

Each protocol is one registered class (``@register_protocol``) with an instruction, a writer and
a parser; ``parse_reply`` reads any reply under any protocol and never raises, and gives each
call it read as a :class:`ParsedCall` with its provenance. :data:`VENDOR_SHAPES` lists the
vendors' own tool-call markup that the lenient parse recognises.
"""

from . import _json, _prose, _python, _xml  # noqa: F401  (the five crossing protocols first)
from . import _code_calls, _json_calls, _tag_calls, _text_calls  # noqa: F401  (lenient order: after them)
from ._calls import ParsedCall
from ._parse import ParsedReply, parse_reply
from ._registry import PROTOCOLS, Protocol, ProtocolSpec, get_protocol, protocol_ids, register_protocol
from ._vendor import VENDOR_SHAPES, VendorShape

__all__ = [
    "PROTOCOLS",
    "ParsedCall",
    "ParsedReply",
    "Protocol",
    "ProtocolSpec",
    "VENDOR_SHAPES",
    "VendorShape",
    "get_protocol",
    "parse_reply",
    "protocol_ids",
    "register_protocol",
]
