"""Grammar formats: the tools as grammars of their calls (EBNF, llama.cpp GBNF, regular
expressions) and as type notations (typed lambda calculus, a symbolic shorthand).

The three grammars share one walk (:class:`CallGrammar`): every tool's calls, written as the
``json_object`` protocol writes them (``{"name": "tool", "arguments": {...}}`` with ``", "``
and ``": "`` between items, arguments in the order the tool declares them), become a tree
of grammar nodes (literal text, rule references, sequences, alternatives, options,
repetitions and the JSON primitives ``string``, ``integer``, ``number``...). Required
arguments must appear, optional ones may; enums are alternations of their JSON values;
nested objects are rules of their own. Each dialect prints the same tree in its own syntax
(:class:`Dialect`); the regular expressions inline every rule and, as the format has no
nesting, match nested objects as any JSON object.

Constraints a context-free grammar cannot state (bounds, lengths, patterns) are comments.

Recursive and map types (see ``toolform.ir``): EBNF and GBNF give a recursive type one rule of
its own, which its uses inside refer to (a call of any depth is in the language), and read a
map as any JSON object (its declared fields in the comments); the regular expressions and the
two type notations show a recursive type unrolled to ``RenderOptions.recursion_depth`` levels
(the regular expressions match any object below the arguments anyway), the type notations a
map with stand-in keys (``<key>``, ``<key matching the pattern P>``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence, Union

from ..ir import ParamIR, ToolIR, Toolset, TypeIR
from ._common import (CompactNotation, ascii_words, comment_lines, constraint_notes, json_text,
                      one_line, prepare, sentence, unique_name)
from ._registry import RenderOptions, register_format

__all__ = ["CallGrammar", "Dialect", "ebnf_grammar", "gbnf_grammar", "regex_spec",
           "symbolic_compressed", "typed_lambda"]


# -- grammar nodes -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Lit:
    """Literal text."""

    text: str


@dataclass(frozen=True)
class Ref:
    """A reference to a rule (or to a JSON primitive: ``string``, ``integer``...)."""

    name: str


@dataclass(frozen=True)
class Seq:
    """Items one after another."""

    items: tuple[Node, ...]


@dataclass(frozen=True)
class Alt:
    """One of the items."""

    items: tuple[Node, ...]


@dataclass(frozen=True)
class Opt:
    """The item or nothing."""

    item: Node


@dataclass(frozen=True)
class Rep:
    """The item zero or more times."""

    item: Node


Node = Union[Lit, Ref, Seq, Alt, Opt, Rep]

#: The JSON primitives every dialect defines (when used) in its prelude.
_PRIMITIVES = ("value", "object", "array", "string", "number", "integer", "boolean", "null")


def _seq(*items: Node) -> Node:
    """A sequence with neighbouring literals merged and nested sequences flattened."""
    out: list[Node] = []
    for item in items:
        for sub in (item.items if isinstance(item, Seq) else (item,)):
            if isinstance(sub, Lit) and out and isinstance(out[-1], Lit):
                out[-1] = Lit(out[-1].text + sub.text)
            elif not (isinstance(sub, Lit) and not sub.text):
                out.append(sub)
    return out[0] if len(out) == 1 else Seq(tuple(out))


def _alt(*items: Node) -> Node:
    out: list[Node] = []
    for item in items:
        for sub in (item.items if isinstance(item, Alt) else (item,)):
            if sub not in out:
                out.append(sub)
    return out[0] if len(out) == 1 else Alt(tuple(out))


@dataclass
class Rule:
    """A named rule with comment lines shown above it."""

    name: str
    body: Node
    notes: list[str] = field(default_factory=list)


class CallGrammar:
    """The grammar of a toolset's calls in the ``json_object`` protocol.

    Parameters
    ----------
    rule_name : callable
        Makes a rule name from path parts (each dialect spells names its own way).
    nest : bool
        False matches every object below the arguments as any JSON object.

    Attributes
    ----------
    rules : list of Rule
        The rules, in order: ``call`` (one per tool, alternatives), then each tool's rules.
    used : set of str
        The JSON primitives referenced.
    """

    def __init__(self, rule_name: Callable[[Sequence[str]], str], nest: bool = True) -> None:
        self._name = rule_name
        self.nest = nest
        self.taken = {rule_name([p]) for p in _PRIMITIVES} | {rule_name(["call"]),
                                                             rule_name(["root"])}
        self.rules: list[Rule] = []
        self.used: set[str] = set()
        self._named: list[tuple[str, str]] = []  # (type name, rule) of the enclosing named types
        self._defined: list[tuple[TypeIR, str]] = []  # named types already given a rule

    def prim(self, name: str) -> Ref:
        self.used.add(name)
        return Ref(self._name([name]))

    def tool(self, tool: ToolIR) -> Rule:
        """The rule of ``tool``'s calls (its own nested rules are added to :attr:`rules`)."""
        name = unique_name(self._name([tool.name]), self.taken)
        rule = Rule(name, Lit(""), _tool_notes(tool))
        self.rules.append(rule)
        args = self.members(tool.params, [tool.name], tool.name)
        rule.body = _seq(Lit('{"name": ' + json_text(tool.name) + ', "arguments": '), args,
                         Lit("}"))
        return rule

    def members(self, fields: Sequence[ParamIR], parts: Sequence[str], path: str) -> Node:
        """An object with ``fields``: required ones present, optional ones maybe, in order."""
        items = [(_seq(Lit(json_text(f.name) + ": "),
                       self.value(f.type, [*parts, f.name], f"{path}.{f.name}")), f.required)
                 for f in fields]
        if not items:
            return Lit("{}")

        def rest(i: int) -> Node:
            parts_ = [_seq(Lit(", "), m) if req else Opt(_seq(Lit(", "), m))
                      for m, req in items[i + 1:]]
            return _seq(*parts_) if parts_ else Lit("")

        firsts: list[Node] = []
        for i, (m, req) in enumerate(items):
            firsts.append(_seq(m, rest(i)))
            if req:
                break
        body = _alt(*firsts)
        if not any(req for _, req in items):
            body = Opt(body)
        return _seq(Lit("{"), body, Lit("}"))

    def named(self, t: TypeIR, path: str) -> Ref:
        """The rule of the named (recursive) type ``t``, which its references name too."""
        if not self._named:
            for seen, name in self._defined:
                if seen == t:
                    return Ref(name)
        name, n = self._name([t.name]), 1
        while name in self.taken:
            n += 1
            name = self._name([t.name, str(n)])
        self.taken.add(name)
        inner = replace(t, name="")
        notes = comment_lines(f"{t.name} (first at {path}): a recursive type; its uses inside "
                              "refer to this rule")
        plain_object = inner.kind == "object" and inner.fields and not inner.is_map
        if plain_object:
            notes += _field_notes(inner.fields, path)[1:]
        rule = Rule(name, Lit(""), notes)
        self.rules.append(rule)
        self._named.append((t.name, name))
        try:
            if plain_object:
                body = self.members(inner.fields, [t.name], path)
                rule.body = _alt(body, self.prim("null")) if inner.nullable else body
            else:
                rule.body = self.value(inner, [t.name], path)
        finally:
            self._named.pop()
        if not self._named:
            self._defined.append((t, name))
        return Ref(name)

    def value(self, t: TypeIR, parts: Sequence[str], path: str) -> Node:
        """The values of type ``t`` (``parts`` name its rules, ``path`` is shown)."""
        if t.name and self.nest:
            return self.named(t, path)
        if t.kind == "ref":
            name = next((r for n, r in reversed(self._named) if n == t.ref), None)
            node = Ref(name) if name is not None else self.prim("value")
            return _alt(node, self.prim("null")) if t.nullable else node
        if t.kind == "enum":
            node: Node = _alt(*(Lit(json_text(v)) for v in t.values)) if t.values else (
                self.prim("value"))
        elif t.kind == "union":
            node = _alt(*(self.value(o, [*parts, str(i)], f"{path}#{i}")
                          for i, o in enumerate(t.options, 1))) if t.options else (
                self.prim("value"))
        elif t.kind == "array":
            item = self.value(t.items, [*parts, "item"], f"{path}[]") if (
                t.items is not None) else self.prim("value")
            more = Rep(_seq(Lit(", "), item))
            inner = _seq(item, more) if (t.min_items or 0) >= 1 else Opt(_seq(item, more))
            node = _seq(Lit("["), inner, Lit("]"))
        elif t.is_map and t.fields and self.nest:
            # keys beyond the declared ones are allowed: any object, its fields in comments
            name = unique_name(self._name(parts), self.taken)
            self.rules.append(Rule(name, self.prim("object"), _field_notes(t.fields, path)))
            node = Ref(name)
        elif t.kind == "object" and t.fields and self.nest and not t.is_map:
            name = unique_name(self._name(parts), self.taken)
            rule = Rule(name, Lit(""), _field_notes(t.fields, path))
            self.rules.append(rule)
            rule.body = self.members(t.fields, parts, path)
            node = Ref(name)
        elif t.kind == "object":
            node = self.prim("object")
        elif t.kind == "any":
            node = self.prim("value")
        else:
            node = self.prim(t.kind)
        if t.nullable and t.kind not in ("null", "any"):
            node = _alt(node, self.prim("null"))
        return node


