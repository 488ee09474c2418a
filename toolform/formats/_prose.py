"""Prose formats: tools described in English (paragraphs, manuals, help screens, questions,
rules, one narrative, a reference card) and, at the far end, examples with no description at all.

The English wording of types and parameters is written once (``_words``, ``_sentence``,
``_structure``, ``_group``) and shared by every format here; the terser formats use the compact
notation of ``_common`` for types instead.

Recursive and map types (see ``toolform.ir``): all of them show a recursive type unrolled to
``RenderOptions.recursion_depth`` levels (default 2; the innermost references become ``any``)
and a map as an object with one stand-in key per kind of key (``<key>``,
``<key matching the pattern P>``) holding the values' type (``_common.plain_type``).
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..ir import ParamIR, ToolIR, Toolset, TypeIR
from ._common import (COMPACT, constraint_phrases, example_arguments, example_value,
                      example_variants, first_sentence, json_text, one_line, param_doc,
                      prepare, returns_line, sentence)
from ._registry import RenderOptions, register_format

__all__ = ["cli_help", "few_shot_only", "natural_language", "nl_faq", "nl_instructional",
           "nl_manpage", "nl_narrative", "nl_reference_card", "nl_terse"]

_NOUNS = {"string": ("a string", "strings"), "integer": ("an integer", "integers"),
          "number": ("a number", "numbers"), "boolean": ("true or false", "true/false values"),
          "null": ("null", "nulls"), "any": ("a value of any type", "values of any type"),
          "object": ("an object", "objects"), "array": ("a list", "lists")}


def _or_list(words: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c`` (``nothing`` for no words)."""
    if not words:
        return "nothing"
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _words(t: TypeIR, plural: bool = False) -> str:
    """``t`` in words: ``an integer, at least 1``; ``a list of strings``; ``one of "a" or "b"``."""
    if t.kind == "enum":
        choices = _or_list([json_text(v) for v in t.values])
        base = f"values, each one of {choices}" if plural else f"one of {choices}"
    elif t.kind == "union":
        options = [_option_words(o, i, plural) for i, o in enumerate(t.options, 1)]
        options = options or [_NOUNS["any"][plural]]
        base = _or_list(options) if len(options) != 2 else f"either {options[0]} or {options[1]}"
    elif t.kind == "array":
        items = _words(t.items, plural=True) if t.items is not None else _NOUNS["any"][1]
        base = f"{_NOUNS['array'][plural]} of {items}"
    elif t.kind == "object" and not t.fields:
        base = f"{_NOUNS['object'][plural]} with any keys"
    else:
        base = _NOUNS[t.kind][plural]
    phrases = constraint_phrases(t)
    if t.nullable:
        phrases.append("or null")
    return ", ".join([base, *phrases])


def _option_words(t: TypeIR, number: int, plural: bool) -> str:
    """A union option in words; an object with fields is named by its number, which the
    sentences about its fields use (``an object (option 2, no other keys)``)."""
    if t.kind != "object" or not t.fields:
        return _words(t, plural)
    phrases = [f"option {number}", *constraint_phrases(t)]
    if t.nullable:
        phrases.append("or null")
    return f"{_NOUNS['object'][plural]} ({', '.join(phrases)})"


def _structure(t: TypeIR, where: str) -> list[str]:
    """Sentences about what is inside ``t`` (fields of objects, items, union options)."""
    if t.kind == "object":
        out = []
        for f in t.fields:
            need = "required" if f.required else "optional"
            out.append(_sentence(f"Inside {where}, `{f.name}` ({need})", f))
            out.extend(_structure(f.type, f"{where}'s `{f.name}`"))
        return out
    if t.kind == "array" and t.items is not None:
        return _structure(t.items, f"each item of {where}")
    if t.kind == "union":
        return [s for i, o in enumerate(t.options, 1)
                for s in _structure(o, f"option {i} of {where}")]
    return []


def _sentence(subject: str, p: ParamIR) -> str:
    text = f"{subject} is {_words(p.type)}"
    if p.has_default:
        text += f", {json_text(p.default)} by default"
    if p.description:
        text += f": {one_line(p.description)}"
    return text if text.endswith((".", "!", "?")) else text + "."


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _group(params: list[ParamIR]) -> list[str]:
    """A sentence per parameter, each followed by the sentences about its inside."""
    out = []
    for p in params:
        out.append(_sentence(f"`{p.name}`", p))
        out.extend(_structure(p.type, f"`{p.name}`"))
    return out


