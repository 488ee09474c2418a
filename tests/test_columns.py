"""One column vocabulary over the experiments' frames (toolform.columns), the old names read
from older checkpoints and frames, and the old keywords read one release with a warning."""

from __future__ import annotations

import json

import pandas as pd
import pytest

import toolform.experiments as ex
from toolform.clients import Completion
from toolform.columns import RENAMED_COLUMNS, upgrade_columns
from toolform.cost import cost_of
from toolform.datasets import load_dataset
from toolform.errors import InvalidParameterError
from toolform.runs import SUMMARY_COLUMNS, TURN_COLUMNS, VERDICT_COLUMNS, verdicts_frame
from toolform.study import CORE_FORMATS

DECLARED = {
    "runs.TURN_COLUMNS": TURN_COLUMNS, "runs.VERDICT_COLUMNS": VERDICT_COLUMNS,
    "runs.SUMMARY_COLUMNS": SUMMARY_COLUMNS, "CELL_COLUMNS": ex.CELL_COLUMNS,
    "BFCL_ARM_COLUMNS": ex.BFCL_ARM_COLUMNS, "DISAGREEMENT_COLUMNS": ex.DISAGREEMENT_COLUMNS,
    "HIJACK_COLUMNS": ex.HIJACK_COLUMNS, "SWEEP_COLUMNS": ex.SWEEP_COLUMNS,
    "SWEEP_SUMMARY_COLUMNS": ex.SWEEP_SUMMARY_COLUMNS, "RECALL_COLUMNS": ex.RECALL_COLUMNS,
    "RECALL_TURN_COLUMNS": ex.RECALL_TURN_COLUMNS,
}
#: ``correct`` is an old name only in a wide turn frame: in a long or summary frame it is the
#: verdict or the count of correct turns.
OLD_NAMES = {old for renames in RENAMED_COLUMNS.values() for old in renames} - {"correct"}
WIDE_TURN_FRAMES = ("runs.TURN_COLUMNS", "SWEEP_COLUMNS", "DISAGREEMENT_COLUMNS")


@pytest.mark.parametrize("name", DECLARED)
def test_declared_columns_keep_to_the_vocabulary(name):
    columns = DECLARED[name]
    names = [c[0] for c in columns]
    assert not OLD_NAMES & set(names), "an old name is declared again"
    for column, _, unit, _ in columns:
        if unit == "percentage points":
            assert column.startswith("delta"), column
        if unit == "US dollars":
            assert column.startswith("cost_usd"), column
        if column.endswith(("_low", "_high")):
            assert column.removesuffix("_low").removesuffix("_high").endswith("ci"), column
    if name in WIDE_TURN_FRAMES:  # a turn's verdict under a rule is correct_<rule>
        assert "correct" not in names and "correct_main" in names


def test_upgrade_renames_rows_and_frames_and_the_new_name_wins():
    assert upgrade_columns({"cost": 0.5, "model": "m"}, "turns") == {"cost_usd": 0.5, "model": "m"}
    assert upgrade_columns({"cost": 0.5, "cost_usd": 0.7}, "turns") == {"cost_usd": 0.7}
    row = {"cost_usd": 1.0}
    assert upgrade_columns(row, "turns") is row  # nothing to rename: the same object
    old = pd.DataFrame({"n_turns": [20], "acc_drop": [-5.0], "acc_control": [80.0]})
    new = upgrade_columns(old, "hijack_cells")
    assert list(new.columns) == ["n_requests", "delta_planted", "accuracy_control"]
    assert new["delta_planted"].tolist() == [-5.0] and list(old.columns)[0] == "n_turns"
    with pytest.raises(KeyError):
        upgrade_columns(row, "no_such_frame")


def _recorded_ab(**options):
    return ex.ab_test([load_dataset(n) for n in ex.RECORDED_AB_DATASETS],
                      ex.recorded_ab_client(), n=6, max_tokens=ex.RECORDED_AB_MAX_TOKENS,
                      concurrency=1, **options)


class CountingClient:
    """Answers nothing and remembers each ask (a resumed run must ask none)."""

    def __init__(self, model: str = "counting") -> None:
        self.model = model
        self.asked: list[int] = []  # list.append is atomic: no lock needed across threads

    @property
    def calls(self) -> int:
        return len(self.asked)

    def complete(self, messages, **options):
        self.asked.append(len(messages))
        return Completion("", None, 10, 1, 0.01, self.model, "stop")

    def describe(self):
        return {"client": "CountingClient", "model": self.model}


