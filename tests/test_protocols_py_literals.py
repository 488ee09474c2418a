"""The linear-time Python call reader (``toolform.protocols._py_literals``) gives what the
``ast`` reading gives, or declines.

Three layers of evidence:

* **the reader against ``ast``**: for a text the reader accepts, ``ast.parse`` must read the
  same calls (dotted name, positional and keyword values as ``ast.literal_eval`` gives them
  with ``true``/``false``/``null`` read as Python's, spans), compared type for type (``1`` is
  not ``1.0`` nor ``True``, ``-0.0`` is not ``0.0``, a tuple is not a list). Hypothesis draws
  Python literal values and renders them as calls, with ``repr`` and with variations (either
  quote, ``u``/``r`` prefixes, escapes, underscores, exponents, signs, JSON words, line breaks
  and trailing commas inside brackets); a clean rendering must be accepted, and a rendering
  with random edits (comments, continuations, prefixes, stray characters) must be accepted
  with the same result or declined;
* **hand-written edge cases**, each with the values checked by hand or its decline;
* **the protocols with and without it**: every reader that uses it gives the same calls, spans
  and errors with the reader switched off (everything through ``ast``), on edge-case replies
  and on the recorded local-model replies, under every protocol.
"""

from __future__ import annotations

import ast
import json
import random
import string
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolform.datasets import load_dataset
from toolform.errors import ParseError
from toolform.ir import ParamIR, ToolIR, Toolset, TypeIR
from toolform.protocols import get_protocol, parse_reply, protocol_ids
from toolform.protocols import _python
from toolform.protocols._py_literals import read_call_expression, read_call_statements

ROOT = Path(__file__).resolve().parents[1]


# -- the ast reading, as the oracle ------------------------------------------------------------
def _ast_value(node: ast.expr) -> Any:
    return ast.literal_eval(_python._JsonNames().visit(node))


def ast_calls(text: str, mode: str = "exec") -> list[tuple] | None:
    """``(name, args, keywords, span)`` per call statement of ``text`` as ``ast`` reads it;
    None when it does not parse, holds anything but call statements, or a non-literal value."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text, mode=mode)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    nodes = [tree.body] if mode == "eval" else [getattr(s, "value", None) for s in tree.body]
    if mode == "exec" and not all(isinstance(s, ast.Expr) for s in tree.body):
        return None
    lines = _python.line_starts(text)
    out = []
    for call in nodes:
        if not isinstance(call, ast.Call) or any(isinstance(a, ast.Starred) for a in call.args):
            return None
        name = _python._py_dotted(call.func)
        if name is None:
            return None
        try:
            args = [_ast_value(a) for a in call.args]
            keywords = [(k.arg, _ast_value(k.value)) for k in call.keywords]
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return None
        out.append((name, args, keywords, _python.ast_span(text, call, lines)))
    return out


def reader_calls(text: str, mode: str = "exec") -> list[tuple] | None:
    found = read_call_statements(text) if mode == "exec" else read_call_expression(text)
    if found is None:
        return None
    return [(c.name, [a.value for a in c.args], [(k, v.value) for k, v in c.keywords], c.span)
            for c in (found if mode == "exec" else [found])]


def same(a: Any, b: Any) -> bool:
    """Equal, type for type all the way down (floats by ``repr``: ``-0.0`` is not ``0.0``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return repr(a) == repr(b)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return len(a) == len(b) and all(same(ka, kb) and same(va, vb)
                                        for (ka, va), (kb, vb) in zip(a.items(), b.items()))
    if isinstance(a, (set, frozenset)):
        return a == b and same(sorted(map(repr, a)), sorted(map(repr, b)))
    return a == b


def check(text: str, mode: str = "exec") -> list[tuple] | None:
    """The reader's reading of ``text``, asserted equal to ``ast``'s when it is not None."""
    ours = reader_calls(text, mode)
    if ours is not None:
        theirs = ast_calls(text, mode)
        assert theirs is not None, f"the reader accepted what ast does not read: {text!r}"
        assert same(ours, theirs), (text, ours, theirs)
    return ours


# -- rendering Python literals -----------------------------------------------------------------
_SCALARS = (st.none() | st.booleans() | st.integers()
            | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12))
