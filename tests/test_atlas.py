"""The atlas: the carry grid, the search, synthetic grids, BFCL's sensitivity, runs end to end."""

from __future__ import annotations

import hashlib
import threading
from functools import lru_cache

import numpy as np
import pandas as pd
import pytest

import toolform.atlas as atlas_pkg
from toolform.atlas import (LOSS_CHECKS, atlas, carry_grid, confidence_elimination,
                            format_sensitivity, request_losses, simulate_search,
                            successive_halving, synthetic_grid, validation_curve)
from toolform.clients import Completion, ReplayClient
from toolform.evidence import load_evidence
from toolform.formats import render
from toolform.ir import GoldCall, ParamIR, Request, ToolIR, Toolset, TypeIR
from toolform.protocols import get_protocol, protocol_ids


def test_all_is_sorted_and_public():
    assert atlas_pkg.__all__ == sorted(atlas_pkg.__all__)
    for name in atlas_pkg.__all__:
        assert hasattr(atlas_pkg, name)


# -- which pairs can carry the calls ---------------------------------------------------------------

def test_every_declared_loss_has_a_check():
    declared = {tag for p in protocol_ids() for tag in get_protocol(p).cannot_carry}
    assert declared <= set(LOSS_CHECKS)


TOOLS = Toolset((
    ToolIR("set_alarm", "Set an alarm.", (ParamIR("hour", TypeIR("integer")),
                                          ParamIR("label", TypeIR("string"), required=False),
                                          ParamIR("note", TypeIR("string", nullable=True),
                                                  required=False))),
    ToolIR("tag", "Tag a thing.", (ParamIR("key:name", TypeIR("string")),)),
), source="test:atlas")


def _request(*gold: GoldCall, rid: str = "r") -> Request:
    return Request(rid, "Set an alarm for seven.", TOOLS, gold)


def test_request_losses_hand_checked():
    plain = _request(GoldCall("set_alarm", {"hour": (7,)}))
    assert all(request_losses(plain, p) == () for p in protocol_ids() if p != "react"
               ) and request_losses(plain, "react") == ()
    null = _request(GoldCall("set_alarm", {"hour": (7,), "note": (None,)}))
    assert request_losses(null, "toml_call") == ("null_values",)
    assert request_losses(null, "json_object") == ()
    mistyped = _request(GoldCall("set_alarm", {"hour": ("7",)}))
    assert "mistyped_values" in request_losses(mistyped, "xml_call")
    # a gold call that also accepts the typed value can be carried
    either = _request(GoldCall("set_alarm", {"hour": ("7", 7)}))
    assert request_losses(either, "xml_call") == ()
    two = _request(GoldCall("set_alarm", {"hour": (7,)}), GoldCall("set_alarm", {"hour": (8,)}))
    assert request_losses(two, "react") == ("parallel_calls",)
    assert request_losses(two, "json_array") == ()
    colon = _request(GoldCall("tag", {"key:name": ("x",)}))
    assert request_losses(colon, "key_value_call") == ("names_with_colons",)
    unknown = _request(GoldCall("not_a_tool", {"x": (1,)}))
    assert "unknown_tools" in request_losses(unknown, "csv_call")
    empty = _request(GoldCall("set_alarm", {"hour": (7,), "label": ("",)}))
    assert "empty_strings" in request_losses(empty, "csv_call")


def test_carry_grid_leaves_out_what_a_protocol_cannot_carry():
    requests = [_request(GoldCall("set_alarm", {"hour": (7,)}), rid="a"),
                _request(GoldCall("set_alarm", {"hour": (7,), "note": (None,)}), rid="b")]
    grid = carry_grid(requests, ["json_schema_openai", "typescript"], ["json_object", "toml_call"])
    assert len(grid) == 4 and list(grid["cell"])[:2] == ["json_schema_openai/json_object",
                                                        "json_schema_openai/toml_call"]
    toml = grid[grid["protocol_id"] == "toml_call"]
    assert not toml["carried"].any() and (toml["n_requests_lost"] == 1).all()
    assert toml["losses"].iloc[0] == ["null_values"]
    assert grid[grid["protocol_id"] == "json_object"]["carried"].all()
    with pytest.raises(ValueError, match="formats"):
        carry_grid(requests, [], None)


