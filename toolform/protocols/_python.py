"""The Python-call answer protocol: ``tool_name(arg=value)``, one call per line.

Names: a tool whose name is a dotted Python identifier (``get_weather``,
``math.factorial``) is written as-is; any other name (``API-post-page``, a Python keyword, the
name ``call`` itself being fine) is written ``call("API-post-page", arg=1)``. Arguments whose
names are not identifiers go in a trailing ``**{"user-id": 7}``.

Reading never runs code: a text made of plain calls with literal values is read by the
linear-time reader of :mod:`._py_literals`; any other text goes through ``ast.parse`` and only the
argument nodes through ``ast.literal_eval`` (after ``true``/``false``/``null`` are read as their
Python literals). Both give the same calls: the first declines whatever it does not understand.
"""

from __future__ import annotations

import ast
import keyword
import re
import threading
import unicodedata
import warnings
from typing import Any, Sequence

from ..errors import ParseError
from ..ir import ToolCall, Toolset
from ._brackets import match_brackets
from ._calls import ParsedCall
from ._json import ABSTENTION
from ._limits import MAX_CANDIDATES, check_calls
from ._loose_json import to_json_value
from ._names import find_tool
from ._py_literals import PyLiteral, read_call_expression, read_call_statements
from ._registry import Protocol, register_protocol
from ._text import contains, fences

__all__ = ["MAX_CALL_HEADS", "PY_CALL_HEAD", "PY_CODE_LANGS", "PY_WRAPPER", "PythonCall",
           "ast_span", "call_heads", "line_starts", "py_block_calls", "py_module_calls", "py_parse_source",
           "py_prose_calls", "py_read_call", "py_write_call"]


# -- reading and writing Python call expressions (also used by the Python family of
# _code_calls) ---------------------------------------------------------------------------------
PY_WRAPPER = "call"

#: ``name(`` or ``a.b(`` not preceded by a word character or dot; group 1 is the (dotted) name
#: (white space may come before a dot, never after one: ``the call. get_weather(`` names
#: ``get_weather``, and ``e.g. get_weather(`` too).
PY_CALL_HEAD = re.compile(r"(?<![\w.])([^\W\d]\w*(?:\s*\.[^\W\d]\w*)*)\s*\(")
#: Code-fence languages whose blocks are read as Python calls ("" is an unlabelled fence).
PY_CODE_LANGS = frozenset({"", "python", "py", "python3", "tool_code", "tool_call"})
_PY_MAX_CALL_LEVEL = 2
_PY_JSON_WORDS = {"true": True, "false": False, "null": None}


def _py_identifier(name: str) -> bool:
    """A Python identifier that reads back unchanged (not a keyword, NFKC-stable)."""
    return (name.isidentifier() and not keyword.iskeyword(name)
            and unicodedata.normalize("NFKC", name) == name)


def py_write_call(call: ToolCall) -> str:
    """One call as a Python call expression: keyword arguments with ``repr`` values, names that
    are not identifiers in a trailing ``**{...}``, a tool name that is not a dotted identifier
    through :data:`PY_WRAPPER`."""
    parts = [f"{k}={v!r}" for k, v in call.arguments.items() if _py_identifier(k)]
    other = {k: v for k, v in call.arguments.items() if not _py_identifier(k)}
    if other:
        parts.append(f"**{other!r}")
    if all(_py_identifier(part) for part in call.name.split(".")):
        return f"{call.name}({', '.join(parts)})"
    return f"{PY_WRAPPER}({', '.join([repr(call.name), *parts])})"


class _JsonNames(ast.NodeTransformer):
    """Read the JSON words ``true``, ``false`` and ``null`` as Python literals."""

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in _PY_JSON_WORDS:
            return ast.copy_location(ast.Constant(_PY_JSON_WORDS[node.id]), node)
        return node


def _py_literal(node: ast.expr | PyLiteral, what: str) -> Any:
    if type(node) is PyLiteral or isinstance(node, ast.Constant):  # read already, or a
        return to_json_value(node.value)  # constant: what literal_eval returns, sooner
    try:
        value = ast.literal_eval(_JsonNames().visit(node))
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise ParseError(f"{what} is not a literal value") from None
    return to_json_value(value)


