"""Novel formats: notations the study invented to test one idea each.

Most build on the compact schema of ``_common`` (:func:`compact_block`: the tool's name, its
description after ``//``, one ``name?: type = default — description`` line per parameter and
``-> type``) and add what their idea needs: the nearest neighbour to tell apart
(``contrastive``), the siblings not to use (``negative_space``), a routing tree
(``decision_tree``), namespaces and deltas over domains (``namespaced``, ``diff_schema``; a
domain is the tools whose names share their first word, :func:`group_domains`), a pre-call
checklist, three layers of detail, a state graph. Others replace the schema: literal call
templates, worked transcripts, questions, an index by argument, a symbol notation, one matrix.

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
from ._common import (COMPACT, CompactNotation, compact_block, compact_line, example_arguments,
                      example_value, example_variants, first_sentence, group_domains,
                      json_text, markdown_cell, one_line, param_doc, prepare, returns_line,
                      sentence, split_domain, walk_params)
from ._prose import _words as type_words
from ._registry import RenderOptions, register_format

__all__ = ["capability_matrix", "checklist", "contrastive", "decision_tree", "diff_schema",
           "emoji_semantic", "namespaced", "negative_space", "progressive", "question_slots",
           "slot_template", "state_graph", "type_indexed", "worked_dialogue"]

_STOPWORDS = frozenset("""a an and are as at be by for from in into is it its of on or that the
    this to with""".split())


def _compact(tools: list[ToolIR]) -> str:
    """The compact schema of every tool, tools separated by blank lines."""
    return "\n\n".join("\n".join(compact_block(t)) for t in tools)


def _schema_flags(**extra: Any) -> dict[str, Any]:
    """Registration flags every format here shares (the study marks them all novel)."""
    return {"family": "novel", "novel": True, **extra}


# -- similarity between tools (contrastive, negative_space) -------------------------------------

def _words_of(text: str) -> set[str]:
    """Lower-case words of ``text``, camelCase and snake_case split, stop words dropped."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text)
    return {w for w in re.split(r"[\W_]+", spaced.lower()) if w and w not in _STOPWORDS}


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def _features(tool: ToolIR) -> tuple[set[str], set[str], set[str]]:
    """What similarity compares: name words, parameter names, description words."""
    return (_words_of(tool.name), {p.name for p in tool.params}, _words_of(tool.description))


def _similarity(a: tuple[set[str], ...], b: tuple[set[str], ...]) -> float:
    """Between two tools' :func:`_features`: name words count twice, parameter names and
    description words once each, each as a Jaccard index (0 to 4)."""
    return 2 * _jaccard(a[0], b[0]) + _jaccard(a[1], b[1]) + _jaccard(a[2], b[2])


def _neighbours(tools: list[ToolIR], count: int) -> dict[str, list[ToolIR]]:
    """Per tool, the ``count`` other tools most like it, most similar first (ties: earlier
    tools first)."""
    features = [_features(t) for t in tools]
    out = {}
    for i, tool in enumerate(tools):
        scored = sorted((-_similarity(features[i], features[j]), j) for j in range(len(tools))
                        if j != i)
        out[tool.name] = [tools[j] for _, j in scored[:count]]
    return out


def _only_in(a: ToolIR, b: ToolIR) -> list[str]:
    """Names of ``a``'s parameters that ``b`` does not take, in ``a``'s order."""
    theirs = {p.name for p in b.params}
    return [p.name for p in a.params if p.name not in theirs]


# -- contrastive ---------------------------------------------------------------------------------

def _contrast(tool: ToolIR, other: ToolIR) -> str:
    about = f" ({first_sentence(other.description)})" if other.description else ""
    diffs = []
    for a, b in ((other, tool), (tool, other)):
        names = _only_in(a, b)
        if names:
            diffs.append(f"only {a.name} takes {', '.join(names)}")
    text = "; ".join(diffs) if diffs else "both take the same arguments"
    return f"Not to be confused with {other.name}{about}: {text}."


