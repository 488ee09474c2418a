"""The packaged BFCL datasets, the dataset loader and the build script."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

import toolform
import toolform.datasets as datasets
from toolform.datasets import Dataset, dataset_names, load_dataset
from toolform.datasets.build_bfcl import gold_calls
from toolform.errors import DatasetError
from toolform.ir import GoldCall, Request

ROOT = Path(datasets.__file__).parent
EXPECTED = {"bfcl/simple_python": 400, "bfcl/multiple": 200}
HAVE_BFCL = importlib.util.find_spec("bfcl_eval") is not None


def test_names_and_all():
    assert set(EXPECTED) <= set(dataset_names())
    assert dataset_names() == sorted(dataset_names())
    assert datasets.__all__ == sorted(datasets.__all__)
    assert toolform.load_dataset is load_dataset


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_counts_ids_and_source(name):
    ds = load_dataset(name)
    category = name.split("/")[1]
    assert isinstance(ds, Dataset) and ds.name == name
    assert len(ds) == EXPECTED[name]
    assert [r.id for r in ds] == [f"{category}_{i}" for i in range(EXPECTED[name])]
    assert {r.category for r in ds} == {category}
    assert all(r.source.startswith(f"BFCL v4 {category}, bfcl-eval ") and
               r.source.endswith(", Apache-2.0") for r in ds)
    assert all(r.text.strip() for r in ds)
    assert "Apache" in ds.card and "build_bfcl.py" in ds.card


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_gold_calls_fit_their_toolsets(name):
    for request in load_dataset(name):
        assert len(request.gold) == 1, request.id
        for call in request.gold:
            tool = request.toolset.get(call.name)
            assert tool is not None, (request.id, call.name)
            for argument in call.accepted:
                assert tool.param(argument) is not None, (request.id, argument)
            assert set(call.may_omit) <= set(call.accepted)
            # "" was BFCL's marker for "may be omitted"; it must not survive as a value
            assert all("" not in values for values in call.accepted.values()), request.id
            # every required parameter of the tool is expected by the gold call
            required = {p.name for p in tool.params if p.required}
            assert required <= set(call.accepted), (request.id, required - set(call.accepted))


def test_multiple_offers_several_tools():
    counts = load_dataset("bfcl/multiple").frame()["n_tools"].value_counts().to_dict()
    assert counts == {3: 85, 2: 79, 4: 36}


def test_may_omit_on_real_rows():
    ds = load_dataset("bfcl/simple_python")
    # source: {"calculate_triangle_area": {"base": [10], "height": [5], "unit": ["units", ""]}}
    assert ds["simple_python_0"].gold == (GoldCall(
        "calculate_triangle_area", {"base": (10,), "height": (5,), "unit": ("units",)},
        may_omit=("unit",)),)
    # source: {"math.hypot": {"x": [4], "y": [5], "z": ["", 0]}}
    hypot = ds["simple_python_2"].gold[0]
    assert hypot.accepted["z"] == (0,) and hypot.may_omit == ("z",)
    assert hypot.first_call().arguments == {"x": 4, "y": 5, "z": 0}
    # source: "cc": [""] and "bcc": [""] — leaving them out is the only right answer
    mail = ds["simple_python_211"].gold[0]
    assert mail.accepted["cc"] == () and mail.accepted["bcc"] == ()
    assert {"cc", "bcc"} <= set(mail.may_omit)
    assert "cc" not in mail.first_call().arguments


def test_nested_possible_answers_become_concrete_values():
    call = load_dataset("bfcl/simple_python")["simple_python_89"].gold[0]
    assert call.accepted["conditions"] == (
        {"department": "Science", "school": "Bluebird High School"},
        {"department": "Science", "school": "Bluebird HS"})


def test_expand_nested_takes_the_product_and_drops_omittable_keys():
    from toolform.datasets.build_bfcl import expand_nested

    assert expand_nested({"a": [1, 2], "b": ["", "x"]}) == [
        {"a": 1}, {"a": 1, "b": "x"}, {"a": 2}, {"a": 2, "b": "x"}]
    assert expand_nested([{"k": ["p", "q"]}, {"k": ["r"]}]) == [
        [{"k": "p"}, {"k": "r"}], [{"k": "q"}, {"k": "r"}]]
    assert expand_nested([1, 2]) == [[1, 2]] and expand_nested("s") == ["s"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_lines_round_trip(name):
    path = ROOT / f"{name}.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines():
        data = json.loads(line)
        assert Request.from_dict(data).to_dict() == data


def test_frame_has_one_row_per_request():
    ds = load_dataset("bfcl/multiple")
    frame = ds.frame()
    assert list(frame.columns) == list(datasets.FRAME_COLUMNS)
    assert len(frame) == 200 and frame["id"].is_unique
    row = frame.iloc[0]
    first = ds.requests[0]
    assert (row["id"], row["request"], row["n_tools"]) == (first.id, first.text,
                                                          len(first.toolset))
    assert row["gold_names"] == (first.gold[0].name,)
    assert str(frame["n_tools"].dtype) == "int64"


def test_unknown_name_lists_the_available_ones():
    with pytest.raises(DatasetError) as caught:
        load_dataset("bfcl/simple_java")
    assert "bfcl/simple_python" in str(caught.value) and "bfcl/multiple" in str(caught.value)


def test_malformed_line_names_file_and_line(tmp_path):
    good = (ROOT / "bfcl" / "multiple.jsonl").read_text(encoding="utf-8").splitlines()[0]
    path = tmp_path / "mine.jsonl"
    path.write_text(good + "\n\n" + '{"id": "x", "request": "hi"}\n', encoding="utf-8")
    with pytest.raises(DatasetError, match=r"mine\.jsonl, line 3: .*'tools'"):
        load_dataset(str(path))
    path.write_text(good + "\n{not json\n", encoding="utf-8")
    with pytest.raises(DatasetError, match=r"mine\.jsonl, line 2"):
        load_dataset(str(path))
    path.write_text(good + "\n" + good + "\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="already used on line 1"):
        load_dataset(str(path))


def test_a_file_loads_by_path_with_its_card(tmp_path):
    lines = (ROOT / "bfcl" / "multiple.jsonl").read_text(encoding="utf-8").splitlines()[:3]
    (tmp_path / "three.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "README.md").write_text("# three requests\n", encoding="utf-8")
    ds = load_dataset(str(tmp_path / "three.jsonl"))
    assert [r.id for r in ds] == ["multiple_0", "multiple_1", "multiple_2"]
    assert ds.card == "# three requests\n"


def test_gold_call_conversion_rules():
    calls = gold_calls([{"f": {"a": [1, 2], "b": ["", "x"], "c": [""]}}], "<test>")
    assert calls == (GoldCall("f", {"a": (1, 2), "b": ("x",), "c": ()}, may_omit=("b", "c")),)
    with pytest.raises(DatasetError, match="<test>"):
        gold_calls([{"f": {"a": 1}}], "<test>")
    with pytest.raises(DatasetError, match="one"):
        gold_calls([{"f": {}, "g": {}}], "<test>")


@pytest.mark.skipif(not HAVE_BFCL, reason="bfcl-eval is not installed")
def test_build_reproduces_the_packaged_files(tmp_path):
    import importlib.metadata

    from toolform.datasets.build_bfcl import bfcl_data_dir, main

    built_from = load_dataset("bfcl/multiple").requests[0].source.split("bfcl-eval ")[1]
    installed = importlib.metadata.version("bfcl-eval")
    if not built_from.startswith(installed + ","):
        pytest.skip(f"bfcl-eval {installed} is installed; the files were built from {built_from}")
    data = bfcl_data_dir()
    for name, count in EXPECTED.items():
        source = data / f"BFCL_v4_{name.split('/')[1]}.json"
        assert sum(1 for line in source.read_text().splitlines() if line.strip()) == count
    assert main(["--out", str(tmp_path)]) == 0
    for name in EXPECTED:
        built = (tmp_path / f"{name.split('/')[1]}.jsonl").read_bytes()
        assert built == (ROOT / f"{name}.jsonl").read_bytes(), name


MORE_BFCL = {"bfcl/parallel": 200, "bfcl/parallel_multiple": 198, "bfcl/irrelevance": 240,
             "bfcl/live_simple": 256, "bfcl/live_multiple": 1050}


@pytest.mark.parametrize("name", sorted(MORE_BFCL))
def test_more_bfcl_categories(name):
    ds = load_dataset(name)
    assert len(ds) == MORE_BFCL[name]
    assert len({r.id for r in ds}) == len(ds)
    for request in ds:
        assert request.text.strip()
        for call in request.gold:
            tool = request.toolset[call.name]
            assert all(tool.param(arg) is not None for arg in call.accepted)
    if name == "bfcl/irrelevance":
        assert all(r.gold == () for r in ds)
    else:
        assert all(r.gold for r in ds)
    if name == "bfcl/parallel":
        assert sum(len(r.gold) for r in ds) == 540


def test_known_source_errors_are_left_out_and_system_messages_kept():
    ids = {r.id for r in load_dataset("bfcl/parallel_multiple")}
    assert "parallel_multiple_11" in ids and "parallel_multiple_12" not in ids
    with_system = [r for r in load_dataset("bfcl/live_simple") if r.system]
    assert len(with_system) == 11
    assert Request.from_dict(with_system[0].to_dict()) == with_system[0]