def _param_line(p: ParamIR, path: str) -> str:
    """``path (required): Description. Constraints. Default.`` on one line."""
    phrases = constraint_notes(p.type)
    if p.has_default:
        phrases.append(f"default {json_text(p.default)}")
    text = f"{path} ({'required' if p.required else 'optional'})"
    said = ", ".join(phrases)
    doc = " ".join(part for part in (sentence(p.description) if p.description else "",
                                     sentence(said[:1].upper() + said[1:]) if said else "")
                   if part)
    return f"{text}: {doc}" if doc else text


def _tool_notes(tool: ToolIR) -> list[str]:
    lines = [f"{tool.name}: {line}" if i == 0 else line
             for i, line in enumerate(comment_lines(tool.description))] or [tool.name]
    return lines + [f"  {c}" for p in tool.params for c in comment_lines(_param_line(p, p.name))]


def _field_notes(fields: Sequence[ParamIR], path: str) -> list[str]:
    return [*comment_lines(f"{path}:"), *(f"  {c}" for f in fields
                                          for c in comment_lines(_param_line(f, f.name)))]


# -- dialects ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Dialect:
    """How a grammar notation spells rules, literals and operators.

    Parameters
    ----------
    define, end : str
        Between a rule's name and body, and after the body (``" ::= "``, ``""``).
    postfix : bool
        Options and repetitions are postfix operators (``x?``, ``x*``), so a sequence or an
        alternation under them needs parentheses.
    concat, alt : str
        Joins sequence items and alternatives.
    optional, repeat : callable
        Write an optional item and a repeated item from the item's text.
    literal : callable
        Writes literal text.
    comment : callable
        Writes one comment line.
    prelude : dict of str to str
        The body of each JSON primitive rule (and the helper rules they use).
    prelude_deps : dict of str to tuple
        The rules each primitive rule refers to.
    """

    define: str
    end: str
    postfix: bool
    concat: str
    alt: str
    optional: Callable[[str], str]
    repeat: Callable[[str], str]
    literal: Callable[[str], str]
    comment: Callable[[str], str]
    prelude: dict[str, str]
    prelude_deps: dict[str, tuple[str, ...]]

    def node(self, n: Node, parent: str = "") -> str:
        """``n`` written in this dialect (parenthesised where the parent needs it)."""
        if isinstance(n, Lit):
            return self.literal(n.text)
        if isinstance(n, Ref):
            return n.name
        if isinstance(n, (Opt, Rep)):
            inner = self.node(n.item, "postfix" if self.postfix else "bracket")
            return self.optional(inner) if isinstance(n, Opt) else self.repeat(inner)
        if isinstance(n, Seq):
            text = self.concat.join(self.node(i, "seq") for i in n.items)
            return f"( {text} )" if parent == "postfix" else text
        text = self.alt.join(self.node(i, "alt") for i in n.items)
        return f"( {text} )" if parent in ("seq", "postfix") else text

    def rules(self, rules: Sequence[Rule], used: set[str]) -> list[str]:
        """Every rule, then the prelude rules the grammar uses (with what they use)."""
        lines: list[str] = []
        for rule in rules:
            if rule.notes:  # already one line each (comment_lines)
                lines += ["", *(self.comment(line) for line in rule.notes)]
            lines.append(f"{rule.name}{self.define}{self.node(rule.body)}{self.end}")
        needed: list[str] = []
        stack = sorted(used)
        while stack:
            name = stack.pop()
            if name not in needed:
                needed.append(name)
                stack += self.prelude_deps.get(name, ())
        if needed:
            lines += ["", self.comment("JSON values")]
            lines += [f"{name}{self.define}{self.prelude[name]}{self.end}"
                      for name in self.prelude if name in needed]
        return lines


