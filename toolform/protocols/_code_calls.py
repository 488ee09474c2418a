"""Code-shaped answer protocols: Python lists, shell, SQL, GraphQL, URLs, S-expressions, symbols.

Every parser here reads by hand-written scanners or ``ast.parse`` (never ``eval``). The Python
family (``python_list_call``, ``bfcl_python_list``, ``python_tag``, ``bracket_call``) reuses the
call reader of ``python_call``; the others each scan their own small grammar and type values
either from their literal syntax or, for the text-valued ones (``cli_call``, ``url_call``),
from the tool's schema (:func:`~toolform.protocols._values.typed_text`).
"""

from __future__ import annotations

import ast
import bisect
import functools
import itertools
import json
import math
import re
from typing import Any, Callable, Iterator, Sequence
from urllib.parse import quote, unquote_plus

from ..errors import ParseError
from ..ir import ToolCall, ToolIR, Toolset, TypeIR
from ._brackets import match_brackets, tag_bodies, value_end
from ._calls import ParsedCall
from ._json import ABSTENTION, fragment_calls
from ._limits import MAX_ARGUMENTS, MAX_DEPTH, Budget, check_arguments, check_calls
from ._loose_json import json_at, json_fragments, to_json_value, why_not_json
from ._names import find_tool, holds_a_name, names_a_tool, tool_finder
from ._python import (PY_CALL_HEAD, PY_CODE_LANGS, PY_WRAPPER, ast_span, line_starts,
                      py_module_calls, py_parse_source, py_prose_calls, py_read_call,
                      py_write_call)
from ._registry import Protocol, register_protocol
from ._text import LinePattern, contains, fences, lowered
from ._values import coerce_value, quote_if_needed, text_of, typed_text, unquote_value

__all__ = ["BfclPythonList", "BracketCall", "CliCall", "GraphqlCall", "PythonListCall",
           "PythonTag", "SexprCall", "SqlCall", "SymbolicCall", "UrlCall"]

_WS = re.compile(r"\s*")


def _param_type(tool: ToolIR | None, key: str) -> TypeIR | None:
    """The declared type of ``key`` (dashes and underscores interchangeable), or None."""
    if tool is None:
        return None
    param = tool.param(key) or tool.param(key.replace("-", "_")) or tool.param(
        key.replace("_", "-"))
    return param.type if param is not None else None


def _declared_key(tool: ToolIR | None, key: str) -> str:
    """The declared spelling of ``key`` when it differs only by ``-`` versus ``_``."""
    if tool is None or tool.param(key) is not None:
        return key
    for other in (key.replace("-", "_"), key.replace("_", "-")):
        if tool.param(other) is not None:
            return other
    return key


def _blocks(text: str, langs: set[str]) -> list[tuple[int, str]]:
    """``(offset, body)`` of each fenced block of ``text`` in one of ``langs``, or of the
    whole text when none."""
    found = [(f.start, text[f.start:f.end]) for f in fences(text) if f.lang in langs] \
        if contains(text, "```") or contains(text, "~~~") else []
    return found or [(0, text)]


def _shifted(calls: list[ParsedCall], offset: int) -> list[ParsedCall]:
    return [ParsedCall(c.name, c.arguments, (c.span[0] + offset, c.span[1] + offset),
                       c.repairs) for c in calls]


# -- the Python family -------------------------------------------------------------------------
def _list_calls(block: str, toolset: Toolset) -> list[ParsedCall] | None:
    """Calls from ``[f(...), g(...)]`` lists in ``block``; None when there is no such list.

    Raises
    ------
    ParseError
        When a bracketed list starting with a call to a tool is not valid Python.
    """
    if _LIST_START.search(block) is None:  # no "[name(": skip parsing the whole block
        return None
    try:
        tree = py_parse_source(block, "exec")
    except SyntaxError:
        tree = None
    found = False
    calls: list[ParsedCall] = []
    if tree is not None:
        lines = line_starts(block)
        for stmt in getattr(tree, "body", []):
            value = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign)) else None
            if isinstance(value, ast.List) and value.elts and all(
                    isinstance(e, ast.Call) for e in value.elts):
                found = True
                calls.extend(_element_calls(block, value.elts, lines, 0, toolset))
        if found:
            return calls
    brackets = match_brackets(block, "[(")
    done = 0
    for start in sorted(brackets.pairs):
        # a call list sits in prose or one bracket deep; the caps keep hostile nesting linear
        if (block[start] != "[" or start < done or brackets.level(start) > 1
                or brackets.depths[start] > MAX_DEPTH):
            continue
        head = PY_CALL_HEAD.match(block, start + 1 + len(_WS.match(block, start + 1).group()))
        if head is None:
            continue
        end = brackets.pairs[start]
        name = re.sub(r"\s+", "", head.group(1))
        try:
            node = py_parse_source(block[start:end + 1], "eval")
        except SyntaxError as exc:
            if find_tool(name, toolset) is not None:
                raise ParseError(f"the call list at offset {start} is not valid Python: "
                                 f"{exc.msg}") from None
            continue
        body = getattr(node, "body", None)
        if isinstance(body, ast.List) and all(isinstance(e, ast.Call) for e in body.elts):
            found = True
            done = end + 1
            source = block[start:end + 1]
            calls.extend(_element_calls(source, body.elts, line_starts(source), start, toolset))
    for start, _ in brackets.unclosed:
        head = PY_CALL_HEAD.match(block, start + 1)
        if block[start] == "[" and head and find_tool(re.sub(r"\s+", "", head.group(1)),
                                                      toolset):
            raise ParseError(f"the call list at offset {start} never closes")
    return calls if found else None


_LIST_START = re.compile(r"\[\s*[^\W\d][\w.\s]*\(")


def _element_calls(source: str, elements: list[ast.expr], lines: list[int], offset: int,
                   toolset: Toolset) -> list[ParsedCall]:
    """The tool calls among a list's call elements, each spanning its element."""
    calls = []
    for element in elements:
        call = py_read_call(element, toolset) if isinstance(element, ast.Call) else None
        if call is not None:
            start, end = ast_span(source, element, lines)
            calls.append(ParsedCall(call.name, call.arguments, (start + offset, end + offset)))
            check_calls(len(calls))
    return calls


def _write_list(calls: Sequence[ToolCall]) -> str:
    if not calls:
        return ABSTENTION
    return "[" + ", ".join(py_write_call(c) for c in calls) + "]"


_PYTHON_LIST_INSTRUCTION = ('To call tools, reply with a Python list of calls with keyword '
                            'arguments, such as [tool_name(param_name="value"), '
                            'other_tool(param_name=2)]; use a list even for one call.')


