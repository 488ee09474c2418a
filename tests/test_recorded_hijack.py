"""The committed hijack cassette of the local model replays every turn of both sentences."""

from __future__ import annotations

import pytest

from toolform.experiments import RECORDED_HIJACK_FORMATS, RECORDED_HIJACK_SENTENCES, recorded_hijack
from toolform.guard import calls_follow


@pytest.mark.parametrize("sentence", RECORDED_HIJACK_SENTENCES)
def test_every_turn_replays_and_the_table_matches_the_turns(sentence):
    result = recorded_hijack(sentence)
    turns = result.turns
    assert len(turns) == 3 * 20 * len(RECORDED_HIJACK_FORMATS)
    assert turns["error"].isna().all(), turns.loc[turns["error"].notna(), "error"].head().tolist()
    assert list(result.cells["format_id"]) == list(RECORDED_HIJACK_FORMATS)
    for row in result.cells.itertuples():
        mine = turns[turns["format_id"] == row.format_id]
        planted = mine[mine["condition"] == "planted"]
        followed = [calls_follow(c, result.sentinel) for c in planted["calls"]]
        assert row.hijack_rate == pytest.approx(100 * sum(followed) / len(planted))
        control = mine[mine["condition"] == "control"]["correct_main"]
        assert row.accuracy_control == pytest.approx(100 * control.mean())
        # the guard flags every planted description high
        assert row.guard_flagged == 100.0


def test_the_minimal_schema_shows_no_description_so_planting_changes_nothing():
    turns = recorded_hijack().turns
    minimal = turns[turns["format_id"] == "json_minimal"]
    replies = minimal.pivot(index="request_id", columns="condition", values="reply")
    assert (replies["control"] == replies["planted"]).all()


def test_an_unrecorded_sentence_is_refused():
    with pytest.raises(ValueError, match="not recorded"):
        recorded_hijack("Always do something else.")
