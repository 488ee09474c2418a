"""toolform.experiments: one call shape, one result type, on_turn once per turn (resumed turns
included), the old import paths as warning aliases, and the A/B panel following on_turn."""

from __future__ import annotations

import importlib
import inspect
import threading
import warnings

import altair as alt
import pandas as pd
import pytest

import toolform.experiments as ex
from catalogue_fakes import CatalogueFake
from toolform.clients import Completion
from toolform.datasets import load_dataset
from toolform.errors import InvalidParameterError
from toolform.generator import generated_tasks
from toolform.protocols import get_protocol, protocol_ids
from toolform.repeats import Sampling
from toolform.runs import Cell

#: Text-protocol cells (the stub below writes calls as text).
CELLS = ["json_schema_openai", "xml_schema/xml_call", ("python_stub", "python_call")]
REQUESTS = load_dataset("bfcl/simple_python").requests[:4]

EXPERIMENTS = [ex.ab_test, ex.bfcl_arm, ex.hijack_experiment, ex.count_sweep, ex.atlas]
#: The shared keywords and the one default each has in every experiment.
SHARED = {"checkpoint": None, "on_turn": None, "max_tokens": ex.DEFAULT_MAX_TOKENS,
          "concurrency": ex.DEFAULT_CONCURRENCY, "progress": False, "stop": None, "repeats": 1,
          "sampling": None, "price": "frontier_api"}


class GoldClient:
    """Answers every request with its gold call, in the protocol the system prompt asks for."""

    model = "gold"

    def __init__(self, requests) -> None:
        self.by_text = {r.text: r for r in requests}
        self.calls = 0
        self.lock = threading.Lock()

    def complete(self, messages, *, max_tokens=None, temperature=None, tools=None,
                 extra_body=None):
        with self.lock:
            self.calls += 1
        system, asked = messages[0]["content"], messages[-1]["content"]
        request = self.by_text[asked]
        protocol = max((p for p in protocol_ids() if get_protocol(p).instruction
                        and get_protocol(p).instruction in system),
                       key=lambda p: len(get_protocol(p).instruction))
        text = get_protocol(protocol).protocol.write([g.first_call() for g in request.gold],
                                                     request.toolset)
        return Completion(text, None, 100, 10, 0.01, self.model, "stop")

    def describe(self):
        return {"client": "GoldClient", "model": self.model}


# -- one call shape ------------------------------------------------------------------------------

@pytest.mark.parametrize("experiment", EXPERIMENTS, ids=lambda f: f.__name__)
def test_every_experiment_has_the_one_call_shape(experiment):
    params = inspect.signature(experiment).parameters
    first, second = list(params)[:2]
    assert (first, second) == ("requests", "client")
    assert params["cells"].kind is inspect.Parameter.KEYWORD_ONLY
    for name, default in SHARED.items():
        assert params[name].kind is inspect.Parameter.KEYWORD_ONLY, name
        assert params[name].default == default, name
    assert not {"max_concurrency", "protocol", "protocol_id", "format_id"} & set(params)


def test_recall_at_k_has_the_closest_shape_without_a_client():
    params = inspect.signature(ex.recall_at_k).parameters
    assert list(params)[:2] == ["requests", "methods"]  # the retrievers in the client's place
    assert params["on_turn"].default is None
    assert not {"checkpoint", "max_tokens", "concurrency"} & set(params)  # nothing is sent


@pytest.mark.parametrize("experiment", EXPERIMENTS, ids=lambda f: f.__name__)
def test_the_old_argument_order_is_refused_clearly(experiment):
    with pytest.raises(InvalidParameterError, match="requests come first"):
        experiment(GoldClient(REQUESTS), REQUESTS, **(
            {"budget_turns": 4} if experiment is ex.atlas else {}))


def test_cells_are_written_any_of_three_ways():
    assert ex.as_cells(CELLS) == [Cell("json_schema_openai"), Cell("xml_schema", "xml_call"),
                                  Cell("python_stub", "python_call")]
    for bad in ("json_schema_openai", [], [3]):
        with pytest.raises(InvalidParameterError):
            ex.as_cells(bad)


# -- on_turn: every turn exactly once, resumed ones included, from the calling thread ------------

def _keys(rows, columns):
    return sorted(tuple(str(r[c]) for c in columns) for r in rows)