@register_protocol(
    name="Python call list",
    description="All calls as one bracketed Python list of keyword-argument calls.",
    supports_parallel=True, structured=True, text_values=False,
)
class PythonListCall(Protocol):
    """``[tool_name(a=1), other(b="x")]``; names and values as in ``python_call``.

    Reading: fenced Python blocks when there are any, else the whole reply; the list must be
    there (a bare call is ``python_call``'s shape). A list starting with a call to a tool that
    is not valid Python is a ``ParseError``.
    """

    instruction = _PYTHON_LIST_INSTRUCTION

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """The calls as one Python list, a sentence for none."""
        return _write_list(calls)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The calls of the bracketed Python lists in ``text``."""
        if "[" not in text or "(" not in text:
            return []
        return [c for offset, block in _blocks(text, PY_CODE_LANGS)
                for c in _shifted(_list_calls(block, toolset) or [], offset)]


@register_protocol(
    name="BFCL Python call list",
    description=("The Berkeley Function Calling Leaderboard's prompting format: only a "
                 "bracketed list of Python calls, asked for with BFCL's template."),
    supports_parallel=True, structured=True, text_values=False,
)
class BfclPythonList(Protocol):
    """The ``python_list_call`` shape, asked for with BFCL's ``[func_name1(...)]`` template, and
    read exactly as BFCL's own decoder reads it (``default_decode_ast_prompting``), so that
    grading against possible answers agrees with BFCL's checker end to end.

    Reading: the reply trimmed of backticks, newlines and spaces at both ends, wrapped in
    brackets when they are missing, must be one Python expression: a call or a list of calls
    (a fence with a language tag or calls on separate lines are broken lists; a reply that does
    not start like a call or a list of calls is prose, with no call). Names are taken as
    written. Only keyword arguments count (BFCL drops positional ones), besides the two spellings
    of ``py_write_call`` for names that are not identifiers (``call("tool-name", ...)`` and
    ``**{"arg-name": ...}``), which BFCL cannot decode at all. Values are literals, a
    negated number, lists (tuples become lists) and dicts of them; a bare name (``my_data``,
    ``true``) is its identifier as a string; a call with keyword arguments is a nested
    ``{name: arguments}``, one without, or a subscript, its source text. Nothing is evaluated:
    arithmetic, which BFCL evaluates, is a ``ParseError`` here, as are lambdas and other
    expressions.
    """

    instruction = ("Answer only with the function calls, in the form [func_name1(params_name1"
                   "=params_value1, params_name2=params_value2...), func_name2(params)], where "
                   "each func_name is a tool_name; write no other text.")

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """The calls as one Python list; ``[]`` for none (BFCL decodes it as no call)."""
        return _write_list(calls) if calls else "[]"

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The calls of a reply that is one Python list of calls (see the class docstring)."""
        body = text.strip("`\n ")
        if body != "[]" and not _BFCL_HEAD.match(body):
            return []  # prose: no attempt at a call list, so nothing broken either
        opened = "" if body.startswith("[") else "["
        # the source's offsets in the text (a bracket added in front shifts them by one)
        offset = len(text) - len(text.lstrip("`\n ")) - len(opened)
        body = opened + body + ("" if body.endswith("]") else "]")
        source = body.strip().strip("'")
        try:
            tree = py_parse_source(source, "eval")
        except SyntaxError as exc:
            raise ParseError(f"not one Python list of calls ({exc.msg})") from None
        node = getattr(tree, "body", None)
        items = [node] if isinstance(node, ast.Call) else getattr(node, "elts", None)
        if items is None or not all(isinstance(item, ast.Call) for item in items):
            raise ParseError("the list holds something other than calls")
        check_calls(len(items))
        lines = line_starts(source)
        calls = []
        for item in items:
            call = _bfcl_call(item, toolset)
            start, end = ast_span(source, item, lines)
            calls.append(ParsedCall(call.name, call.arguments,
                                    (max(start + offset, 0), max(end + offset, 0))))
        return calls


_BFCL_HEAD = re.compile(r"\[?\s*+[^\W\d][\w.]*+\s*+\(")


def _bfcl_call(node: ast.Call, toolset: Toolset) -> ToolCall:
    """One call as BFCL reads it, plus the two spellings ``py_write_call`` uses for names that
    are not identifiers, which BFCL cannot decode at all: ``call("tool-name", ...)`` and a
    ``**{"arg-name": ...}`` dict."""
    name = _bfcl_name(node.func)
    first = node.args[0] if node.args else None
    if (name == PY_WRAPPER and isinstance(first, ast.Constant) and isinstance(first.value, str)
            and find_tool(PY_WRAPPER, toolset) is None):
        name = first.value
    arguments: dict[str, Any] = {}
    for kw in node.keywords:
        if kw.arg is not None:
            arguments[kw.arg] = _bfcl_value(kw.value)
        elif isinstance(kw.value, ast.Dict):
            arguments.update(_bfcl_value(kw.value))
        else:
            raise ParseError(f"the ** argument of {name} is not a dict")
    return ToolCall(name, arguments)


def _bfcl_name(node: ast.expr) -> str:
    """A called name as BFCL joins it: the attribute chain down to its first plain name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def _bfcl_value(node: ast.expr, depth: int = 0) -> Any:
    """One argument value as BFCL's decoder reads it (see ``BfclPythonList``), unevaluated."""
    if depth > MAX_DEPTH:
        raise ParseError("an argument value nested too deep")
    if isinstance(node, ast.Constant):
        return "..." if node.value is Ellipsis else to_json_value(node.value)
    if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Constant)
            and type(node.operand.value) in (int, float)):
        return -node.operand.value
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_bfcl_value(item, depth + 1) for item in node.elts]
    if isinstance(node, ast.Dict):
        keys = [_bfcl_value(k, depth + 1) if k is not None else None for k in node.keys]
        if not all(isinstance(k, str) for k in keys):
            raise ParseError("a dict argument has a key that is not a string")
        return {k: _bfcl_value(v, depth + 1) for k, v in zip(keys, node.values)}
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Call) and node.keywords:
        if any(kw.arg is None for kw in node.keywords):
            raise ParseError("a ** argument is not a keyword argument")
        return {_bfcl_name(node.func): {kw.arg: _bfcl_value(kw.value, depth + 1)
                                        for kw in node.keywords}}
    if isinstance(node, (ast.Call, ast.Subscript)):
        return ast.unparse(node)
    raise ParseError(f"a {type(node).__name__} argument is not read without evaluating code")


_PY_TAG = re.compile(r"<\|python_tag\|>")
_PY_END = re.compile(r"<\|(?:eom_id|eot_id|end_of_text)\|>")


