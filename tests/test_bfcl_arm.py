"""The BFCL arm replays offline and grades every turn four ways; its CLI prints the table; the
disagreement frame lists the turns where the main rule and BFCL's checker differ, with reasons."""

from __future__ import annotations

import pandas as pd
import pytest
from typer.testing import CliRunner

from toolform.cli import app
from toolform.datasets import load_dataset
from toolform.experiments import (BFCL_ARM_COLUMNS, DISAGREEMENT_COLUMNS, RECORDED_AB_DATASETS,
                                  RECORDED_BFCL_DRAW, bfcl_arm_requests, bfcl_arm_table,
                                  grading_disagreements, recorded_ab, recorded_bfcl_arm)
from toolform.grading import GRADINGS
from toolform.errors import GradingError
from toolform.io import from_bfcl
from toolform.ir import GoldCall, Request
from toolform.grading import grade_possible_answers
from toolform.protocols import parse_reply


@pytest.fixture(scope="module")
def turns():
    return recorded_bfcl_arm(concurrency=2).turns


def test_the_recorded_draw_replays_every_turn(turns):
    assert len(turns) == sum(n for _, n, _ in RECORDED_BFCL_DRAW) == 160
    assert turns["error"].isna().all(), turns.loc[turns["error"].notna(), "error"].head().tolist()
    assert set(turns["category"]) == {"simple_python", "multiple", "parallel",
                                      "parallel_multiple"}
    assert (turns["cell"] == "json_schema_openai/bfcl_python_list").all()
    assert (turns["completion_tokens"] > 0).all()


def test_possible_answers_column_is_the_grader_verdict(turns):
    requests = {r.id: r for r in bfcl_arm_requests()}
    for row in turns.head(40).itertuples():
        request = requests[row.request_id]
        parsed = parse_reply(row.reply, request.toolset, row.protocol_id)
        expected = grade_possible_answers(parsed, request.gold, request.toolset).correct
        assert row.correct_possible_answers == expected


def test_table_counts_match_the_turns(turns):
    table = bfcl_arm_table(turns)
    assert list(table.columns) == [c[0] for c in BFCL_ARM_COLUMNS]
    assert len(table) == 4 * len(GRADINGS)
    for row in table.itertuples():
        group = turns[turns["category"] == row.category]
        assert row.n == len(group)
        assert row.correct == int(group[f"correct_{row.rule}"].sum())
        assert row.ci_low <= row.accuracy <= row.ci_high


def test_table_counts_failed_turns_apart(turns):
    failed = turns.copy()
    first = failed.index[failed["category"] == "simple_python"][:3]
    failed.loc[first, "error"] = "HTTP 503"  # three turns lost to the server
    table = bfcl_arm_table(failed).set_index(["category", "rule"])
    simple = (turns["category"] == "simple_python").sum()
    for rule in GRADINGS:
        row = table.loc[("simple_python", rule)]
        assert (row.n, row.n_errors) == (simple - 3, 3)
        kept = turns[(turns["category"] == "simple_python") & ~turns.index.isin(first)]
        assert row.correct == int(kept[f"correct_{rule}"].sum())
    assert (table.loc["multiple", "n_errors"] == 0).all()


def test_cli_replays_and_prints_four_gradings(tmp_path):
    result = CliRunner().invoke(app, ["bfcl-arm", "--out", str(tmp_path), "--no-progress",
                                      "--concurrency", "2"])
    assert result.exit_code == 0, result.output
    assert "possible_answers" in result.output and "parallel_multiple" in result.output
    assert (tmp_path / "table.csv").exists() and (tmp_path / "turns.csv").exists()


# -- grading_disagreements -----------------------------------------------------------------------
HAND_TOOLSET = from_bfcl([
    {"name": "cellbio.get_proteins", "description": "Proteins in a cell compartment.",
     "parameters": {"type": "dict", "required": ["cell_compartment"], "properties": {
         "cell_compartment": {"type": "string", "description": "The compartment."}}}},
    {"name": "math_roots.quadratic", "description": "Roots of a quadratic.",
     "parameters": {"type": "dict", "required": ["a", "b", "c"], "properties": {
         "a": {"type": "integer", "description": "a"}, "b": {"type": "integer", "description": "b"},
         "c": {"type": "integer", "description": "c"}}}},
])
HAND_REQUESTS = [
    Request("proteins", "Proteins in the plasma membrane?", HAND_TOOLSET,
            (GoldCall("cellbio.get_proteins", {"cell_compartment": ("plasma membrane",)}),),
            category="simple_python"),
    Request("roots", "Roots of 5x^2 + 20x - 25.", HAND_TOOLSET,
            (GoldCall("math_roots.quadratic", {"a": (5,), "b": (20,), "c": (-25,)}),),
            category="multiple"),
]