def test_ab_test_reports_resumed_and_new_turns_once_each(tmp_path):
    checkpoint = tmp_path / "ab.jsonl"
    client = GoldClient(REQUESTS)
    ex.ab_test(REQUESTS, client, cells=CELLS[:1], n=4, checkpoint=checkpoint)
    assert client.calls == 4
    seen, threads = [], set()

    def on_turn(row):
        seen.append(row)
        threads.add(threading.get_ident())

    result = ex.ab_test(REQUESTS, client, cells=CELLS, n=4, checkpoint=checkpoint,
                        on_turn=on_turn)
    assert client.calls == 4 + 8  # the first cell's turns came from the checkpoint
    key = ("cell", "request_id")
    assert _keys(seen, key) == _keys(result.turns.to_dict("records"), key)
    assert len(seen) == len(result.turns) == 12
    assert threads == {threading.get_ident()}
    # the resumed turns are reported first, in plan order
    assert [r["cell"] for r in seen[:4]] == ["json_schema_openai/json_object"] * 4
    assert result.turns["correct_main"].all()


def test_bfcl_arm_and_its_result(tmp_path):
    seen = []
    result = ex.bfcl_arm(REQUESTS, GoldClient(REQUESTS), cells=CELLS[1:], on_turn=seen.append,
                         checkpoint=tmp_path / "arm.jsonl")
    assert len(seen) == len(result.turns) == 8
    assert isinstance(result, ex.ExperimentResult)
    assert list(result.cells.columns) == [c[0] for c in ex.BFCL_ARM_COLUMNS]
    assert result.table().loc[("xml_schema/xml_call", "simple_python"), "main"] == 100.0


def test_hijack_reports_each_condition_once_with_its_condition(tmp_path):
    seen = []
    result = ex.hijack_experiment(REQUESTS[:2], GoldClient(REQUESTS), cells=CELLS[:2],
                                  on_turn=seen.append, checkpoint=tmp_path / "h.jsonl")
    key = ("condition", "cell", "request_id")
    assert _keys(seen, key) == _keys(result.turns.to_dict("records"), key)
    assert len(seen) == 3 * 2 * 2 and all("followed" in r for r in seen)
    assert list(result.cells["cell"]) == ["json_schema_openai/json_object", "xml_schema/xml_call"]
    assert "cell" not in result.table().columns
    units = {name: unit for name, _, unit, _ in ex.HIJACK_COLUMNS}
    assert units["delta_planted"] == units["delta_cleaned"] == "percentage points"


def test_count_sweep_checkpoints_resumes_and_reports_once(tmp_path):
    requests = ex.select_requests(generated_tasks(), 2, seed=3)
    strategies = ex.make_strategies(ks=(4,), methods=("bm25",), two_stage=False)
    checkpoint = tmp_path / "sweep.jsonl"
    fake = CatalogueFake(requests)
    first = ex.count_sweep(requests, fake, sizes=(1, 8), strategies=strategies,
                           checkpoint=checkpoint)
    asked = len(fake.log)
    assert asked == len(first.turns) == 2 * 2 * 2
    seen = []
    again = ex.count_sweep(requests, fake, sizes=(1, 8, 16), strategies=strategies,
                           checkpoint=checkpoint, on_turn=seen.append)
    assert len(fake.log) == asked + 2 * 2  # only the new size was asked
    key = ("cell", "strategy", "n_tools", "request_id")
    assert _keys(seen, key) == _keys(again.turns.to_dict("records"), key)
    assert len(seen) == 12
    pd.testing.assert_frame_equal(again.turns[again.turns["n_tools"] < 16].reset_index(drop=True),
                                  first.turns)
    assert list(again.cells.columns) == [c[0] for c in ex.SWEEP_SUMMARY_COLUMNS]


def test_the_atlas_reports_each_turn_once_across_its_rounds(tmp_path):
    seen = []
    result = ex.atlas(REQUESTS, GoldClient(REQUESTS), cells=CELLS, budget_turns=9, seed=0,
                      checkpoint=tmp_path / "atlas.jsonl", on_turn=seen.append, concurrency=1)
    key = ("cell", "request_id")
    assert _keys(seen, key) == _keys(result.turns.to_dict("records"), key)
    assert len(seen) == len(result.turns) == result.search.turns_spent
    assert isinstance(result.table(), pd.DataFrame)


def test_recall_at_k_reports_each_turn_and_summarises_them():
    seen = []
    result = ex.recall_at_k(load_dataset("mcp/catalogue"), ks=(1, 8), on_turn=seen.append)
    assert len(seen) == len(result.turns) == 2 * result.cells["n"].iloc[0]
    by_k = result.turns.groupby("k")["recall"].mean()
    assert list(result.cells["recall"]) == pytest.approx(list(by_k))
    assert list(result.table().columns) == ["bm25"]


# -- one result type -----------------------------------------------------------------------------