def _py_dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _py_dotted(node.value)
        return f"{base}.{node.attr}" if base is not None else None
    return None


def py_read_call(node: ast.Call, toolset: Toolset) -> ToolCall | None:
    """The tool call a call node writes, or None when it is not a tool call.

    A call is a tool call when its name (or the wrapper's first argument) resolves to a tool,
    or when it passes only keyword arguments. Positional arguments of a known tool bind to its
    parameters in declaration order.

    Raises
    ------
    ParseError
        For a tool call with a non-literal value or too many positional arguments.
    """
    name = _py_dotted(node.func)
    if name is None:
        return None
    return _tool_call(name, node.args, [(kw.arg, kw.value) for kw in node.keywords], toolset)


def _tool_call(name: str, args: Sequence[ast.expr | PyLiteral],
               keywords: Sequence[tuple[str | None, ast.expr | PyLiteral]], toolset: Toolset
               ) -> ToolCall | None:
    """:func:`py_read_call` once the call is taken apart: its dotted name, positional
    arguments and ``(keyword or None for **, value)`` pairs, values as ``ast`` nodes or as
    :class:`~._py_literals.PyLiteral` values read already.

    Raises
    ------
    ParseError
        As for :func:`py_read_call`.
    """
    args = list(args)
    if (name == PY_WRAPPER and args and isinstance(args[0], (ast.Constant, PyLiteral))
            and isinstance(args[0].value, str)
            and (find_tool(PY_WRAPPER, toolset) is None or find_tool(args[0].value, toolset))):
        name = args[0].value
        args = args[1:]
    tool = find_tool(name, toolset)
    if tool is None:
        if args or not keywords:
            return None
        params: tuple = ()
    else:
        params = tool.params
    arguments: dict[str, Any] = {}
    if args:
        if any(isinstance(a, ast.Starred) for a in args) or len(args) > len(params):
            raise ParseError(f"{name}: {len(args)} positional arguments do not fit its "
                             f"{len(params)} parameters")
        for param, arg in zip(params, args):
            arguments[param.name] = _py_literal(arg, f"argument {param.name} of {name}")
    for key, value in keywords:
        if key is None:
            spread = _py_literal(value, f"the ** argument of {name}")
            if not isinstance(spread, dict):
                raise ParseError(f"the ** argument of {name} is not a dict")
            arguments.update(spread)
        else:
            arguments[key] = _py_literal(value, f"argument {key} of {name}")
    return ToolCall(name, arguments)


_DIGIT_WORD = re.compile(r"\d\.?[^\W\d]")


def _may_warn(source: str) -> bool:
    """Whether Python's parser can warn about ``source``: it holds an escape sequence (a
    backslash) or a number run into a word ("invalid decimal literal": ``1if``, ``5.info``).
    The backslash is looked for apart: a pattern that starts with the digit class is skipped to
    its candidates, one with a choice of first characters is tried at every position."""
    return "\\" in source or _DIGIT_WORD.search(source) is not None


#: Sources at least this long skip the scan: catching warnings costs less than parsing them,
#: and the scan of a long reply (35 ms a megabyte of digits) would cost more than both.
_SCAN_BELOW = 4096
_WARNINGS_LOCK = threading.Lock()


def py_parse_source(source: str, mode: str) -> ast.AST:
    """``ast.parse`` with every failure as ``SyntaxError`` (Python's parser caps nesting at
    200 levels itself; values deeper than ``MAX_DEPTH`` are refused by ``to_json_value``)."""
    try:
        if len(source) < _SCAN_BELOW and not _may_warn(source):
            # catching warnings costs more than parsing most short sources
            return ast.parse(source, mode=mode)
        # "invalid escape sequence" in model text is not ours; the filters are process-wide and
        # catch_warnings is not thread-safe, so the replies parsed on other threads wait
        with _WARNINGS_LOCK, warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(source, mode=mode)
    except (ValueError, MemoryError, RecursionError) as exc:  # NUL bytes, huge nesting
        raise SyntaxError(str(exc)) from None


def line_starts(source: str) -> list[int]:
    """The offset of each line start of ``source`` (line 1 first)."""
    out = [0]
    pos = source.find("\n")
    while pos >= 0:
        out.append(pos + 1)
        pos = source.find("\n", pos + 1)
    return out