def _iso_literal(text: str) -> str:
    """An ISO 14977 terminal: in double quotes, else single quotes, else the concatenation
    of pieces split at the single quotes (a terminal cannot hold its own quote and has no
    escapes)."""
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    out = []
    for i, piece in enumerate(text.split("'")):
        if i:
            out.append('"\'"')
        if piece:
            out.append(f"'{piece}'")
    return " , ".join(out)


_EBNF = Dialect(
    define=" = ", end=" ;", postfix=False, concat=" , ", alt=" | ",
    optional=lambda x: f"[ {x} ]", repeat=lambda x: f"{{ {x} }}",
    literal=lambda text: _iso_literal(text) if text else '""',
    comment=lambda text: f"(* {text.replace('*)', '* )').replace('(*', '( *')} *)",
    prelude={
        "value": "object | array | string | number | boolean | null",
        "object": '"{" , [ string , ": " , value , { ", " , string , ": " , value } ] , "}"',
        "array": '"[" , [ value , { ", " , value } ] , "]"',
        "string": "'\"' , { character | escape } , '\"'",
        "character": "? any character except \" and \\ and U+0000 to U+001F ?",
        "escape": "\"\\\" , ( '\"' | \"\\\" | \"/\" | \"b\" | \"f\" | \"n\" | \"r\" | \"t\" "
                  "| \"u\" , hex , hex , hex , hex )",
        "hex": 'digit | "a" | "b" | "c" | "d" | "e" | "f" | "A" | "B" | "C" | "D" | "E" | "F"',
        "number": 'integer , [ "." , digit , { digit } ] , '
                  '[ ( "e" | "E" ) , [ "+" | "-" ] , digit , { digit } ]',
        "integer": '[ "-" ] , ( "0" | nonzero , { digit } )',
        "nonzero": '"1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9"',
        "digit": '"0" | nonzero',
        "boolean": '"true" | "false"',
        "null": '"null"',
    },
    prelude_deps={"value": ("object", "array", "string", "number", "boolean", "null"),
                  "object": ("string", "value"), "array": ("value",),
                  "string": ("character", "escape"), "escape": ("hex",), "hex": ("digit",),
                  "number": ("integer", "digit"), "integer": ("nonzero", "digit"),
                  "digit": ("nonzero",)},
)