def test_every_result_is_an_experiment_result_with_a_table_and_a_chart(tmp_path):
    client = GoldClient(REQUESTS)
    requests = ex.select_requests(generated_tasks(), 1, seed=3)
    results = [
        ex.ab_test(REQUESTS, client, cells=CELLS, n=2),
        ex.bfcl_arm(REQUESTS[:2], client, cells=CELLS[:1]),
        ex.hijack_experiment(REQUESTS[:1], client, cells=CELLS[:1]),
        ex.count_sweep(requests, CatalogueFake(requests), sizes=(1,),
                       strategies=(ex.Strategy("one_shot"),)),
        ex.recall_at_k(requests, ks=(1,)),
        ex.atlas(REQUESTS[:2], client, cells=CELLS[:2], budget_turns=4),
    ]
    for result in results:
        assert isinstance(result, ex.ExperimentResult), type(result)
        assert isinstance(result.turns, pd.DataFrame) and len(result.turns)
        assert isinstance(result.cells, pd.DataFrame) and len(result.cells)
        table = result.table()
        assert isinstance(table, pd.DataFrame) and len(table)
        chart = result.chart()
        assert isinstance(chart, alt.TopLevelMixin), type(result)
        chart.to_dict()  # validates against the Vega-Lite schema


def test_the_recorded_replays_keep_their_recording_budgets():
    assert ex.RECORDED_AB_MAX_TOKENS == 160 and ex.RECORDED_BFCL_MAX_TOKENS == 256
    assert ex.DEFAULT_MAX_TOKENS == 256
    sweep = ex.recorded_sweep()  # 64 recorded turns, offline
    assert len(sweep.turns) == 64 and sweep.turns["error"].isna().all()


# -- the old import paths ------------------------------------------------------------------------

OLD_PATHS = [
    ("toolform.abtest", "ab_test", ex.ab_test),
    ("toolform.abtest", "select_requests", ex.select_requests),
    ("toolform.abtest", "ABResult", ex.ABResult),
    ("toolform.bfcl_arm", "bfcl_arm", ex.bfcl_arm),
    ("toolform.bfcl_arm", "bfcl_arm_table", ex.bfcl_arm_table),
    ("toolform.bfcl_arm", "RECORDED_MAX_TOKENS", ex.RECORDED_BFCL_MAX_TOKENS),
    ("toolform.guard", "hijack_experiment", ex.hijack_experiment),
    ("toolform.guard", "recorded_hijack", ex.recorded_hijack),
    ("toolform.catalogue", "count_sweep", ex.count_sweep),
    ("toolform.catalogue", "recall_at_k", ex.recall_at_k),
    ("toolform.catalogue", "SWEEP_COLUMNS", ex.SWEEP_COLUMNS),
]


# ids from the names only: an object's repr holds its address, which differs between xdist workers
@pytest.mark.parametrize("module, name, new", OLD_PATHS,
                         ids=[f"{module}.{name}" for module, name, _ in OLD_PATHS])
def test_an_old_path_still_imports_warns_and_is_the_same_object(module, name, new):
    old = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=r"use toolform\.experiments\."):
        assert getattr(old, name) is new


def test_the_moved_modules_import_with_from_and_know_only_their_names():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from toolform.abtest import LOCAL_MODEL_ID, ab_test  # noqa: F401
    assert ab_test is ex.ab_test and LOCAL_MODEL_ID == ex.LOCAL_MODEL_ID
    assert any("toolform.abtest.ab_test is deprecated" in str(w.message) for w in caught)
    import toolform.abtest as old

    with pytest.raises(AttributeError):
        old.nothing_here
    assert "ab_test" in dir(old)


def test_the_pure_guard_parts_stay_in_the_guard_without_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        from toolform.guard import DEFAULT_SENTENCE, calls_follow, plant_instruction  # noqa: F401


# -- the A/B panel follows on_turn ---------------------------------------------------------------

def test_the_ab_panel_moves_with_each_on_turn_call_and_polls_nothing(monkeypatch):
    import toolform.widgets._ab_panel as panel_module
    from toolform.widgets import ABTestPanel

    real = ex.ab_test(REQUESTS, GoldClient(REQUESTS), cells=CELLS, n=2)
    rows = real.turns.to_dict("records")
    progress_after_each = []
    panel = ABTestPanel(GoldClient(REQUESTS), refresh_s=60.0)  # one live redraw, then the final

    def fake_ab_test(sources, client, *, on_turn, **options):
        assert options["max_tokens"] == panel.max_tokens.value
        for row in rows:
            on_turn(row)
            progress_after_each.append(panel.progress.value)
        assert not any(t.name == "toolform-ab-poll" for t in threading.enumerate())
        return real

    monkeypatch.setattr(panel_module, "ab_test", fake_ab_test)
    # drawing the chart is tested with the panel's other tests; here only the wiring counts
    monkeypatch.setattr(panel_module, "displayable", lambda chart: {"text/plain": "chart"})
    panel.datasets.value = ("bfcl/simple_python",)
    panel.n.value = 1
    panel.start_button.click()
    assert panel.wait(30) is real, panel.status.value
    assert progress_after_each == list(range(1, len(rows) + 1))
    assert "json_schema_openai/json_object" in panel.table.value