@register_protocol(
    name="Llama <|python_tag|> call",
    description=("Python-style calls after Llama 3's <|python_tag|> control token, ended by "
                 "<|eom_id|>."),
    supports_parallel=True, structured=True, text_values=False,
)
class PythonTag(Protocol):
    """``<|python_tag|>tool_name(a=1)<|eom_id|>``; several calls one per line.

    The body after the marker runs to ``<|eom_id|>`` (or ``<|eot_id|>``, the next marker or
    the end). It is read as Python calls (a list of calls too); a body that is JSON
    (``{"name": ..., "parameters": ...}``, Llama's JSON tool format) is read as JSON calls.
    A marker followed by no readable call is a ``ParseError``.
    """

    instruction = ("To call a tool, write <|python_tag|> and then the call in Python syntax, "
                   'such as <|python_tag|>tool_name(param_name="value")<|eom_id|>; put several calls '
                   "on separate lines before <|eom_id|>.")

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """The marker, one call per line, and ``<|eom_id|>``; a sentence for none."""
        if not calls:
            return ABSTENTION
        return "<|python_tag|>" + "\n".join(py_write_call(c) for c in calls) + "<|eom_id|>"

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The calls after each ``<|python_tag|>`` marker of ``text``."""
        if not contains(text, "<|python_tag|>"):
            return []
        calls: list[ParsedCall] = []
        for m, start, end in tag_bodies(text, _PY_TAG, _PY_END, bracketed=True):
            body = text[start:end].strip()
            offset = start + len(text[start:end]) - len(text[start:end].lstrip())
            found: list[ParsedCall] = []
            if body[:1] in "{[" and not PY_CALL_HEAD.match(body, 1):
                for fragment in json_fragments(body):
                    if not fragment.error:
                        found.extend(fragment_calls(body, fragment, toolset, anchored=False))
            if not found:
                found = py_module_calls(body, toolset) or py_prose_calls(body, toolset)
            if not found:
                raise ParseError(f"the <|python_tag|> at offset {m.start()} is followed by "
                                 "no readable call")
            calls.extend(_shifted(found, offset))
            check_calls(len(calls))
        return calls


_ARROW = re.compile(r"\s*(?:(?:→|->)[^\]]*)?\]")


@register_protocol(
    name="Inline bracketed call",
    description=("Toolformer's notation: each call in square brackets inside the sentence, "
                 "written as a Python call."),
    supports_parallel=True, structured=True, text_values=False,
)
class BracketCall(Protocol):
    """``The weather is [get_weather(city="Paris")] today.``; one call per bracket pair.

    A bracket may end with Toolformer's result arrow (``[f(x) → 5]``), which is ignored.
    A bracket holding a call to a tool that is not valid Python is a ``ParseError``.
    """

    instruction = ("To call a tool, write the call inside square brackets where it belongs in "
                   'your sentence, such as [tool_name(param_name="value")]; one call per bracket '
                   "pair.")

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """A sentence with one bracketed call per call, a sentence for none."""
        if not calls:
            return ABSTENTION
        return "I need " + " and ".join(f"[{py_write_call(c)}]" for c in calls) + "."

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The bracketed calls of ``text``."""
        if "[" not in text or "(" not in text or _LIST_START.search(text) is None:
            return []
        brackets = match_brackets(text, "[(")
        calls: list[ParsedCall] = []
        done = 0
        for start in sorted(brackets.pairs):
            if (text[start] != "[" or start < done or brackets.level(start) > 1
                    or brackets.depths[start] > MAX_DEPTH):
                continue
            head = PY_CALL_HEAD.match(text, start + 1 + len(_WS.match(text, start + 1).group()))
            if head is None:
                continue
            close = brackets.pairs.get(head.end() - 1)
            end = brackets.pairs[start]
            if close is None or close > end or not _ARROW.fullmatch(text, close + 1, end + 1):
                continue
            name = re.sub(r"\s+", "", head.group(1))
            try:
                node = py_parse_source(text[head.start():close + 1], "eval")
            except SyntaxError as exc:
                if find_tool(name, toolset) is not None:
                    raise ParseError(f"the bracketed call at offset {start} is not valid "
                                     f"Python: {exc.msg}") from None
                continue
            body = getattr(node, "body", None)
            call = py_read_call(body, toolset) if isinstance(body, ast.Call) else None
            if call is not None:
                calls.append(ParsedCall(call.name, call.arguments, (start, end + 1)))
                check_calls(len(calls))
                done = end + 1
        return calls


# -- command line ------------------------------------------------------------------------------
# a word, a line break, or a quote that never closes (the command was cut inside a value)
_SH_TOKEN = re.compile(r"""(?:[^\s'"\\]++|\\.|'[^']*+'|"[^"\\]*+(?:\\.[^"\\]*+)*+")++|\n|['"]""",
                       re.S)
_SH_PIECE = re.compile(r"""'([^']*)'|"((?:[^"\\]|\\.)*)"|\\(.)|([^'"\\]+)""", re.S)
_SH_SAFE = re.compile(r"[\w@%+=:,./-]+")
_SHELL_LANGS = {"", "bash", "sh", "shell", "console", "zsh", "cli", "text"}


def _sh_quote(text: str) -> str:
    if _SH_SAFE.fullmatch(text) and not text.startswith("-"):
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"


def _sh_words(line: str) -> list[tuple[str, bool]]:
    """Shell words of one command as ``(text, quoted)``; quotes removed."""
    out = []
    for tok in _SH_TOKEN.findall(line):
        if tok in ("'", '"'):
            continue
        parts = [single or re.sub(r'\\(["\\$`])', r"\1", double) or escaped or plain
                 for single, double, escaped, plain in _SH_PIECE.findall(tok)]
        out.append(("".join(parts), "'" in tok or '"' in tok))
    return out


_CONTINUATION = re.compile(r"\\\r?\n")
_WORD = re.compile(r"\w")
_OPTION = re.compile(r"--\w")


@functools.lru_cache(maxsize=64)
def _command_heads(names: tuple[str, ...], options: bool) -> LinePattern:
    """Lines that may start a command: the first word a tool's name up to case and the
    separators ``-``, ``_``, ``.`` (its skeleton), or (with ``options``, when the text holds a
    ``--``) any first word followed by an option. One pattern per toolset: used only where
    :class:`_CommandHeads` cannot decide by lookup."""
    skeletons = sorted({_SEPARATORS.sub(lambda _: "[-_.]*", re.escape(_SEPARATORS.sub("_", n)))
                        for n in names if n and not any(c.isspace() for c in n)},
                       key=len, reverse=True)
    known = f"(?:{'|'.join(skeletons)})(?=\\s|$)" if skeletons else "(?!)"
    option = r"|[^\s'\"]++[ \t]+--\w" if options else ""
    return LinePattern(rf"[ \t]*(?:\$[ \t]+)?(?:{known}{option})", re.I)


_SPACE_CHAR = re.compile(r"\s")  # what str.isspace() says of one character
_FIRST_WORDS = LinePattern(r"[ \t]*(\S+)(?:[ \t]+(\S+))?")
_OPTION_HEAD = re.compile(r"[ \t]*(?:\$[ \t]+)?[^\s'\"]++[ \t]+--\w")
_SEPARATOR_RUN = re.compile(r"[-_.]+")


def _skeleton(word: str) -> tuple[str, frozenset[int]]:
    """A word without its separators (lower case), and where in that text its separator runs
    stood (0 for a leading run, the length for a trailing one)."""
    letters, cuts, at = [], set(), 0
    for piece in _SEPARATOR_RUN.split(word):
        if at or not piece:
            cuts.add(at)
        letters.append(piece)
        at += len(piece)
    return "".join(letters).lower(), frozenset(cuts)


# a line's first word is often one a reply (or the reply before) already had
_skeleton_of = functools.lru_cache(maxsize=4096)(_skeleton)