def _char_offset(source: str, lines: list[int], lineno: int, col: int) -> int:
    """The character offset of an ``ast`` position (``col`` counts UTF-8 bytes)."""
    start = lines[lineno - 1]
    end = lines[lineno] if lineno < len(lines) else len(source)
    line = source[start:end]
    return start + len(line.encode("utf-8", "surrogatepass")[:col].decode("utf-8", "ignore"))


def ast_span(source: str, node: ast.AST, lines: list[int]) -> tuple[int, int]:
    """The characters of ``source`` a parsed node spans (``lines`` from :func:`line_starts`)."""
    return (_char_offset(source, lines, node.lineno, node.col_offset),  # type: ignore[attr-defined]
            _char_offset(source, lines, node.end_lineno or node.lineno,  # type: ignore[attr-defined]
                         node.end_col_offset or 0))  # type: ignore[attr-defined]


def py_module_calls(block: str, toolset: Toolset) -> list[ParsedCall] | None:
    """Calls from a block that is valid Python: each top-level call statement (and the call
    on the right of an assignment), each spanning its statement. None when the block is not
    valid Python."""
    if "(" not in block:
        return []
    read = read_call_statements(block)
    if read is not None:  # plain calls with literal values: no ast needed
        calls = []
        for found in read:
            call = _tool_call(found.name, found.args, found.keywords, toolset)
            if call is not None:
                calls.append(ParsedCall(call.name, call.arguments, found.span))
                check_calls(len(calls))
        return calls
    try:
        tree = py_parse_source(block, "exec")
    except SyntaxError:
        return None
    calls: list[ParsedCall] = []
    lines: list[int] | None = None
    for stmt in getattr(tree, "body", []):
        value = stmt.value if isinstance(stmt, (ast.Expr, ast.Assign, ast.AnnAssign)) else None
        if isinstance(value, ast.Call):
            call = py_read_call(value, toolset)
            if call is not None:
                lines = lines or line_starts(block)
                calls.append(ParsedCall(call.name, call.arguments, ast_span(block, stmt, lines)))
                check_calls(len(calls))
    return calls


#: Most ``name(`` heads one block may hold for the prose reader.
MAX_CALL_HEADS = MAX_CANDIDATES
# a call head read backwards from its parenthesis: finding the literal "(" first is fast
_REVERSED_HEAD = re.compile(r"\(\s*(\w+(?:\s*\.\s*\w+)*)(?![\w.])")
_DOT = re.compile(r"\s*\.\s*")
_WORD_PAREN = re.compile(r"\w\s*\(")


def call_heads(block: str) -> list[re.Match[str]]:
    """Every :data:`PY_CALL_HEAD` match of ``block``, in order, found from the parentheses.

    The same matches ``PY_CALL_HEAD.finditer`` gives, in time linear in the text: the
    reversed text is searched for ``(`` and the name before it, and each candidate is checked
    with ``PY_CALL_HEAD`` itself.

    Raises
    ------
    ParseError
        When the block holds more than :data:`MAX_CALL_HEADS` heads.
    """
    if "(" not in block:
        return []
    size = len(block)
    found = []
    reversed_block = block[::-1]
    if block.count("(") * 8 > size:
        # parentheses everywhere: find the ones after a word character first, then the name
        # before each (in reversed text every parenthesis would be a candidate)
        candidates = (r for r in (_REVERSED_HEAD.match(reversed_block, size - m.end())
                                  for m in _WORD_PAREN.finditer(block)) if r is not None)
    else:
        candidates = _REVERSED_HEAD.finditer(reversed_block)
    for r in candidates:
        name_start, head_end = size - r.end(1), size - r.start()
        # the longest chain first; a part starting with a digit is no name, so try the
        # chain from each later part
        starts = [name_start] if block.find(".", name_start, head_end) < 0 else \
            [name_start] + [d.end() for d in _DOT.finditer(block, name_start, head_end)]
        for start in starts:
            m = PY_CALL_HEAD.match(block, start)
            if m is not None and m.end() == head_end:
                found.append(m)
                break
        if len(found) > MAX_CALL_HEADS:
            raise ParseError(f"the text holds more than {MAX_CALL_HEADS:,} call heads; not "
                             "read")
    if found and found[0].start() > found[-1].start():
        found.reverse()
    return found


