"""The readers that find tool names by one shared pattern and a lookup (cli_call's command
heads, symbolic_call's bare-name lines, nl_intent's argument names) match exactly what the
pattern compiled per toolset matches, on any text and any names."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from toolform.ir import ParamIR, ToolIR, Toolset, TypeIR
from toolform.protocols._code_calls import (_bare_name_lines, _command_heads, _CommandHeads,
                                            _name_lines)
from toolform.protocols._prose import _IntentFrame, _intent_patterns, intent_calls

NAME = st.text("abAB_-.x1", min_size=1, max_size=6)
NAMES = st.lists(NAME, min_size=1, max_size=4).map(tuple) | st.lists(
    st.text("abé_K", min_size=1, max_size=4), min_size=1, max_size=3).map(tuple)
PIECE = st.sampled_from(["", " ", "\t", "$ ", "$", "\n", "\r\n", " --a", " x", "'", "K", "é",
                         "★", "-", "_", ".", "ab", "A-B", "a_b", "--"])


@st.composite
def text_with_names(draw):
    names = draw(NAMES)
    pieces = draw(st.lists(st.one_of(PIECE, st.sampled_from(names)), max_size=14))
    return names, "".join(pieces)


@settings(max_examples=400, deadline=None)
@given(text_with_names(), st.booleans())
def test_command_heads_by_lookup_are_the_compiled_patterns_heads(case, options):
    names, text = case
    compiled = [m.start() for m in _command_heads(names, options).finditer(text)]
    assert [m.start() for m in _CommandHeads(names, options).finditer(text)] == compiled


@settings(max_examples=400, deadline=None)
@given(text_with_names())
def test_bare_name_lines_by_lookup_are_the_compiled_patterns_lines(case):
    names, text = case
    text = text.replace("★", "")  # the reader takes this path only for text without a star
    compiled = [(m.span(1), m.span(2), m.end()) for m in _bare_name_lines(names).finditer(text)]
    assert [(m.span(1), m.span(2), m.end()) for m in _name_lines(text, names)] == compiled


def test_hand_checked_heads_and_lines():
    names = ("get_weather", "list-files")
    text = "GET-WEATHER --city Paris\n$ list_files\nget_wea_ther\nlist.files\n"
    assert [m.start() for m in _CommandHeads(names, False).finditer(text)] == [0, 25, 51]
    assert [m.group(1) for m in _name_lines("  Get_Weather \nget_weather now\n", names)] == [
        "Get_Weather"]


def _tool(*fields: str) -> Toolset:
    params = tuple(ParamIR(f, TypeIR("string"), required=False) for f in fields)
    return Toolset((ToolIR("t", "", params),))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text("abAB_-.x1", min_size=1, max_size=5), min_size=1, max_size=3),
       st.lists(st.sampled_from(["a", "B", "ab", "x.1", "a-b", " = ", ": ", " is ", " set to ",
                                 ", ", " and ", "; ", "the ", "`", "*", "1", '"v"', " ", ".",
                                 "use t with "]),
                max_size=12))
def test_intent_arguments_read_by_lookup_are_the_compiled_patterns_arguments(fields, pieces):
    tool = _tool(*fields).tools[0]
    text = "I will use t with " + "".join(pieces + fields[:1]) + " = 2."
    by_lookup = _IntentFrame(tool)
    assert by_lookup.key is None  # these names take the shared pattern
    compiled = _IntentFrame(tool)
    compiled.key, compiled.stop = _intent_patterns("|".join(
        re.escape(n) for n in sorted(compiled.known.values(), key=len, reverse=True)))
    for pos in range(len(text) + 1):
        assert by_lookup.match_key(text, pos) == compiled.match_key(text, pos)
        found, want = by_lookup.stop_at(text, pos, len(text)), compiled.stop_at(text, pos, len(text))
        assert (found and found.span()) == (want and want.span())


def test_hand_checked_intent_arguments():
    toolset = _tool("city", "unit-name")
    calls = intent_calls('I will use t with City = "Paris" and unit-name is metric, '
                         "cityx = 3.", toolset)
    assert [(c.name, c.arguments) for c in calls] == [
        ("t", {"city": "Paris", "unit-name": "metric", "cityx": "3"})]  # undeclared: text
