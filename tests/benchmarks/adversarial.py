"""Adversarial replies for the worst-case parse benchmarks (issue 14, point 6).

:func:`adversarial_replies` builds replies of a given size in characters from a short unit
repeated, in the four classes the issue names and a fifth of protocol markers:

* ``digits``: long digit runs (bare, signed, with a dot or exponent, before a letter, in a
  JSON array, as a 5,000-digit argument of a written call);
* ``separators``: one separator repeated (commas, spaces, new lines, bars, equals signs, colons,
  semicolons, dashes, dots, tabs, stars, ``★``);
* ``quotes``: nested and escaped quotes, backticks, quote-bracket mixtures;
* ``brackets``: many unclosed brackets of each kind, open keys, open calls, tags;
* ``markers``: one protocol's marker or call head repeated without ever completing.

Used by ``tests/benchmarks/bench_worst_case.py`` (1 MB, every protocol) and by
``tests/test_protocols_linear.py`` (a smaller size and a looser bound, in CI), both timing
cold parses (:func:`forget_parser_caches` first).
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Iterator

import toolform.protocols

__all__ = ["UNITS", "adversarial_replies", "forget_parser_caches"]

_BIG = "9" * 5000

#: ``(class, name, unit)``: the reply is the unit repeated to the asked size (a unit that is a
#: tuple ``(head, unit, tail)`` is repeated between a fixed head and tail).
UNITS: tuple[tuple[str, str, str | tuple[str, str, str]], ...] = (
    ("digits", "digits", "1"),
    ("digits", "digits_then_letter", ("", "1", "a")),
    ("digits", "digits_dots", "1."),
    ("digits", "signed_digits", ("-", "1", ".")),
    ("digits", "exponent", ("1e", "1", "")),
    ("digits", "digits_letters", "1a"),
    ("digits", "json_numbers", ("[", "1,", "1]")),
    ("digits", "big_int_json", ('{"name": "math.factorial", "arguments": {"n": ', _BIG, "}}")),
    ("digits", "big_int_xml", ('<function_calls><invoke name="math.factorial"><parameter '
                               'name="n">', _BIG, "</parameter></invoke></function_calls>")),
    ("digits", "big_int_call", ("math.factorial(n=", _BIG, ")")),
    ("digits", "big_ints_kv", "TOOL: math.factorial\nn: " + _BIG + "\n\n"),
    ("separators", "commas", ","),
    ("separators", "spaces", " "),
    ("separators", "newlines", "\n"),
    ("separators", "crlf", "\r\n"),
    ("separators", "tabs", "\t"),
    ("separators", "bars", "|"),
    ("separators", "equals", "="),
    ("separators", "colons", ":"),
    ("separators", "semicolons", ";"),
    ("separators", "dashes", "-"),
    ("separators", "dots", "."),
    ("separators", "stars", "*"),
    ("separators", "star_symbols", "★"),
    ("separators", "comma_space", ", "),
    ("separators", "bar_newline", "|\n"),
    ("separators", "dash_lines", "- \n"),
    ("quotes", "double_quotes", '"'),
    ("quotes", "single_quotes", "'"),
    ("quotes", "escaped_quotes", '\\"'),
    ("quotes", "quote_backslash", '"\\'),
    ("quotes", "backticks", "`"),
    ("quotes", "fences", "```\n"),
    ("quotes", "quote_letter", '"a'),
    ("quotes", "quoted_strings", '"a",'),
    ("quotes", "nested_quotes", "'\"'\""),
    ("quotes", "open_string", ('{"name": "get_weather", "arguments": {"city": "', "a", "")),
    ("quotes", "quote_brace", '"{'),
    ("brackets", "open_braces", "{"),
    ("brackets", "open_brackets", "["),
    ("brackets", "open_parens", "("),
    ("brackets", "open_angles", "<"),
    ("brackets", "balanced_braces", "{}"),
    ("brackets", "balanced_brackets", "[]"),
    ("brackets", "brace_bracket", "{["),
    ("brackets", "open_keys", '{"a":'),
    ("brackets", "open_name_keys", '{"name":'),
    ("brackets", "open_calls", "get_weather("),
    ("brackets", "open_call_lists", "[get_weather("),
    ("brackets", "open_tags", "<a>"),
    ("brackets", "closing_tags", "</a>"),
    ("brackets", "nested_arrays", ("", "[", "1" + "]" * 20)),
    ("markers", "tool_call_tags", "<tool_call>"),
    ("markers", "tool_call_open_json", '<tool_call>{"name": "get_weather", "arguments": {'),
    ("markers", "function_calls", "<function_calls>"),
    ("markers", "invokes", '<invoke name="get_weather">'),
    ("markers", "parameters", '<parameter name="city">'),
    ("markers", "function_tags", "<function=get_weather>"),
    ("markers", "parameter_tags", "<parameter=city>"),
    ("markers", "call_elements", '<call name="get_weather">'),
    ("markers", "python_tags", "<|python_tag|>"),
    ("markers", "mistral", "[TOOL_CALLS]get_weather[ARGS]"),
    ("markers", "gemma", "<|tool_call>call:get_weather{city:"),
    ("markers", "gemma_strings", ("<|tool_call>call:get_weather{city:", '<|"|>x<|"|>', "")),
    ("markers", "gemma_open_string", '<|tool_call>call:get_weather{city:<|"|>'),
    ("markers", "function_in_parameter", ("<function=get_weather><parameter=city>",
                                          "<function=get_time>", "</parameter>")),
    ("markers", "deepseek", "<｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n"),
    ("markers", "think", "<think>"),
    ("markers", "think_closed", "<think></think>"),
    ("markers", "intents", "I will use get_weather with city = "),
    ("markers", "use_lines", "Use get_weather with city = "),
    ("markers", "tool_lines", "TOOL: get_weather\ncity: "),
    ("markers", "actions", "Action: get_weather\nAction Input: {"),
    ("markers", "symbols", "get_weather ★city§"),
    ("markers", "sexprs", "(get_weather :city "),
    ("markers", "cli", "get_weather --city "),
    ("markers", "selects", "SELECT get_weather("),
    ("markers", "mutations", "mutation {"),
    ("markers", "urls", "POST /get_weather?city="),
    ("markers", "table_rows", "| get_weather | city | x |\n"),
    ("markers", "pipe_lines", "get_weather|city=x\n"),
    ("markers", "csv_rows", "get_weather,"),
    ("markers", "toml_headers", "[[call]]\n"),
    ("markers", "yaml_names", "name: x\n"),
    ("markers", "name_lines", "get_weather\n{"),
    ("markers", "words", "a"),
    ("markers", "dotted_words", "a."),
    ("markers", "example_cues", "for example, "),
    ("markers", "valid_calls", '{"name": "get_weather", "arguments": {"city": "Paris"}} '),
)


def _build(unit: str | tuple[str, str, str], size: int) -> str:
    head, body, tail = unit if isinstance(unit, tuple) else ("", unit, "")
    room = max(size - len(head) - len(tail), len(body))
    return head + (body * (room // len(body) + 1))[:room] + tail


def adversarial_replies(size: int) -> Iterator[tuple[str, str, str]]:
    """Every adversarial reply of about ``size`` characters.

    Parameters
    ----------
    size : int
        Characters per reply (the head and tail of a unit included).

    Yields
    ------
    tuple of (str, str, str)
        ``(class, name, reply)``.
    """
    for kind, name, unit in UNITS:
        yield kind, name, _build(unit, size)


def forget_parser_caches() -> None:
    """Clear every memoised pass of the parsers (the ``functools`` caches of the modules of
    ``toolform.protocols``), so the next parse pays for its own, as for a new reply."""
    for info in pkgutil.iter_modules(toolform.protocols.__path__):
        module = importlib.import_module(f"toolform.protocols.{info.name}")
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
