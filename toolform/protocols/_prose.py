"""The natural-language intent protocol: the model says in words which tool and which values.

``I will use get_weather with city = "Paris" and unit = "celsius".`` A schema-guided rule
adapter turns such sentences into calls:

1. An intent is a verb (use, call, invoke, run, execute and their -s/-ing forms) followed by a
   name, optionally as ``the tool X``, ``the X tool``, ``X`` in backticks or quotes. The name
   must resolve to a tool of the toolset (any step of ``resolve_name``), or be followed by an
   argument clause. A negation just before the verb (``I don't need to call X``), and a name
   directly followed by ``(`` (that is code), are not intents.
2. The argument clause starts with ``with`` (or ``using``, ``passing``, ``setting``, ``where``,
   ``:``; ``with the following arguments:`` too) and is a list of ``name OP value`` joined by
   commas, ``and``, semicolons or new lines (a bullet allowed), where OP is ``=``, ``:``,
   ``set to``, ``equal to``, ``equals``, ``is``, ``as``, ``of`` or ``to``.
   Names are matched against the tool's parameter and (nested) field names, case-insensitively,
   and written with the declared spelling; any other identifier followed by ``=`` or
   ``set to`` is kept as written (the grader then rejects it).
3. A value is a quoted string (JSON escapes understood), a JSON object or array, or bare text
   up to the next ``, name OP``, the end of the sentence (a period and a space), the line, or
   the next intent. Values are text typed from the schema (``coerce_text``); a quoted value
   stays a string when the schema gives no type.
"""

from __future__ import annotations

from typing import Sequence

from ..ir import ToolCall, Toolset
from ._common import intent_calls, json_text, strip_think
from ._json import ABSTENTION
from ._registry import Protocol, register_protocol

__all__ = ["NlIntent"]


@register_protocol(
    name="Natural-language intent",
    description=("A sentence per call naming the tool and its argument values in words; a "
                 "rule adapter guided by the schema maps the sentence to a call."),
    supports_parallel=True,
    structured=False,
    text_values=True,
    cannot_carry=("untyped_values", "mistyped_values", "unknown_tools_without_arguments",
                  "non_identifier_names"),
)
class NlIntent(Protocol):
    """``I will use tool_name with arg = "value" and count = 2.``; rules in the module docstring.

    Writing: one sentence per call, string values as JSON strings, other values as JSON.
    Reading never raises: free text has no markers to break.

    ``cannot_carry``: values of undeclared type come back as text (``untyped_values``);
    values of the wrong type for their parameter come back typed (``mistyped_values``); a call
    to a tool outside the toolset with no arguments is not an intent; tool and argument names
    that are not word characters, dots and dashes (``non_identifier_names``).
    """

    instruction = ('To call a tool, say in one sentence which tool you will use and with which '
                   'values, for example: I will use tool_name with param_name = "value" and other_param = 2. '
                   'Write one such sentence per call.')

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One sentence per call, a plain sentence for none."""
        if not calls:
            return ABSTENTION
        lines = []
        for call in calls:
            parts = [f"{k} = {json_text(v)}" for k, v in call.arguments.items()]
            if not parts:
                lines.append(f"I will use {call.name}.")
                continue
            joined = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
            lines.append(f"I will use {call.name} with {joined}.")
        return "\n".join(lines)

    def parse(self, text: str, toolset: Toolset) -> list[ToolCall]:
        """The intents stated in ``text`` as calls (never raises)."""
        text, _ = strip_think(text)
        return intent_calls(text, toolset)