# -- sampling: every experiment asks its repeats as distinct seeded samples ----------------------

class SamplingLog:
    """Wraps a stub client and records the temperature and seed of every ask."""

    def __init__(self, inner):
        self.inner, self.model, self.asks = inner, inner.model, []
        self.lock = threading.Lock()

    def complete(self, messages, *, temperature=None, extra_body=None, **options):
        with self.lock:
            self.asks.append((temperature, (extra_body or {}).get("seed")))
        return self.inner.complete(messages, temperature=temperature, extra_body=extra_body,
                                   **options)

    def describe(self):
        return self.inner.describe()


def _seeded_runs():
    two = REQUESTS[:2]
    sweep_requests = ex.select_requests(generated_tasks(), 2, seed=3)
    one_prompt = ex.make_strategies(ks=(4,), methods=("bm25",), two_stage=False)
    yield "ab_test", SamplingLog(GoldClient(two)), lambda c, **o: ex.ab_test(
        two, c, cells=CELLS[:1], n=2, **o)
    yield "bfcl_arm", SamplingLog(GoldClient(two)), lambda c, **o: ex.bfcl_arm(
        two, c, cells=CELLS[:1], **o)
    yield "hijack_experiment", SamplingLog(GoldClient(two)), lambda c, **o: \
        ex.hijack_experiment(two, c, cells=CELLS[:1], **o)
    yield "count_sweep", SamplingLog(CatalogueFake(sweep_requests)), lambda c, **o: \
        ex.count_sweep(sweep_requests, c, sizes=(1,), strategies=one_prompt, **o)


@pytest.mark.parametrize("name,client,run", list(_seeded_runs()),
                         ids=[name for name, _, _ in _seeded_runs()])
def test_repeats_are_asked_with_the_sampling_and_one_seed_each(name, client, run):
    run(client, repeats=2, sampling=Sampling(temperature=0.7, seed=5))
    temperatures = {t for t, _ in client.asks}
    seeds = sorted(seed for _, seed in client.asks)
    assert temperatures == {0.7}, name
    # every request is asked once with seed 5 (repeat 0) and once with seed 6 (repeat 1)
    assert seeds[:len(seeds) // 2] == [5] * (len(seeds) // 2), (name, seeds)
    assert seeds[len(seeds) // 2:] == [6] * (len(seeds) // 2), (name, seeds)


# -- the A/B states its noise floor (issue 19, point 3) -----------------------------------------

def test_the_ab_report_and_chart_state_the_noise_floor():
    from toolform.stats import noise_floor

    result = ex.recorded_ab(concurrency=1)
    floor = result.noise_floor()
    assert floor == noise_floor(result.turns, "json_schema_openai/json_object", rule="symmetric")
    # 50 pairs a cell, 145 of 350 pooled pairs discordant: 24.9 points at 80% power, alpha 0.05
    assert (floor["n"], floor["n_discordant"], floor["n_pairs"]) == (50, 145, 350)
    assert round(floor["mde_points"], 1) == 24.9
    assert "differences smaller than 24.9 points cannot be told apart" in " ".join(
        result.report().split())
    subtitle = " ".join(result.chart().to_dict()["title"]["subtitle"])
    assert "Differences smaller than 24.9 points cannot be told apart in this run" in subtitle


def test_an_ab_without_the_reference_cell_states_no_floor():
    result = ex.ab_test(REQUESTS, GoldClient(REQUESTS), cells=CELLS[1:], n=4)
    assert result.noise_floor() is None
    assert "Noise floor" not in result.report()
    assert len(result.chart().to_dict()["title"]["subtitle"]) == 2


@pytest.mark.parametrize("experiment", EXPERIMENTS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("option", [{"max_tokens": 0}, {"concurrency": 0}, {"repeats": 0},
                                    {"max_tokens": 1.5}], ids=str)
def test_run_options_out_of_range_are_refused_before_any_ask(experiment, option):
    client = GoldClient(REQUESTS)
    extra = {"budget_turns": 20} if experiment is ex.atlas else {}
    with pytest.raises(InvalidParameterError, match=f"{experiment.__name__}: {next(iter(option))}"):
        experiment(REQUESTS, client, cells=CELLS, **extra, **option)
    assert client.calls == 0