def _gbnf_literal(text: str) -> str:
    """A GBNF string literal: ``"``, ``\\`` and control characters escaped."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ch < " " or ch == "\x7f":
            out.append(f"\\x{ord(ch):02X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


_GBNF = Dialect(
    define=" ::= ", end="", postfix=True, concat=" ", alt=" | ",
    optional=lambda x: f"{x}?", repeat=lambda x: f"{x}*",
    literal=_gbnf_literal, comment=lambda text: f"# {text}",
    prelude={
        "value": "object | array | string | number | boolean | null",
        "object": '"{" ( string ": " value ( ", " string ": " value )* )? "}"',
        "array": '"[" ( value ( ", " value )* )? "]"',
        "string": '"\\"" ( [^"\\\\\\x00-\\x1F] | "\\\\" ( ["\\\\/bfnrt] | "u" hex hex hex hex ) )* '
                  '"\\""',
        "hex": "[0-9a-fA-F]",
        "number": 'integer ( "." [0-9]+ )? ( [eE] [-+]? [0-9]+ )?',
        "integer": '"-"? ( "0" | [1-9] [0-9]* )',
        "boolean": '"true" | "false"',
        "null": '"null"',
    },
    prelude_deps={"value": ("object", "array", "string", "number", "boolean", "null"),
                  "object": ("string", "value"), "array": ("value",), "string": ("hex",),
                  "number": ("integer",)},
)


def _snake_rule(parts: Sequence[str]) -> str:
    out = "_".join(w.lower() for part in parts for w in ascii_words(part)) or "rule"
    return "r_" + out if out[0].isdigit() else out


def _kebab_rule(parts: Sequence[str]) -> str:
    return _snake_rule(parts).replace("_", "-")


def _grammar_text(toolset: Toolset, options: RenderOptions, dialect: Dialect,
                  rule_name: Callable[[Sequence[str]], str], start: str, header: list[str]
                  ) -> str:
    g = CallGrammar(rule_name)
    # recursive types are recursive rules; a map is any JSON object (its keys are not known)
    tools = [g.tool(t) for t in prepare(toolset, options, named_types=True)]
    call = rule_name(["call"])
    calls = _alt(*(Ref(r.name) for r in tools)) if tools else Lit("")
    top = [Rule(start, _alt(Ref(call), _seq(Lit("["), Ref(call), Rep(_seq(Lit(", "),
                                                                          Ref(call))),
                                           Lit("]"))), header),
           Rule(call, calls)]
    return "\n".join(dialect.rules(top + g.rules, g.used)).lstrip("\n") + "\n"


@register_format(
    name="EBNF grammar of the calls",
    family="grammar",
    default_protocol="json_object",
    description=("An ISO EBNF grammar whose language is the set of well-formed JSON calls: "
                 "one rule per tool, [ ... ] for optional arguments, alternations for enum "
                 "values, a rule per nested object, and comments for descriptions and "
                 "constraints."),
    language="ebnf",
    novel=True,
    named_types=True,
    returns="The EBNF text.",
    options_doc=("Descriptions and return types are shown only when the options ask for them "
                 "(the grammar describes calls, so return types are not part of it)."),
)
def ebnf_grammar(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as an ISO 14977 EBNF grammar of its calls.

    Shape::

        (* A call is one JSON object, or a JSON list of them. ... *)
        calls = call | "[" , call , { ", " , call } , "]" ;
        call = create_order | add ;

        (* create_order: Place an order. *)
        (*   customer_id (required): The customer. *)
        create_order = '{"name": "create_order", "arguments": {"customer_id": ' , string ,
                       [ ', "speed": ' , ( '"standard"' | '"express"' ) ] , "}}" ;

        (* JSON values *)
        string = '"' , { character | escape } , '"' ;

    Calls are written as the ``json_object`` protocol writes them (``", "`` and ``": "``
    separators, arguments in declaration order). Terminals are quoted with ``"`` or ``'``;
    one holding both quotes is split into pieces. The character classes JSON strings need
    are special sequences (``? ... ?``). Rule names are snake_case ASCII.
    """
    header = ["A call is one JSON object, or a JSON list of them, written with \", \" and",
              "\": \" between items and the arguments in the order listed."]
    return _grammar_text(toolset, options, _EBNF, _snake_rule, "calls", header)


