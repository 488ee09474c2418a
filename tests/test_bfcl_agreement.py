"""ToolForm's possible-answers grader agrees with BFCL's own AST checker on real replies.

BFCL's verdicts were computed once, in a separate environment with the full ``bfcl-eval``
install (``python datasets/bfcl_agreement.py check``), on the local model's recorded replies, and
are stored in ``tests/fixtures/bfcl_agreement/``. Here ToolForm grades the same replies and the
two are compared: per category at least 99% agreement, and every disagreement is one the data
card explains (listed in ``EXPLAINED``), so a new one fails the test.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from toolform.datasets import load_dataset
from toolform.grading import calls_under_rule
from toolform.possible_answers import grade_possible_answers
from toolform.protocols import parse_reply

HERE = Path(__file__).resolve().parent / "fixtures" / "bfcl_agreement"
#: Disagreements explained in the data card: (request id, cell, comparison) → why.
EXPLAINED: dict[tuple[str, str, str], str] = {}


def _rows():
    replies = [json.loads(x) for x in (HERE / "replies.jsonl").read_text().splitlines()]
    verdicts = [json.loads(x) for x in (HERE / "bfcl_verdicts.jsonl").read_text().splitlines()]
    assert len(replies) == len(verdicts)
    for reply, verdict in zip(replies, verdicts):
        assert (reply["request_id"], reply["cell"]) == (verdict["request_id"], verdict["cell"])
        yield reply, verdict


ROWS = list(_rows())


def _ours(reply):
    request = load_dataset(f"bfcl/{reply['category']}")[reply["request_id"]]
    parsed = parse_reply(reply["reply"], request.toolset, reply["protocol_id"])
    return request, parsed, grade_possible_answers(parsed, request.gold, request.toolset)


def test_the_fixture_covers_simple_multiple_and_parallel():
    categories = {reply["category"] for reply, _ in ROWS}
    assert {"simple_python", "multiple", "parallel", "parallel_multiple"} <= categories
    assert sum(r["protocol_id"] == "bfcl_python_list" for r, _ in ROWS) == 160
    assert len(ROWS) == 560


def test_the_parser_still_reads_what_bfcl_was_given():
    # BFCL graded the calls ToolForm read when the fixture was made; a parser change that
    # alters them would make the comparison stale
    for reply, _ in ROWS:
        request, parsed, _ = _ours(reply)
        now = [{c.name: dict(c.arguments)} for c in calls_under_rule(parsed, request.toolset,
                                                                      "as_written")]
        assert json.loads(json.dumps(now)) == reply["calls_as_written"], reply["request_id"]


def test_agreement_is_at_least_99_percent_and_every_disagreement_is_explained():
    agree: dict[str, list[bool]] = defaultdict(list)
    disagreements = set()
    for reply, verdict in ROWS:
        ours = _ours(reply)[2].correct
        checks = {"graded": verdict["graded"]["valid"]}
        if "end_to_end" in verdict:
            checks["end_to_end"] = verdict["end_to_end"]["valid"]
        for kind, theirs in checks.items():
            agree[reply["category"]].append(ours == theirs)
            if ours != theirs:
                disagreements.add((reply["request_id"], reply["cell"], kind))
    for category, values in agree.items():
        assert 100 * sum(values) / len(values) >= 99.0, category
    assert disagreements == set(EXPLAINED)


@pytest.mark.parametrize("kind", ["graded", "end_to_end"])
def test_both_graders_find_right_and_wrong_replies(kind):
    # agreement on all-wrong replies would prove nothing: both verdicts occur
    values = {v[kind]["valid"] for _, v in ROWS if kind in v}
    assert values == {True, False}