class _CommandHeads:
    """The lines of a text that may start a command (the lines ``_command_heads`` matches),
    found by one shared pattern and a lookup of each line's first word instead of a pattern
    compiled per toolset (compiling costs milliseconds a reply when the toolset changes).

    A name's skeleton pattern matches a word exactly when the word without separators equals
    the name without them (up to case) and the word's separator runs stand where the name has
    some. Names outside ASCII letters, digits and ``-_.`` (whose case rules ``re`` applies
    differently) and words outside ASCII fall back to the compiled pattern.
    """

    _PLAIN = re.compile(r"[A-Za-z0-9_.\-]+")

    def __init__(self, names: tuple[str, ...], options: bool) -> None:
        self.names, self.options = names, options
        plain = [n for n in names if n and _SPACE_CHAR.search(n) is None]
        self.exact = any(not self._PLAIN.fullmatch(n) or not n.strip("-_.") for n in plain)
        self.cuts: dict[str, list[frozenset[int]]] = {}
        for n in plain:
            letters, cuts = _skeleton(n)
            self.cuts.setdefault(letters, []).append(cuts)

    def _known(self, word: str) -> bool:
        letters, cuts = _skeleton_of(word) if len(word) <= 64 else _skeleton(word)
        return any(cuts <= allowed for allowed in self.cuts.get(letters, ()))

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """The matches at line starts, in order (each starts where its line does)."""
        if self.exact:
            yield from _command_heads(self.names, self.options).finditer(text)
            return
        for m in _FIRST_WORDS.finditer(text):
            first, second = m.group(1), m.group(2)
            words = [first] if first != "$" or second is None else [second, first]
            if not all(w.isascii() for w in words):
                exact = _command_heads(self.names, self.options).match(text, m.start())
                if exact is not None:
                    yield exact
                continue
            if any(self._known(w) for w in words):
                yield m
            elif self.options and _OPTION_HEAD.match(text, m.start()):
                yield m


_SEPARATORS = re.compile(r"(?:\\[-_.]|_)+")
#: The :class:`_CommandHeads` of a toolset's names, built once (read-only once built).
_command_heads_of = functools.lru_cache(maxsize=256)(_CommandHeads)


def _cli_commands(block: str, toolset: Toolset) -> list[tuple[int, int, list[str]]]:
    """The commands of the block that may be calls, as raw shell tokens, each with its span
    in ``block``: those on a line whose first word is a tool's name (up to case and
    separators) or is followed by an option. A command runs to a new line outside quotes; a
    backslash before the new line continues it."""
    # continuations become one space; ``shrunk`` maps folded offsets back to the block's
    shrunk: list[tuple[int, int]] = []
    pieces, pos, lost = [], 0, 0
    for m in _CONTINUATION.finditer(block):
        pieces.append(block[pos:m.start()])
        pieces.append(" ")
        lost += len(m.group()) - 1
        shrunk.append((m.start() - lost + len(m.group()), lost))
        pos = m.end()
    pieces.append(block[pos:])
    folded = "".join(pieces) if shrunk else block
    marks = [at for at, _ in shrunk]

    def back(at: int) -> int:
        i = bisect.bisect_right(marks, at) - 1
        return at + (shrunk[i][1] if i >= 0 else 0)

    commands: list[tuple[int, int, list[str]]] = []
    budget = Budget("command lines")
    done = 0
    heads = _command_heads_of(tuple(toolset.names), contains(folded, "--"))
    for head in heads.finditer(folded):
        if head.start() < done:  # a line inside the quoted value of the command before
            continue
        budget.step()
        current: list[str] = []
        first = last = head.start()
        for m in _SH_TOKEN.finditer(folded, head.start()):
            if m.group() == "\n":
                break
            if not current:
                first = m.start()
            current.append(m.group())
            last = m.end()
            if len(current) > 2 * MAX_ARGUMENTS + 2:
                raise ParseError(f"the command {current[0][:60]!r} holds more than "
                                 f"{MAX_ARGUMENTS:,} arguments; not read")
        done = last
        if current:
            commands.append((back(first), back(last), current))
    return commands


def _cli_call(raw: list[str], toolset: Toolset, find: Callable[[str], ToolIR | None],
              repairs: list[str]) -> ToolCall | None:
    """The call one command writes, or None when it is not a call.

    Raises
    ------
    ParseError
        When a command naming a tool with options has a stray positional word.
    """
    if raw and raw[0] == "$":
        raw = raw[1:]
    # cheap checks on the raw tokens first: most lines of a reply are not commands; a name
    # holds a word character ("|" or "---" is no command)
    if not raw or "'" in raw[0] or '"' in raw[0] or not _WORD.search(raw[0]):
        return None
    if find(raw[0]) is None and not (len(raw) > 1 and _OPTION.match(raw[1])):
        return None
    if "'" in raw or '"' in raw:
        if raw[0] in toolset:
            raise ParseError(f"the command {raw[0][:60]!r} ends inside a quoted value")
        return None
    words = _sh_words(" ".join(raw))
    name = words[0][0]
    tool = find(name)
    rest = words[1:]
    arguments: dict[str, Any] = {}
    i = 0
    while i < len(rest):
        word, quoted = rest[i]
        if quoted or not _OPTION.match(word):
            if tool is not None and name in toolset and rest[0][0].startswith("--"):
                raise ParseError(f"{name}: stray argument {word[:40]!r}")
            return None
        key = word[2:]
        if "=" in key:
            key, value = key.split("=", 1)
            i += 1
        elif i + 1 < len(rest) and (rest[i + 1][1] or not rest[i + 1][0].startswith("--")):
            value = rest[i + 1][0]
            i += 2
        else:
            key = _declared_key(tool, key)
            arguments[key] = True
            i += 1
            continue
        key = _declared_key(tool, key)
        arguments[key] = typed_text(value, _param_type(tool, key), key, repairs)
        check_arguments(len(arguments), name)
    return ToolCall(name, arguments)


@register_protocol(
    name="Command-line invocation",
    description=("Each call as a shell command: the tool's name, then --param value options; "
                 "values are untyped text, typed back from the schema."),
    supports_parallel=True, structured=True, text_values=True,
    cannot_carry=("untyped_values", "mistyped_values", "names_with_spaces_or_equals"),
)
class CliCall(Protocol):
    """``tool_name --param_name value --flag``, one command per line, POSIX shell quoting.

    Writing: strings shell-quoted when needed; numbers, null and JSON containers as their JSON
    text; ``True`` as a bare ``--flag``, ``False`` as ``--flag false``. Reading: shell words
    (single and double quotes, backslash escapes, ``\\`` line continuations, a leading ``$``);
    a line is a command when its first word names a tool or is followed by an option; values
    are typed from the schema; ``--param=value`` and ``-``/``_`` spelling slips are accepted.
    A bare option is ``True``.

    ``cannot_carry``: values of undeclared type come back as text (``untyped_values``), values
    of the wrong type come back typed (``mistyped_values``), parameter names holding white
    space or ``=``.
    """

    instruction = ("To call a tool, write a shell command line: tool_name --param_name value "
                   "--other_param 'text with spaces'; give object and array values as quoted "
                   "JSON, one command per line.")

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One command line per call, a sentence for none."""
        if not calls:
            return ABSTENTION
        lines = []
        for call in calls:
            parts = [_sh_quote(call.name)]
            tool = toolset.get(call.name)
            for key, value in call.arguments.items():
                t = _param_type(tool, key)
                if value is True and (t is None or t.kind == "boolean"):
                    parts.append(f"--{key}")
                else:
                    parts.append(f"--{key} {_sh_quote(text_of(value))}")
            lines.append(" ".join(parts))
        return "\n".join(lines)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The command-line calls of ``text``, values typed from the schema."""
        # a command line starts with a tool's name (up to case and separators: every piece of
        # it is there) or has an option
        if not contains(text, "--") and not names_a_tool(lowered(text), tuple(toolset.names)):
            return []
        calls: list[ParsedCall] = []
        find = tool_finder(toolset)
        for offset, block in _blocks(text, _SHELL_LANGS):
            for start, end, raw in _cli_commands(block, toolset):
                repairs: list[str] = []
                call = _cli_call(raw, toolset, find, repairs)
                if call is not None:
                    calls.append(ParsedCall(call.name, call.arguments,
                                            (start + offset, end + offset), tuple(repairs)))
                    check_calls(len(calls))
        return calls