@register_format(
    name="Compact schemas with their nearest neighbour",
    default_protocol="json_object",
    description=("The compact schema of each tool followed by a 'not to be confused with' "
                 "line naming the most similar other tool, with its purpose and the "
                 "arguments only one of the two takes."),
    **_schema_flags(),
    returns="The schemas, separated by blank lines.",
)
def contrastive(toolset: Toolset, options: RenderOptions) -> str:
    """Render the compact schemas, each with a line about its nearest neighbour.

    Per tool, the compact schema (see ``_common.compact_block``) then::

          ≠ Not to be confused with get_forecast (Forecast for days.): only get_forecast
            takes days; only get_weather takes unit.

    (on one line). The neighbour is the other tool with the highest similarity: name words
    (camelCase and snake_case split) twice, parameter names and description words once, each
    as a Jaccard index; ties go to the earlier tool. A toolset of one tool has no such line.
    """
    tools = prepare(toolset, options)
    nearest = _neighbours(tools, 1)
    blocks = []
    for tool in tools:
        lines = compact_block(tool)
        lines += [f"  ≠ {_contrast(tool, other)}" for other in nearest[tool.name]]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


# -- negative space ------------------------------------------------------------------------------

def _non_use(tool: ToolIR, sibling: ToolIR) -> str:
    if sibling.description:
        when = f"the request is for: {first_sentence(sibling.description)}"
    elif _only_in(sibling, tool):
        when = f"the request gives {', '.join(_only_in(sibling, tool))}"
    else:
        when = f"the request is what {sibling.name} does"
    return f"✗ Do not use {tool.name} when {when} — use {sibling.name} instead."


@register_format(
    name="Compact schemas with explicit non-uses",
    default_protocol="json_object",
    description=("The compact schema of each tool followed by 'do not use it when ...' lines "
                 "taken from its two most similar siblings, and a closing line on when to "
                 "call no tool at all."),
    **_schema_flags(),
    returns="The schemas, separated by blank lines, then the closing line.",
)
def negative_space(toolset: Toolset, options: RenderOptions) -> str:
    """Render the compact schemas, each with the cases it is not for.

    Per tool, the compact schema then up to two lines, one per most similar sibling
    (similarity as in :func:`contrastive`)::

          ✗ Do not use get_weather when the request is for: Forecast for days. — use
            get_forecast instead.

    (on one line). A sibling with no description is told apart by the arguments only it
    takes, else by its name. The block ends with ``✗ Use no tool when the request fits none
    of the tools above.``
    """
    tools = prepare(toolset, options)
    siblings = _neighbours(tools, 2)
    blocks = ["\n".join(compact_block(t) + [f"  {_non_use(t, s)}" for s in siblings[t.name]])
              for t in tools]
    return "\n\n".join([*blocks, "✗ Use no tool when the request fits none of the tools above."])


# -- decision tree -------------------------------------------------------------------------------

def _intent(tool: ToolIR) -> str:
    return (f"it asks for: {one_line(tool.description)}" if tool.description
            else f"it matches the name {tool.name}")