# -- the search ----------------------------------------------------------------------------------

def _planted(n_rows: int = 12, n_cols: int = 5, n_requests: int = 40, seed: int = 0):
    rng = np.random.default_rng(seed)
    rows, cols = np.divmod(np.arange(n_rows * n_cols), n_cols)
    p = 0.25 + 0.02 * rows + 0.03 * cols
    best = n_rows * n_cols - 1
    p[best] = 0.97
    turns = rng.random((len(p), n_requests)) < p[:, None]
    return rows, cols, turns, best


def test_successive_halving_finds_a_planted_best_within_budget():
    rows, cols, turns, best = _planted()
    asked: list[tuple[int, int]] = []

    def ask(c, r):
        asked.extend(zip(c.tolist(), r.tolist()))
        return turns[c, r].astype(float)

    budget = turns.size // 4
    found = successive_halving(rows, cols, turns.shape[1], budget, ask, seed=1)
    assert found.best == best
    assert found.turns == len(asked) <= budget
    assert len(set(asked)) == len(asked)                      # no pair asked twice
    assert found.rounds[0].n_cells == len(rows)               # round 0 covers the grid
    assert found.eliminated_in[best] == -1 and best in found.finalists
    assert sum(r.turns for r in found.rounds) == found.turns
    again = successive_halving(rows, cols, turns.shape[1], budget,
                               lambda c, r: turns[c, r].astype(float), seed=1)
    assert again.best == found.best and again.outcomes == found.outcomes


def test_successive_halving_refuses_a_budget_below_one_turn_per_cell():
    rows, cols, turns, _ = _planted()
    with pytest.raises(ValueError, match="at least 60"):
        successive_halving(rows, cols, 40, 59, lambda c, r: turns[c, r].astype(float))