# -- a small literal scanner shared by SQL, GraphQL and S-expressions --------------------------
@functools.lru_cache(maxsize=8)
def _space_and(extra: str) -> re.Pattern[str]:
    return re.compile(f"[\\s{re.escape(extra)}]*")


class _Scan:
    """A cursor over ``text`` with the token readers the code grammars share."""

    _IDENT = re.compile(r"[^\W\d][\w$]*+(?:\.[^\W\d][\w$]*+)*+")
    # possessive, so a long digit run followed by a letter fails at once (the backtracking
    # form took seconds on a few kilobytes of digits)
    _NUMBER = re.compile(r"-?(?:\d++(?:\.\d*+)?+|\.\d++)(?:[eE][-+]?\d++)?+(?![\w.])")
    _SPACE = re.compile(r"\s*")

    def __init__(self, text: str, pos: int) -> None:
        self.text = text
        self.pos = pos

    def ws(self, extra: str = "") -> None:
        if extra:
            self.pos = _space_and(extra).match(self.text, self.pos).end()
        else:
            self.pos = self._SPACE.match(self.text, self.pos).end()

    def peek(self, s: str) -> bool:
        return self.text.startswith(s, self.pos)

    def expect(self, s: str) -> None:
        if not self.peek(s):
            got = self.text[self.pos:self.pos + 20]
            raise ParseError(f"expected {s!r} at offset {self.pos}, found {got!r}")
        self.pos += len(s)

    def ident(self) -> str | None:
        m = self._IDENT.match(self.text, self.pos)
        if m is None:
            return None
        self.pos = m.end()
        return m.group()

    def json_string(self) -> str | None:
        if not self.peek('"'):
            return None
        found = json_at(self.text, self.pos)
        if found is None or not isinstance(found[0], str):
            raise ParseError(f"unreadable string at offset {self.pos}")
        self.pos = found[1]
        return found[0]

    def number(self) -> int | float | None:
        m = self._NUMBER.match(self.text, self.pos)
        if m is None:
            return None
        try:
            value: int | float = (int(m.group()) if re.fullmatch(r"-?\d+", m.group())
                                  else float(m.group()))
        except ValueError:  # an integer past Python's digit limit
            raise ParseError(f"unreadable number at offset {self.pos}") from None
        if isinstance(value, float) and not math.isfinite(value):
            raise ParseError(f"number out of range at offset {self.pos}")
        self.pos = m.end()
        return value


# -- SQL ---------------------------------------------------------------------------------------
_SELECT = re.compile(r"\bSELECT\b", re.I)
_SQL_LANGS = {"", "sql", "postgres", "postgresql", "psql", "plpgsql"}
_SQL_WORDS = {"true": True, "false": False, "null": None}
_CAST = re.compile(r"\s*::\s*(\w+)")
_ARRAY = re.compile(r"ARRAY\s*\[", re.I)
_NAMED_ARG = re.compile(r"=>|:=")


def _sql_ident(name: str) -> str:
    if all(part.isidentifier() for part in name.split(".")):
        return name
    return '"' + name.replace('"', '""') + '"'