_HASHABLE = st.recursive(_SCALARS, lambda inner: st.tuples(inner, inner), max_leaves=4)
VALUES = st.recursive(
    _SCALARS,
    lambda inner: (st.lists(inner, max_size=4) | st.lists(inner, max_size=3).map(tuple)
                   | st.dictionaries(st.text(max_size=6) | st.integers(), inner, max_size=3)
                   | st.sets(_HASHABLE, min_size=1, max_size=3)),
    max_leaves=10)
_IDENT = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,8}", fullmatch=True).filter(
    lambda s: s not in ("True", "False", "None") and not __import__("keyword").iskeyword(s))
_SIMPLE = {"\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r", "\a": "\\a", "\b": "\\b",
           "\f": "\\f", "\v": "\\v"}


def _space(rng: random.Random) -> str:
    return rng.choice(["", "", " ", "  ", "\n", "\n    ", "\t"])


def _digits(rng: random.Random, digits: str) -> str:
    """``digits`` with underscores put between some of them."""
    if len(digits) < 2 or rng.random() < 0.7:
        return digits
    return "".join(d + ("_" if i < len(digits) - 1 and rng.random() < 0.3 else "")
                   for i, d in enumerate(digits))


def render_str(value: str, rng: random.Random) -> str:
    quote = rng.choice("'\"")
    if (rng.random() < 0.2 and quote not in value and not value.endswith("\\")
            and not any(c in value for c in "\n\r\x00")
            and all(c.isprintable() for c in value)):
        return rng.choice("rR") + quote + value + quote
    out = []
    for c in value:
        if c == quote:
            out.append("\\" + c)
        elif c in _SIMPLE:
            out.append(_SIMPLE[c])
        elif not c.isprintable() or rng.random() < 0.05:
            code = ord(c)
            out.append(f"\\x{code:02x}" if code < 0x100 and rng.random() < 0.5 else
                       f"\\u{code:04X}" if code < 0x10000 and rng.random() < 0.7 else
                       f"\\U{code:08x}")
        elif c in "'\"" and rng.random() < 0.3:
            out.append("\\" + c)
        else:
            out.append(c)
    return rng.choice(["", "", "u", "U"]) + quote + "".join(out) + quote


def render_number(value: int | float, rng: random.Random) -> str:
    text = repr(value)
    sign = ""
    if text.startswith("-"):
        sign, text = "-", text[1:]
    elif rng.random() < 0.1:
        sign = "+"
    if isinstance(value, int):
        return sign + _digits(rng, text)
    mantissa, _, exponent = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    if fraction == "0" and rng.random() < 0.3:
        fraction = ""  # "5." is 5.0
    if whole == "0" and fraction and rng.random() < 0.3:
        whole = ""  # ".5"
    out = _digits(rng, whole) + "." + _digits(rng, fraction)
    if exponent:
        e_sign = exponent[0] if exponent[0] in "+-" else ""
        e_digits = exponent.lstrip("+-")
        if e_sign == "+" and rng.random() < 0.5:
            e_sign = ""
        out += rng.choice("eE") + e_sign + _digits(rng, e_digits)
    return sign + out