def py_prose_calls(block: str, toolset: Toolset) -> list[ParsedCall]:
    """Calls embedded in prose: each ``name(...)`` whose parentheses balance and parse, each
    spanning ``name(`` to its closing parenthesis.

    Raises
    ------
    ParseError
        When a call to a tool of the toolset is there but broken (unbalanced or not Python).
    """
    heads = call_heads(block)
    if not heads:
        return []
    brackets = match_brackets(block, "(")
    calls: list[ParsedCall] = []
    done = 0
    for m in heads:
        paren = m.end() - 1
        # a call nested three calls deep is no tool call; the cap keeps the scan linear
        if m.start() < done or brackets.level(paren) > _PY_MAX_CALL_LEVEL:
            continue
        name = re.sub(r"\s+", "", m.group(1))
        # "get_weather(" is code that can be broken; "weather (today)" may just be prose
        known = m.end(1) == paren and (name == PY_WRAPPER or find_tool(name, toolset) is not None)
        close = brackets.pairs.get(paren)
        if close is None:
            if known:
                raise ParseError(f"the call to {name} never closes its parenthesis")
            continue
        source = block[m.start():close + 1]
        read = read_call_expression(source)
        if read is not None:  # a plain call with literal values: no ast needed
            call = _tool_call(read.name, read.args, read.keywords, toolset)
        else:
            try:
                node = py_parse_source(source, "eval")
            except SyntaxError as exc:
                if known:
                    raise ParseError(f"the call to {name} is not valid Python: {exc.msg}"
                                     ) from None
                continue
            body = getattr(node, "body", None)
            call = py_read_call(body, toolset) if isinstance(body, ast.Call) else None
        if call is not None:
            calls.append(ParsedCall(call.name, call.arguments, (m.start(), close + 1)))
            check_calls(len(calls))
            done = close + 1
    return calls


def py_block_calls(text: str, toolset: Toolset) -> list[ParsedCall]:
    """The Python calls of ``text``: fenced Python blocks when there are any, else the whole
    text; a block that is valid Python gives its top-level call statements, otherwise each
    ``name(...)`` in it is read on its own (:func:`py_prose_calls`). Spans are in ``text``.

    Raises
    ------
    ParseError
        As for :func:`py_prose_calls`.
    """
    if "(" not in text:
        return []
    blocks = [(f.start, f.end) for f in fences(text) if f.lang in PY_CODE_LANGS] \
        if contains(text, "```") or contains(text, "~~~") else []
    calls: list[ParsedCall] = []
    for start, end in blocks or [(0, len(text))]:
        block = text[start:end]
        found = py_module_calls(block, toolset)
        found = found if found else py_prose_calls(block, toolset)
        calls.extend(c if not start else ParsedCall(c.name, c.arguments, (c.span[0] + start,
                                                                           c.span[1] + start))
                     for c in found)
        check_calls(len(calls))
    return calls


@register_protocol(
    name="Python function call",
    description=("Each call as a Python call expression with keyword arguments and Python "
                 "literal values, one per line."),
    supports_parallel=True,
    structured=True,
    text_values=False,
)
class PythonCall(Protocol):
    """``tool_name(arg="value", n=2)``, one call per line; see the module docstring for names.

    Reading: fenced Python blocks when there are any, else the whole reply. A block that is
    valid Python gives its top-level call statements; otherwise each ``name(...)`` in the
    prose is parsed on its own. Names that are not tools (``print(x)``) are skipped unless
    they pass keyword arguments only. A tool named ``call`` is read as the tool itself unless
    its first positional argument is a string naming another tool.
    """

    instruction = ('To call a tool, write it as a Python call with keyword arguments, such as '
                   'tool_name(param_name="value", other_param=2), one call per line; write a tool whose '
                   'name is not a Python identifier as call("tool-name", param_name="value").')

    def write(self, calls: Sequence[ToolCall], toolset: Toolset) -> str:
        """One call expression per line, a sentence for none."""
        if not calls:
            return ABSTENTION
        return "\n".join(py_write_call(c) for c in calls)

    def read(self, text: str, toolset: Toolset) -> list[ParsedCall]:
        """The Python calls in ``text``."""
        return py_block_calls(text, toolset)