def _sql_value(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return "'" + json.dumps(value, ensure_ascii=False).replace("'", "''") + "'::jsonb"


class _SqlScan(_Scan):
    def name(self) -> str | None:
        if self.peek('"'):
            end = self.pos + 1
            out = []
            while True:
                close = self.text.find('"', end)
                if close < 0:
                    raise ParseError(f"quoted identifier at offset {self.pos} never closes")
                out.append(self.text[end:close])
                if self.text.startswith('"', close + 1):
                    out.append('"')
                    end = close + 2
                    continue
                self.pos = close + 1
                return "".join(out)
        return self.ident()

    def string(self) -> str:
        out = []
        end = self.pos + 1
        while True:
            close = self.text.find("'", end)
            if close < 0:
                raise ParseError(f"string at offset {self.pos} never closes")
            out.append(self.text[end:close])
            if self.text.startswith("'", close + 1):
                out.append("'")
                end = close + 2
                continue
            self.pos = close + 1
            return "".join(out)

    def value(self, depth: int = 0) -> Any:
        if depth > MAX_DEPTH:
            raise ParseError(f"SQL value nested deeper than {MAX_DEPTH}")
        self.ws()
        if self.peek("'"):
            s = self.string()
            cast = _CAST.match(self.text, self.pos)
            if cast is not None:
                self.pos = cast.end()
                if cast.group(1).lower() in ("json", "jsonb"):
                    found = json_at(s.strip(), 0)
                    if found is None or found[1] != len(s.strip()):
                        raise ParseError(f"a ::{cast.group(1)} value is not JSON"
                                         + why_not_json(s.strip()))
                    return found[0]
            return s
        if _ARRAY.match(self.text, self.pos):
            self.pos = self.text.index("[", self.pos) + 1
            items = []
            self.ws()
            while not self.peek("]"):
                items.append(self.value(depth + 1))
                self.ws()
                if self.peek(","):
                    self.pos += 1
                    self.ws()
                elif not self.peek("]"):
                    raise ParseError(f"expected ',' or ']' at offset {self.pos}")
            self.pos += 1
            return items
        number = self.number()
        if number is not None:
            return number
        word = self.ident()
        if word is not None and word.lower() in _SQL_WORDS:
            return _SQL_WORDS[word.lower()]
        raise ParseError(f"unreadable SQL value at offset {self.pos}")


def _sql_calls(text: str, toolset: Toolset) -> list[ParsedCall]:
    calls: list[ParsedCall] = []
    done = 0
    for m in _SELECT.finditer(text):
        if m.start() < done:  # inside the statement just read
            continue
        scan = _SqlScan(text, m.end())
        span_start = m.start()  # the statement's first call spans from SELECT
        while True:
            scan.ws()
            if calls and span_start != m.start():
                span_start = scan.pos
            name = scan.name()
            scan.ws()
            if name is None or not scan.peek("("):
                break
            scan.pos += 1
            tool = find_tool(name, toolset)
            arguments: dict[str, Any] = {}
            positional = list(tool.params) if tool is not None else []
            scan.ws()
            while not scan.peek(")"):
                mark = scan.pos
                key = scan.name()
                scan.ws()
                op = _NAMED_ARG.match(text, scan.pos)
                if key is not None and op is not None:
                    scan.pos = op.end()
                    arguments[key] = scan.value()
                else:
                    scan.pos = mark
                    value = scan.value()
                    if len(arguments) >= len(positional):
                        raise ParseError(f"{name}: positional value at offset {mark} has no "
                                         "parameter")
                    arguments[positional[len(arguments)].name] = value
                scan.ws()
                if scan.peek(","):
                    scan.pos += 1
                    scan.ws()
                elif not scan.peek(")"):
                    raise ParseError(f"{name}: expected ',' or ')' at offset {scan.pos}")
            scan.pos += 1
            calls.append(ParsedCall(name, arguments, (span_start, scan.pos)))
            check_calls(len(calls))
            span_start = -1  # the next call of the statement spans from its name
            done = scan.pos
            scan.ws()
            if not scan.peek(","):
                break
            scan.pos += 1
    return calls


@register_protocol(
    name="SQL function call",
    description="Each call as a SELECT of the tool with PostgreSQL named arguments (=>).",
    supports_parallel=True, structured=True, text_values=False,
)
class SqlCall(Protocol):
    """``SELECT tool_name(param_name => 'value', n => 2);``, one statement per call.

    Literals: ``'text'`` (``''`` for a quote), numbers, ``TRUE``/``FALSE``/``NULL``,
    ``ARRAY[...]``, and objects or arrays as ``'<JSON>'::jsonb``. Names that are not
    identifiers are written as ``"quoted identifiers"``. Positional values bind to the tool's
    parameters in order. A ``SELECT tool(`` that does not scan is a ``ParseError``.
    """

    instruction = ("To call a tool, write one SQL statement per call with named arguments, "
                   "such as SELECT tool_name(param_name => 'value', other_param => 2); give "
                   "object and array values as '<JSON>'::jsonb.")

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One ``SELECT`` statement per call, a sentence for none."""
        if not calls:
            return ABSTENTION
        return "\n".join(
            f"SELECT {_sql_ident(c.name)}("
            + ", ".join(f"{_sql_ident(k)} => {_sql_value(v)}" for k, v in c.arguments.items())
            + ");" for c in calls)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The ``SELECT`` calls of ``text``."""
        if not contains(lowered(text), "select"):
            return []
        return [c for offset, block in _blocks(text, _SQL_LANGS)
                for c in _shifted(_sql_calls(block, toolset), offset)]


# -- GraphQL -----------------------------------------------------------------------------------
_OPERATION = re.compile(r"\b(?:mutation|query)\b\s*(?:[_A-Za-z]\w*\s*)?\{")
_GQL_NAME = re.compile(r"[_A-Za-z][_0-9A-Za-z]*")
_GQL_LANGS = {"", "graphql", "gql"}


def _gql_name(name: str) -> str:
    return name if _GQL_NAME.fullmatch(name) else json.dumps(name, ensure_ascii=False)


def _gql_value(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_gql_name(k)}: {_gql_value(v)}"
                               for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_gql_value(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


class _GqlScan(_Scan):
    def ws(self, extra: str = ",") -> None:
        super().ws(extra)

    def name(self) -> str | None:
        s = self.json_string()
        if s is not None:
            return s
        m = _GQL_NAME.match(self.text, self.pos)
        if m is None:
            return None
        self.pos = m.end()
        return m.group()

    def value(self, depth: int = 0) -> Any:
        if depth > MAX_DEPTH:
            raise ParseError(f"GraphQL value nested deeper than {MAX_DEPTH}")
        self.ws()
        s = self.json_string()
        if s is not None:
            return s
        if self.peek("["):
            self.pos += 1
            items = []
            self.ws()
            while not self.peek("]"):
                items.append(self.value(depth + 1))
                self.ws()
                if self.pos >= len(self.text):
                    raise ParseError("a GraphQL list never closes")
            self.pos += 1
            return items
        if self.peek("{"):
            self.pos += 1
            obj: dict[str, Any] = {}
            self.ws()
            while not self.peek("}"):
                key = self.name()
                if key is None:
                    raise ParseError(f"expected a field name at offset {self.pos}")
                self.ws()
                self.expect(":")
                obj[key] = self.value(depth + 1)
                self.ws()
            self.pos += 1
            return obj
        if self.peek("$"):
            raise ParseError(f"a GraphQL variable at offset {self.pos} has no value")
        number = self.number()
        if number is not None:
            return number
        word = self.name()
        if word is None:
            raise ParseError(f"unreadable GraphQL value at offset {self.pos}")
        return {"true": True, "false": False, "null": None}.get(word, word)

    def skip_selection(self) -> None:
        """Skip a ``{ ... }`` selection set after a field (strings inside skipped too)."""
        end = value_end(self.text, self.pos)
        if end is None:
            raise ParseError("a selection set never closes")
        self.pos = end


def _gql_calls(text: str, toolset: Toolset) -> list[ParsedCall]:
    calls: list[ParsedCall] = []
    pos = 0
    while True:
        m = _OPERATION.search(text, pos)
        if m is None:
            return calls
        scan = _GqlScan(text, m.end())
        while True:
            scan.ws()
            if scan.peek("}") or scan.pos >= len(text):
                scan.pos += 1
                break
            field_start = scan.pos
            name = scan.name()
            if name is None:
                raise ParseError(f"expected a field at offset {scan.pos}")
            scan.ws()
            if scan.peek(":") and not scan.peek("::"):  # an alias
                scan.pos += 1
                scan.ws()
                name = scan.name()
                if name is None:
                    raise ParseError(f"expected a field after an alias at offset {scan.pos}")
                scan.ws()
            arguments: dict[str, Any] = {}
            if scan.peek("("):
                scan.pos += 1
                scan.ws()
                while not scan.peek(")"):
                    key = scan.name()
                    if key is None:
                        raise ParseError(f"{name}: expected an argument at offset {scan.pos}")
                    scan.ws()
                    scan.expect(":")
                    arguments[key] = scan.value()
                    scan.ws()
                    if scan.pos >= len(text):
                        raise ParseError(f"{name}: the argument list never closes")
                scan.pos += 1
                scan.ws()
            if scan.peek("{"):
                scan.skip_selection()
            calls.append(ParsedCall(name, arguments, (field_start, scan.pos)))
            check_calls(len(calls))
        pos = scan.pos


@register_protocol(
    name="GraphQL mutation",
    description=("All calls as fields of one GraphQL mutation, with named arguments in "
                 "GraphQL literal syntax."),
    supports_parallel=True, structured=True, text_values=False,
)
class GraphqlCall(Protocol):
    """``mutation { tool_name(param_name: "value", n: 2) }``, one field per call.

    Literals: JSON-style strings, numbers, ``true``/``false``/``null``, lists, input objects
    with bare field names, and bare enum words (read as strings); commas are optional, aliases
    and selection sets are skipped. Names that are not GraphQL names (``API-post-page``) are
    written as quoted strings, an extension this reader accepts. A broken operation is a
    ``ParseError``.
    """

    instruction = ('To call tools, write one GraphQL mutation with one field per call, such as '
                   'mutation { tool_name(param_name: "value", other_param: 2) }.')

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One mutation holding one field per call, a sentence for none."""
        if not calls:
            return ABSTENTION
        fields = []
        for c in calls:
            args = ", ".join(f"{_gql_name(k)}: {_gql_value(v)}" for k, v in c.arguments.items())
            fields.append(f"  {_gql_name(c.name)}" + (f"({args})" if args else ""))
        return "mutation {\n" + "\n".join(fields) + "\n}"

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The mutation fields of ``text`` as calls."""
        if (not contains(text, "mutation") and not contains(text, "query")) or "{" not in text:
            return []
        return [c for offset, block in _blocks(text, _GQL_LANGS)
                for c in _shifted(_gql_calls(block, toolset), offset)]


# -- URL ---------------------------------------------------------------------------------------
_REQUEST = LinePattern(r"[ \t>*`-]*(?:(GET|POST|PUT|PATCH|DELETE)[ \t]+)?(?:https?://[^/\s]+)?"
                       r"/([^\s?#`]+)(?:\?([^\s#`]*))?")


def _flatten(prefix: str, value: Any, out: list[tuple[str, str]]) -> None:
    if isinstance(value, dict) and value:
        for k, v in value.items():
            _flatten(f"{prefix}.{k}", v, out)
    else:
        out.append((prefix, text_of(value)))


def _field_type(t: TypeIR | None, key: str) -> TypeIR | None:
    """The type of field ``key`` of object type ``t`` (or of a union's object options)."""
    if t is None:
        return None
    objects = [t] if t.kind == "object" else [o for o in t.options if o.kind == "object"]
    return next((f.type for o in objects for f in o.fields if f.name == key), None)


def _url_arguments(query: str, tool: ToolIR | None, repairs: list[str]) -> dict[str, Any]:
    arguments: dict[str, Any] = {}
    for pair in query.split("&"):
        if not pair:
            continue
        key, _, value = pair.partition("=")
        key, value = unquote_plus(key), unquote_plus(value)
        if tool is not None and tool.param(key) is not None:
            path = [key]
        else:
            path = key.split(".")
        node = arguments
        for part in path[:-1]:
            child = node.get(part)
            if not isinstance(child, dict):
                child = node[part] = {}
            node = child
        leaf_t = _param_type(tool, path[0])
        for part in path[1:]:
            leaf_t = _field_type(leaf_t, part)
        node[path[-1]] = typed_text(value, leaf_t, key, repairs)
        check_arguments(len(arguments), "a request")
    return arguments


@register_protocol(
    name="HTTP request line",
    description=("Each call as an HTTP request line to /tool_name with the arguments in the "
                 "query string; nested objects are flattened to dotted keys."),
    supports_parallel=True, structured=True, text_values=True,
    cannot_carry=("untyped_values", "mistyped_values", "dotted_keys"),
)
class UrlCall(Protocol):
    """``POST /tool_name?param_name=value&route.origin=JFK``, one request line per call.

    Writing: names and values percent-encoded; a non-empty object is flattened to dotted keys
    (``route.origin=JFK``); arrays, empty objects, numbers, booleans and null as JSON text.
    Reading: request lines with a method (or a bare path naming a tool), an optional
    ``http(s)://host``; ``+`` reads as a space; dotted keys are re-nested unless the dotted
    key is itself a parameter; leaf values are typed from the schema.

    ``cannot_carry``: values of undeclared type come back as text (``untyped_values``),
    mistyped values come back typed, object keys holding a dot (``dotted_keys``).
    """

    instruction = ("To call a tool, write an HTTP request line such as POST "
                   "/tool_name?param_name=value&other_param=2, one line per call; percent-encode "
                   "values and flatten nested objects as parent.child=value.")

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One request line per call, a sentence for none."""
        if not calls:
            return ABSTENTION
        lines = []
        for call in calls:
            pairs: list[tuple[str, str]] = []
            for key, value in call.arguments.items():
                _flatten(key, value, pairs)
            query = "&".join(f"{quote(k, safe='.')}={quote(v, safe='')}" for k, v in pairs)
            lines.append(f"POST /{quote(call.name, safe='')}" + (f"?{query}" if pairs else ""))
        return "\n".join(lines)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The request lines of ``text`` as calls."""
        if "/" not in text:
            return []
        calls: list[ParsedCall] = []
        find = tool_finder(toolset)
        for m in _REQUEST.finditer(text):
            name = unquote_plus(m.group(2).rstrip("/"))
            tool = find(name)
            if m.group(1) is None and tool is None:
                continue
            repairs: list[str] = []
            arguments = _url_arguments(m.group(3) or "", tool, repairs)
            calls.append(ParsedCall(name, arguments, (m.start(2) - 1, m.end()), tuple(repairs)))
            check_calls(len(calls))
        return calls


# -- S-expressions -----------------------------------------------------------------------------
_ATOM = re.compile(r"""[^\s()"';]+""")
_SEXPR_LANGS = {"", "lisp", "scheme", "clojure", "elisp", "sexp", "sexpr", "racket"}


def _atom(name: str) -> str:
    if _ATOM.fullmatch(name) and not name.startswith(":"):
        return name
    return json.dumps(name, ensure_ascii=False)


class _SexprScan(_Scan):
    def atom(self) -> str | None:
        s = self.json_string()
        if s is not None:
            return s
        m = _ATOM.match(self.text, self.pos)
        if m is None:
            return None
        self.pos = m.end()
        return m.group()

    def value(self, t: TypeIR | None, depth: int = 0, *, key: str = "",
              repairs: list[str] | None = None) -> Any:
        if depth > MAX_DEPTH:
            raise ParseError(f"S-expression nested deeper than {MAX_DEPTH}")
        self.ws()
        if self.peek("(") or self.peek("'("):
            self.pos = self.text.index("(", self.pos) + 1
            items = []
            item_t = t.items if t is not None and t.kind == "array" else None
            self.ws()
            while not self.peek(")"):
                if self.pos >= len(self.text):
                    raise ParseError("a list never closes")
                items.append(self.value(item_t, depth + 1, key=key, repairs=repairs))
                self.ws()
            self.pos += 1
            return items
        if self.text[self.pos:self.pos + 1] in ('"', "{", "["):
            found = json_at(self.text, self.pos)
            if found is None:
                raise ParseError(f"unreadable value at offset {self.pos}"
                                 + why_not_json(self.text, self.pos))
            self.pos = found[1]
            return found[0]
        word = self.atom()
        if word is None:
            raise ParseError(f"expected a value at offset {self.pos}")
        lisp = {"t": "true", "nil": "null", "#t": "true", "#f": "false"}.get(word, word)
        found = json_at(lisp, 0)  # a number or true/false/null keeps its literal type
        if found is not None and found[1] == len(lisp):
            return found[0]
        if t is None:
            return word
        return coerce_value(lisp, t) if repairs is None else typed_text(lisp, t, key, repairs)


def _sexpr_calls(text: str, toolset: Toolset) -> list[ParsedCall]:
    brackets = match_brackets(text, "(")
    find = tool_finder(toolset)
    calls: list[ParsedCall] = []
    done = 0
    for start in sorted(brackets.pairs):
        if start < done:
            continue
        scan = _SexprScan(text, start + 1)
        scan.ws()
        name = scan.atom()
        if name is None:
            continue
        scan.ws()
        tool = find(name)
        if not (scan.peek(":") or (scan.peek(")") and tool is not None)):
            continue
        arguments: dict[str, Any] = {}
        repairs: list[str] = []
        while scan.peek(":"):
            scan.pos += 1
            key = scan.atom()
            if key is None:
                raise ParseError(f"{name}: a keyword at offset {scan.pos} has no name")
            arguments[key] = scan.value(_param_type(tool, key), key=key, repairs=repairs)
            check_arguments(len(arguments), name)
            scan.ws()
        if not scan.peek(")"):
            raise ParseError(f"{name}: expected ':keyword' or ')' at offset {scan.pos}")
        calls.append(ParsedCall(name, arguments, (start, scan.pos + 1), tuple(repairs)))
        check_calls(len(calls))
        done = scan.pos + 1
    for start, _ in brackets.unclosed:
        scan = _SexprScan(text, start + 1)
        scan.ws()
        name = scan.atom()
        scan.ws()
        if name is not None and scan.peek(":") and find(name) is not None:
            raise ParseError(f"the S-expression of {name} at offset {start} never closes")
    return calls


@register_protocol(
    name="S-expression call",
    description="Each call as a Lisp-style list: the tool's name, then :keyword value pairs.",
    supports_parallel=True, structured=True, text_values=False,
)
class SexprCall(Protocol):
    """``(tool_name :param_name "value" :count 3)``, one list per call.

    Values: JSON strings, numbers, ``true``/``false``/``null`` (``t``/``nil`` too), JSON
    objects and arrays, or a Lisp list ``("a" "b")`` for an array; a bare word for a declared
    parameter is typed from the schema. A list starting with a tool's name followed by
    ``:keyword`` that does not scan is a ``ParseError``.
    """

    instruction = ('To call a tool, write an S-expression such as (tool_name :param_name "value" '
                   ":other_param 2), one per call; give objects as JSON.")

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One S-expression per line, a sentence for none."""
        if not calls:
            return ABSTENTION
        return "\n".join(
            "(" + " ".join([_atom(c.name)] + [f":{_atom(k)} {json.dumps(v, ensure_ascii=False)}"
                                              for k, v in c.arguments.items()]) + ")"
            for c in calls)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The S-expression calls of ``text``."""
        if "(" not in text:
            return []
        return [c for offset, block in _blocks(text, _SEXPR_LANGS)
                for c in _shifted(_sexpr_calls(block, toolset), offset)]


# -- symbolic ----------------------------------------------------------------------------------
#: The type symbol written before each value.
SYMBOLS = {"string": "§", "integer": "#", "number": "~", "boolean": "?", "null": "∅",
           "json": "¤"}
_SYMBOL_KIND = {v: k for k, v in SYMBOLS.items()}
_SYM_LINE = LinePattern(r"[ \t]*([^\s★]+)[ \t]*((?:★.*)?)$")
@functools.lru_cache(maxsize=64)
def _bare_name_lines(names: tuple[str, ...]) -> LinePattern:
    """Lines holding only one of ``names`` (any case), as ``_SYM_LINE`` matches them; compiled
    only for names :func:`_name_lines` cannot look up."""
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)
                            if n and not any(c.isspace() or c == "★" for c in n)) or "(?!)"
    return LinePattern(rf"[ \t]*((?:{alternatives})(?![^\s★]))[ \t]*(?=$)()", re.I)