def render(value: Any, rng: random.Random) -> str:
    """``value`` as Python literal text: ``repr`` one time in three, else with variations."""
    if rng.random() < 0.33 and not isinstance(value, (list, tuple, dict, set)):
        return repr(value)
    if value is None or isinstance(value, bool):
        words = {None: "null", True: "true", False: "false"}
        return words[value] if rng.random() < 0.4 else repr(value)
    if isinstance(value, (int, float)):
        text = render_number(value, rng)
        return f"({text})" if rng.random() < 0.05 else text
    if isinstance(value, str):
        return render_str(value, rng)
    if isinstance(value, dict):
        items = [render(k, rng) + _space(rng).replace("\n", "") + ":" + _space(rng)
                 + render(v, rng) for k, v in value.items()]
        opener, closer = "{", "}"
    else:
        items = [render(v, rng) for v in value]
        opener, closer = {list: "[]", tuple: "()", set: "{}"}[type(value)]
    trailing = "," if (isinstance(value, tuple) and len(value) == 1) or (
        items and rng.random() < 0.2) else ""
    sep = "," + rng.choice([" ", "", "\n  "])
    return opener + _space(rng) + sep.join(items) + trailing + _space(rng) + closer


@st.composite
def calls_text(draw: st.DrawFn) -> str:
    rng = random.Random(draw(st.integers(0, 2**32)))
    lines = []
    for _ in range(draw(st.integers(1, 3))):
        name = ".".join(draw(st.lists(_IDENT, min_size=1, max_size=3)))
        args = [render(v, rng) for v in draw(st.lists(VALUES, max_size=2))]
        keys = draw(st.lists(_IDENT, max_size=4, unique=True))
        args += [f"{k}{rng.choice(['', ' '])}={rng.choice(['', ' '])}{render(draw(VALUES), rng)}"
                 for k in keys]
        if draw(st.booleans()) and rng.random() < 0.2:
            args.append("**" + render(draw(st.dictionaries(st.text(max_size=5), VALUES,
                                                           max_size=2)), rng))
        trailing = "," if args and rng.random() < 0.1 else ""
        lines.append(f"{name}(" + _space(rng) + ("," + _space(rng)).join(args) + trailing + ")")
    return ("\n" * rng.choice([1, 1, 2])).join(lines) + rng.choice(["", "\n", "  \n"])


_EDITS = ["#", "# note\n", "\\\n", ";", " ", "\n", "\t", "f", "b", "rb", "0", "_", ".", "e",
          "j", "x", "'", '"', "'''", "*", "**", "-", "+", "(", ")", "[", "]", "{", "}", ":",
          ",", "=", "==", "\\", "\\N{BULLET}", "\\0", "\\777", "\\x4", "\\u12", "\x00", "\r",
          "\ud800", "\u2028", "\xa0", "é", "True", "inf", "lambda", "1j", "0x1f", "0o7"]