@register_format(
    name="GBNF grammar (llama.cpp)",
    family="grammar",
    default_protocol="json_object",
    description=("A llama.cpp GBNF grammar whose root rule accepts exactly the tools' calls "
                 "as JSON objects (or a JSON list of them): a rule per tool and per nested "
                 "object, ? for optional arguments, alternations for enums, and # comments "
                 "for descriptions and constraints; loadable for constrained decoding."),
    language="gbnf",
    novel=True,
    named_types=True,
    returns="The GBNF text.",
    options_doc="Descriptions are shown (as comments) only when the options ask for them.",
)
def gbnf_grammar(toolset: Toolset, options: RenderOptions) -> str:
    """Render the toolset as a llama.cpp GBNF grammar over its calls.

    Shape::

        # A call is one JSON object, or a JSON list of them. ...
        root ::= call | "[" call ( ", " call )* "]"
        call ::= create-order | add

        # create_order: Place an order.
        #   customer_id (required): The customer.
        create-order ::= "{\\"name\\": \\"create_order\\", \\"arguments\\": {\\"customer_id\\": " string ( ", \\"speed\\": " ( "\\"standard\\"" | "\\"express\\"" ) )? "}}"

        # JSON values
        string ::= "\\"" ( [^"\\\\\\x00-\\x1F] | "\\\\" ( ["\\\\/bfnrt] | "u" hex hex hex hex ) )* "\\""

    The ``root`` rule accepts what the ``json_object`` protocol writes for one call or
    several (``", "`` and ``": "`` separators, arguments in declaration order). Rule names
    are kebab-case ASCII (``[a-zA-Z0-9-]``, as llama.cpp requires); literals escape ``"``,
    ``\\`` and control characters. The grammar loads in llama.cpp as it is.
    """
    header = ["A call is one JSON object, or a JSON list of them, written with \", \" and",
              "\": \" between items and the arguments in the order listed."]
    return _grammar_text(toolset, options, _GBNF, _kebab_rule, "root", header)


# -- regular expressions -------------------------------------------------------------------------

_STRING_RE = r'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"'
_INTEGER_RE = r"-?(?:0|[1-9][0-9]*)"
_NUMBER_RE = _INTEGER_RE + r"(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"
_REGEX_PRIMS = {"string": _STRING_RE, "integer": _INTEGER_RE, "number": _NUMBER_RE,
                "boolean": "(?:true|false)", "null": "null", "object": r"\{.*\}",
                "array": r"\[.*\]",
                "value": f"(?:{_STRING_RE}|{_NUMBER_RE}|true|false|null|\\{{.*\\}}|\\[.*\\])"}


# re.escape's set less whitespace (an escaped space is legal but hard to read)
_REGEX_SPECIAL = re.compile(r"([.^$*+?{}\[\]\\|()\-#&~])")


def _regex(n: Node) -> str:
    """A node as a Python regular expression (rules inlined; there is no recursion)."""
    if isinstance(n, Lit):
        return _REGEX_SPECIAL.sub(r"\\\1", n.text)
    if isinstance(n, Ref):
        return _REGEX_PRIMS[n.name]
    if isinstance(n, Opt):
        return f"(?:{_regex(n.item)})?"
    if isinstance(n, Rep):
        return f"(?:{_regex(n.item)})*"
    if isinstance(n, Seq):
        return "".join(_regex(i) for i in n.items)
    return "(?:" + "|".join(_regex(i) for i in n.items) + ")"