def _about(tool: ToolIR) -> list[str]:
    """What ``tool`` needs, also takes and returns, in sentences (one string per group)."""
    lines = []
    required = [p for p in tool.params if p.required]
    optional = [p for p in tool.params if not p.required]
    if required:
        lines.append(" ".join([f"It needs {_count(len(required), 'parameter')}.",
                               *_group(required)]))
    if optional:
        verb = "also takes" if required else "takes"
        lines.append(" ".join([f"It {verb} {_count(len(optional), 'optional parameter')}.",
                               *_group(optional)]))
    if not tool.params:
        lines.append("It takes no parameters.")
    if tool.returns is not None:
        lines.append(_returns(tool.returns))
    return lines


def _returns(t: TypeIR) -> str:
    """``It returns an object. Inside the result, ...``"""
    return " ".join([f"It returns {_words(t)}.", *_structure(t, "the result")])


def _paragraph(tool: ToolIR) -> str:
    lines = [f"Tool `{tool.name}`: {sentence(tool.description)}" if tool.description
             else f"Tool `{tool.name}`."]
    return "\n".join(lines + _about(tool))


@register_format(
    name="Plain-English tool descriptions",
    family="prose",
    default_protocol="nl_intent",
    language=None,
    description=("One paragraph of plain English per tool saying what it does, which "
                 "parameters it needs and which it can also take, with types, allowed values, "
                 "ranges and defaults put in words; no schema notation at all."),
    core=True,
    returns="The paragraphs.",
)
def natural_language(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as English paragraphs, one per tool, separated by blank lines.

    Each paragraph has up to four lines: ``Tool `name`: what it does``; ``It needs N
    parameters.`` followed by one sentence per required parameter; ``It also takes N optional
    parameters.`` with one sentence per optional one; ``It returns ...``. A parameter
    sentence gives its type in words with ranges, lengths, patterns and formats, the allowed
    values of an enum, its default and its description; the fields of a nested object follow
    as ``Inside `filter`, `start` (required) is a string...`` sentences, items of a list as
    ``Inside each item of `rows`, ...``. Names are in backticks, values in JSON spelling.
    """
    return "\n\n".join(_paragraph(t) for t in prepare(toolset, options))


# -- pieces shared by the formats below ----------------------------------------------------------

def _and_list(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _split(params: tuple[ParamIR, ...]) -> tuple[list[ParamIR], list[ParamIR]]:
    """(required, optional) parameters, each in declaration order."""
    return [p for p in params if p.required], [p for p in params if not p.required]


def _bare(value: Any) -> str:
    """A value as a command line would show it: a plain string as is, anything else (or a
    string with blanks, quotes, commas, braces or pipes) as JSON."""
    if isinstance(value, str) and re.fullmatch(r"[^\s|,{}\"'\\]+", value):
        return value
    return json_text(value)


# -- one sentence per tool -----------------------------------------------------------------------

def _has_inside(t: TypeIR) -> bool:
    """``t`` holds named fields somewhere (so its words must show them)."""
    if t.kind == "object":
        return bool(t.fields)
    if t.kind == "array":
        return t.items is not None and _has_inside(t.items)
    return t.kind == "union" and any(_has_inside(o) for o in t.options)


def _terse_type(t: TypeIR) -> str:
    """``t`` in words, with the fields of nested objects named inline."""
    if not _has_inside(t):
        return _words(t)
    if t.kind == "object":
        base = f"an object of {_terse_params(t.fields)}"
    elif t.kind == "array":
        base = f"a list, each item {_terse_type(t.items)}"  # type: ignore[arg-type]
    else:
        base = "either " + " or ".join(_terse_type(o) for o in t.options)
    phrases = constraint_phrases(t) + (["or null"] if t.nullable else [])
    return ", ".join([base, *phrases])


def _terse_param(p: ParamIR) -> str:
    default = f", {json_text(p.default)} by default" if p.has_default else ""
    doc = f": {one_line(p.description).rstrip('.')}" if p.description else ""
    return f"`{p.name}` ({_terse_type(p.type)}{default}{doc})"


def _terse_params(params: tuple[ParamIR, ...]) -> str:
    """``a`` (…) and ``b`` (…), and optionally ``c`` (…)."""
    required, optional = _split(params)
    text = _and_list([_terse_param(p) for p in required]) if required else ""
    if optional:
        text += (", and optionally " if text else "optionally ")
        text += _and_list([_terse_param(p) for p in optional])
    return text or "nothing"


@register_format(
    name="A sentence per tool",
    family="prose",
    default_protocol="nl_intent",
    language=None,
    description=("One English sentence per tool, one tool per line: what it is for, then its "
                 "parameters named inline, each with its type, values, default and "
                 "description in a parenthesis, then what it returns."),
    compressed=True,
    returns="One line per tool.",
)
def nl_terse(toolset: Toolset, options: RenderOptions) -> str:
    """Render each tool as one sentence on its own line.

    Shape: ``get_weather`: Current weather for a city — takes `city` (a string: City name)
    and optionally `unit` (one of "c" or "f", "c" by default); returns an integer.`` The
    description is the tool's own (on one line, final stop dropped); parameters are named in
    backticks with their type in words (ranges, lengths, patterns, enum values), default and
    description; a nested object lists its fields the same way (``an object of `street` (a
    string) and optionally `zip` (...)``). A tool with no parameters ``takes nothing``.
    """
    lines = []
    for tool in prepare(toolset, options):
        head = f"`{tool.name}`"
        if tool.description:
            head += f": {one_line(tool.description).rstrip('.')}"
        text = f"{head} — takes {_terse_params(tool.params)}"
        if tool.returns is not None:
            text += f"; returns {_terse_type(tool.returns)}"
        lines.append(text + ".")
    return "\n".join(lines)


# -- manual pages and help screens ---------------------------------------------------------------

def _man_metavar(t: TypeIR) -> str:
    """What follows ``--name`` in a synopsis: ``STRING``, ``c|f``, ``true|false``, ``JSON``."""
    if t.kind == "enum" and t.values:
        return "|".join(_bare(v) for v in t.values)
    if t.kind == "boolean":
        return "true|false"
    if t.kind in ("object", "array", "union", "any", "enum"):
        return "JSON"
    return t.kind.upper()


def _man_page(tool: ToolIR) -> str:
    indent, body = " " * 7, " " * 14
    usage = [f"--{p.name} {_man_metavar(p.type)}" if p.required
             else f"[--{p.name} {_man_metavar(p.type)}]" for p in tool.params]
    summary = first_sentence(tool.description) if tool.description else "(no description)"
    lines = ["NAME", f"{indent}{tool.name} - {summary}", "", "SYNOPSIS",
             indent + " ".join([tool.name, *usage])]
    if tool.description:
        lines += ["", "DESCRIPTION", indent + one_line(tool.description)]
    if tool.params:
        lines += ["", "OPTIONS"]
        for i, p in enumerate(tool.params):
            need = "Required." if p.required else "Optional."
            lines += ([""] if i else []) + [f"{indent}--{p.name} {_man_metavar(p.type)}"]
            lines += [f"{body}{need} {_sentence('It', p)}",
                      *(body + s for s in _structure(p.type, f"`{p.name}`"))]
    if tool.returns is not None:
        lines += ["", "RETURN VALUE", indent + _returns(tool.returns)]
    return "\n".join(lines)


@register_format(
    name="Unix manual pages",
    family="prose",
    default_protocol="cli_call",
    language=None,
    description=("A Unix manual page per tool with NAME, SYNOPSIS, DESCRIPTION, OPTIONS and "
                 "RETURN VALUE sections: a formal synopsis line of --options, and each "
                 "option explained in English sentences, nested fields included."),
    novel=True,
    returns="The pages.",
)
def nl_manpage(toolset: Toolset, options: RenderOptions) -> str:
    """Render each tool as a manual page; pages are separated by a line of dashes.

    Shape::

        NAME
               get_weather - Current weather for a city.

        SYNOPSIS
               get_weather --city STRING [--unit c|f]

        DESCRIPTION
               Current weather for a city.

        OPTIONS
               --city STRING
                      Required. It is a string: City name.

        RETURN VALUE
               It returns an integer.

    An option's value placeholder is its kind in capitals, an enum's values joined by ``|``,
    ``true|false`` for a boolean and ``JSON`` for objects, arrays and unions; the option's
    text says required or optional, then the same sentences as ``natural_language`` (type in
    words, default, description, then ``Inside `x`, ...`` for every nested field).
    DESCRIPTION is left out for a tool with no description, OPTIONS for one with no
    parameters, RETURN VALUE when the return type is unknown.
    """
    return f"\n\n{'-' * 72}\n\n".join(_man_page(t) for t in prepare(toolset, options))


_HELP_COLUMN = 24  # argparse starts help text in column 24 (two-space indent + 22)


def _help_metavar(p: ParamIR) -> str:
    """argparse's placeholder: ``{a,b}`` for choices, ``{true,false}``, else the name in
    capitals with other characters made ``_``."""
    if p.type.kind == "enum" and p.type.values:
        return "{" + ",".join(_bare(v) for v in p.type.values) + "}"
    if p.type.kind == "boolean":
        return "{true,false}"
    return re.sub(r"\W", "_", p.name).upper() or "VALUE"


def _help_entry(p: ParamIR) -> list[str]:
    invocation = f"  --{p.name} {_help_metavar(p)}"
    text = " ".join(filter(None, [param_doc(p), f"[{COMPACT.type(p.type)}]",
                                  f"(default: {_bare(p.default)})" if p.has_default else ""]))
    if len(invocation) <= _HELP_COLUMN - 2:
        return [invocation.ljust(_HELP_COLUMN) + text]
    return [invocation, " " * _HELP_COLUMN + text]


def _help_screen(tool: ToolIR) -> str:
    required, optional = _split(tool.params)
    usage = [f"--{p.name} {_help_metavar(p)}" for p in required]
    usage += [f"[--{p.name} {_help_metavar(p)}]" for p in optional]
    lines = [f"$ {tool.name} --help", "usage: " + " ".join([tool.name, *usage])]
    if tool.description:
        lines += ["", one_line(tool.description)]
    for title, group in (("required arguments:", required), ("options:", optional)):
        if group:
            lines += ["", title, *(line for p in group for line in _help_entry(p))]
    ret = returns_line(tool, prefix="returns: ")
    if ret is not None:
        lines += ["", ret]
    return "\n".join(lines)


@register_format(
    name="Command-line --help screens",
    family="prose",
    default_protocol="cli_call",
    language=None,
    description=("Each tool as the screen `tool --help` prints in the argparse style: a usage "
                 "line, the description, required arguments and options with {choices}, help "
                 "text, the type in brackets and the default, then what it returns."),
    returns="The help screens.",
)
def cli_help(toolset: Toolset, options: RenderOptions) -> str:
    """Render each tool as an argparse-style ``--help`` screen, screens separated by blank
    lines.

    Shape::

        $ convert_temperature --help
        usage: convert_temperature --value VALUE --unit {celsius,kelvin} [--precision PRECISION]

        Convert a temperature between units.

        required arguments:
          --value VALUE         The temperature. [number]
          --unit {celsius,kelvin}
                                Target unit. ["celsius"|"kelvin"]

        options:
          --precision PRECISION
                                Decimal places. [integer(minimum=0, maximum=6)] (default: 2)

        returns: number

    Help text is the parameter's description followed by its nested fields' descriptions
    (``address.street: ...``), its type in the compact notation (nested fields, constraints,
    ``?`` for optional keys) and its default. Help starts in column 24, or on the next line
    when the option is too long, as argparse does.
    """
    return "\n\n\n".join(_help_screen(t) for t in prepare(toolset, options))


# -- questions, a narrative, rules ---------------------------------------------------------------

def _faq(tool: ToolIR) -> list[str]:
    question = (f"Q: I need this: {sentence(tool.description)} Which tool do I call?"
                if tool.description else f"Q: What is `{tool.name}` for?")
    answer = (f"A: Call `{tool.name}`." if tool.description
              else f"A: It has no description; call `{tool.name}` when its name fits.")
    params = [line for line in _about(tool) if not line.startswith("It returns")]
    lines = [question, " ".join([answer, *params])]
    if tool.returns is not None:
        lines += [f"Q: What does `{tool.name}` give back?", f"A: {_returns(tool.returns)}"]
    return lines


@register_format(
    name="Question-and-answer guide",
    family="prose",
    default_protocol="nl_intent",
    language=None,
    description=("Tools presented as answers to what a user might need: per tool a question "
                 "built from its description and an answer that names the tool and explains "
                 "its parameters in sentences, plus a second pair about what it returns."),
    novel=True,
    returns="``Q:`` and ``A:`` lines.",
)
def nl_faq(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as question-and-answer pairs, tools separated by blank lines.

    Per tool::

        Q: I need this: Current weather for a city. Which tool do I call?
        A: Call `get_weather`. It needs 1 parameter. `city` is a string: City name.
        Q: What does `get_weather` give back?
        A: It returns an integer.

    A tool with no description is asked about by name (``Q: What is `x` for?``). The answer
    uses the ``natural_language`` sentences (type in words, default, description, nested
    fields). The second pair is there only when the return type is known.
    """
    return "\n\n".join("\n".join(_faq(t)) for t in prepare(toolset, options))


def _narrative_opening(index: int, count: int, name: str) -> str:
    if count == 1:
        return f"There is one tool, `{name}`."
    if index == 0:
        return f"The first of the {count} tools is `{name}`."
    if index == count - 1:
        return f"Finally, there is `{name}`."
    return (f"Next comes `{name}`.", f"There is also `{name}`.", f"Then there is `{name}`.")[
        index % 3]


@register_format(
    name="One flowing narrative",
    family="prose",
    default_protocol="nl_intent",
    language=None,
    description=("The whole toolset as a single paragraph of running prose: each tool is "
                 "introduced by a connecting sentence and described in the same sentences as "
                 "the plain-English format, with no line breaks, lists or headings anywhere."),
    novel=True,
    returns="One paragraph (``\"There are no tools.\"`` for an empty toolset).",
    toolset_doc="The tools, in the order told.",
)
def nl_narrative(toolset: Toolset, options: RenderOptions) -> str:
    """Render the whole toolset as one paragraph on one line.

    Each tool opens with a connective (``The first of the 3 tools is `a`.``, ``Next comes
    `b`.``, ``There is also ...``, ``Finally, there is `c`.``), then its description and the
    ``natural_language`` sentences about its parameters, nested fields and result. Every
    description is put on one line, so the block holds no line break at all.
    """
    tools = prepare(toolset, options)
    parts = []
    for i, tool in enumerate(tools):
        parts.append(_narrative_opening(i, len(tools), tool.name))
        if tool.description:
            parts.append(f"It is described as follows: {sentence(tool.description)}")
        parts += _about(tool)
    return " ".join(parts) if parts else "There are no tools."


def _rule_sentence(p: ParamIR) -> str:
    """``Always fill in `x` (a string): Description.`` or ``Fill in `y` (...) only if the
    user gives it: Description.``"""
    default = f", {json_text(p.default)} by default" if p.has_default else ""
    what = f"`{p.name}` ({_words(p.type)}{default})"
    text = f"Always fill in {what}" if p.required else f"Fill in {what} only if the user gives it"
    return sentence(f"{text}: {one_line(p.description)}" if p.description else text)


def _rule(tool: ToolIR) -> str:
    if tool.description:
        opening = f"When the user asks for this: {sentence(tool.description)} Call `{tool.name}`."
    else:
        opening = f"When the request calls for `{tool.name}`, call `{tool.name}`."
    required, optional = _split(tool.params)
    parts = [opening, *(_rule_sentence(p) for p in required + optional)]
    if not tool.params:
        parts.append("Give it no arguments.")
    parts += [s for p in required + optional for s in _structure(p.type, f"`{p.name}`")]
    if tool.returns is not None:
        parts += [f"You will get back {_words(tool.returns)}.",
                  *_structure(tool.returns, "the result")]
    return " ".join(parts)


@register_format(
    name="Second-person rules",
    family="prose",
    default_protocol="nl_intent",
    language=None,
    description=("Tools stated as rules addressed to the model, the way production system "
                 "prompts are written: when the user asks for this, call that tool, always "
                 "fill in these arguments, fill in those only when given."),
    novel=True,
    returns="The rules.",
)
def nl_instructional(toolset: Toolset, options: RenderOptions) -> str:
    """Render one rule paragraph per tool, separated by blank lines.

    Shape: ``When the user asks for this: Current weather for a city. Call `get_weather`.
    Always fill in `city` (a string): City name. Fill in `unit` (one of "c" or "f", "c" by
    default) only if the user gives it. You will get back an integer.`` (required parameters
    first, each group in declaration order). Nested fields follow
    as ``Inside `address`, ...`` sentences; a tool with no parameters says ``Give it no
    arguments.``; a tool with no description opens ``When the request calls for `x`, ...``.
    """
    return "\n\n".join(_rule(t) for t in prepare(toolset, options))


# -- examples only; the reference card -----------------------------------------------------------

@register_format(
    name="Example calls only",
    family="prose",
    default_protocol="json_object",
    language="jsonl",
    description=("Nothing but filled-in example calls, one JSON object per line: per tool one "
                 "with the required arguments and one or more with every argument (and an "
                 "example result); no types, descriptions or required markers, so the "
                 "interface must be induced from instances."),
    novel=True,
    supports_constraints=False,
    supports_optional=False,
    lossy=True,
    compressed=True,
    returns="JSON Lines, two or more per tool.",
    options_doc="Only ``include_returns`` and ``max_depth`` matter.",
)
def few_shot_only(toolset: Toolset, options: RenderOptions) -> str:
    """Render example calls of every tool as JSON Lines.

    Each line is ``{"name": ..., "arguments": {...}}``, plus ``"result": ...`` (an example
    of the return type) when that is known. The first call of a tool gives its required
    arguments only; the next give every argument, nested optional fields too. Values come
    from ``_common.example_value`` (numbers, lengths and item counts within their bounds,
    known string formats followed, patterns not). A tool gets two calls, or more when an
    enum or union of its has more choices than that: one full call per choice of the
    largest (``_common.example_variants``), so that every value and option is shown once.
    Calls that come out the same are written once. Descriptions, types, constraints and
    which arguments are optional are never shown.
    """
    lines: list[str] = []
    for tool in prepare(toolset, options):
        calls: list[str] = []
        for variant in range(example_variants(tool) + 1):
            call: dict[str, Any] = {"name": tool.name,
                                    "arguments": example_arguments(tool, variant)}
            if tool.returns is not None:
                call["result"] = example_value(tool.returns, "result", variant)
            text = json.dumps(call, ensure_ascii=False)
            if text not in calls:
                calls.append(text)
        lines += calls
    return "\n".join(lines)


def _card(tool: ToolIR) -> list[str]:
    slots = [f"<{p.name}>" if p.required else f"[{p.name}]" for p in tool.params]
    head = " ".join([tool.name, *slots])
    if tool.description:
        head += f" — {one_line(tool.description)}"
    details = [" ".join(filter(None, [slot, COMPACT.type(p.type),
                                      f"= {json_text(p.default)}" if p.has_default else "",
                                      f"— {param_doc(p)}" if param_doc(p) else ""]))
               for slot, p in zip(slots, tool.params)]
    ret = returns_line(tool, prefix="→ ")
    if ret is not None:
        details.append(ret)
    return [head] + (["    " + " · ".join(details)] if details else [])


@register_format(
    name="Reference card",
    family="prose",
    default_protocol="nl_intent",
    language=None,
    description=("A compact reference card: per tool one line with its name, its arguments "
                 "as <required> and [optional] slots and its description, and one line giving "
                 "each slot's type, values, default and a note."),
    novel=True,
    compressed=True,
    returns="The card.",
)
def nl_reference_card(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a reference card, two lines per tool.

    Shape::

        convert_temperature <value> <unit> [precision] — Convert a temperature.
            <value> number — The temperature. · <unit> "c"|"k" · [precision] integer = 2 · → number

    ``<slot>`` is required, ``[slot]`` optional. Types are in the compact notation (nested
    fields inline, ``?`` for optional keys, constraints with JSON Schema's keywords),
    followed by the default and the description (nested fields' descriptions as
    ``path: ...``); ``→`` gives the return type. The second line is left out for a tool with
    no parameters and no known return type.
    """
    return "\n".join(line for t in prepare(toolset, options) for line in _card(t))
