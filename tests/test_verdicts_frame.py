"""The long verdict frame of a run (one row per turn and grading rule) and its one summary."""

from __future__ import annotations

import pandas as pd
import pytest

from test_runs import ScriptedClient, make_requests
from toolform.errors import DatasetError, GradingError
from toolform.grading import GRADINGS
from toolform.runs import (SUMMARY_COLUMNS, VERDICT_COLUMNS, Cell, run_cells, summarize_verdicts,
                           turns_frame, verdicts_frame)
from toolform.stats import wilson_interval


@pytest.fixture(scope="module")
def turns():
    requests = make_requests(4)
    client = ScriptedClient(requests, wrong={"r1"}, failing={"r0"}, fail_times=99)
    return run_cells([Cell("json_schema_openai"), Cell("xml_schema")], requests, client,
                     progress=False)


def test_one_row_per_turn_and_rule_with_the_declared_columns(turns):
    long = verdicts_frame(turns)
    assert list(long.columns) == [c[0] for c in VERDICT_COLUMNS]
    assert len(long) == len(turns) * len(GRADINGS) == 32
    assert long["rule"].tolist()[:4] == list(GRADINGS)
    for (rid, cell), group in long.groupby(["request_id", "cell"]):
        turn = turns[(turns.request_id == rid) & (turns.cell == cell)].iloc[0]
        for row in group.itertuples():  # the wide columns are a view of the long one
            if pd.isna(turn["error"]):
                assert row.correct == turn[f"correct_{row.rule}"]
    wrong = long[(long.request_id == "r1") & (long.rule == "main")]
    assert not wrong["correct"].any()
    assert wrong["reason"].tolist() == ["expected 1 call, got none"] * 2
    right = long[(long.request_id == "r2")]
    assert right["correct"].all() and (right["reason"] == "").all()


def test_a_failed_turn_has_no_verdict(turns):
    failed = verdicts_frame(turns)[lambda f: f.request_id == "r0"]
    assert len(failed) == 8 and failed["correct"].isna().all()
    assert failed["reason"].isna().all() and failed["error"].str.contains("503").all()


def test_the_summary_counts_wilson_intervals_and_leaves_out_errors(turns):
    summary = summarize_verdicts(verdicts_frame(turns))
    assert list(summary.columns) == ["cell", *(c[0] for c in SUMMARY_COLUMNS)]
    assert len(summary) == 2 * len(GRADINGS)
    row = summary[(summary.cell == "xml_schema/xml_call") & (summary.rule == "main")].iloc[0]
    # r0 failed, r1 abstained wrongly, r2 and r3 right
    assert (row.n, row.n_errors, row.correct) == (3, 1, 2)
    assert row.accuracy == pytest.approx(200 / 3)
    assert (row.ci_low, row.ci_high) == pytest.approx(wilson_interval(2, 3))
    by_category = summarize_verdicts(verdicts_frame(turns, ("main",)), by=("cell", "category"))
    assert by_category["category"].tolist() == ["test", "test"]


def test_rows_older_than_the_verdicts_column_keep_the_main_reason(turns):
    rows = turns.drop(columns="verdicts").to_dict("records")
    old = verdicts_frame(turns_frame(rows))
    main = old[(old.request_id == "r1") & (old.rule == "main")]
    assert main["reason"].tolist() == ["expected 1 call, got none"] * 2
    assert old[(old.rule == "symmetric") & old.error.isna()]["reason"].isna().all()
    assert old["correct"].equals(verdicts_frame(turns)["correct"])


def test_unknown_rules_and_columns_are_named():
    with pytest.raises(GradingError, match="strict"):
        verdicts_frame(pd.DataFrame({"correct_main": [True]}), ("strict",))
    with pytest.raises(DatasetError, match="correct_symmetric"):
        verdicts_frame(pd.DataFrame({"correct_main": [True]}), ("symmetric",))
    with pytest.raises(DatasetError, match="category"):
        summarize_verdicts(verdicts_frame(pd.DataFrame({"correct_main": [True]}), ("main",))
                           .drop(columns="category"), by=("category",))
