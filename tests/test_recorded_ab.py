"""The committed eight-cell cassette replays every turn of the main job offline.

If this fails with misses, a change altered the prompt bytes of a core format, the system
template or a protocol's instruction, and the cassette no longer matches: re-record it
(``toolform ab-test --base-url ...``, see datasets/cassettes/README.md) or revert the change.
"""

from __future__ import annotations

from toolform.experiments import recorded_ab
from toolform.study import CORE_FORMATS


def test_committed_cassette_replays_all_400_turns():
    result = recorded_ab(concurrency=2)
    turns = result.turns
    assert len(turns) == 400
    assert turns["error"].isna().all(), turns.loc[turns["error"].notna(), "error"].head().tolist()
    assert set(turns["format_id"]) == set(CORE_FORMATS)
    assert (turns["model"] == "qwen2.5-coder-0.5b-instruct").all()
    # every reply is real model text with server-counted tokens
    assert (turns["prompt_tokens"] > 0).all() and (turns["completion_tokens"] > 0).all()
    cells = result.cells
    assert len(cells) == 24 and (cells["n"] == 50).all()
    assert result.best and result.headline_rule == "symmetric"