def test_a_checkpoint_written_with_the_old_cost_column_resumes_under_the_new_name(tmp_path):
    path = tmp_path / "ab.jsonl"
    cells = list(ex.CORE_CELLS[:2])
    fresh = _recorded_ab(cells=cells, checkpoint=path)
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    for row in rows:
        row["cost"] = row.pop("cost_usd")
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    client = CountingClient(ex.LOCAL_MODEL_ID)  # the checkpoint's turns are the model's
    resumed = ex.ab_test([load_dataset(n) for n in ex.RECORDED_AB_DATASETS], client, n=6,
                         cells=cells, checkpoint=path, max_tokens=ex.RECORDED_AB_MAX_TOKENS)
    assert client.calls == 0
    assert "cost" not in resumed.turns.columns
    assert resumed.turns["cost_usd"].tolist() == fresh.turns["cost_usd"].tolist()
    assert resumed.cells["cost_usd"].tolist() == fresh.cells["cost_usd"].tolist()


def test_a_sweep_checkpoint_with_the_old_correct_column_resumes(tmp_path):
    path = tmp_path / "sweep.jsonl"
    fresh = ex.recorded_sweep(checkpoint=path)
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    for row in rows:
        row["correct"] = row.pop("correct_main")
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    client = CountingClient(ex.LOCAL_MODEL_ID)
    resumed = ex.count_sweep(ex.recorded_sweep_requests(), client, checkpoint=path,
                             sizes=ex.RECORDED_SWEEP_SIZES,
                             strategies=ex.RECORDED_SWEEP_STRATEGIES,
                             context_tokens=ex.RECORDED_SWEEP_CONTEXT_TOKENS,
                             max_tokens=ex.RECORDED_SWEEP_MAX_TOKENS)
    assert client.calls == 0
    assert resumed.turns["correct_main"].tolist() == fresh.turns["correct_main"].tolist()
    assert resumed.cells["accuracy"].tolist() == fresh.cells["accuracy"].tolist()


def test_old_keywords_warn_and_give_the_same_run():
    cells = list(CORE_FORMATS[:2])
    new = _recorded_ab(cells=cells)
    with pytest.warns(DeprecationWarning, match=r"ab_test\(formats=.*use cells="):
        old = _recorded_ab(formats=cells)
    pd.testing.assert_frame_equal(old.cells, new.cells)
    with pytest.warns(DeprecationWarning, match=r"max_concurrency=.*use concurrency="):
        ex.bfcl_arm(ex.bfcl_arm_requests()[:2], ex.recorded_bfcl_client(),
                    max_tokens=ex.RECORDED_BFCL_MAX_TOKENS, max_concurrency=1)
    with pytest.raises(InvalidParameterError, match="cells= or its old spelling formats="):
        _recorded_ab(cells=cells, formats=cells)


def test_old_format_and_protocol_keywords_become_cells():
    requests = load_dataset("bfcl/simple_python").requests[:2]
    with pytest.warns(DeprecationWarning, match=r"formats=, protocol="):
        hijack = ex.hijack_experiment(requests, CountingClient(), formats=["typescript"],
                                      protocol="json_object")
    assert hijack.cells["cell"].tolist() == ["typescript/json_object"]
    tasks = ex.recorded_sweep_requests()[:1]
    with pytest.warns(DeprecationWarning, match=r"format_id=, protocol_id="):
        sweep = ex.count_sweep(tasks, CountingClient(), format_id="yaml_schema",
                               protocol_id="json_object", sizes=(1,),
                               strategies=ex.DEFAULT_STRATEGIES[:1])
    assert set(sweep.turns["cell"]) == {"yaml_schema/json_object"}
    with pytest.warns(DeprecationWarning, match=r"price_setting=.*use price="):
        priced = ex.count_sweep(tasks, CountingClient(), price_setting="frontier_api",
                                sizes=(1,), strategies=ex.DEFAULT_STRATEGIES[:1])
    frontier = ex.count_sweep(tasks, CountingClient(), price="frontier_api", sizes=(1,),
                              strategies=ex.DEFAULT_STRATEGIES[:1])
    assert priced.turns["cost_usd"].tolist() == frontier.turns["cost_usd"].tolist()
    row = frontier.turns.iloc[0]  # the tool block is cached input under frontier_api
    assert row["cost_usd"] == pytest.approx(cost_of(
        row["prompt_tokens"], row["completion_tokens"], cached_tokens=row["schema_tokens"],
        price="frontier_api"))


def test_verdicts_frame_reads_its_old_keyword():
    turns = ex.recorded_ab(concurrency=1).turns.head(3)
    with pytest.warns(DeprecationWarning, match=r"gradings=.*use rules="):
        old = verdicts_frame(turns, gradings=("main",))
    pd.testing.assert_frame_equal(old, verdicts_frame(turns, rules=("main",)))
    assert old["rule"].tolist() == ["main"] * 3