@settings(max_examples=600, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(text=calls_text())
def test_a_clean_rendering_is_read_as_ast_reads_it(text):
    ours = check(text)
    assert ours is not None, f"declined a plain call: {text!r}"
    for line_calls in ours:  # eval mode: each call on its own
        start, end = line_calls[3]
        assert check(text[start:end], "eval") is not None


@settings(max_examples=600, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(text=calls_text(), seed=st.integers(0, 2**32))
def test_an_edited_rendering_is_read_as_ast_reads_it_or_declined(text, seed):
    rng = random.Random(seed)
    for _ in range(rng.randint(1, 3)):
        i = rng.randint(0, len(text))
        if rng.random() < 0.3:
            text = text[:i] + text[i + rng.randint(1, 3):]
        else:
            text = text[:i] + rng.choice(_EDITS) + text[i:]
    check(text)
    check(text.strip(), "eval")


@settings(max_examples=1000, derandomize=True, database=None, deadline=None)
@given(text=st.text(alphabet=string.printable[:-3] + "é\u2028", max_size=40))
def test_random_text_inside_a_call_is_read_as_ast_reads_it_or_declined(text):
    check(f"f(a={text})")
    check(f"f({text})", "eval")


# -- hand-written edge cases ------------------------------------------------------------------
@pytest.mark.parametrize("text, expected", [
    ('f(a="x\\ny", b=\'it\\\'s\', c="\\\\")', {"a": "x\ny", "b": "it's", "c": "\\"}),
    ('f(a="\\x41\\u00e9\\U0001F600", b="\\t\\r\\a\\b\\f\\v")',
     {"a": "Aé😀", "b": "\t\r\a\b\f\v"}),
    ('f(a="caf\u00e9 ☕ 東京", b="\u2028")', {"a": "café ☕ 東京", "b": "\u2028"}),
    ('f(a=r"C:\\dir\\n", b=R\'\\d+\', c=u"x", d=U"\\u0041")',
     {"a": "C:\\dir\\n", "b": "\\d+", "c": "x", "d": "A"}),
    ('f(a="say \'hi\'", b=\'say "hi"\', c="\\"q\\"")',
     {"a": "say 'hi'", "b": 'say "hi"', "c": '"q"'}),
    ("f(a=1_000, b=-0.0, c=1e3, d=1E-3, e=-2.5e+2_0, f=.5, g=5., h=+7, i=0, j=00, k=0_0)",
     {"a": 1000, "b": -0.0, "c": 1000.0, "d": 0.001, "e": -2.5e20, "f": 0.5, "g": 5.0,
      "h": 7, "i": 0, "j": 0, "k": 0}),
    ("f(a=True, b=false, c=None, d=null, e=true)",
     {"a": True, "b": False, "c": None, "d": None, "e": True}),
    ("f(a=[1, [2, (3,)], {'k': {1, 2}}], b=(), c=(1), d={}, e=(1, 2,))",
     {"a": [1, [2, (3,)], {"k": {1, 2}}], "b": (), "c": 1, "d": {}, "e": (1, 2)}),
    ("f(a={'k': 1, 'k': 2}, b={1: 'x', True: 'y'}, c={1, True, 1.0})",
     {"a": {"k": 2}, "b": {1: "y"}, "c": {1}}),
    ("f(\n    a=[\n        1,\n        2,\n    ],\n    b = 'x' ,\n)", {"a": [1, 2], "b": "x"}),
])
def test_edge_cases_read_by_hand(text, expected):
    (name, args, keywords, span), = check(text)
    assert (name, args, span) == ("f", [], (0, len(text)))
    assert same(dict(keywords), expected), keywords


@pytest.mark.parametrize("text", [
    'f(a=b"x")', 'f(a=rb"x")', 'f(a=f"x{1}")', "f(a=F'x')", 'f(a="""x""")', "f(a='''x''')",
    'f(a="a" "b")', "f(a=1) # comment", "f(a=1,  # comment\n b=2)", "f(a=1, \\\n b=2)",
    'f(a="x\\\ny")', "f(a=1); g(b=2)", "  f(a=1)", "f(a=0x1f)", "f(a=0o7)", "f(a=0b1)",
    "f(a=01)", "f(a=1j)", "f(a=1+2j)", "f(a=- 1)", "f(a=--1)", "f(a=-True)", "f(a=1_)",
    "f(a=1__0)", "f(a=1e)", "f(a=1.e_5)", "f(a=inf)", "f(a=x)", "f(a=[1][0])", "f(a={**d})",
    "f(*a)", "f(a=1, a=2)", "f(a=1, 2)", "f(**{}, 2)", "f(class=1)", "f(True=1)", "None(a=1)",
    "a.class(b=1)", "f (a=1)", "a . b(c=1)", "(f(a=1))", "x = f(a=1)", "f(a=1)(b=2)",
    "f(a=1).g", 'f(a="\\N{BULLET}")', 'f(a="\\0")', 'f(a="\\777")', 'f(a="\\d")',
    'f(a="\\x4")', 'f(a="\\ud800")', 'f(a="\\U00110000")', "f(a='\x00')", "f(a=1)\r\n",
    "f(a='\ud800')", "f(a={[1]: 2})", "f(a={[1], 2})", "f(a=1if 1 else 2)", "f(a=1)\n g(b=2)",
    "ｆ(a=1)", "f(ａ=1)", "f(a=[" * 50 + "]" * 50 + ")", "f(a=" + "9" * 100 + ")",
    "f(a=lambda: 1)", "f(a=print)", "f(a='x'.upper())", "f(,)", "f(a=1,,)", "f(a=(1,,))",
])
def test_what_the_reader_declines(text):
    assert reader_calls(text) is None
    assert reader_calls(text, "eval") is None


# Numbers of up to 64 characters are read; the number pattern looks at most one character past
# that (a million-digit argument cost a quarter of a second when it read the whole run), so a
# number cut at the window must still be declined, never read short.
@pytest.mark.parametrize("number, read", [
    ("9" * 64, True), ("9" * 65, False), ("9" * 1_000_000, False),
    ("9" * 63 + "e5", False), ("9" * 62 + "e5", True), ("9" * 64 + "_5", False),
    ("9" * 64 + ".", False), ("-" + "9" * 63, True), ("9" * 32 + "." + "9" * 31, True),
])
def test_numbers_at_the_edge_of_the_window(number, read):
    text = f"f(a={number})"
    if read:
        (name, _args, keywords, _span), = check(text)
        assert (name, keywords) == ("f", [("a", ast.literal_eval(number))])
    else:
        assert reader_calls(text) is None


def test_several_statements_and_blank_lines_keep_their_spans():
    text = "get_weather(city='Paris')\n\n   \nmath.factorial(n=5)\n"
    assert check(text) == [("get_weather", [], [("city", "Paris")], (0, 25)),
                           ("math.factorial", [], [("n", 5)], (31, 50))]


def test_a_positional_argument_and_a_spread():
    text = 'call("API-post-page", "t", **{"user-id": 7, "properties": {"a": [1]}})'
    (name, args, keywords, _), = check(text)
    assert (name, args, keywords) == ("call", ["API-post-page", "t"],
                                      [(None, {"user-id": 7, "properties": {"a": [1]}})])


# -- the protocols, with the reader and without it ---------------------------------------------
S = TypeIR("string")
TOOLS = Toolset((
    ToolIR("get_weather", params=(ParamIR("city", S), ParamIR("days", TypeIR("integer"),
                                                              required=False))),
    ToolIR("math.factorial", params=(ParamIR("n", TypeIR("integer")),)),
    ToolIR("API-post-page", params=(ParamIR("title", S),
                                    ParamIR("user-id", TypeIR("integer"), required=False))),
))
EDGE_REPLIES = [
    "get_weather(city='Paris', days=2)",
    "get_weather(city=\"Zürich\\n\", days=+3)\nmath.factorial(n=1_0)",
    "get_weather('Paris', 2)",
    "get_weather('Paris', 2, 3)",
    "get_weather(city=x)",
    "get_weather(city='Paris', days=1e400)",
    "get_weather(city='Paris', days=-1e400)",
    "get_weather(city={'a', 'b'})",
    "get_weather(city={1: 2})",
    "get_weather(**[1, 2])",
    "get_weather(**{'city': 'Rome'}, days=true)",
    "call('API-post-page', title='t', **{'user-id': 7})",
    "call('nope', title='t')",
    "print(x)\nget_weather(city='Oslo')",
    "Sure! get_weather(city='Paris') and math.factorial(n=3).",
    "I will call get_weather(city=\"Paris\" now",
    "```python\nget_weather(city='Lima')\n```\nand get_weather(city='Rome')",
    "x = get_weather(city='Paris')",
    "unknown_tool(a=[1, 2, (3, 4)], b={'k': None})",
    "get_weather(city='a' 'b')",
    "get_weather(city=f'{x}')",
    "get_weather(city=b'x')",
    "get_weather(city='Paris')  # the capital\n",
    "get_weather(city='Paris', \\\n days=2)",
    "[get_weather(city='Paris'), math.factorial(n=4)]",
    "<|python_tag|>get_weather(city='Paris'); math.factorial(n=2)<|eom_id|>",
    "get_weather(city='" + "[" * 60 + "')",
    "get_weather(city=" + "[" * 60 + "]" * 60 + ")",
]


def _outcome(protocol: str, text: str, toolset: Toolset) -> Any:
    try:
        return [(c.name, json.dumps(c.arguments, sort_keys=True), c.span)
                for c in get_protocol(protocol).protocol.read(text, toolset)]
    except ParseError as exc:
        return ("ParseError", str(exc))


@pytest.fixture
def ast_only(monkeypatch):
    """Switch the reader off: every call goes through ``ast``."""
    def off():
        monkeypatch.setattr(_python, "read_call_statements", lambda block: None)
        monkeypatch.setattr(_python, "read_call_expression", lambda source: None)
    return off


def _local_model_replies() -> list[tuple[str, Toolset]]:
    requests = {r.id: r for name in ("bfcl/simple_python", "bfcl/multiple", "bfcl/parallel",
                                     "bfcl/parallel_multiple", "bfcl/live_simple",
                                     "bfcl/live_multiple", "bfcl/irrelevance")
                for r in load_dataset(name)}
    path = ROOT / "tests" / "fixtures" / "replies" / "local_model.jsonl"
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines()]
    return [(row["reply"], requests[row["request_id"]].toolset) for row in rows]


def test_every_protocol_reads_the_same_with_the_reader_and_without(ast_only):
    cases = [(text, TOOLS) for text in EDGE_REPLIES] + _local_model_replies()
    with_reader = {(p, i): _outcome(p, text, ts) for p in protocol_ids()
                   for i, (text, ts) in enumerate(cases)}
    parsed = {i: parse_reply(text, ts, "python_call").to_dict()
              for i, (text, ts) in enumerate(cases)}
    ast_only()
    for (p, i), outcome in with_reader.items():
        assert outcome == _outcome(p, *cases[i]), (p, cases[i][0])
    for i, (text, ts) in enumerate(cases):
        assert parse_reply(text, ts, "python_call").to_dict() == parsed[i], text


def test_the_edge_replies_read_as_checked_by_hand():
    read = {text: _outcome("python_call", text, TOOLS) for text in EDGE_REPLIES[:13]}
    first, second = 'get_weather(city="Zürich\\n", days=+3)', "math.factorial(n=1_0)"
    assert read[f"{first}\n{second}"] == [
        ("get_weather", '{"city": "Z\\u00fcrich\\n", "days": 3}', (0, len(first))),
        ("math.factorial", '{"n": 10}', (len(first) + 1, len(first) + 1 + len(second)))]
    assert read["get_weather('Paris', 2)"] == [
        ("get_weather", '{"city": "Paris", "days": 2}', (0, len("get_weather('Paris', 2)")))]
    assert read["get_weather('Paris', 2, 3)"] == (
        "ParseError", "get_weather: 3 positional arguments do not fit its 2 parameters")
    assert read["get_weather(city=x)"] == (
        "ParseError", "argument city of get_weather is not a literal value")
    assert read["get_weather(city='Paris', days=1e400)"] == (
        "ParseError", "inf is not a JSON number")
    assert read["get_weather(city='Paris', days=-1e400)"] == (
        "ParseError", "-inf is not a JSON number")
    assert read["get_weather(city={'a', 'b'})"] == ("ParseError", "a set is not a JSON value")
    assert read["get_weather(city={1: 2})"] == ("ParseError", "object keys must be strings")
    assert read["get_weather(**[1, 2])"] == (
        "ParseError", "the ** argument of get_weather is not a dict")
    spread, wrapped = EDGE_REPLIES[10], EDGE_REPLIES[11]
    assert read[spread] == [("get_weather", '{"city": "Rome", "days": true}', (0, len(spread)))]
    assert read[wrapped] == [
        ("API-post-page", '{"title": "t", "user-id": 7}', (0, len(wrapped)))]