@register_format(
    name="One regular expression per tool",
    family="grammar",
    default_protocol="json_object",
    description=("One Python regular expression per tool that matches its calls written as "
                 "JSON: exact for flat arguments (enum values as alternations, optional "
                 "arguments as optional groups), while nested objects match any JSON "
                 "object; descriptions and constraints in # comments."),
    language="regex",
    novel=True,
    supports_nesting=False,
    lossy=True,
    returns="The patterns, one per tool, each after its comment lines.",
    options_doc="Descriptions are shown (as comments) only when the options ask for them.",
)
def regex_spec(toolset: Toolset, options: RenderOptions) -> str:
    """Render each tool as a regular expression over its JSON calls.

    Shape::

        # Each pattern matches a whole call of its tool written as {"name": ..., "arguments": {...}} ...
        # create_order: Place an order.
        #   customer_id (required): The customer.
        create_order = /^\\{"name":\\ "create_order",\\ "arguments":\\ \\{"customer_id":\\ "(?:...)*"...\\}\\}$/

    A pattern is Python ``re`` syntax, anchored with ``^...$``, and matches the call as the
    ``json_object`` protocol writes it (``", "`` and ``": "`` separators, arguments in the
    order listed): JSON strings, integers and numbers exactly, enum values as alternations,
    optional arguments as optional groups. The format does not show nesting: an object
    with fields below the arguments matches any JSON object (``\\{.*\\}``), so nested field
    names are not shown. The tool's name is on the left of ``= /``.
    """
    lines = ['# Each pattern (Python re syntax) matches a whole call of its tool written as',
             '# {"name": ..., "arguments": {...}} with ", " and ": " between items and the',
             '# arguments in the order listed; nested objects match any JSON object.']
    for tool in prepare(toolset, options, stand_in_keys=False):
        g = CallGrammar(_snake_rule, nest=False)
        rule = g.tool(tool)
        lines += ["", *(f"# {line}" for line in rule.notes)]
        lines.append(f"{tool.name} = /^{_regex(rule.body)}$/")
    return "\n".join(lines) + "\n"


# -- typed lambda calculus -----------------------------------------------------------------------

_LAMBDA_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _lambda_name(name: str) -> str:
    return name if _LAMBDA_NAME.fullmatch(name) else json_text(name)


class _LambdaNotation(CompactNotation):
    """Type theory spellings: ``Str``, ``ℤ``, ``ℝ``, ``𝔹``, ``𝟙`` (null), ``⊤`` (any),
    ``List T``, records ``{a : T, b? : U}``, sums ``A + B`` and refinements
    ``{v : ℤ | v ≥ 0}``."""

    optional_mark = "?"
    _KINDS = {"string": "Str", "integer": "ℤ", "number": "ℝ", "boolean": "𝔹", "null": "𝟙",
              "any": "⊤", "object": "{…}"}
    _RELATIONS = {"minimum": "v ≥ {}", "exclusiveMinimum": "v > {}", "maximum": "v ≤ {}",
                  "exclusiveMaximum": "v < {}", "minLength": "|v| ≥ {}",
                  "maxLength": "|v| ≤ {}", "minItems": "|v| ≥ {}", "maxItems": "|v| ≤ {}"}

    def kind(self, kind: str) -> str:
        return self._KINDS[kind]

    def enum(self, values: tuple) -> str:
        return " + ".join(json_text(v) for v in values) or "⊥"

    def array(self, items: str) -> str:
        return f"List ({items})" if " " in items and not items.startswith(("{", "(")) else (
            f"List {items}")

    def record(self, fields: list[str]) -> str:
        return "{" + ", ".join(fields) + "}"

    def union(self, options: list[str]) -> str:
        return " + ".join(f"({o})" if " + " in o else o for o in options) or "⊤"

    def nullable(self, text: str) -> str:
        return f"{text} + 𝟙"

    def constrained(self, text: str, pairs: list) -> str:
        conditions = []
        for key, value in pairs:
            if key in self._RELATIONS:
                conditions.append(self._RELATIONS[key].format(json_text(value)))
            elif key == "pattern":
                conditions.append(f"v ~ {json_text(value)}")
            elif key == "format":
                conditions.append(f"v ∈ {value}")
        closed = ("additionalProperties", False) in pairs
        if ("additionalProperties", True) in pairs and text.endswith("}"):
            text = text[:-1] + ", …}"
        if not conditions:
            return text if not closed else f"{text} (closed)"
        return f"{{v : {text} | {' ∧ '.join(conditions)}}}"

    def field(self, p: ParamIR) -> str:
        text = f"{_lambda_name(p.name)}{'' if p.required else '?'} : {self.type(p.type)}"
        return f"{text} = {json_text(p.default)}" if p.has_default else text