@register_format(
    name="Routing decision tree",
    default_protocol="json_object",
    description=("A numbered decision tree: first which domain (tools sharing the first word "
                 "of their names) the request is about, then which intent, ending at the "
                 "tool's signature and argument notes; a last branch for no tool."),
    **_schema_flags(),
    returns="The tree.",
    toolset_doc="The tools; grouped by domain, each group in the given order.",
)
def decision_tree(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a two-level numbered decision tree.

    Shape::

        1. If the request is about "get":
           1.1 If it asks for: Current weather for a city.
               → get_weather(city: string, unit?: "c"|"f" = "c") -> integer
                 city: City name.
           1.2 If it asks for: ...
        2. If the request is about "add":
           ...
        3. Otherwise: no tool fits; answer without a call.

    Domains come from ``_common.group_domains`` (the first word of the name), in order of
    first appearance. The intent is the tool's whole description (on one line); a leaf holds
    the tool's compact signature and one ``path: description`` line per described parameter
    or nested field.
    """
    lines = []
    domains = group_domains(prepare(toolset, options))
    for i, (domain, tools) in enumerate(domains, 1):
        lines.append(f"{i}. If the request is about {json_text(domain)}:")
        for j, tool in enumerate(tools, 1):
            lines.append(f"   {i}.{j} If {_intent(tool)}")
            lines.append(f"       → {COMPACT.signature(tool)}")
            lines += [f"         {path}: {sentence(p.description)}"
                      for path, p, _ in walk_params(tool.params) if p.description]
    lines.append(f"{len(domains) + 1}. Otherwise: no tool fits; answer without a call.")
    return "\n".join(lines)


# -- namespaces and deltas over domains ---------------------------------------------------------

@register_format(
    name="Namespaced grouping",
    default_protocol="json_object",
    description=("Tools grouped in namespace blocks by the first word of their names, each "
                 "member written by the rest of its name with its compact schema and the "
                 "full name to call; tools alone in their domain stand outside any block."),
    **_schema_flags(compressed=True),
    returns="The blocks, separated by blank lines.",
    toolset_doc="The tools; grouped by domain, each group in the given order.",
)
def namespaced(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as namespace blocks.

    Shape::

        namespace get {
          weather  [call: get_weather]
            // Current weather for a city.
            city: string — City name.
          forecast  [call: get_forecast]
            ...
        }

    A domain (``_common.group_domains``) of two or more tools becomes a ``namespace`` block
    whose members are headed by the part of their name after the domain word and its
    separator, then the full name to call (a call must still use the full name). A tool
    alone in its domain, or whose whole name is the domain word, is written in full outside
    any block. Member bodies are the compact schema's lines.
    """
    blocks = []
    for domain, tools in group_domains(prepare(toolset, options)):
        members = [t for t in tools if split_domain(t.name)[1]] if len(tools) > 1 else []
        if members:
            lines = [f"namespace {domain} {{"]
            for tool in members:
                body = compact_block(tool, indent="    ")
                lines += [f"  {split_domain(tool.name)[1]}  [call: {tool.name}]", *body[1:]]
            blocks.append("\n".join([*lines, "}"]))
        blocks += ["\n".join(compact_block(t)) for t in tools if t not in members]
    return "\n\n".join(blocks)


def _keyed_lines(tool: ToolIR) -> list[tuple[str, str]]:
    """The compact schema's lines below the name, each with its key: ``//`` for the
    description, ``->`` for the return type, else the parameter's name."""
    lines = compact_block(tool, indent="")[1:]
    keys = (["//"] if tool.description else []) + [p.name for p in tool.params]
    return list(zip(keys + (["->"] if tool.returns is not None else []), lines))


def _delta(base: ToolIR, tool: ToolIR) -> list[str]:
    """``tool`` as changes to ``base``: ``~ line`` changed, ``+ line`` added, ``- key`` removed."""
    before = dict(_keyed_lines(base))
    after = _keyed_lines(tool)
    out = [f"~ {line}" if key in before else f"+ {line}" for key, line in after
           if before.get(key) != line]
    kept = {key for key, _ in after}
    return out + [f"- {key}" for key in before if key not in kept]


@register_format(
    name="Delta-encoded schemas",
    default_protocol="json_object",
    description=("Per domain (tools sharing the first word of their names) the first tool in "
                 "full compact form and every other tool as a diff against it: + added, "
                 "- removed, ~ changed lines for parameters, description and return type."),
    **_schema_flags(compressed=True),
    returns="One block per domain, separated by blank lines.",
    toolset_doc=("The tools; grouped by domain (``_common.group_domains``), each in the given "
                 "order."),
)
def diff_schema(toolset: Toolset, options: RenderOptions) -> str:
    """Render each domain as a base tool and diffs against it.

    Shape::

        # domain get
        get_weather
          // Current weather for a city.
          city: string — City name.
          unit?: "c"|"f" = "c"
          -> integer
        get_forecast: diff against get_weather
          ~ // Forecast for several days.
          + days?: integer(minimum=1) — How many days.
          - unit

    The base is the compact schema (``_common.compact_block``). In a diff, each line of the
    tool's own compact schema that differs from the base's line with the same key (``//``
    the description, ``->`` the return type, else the parameter name) is written as ``~
    line`` (changed) or ``+ line`` (the base has no such key), in the tool's order; keys of
    the base the tool lacks follow as ``- key``. Replacing, adding and removing those lines
    in the base gives the tool's compact schema back (parameter order aside). A tool equal
    to its base but for the name has a header and no lines.
    """
    blocks = []
    for domain, tools in group_domains(prepare(toolset, options)):
        base, rest = tools[0], tools[1:]
        lines = [f"# domain {domain}", *compact_block(base)]
        for tool in rest:
            lines.append(f"{tool.name}: diff against {base.name}")
            lines += [f"  {line}" for line in _delta(base, tool)]
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


# -- call templates, transcripts -----------------------------------------------------------------

def _slots(t: TypeIR, default: Any = None, has_default: bool = False) -> Any:
    """The template of a value: nested objects and lists of objects as JSON, any other value
    as a ``"<type>"`` placeholder string (``"<integer(minimum=1)> = 20"`` with a default)."""
    if t.kind == "object" and t.fields and not t.nullable:
        return {f.name: _slots(f.type, f.default, f.has_default) for f in t.fields}
    if (t.kind == "array" and t.items is not None and t.items.kind == "object" and t.items.fields
            and not t.nullable):
        bounds = [f"{k}={json_text(getattr(t, a))}" for a, k in
                  (("min_items", "minItems"), ("max_items", "maxItems"))
                  if getattr(t, a) is not None]
        more = "<more items like this one" + (f"; {', '.join(bounds)}" if bounds else "") + ">"
        return [_slots(t.items), more]
    text = f"<{COMPACT.type(t)}>"
    return f"{text} = {json_text(default)}" if has_default else text


def _template(tool: ToolIR) -> list[str]:
    head = f"{tool.name} — {one_line(tool.description)}" if tool.description else tool.name
    arguments = {p.name: _slots(p.type, p.default, p.has_default) for p in tool.params}
    lines = [head, "  " + json.dumps({"name": tool.name, "arguments": arguments},
                                     ensure_ascii=False)]
    lines += [f"  {path}: {sentence(p.description)}" for path, p, _ in walk_params(tool.params)
              if p.description]
    optional = [path for path, p, _ in walk_params(tool.params) if not p.required]
    if optional:
        lines.append(f"  optional: {', '.join(optional)}")
    ret = returns_line(tool)
    return lines + ([f"  {ret}"] if ret is not None else [])


@register_format(
    name="Fill-in-the-blank call templates",
    default_protocol="json_object",
    description=("Each tool as the literal JSON call to emit, with a typed \"<placeholder>\" "
                 "in every value slot (nested objects written out), followed by the "
                 "descriptions, the optional keys and the return type."),
    **_schema_flags(),
    returns="The templates, separated by blank lines.",
)
def slot_template(toolset: Toolset, options: RenderOptions) -> str:
    """Render each tool as a JSON call template to copy and fill.

    Per tool::

        get_weather — Current weather for a city.
          {"name": "get_weather", "arguments": {"city": "<string>", "days": "<integer> = 1"}}
          city: City name.
          optional: days
          -> integer

    The template line is valid JSON. An object with fields is written as an object of
    templates and a list of such objects as ``[template, "<more items like this one;
    minItems=1>"]``; every other value is a string ``"<type>"`` in the compact notation,
    with ``= default`` when there is one. Below it: ``path: description`` for every described
    parameter and nested field, ``optional:`` with the paths of every optional one, and the
    return type. The block opens with one line saying how to fill the slots.
    """
    intro = ('Copy the call of the tool you need and replace every "<type>" slot with a value '
             "of that type (numbers, booleans, lists and objects unquoted); leave out optional "
             "keys you do not need.")
    return "\n\n".join([intro, *("\n".join(_template(t)) for t in prepare(toolset, options))])


def _dialogue(tool: ToolIR, variant: int) -> list[str]:
    arguments = example_arguments(tool, variant)
    request = first_sentence(tool.description) if tool.description else f"Please run {tool.name}."
    if arguments:
        request += " Use " + ", ".join(f"{k} {json_text(v)}" for k, v in arguments.items()) + "."
    lines = [f"User: {request}",
             "Assistant: " + json.dumps({"name": tool.name, "arguments": arguments},
                                        ensure_ascii=False)]
    if tool.returns is not None:
        lines.append(f"Tool: {json_text(example_value(tool.returns, 'result', variant))}")
    return lines


@register_format(
    name="Worked mini-transcripts",
    default_protocol="json_object",
    description=("For each tool a short transcript (more when its choices need them): a user "
                 "request built from its description with example values for every argument, "
                 "the exact JSON call that answers it, and an example result; no schema."),
    **_schema_flags(lossy=True),
    returns="The transcripts.",
)
def worked_dialogue(toolset: Toolset, options: RenderOptions) -> str:
    """Render worked transcripts, separated by blank lines.

    Per transcript::

        User: Current weather for a city. Use city "another city", unit "f".
        Assistant: {"name": "get_weather", "arguments": {"city": "another city", "unit": "f"}}
        Tool: 3

    The request is the first sentence of the description (``Please run x.`` without one)
    and the example arguments; the call gives every parameter and nested field a value
    (``_common.example_arguments``, variants 1 and up); the ``Tool:`` line, an example of
    the return type, is there only when it is known. A tool gets one transcript per choice
    of its largest enum or union (``_common.example_variants``, at least one), so every
    value and option appears. Types, constraints, defaults, parameter descriptions and which
    arguments are optional are not shown (the format is lossy).
    """
    return "\n\n".join("\n".join(_dialogue(t, v)) for t in prepare(toolset, options)
                        for v in range(1, example_variants(t) + 1))


# -- state graph ---------------------------------------------------------------------------------

def _gives(tool: ToolIR) -> list[str]:
    """The values a call makes known: the result's field names, else ``<name> result``."""
    if tool.returns is not None and tool.returns.kind == "object" and tool.returns.fields:
        return [f.name for f in tool.returns.fields]
    return [f"{tool.name} result"]


@register_format(
    name="Precondition and effect graph",
    default_protocol="json_object",
    description=("Tools as edges between states of knowledge: what must be known before a "
                 "call (its required arguments), what it may also use, what the call makes "
                 "known, and which tools can come before it because they give what it needs."),
    **_schema_flags(),
    returns="The graph.",
)
def state_graph(toolset: Toolset, options: RenderOptions) -> str:
    """Render each tool as an edge of a state graph, tools separated by blank lines.

    Per tool::

        get_order
          // Look up an order.
          needs order_id: string — The order.
          may use verbose?: boolean
          gives status: string
          after create_order (gives order_id)

    ``needs`` and ``may use`` lines are the compact lines of the required and optional
    parameters. ``gives`` lists what a call makes known: the fields of an object result, or
    ``<name> result`` (with the return type when known). ``after`` names each other tool
    whose ``gives`` include a value this one ``needs``. The block opens with one line
    explaining the reading.
    """
    tools = prepare(toolset, options)
    gives = {t.name: _gives(t) for t in tools}
    blocks = ["Each tool is a step: it can run once the values it needs are known, and its "
              "call makes the values it gives known."]
    for tool in tools:
        lines = [tool.name]
        if tool.description:
            lines.append(f"  // {one_line(tool.description)}")
        lines += [f"  {'needs' if p.required else 'may use'} {compact_line(p)}"
                  for p in tool.params]
        if tool.returns is not None and tool.returns.kind == "object" and tool.returns.fields:
            lines += [f"  gives {compact_line(f)}" for f in tool.returns.fields]
        else:
            ret = f": {COMPACT.type(tool.returns)}" if tool.returns is not None else ""
            lines.append(f"  gives {tool.name} result{ret}")
        needed = {p.name for p in tool.params if p.required}
        for other in tools:
            shared = [g for g in gives[other.name] if g in needed]
            if other is not tool and shared:
                lines.append(f"  after {other.name} (gives {', '.join(shared)})")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


# -- layers, questions, index by argument -------------------------------------------------------

@register_format(
    name="Progressive disclosure in three layers",
    default_protocol="json_object",
    description=("Three layers in one block, cheapest first: a one-line index of every tool, "
                 "then each tool with its argument names only, then the full compact schemas "
                 "with types, constraints and descriptions."),
    **_schema_flags(),
    returns="The three layers, separated by blank lines.",
)
def progressive(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset three times, with more detail each time.

    Shape::

        Layer 1 — index:
          get_weather — Current weather for a city.
        Layer 2 — arguments ([name] is optional):
          get_weather(city, [unit])
        Layer 3 — full schemas:
        get_weather
          // Current weather for a city.
          city: string — City name.
          ...

    Layer 1 keeps the first sentence of each description; layer 3 is the compact schema
    (``_common.compact_block``) of every tool.
    """
    tools = prepare(toolset, options)
    index = [f"  {t.name} — {first_sentence(t.description)}" if t.description else f"  {t.name}"
             for t in tools]
    names = [f"  {t.name}({', '.join(p.name if p.required else f'[{p.name}]' for p in t.params)})"
             for t in tools]
    return "\n\n".join(["\n".join(["Layer 1 — index:", *index]),
                        "\n".join(["Layer 2 — arguments ([name] is optional):", *names]),
                        "Layer 3 — full schemas:\n" + _compact(tools)])


def _question(name: str, t: TypeIR) -> str:
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name)
    words = " ".join(re.split(r"[\W_]+", spaced)).strip().lower() or name
    if t.kind == "enum":
        return f"Which {words}?"
    if t.kind == "boolean":
        return f"{words[0].upper()}{words[1:]}, yes or no?"
    return f"What {words}?"


def _question_line(path: str, p: ParamIR) -> str:
    notes = [type_words(p.type), "required" if p.required else "optional"]
    if p.has_default:
        notes.append(f"{json_text(p.default)} by default")
    text = f"{path}: {_question(p.name, p.type)} ({', '.join(notes)})"
    return f"{text} {sentence(p.description)}" if p.description else text


@register_format(
    name="Arguments as questions",
    default_protocol="key_value_call",
    description=("Each argument, nested fields included, written as the question the tool "
                 "asks ('Which unit? (one of \"c\" or \"f\", optional)'), with its type in "
                 "words, whether it is required, its default and its description."),
    **_schema_flags(),
    returns="The questions.",
)
def question_slots(toolset: Toolset, options: RenderOptions) -> str:
    """Render each tool as the questions its arguments answer, tools separated by blank lines.

    Per tool::

        get_weather — Current weather for a city.
          city: What city? (a string, required) City name.
          unit: Which unit? (one of "c" or "f", optional, "c" by default)
          address: What address? (an object, required)
            address.street: What street? (a string, required)
          -> integer

    Every parameter and nested field has a line ``path: question (type in words, required
    or optional, default) description``, indented two more spaces per level; the question
    is ``Which x?`` for an enum, ``X, yes or no?`` for a boolean, ``What x?`` otherwise,
    with the name's words split. Paths are as in ``_common.walk_fields``.
    """
    blocks = []
    for tool in prepare(toolset, options):
        lines = [f"{tool.name} — {one_line(tool.description)}" if tool.description else tool.name]
        if not tool.params:
            lines.append("  (no questions: call it with no arguments)")
        lines += ["  " * (depth + 1) + _question_line(path, p)
                  for path, p, depth in walk_params(tool.params)]
        ret = returns_line(tool)
        if ret is not None:
            lines.append(f"  {ret}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


@register_format(
    name="Index by argument",
    default_protocol="json_object",
    description=("The listing turned inside out: one entry per argument name and type, "
                 "saying which tools take it (required or optional, default, description), "
                 "then a short list of the tools with their purpose and result."),
    **_schema_flags(),
    returns="The index.",
    toolset_doc="The tools.",
)
def type_indexed(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset indexed by argument.

    Shape::

        By argument:
          city: string
            get_weather (required) — City name.
            get_forecast (optional)
          unit: "c"|"f"
            get_weather (optional, default "c")
        Tools:
          get_weather — Current weather for a city. -> integer
          ping (no arguments)

    Entries are keyed by the top-level parameter's compact line without its description
    (name, type, nested fields), sorted by name then type; under each, the tools taking it in
    toolset order with required or optional, default and description (nested fields'
    descriptions included). The ``Tools:`` list gives every tool's description and return
    type, and marks tools with no arguments.
    """
    tools = prepare(toolset, options)
    entries: dict[tuple[str, str], list[str]] = {}
    for tool in tools:
        for p in tool.params:
            use = f"{tool.name} ({'required' if p.required else 'optional'}"
            use += f", default {json_text(p.default)})" if p.has_default else ")"
            doc = param_doc(p)
            entries.setdefault((p.name, COMPACT.type(p.type)), []).append(
                f"{use} — {doc}" if doc else use)
    lines = ["By argument:"]
    for (name, kind), uses in sorted(entries.items()):
        lines += [f"  {name}: {kind}", *(f"    {use}" for use in uses)]
    lines.append("Tools:")
    for tool in tools:
        parts = [tool.name]
        if tool.description:
            parts.append(f"— {one_line(tool.description)}")
        if tool.returns is not None:
            parts.append(f"-> {COMPACT.type(tool.returns)}")
        if not tool.params:
            parts.append("(no arguments)")
        lines.append("  " + " ".join(parts))
    return "\n".join(lines)


# -- symbols -------------------------------------------------------------------------------------

#: The symbols of ``emoji_semantic`` and what each means (shown at the top of the block).
EMOJI_LEGEND = {"🔤": "string", "🔢": "integer", "📏": "number", "✅": "boolean", "∅": "null",
                "🎲": "any value", "📦": "object {fields}", "📚": "list [items]",
                "🔘": "one of the values listed after it", "🔀": "one of the types (a | b)",
                "❗": "required", "❔": "optional", "🟰": "default", "📐": "constraints",
                "📤": "returns"}


class _EmojiNotation(CompactNotation):
    """The compact notation with every type word and marker replaced by a symbol."""

    _KINDS = {"string": "🔤", "integer": "🔢", "number": "📏", "boolean": "✅", "null": "∅",
              "any": "🎲", "object": "📦"}

    def kind(self, kind: str) -> str:
        return self._KINDS[kind]

    def enum(self, values: tuple[Any, ...]) -> str:
        return "🔘" + "|".join(json_text(v) for v in values)

    def array(self, items: str) -> str:
        return f"📚[{items}]"

    def record(self, fields: list[str]) -> str:
        return "📦{" + ", ".join(fields) + "}"

    def union(self, options: list[str]) -> str:
        return "🔀(" + " | ".join(options) + ")"

    def nullable(self, text: str) -> str:
        return f"{text}|∅"

    def constrained(self, text: str, pairs: list[tuple[str, Any]]) -> str:
        return f"{text}📐({', '.join(f'{k}={json_text(v)}' for k, v in pairs)})"

    def field(self, p: ParamIR) -> str:
        text = f"{'❗' if p.required else '❔'}{p.name} {self.type(p.type)}"
        return f"{text} 🟰{json_text(p.default)}" if p.has_default else text


_EMOJI = _EmojiNotation()


@register_format(
    name="Symbol-channel notation",
    default_protocol="json_object",
    description=("Types and markers written as single symbols outside the Latin alphabet "
                 "(🔤 string, 🔢 integer, 📦 object, ❗ required, ❔ optional...), with the "
                 "legend first, so that type information never reads as an English word."),
    **_schema_flags(compressed=True),
    returns="The legend line, then one block per tool.",
)
def emoji_semantic(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset in the symbol notation, legend first.

    Shape::

        Legend: 🔤 string · 🔢 integer · ... · 📤 returns
        get_weather 📤🔢 — Current weather for a city.
          ❗city 🔤 — City name.
          ❔unit 🔘"c"|"f" 🟰"c"
          ❗address 📦{❗street 🔤, ❔zip 🔤📐(maxLength=5)} — Where. address.street: ...

    The legend is :data:`EMOJI_LEGEND`. A type is its symbol (``📚[items]`` for a list,
    ``📦{fields}`` for an object, ``🔘`` then the JSON values of an enum, ``🔀(a | b)`` for a
    union, ``|∅`` for nullable), constraints follow ``📐`` with JSON Schema's keywords;
    ``❗``/``❔`` precede a required/optional name and ``🟰`` a default. Each parameter line
    ends with its description and those of its nested fields.
    """
    lines = ["Legend: " + " · ".join(f"{s} {meaning}" for s, meaning in EMOJI_LEGEND.items())]
    for tool in prepare(toolset, options):
        head = tool.name
        if tool.returns is not None:
            head += f" 📤{_EMOJI.type(tool.returns)}"
        if tool.description:
            head += f" — {one_line(tool.description)}"
        lines.append(head)
        lines += [f"  {compact_line(p, _EMOJI)}" for p in tool.params]
    return "\n".join(lines)


# -- checklist, matrix ---------------------------------------------------------------------------

@register_format(
    name="Compact schemas with a pre-call checklist",
    default_protocol="json_object",
    description=("The compact schemas followed by a checklist to run before writing a call: "
                 "the tool name is one listed, each tool's required arguments (listed) are "
                 "present, enum values are copied exactly, nothing is invented, types and "
                 "bounds hold."),
    **_schema_flags(),
    returns="The schemas and the checklist, separated by blank lines.",
)
def checklist(toolset: Toolset, options: RenderOptions) -> str:
    """Render the compact schemas, then a pre-call checklist.

    The checklist::

        Before writing a call, check each point:
        [ ] 1. The tool name is copied exactly from the list above.
        [ ] 2. Every required argument is present (names without "?"):
               get_weather: city; add: a, b; ping: none
        [ ] 3. Every value from a list of choices is copied exactly, quotes and case included.
        [ ] 4. No argument is invented: only names listed under the tool (or inside its objects).
        [ ] 5. Every value has its listed type and stays within its listed bounds.
    """
    tools = prepare(toolset, options)
    required = "; ".join(f"{t.name}: {', '.join(p.name for p in t.params if p.required) or 'none'}"
                         for t in tools)
    points = ["The tool name is copied exactly from the list above.",
              f'Every required argument is present (names without "?"):\n       {required}',
              "Every value from a list of choices is copied exactly, quotes and case included.",
              "No argument is invented: only names listed under the tool (or inside its "
              "objects).",
              "Every value has its listed type and stays within its listed bounds."]
    check = ["Before writing a call, check each point:",
             *(f"[ ] {i}. {point}" for i, point in enumerate(points, 1))]
    return "\n\n".join(filter(None, [_compact(tools), "\n".join(check)]))


def _matrix_cell(p: ParamIR) -> str:
    """``R: type`` or ``O: type = default`` (the compact notation)."""
    text = f"{'R' if p.required else 'O'}: {COMPACT.type(p.type)}"
    return f"{text} = {json_text(p.default)}" if p.has_default else text


@register_format(
    name="Tool-by-argument matrix",
    default_protocol="json_object",
    language="markdown",
    description=("One Markdown table for the whole toolset: a row per tool, a column per "
                 "argument name any tool takes and one for the result; each cell says "
                 "whether the tool requires the argument, accepts it or does not take it, "
                 "and its type. No descriptions."),
    **_schema_flags(lossy=True, compressed=True),
    returns="The legend line and the table.",
    toolset_doc="The tools, one row each, in the given order.",
    options_doc="Return types are shown only when the options ask for them.",
)
def capability_matrix(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as one tool × argument matrix (a GFM table).

    Shape::

        R = required, O = optional, - = not taken; the type follows the colon.

        | tool | city | unit | a | b | → returns |
        | --- | --- | --- | --- | --- | --- |
        | get_weather | R: string | O: "c"\\|"f" = "c" | - | - | - |
        | add | - | - | R: integer | R: integer | integer |

    Columns are the top-level argument names in order of first appearance, then ``→
    returns`` when any tool's return type is known. A cell holds ``R`` or ``O`` and the
    argument's type in the compact notation (nested fields inline, enum values, constraints,
    default), or ``-``. Descriptions are not shown (the format is lossy). Pipes are escaped
    as ``\\|``.
    """
    tools = prepare(toolset, options)
    columns = list(dict.fromkeys(p.name for t in tools for p in t.params))
    returns = any(t.returns is not None for t in tools)
    rows = [["tool", *columns, *(["→ returns"] if returns else [])]]
    rows.append(["---"] * len(rows[0]))
    for tool in tools:
        cells = {p.name: _matrix_cell(p) for p in tool.params}
        row = [tool.name, *(cells.get(c, "-") for c in columns)]
        if returns:
            row.append(COMPACT.type(tool.returns) if tool.returns is not None else "-")
        rows.append(row)
    table = ["| " + " | ".join(markdown_cell(cell) for cell in row) + " |" for row in rows]
    return "\n".join(["R = required, O = optional, - = not taken; the type follows the colon.",
                      "", *table])
