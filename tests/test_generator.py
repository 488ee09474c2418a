"""toolform.generator: the 93-tool set, tasks with gold calls, decoy catalogues, executors."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from pathlib import Path

import jsonschema
import pytest

from toolform import generator
from toolform.errors import GradingError
from toolform.generator import (N_TOOLS, decoy_catalogue, end_state_correct, generated_tasks,
                                generated_toolset, max_catalogue_size, run_calls, tool_specs,
                                write_generated_dataset)
from toolform.generator._tasks import parse_path, say, slot_paths
from toolform.ir import GoldCall, Request, ToolCall, Toolset
from toolform.tiers import TIER_LIMITS, tier_estimate, tool_profile

DATASET = Path(__file__).resolve().parents[1] / "datasets" / "generated"


@pytest.fixture(scope="module")
def toolset() -> Toolset:
    return generated_toolset(0)


@pytest.fixture(scope="module")
def tasks(toolset) -> list[Request]:
    return generated_tasks(0, toolset=toolset)


# -- the toolset -----------------------------------------------------------------------------

def test_same_seed_gives_byte_identical_json():
    assert generated_toolset(0).to_json() == generated_toolset(0).to_json()
    assert generated_toolset(7).to_json() == generated_toolset(7).to_json()


def test_seed_changes_the_order_not_the_tools(toolset):
    other = generated_toolset(1)
    assert other.names != toolset.names
    assert sorted(other.names) == sorted(toolset.names)
    assert {t.name: t for t in other} == {t.name: t for t in toolset}


def test_counts_93_tools_24_domains_every_tier(toolset):
    assert len(toolset) == N_TOOLS == 93
    domains = {spec.domain for spec in tool_specs()}
    assert len(domains) == 24
    tiers = Counter(tier_estimate(t) for t in toolset)
    assert set(tiers) == {1, 2, 3, 4, 5}
    assert min(tiers.values()) >= 10
    assert tier_estimate(toolset) == 5


def test_every_tool_stays_within_its_tier_definition(toolset):
    for t in toolset:
        tier = tier_estimate(t)
        assert TIER_LIMITS[tier].admits(tool_profile(t)), (t.name, tier, tool_profile(t))


def test_domains_have_near_twins():
    by_domain = defaultdict(list)
    for spec in tool_specs():
        by_domain[spec.domain].append(spec.tool.name)
    versioned = {name for names in by_domain.values() for name in names
                 if re.search(r"_v\d+(_final)?$", name)}
    assert {"refund_payment_v2", "refund_payment_v2_final", "send_email_v2",
            "post_message_v2", "check_stock_v2"} <= versioned
    for name in versioned:
        base = re.sub(r"_v\d+(_final)?$", "", name)
        assert any(base in by_domain[d] and name in by_domain[d] for d in by_domain), name
    assert {"turn_on_device", "turn_off_device"} <= set(by_domain["home"])
    assert {"find_contact", "find_contact_by_email"} <= set(by_domain["contacts"])


def test_descriptions_and_parameters_are_documented(toolset):
    for t in toolset:
        assert t.description.endswith((".", ")")), t.name
        for p in t.params:
            assert p.description, (t.name, p.name)


# -- tasks -----------------------------------------------------------------------------------

def test_tasks_are_deterministic(tasks, toolset):
    again = generated_tasks(0, toolset=toolset)
    assert [r.to_dict() for r in again] == [r.to_dict() for r in tasks]
    assert [r.text for r in generated_tasks(1)] != [r.text for r in tasks]


def test_every_tool_has_clear_and_vague_requests(tasks):
    styles = defaultdict(set)
    for r in tasks:
        styles[r.gold[0].name].add(r.category.split("_")[1])
    assert len(styles) == N_TOOLS
    assert all(s == {"clear", "vague"} for s in styles.values())
    assert len(tasks) == 3 * N_TOOLS
    assert len({r.id for r in tasks}) == len(tasks)
    assert not any("{" in r.text or "}" in r.text for r in tasks)


def test_category_names_the_tier_of_the_gold_tool(tasks, toolset):
    for r in tasks:
        assert r.category == f"tier{tier_estimate(toolset[r.gold[0].name])}_" \
                             f"{r.category.split('_')[1]}"


def test_filters_and_samples(toolset):
    vague_t5 = generated_tasks(0, tiers=[5], styles=["vague"], toolset=toolset)
    assert vague_t5 and all(r.category == "tier5_vague" for r in vague_t5)
    doubled = generated_tasks(0, samples=2, tiers=[1], toolset=toolset)
    assert len(doubled) == 2 * len(generated_tasks(0, tiers=[1], toolset=toolset))
    with pytest.raises(ValueError, match="tiers"):
        generated_tasks(0, tiers=[6])
    with pytest.raises(ValueError, match="samples"):
        generated_tasks(0, samples=0)


def test_slot_values_appear_in_the_request_text(tasks):
    hand_checked = {r.id: r for r in tasks}["gen_get_forecast_1"]
    call = hand_checked.gold[0].first_call()
    assert hand_checked.text == f"I need a {call.arguments['days']}-day forecast for " \
                                f"{call.arguments['city']} in Fahrenheit."
    assert call.arguments["units"] == "imperial"
    asks = {f"gen_{spec.tool.name}_{k}": ask for spec in tool_specs()
            for k, ask in enumerate(spec.asks)}
    for r in tasks:
        arguments = r.gold[0].first_call().arguments
        for slot in slot_paths(asks[r.id]):
            value = arguments
            for token in parse_path(slot):
                value = value[token]
            assert say(value) in r.text, (r.id, slot, value)


def test_every_gold_call_validates_against_its_tool_schema(tasks, toolset):
    checker = jsonschema.Draft202012Validator.FORMAT_CHECKER
    for r in tasks:
        gold = r.gold[0]
        schema = toolset[gold.name].input_schema()
        jsonschema.Draft202012Validator(schema, format_checker=checker).validate(
            dict(gold.first_call().arguments))


# -- executors and end-state grading ----------------------------------------------------------

def test_executors_run_every_gold_call(tasks, toolset):
    assert set(toolset.executors) == set(toolset.names)
    for r in tasks:
        gold = r.gold[0]
        execution = run_calls(gold.first_call(), toolset)
        assert execution.ok, (r.id, execution.errors)
        assert end_state_correct(gold.first_call(), gold, toolset)


def test_end_state_hand_checked_cases(toolset):
    gold = GoldCall.from_call(ToolCall("get_forecast", {"city": "Lisbon", "days": 3}))
    explicit_default = ToolCall("get_forecast", {"city": "Lisbon", "days": 3, "units": "metric"})
    other_case = ToolCall("get_forecast", {"city": "LISBON", "days": 3})
    wrong_city = ToolCall("get_forecast", {"city": "Osaka", "days": 3})
    wrong_units = ToolCall("get_forecast", {"city": "Lisbon", "days": 3, "units": "imperial"})
    twin = ToolCall("get_forecast_hourly", {"city": "Lisbon", "hours": 72})
    invalid = ToolCall("get_forecast", {"city": "Lisbon", "days": 30})
    assert end_state_correct(explicit_default, gold, toolset)
    assert end_state_correct(other_case, gold, toolset)
    assert not end_state_correct(wrong_city, gold, toolset)
    assert not end_state_correct(wrong_units, gold, toolset)
    assert not end_state_correct(twin, gold, toolset)
    assert not end_state_correct(invalid, gold, toolset)
    assert not end_state_correct([], gold, toolset)
    assert not end_state_correct(ToolCall("no_such_tool", {}), gold, toolset)


def test_writes_change_the_state(toolset):
    cancel = ToolCall("cancel_order", {"order_id": "ORD-1057", "reason": "other"})
    execution = run_calls(cancel, toolset)
    row = next(r for r in execution.state["orders"] if r["order_id"] == "ORD-1057")
    assert row == {"order_id": "ORD-1057", "customer_email": "kenji.ito@example.org",
                   "status": "cancelled", "reason": "other", "notify_customer": True}
    gold = GoldCall.from_call(cancel)
    wrong_order = ToolCall("cancel_order", {"order_id": "ORD-1042", "reason": "other"})
    assert not end_state_correct(wrong_order, gold, toolset)
    missing = run_calls(ToolCall("cancel_order", {"order_id": "ORD-9", "reason": "other"}),
                        toolset)
    assert not missing.ok and "ORD-9" in missing.errors[0]
    created = run_calls([ToolCall("create_channel", {"name": "ops"}),
                         ToolCall("create_channel", {"name": "ops-2", "private": True})], toolset)
    assert created.results == ({"id": "channels-0004"}, {"id": "channels-0005"})
    assert created.state["channels"][-1] == {"id": "channels-0005", "name": "ops-2",
                                             "private": True}


def test_each_run_starts_from_a_fresh_world(toolset):
    delete = ToolCall("delete_file", {"path": "/notes/onboarding.md"})
    assert run_calls(delete, toolset).ok
    assert run_calls(delete, toolset).ok
    assert not run_calls([delete, delete], toolset).ok


def test_a_failing_gold_call_is_a_grading_error(toolset):
    broken = GoldCall.from_call(ToolCall("delete_event", {"event_id": "evt_999"}))
    with pytest.raises(GradingError, match="evt_999"):
        end_state_correct(ToolCall("delete_event", {"event_id": "evt_999"}), broken, toolset)


def test_toolset_executors_share_one_live_world(toolset):
    fresh = generated_toolset(0)
    fresh.executors["turn_on_device"](device_id="light.porch")
    assert fresh.executors["get_current_weather"](city="Lisbon")["rows"][0]["temp_c"] == 19
    world = fresh.executors["turn_on_device"].world
    assert next(r for r in world.tables["devices"]
                if r["device_id"] == "light.porch")["state"] == "on"
    with pytest.raises(ValueError, match=r"get_forecast.*\$\.days"):
        fresh.executors["get_forecast"](city="Lisbon", days="three")


# -- decoy catalogues ------------------------------------------------------------------------

SIZES = [1, 2, 4, 8, 16, 32, 64, 128, 256]


def test_decoy_catalogues_are_nested():
    catalogues = [decoy_catalogue(n, seed=3, target="refund_payment_v2") for n in SIZES]
    for n, cat in zip(SIZES, catalogues):
        assert len(cat) == n
        assert "refund_payment_v2" in cat
        assert set(cat.executors) == set(cat.names)
    for small, big in zip(catalogues, catalogues[1:]):
        assert set(small.names) <= set(big.names)
        decoys_small = [n for n in small.names if n != "refund_payment_v2"]
        decoys_big = [n for n in big.names if n != "refund_payment_v2"]
        assert decoys_big[:len(decoys_small)] == decoys_small


def test_decoy_catalogue_goes_past_the_generated_set():
    big = decoy_catalogue(256, seed=0)
    assert len(big) == 256
    generated_names = {spec.tool.name for spec in tool_specs()}
    assert generated_names < set(big.names)
    extras = [t for t in big if t.name not in generated_names]
    assert len(extras) == 256 - N_TOOLS
    assert all(t.description and tier_estimate(t) <= 2 for t in extras)
    assert decoy_catalogue(256, seed=0).to_json() == big.to_json()
    assert decoy_catalogue(64, seed=1).names != decoy_catalogue(64, seed=0).names
    create = next(t.name for t in extras if t.name.startswith("create_"))
    fields = {p.name: "x" for p in big[create].params}
    assert run_calls(ToolCall(create, fields), big).ok


def test_decoy_catalogue_with_several_targets_and_bad_input():
    cat = decoy_catalogue(4, target=["get_forecast", "get_forecast_hourly"])
    assert {"get_forecast", "get_forecast_hourly"} <= set(cat.names) and len(cat) == 4
    with pytest.raises(ValueError, match="between"):
        decoy_catalogue(0)
    with pytest.raises(ValueError, match="between"):
        decoy_catalogue(max_catalogue_size() + 1)
    with pytest.raises(ValueError, match="not generated tools"):
        decoy_catalogue(8, target="get_wether")


def test_gold_grading_works_inside_a_decoy_catalogue(tasks):
    request = next(r for r in tasks if r.gold[0].name == "create_order")
    cat = decoy_catalogue(16, target="create_order")
    gold = request.gold[0]
    assert end_state_correct(gold.first_call(), gold, cat)


# -- the dataset files ------------------------------------------------------------------------

def test_committed_dataset_matches_a_fresh_build(tmp_path):
    write_generated_dataset(tmp_path)
    for name in ("toolset.json", "tasks.jsonl"):
        assert (tmp_path / name).read_bytes() == (DATASET / name).read_bytes(), name
    lines = (DATASET / "tasks.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    assert first["tools"] == "toolset.json"
    toolset = Toolset.from_json((DATASET / "toolset.json").read_text(encoding="utf-8"))
    request = Request.from_dict({**first, "tools": toolset.to_dict()})
    assert request.gold[0].name in toolset


def test_all_is_sorted():
    assert generator.__all__ == sorted(generator.__all__)
    assert all(hasattr(generator, name) for name in generator.__all__)