_LAMBDA = _LambdaNotation()


@register_format(
    name="Type-theory signatures",
    family="grammar",
    default_protocol="json_object",
    description=("Each tool as a typed arrow in mathematical notation: the product of its "
                 "labelled arguments (? marks optional ones) → its result, with Str, ℤ, ℝ, 𝔹, "
                 "records, sums (A + B) for enums and unions, List T, and refinement types "
                 "{v : ℤ | v ≥ 0} for constraints."),
    language="typed_lambda",
    novel=True,
    returns="The signatures, each after its comment lines.",
)
def typed_lambda(toolset: Toolset, options: RenderOptions) -> str:
    """Render each tool as a typed-lambda-calculus signature.

    Shape::

        -- Str string · ℤ integer · ℝ number · 𝔹 boolean · 𝟙 null · ⊤ any value · ...
        -- create_order: Place an order.
        --   customer_id: The customer.
        create_order :
            (customer_id : Str)
          × (lines : {v : List {sku : Str, quantity : {v : ℤ | v ≥ 1}} | |v| ≥ 1})
          × (speed? : "standard" + "express" = "standard")
          → ℝ

    Arguments are labelled factors of a product (``?`` after a label marks an optional one,
    ``= value`` a default, in JSON); nested objects are records ``{a : T, b? : U}``; enums
    are sums of their JSON values; unions sums of their options; ``T + 𝟙`` a nullable type;
    constraints refine a type: ``{v : T | v ≥ 0 ∧ |v| ≤ 20 ∧ v ~ "regex" ∧ v ∈ date}``.
    A tool without arguments takes ``𝟙``; an unknown result is ``⊤``. Names that are not
    identifiers are written as JSON strings.
    """
    lines = ["-- Str string · ℤ integer · ℝ number · 𝔹 boolean · 𝟙 null · ⊤ any value · "
             "A + B either · x? optional · = default · {v : T | ...} constrained"]
    for tool in prepare(toolset, options):
        lines += ["", *(f"-- {c}" for c in _lambda_docs(tool))]
        result = _LAMBDA.type(tool.returns) if tool.returns is not None else "⊤"
        factors = [f"({_LAMBDA.field(p)})" for p in tool.params] or ["𝟙"]
        lines.append(f"{_lambda_name(tool.name)} :")
        lines += [f"    {factors[0]}", *(f"  × {f}" for f in factors[1:]), f"  → {result}"]
    return "\n".join(lines) + "\n"


def _lambda_docs(tool: ToolIR) -> list[str]:
    """A tool's description, then ``path: description`` for every described parameter."""
    lines = [f"{tool.name}: {line}" if i == 0 else line
             for i, line in enumerate(comment_lines(tool.description))]
    for path, p in _described(tool.params, ""):
        lines += [f"  {path}: {one_line(p.description)}"]
    return lines


def _described(params: Sequence[ParamIR], prefix: str) -> list[tuple[str, ParamIR]]:
    """``(path, parameter)`` for every parameter or nested field with a description."""
    out = []
    for p in params:
        path = prefix + p.name
        if p.description:
            out.append((path, p))
        t = p.type
        while t.kind == "array" and t.items is not None:
            t, path = t.items, path + "[]"
        for i, option in enumerate(t.options if t.kind == "union" else (t,), 1):
            sub = path + (f"#{i}" if t.kind == "union" else "")
            if option.kind == "object":
                out += _described(option.fields, sub + ".")
    return out


# -- symbolic shorthand --------------------------------------------------------------------------

_SYMBOL_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")
_SYMBOL_KINDS = {"string": "s", "integer": "i", "number": "n", "boolean": "b", "null": "z",
                 "any": "x", "object": "o"}


def _symbol_name(name: str) -> str:
    return name if _SYMBOL_NAME.fullmatch(name) else json_text(name)


def _symbol_value(value: object) -> str:
    """An enum value or default: bare when it is a word, else JSON."""
    if isinstance(value, str) and _SYMBOL_NAME.fullmatch(value) and value not in (
            "true", "false", "null"):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _symbol_bounds(low: object, low_open: bool, high: object, high_open: bool) -> str:
    left = "(" if low_open or low is None else "["
    right = ")" if high_open or high is None else "]"
    lo = "" if low is None else json_text(low)
    hi = "" if high is None else json_text(high)
    return f"~{left}{lo},{hi}{right}"


