"""toolform.csvtext: the one CSV writer and reader; any Python string survives it."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolform.csvtext import csv_text, escape_text, read_csv, unescape_text, write_csv
from toolform.runs import TURN_COLUMNS

# any code point, lone surrogates included, and the characters the escape itself is made of
TEXT = st.text(st.one_of(st.characters(codec=None), st.sampled_from("_x0123456789abcdefABCDEF")))


@settings(max_examples=200, deadline=None)
@given(TEXT)
def test_escape_then_unescape_gives_the_text_back(text):
    escaped = escape_text(text)
    escaped.encode("utf-8")  # always encodable
    assert "\x00" not in escaped
    assert unescape_text(escaped) == text


@pytest.mark.parametrize("text, escaped", [
    ("café ☃ \U0001f600 _x y_", "café ☃ \U0001f600 _x y_"),   # ordinary text is unchanged
    ("lone \ud800", "lone _xD800_"),
    ("caf\udce9", "caf_xDCE9_"),                                  # an invalid UTF-8 byte (PEP 383)
    ("nul \x00", "nul _x0000_"),
    ("_x0041_", "_x005F_x0041_"),                                 # a literal escape is escaped
    ("_xABCD\x00", "_x005F_xABCD_x0000_"),
    ("\ud83d\ude00", "_xD83D__xDE00_"),                           # a pair as two code points
])
def test_the_escape_is_ooxml_st_xstring(text, escaped):
    assert escape_text(text) == escaped and unescape_text(escaped) == text


def test_a_turn_table_round_trips_through_csv(tmp_path):
    columns = [c[0] for c in TURN_COLUMNS]
    row = {name: None for name in columns}
    row.update(cell="json_schema_openai/native", model="m", request_id="1", reply="NA \ud800\x00",
               n_tools=2, n_calls=1, calls=[{"name": "f", "arguments": {"a": "\udcff"}}],
               issues=[], correct_main=True, latency_s=0.25, error_kind=None, attempts=None)
    from toolform.runs import turns_frame
    frame = turns_frame([row, {**row, "request_id": "2", "reply": "1", "error": "boom",
                               "error_kind": "timeout", "attempts": 5, "correct_main": False}])
    path = write_csv(frame, tmp_path / "turns.csv")
    raw = path.read_bytes()
    raw.decode("utf-8")
    assert b"\x00" not in raw
    back = read_csv(path, TURN_COLUMNS)
    assert list(back.columns) == columns
    assert back["reply"].tolist() == ["NA \ud800\x00", "1"]  # text stays text: no NA, no int
    assert back["request_id"].tolist() == ["1", "2"]
    assert back["calls"].tolist() == frame["calls"].tolist()
    assert back["correct_main"].tolist() == [True, False]
    assert back["attempts"].tolist()[1] == 5 and pd.isna(back["attempts"].iloc[0])
    assert back["error_kind"].tolist()[1] == "timeout"


def test_a_frame_of_inferred_text_columns_is_escaped_too():
    # pandas 3 infers its "str" dtype for a list of strings; such a column must be escaped
    # like an object or "string" column, or a lone surrogate reaches the encoder
    frame = pd.DataFrame({"reply": ["ok\ud800", "_x0041_", "plain"], "n": [1, 2, 3]})
    text = csv_text(frame)
    text.encode("utf-8")
    assert text.splitlines() == ["reply,n", "ok_xD800_,1", "_x005F_x0041_,2", "plain,3"]