def test_confidence_elimination_finds_a_planted_best_within_budget():
    rows, cols, turns, best = _planted()
    asked: list[tuple[int, int]] = []

    def ask(c, r):
        asked.extend(zip(c.tolist(), r.tolist()))
        return turns[c, r].astype(float)

    budget = turns.size // 4
    found = confidence_elimination(rows, cols, turns.shape[1], budget, ask, seed=1)
    assert found.best == best
    assert found.turns == len(asked) <= budget
    assert len(set(asked)) == len(asked)                      # no pair asked twice
    assert found.rounds[0].n_cells == len(rows)               # round 0 covers the grid
    assert found.rounds[0].turns == len(rows) * (int(0.4 * budget) // len(rows))
    assert found.eliminated_in[best] == -1 and best in found.finalists
    assert sum(r.turns for r in found.rounds) == found.turns
    # a dropped cell stays dropped until the final top-up (the last round, at most)
    kept = [set(r.survivors) for r in found.rounds[:-1]]
    assert all(b <= a for a, b in zip(kept, kept[1:])) and len(kept[-1]) < len(rows)
    again = confidence_elimination(rows, cols, turns.shape[1], budget,
                                   lambda c, r: turns[c, r].astype(float), seed=1)
    assert again.best == found.best and again.outcomes == found.outcomes


def test_confidence_elimination_refuses_bad_settings():
    rows, cols, turns, _ = _planted()
    ask = lambda c, r: turns[c, r].astype(float)  # noqa: E731
    with pytest.raises(ValueError, match="at least 60"):
        confidence_elimination(rows, cols, 40, 59, ask)
    with pytest.raises(ValueError, match="first_share"):
        confidence_elimination(rows, cols, 40, 600, ask, first_share=0.0)
    with pytest.raises(ValueError, match="first_share"):
        confidence_elimination(rows, cols, 40, 600, ask, z=-1.0)


def test_failed_turns_cost_budget_but_give_no_verdict():
    rows, cols, turns, best = _planted()

    def flaky(c, r):
        out = turns[c, r].astype(float)
        out[(c + r) % 7 == 0] = np.nan
        return out

    for search in (successive_halving, confidence_elimination):
        found = search(rows, cols, 40, 800, flaky, seed=2)
        assert found.turns <= 800
        assert found.n_turns.sum() < found.turns          # the failed turns are not graded


# -- synthetic grids -------------------------------------------------------------------------------

def test_synthetic_grid_keeps_the_evidence_where_it_covers_the_pairs():
    crossing = load_evidence("protocol_crossing").frame()
    main = crossing[crossing.rule == "main"].set_index(["format_id", "protocol_id"])["accuracy"]
    formats = sorted({f for f, _ in main.index}) + ["hcl"]
    protocols = sorted({p for _, p in main.index}) + ["yaml_call"]
    grid = synthetic_grid(formats, protocols, seed=3)
    frame = grid.frame().set_index(["format_id", "protocol_id"])
    covered = frame[frame.source == "protocol_crossing"]
    assert len(covered) == 40
    assert covered["accuracy"].to_numpy() == pytest.approx(main.loc[covered.index].to_numpy(),
                                                           abs=1e-6)
    assert ((frame.accuracy > 0) & (frame.accuracy < 100)).all()
    # the same seed, the same grid; a drawn level moves every cell
    assert synthetic_grid(formats, protocols, seed=3).accuracy == pytest.approx(grid.accuracy)
    assert not np.allclose(synthetic_grid(formats, protocols, seed=3, level=1.0).accuracy,
                           grid.accuracy)


def test_synthetic_turns_have_the_true_accuracy_on_average():
    grid = synthetic_grid(("json_schema_openai", "xml_schema"), ("json_object", "xml_call"), seed=0)
    turns = grid.draw(20000, np.random.default_rng(0))
    assert turns.shape == (4, 20000)
    assert 100 * turns.mean(axis=1) == pytest.approx(grid.accuracy, abs=1.5)


def test_simulate_search_and_its_validation_curve():
    def factory(seed):
        return synthetic_grid(("json_schema_openai", "xml_schema", "typescript", "python_stub"),
                              ("json_object", "xml_call", "nl_intent"), seed=seed, level=None)

    sim = simulate_search(factory, seeds=range(4), n_requests=20, budget_shares=(30.0,))
    assert set(sim.method) == {"atlas", "full_grid", "full_grid_shared", "oracle_top"}
    assert (sim.regret >= -1e-9).all()
    # the genie bound: 30% of 12 cells x 20 requests = 72 turns reads the 3 truly best cells
    # on every request, and returns the one observed best among them
    oracle = sim[sim.method == "oracle_top"]
    assert (oracle.turns == 3 * 20).all()
    for seed, row in zip(oracle.seed, oracle.itertuples()):
        truth = np.sort(factory(seed).accuracy)[::-1]
        assert row.returned in truth[:3]
    assert (sim[sim.method == "atlas"].turns_share <= 30.0 + 1e-9).all()
    assert (sim.pool_regret >= -1e-9).all()
    assert (sim[sim.method == "full_grid"].pool_regret == 0).all()
    for truth in ("population", "pool"):
        curve = validation_curve(sim, deltas=(0.0, 2.0, 100.0), truth=truth)
        for _, group in curve.groupby(["method", "budget_share"]):
            assert group["p_within"].is_monotonic_increasing
            assert group["p_within"].iloc[-1] == 1.0
    with pytest.raises(ValueError, match="truth"):
        validation_curve(sim, truth="oracle")


# -- BFCL's format-sensitivity statistics ---------------------------------------------------------

def test_format_sensitivity_hand_worked():
    rows = []
    for cell, hits in (("a/p", 5), ("b/p", 7), ("c/p", 9)):  # 50%, 70%, 90% of ten
        rows += [{"cell": cell, "request_id": f"r{i}", "error": None, "correct_main": i < hits}
                 for i in range(10)]
    turns = pd.DataFrame(rows)
    got = format_sensitivity(turns)
    assert got["n_configurations"] == 3 and got["n_requests"] == 10
    assert got["max_delta"] == pytest.approx(40.0)
    assert got["std"] == pytest.approx(20.0)          # sample sd of .5, .7, .9
    assert got["variance"] == pytest.approx(400.0)
    assert got["accuracy"] == pytest.approx({"a/p": 50.0, "b/p": 70.0, "c/p": 90.0})
    one = format_sensitivity(turns[turns.cell == "a/p"])
    assert (one["max_delta"], one["std"], one["variance"]) == (0.0, 0.0, 0.0)
    # only the requests every configuration answered
    shared = format_sensitivity(turns[~((turns.cell == "c/p") & (turns.request_id == "r0"))],
                                common_requests=True)
    assert shared["n_requests"] == 9


# -- the atlas on the runner ---------------------------------------------------------------------

FORMATS = ("json_schema_openai", "xml_schema", "typescript", "python_stub")
PROTOCOLS = ("json_object", "xml_call", "nl_intent")


@lru_cache(maxsize=None)
def _requests() -> tuple[Request, ...]:
    from toolform.datasets import load_dataset

    return tuple(load_dataset("bfcl/simple_python").requests[:12])


class OracleClient:
    """Answers in the asked protocol: the gold call when a hash of (format, protocol, request)
    falls under the cell's planted accuracy, else a refusal; fails on the turns ``fail`` says."""

    model = "oracle-model"

    def __init__(self, accuracy, fail=lambda fmt, protocol, rid: False):
        self.accuracy = accuracy
        self.fail = fail
        self.asked = 0
        self._lock = threading.Lock()
        self._by_text = {r.text: r for r in _requests()}
        self._protocols = sorted(PROTOCOLS, key=lambda p: -len(get_protocol(p).instruction))
        self._blocks = {(f, r.id): render(r.toolset, f).schema_text
                        for f in FORMATS for r in _requests()}

    def complete(self, messages, *, max_tokens=None, temperature=None, tools=None,
                 extra_body=None):
        with self._lock:
            self.asked += 1
        system, text = messages[0]["content"], messages[-1]["content"]
        request = self._by_text[text]
        protocol = next(p for p in self._protocols if get_protocol(p).instruction in system)
        fmt = next(f for f in FORMATS if self._blocks[(f, request.id)] in system)
        if self.fail(fmt, protocol, request.id):
            from toolform.errors import ClientError

            raise ClientError("server down")
        h = int(hashlib.sha256(f"{fmt}|{protocol}|{request.id}".encode()).hexdigest()[:8], 16)
        reply = "I cannot help with that."
        if h / 16 ** 8 < self.accuracy(fmt, protocol):
            reply = get_protocol(protocol).protocol.write(
                [g.first_call() for g in request.gold], request.toolset)
        return Completion(reply, None, 20, 8, 0.01, self.model, "stop")

    def describe(self):
        return {"client": "OracleClient", "model": self.model}


def _planted_accuracy(fmt, protocol):
    if (fmt, protocol) == ("xml_schema", "xml_call"):
        return 0.99
    return 0.15 + 0.05 * FORMATS.index(fmt) + 0.04 * PROTOCOLS.index(protocol)


def test_atlas_finds_the_planted_cell_resumes_and_replays(tmp_path):
    client = OracleClient(_planted_accuracy)
    checkpoint = tmp_path / "atlas.jsonl"
    cassette = tmp_path / "cassette.jsonl"
    recorder = ReplayClient(cassette, client, mode="record")
    result = atlas(list(_requests()), recorder, formats=FORMATS, protocols=PROTOCOLS,
                   rules=("main", "symmetric"), budget_turns=80, checkpoint=checkpoint,
                   concurrency=2)
    assert result.best == "xml_schema/xml_call"
    assert result.turns_spent == client.asked <= 80
    assert result.full_grid_turns == 12 * 12 and result.n_requests == 12
    assert set(result.cells.rule) == {"main", "symmetric"}
    top = result.finalists().iloc[0]
    assert top.cell == result.best and top.ci_low <= top.accuracy <= top.ci_high
    assert list(result.path["round"]) == list(range(len(result.path)))
    assert result.path["cumulative_turns"].iloc[-1] == result.turns_spent
    assert (result.turns.groupby("atlas_round").size().to_dict()
            == dict(zip(result.path["round"], result.path["turns"])))
    assert set(result.contrasts["reference"]) == {result.best}
    assert result.sensitivity()["n_configurations"] == len(result.finalists())
    assert "xml_schema/xml_call" in result.summary()
    # resumed from the checkpoint: nothing asked again, the same answer
    asked = client.asked
    again = atlas(list(_requests()), client, formats=FORMATS, protocols=PROTOCOLS,
                  rules=("main", "symmetric"), budget_turns=80, checkpoint=checkpoint)
    assert client.asked == asked and again.best == result.best
    # replayed from the cassette, offline
    offline = ReplayClient(cassette, mode="replay", model=client.model)
    replayed = atlas(list(_requests()), offline, formats=FORMATS, protocols=PROTOCOLS,
                     rules=("main", "symmetric"), budget_turns=80)
    assert replayed.best == result.best and replayed.turns["error"].isna().all()
    pd.testing.assert_frame_equal(replayed.cells, result.cells)


class CountingExecutor:
    """The local executor, counting the turns it was given (the atlas runs on any executor)."""

    name = "counting"

    def __init__(self) -> None:
        from toolform.executors import LocalExecutor

        self.inner, self.turns = LocalExecutor(2), 0

    def execute(self, turns, clients, *, stop=None):
        self.turns += len(turns)
        return self.inner.execute(turns, clients, stop=stop)


def test_atlas_runs_on_the_executor_it_is_given():
    executor = CountingExecutor()
    on_it = atlas(list(_requests()), OracleClient(_planted_accuracy), formats=FORMATS,
                  protocols=PROTOCOLS, budget_turns=80, executor=executor)
    local = atlas(list(_requests()), OracleClient(_planted_accuracy), formats=FORMATS,
                  protocols=PROTOCOLS, budget_turns=80)
    assert executor.turns == on_it.turns_spent > 0
    assert on_it.best == local.best
    pd.testing.assert_frame_equal(on_it.cells, local.cells)


def test_atlas_keeps_failed_turns_as_rows(tmp_path):
    client = OracleClient(_planted_accuracy,
                          fail=lambda fmt, protocol, rid: fmt == "typescript" and rid.endswith("3"))
    result = atlas(list(_requests()), client, formats=FORMATS, protocols=PROTOCOLS,
                   budget_turns=60, concurrency=1)
    failed = result.turns[result.turns["error"].notna()]
    assert len(failed) and failed["error"].str.contains("server down").all()
    assert result.cells.set_index("cell").loc[failed["cell"].iloc[0], "n_errors"] >= 1


def test_atlas_rejects_bad_arguments():
    client = OracleClient(_planted_accuracy)
    with pytest.raises(ValueError, match="rules"):
        atlas(list(_requests()), client, formats=FORMATS, protocols=PROTOCOLS,
              rules=("best",), budget_turns=50)
    with pytest.raises(ValueError, match="at least 12"):
        atlas(list(_requests()), client, formats=FORMATS, protocols=PROTOCOLS, budget_turns=5)


def test_recorded_validation_keeps_its_splits_apart():
    validation = atlas_pkg.recorded_validation()
    held = validation[validation.split == "held_out"]
    dev = validation[validation.split == "development"]
    assert len(held) and len(dev)
    assert (held.seed >= 300).all() and (dev.seed < 300).all()
    assert set(validation.method) == {"atlas", "full_grid", "full_grid_shared", "oracle_top"}
    atlas_rows = validation[validation.method == "atlas"]
    assert (atlas_rows.turns_share <= atlas_rows.budget_share + 1e-9).all()


def test_recorded_atlas_replays_its_cassette():
    found = atlas_pkg.recorded_atlas(concurrency=1)
    assert found.turns["error"].isna().all()
    assert found.turns_spent <= atlas_pkg.RECORDED_ATLAS_BUDGET
    assert found.full_grid_turns == len(atlas_pkg.RECORDED_ATLAS_PAIRS) * 20
    assert set(found.cells["cell"]) == {f"{f}/{p}" for f, p in atlas_pkg.RECORDED_ATLAS_PAIRS}


def test_recorded_atlas_says_how_to_record_when_its_cassette_is_absent(tmp_path, monkeypatch):
    from toolform.atlas import _atlas
    from toolform.errors import DatasetError

    monkeypatch.setattr(_atlas, "_atlas_cassette", lambda: tmp_path / "none.jsonl")
    with pytest.raises(DatasetError, match="record_atlas"):
        atlas_pkg.recorded_atlas()