def _symbol_type(t: TypeIR) -> str:
    if t.kind == "enum":
        text = "{" + ",".join(_symbol_value(v) for v in t.values) + "}"
    elif t.kind == "array":
        text = f"[{_symbol_type(t.items) if t.items is not None else 'x'}]"
    elif t.kind == "object" and t.fields:
        text = f"({_symbol_fields(t.fields)})"
    elif t.kind == "union":
        text = "|".join(_symbol_type(o) for o in t.options) or "x"
        text = f"<{text}>" if len(t.options) > 1 else text
    else:
        text = _SYMBOL_KINDS[t.kind]
    low = t.minimum if t.minimum is not None else t.exclusive_minimum
    high = t.maximum if t.maximum is not None else t.exclusive_maximum
    if low is not None or high is not None:
        text += _symbol_bounds(low, t.minimum is None, high, t.maximum is None)
    for lo, hi in ((t.min_length, t.max_length), (t.min_items, t.max_items)):
        if lo is not None or hi is not None:
            text += _symbol_bounds(lo, False, hi, False)
    if t.pattern is not None:
        text += "~/" + t.pattern.replace("/", "\\/") + "/"
    if t.format is not None:
        text += f"~@{t.format}"
    if t.kind == "object" and t.additional is False:
        text += "~closed"
    if t.nullable and t.kind not in ("null", "any"):
        text += "|z"
    return text


def _symbol_field(p: ParamIR) -> str:
    text = f"{_symbol_name(p.name)}:{_symbol_type(p.type)}"
    return f"{text}={_symbol_value(p.default)}" if p.has_default else text


def _symbol_fields(fields: Sequence[ParamIR]) -> str:
    required = ",".join(_symbol_field(p) for p in fields if p.required)
    optional = ",".join(_symbol_field(p) for p in fields if not p.required)
    return (f"!{required}" if required else "") + (f"?{optional}" if optional else "")


@register_format(
    name="Symbolic shorthand",
    family="grammar",
    default_protocol="json_object",
    description=("The smallest faithful notation of the study: one line per tool, "
                 "name!required,args?optional,args with one-letter types (s i n b), {a,b} "
                 "enums, [T] lists, (…) objects, ~[lo,hi] bounds, =default and >result, plus "
                 "one line of descriptions."),
    language="symbolic",
    novel=True,
    compressed=True,
    returns="One or two lines per tool after a legend line.",
)
def symbolic_compressed(toolset: Toolset, options: RenderOptions) -> str:
    """Render each tool in a compact symbolic notation.

    Shape::

        # s string, i integer, n number, b boolean, z null, x any, o object; ...
        create_order!customer_id:s,lines:[(!sku:s,quantity:i~[1,))]~[1,)?speed:{standard,express}=standard>n
          Place an order. | customer_id: The customer. | lines[].sku: Stock code.

    ``!`` starts the required arguments and ``?`` the optional ones (comma-separated,
    ``name:type``); types are one letter (``s`` string, ``i`` integer, ``n`` number, ``b``
    boolean, ``z`` null, ``x`` any, ``o`` object), ``{a,b}`` an enum, ``[T]`` a list, ``(!a:s?b:i)``
    an object, ``<A|B>`` a union, ``T|z`` nullable. After a type, ``~[lo,hi]`` bounds the
    value (the length for strings and lists; ``(``/``)`` exclude the end, an empty end is
    unbounded), ``~/re/`` is a pattern, ``~@date`` a format, ``~closed`` an object with no
    other keys; ``=v`` is a default and ``>T`` the result. Words are bare, other values and
    names are JSON. The second line holds the descriptions, ``path: text`` separated by
    `` | ``.
    """
    lines = ["# s string, i integer, n number, b boolean, z null, x any, o object; {a,b} one of; "
             "[T] list; (...) object; <A|B> either; !required ?optional; ~[lo,hi] bounds "
             "(length for s and lists); ~/re/ pattern; ~@fmt format; =default; >result"]
    for tool in prepare(toolset, options):
        text = _symbol_name(tool.name) + _symbol_fields(tool.params)
        if tool.returns is not None:
            text += ">" + _symbol_type(tool.returns)
        lines.append(text)
        docs = [one_line(tool.description)] if tool.description else []
        docs += [f"{path}: {one_line(p.description)}" for path, p in _described(tool.params, "")]
        if docs:
            lines.append("  " + " | ".join(d.replace(" | ", " / ") for d in docs))
    return "\n".join(lines) + "\n"
