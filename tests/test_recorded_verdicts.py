"""Every committed cassette, re-graded now, gives the committed verdicts turn for turn.

When this fails, a change moved what the parsers or graders say of recorded model replies. If
the move is deliberate, run ``python datasets/cassettes/verdicts.py diff`` (the per-cassette
counts belong in the closing note), then ``write``, and commit the new snapshot with the change.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_SCRIPT = Path(__file__).resolve().parents[1] / "datasets" / "cassettes" / "verdicts.py"
_spec = importlib.util.spec_from_file_location("cassette_verdicts", _SCRIPT)
verdicts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verdicts)


@pytest.mark.parametrize("name", sorted(verdicts.EXPERIMENTS))
def test_recorded_verdicts_are_unchanged(name):
    result = verdicts.compare(name)
    assert result["turns"] > 0
    assert (result["moved"], result["added"], result["removed"]) == (0, 0, 0), result