_NAME_BREAK = re.compile(r"[\s★]")  # white space (as str.isspace() says) or the marker
_ONE_WORD_LINE = LinePattern(r"[ \t]*([^\s★]+)[ \t]*(?=$)()")


def _name_lines(text: str, names: tuple[str, ...]) -> Iterator[re.Match[str]]:
    """The matches of ``_bare_name_lines(names)`` in ``text``: every line of one word, kept
    when the word is a name up to ASCII case (one shared pattern and a set lookup; a pattern
    per toolset costs milliseconds to compile). Names or words outside ASCII fall back to the
    compiled pattern, whose case rules ``re`` applies."""
    if not all(n.isascii() for n in names):
        yield from _bare_name_lines(names).finditer(text)
        return
    folded = {n.lower() for n in names if n and _NAME_BREAK.search(n) is None}
    for m in _ONE_WORD_LINE.finditer(text):
        word = m.group(1)
        if word.isascii():
            if word.lower() in folded:
                yield m
        else:
            exact = _bare_name_lines(names).match(text, m.start())
            if exact is not None:
                yield exact


_SYM_ARG = re.compile(r"★[ \t]*([^§#~?∅¤★]+?)[ \t]*([§#~?∅¤])")


def _symbol_value(value: Any) -> str:
    if isinstance(value, bool):
        return "?" + ("true" if value else "false")
    if value is None:
        return "∅"
    if isinstance(value, str):
        text = quote_if_needed(value, "★")
        # a star inside a quoted value is escaped, so it cannot start an argument
        return "§" + (json.dumps(value) if "★" in text else text)
    if isinstance(value, int):
        return f"#{value}"
    if isinstance(value, float):
        return "~" + json.dumps(value)
    return "¤" + json.dumps(value, ensure_ascii=False)


