"""Prose formats: tools described in plain English, with no schema syntax."""

from __future__ import annotations

from ..ir import ParamIR, ToolIR, Toolset, TypeIR
from ._common import constraint_phrases, json_text, one_line, prepare, sentence
from ._registry import RenderOptions, register_format

__all__ = ["natural_language"]

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


def _paragraph(tool: ToolIR) -> str:
    lines = [f"Tool `{tool.name}`: {sentence(tool.description)}" if tool.description
             else f"Tool `{tool.name}`."]
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
        lines.append(" ".join([f"It returns {_words(tool.returns)}.",
                               *_structure(tool.returns, "the result")]))
    return "\n".join(lines)


@register_format(
    name="Plain-English tool descriptions",
    family="prose",
    default_protocol="nl_intent",
    language=None,
    description=("One paragraph of plain English per tool saying what it does, which "
                 "parameters it needs and which it can also take, with types, allowed values, "
                 "ranges and defaults put in words; no schema notation at all."),
    core=True,
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

    Parameters
    ----------
    toolset : Toolset
        The tools, in the order shown.
    options : RenderOptions
        Descriptions and return types are shown only when the options ask for them.

    Returns
    -------
    str
        The paragraphs.

    Raises
    ------
    RenderError
        When a tool nests past ``options.max_depth``.
    """
    return "\n\n".join(_paragraph(t) for t in prepare(toolset, options))