def hand_turns(**override):
    """Three hand-graded turns: underscore in a value, dot in a name, and an agreed right call."""
    rows = [
        ("proteins", "json_schema_openai/bfcl_python_list", "bfcl_python_list", "simple_python",
         '[cellbio.get_proteins(cell_compartment="plasma_membrane")]', False, True),
        ("roots", "json_minimal/json_object", "json_object", "multiple",
         '{"name": "math.roots.quadratic", "arguments": {"a": 5, "b": 20, "c": -25}}', True,
         False),
        ("roots", "json_schema_openai/bfcl_python_list", "bfcl_python_list", "multiple",
         "[math_roots.quadratic(a=5, b=20, c=-25)]", True, True),
    ]
    frame = pd.DataFrame(rows, columns=["request_id", "cell", "protocol_id", "category", "reply",
                                        "correct_main", "correct_possible_answers"])
    for column, values in override.items():
        frame[column] = values
    return frame


@pytest.fixture(scope="module")
def both_recordings(turns):
    """The BFCL-arm turns and the eight-cell A/B turns, with the requests they answered."""
    ab = recorded_ab(concurrency=2)
    requests = [*bfcl_arm_requests(),
                *(r for name in RECORDED_AB_DATASETS for r in load_dataset(name))]
    return pd.concat([turns, ab.turns], ignore_index=True), requests


def test_disagreements_are_the_recorded_rows_where_the_graders_differ(both_recordings):
    turns, requests = both_recordings
    table = grading_disagreements(turns, requests)
    assert list(table.columns) == [c[0] for c in DISAGREEMENT_COLUMNS]
    assert str(table["correct_main"].dtype) == "boolean"
    differ = turns[turns["correct_main"] != turns["correct_possible_answers"]]
    assert len(differ) > 0
    assert table[["request_id", "cell"]].values.tolist() == \
        differ[["request_id", "cell"]].values.tolist()
    assert table["request_id"].tolist() == differ["request_id"].tolist()
    assert table["reply"].tolist() == differ["reply"].tolist()
    assert table["correct_main"].tolist() == differ["correct_main"].tolist()
    assert (table["correct_main"] != table["correct_possible_answers"]).all()
    # the grader that said wrong gives a reason, the one that said right gives none
    for row in table.itertuples():
        assert (row.reason_main == "") == row.correct_main
        assert (row.reason_possible_answers == "") == row.correct_possible_answers
    # a mapping id -> Request gives the same frame
    mapped = grading_disagreements(turns, {r.id: r for r in requests})
    pd.testing.assert_frame_equal(mapped, table)
    # one recorded reply, checked by hand: a dot where the tool's name has an underscore
    dotted = table[(table.request_id == "multiple_11")
                   & (table.cell == "json_minimal/json_object")].iloc[0]
    assert dotted.reply == ('{"name": "math.roots.quadratic", "arguments": '
                            '{"a": 5, "b": 20, "c": -25}}')
    assert dotted.reason_main == ""
    assert dotted.reason_possible_answers == ("wrong tool: expected math_roots.quadratic, "
                                              "got math.roots.quadratic")


def test_disagreement_reasons_match_the_hand_checked_cases():
    table = grading_disagreements(hand_turns(), HAND_REQUESTS)
    assert table[["request_id", "cell"]].values.tolist() == [
        ["proteins", "json_schema_openai/bfcl_python_list"],
        ["roots", "json_minimal/json_object"]]
    underscore, dotted = table.to_dict("records")
    # BFCL drops "_" and spaces before comparing strings; the main rule compares them exactly
    assert underscore["correct_main"] is False and underscore["correct_possible_answers"] is True
    assert underscore["reason_main"] == ("wrong value for cell_compartment: 'plasma_membrane' "
                                         "not in ['plasma membrane']")
    assert underscore["reason_possible_answers"] == ""
    # the main rule resolves a name differing only in separators; BFCL takes it as written
    assert dotted["correct_main"] is True and dotted["reason_main"] == ""
    assert dotted["correct_possible_answers"] is False
    assert dotted["reason_possible_answers"] == ("wrong tool: expected math_roots.quadratic, "
                                                 "got math.roots.quadratic")


def test_no_disagreement_gives_an_empty_frame_with_the_declared_columns():
    agreed = hand_turns().iloc[[2]]
    table = grading_disagreements(agreed, HAND_REQUESTS)
    assert table.empty
    assert list(table.columns) == [c[0] for c in DISAGREEMENT_COLUMNS]


def test_disagreements_need_the_requests_and_current_verdicts():
    with pytest.raises(GradingError, match="'proteins'.*no request"):
        grading_disagreements(hand_turns(), HAND_REQUESTS[1:])
    # verdicts that grading the reply again does not reproduce (a stale recording)
    stale = hand_turns(correct_main=[True, True, True], correct_possible_answers=[False] * 3)
    with pytest.raises(GradingError, match="'proteins'.*grade the turns again"):
        grading_disagreements(stale, HAND_REQUESTS)


def test_the_old_home_of_gradings_still_answers_with_a_warning() -> None:
    import toolform.bfcl_arm as arm

    with pytest.warns(DeprecationWarning, match="toolform.grading.GRADINGS"):
        assert arm.GRADINGS is GRADINGS
    assert GRADINGS == ("main", "symmetric", "as_written", "possible_answers")