def _symbol_read(kind: str, raw: str, name: str) -> Any:
    raw = raw.strip()
    if kind == "string":
        return unquote_value(raw, TypeIR("string"))
    if kind == "null":
        return None
    found = json_at(raw, 0)
    if found is None or found[1] != len(raw):
        article = "an" if kind[0] in "aeiou" else "a"
        raise ParseError(f"{name}: {raw[:40]!r} is not {article} {kind} value"
                         + why_not_json(raw))
    value = found[0]
    ok = {"integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
          "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
          "boolean": lambda v: isinstance(v, bool),
          "json": lambda v: True}[kind](value)
    if not ok:
        raise ParseError(f"{name}: {raw[:40]!r} does not match its {kind} symbol")
    return float(value) if kind == "number" else value


@register_protocol(
    name="Symbolic call",
    description=("Each call on one line: the tool's name, then ★name and a type symbol before "
                 "each value (§ text, # integer, ~ number, ? boolean, ∅ null, ¤ JSON)."),
    supports_parallel=True, structured=True, text_values=False,
)
class SymbolicCall(Protocol):
    """``tool_name ★city§Paris ★days#3``; the symbol before each value states its type.

    Symbols: ``§`` text, ``#`` integer, ``~`` number, ``?`` boolean (true/false), ``∅`` null,
    ``¤`` JSON object or array. A text value holding ``★``, a line break or edge spaces is
    written as a JSON string. A line with only a name is a call when the name is a tool's
    exactly (up to case and separators). A value that does not match its symbol is a
    ``ParseError``.
    """

    instruction = ("To call a tool, write one line per call: tool_name ★param_name§text "
                   "★other_param#2, with § before text, # before an integer, ~ before a number, "
                   "? before true or false, ∅ for null and ¤ before JSON.")

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One line per call, a sentence for none."""
        if not calls:
            return ABSTENTION
        return "\n".join(" ".join([c.name] + [f"★{k}{_symbol_value(v)}"
                                              for k, v in c.arguments.items()]) for c in calls)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The symbolic calls of ``text``."""
        if not toolset.names or not text.strip():
            return []
        if "★" not in text and not holds_a_name(lowered(text), tuple(toolset.names)):
            return []  # only a line holding a tool's name alone (up to case) is a call
        # without a star, only a line holding a tool's name alone can be a call
        lines = _SYM_LINE.finditer(text) if "★" in text else \
            _name_lines(text, tuple(toolset.names))
        calls: list[ParsedCall] = []
        find = tool_finder(toolset)
        for m in lines:
            name, rest = m.group(1), m.group(2)
            if not rest:
                tool = toolset.get(name) or next(
                    (t for t in toolset if t.name.casefold() == name.casefold()), None)
                if tool is not None:
                    calls.append(ParsedCall(name, {}, m.span(1)))
                    check_calls(len(calls))
                continue
            heads = list(itertools.islice(_SYM_ARG.finditer(rest), MAX_ARGUMENTS + 1))
            check_arguments(len(heads), name)
            if not heads or heads[0].start() != 0:
                if find(name) is None:
                    continue
                raise ParseError(f"{name}: arguments must be ★name followed by a type symbol")
            arguments: dict[str, Any] = {}
            for i, h in enumerate(heads):
                end = heads[i + 1].start() if i + 1 < len(heads) else len(rest)
                arguments[h.group(1)] = _symbol_read(_SYMBOL_KIND[h.group(2)],
                                                     rest[h.end():end], name)
                check_arguments(len(arguments), name)
            calls.append(ParsedCall(name, arguments, (m.start(1), m.end())))
            check_calls(len(calls))
        return calls
