"""Linear time and honest failures on hostile replies (issue 14, point 6), in CI.

The full benchmark (1 MB replies, every protocol, strict and lenient, a 0.1 s bound) is
``tests/benchmarks/bench_worst_case.py``. Here every adversarial reply of
``tests/benchmarks/adversarial.py`` at :data:`SIZE` characters is parsed under one protocol of
each family, and no reply may take more than :data:`BOUND_S` CPU seconds (a loose bound for a
shared machine; a parser that backtracks or is quadratic takes seconds here). And inside
``parse_reply`` a parser that fails says why, as a ``ParseError``: no bare ``ValueError`` or
``OverflowError`` (``parser failed``) on a 5,000-digit integer in any protocol's own shape.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from toolform.ir import ToolCall
from toolform.protocols import get_protocol, parse_reply, protocol_ids

sys.path.insert(0, str(Path(__file__).resolve().parent / "benchmarks"))
from adversarial import adversarial_replies, forget_parser_caches  # noqa: E402
from test_protocols import TOOLS  # noqa: E402

#: Characters per adversarial reply in CI (the benchmark uses 1,000,000 and 62,500).
SIZE = 50_000
#: CPU seconds one parse may take here, half the former bound: a reply read in linear time
#: within the benchmark's bound (0.1 s at 1 MB) takes under 10 ms here, the slowest 25-45 ms
#: (replies just under a reader's cap, read in full), and a garbage collection or two test
#: workers on two shared cores can double that. Work growing with the square of the size
#: would reach this only at 100 s per megabyte, so this catches backtracking and gross slips;
#: ``tests/benchmarks/bench_worst_case.py`` measures the growth.
BOUND_S = 0.25
#: The protocols asked for: every one runs anyway when the asked one reads nothing.
ASKED = ("json_object", "xml_call", "csv_call")


@pytest.mark.parametrize("kind,name,reply", list(adversarial_replies(SIZE)),
                         ids=[name for _, name, _ in adversarial_replies(SIZE)])
def test_adversarial_replies_parse_in_linear_time(kind, name, reply):
    for protocol_id in ASKED:
        # the better of two parses: a one-off stall (a collection, the first compile of a
        # pattern, a neighbour on the core) is not the parser's cost; backtracking is paid twice
        spent = []
        for _ in range(2):
            forget_parser_caches()  # cold: no protocol rides on another's memoised passes
            start = time.process_time()
            parsed = parse_reply(reply, TOOLS, protocol_id, lenient_fallback=True)
            spent.append(time.process_time() - start)
        assert min(spent) < BOUND_S, (name, protocol_id, spent)
        assert not any("parser failed" in i for i in parsed.issues), parsed.issues


BIG = "9" * 5000


@pytest.mark.parametrize("protocol_id", protocol_ids())
def test_a_5000_digit_integer_is_a_parse_error_that_says_so(protocol_id):
    """Each protocol's own shape of a call with a 5,000-digit integer argument: read as text
    with a repair, or refused with a message naming the number; never a crash."""
    spec = get_protocol(protocol_id)
    for call in ([ToolCall("math.factorial", {"n": 5})],
                 [ToolCall("get_weather", {"city": "x", "days": 5})],
                 [ToolCall("API-post-page", {"title": "t", "properties": {"k": 5}})]):
        reply = spec.protocol.write(call, TOOLS).replace("5", BIG)
        for asked in (protocol_id, "json_object"):
            parsed = parse_reply(reply, TOOLS, asked)
            assert not any("parser failed" in i for i in parsed.issues), parsed.issues
            for c in parsed.calls_as_written:  # never an integer Python could not print
                for value in c.arguments.values():
                    assert not isinstance(value, int) or abs(value) < 10 ** 4300
            if protocol_id == asked and not parsed.parsed_strict:
                assert any("digit" in i or "number" in i for i in parsed.issues), parsed.issues


def test_a_call_inside_thousands_of_brackets_is_quick():
    """``tests/benchmarks/fuzz_long.py`` (seed 0, example 8611): a 4 KB call inside 1,900
    ``[`` took PyYAML 1.5 s CPU under the lenient parse; deep flow nesting is now refused."""
    reply = "[" * 1900 + '{"name": "get_weather", "arguments": {"city": "Paris"}}' + "]" * 1900
    for protocol_id in ("yaml_call", "toml_call", "key_value_call"):
        start = time.process_time()
        parsed = parse_reply(reply, TOOLS, protocol_id, lenient_fallback=True)
        assert time.process_time() - start < BOUND_S, protocol_id
        assert not any("parser failed" in i for i in parsed.issues), parsed.issues


def test_a_yaml_reply_of_more_values_than_a_call_holds_is_refused_before_it_is_built():
    # 1,500 one-word lines (3,000 YAML values) cost PyYAML's Python constructor 0.1-0.4 s;
    # the reader counts the C parser's events first and refuses, saying why
    reply = "name: x\n" * 1_500
    parsed = parse_reply(reply, TOOLS, "yaml_call")
    assert parsed.calls_as_written == ()
    assert any("more than 1,024 values" in issue for issue in parsed.issues), parsed.issues
    small = parse_reply("name: get_weather\narguments:\n  city: Paris\n", TOOLS, "yaml_call")
    assert [c.name for c in small.calls_as_written] == ["get_weather"]
