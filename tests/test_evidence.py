"""The evidence tables: built from the study's files, verified by checksum, read back as frames.

Numbers are checked two ways: against the study's own files (read only when a developer names
their folder in ``TOOLFORM_STUDY_DIR``; the tests never look for it) and, for a handful of
headline figures, against the values the issue quotes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest

import toolform.evidence as evidence_pkg
from toolform.errors import EvidenceError
from toolform.evidence import EvidenceTable, evidence_tables, load_evidence
from toolform.evidence import build

#: The study's own files are not the project's: the checks of the build against them run only
#: when a developer names the folder (``TOOLFORM_STUDY_DIR=../shared/study``), never by default.
STUDY = Path(os.environ.get("TOOLFORM_STUDY_DIR", "")) if os.environ.get("TOOLFORM_STUDY_DIR") \
    else None
needs_study = pytest.mark.skipif(
    STUDY is None or not STUDY.is_dir(),
    reason="checks the build against the study's files: set TOOLFORM_STUDY_DIR to that folder")


def study_copy(tmp_path: Path) -> Path:
    """A writable copy of the study folder (the original is read-only)."""
    copy = tmp_path / "study"
    shutil.copytree(STUDY, copy)
    copy.chmod(0o755)
    for path in copy.iterdir():
        path.chmod(0o644)
    return copy


def study(name: str) -> dict:
    return json.loads((STUDY / f"{name}.json").read_text("utf-8"))


def rows(table_id: str, **key) -> pd.DataFrame:
    frame = load_evidence(table_id).frame()
    for column, value in key.items():
        frame = frame[frame[column] == value]
    return frame


def one(table_id: str, column: str, **key):
    hit = rows(table_id, **key)
    assert len(hit) == 1, (table_id, key, len(hit))
    return hit[column].iloc[0]


# -- the package and the manifest -----------------------------------------------------------------

def test_all_is_sorted_and_public() -> None:
    assert evidence_pkg.__all__ == sorted(evidence_pkg.__all__)
    for name in evidence_pkg.__all__:
        assert hasattr(evidence_pkg, name)


def test_every_listed_table_loads_with_declared_columns() -> None:
    listing = evidence_tables()
    assert list(listing.columns) == ["id", "title", "source", "n_rows"]
    assert len(listing) >= 30
    for entry in listing.itertuples():
        table = load_evidence(entry.id)
        frame = table.frame()
        assert frame.shape == (entry.n_rows, len(table.columns))
        assert list(frame.columns) == [c.name for c in table.columns]
        assert table.source and all(":" in s for s in table.source)
        for c in table.columns:
            assert re.fullmatch(r"[a-z][a-z0-9_]*", c.name), c.name
            assert c.dtype in build.DTYPES and c.unit in build.UNITS and c.meaning


def test_required_tables_exist() -> None:
    ids = set(evidence_tables()["id"])
    for needed in ("headline_facts", "formats", "protocols", "main_grid", "protocol_crossing",
                   "tool_count", "tiers", "disclosure", "selection", "ladder", "injection",
                   "cost", "cost_frontier", "family_accuracy", "anchor_accuracy",
                   "checkpoint_accuracy", "zoo_models", "zoo_patterns", "surface_fits"):
        assert needed in ids


def test_manifest_checksums_match_files() -> None:
    root = Path(evidence_pkg.__file__).parent
    manifest = json.loads((root / "manifest.json").read_text("utf-8"))
    for entry in manifest["tables"]:
        raw = (root / entry["path"]).read_bytes()
        assert hashlib.sha256(raw).hexdigest() == entry["sha256"]
        assert json.loads(raw)["id"] == entry["id"]


def test_frame_dtypes_follow_declarations() -> None:
    frame = load_evidence("main_grid").frame()
    assert frame["accuracy"].dtype == "float64"
    assert frame["rank"].dtype == "int64"
    assert pd.api.types.is_string_dtype(frame["format_id"])
    formats = load_evidence("formats").frame()
    assert formats["core"].dtype == bool
    assert str(formats["n_cells"].dtype) == "Int64"  # null for the two-stage variants
    assert isinstance(formats["tags"].iloc[0], list)


def test_table_is_frozen_and_frames_are_copies() -> None:
    table = load_evidence("ladder")
    with pytest.raises(dataclasses.FrozenInstanceError):
        table.title = "changed"  # type: ignore[misc]
    with pytest.raises(TypeError):
        table.rows[0]["accuracy"] = 0.0  # type: ignore[index]
    with pytest.raises(TypeError):
        table.conditions["rule"] = "other"  # type: ignore[index]
    frame = table.frame()
    frame.loc[0, "accuracy"] = -1.0
    assert table.frame().loc[0, "accuracy"] != -1.0
    assert isinstance(table, EvidenceTable)
    assert table.column("accuracy").unit == "percent"
    with pytest.raises(KeyError, match="no column 'nope'"):
        table.column("nope")


# -- errors ---------------------------------------------------------------------------------------

@pytest.fixture()
def evidence_copy(tmp_path: Path) -> Path:
    root = Path(evidence_pkg.__file__).parent
    shutil.copytree(root / "tables", tmp_path / "tables")
    shutil.copy(root / "manifest.json", tmp_path / "manifest.json")
    return tmp_path


def test_altered_table_raises_naming_it(evidence_copy: Path) -> None:
    assert len(load_evidence("main_grid", root=evidence_copy)) == 24
    path = evidence_copy / "tables" / "main_grid.json"
    text = path.read_text("utf-8")
    path.write_text(text.replace('"accuracy": 67.52', '"accuracy": 77.52', 1), "utf-8")
    assert path.read_text("utf-8") != text
    with pytest.raises(EvidenceError, match=r"'main_grid' was altered"):
        load_evidence("main_grid", root=evidence_copy)


def test_missing_table_raises_naming_it(evidence_copy: Path) -> None:
    (evidence_copy / "tables" / "ladder.json").unlink()
    with pytest.raises(EvidenceError, match=r"'ladder' is missing"):
        load_evidence("ladder", root=evidence_copy)


def test_unknown_table_names_closest() -> None:
    with pytest.raises(EvidenceError, match=r"closest: main_grid"):
        load_evidence("main_gird")


def test_missing_manifest_raises(tmp_path: Path) -> None:
    with pytest.raises(EvidenceError, match="manifest"):
        load_evidence("main_grid", root=tmp_path)
    with pytest.raises(EvidenceError, match="manifest"):
        evidence_tables(root=tmp_path)


# -- the build ------------------------------------------------------------------------------------

@needs_study
def test_rebuild_reproduces_the_committed_tables(tmp_path: Path) -> None:
    assert build.main(["--study-dir", str(STUDY), "--out", str(tmp_path)]) == 0
    root = Path(evidence_pkg.__file__).parent
    assert (tmp_path / "manifest.json").read_bytes() == (root / "manifest.json").read_bytes()
    built = sorted(p.name for p in (tmp_path / "tables").glob("*.json"))
    assert built == sorted(p.name for p in (root / "tables").glob("*.json"))
    for name in built:
        assert (tmp_path / "tables" / name).read_bytes() == (root / "tables" / name).read_bytes()


@needs_study
def test_build_removes_stale_tables(tmp_path: Path) -> None:
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "old_table.json").write_text("{}", "utf-8")
    build.write(STUDY, tmp_path)
    assert not (tmp_path / "tables" / "old_table.json").exists()


@needs_study
def test_build_rejects_a_study_file_that_differs_from_the_study_manifest(tmp_path: Path) -> None:
    copy = study_copy(tmp_path)
    data = json.loads((copy / "ladder.json").read_text("utf-8"))
    data["data"]["rungs"][0]["accuracy"] += 1
    (copy / "ladder.json").write_text(json.dumps(data), "utf-8")
    with pytest.raises(EvidenceError, match=r"ladder\.json does not match"):
        build.build_tables(copy)
    assert build.main(["--study-dir", str(copy), "--out", str(tmp_path / "out")]) == 1


@needs_study
def test_build_rejects_a_fact_it_has_no_words_for(tmp_path: Path) -> None:
    copy = study_copy(tmp_path)
    (copy / "manifest.json").unlink()
    data = json.loads((copy / "facts.json").read_text("utf-8"))
    data["data"].append({**data["data"][0], "id": "brand_new_fact"})
    (copy / "facts.json").write_text(json.dumps(data), "utf-8")
    with pytest.raises(EvidenceError, match="brand_new_fact"):
        build.build_tables(copy)


def test_build_rejects_a_missing_study_folder(tmp_path: Path) -> None:
    with pytest.raises(EvidenceError, match="does not exist"):
        build.build_tables(tmp_path / "nowhere")


def test_tier_definitions_are_parsed() -> None:
    assert build._parse_tier("simple: up to 4 parameters, flat, 1 enum, up to 1 optional") == {
        "name": "simple", "max_params": 4, "max_nesting": 0, "enums": 1, "unions": 0,
        "arrays": 0, "max_optional": 1}
    with pytest.raises(EvidenceError, match="not understood"):
        build._parse_tier("odd: up to 4 parameters, two hats")


# -- numbers: our tables against the study's files ------------------------------------------------

@needs_study
def test_facts_match_the_study() -> None:
    table = load_evidence("headline_facts").frame().set_index("fact_id")
    for fact in study("facts")["data"]:
        assert table.loc[fact["id"], "value"] == fact["value"]
        if fact["interval"]:
            assert [table.loc[fact["id"], "low"], table.loc[fact["id"], "high"]] == \
                fact["interval"]
        assert table.loc[fact["id"], "source"] == fact["source"]


@needs_study
def test_formats_match_the_registry_facts() -> None:
    src = study("formats")["data"]
    frame = load_evidence("formats").frame().set_index("format_id")
    assert set(frame.index) == set(src)
    for fid, f in src.items():
        assert frame.loc[fid, "family"] == f["family"]
        assert frame.loc[fid, "default_protocol"] == f["default_protocol"]
        assert bool(frame.loc[fid, "core"]) == f["core"]
        assert bool(frame.loc[fid, "supports_nesting"]) == f["supports_nesting"]
        if f["measured"]:
            assert frame.loc[fid, "call_exact"] == f["measured"]["call_exact"]
            assert frame.loc[fid, "n_cells"] == f["measured"]["n_cells"]
    assert int(frame["in_study"].sum()) == one("headline_facts", "value", fact_id="n_formats")


@needs_study
def test_protocols_match_the_registry() -> None:
    src = study("protocols")["data"]
    frame = load_evidence("protocols").frame().set_index("protocol_id")
    assert len(frame) == one("headline_facts", "value", fact_id="n_protocols") == len(src)
    for pid, p in src.items():
        assert bool(frame.loc[pid, "in_crossing"]) == p["in_crossing"]


@needs_study
def test_main_grid_matches_the_study() -> None:
    core = study("core_main")["data"]
    for rule, by_format in core["by_rule"].items():
        for fid, value in by_format.items():
            assert one("main_grid", "accuracy", format_id=fid, rule=rule) == value
    for r in core["rows"]:
        assert one("main_grid", "minus_json", format_id=r["format_id"], rule="as_written") == \
            r["minus_json_as_written"]["value"]
        assert one("real_tools", "accuracy", format_id=r["format_id"]) == r["real_accuracy"]
    assert load_evidence("main_grid").conditions["n_tools"] == study("core_main")["conditions"][
        "n_tools"]


@needs_study
def test_crossing_and_counts_match_the_study() -> None:
    cross = study("protocol_crossing")["data"]
    for rule, block in cross["rules"].items():
        for fid, cells in block["cells"].items():
            for pid, value in cells.items():
                assert one("protocol_crossing", "accuracy", format_id=fid, protocol_id=pid,
                           rule=rule) == value
    count = study("tool_count")["data"]
    for fid, series in count["accuracy"].items():
        for n, value, empty in zip(count["counts"], series, count["empty"][fid]):
            assert one("tool_count", "accuracy", format_id=fid, n_tools=n) == value
            assert one("tool_count", "empty", format_id=fid, n_tools=n) == empty
    for point in count["overall"]:
        assert one("tool_count_pooled", "value", n_tools=point["n_tools"],
                   reading="strict") == point["strict"]


@needs_study
def test_other_tables_match_the_study() -> None:
    sel = study("selection")["data"]
    for procedure, value in sel["mean"].items():
        if procedure != "conditions":
            assert one("selection", "accuracy", scope="mean", procedure=procedure) == value
    for r in study("disclosure")["data"]["second_design"]:
        assert one("disclosure", "gain", n_tools=r["n_tools"], arm=r["arm"]) == \
            r["minus_json"]["value"]
    for r in study("injection")["data"]["formats"]:
        assert one("injection", "followed", format_id=r["format_id"], exposure="standard") == \
            r["hijack"]
    for c in study("families")["data"]["checkpoints"]:
        for fid, value in c["accuracy"].items():
            assert one("checkpoint_accuracy", "accuracy", checkpoint_id=c["id"],
                       format_id=fid) == value
    tiers = study("tiers")["data"]
    for fid, series in tiers["accuracy"].items():
        for tier, value in zip(tiers["tiers"], series):
            assert one("tiers", "accuracy", format_id=fid, tier=tier) == value
    zoo = study("zoo")["data"]
    patterns = load_evidence("zoo_patterns").frame()
    assert list(zip(patterns["pattern"], patterns["family"])) == [tuple(p) for p in
                                                                  zoo["patterns"]]
    frontier = {r["format_id"] for r in study("cost")["data"]["frontier"]}
    cost = load_evidence("cost_frontier").frame()
    assert set(cost[cost["on_frontier"]]["format_id"]) == frontier


# -- a handful of headline numbers, as the issue quotes them --------------------------------------

def test_headline_numbers_the_issue_quotes() -> None:
    strict = rows("tool_count_pooled", reading="strict").set_index("n_tools")["value"]
    assert (strict[1], strict[256]) == (64.20, 23.19)
    assert round(strict[1] - strict[256], 2) == 41.01
    assert one("tool_count_pooled", "value", n_tools=256, reading="empty") == 40.77
    retrieval = load_evidence("retrieval_baseline").frame()
    assert retrieval[retrieval["method"] == "none"]["accuracy"].item() == 12.70
    top8 = retrieval[retrieval["top_k"] == 8].set_index("method")["accuracy"]
    assert (top8["bm25"], top8["embedding"]) == (31.19, 31.79)
    assert one("disclosure", "gain", n_tools=256, arm="names") == 18.97
    names_desc = rows("disclosure", n_tools=256, arm="names_desc").iloc[0]
    assert (names_desc["gain"], names_desc["gain_low"], names_desc["gain_high"]) == \
        (26.72, 18.32, 34.98)
    names4 = rows("disclosure", n_tools=4, arm="names").iloc[0]
    assert (names4["gain"], names4["gain_low"], names4["gain_high"]) == (-6.66, -9.66, -3.90)
    xml = rows("main_grid", format_id="xml_schema").set_index("rule")["minus_json"]
    assert (xml["main"], xml["symmetric"], xml["as_written"]) == (13.80, 1.07, -3.28)
    mean = rows("selection", scope="mean").set_index("procedure")["accuracy"]
    assert [mean[p] for p in ("measure_eight", "fitted_rule", "always_xml", "lookup",
                              "always_json")] == [69.18, 64.35, 65.02, 65.85, 57.97]
    shown = rows("injection", exposure="standard", shows_descriptions=True)["followed"]
    assert (shown.min(), shown.max()) == (38.48, 54.16)


def test_units_are_explicit() -> None:
    assert load_evidence("cost").column("accuracy_per_1k_tokens").unit == \
        "proportion_per_1k_tokens"
    assert load_evidence("disclosure").column("gain").unit == "percentage_points"
    assert load_evidence("disclosure").column("selection_tokens").unit == "tokens"
    assert one("headline_facts", "unit", fact_id="tool_count_cost") == "percentage_points"
    assert one("headline_facts", "unit", fact_id="tools_256") == "percent"
