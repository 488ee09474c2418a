"""Build ToolForm's evidence tables from the study's files.

Run it as ``python -m toolform.evidence.build [--study-dir DIR] [--out DIR]``. It reads the
study's JSON files (by default ``../shared/study`` next to the repository), checks them against
the study's own manifest, and writes one JSON table per finding under ``tables/`` plus
``manifest.json`` with a SHA-256 per table. Every number in a table is read from a study file;
the wording (titles, column meanings, fact statements) is ToolForm's own.

A table is ``{"id", "title", "source", "conditions", "columns", "rows"}``: ``source`` lists the
study tables the rows come from (``paper:tab_count``, ...), ``conditions`` the settings shared by
every row (tool count, tier, rule, checkpoints, seeds), ``columns`` declares each column's name,
dtype, unit and meaning, and ``rows`` holds long-form records (one observation per row).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from toolform.errors import EvidenceError

PACKAGE_DIR = Path(__file__).resolve().parent
#: The study's folder as it sits beside the repository (``<repo>/../shared/study``).
DEFAULT_STUDY_DIR = PACKAGE_DIR.parent.parent / "shared" / "study"

#: Units a column may declare. ``percentage_points`` is a difference of two percents.
UNITS = (None, "percent", "percentage_points", "proportion", "tokens", "count", "ratio", "r2",
         "usd_per_million_tokens", "correct_calls_per_usd", "proportion_per_1k_tokens",
         "billions_of_parameters", "log_odds", "index")
DTYPES = ("string", "int", "float", "bool", "list[string]")

_PYTHON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,), "int": (int,), "float": (int, float), "bool": (bool,),
    "list[string]": (list,),
}

# Our statement and unit for every headline fact of ``facts.json``. The study's ``%`` covers both
# levels and differences; a difference of two percents is ``percentage_points`` here.
_FACTS: dict[str, tuple[str, str]] = {
    "n_formats": ("count", "Schema formats compared"),
    "n_protocols": ("count", "Answer protocols compared"),
    "n_rules": ("count", "Grading rules every result is read under"),
    "n_open_models": ("count", "Open-weight models evaluated"),
    "n_proprietary_models": ("count", "Proprietary models evaluated"),
    "n_domains": ("count", "Generated tool domains, each with executable tools"),
    "n_real_tools": ("count", "Real-world tool schemas in the real-tool arm"),
    "n_real_requests": ("count", "Requests written by people for the real-tool arm"),
    "n_public_benchmarks": ("count", "Public benchmarks the study compares against"),
    "schema_over_names": ("percentage_points",
                          "Accuracy gained by showing the full schema instead of tool names alone"),
    "ladder_names": ("percent", "Schema ladder, rung 1: tool names only"),
    "ladder_param_names": ("percent", "Schema ladder, rung 2: tool and parameter names"),
    "ladder_types": ("percent", "Schema ladder, rung 3: the minimal schema without prose"),
    "ladder_full": ("percent", "Schema ladder, rung 4: the full JSON Schema with descriptions"),
    "minimal_schema_cost": ("percentage_points",
                            "Full JSON Schema minus the minimal schema on the main grid"),
    "xml_minus_json_main": ("percentage_points", "XML schema minus JSON Schema, main rule"),
    "xml_minus_json_symmetric": ("percentage_points",
                                 "XML schema minus JSON Schema, symmetric rule"),
    "xml_minus_json_as_written": ("percentage_points",
                                  "XML schema minus JSON Schema, as-written rule"),
    "protocol_ratio_main": ("ratio", "Protocol spread over format spread, main rule"),
    "protocol_ratio_symmetric": ("ratio", "Protocol spread over format spread, symmetric rule"),
    "protocol_ratio_as_written": ("ratio", "Protocol spread over format spread, as-written rule"),
    "grammar_hallucinated_free": ("percent", "Calls to a tool that does not exist, free decoding"),
    "grammar_hallucinated_fixed": ("percent",
                                   "Calls to a tool that does not exist, grammar-held decoding"),
    "injection_min": ("percent", "Planted instruction followed: least affected format that shows "
                                 "descriptions"),
    "injection_max": ("percent", "Planted instruction followed: most affected format that shows "
                                 "descriptions"),
    "injection_decoy_min": ("percent", "Decoy tool called: least affected format"),
    "injection_decoy_max": ("percent", "Decoy tool called: most affected format"),
    "trust_line_sentinel": ("percentage_points",
                            "Change in planted-instruction following when a trust sentence is "
                            "added, sentinel payload"),
    "trust_line_valid": ("percentage_points",
                         "Change in planted-instruction following when a trust sentence is added, "
                         "schema-valid payload"),
    "hijack_schema_valid": ("percent",
                            "Followed hijacks whose call still passes schema validation"),
    "descriptions_off_min": ("percentage_points",
                             "Accuracy change from removing descriptions, low end of the reported "
                             "range"),
    "descriptions_off_max": ("percentage_points",
                             "Accuracy change from removing descriptions, high end of the reported "
                             "range"),
    "descriptions_off_python_stub": ("percentage_points",
                                     "Accuracy change when the Python stub loses its docstrings"),
    "tools_1": ("percent", "Strict-call accuracy with one tool in the prompt"),
    "tools_256": ("percent", "Strict-call accuracy with 256 tools in the prompt"),
    "tool_count_cost": ("percentage_points", "Accuracy lost between 1 and 256 tools"),
    "empty_at_256": ("percent", "Turns with no answer at all at 256 tools"),
    "two_stage_256_names": ("percentage_points",
                            "Two-stage disclosure, names first, minus one shot at 256 tools"),
    "two_stage_256_names_desc": ("percentage_points",
                                 "Two-stage disclosure, names with descriptions first, minus one "
                                 "shot at 256 tools"),
    "two_stage_4_names": ("percentage_points",
                          "Two-stage disclosure, names first, minus one shot at 4 tools"),
    "retrieval_whole_128": ("percent", "A 128-tool panel shown in full"),
    "retrieval_top8_bm25": ("percent", "Only the 8 best BM25 matches of the 128-tool panel shown"),
    "retrieval_top8_embed": ("percent",
                             "Only the 8 best embedding matches of the 128-tool panel shown"),
    "renest_overcredit": ("percent", "Re-nesting repairs that a human check judged wrong"),
    "measure_eight": ("percent",
                      "Selection: measure eight cells on the target model, keep the best"),
    "fitted_rule": ("percent", "Selection: the fitted rule"),
    "always_json": ("percent", "Selection: always JSON Schema"),
    "always_xml": ("percent", "Selection: always the XML schema"),
    "lookup_count_tier": ("percent",
                          "Selection: best format per tool count and tier, from a lookup"),
    "oracle": ("percent", "Selection: best format per condition in hindsight (upper bound)"),
    "measure_eight_requests": ("count", "Requests needed to measure the eight cells"),
    "surface_heldout_r2": ("r2", "Fitted accuracy surface, R squared on held-out families"),
    "natural_language_minus_best": ("percentage_points",
                                    "Natural-language format minus the best structured format"),
    "anchor_spread_median": ("percentage_points",
                             "Median anchor model: best minus worst of the eight formats"),
    "open_spread_median": ("percentage_points",
                           "Median open checkpoint: best minus worst of the eight formats"),
}
_FACT_UNITS = {"count": ("count",), "%": ("percent", "percentage_points"), "ratio": ("ratio",),
               "R2": ("r2",)}

# What each rung of the schema ladder shows, keyed by the rung's format id.
_LADDER_SHOWS = {
    "names_only": "tool names only",
    "json_names_params": "tool names and parameter names",
    "json_minimal": "the minimal schema: types, enums, nesting, no prose",
    "json_schema_openai": "the full JSON Schema, descriptions included",
}

# The pooled tool-count sweep's readings, by the study's key.
_READINGS = {
    "strict": "strict call accuracy (main rule)",
    "symmetric": "call accuracy under the symmetric rule",
    "exact_tool": "the right tool was called, arguments aside",
    "twin": "a near-duplicate (twin) tool was called instead",
    "behavioural": "the call behaves like the gold call when executed",
    "end_state": "the executed end state matches the gold one",
    "empty": "no call and no answer",
}

# Paired contrasts against JSON Schema that the study states in its text (facts.json) rather
# than in the main table: (format, rule) -> fact id. Where both exist they must agree.
_TEXT_CONTRASTS = {
    ("xml_schema", "main"): "xml_minus_json_main",
    ("xml_schema", "symmetric"): "xml_minus_json_symmetric",
    ("xml_schema", "as_written"): "xml_minus_json_as_written",
}

_SELECTION_PROCEDURES = ("always_json", "always_xml", "lookup", "measure_eight", "fitted_rule",
                         "oracle")


# -- small helpers --------------------------------------------------------------------------------

def col(name: str, dtype: str, unit: str | None, meaning: str) -> dict[str, Any]:
    """A column declaration."""
    return {"name": name, "dtype": dtype, "unit": unit, "meaning": meaning}


def _interval(obj: Mapping[str, Any] | None) -> tuple[float | None, float | None, float | None]:
    """``{"value", "interval": [lo, hi]}`` → ``(value, lo, hi)`` (Nones where absent)."""
    if obj is None:
        return None, None, None
    iv = obj.get("interval") or (None, None)
    return obj.get("value"), iv[0], iv[1]


def _conditions(raw: Mapping[str, Any], **extra: Any) -> dict[str, Any]:
    """The study's conditions under our names (``checkpoints`` → ``n_checkpoints``)."""
    names = {"checkpoints": "n_checkpoints"}
    out = {names.get(k, k): v for k, v in raw.items()}
    out.update(extra)
    return out


class _Study:
    """The study's files, read once and checked against the study's own manifest."""

    def __init__(self, study_dir: Path) -> None:
        if not study_dir.is_dir():
            raise EvidenceError(f"study folder {study_dir} does not exist; pass --study-dir")
        self.dir = study_dir
        self.inputs: dict[str, str] = {}
        manifest_path = study_dir / "manifest.json"
        self.manifest = (json.loads(manifest_path.read_text("utf-8"))
                         if manifest_path.exists() else {})
        self._expected = {f["path"]: f["sha256"] for f in self.manifest.get("files", [])}
        self._cache: dict[str, dict[str, Any]] = {}

    def __getitem__(self, name: str) -> dict[str, Any]:
        if name not in self._cache:
            path = self.dir / f"{name}.json"
            if not path.exists():
                raise EvidenceError(f"study file {path} is missing")
            raw = path.read_bytes()
            digest = hashlib.sha256(raw).hexdigest()
            expected = self._expected.get(path.name)
            if expected is not None and expected != digest:
                raise EvidenceError(f"study file {path} does not match the study's manifest "
                                    f"(sha256 {digest}, expected {expected})")
            self.inputs[path.name] = digest
            self._cache[name] = json.loads(raw)
        return self._cache[name]


# -- the tables -----------------------------------------------------------------------------------

def _headline_facts(s: _Study) -> dict[str, Any]:
    facts = s["facts"]
    rows = []
    for fact in facts["data"]:
        if fact["id"] not in _FACTS:
            raise EvidenceError(f"facts.json: fact {fact['id']!r} has no statement in the build")
        unit, statement = _FACTS[fact["id"]]
        if unit not in _FACT_UNITS.get(fact["unit"], ()):
            raise EvidenceError(f"facts.json: fact {fact['id']!r} has unit {fact['unit']!r}, "
                                f"which cannot be read as {unit!r}")
        low, high = fact["interval"] or (None, None)
        rows.append({"fact_id": fact["id"], "value": fact["value"], "low": low, "high": high,
                     "unit": unit, "statement": statement, "source": fact["source"]})
    return {
        "id": "headline_facts", "title": "The study's headline figures",
        "source": sorted({r["source"] for r in rows}), "conditions": {},
        "columns": [
            col("fact_id", "string", None, "stable id of the fact"),
            col("value", "float", None, "the figure, in the row's unit"),
            col("low", "float", None, "lower end of its 95% interval, when the study gives one"),
            col("high", "float", None, "upper end of its 95% interval, when the study gives one"),
            col("unit", "string", None, "count, percent, percentage_points, ratio or r2"),
            col("statement", "string", None, "what the figure measures"),
            col("source", "string", None, "the study table or section it comes from"),
        ],
        "rows": rows,
    }


def _formats(s: _Study) -> dict[str, Any]:
    data = s["formats"]
    measured_cols = ("call_exact", "tool_correct", "schema_valid", "parse_strict",
                     "format_compliant")
    rows = []
    for fid, f in data["data"].items():
        m = f["measured"] or {}
        row = {"format_id": fid, "family": f["family"], "default_protocol": f["default_protocol"],
               "core": f["core"], "novel": f["novel"], "two_stage": f["two_stage"],
               "in_study": f["in_study"], "real_world_origin": f["real_world_origin"] or None}
        for flag in ("supports_nesting", "supports_enum", "supports_constraints",
                     "supports_optional", "supports_returns", "lossy", "compressed"):
            row[flag] = f[flag]
        row["tags"] = list(f["tags"])
        for key in measured_cols:
            row[key] = m.get(key)
        row["mean_schema_tokens"] = m.get("mean_schema_tokens")
        row["export_accuracy_per_1k_tokens"] = m.get("acc_per_1k_tokens")
        row["n_cells"] = m.get("n_cells")
        row["measured_as_of"] = m.get("as_of")
        rows.append(row)
    pooled = "pooled over every cell the format ran in (site export); null for two-stage variants"
    return {
        "id": "formats", "title": "Every schema format: registry facts and its measured row",
        "source": data["source"], "conditions": {"measured_over": "every cell the format ran in"},
        "columns": [
            col("format_id", "string", None, "the format's registry id"),
            col("family", "string", None, "the family of formats it belongs to"),
            col("default_protocol", "string", None, "the protocol it is paired with by default"),
            col("core", "bool", None, "one of the eight core formats of the main grid"),
            col("novel", "bool", None, "invented for the study rather than taken from practice"),
            col("two_stage", "bool", None, "a two-stage disclosure variant"),
            col("in_study", "bool", None, "counted among the study's schema formats"),
            col("real_world_origin", "string", None, "where the format is used in practice"),
            col("supports_nesting", "bool", None, "can show nested objects"),
            col("supports_enum", "bool", None, "can show enumerations"),
            col("supports_constraints", "bool", None, "can show value constraints"),
            col("supports_optional", "bool", None, "can mark parameters optional"),
            col("supports_returns", "bool", None, "can show return types"),
            col("lossy", "bool", None, "drops some schema information"),
            col("compressed", "bool", None, "a deliberately compressed rendering"),
            col("tags", "list[string]", None, "labels such as ablation or ladder"),
            col("call_exact", "float", "percent", f"strict-call accuracy, {pooled}"),
            col("tool_correct", "float", "percent", f"right tool called, {pooled}"),
            col("schema_valid", "float", "percent", f"arguments pass the schema, {pooled}"),
            col("parse_strict", "float", "percent", f"reply parses without repair, {pooled}"),
            col("format_compliant", "float", "percent", f"reply follows the protocol, {pooled}"),
            col("mean_schema_tokens", "float", "tokens", f"mean tool-block size, {pooled}"),
            col("export_accuracy_per_1k_tokens", "float", "proportion_per_1k_tokens",
                "accuracy per 1,000 tokens as the site export defines it"),
            col("n_cells", "int", "count", "cells the measured row pools"),
            col("measured_as_of", "string", None, "date of the site export"),
        ],
        "rows": rows,
    }


def _protocols(s: _Study) -> dict[str, Any]:
    data = s["protocols"]
    rows = [{"protocol_id": pid, "novel": p["novel"],
             "real_world_origin": p["real_world_origin"] or None,
             "supports_parallel": p["supports_parallel"], "structured": p["structured"],
             "in_crossing": p["in_crossing"], "tags": list(p["tags"])}
            for pid, p in data["data"].items()]
    return {
        "id": "protocols", "title": "Every answer protocol: registry facts",
        "source": data["source"], "conditions": {},
        "columns": [
            col("protocol_id", "string", None, "the protocol's registry id"),
            col("novel", "bool", None, "invented for the study rather than taken from practice"),
            col("real_world_origin", "string", None, "where the protocol is used in practice"),
            col("supports_parallel", "bool", None, "can carry several calls in one reply"),
            col("structured", "bool", None, "a machine-readable call shape (not free prose)"),
            col("in_crossing", "bool", None, "one of the five protocols of the format x protocol "
                                            "crossing"),
            col("tags", "list[string]", None, "registry labels"),
        ],
        "rows": rows,
    }


def _main_grid(s: _Study) -> dict[str, Any]:
    core = s["core_main"]
    facts = {f["id"]: f for f in s["facts"]["data"]}
    rules = list(core["data"]["by_rule"])
    rows = []
    for r in core["data"]["rows"]:
        for rule in rules:
            value, low, high = _interval(r.get(f"minus_json_{rule}"))
            fact = facts.get(_TEXT_CONTRASTS.get((r["format_id"], rule), ""))
            if fact is not None:
                if value is None:
                    value = fact["value"]
                    low, high = fact["interval"] or (None, None)
                elif (value, [low, high]) != (fact["value"], fact["interval"]):
                    raise EvidenceError(f"core_main.json: {r['format_id']} minus JSON under {rule} "
                                        "disagrees with facts.json")
            rows.append({"format_id": r["format_id"], "protocol_id": r["protocol_id"],
                         "rule": rule, "accuracy": core["data"]["by_rule"][rule][r["format_id"]],
                         "rank": r[f"rank_{rule}"], "minus_json": value,
                         "minus_json_low": low, "minus_json_high": high})
    return {
        "id": "main_grid",
        "title": "The main grid: eight core formats under the three grading rules",
        "source": core["source"] + ["paper:sec_results"],
        "conditions": _conditions(core["conditions"]),
        "columns": [
            col("format_id", "string", None, "core schema format"),
            col("protocol_id", "string", None, "the answer protocol it was paired with"),
            col("rule", "string", None, "grading rule: main, symmetric or as_written"),
            col("accuracy", "float", "percent", "strict-call accuracy under the rule"),
            col("rank", "int", None, "rank of the format under the rule (1 is best)"),
            col("minus_json", "float", "percentage_points",
                "paired contrast against JSON Schema under the rule; null where not reported"),
            col("minus_json_low", "float", "percentage_points", "lower end of its 95% interval"),
            col("minus_json_high", "float", "percentage_points", "upper end of its 95% interval"),
        ],
        "rows": rows,
    }


def _real_tools(s: _Study) -> dict[str, Any]:
    core = s["core_main"]
    rows = []
    for r in core["data"]["rows"]:
        value, low, high = _interval(r["real_minus_json"])
        rows.append({"format_id": r["format_id"], "protocol_id": r["protocol_id"],
                     "accuracy": r["real_accuracy"], "minus_json": value,
                     "minus_json_low": low, "minus_json_high": high})
    return {
        "id": "real_tools", "title": "The core formats on real tool schemas and human requests",
        "source": core["source"], "conditions": _conditions(core["conditions"], arm="real tools"),
        "columns": [
            col("format_id", "string", None, "core schema format"),
            col("protocol_id", "string", None, "the answer protocol it was paired with"),
            col("accuracy", "float", "percent", "call accuracy on the real-tool arm"),
            col("minus_json", "float", "percentage_points", "paired contrast against JSON Schema"),
            col("minus_json_low", "float", "percentage_points", "lower end of its 95% interval"),
            col("minus_json_high", "float", "percentage_points", "upper end of its 95% interval"),
        ],
        "rows": rows,
    }


def _protocol_crossing(s: _Study) -> list[dict[str, Any]]:
    cross = s["protocol_crossing"]
    facts = {f["id"]: f for f in s["facts"]["data"]}
    cond = _conditions(cross["conditions"], n_cells=cross["data"]["cells"])
    cells, margins, spread = [], [], []
    for rule, block in cross["data"]["rules"].items():
        for fid, by_protocol in block["cells"].items():
            for pid in cross["data"]["protocols"]:
                cells.append({"format_id": fid, "protocol_id": pid, "rule": rule,
                              "accuracy": by_protocol[pid]})
        for margin, key in (("format", "row_mean"), ("protocol", "col_mean")):
            for item, value in block[key].items():
                margins.append({"rule": rule, "margin": margin, "id": item, "mean_accuracy": value})
        fact = facts[f"protocol_ratio_{rule}"]
        if fact["value"] != cross["data"]["ratios"][rule]:
            raise EvidenceError(f"protocol_crossing.json: ratio for {rule} disagrees with "
                                "facts.json")
        low, high = fact["interval"] or (None, None)
        spread.append({"rule": rule, "ratio": cross["data"]["ratios"][rule], "low": low,
                       "high": high})
    return [
        {"id": "protocol_crossing",
         "title": "Each core format with each of the five crossing protocols, under three rules",
         "source": cross["source"], "conditions": cond,
         "columns": [col("format_id", "string", None, "core schema format"),
                     col("protocol_id", "string", None, "answer protocol"),
                     col("rule", "string", None, "grading rule"),
                     col("accuracy", "float", "percent", "strict-call accuracy of the cell")],
         "rows": cells},
        {"id": "protocol_crossing_margins",
         "title": "Mean accuracy of each format and each protocol across the crossing",
         "source": cross["source"], "conditions": cond,
         "columns": [col("rule", "string", None, "grading rule"),
                     col("margin", "string", None, "format (mean over protocols) or protocol "
                                                    "(mean over formats)"),
                     col("id", "string", None, "the format or protocol id"),
                     col("mean_accuracy", "float", "percent", "mean accuracy over the other axis")],
         "rows": margins},
        {"id": "protocol_spread",
         "title": "How much more the protocol matters than the format",
         "source": cross["source"], "conditions": cond,
         "columns": [col("rule", "string", None, "grading rule"),
                     col("ratio", "float", "ratio", "spread across protocols over spread across "
                                                    "formats"),
                     col("low", "float", "ratio", "lower end of its 95% interval"),
                     col("high", "float", "ratio", "upper end of its 95% interval")],
         "rows": spread},
    ]


def _tool_count(s: _Study) -> list[dict[str, Any]]:
    tc = s["tool_count"]
    data = tc["data"]
    per_format = [
        {"format_id": fid, "n_tools": n, "accuracy": acc, "empty": data["empty"][fid][i]}
        for fid, series in data["accuracy"].items() for i, (n, acc) in
        enumerate(zip(data["counts"], series))
    ]
    pooled = []
    for point in data["overall"]:
        for key in _READINGS:
            pooled.append({"n_tools": point["n_tools"], "reading": key, "value": point[key]})
        unknown = set(point) - set(_READINGS) - {"n_tools"}
        if unknown:
            raise EvidenceError(f"tool_count.json: readings {sorted(unknown)} have no meaning in "
                                "the build")
    retrieval = []
    panel = None
    for item in data["retrieval"]:
        whole = re.fullmatch(r"(\d+) shown whole", item["label"])
        top = re.fullmatch(r"top (\d+), (BM25|embedding)", item["label"])
        if whole:
            panel = int(whole.group(1))
            retrieval.append({"method": "none", "top_k": None, "accuracy": item["accuracy"],
                              "gain": None})
        elif top:
            retrieval.append({"method": top.group(2).lower(), "top_k": int(top.group(1)),
                              "accuracy": item["accuracy"], "gain": item["gain"]})
        else:
            raise EvidenceError(f"tool_count.json: retrieval label {item['label']!r} not "
                                "understood")
    cond = _conditions(tc["conditions"])
    readings = "; ".join(f"{k}: {v}" for k, v in _READINGS.items())
    return [
        {"id": "tool_count", "title": "Accuracy and empty turns by tool count, per core format",
         "source": ["paper:tab_count_by_format"], "conditions": cond,
         "columns": [col("format_id", "string", None, "core schema format"),
                     col("n_tools", "int", "count", "tools in the prompt"),
                     col("accuracy", "float", "percent", "strict-call accuracy"),
                     col("empty", "float", "percent", "turns with no answer at all")],
         "rows": per_format},
        {"id": "tool_count_pooled",
         "title": "The pooled tool-count sweep read several ways",
         "source": ["paper:tab_count"], "conditions": cond,
         "columns": [col("n_tools", "int", "count", "tools in the prompt"),
                     col("reading", "string", None, f"how the turns were scored ({readings})"),
                     col("value", "float", "percent", "share of turns under that reading")],
         "rows": pooled},
        {"id": "retrieval_baseline",
         "title": "A large panel shown whole against only its best retrieved tools",
         "source": ["paper:tab_count"], "conditions": _conditions(tc["conditions"],
                                                                   panel_tools=panel),
         "columns": [col("method", "string", None, "retrieval method: none (shown whole), bm25 or "
                                                   "embedding"),
                     col("top_k", "int", "count", "tools kept after retrieval; null when none"),
                     col("accuracy", "float", "percent", "strict-call accuracy"),
                     col("gain", "float", "percentage_points", "gain over the panel shown whole")],
         "rows": retrieval},
    ]


_TIER_PARTS: tuple[tuple[str, str], ...] = (
    (r"up to (\d+) parameters", "max_params"),
    (r"nested (\d+) levels? deep", "max_nesting"),
    (r"(\d+) enums?", "enums"),
    (r"(\d+) unions?", "unions"),
    (r"(\d+) arrays?", "arrays"),
    (r"up to (\d+) optional", "max_optional"),
)


def _parse_tier(text: str) -> dict[str, Any]:
    """``"simple: up to 4 parameters, flat, 1 enum"`` → name and counts (absent counts are 0)."""
    name, _, rest = text.partition(":")
    out: dict[str, Any] = {"name": name.strip(), "max_params": None, "max_nesting": 0, "enums": 0,
                           "unions": 0, "arrays": 0, "max_optional": 0}
    for part in (p.strip() for p in rest.split(",")):
        if part == "flat":
            continue
        for pattern, key in _TIER_PARTS:
            hit = re.fullmatch(pattern, part)
            if hit:
                out[key] = int(hit.group(1))
                break
        else:
            raise EvidenceError(f"tiers.json: tier definition part {part!r} not understood")
    if out["max_params"] is None:
        raise EvidenceError(f"tiers.json: tier definition {text!r} gives no parameter count")
    return out


def _tiers(s: _Study) -> list[dict[str, Any]]:
    t = s["tiers"]
    data = t["data"]
    rows = [{"format_id": fid, "tier": tier, "accuracy": acc, "empty": data["empty"][fid][i]}
            for fid, series in data["accuracy"].items()
            for i, (tier, acc) in enumerate(zip(data["tiers"], series))]
    defs = [{"tier": int(k), **_parse_tier(v)} for k, v in data["definitions"].items()]
    return [
        {"id": "tiers", "title": "Accuracy and empty turns by complexity tier, per core format",
         "source": t["source"], "conditions": _conditions(t["conditions"]),
         "columns": [col("format_id", "string", None, "core schema format"),
                     col("tier", "int", None, "complexity tier, 1 (minimal) to 5 (extreme)"),
                     col("accuracy", "float", "percent", "strict-call accuracy"),
                     col("empty", "float", "percent", "turns with no answer at all")],
         "rows": rows},
        {"id": "tier_definitions", "title": "What each complexity tier allows in a tool",
         "source": t["source"], "conditions": {},
         "columns": [col("tier", "int", None, "complexity tier"),
                     col("name", "string", None, "the tier's name"),
                     col("max_params", "int", "count", "most parameters a tool may have"),
                     col("max_nesting", "int", "count", "deepest object nesting (0 is flat)"),
                     col("enums", "int", "count", "enumerated parameters"),
                     col("unions", "int", "count", "union-typed parameters"),
                     col("arrays", "int", "count", "array parameters"),
                     col("max_optional", "int", "count", "most optional parameters")],
         "rows": defs},
    ]


def _disclosure(s: _Study) -> list[dict[str, Any]]:
    d = s["disclosure"]
    rows = []
    for r in d["data"]["second_design"]:
        value, low, high = _interval(r["minus_json"])
        rows.append({"n_tools": r["n_tools"], "arm": r["arm"], "n_checkpoints": r["checkpoints"],
                     "selected": r["selected"], "twin": r["twin"], "failed": r["failed"],
                     "exact_tool": r["exact_tool"], "accuracy": r["call"],
                     "one_shot_accuracy": r["json"], "gain": value, "gain_low": low,
                     "gain_high": high, "selection_tokens": r["selection_tokens"]})
    first = [{"n_tools": r["n_tools"], "accuracy": r["reduced"],
              "accuracy_twin_credited": r["twin_credit"], "one_shot_accuracy": r["json"],
              "gain": r["minus_json"]} for r in d["data"]["first_design"]]
    cond = _conditions(d["conditions"], one_shot_format="json_schema_openai")
    return [
        {"id": "disclosure",
         "title": "Two-stage disclosure against the one-shot JSON Schema block, by tool count",
         "source": d["source"], "conditions": cond,
         "columns": [
             col("n_tools", "int", "count", "tools in the catalogue"),
             col("arm", "string", None, "stage one shows: names, names_desc (names with "
                                        "descriptions) or oracle (the right tool given)"),
             col("n_checkpoints", "int", "count", "checkpoints in the arm"),
             col("selected", "float", "percent", "stage one selected the needed tool"),
             col("twin", "float", "percent", "stage one selected a near-duplicate twin tool"),
             col("failed", "float", "percent", "stage one gave no usable selection"),
             col("exact_tool", "float", "percent", "the final call used the right tool"),
             col("accuracy", "float", "percent", "strict-call accuracy of the two-stage arm"),
             col("one_shot_accuracy", "float", "percent", "strict-call accuracy of the one-shot "
                                                          "JSON Schema block"),
             col("gain", "float", "percentage_points", "two-stage minus one shot (paired)"),
             col("gain_low", "float", "percentage_points", "lower end of its 95% interval"),
             col("gain_high", "float", "percentage_points", "upper end of its 95% interval"),
             col("selection_tokens", "float", "tokens", "mean prompt tokens of stage one"),
         ],
         "rows": rows},
        {"id": "disclosure_first_design",
         "title": "The first two-stage design (a reduced schema) against one shot",
         "source": d["source"], "conditions": cond,
         "columns": [
             col("n_tools", "int", "count", "tools in the catalogue"),
             col("accuracy", "float", "percent", "strict-call accuracy of the two-stage design"),
             col("accuracy_twin_credited", "float", "percent",
                 "the same, crediting a call to a near-duplicate twin tool"),
             col("one_shot_accuracy", "float", "percent", "the one-shot JSON Schema block"),
             col("gain", "float", "percentage_points", "two-stage minus one shot"),
         ],
         "rows": first},
    ]


def _selection(s: _Study) -> dict[str, Any]:
    sel = s["selection"]
    rows = []
    entries = [("held_out_family", r["family"], r["family_label"], r) for r in sel["data"]["rows"]]
    entries.append(("mean", None, "mean of the held-out families", sel["data"]["mean"]))
    for scope, family, label, r in entries:
        for procedure in _SELECTION_PROCEDURES:
            rows.append({"scope": scope, "family": family, "family_label": label,
                         "n_conditions": r["conditions"], "procedure": procedure,
                         "accuracy": r[procedure]})
    return {
        "id": "selection",
        "title": "Ways to choose a format, scored with each model family held out",
        "source": sel["source"], "conditions": {"n_cells": sel["data"]["cells"]},
        "columns": [
            col("scope", "string", None, "held_out_family (one family) or mean (over families)"),
            col("family", "string", None, "model family key; null for the mean"),
            col("family_label", "string", None, "display label"),
            col("n_conditions", "int", "count", "conditions (tool count x tier x ...) scored"),
            col("procedure", "string", None, "always_json, always_xml, lookup (best per tool count "
                                             "and tier), measure_eight (measure eight cells on the "
                                             "target), fitted_rule, or oracle (hindsight)"),
            col("accuracy", "float", "percent", "accuracy reached by following the procedure"),
        ],
        "rows": rows,
    }


def _ladder(s: _Study) -> list[dict[str, Any]]:
    lad = s["ladder"]
    data = lad["data"]
    rungs = []
    for i, r in enumerate(data["rungs"], start=1):
        if r["format_id"] not in _LADDER_SHOWS:
            raise EvidenceError(f"ladder.json: rung {r['format_id']!r} has no wording in the build")
        rungs.append({"rung": i, "format_id": r["format_id"],
                      "shows": _LADDER_SHOWS[r["format_id"]], "accuracy": r["accuracy"]})
    components = []
    for r in data["components"]:
        setting = r["setting"]
        if setting not in ("both off", "constraints only", "descriptions only", "both on"):
            raise EvidenceError(f"ladder.json: component setting {setting!r} not understood")
        components.append({"descriptions": setting in ("descriptions only", "both on"),
                           "constraints": setting in ("constraints only", "both on"),
                           "accuracy": r["accuracy"]})
    ablation = [{"format_id": r["format_id"], "descriptions": shown, "accuracy": r[key]}
                for r in data["descriptions_off"] for shown, key in ((True, "with"),
                                                                     (False, "without"))]
    names = []
    for r in data["names_only_by_count"]:
        value, low, high = _interval(r["gap"])
        names.append({"n_tools": r["n_tools"], "n_pairs": r["pairs"],
                      "names_accuracy": r["names_call"], "schema_accuracy": r["json_call"],
                      "gap": value, "gap_low": low, "gap_high": high,
                      "names_tool_correct": r["names_name"], "schema_tool_correct": r["json_name"]})
    cond = _conditions(lad["conditions"])
    return [
        {"id": "ladder", "title": "The schema ladder: from tool names alone to the full schema",
         "source": ["paper:tab_ladder"], "conditions": cond,
         "columns": [col("rung", "int", None, "position on the ladder, 1 shows least"),
                     col("format_id", "string", None, "the format used for the rung"),
                     col("shows", "string", None, "what the model is shown"),
                     col("accuracy", "float", "percent", "strict-call accuracy")],
         "rows": rungs},
        {"id": "ladder_components",
         "title": "Descriptions and constraints switched on and off",
         "source": ["paper:tab_ladder"], "conditions": cond,
         "columns": [col("descriptions", "bool", None, "descriptions shown"),
                     col("constraints", "bool", None, "value constraints shown"),
                     col("accuracy", "float", "percent", "strict-call accuracy")],
         "rows": components},
        {"id": "description_ablation",
         "title": "Each core format with and without its descriptions",
         "source": ["paper:tab_ladder"], "conditions": cond,
         "columns": [col("format_id", "string", None, "core format, or pooled for all of them"),
                     col("descriptions", "bool", None, "descriptions shown"),
                     col("accuracy", "float", "percent", "strict-call accuracy")],
         "rows": ablation},
        {"id": "names_only_by_count",
         "title": "Tool names alone against the full JSON Schema, by tool count",
         "source": ["paper:tab_names_only"],
         "conditions": {k: v for k, v in cond.items() if k != "n_tools"},
         "columns": [col("n_tools", "int", "count", "tools in the prompt"),
                     col("n_pairs", "int", "count", "paired observations"),
                     col("names_accuracy", "float", "percent", "strict-call accuracy, names only"),
                     col("schema_accuracy", "float", "percent",
                         "strict-call accuracy, full schema"),
                     col("gap", "float", "percentage_points", "full schema minus names only"),
                     col("gap_low", "float", "percentage_points", "lower end of its 95% interval"),
                     col("gap_high", "float", "percentage_points", "upper end of its 95% interval"),
                     col("names_tool_correct", "float", "percent", "right tool named, names only"),
                     col("schema_tool_correct", "float", "percent",
                         "right tool named, full schema")],
         "rows": names},
    ]


def _injection(s: _Study) -> list[dict[str, Any]]:
    inj = s["injection"]
    data = inj["data"]
    # the ladder's lower rungs are the formats built without descriptions: nothing to plant in
    no_prose = {r["format_id"] for r in s["ladder"]["data"]["rungs"][:-1]}
    rows = []
    for exposure, block in (("standard", data["formats"]), ("shown_once", data["once"])):
        for r in block:
            value, low, high = _interval(r["minus_nl"])
            rows.append({"format_id": r["format_id"], "exposure": exposure,
                         "shows_descriptions": r["format_id"] not in no_prose,
                         "followed": r["hijack"], "minus_nl": value, "minus_nl_low": low,
                         "minus_nl_high": high, "accuracy_control": r["acc_control"],
                         "accuracy_hijacked": r["acc_hijack"], "accuracy_drop": r["drop"],
                         "decoy": r.get("decoy"), "control_followed": r.get("control")})
    trust = [{"payload": r["payload"], "trust_line": r["trust_line"], "format_id": r["format_id"],
              "followed": r["followed"], "followed_low": r["interval"][0],
              "followed_high": r["interval"][1], "control_followed": r["control"],
              "accuracy_control": r["acc_control"], "accuracy_hijacked": r["acc_hijack"],
              "credited_valid": r["credited_valid"]} for r in data["trust"]]
    cond = _conditions(inj["conditions"])
    return [
        {"id": "injection",
         "title": "How often a planted instruction in one tool description is followed",
         "source": ["paper:tab_pressure"], "conditions": cond,
         "columns": [
             col("format_id", "string", None, "core schema format"),
             col("exposure", "string", None, "standard, or shown_once (the planted description "
                                             "appears once)"),
             col("shows_descriptions", "bool", None, "the format shows tool descriptions at all"),
             col("followed", "float", "percent", "turns that follow the planted instruction"),
             col("minus_nl", "float", "percentage_points",
                 "followed, minus the natural-language format (paired)"),
             col("minus_nl_low", "float", "percentage_points", "lower end of its 95% interval"),
             col("minus_nl_high", "float", "percentage_points", "upper end of its 95% interval"),
             col("accuracy_control", "float", "percent", "strict-call accuracy without the plant"),
             col("accuracy_hijacked", "float", "percent", "strict-call accuracy with the plant"),
             col("accuracy_drop", "float", "percentage_points", "hijacked minus control accuracy"),
             col("decoy", "float", "percent", "turns that call the decoy tool"),
             col("control_followed", "float", "percent", "the planted behaviour without a plant"),
         ],
         "rows": rows},
        {"id": "trust_line",
         "title": "A sentence telling the model to distrust tool descriptions",
         "source": ["paper:tab_injection_trust"], "conditions": cond,
         "columns": [
             col("payload", "string", None, "sentinel (an obvious marker) or valid (a call that "
                                            "passes the schema)"),
             col("trust_line", "bool", None, "the distrust sentence was added"),
             col("format_id", "string", None, "core schema format"),
             col("followed", "float", "percent", "turns that follow the planted instruction"),
             col("followed_low", "float", "percent", "lower end of its 95% interval"),
             col("followed_high", "float", "percent", "upper end of its 95% interval"),
             col("control_followed", "float", "percent", "the planted behaviour without a plant"),
             col("accuracy_control", "float", "percent", "strict-call accuracy without the plant"),
             col("accuracy_hijacked", "float", "percent", "strict-call accuracy with the plant"),
             col("credited_valid", "float", "percent", "hijacked turns still credited as correct"),
         ],
         "rows": trust},
    ]


def _cost(s: _Study) -> list[dict[str, Any]]:
    cost = s["cost"]
    data = cost["data"]
    price_keys = list(data["prices"])
    _check_price_columns(data, price_keys)
    rows = [{"format_id": r["format_id"], "accuracy": r["accuracy"],
             "schema_tokens": r["schema"], "prompt_tokens": r["prompt"],
             "completion_tokens": r["completion"], "total_tokens": r["total"],
             "accuracy_per_1k_tokens": r["acc_per_1k"],
             f"correct_per_usd_{price_keys[0]}": r["acc_per_price_a"],
             f"correct_per_usd_{price_keys[1]}": r["acc_per_price_b"]} for r in data["rows"]]
    prices = [{"setting": k, "input_usd_per_m": p["input_per_m"],
               "cached_input_usd_per_m": p["cached_input_per_m"],
               "output_usd_per_m": p["output_per_m"], "schema_cached": p["schema_cached"]}
              for k, p in data["prices"].items()]
    frontier = {r["format_id"] for r in data["frontier"]}
    points = [{"format_id": r["format_id"], "tokens": r["tokens"], "accuracy": r["call_exact"],
               "on_frontier": r["format_id"] in frontier} for r in data["points"]]
    cond = _conditions(cost["conditions"])
    return [
        {"id": "cost", "title": "Tokens and accuracy per token for the core formats",
         "source": ["paper:tab_cost"], "conditions": cond,
         "columns": [
             col("format_id", "string", None, "core schema format"),
             col("accuracy", "float", "percent", "strict-call accuracy"),
             col("schema_tokens", "float", "tokens", "mean tool-block tokens per request"),
             col("prompt_tokens", "float", "tokens", "mean prompt tokens per request"),
             col("completion_tokens", "float", "tokens", "mean reply tokens per request"),
             col("total_tokens", "float", "tokens", "mean prompt plus reply tokens per request"),
             col("accuracy_per_1k_tokens", "float", "proportion_per_1k_tokens",
                 "accuracy (a proportion) per 1,000 total tokens"),
             *[col(f"correct_per_usd_{k}", "float", "correct_calls_per_usd",
                   f"correct calls per US dollar at the {k} prices (see cost_prices)")
               for k in price_keys],
         ],
         "rows": rows},
        {"id": "cost_prices", "title": "The two price settings of the cost table",
         "source": ["paper:tab_cost"], "conditions": {},
         "columns": [
             col("setting", "string", None, "price setting"),
             col("input_usd_per_m", "float", "usd_per_million_tokens", "prompt tokens"),
             col("cached_input_usd_per_m", "float", "usd_per_million_tokens",
                 "prompt tokens read from a cache"),
             col("output_usd_per_m", "float", "usd_per_million_tokens", "reply tokens"),
             col("schema_cached", "bool", None, "the tool block is billed at the cached price"),
         ],
         "rows": prices},
        {"id": "cost_frontier",
         "title": "Tokens against accuracy for every format, with the cost frontier",
         "source": ["export:cost_pareto"], "conditions": {"rule": cond.get("rule")},
         "columns": [
             col("format_id", "string", None, "schema format"),
             col("tokens", "float", "tokens", "mean tokens per cell as the site export reports"),
             col("accuracy", "float", "percent", "strict-call accuracy pooled over its cells"),
             col("on_frontier", "bool", None, "no format is both cheaper and more accurate"),
         ],
         "rows": points},
    ]


def _check_price_columns(data: Mapping[str, Any], price_keys: list[str]) -> None:
    """Confirm that ``acc_per_price_a``/``_b`` follow the price settings in their listed order.

    Recomputes correct calls per dollar from the token counts and each setting's prices and
    requires the two to agree to within one percent.
    """
    if len(price_keys) != 2:
        raise EvidenceError(f"cost.json: expected two price settings, found {price_keys}")
    for r in data["rows"]:
        for key, column in zip(price_keys, ("acc_per_price_a", "acc_per_price_b")):
            p = data["prices"][key]
            schema_price = p["cached_input_per_m"] if p["schema_cached"] else p["input_per_m"]
            usd = ((r["prompt"] - r["schema"]) * p["input_per_m"] + r["schema"] * schema_price
                   + r["completion"] * p["output_per_m"]) / 1e6
            recomputed = r["accuracy"] / 100 / usd
            if abs(recomputed - r[column]) > 0.01 * r[column]:
                raise EvidenceError(f"cost.json: {column} of {r['format_id']} does not follow the "
                                    f"{key} prices")


def _families(s: _Study) -> list[dict[str, Any]]:
    fam = s["families"]
    data = fam["data"]
    cond = _conditions(fam["conditions"])
    families, anchors = [], []
    for r in data["rows"]:
        if r["kind"] == "open":
            low, high = r["params_range"]
            for fid, acc in r["accuracy"].items():
                families.append({"family": r["family"], "family_label": r["label"],
                                 "n_checkpoints": r["checkpoints"], "params_low_b": low,
                                 "params_high_b": high, "format_id": fid, "accuracy": acc})
        elif r["kind"] in ("anchor_open", "anchor_proprietary"):
            suffix = f" ({r['effort']})"
            name = r["label"][:-len(suffix)] if r["effort"] and r["label"].endswith(suffix) \
                else r["label"]
            for fid, acc in r["accuracy"].items():
                anchors.append({"anchor": name, "effort": r["effort"],
                                "open_weights": r["kind"] == "anchor_open", "format_id": fid,
                                "accuracy": acc})
        else:
            raise EvidenceError(f"families.json: row kind {r['kind']!r} not understood")
    checkpoints = [{"checkpoint_id": c["id"], "family": c["family"], "params_b": c["params_b"],
                    "format_id": fid, "accuracy": acc}
                   for c in data["checkpoints"] for fid, acc in c["accuracy"].items()]
    fmt = col("format_id", "string", None, "core schema format (with its main-grid protocol)")
    acc = col("accuracy", "float", "percent", "strict-call accuracy")
    return [
        {"id": "family_accuracy",
         "title": "Accuracy per open model family and core format (main grid)",
         "source": ["paper:tab_models_main"], "conditions": cond,
         "columns": [col("family", "string", None, "model family key (as in the zoo)"),
                     col("family_label", "string", None, "display label"),
                     col("n_checkpoints", "int", "count", "checkpoints the family row averages"),
                     col("params_low_b", "float", "billions_of_parameters", "smallest checkpoint"),
                     col("params_high_b", "float", "billions_of_parameters", "largest checkpoint"),
                     fmt, acc],
         "rows": families},
        {"id": "anchor_accuracy",
         "title": "Accuracy per anchor model and core format (main grid)",
         "source": ["paper:tab_models_main"],
         "conditions": _conditions(fam["conditions"], seeds="1-3 seeds per anchor"),
         "columns": [col("anchor", "string", None, "anchor model name"),
                     col("effort", "string", None, "reasoning effort setting; null when none"),
                     col("open_weights", "bool", None, "the anchor's weights are public"),
                     fmt, acc],
         "rows": anchors},
        {"id": "checkpoint_accuracy",
         "title": "Accuracy per open checkpoint and core format (main grid)",
         "source": ["paper:tab_models_full"], "conditions": cond,
         "columns": [col("checkpoint_id", "string", None, "the checkpoint's model id"),
                     col("family", "string", None, "model family key"),
                     col("params_b", "float", "billions_of_parameters", "total parameters"),
                     fmt, acc],
         "rows": checkpoints},
    ]


def _zoo(s: _Study) -> list[dict[str, Any]]:
    zoo = s["zoo"]
    data = zoo["data"]
    models = [{"model_id": m["id"], "family": m["family"], "params_b": m["params_b"],
               "kind": m["kind"], "open_weights": m["open"], "context_tokens": m["max_model_len"],
               "in_study": m["in_study"]} for m in data["models"]]
    families = [{"family": k, "family_label": v["label"], "n_models": v["n_models"],
                 "alias_of": data["aliases"].get(k)} for k, v in data["families"].items()]
    patterns = [{"priority": i, "pattern": p, "family": f}
                for i, (p, f) in enumerate(data["patterns"], start=1)]
    for row in patterns:
        re.compile(row["pattern"])  # a bad pattern fails the build, not a later lookup
    return [
        {"id": "zoo_models", "title": "The study's model zoo", "source": zoo["source"],
         "conditions": {},
         "columns": [col("model_id", "string", None, "model id as served"),
                     col("family", "string", None, "model family key"),
                     col("params_b", "float", "billions_of_parameters",
                         "total parameters (mixture-of-experts: all experts)"),
                     col("kind", "string", None, "instruct, base, reasoning or tool_rl"),
                     col("open_weights", "bool", None, "weights are public"),
                     col("context_tokens", "int", "tokens", "context window the study served"),
                     col("in_study", "bool", None, "part of the main grid")],
         "rows": models},
        {"id": "zoo_families", "title": "Model families of the zoo", "source": zoo["source"],
         "conditions": {},
         "columns": [col("family", "string", None, "model family key"),
                     col("family_label", "string", None, "display label; null when none"),
                     col("n_models", "int", "count", "models of the family in the zoo"),
                     col("alias_of", "string", None,
                         "the family it is reported under, if another")],
         "rows": families},
        {"id": "zoo_patterns",
         "title": "Patterns that map an unlisted model id to a family (first match wins)",
         "source": zoo["source"], "conditions": {"match": "case-insensitive regular-expression "
                                                          "search in the model id"},
         "columns": [col("priority", "int", None, "order of trial, 1 first"),
                     col("pattern", "string", None, "Python regular expression"),
                     col("family", "string", None, "model family key it maps to")],
         "rows": patterns},
    ]


def _surface(s: _Study) -> list[dict[str, Any]]:
    surf = s["surface"]
    data = surf["data"]
    fits = [{"format_id": fid, "parameter": name, "value": fit["params"][name], "r2": fit["r2"],
             "n_points": fit["n"]} for fid, fit in data["fits"].items()
            for name in data["param_names"]]
    cond = _conditions(surf["conditions"], form=data["form"], heldout_r2=data["heldout_r2"],
                       use="extrapolation only: the held-out fit is weak")
    return [
        {"id": "surface_fits", "title": "The fitted accuracy surface per format",
         "source": surf["source"], "conditions": cond,
         "columns": [col("format_id", "string", None, "schema format"),
                     col("parameter", "string", None, "surface parameter name"),
                     col("value", "float", None, "fitted value"),
                     col("r2", "float", "r2", "in-sample fit of the format's surface"),
                     col("n_points", "int", "count", "points the fit used")],
         "rows": fits},
        {"id": "surface_tier_complexity",
         "title": "The complexity index the surface uses for each tier",
         "source": surf["source"], "conditions": cond,
         "columns": [col("tier", "int", None, "complexity tier"),
                     col("complexity", "float", "index", "complexity index, 0 to 1")],
         "rows": [{"tier": int(k), "complexity": v}
                  for k, v in data["complexity_by_tier"].items()]},
        {"id": "surface_token_cost", "title": "Tool-block tokens per tool for each format",
         "source": surf["source"], "conditions": cond,
         "columns": [col("format_id", "string", None, "schema format"),
                     col("tokens_per_tool", "float", "tokens", "mean tool-block tokens per tool")],
         "rows": [{"format_id": k, "tokens_per_tool": v}
                  for k, v in data["token_cost_per_tool"].items()]},
    ]


# -- assembly -------------------------------------------------------------------------------------

_BUILDERS: tuple[Callable[[_Study], dict[str, Any] | list[dict[str, Any]]], ...] = (
    _headline_facts, _formats, _protocols, _main_grid, _real_tools, _protocol_crossing,
    _tool_count, _tiers, _disclosure, _selection, _ladder, _injection, _cost, _families, _zoo,
    _surface,
)


def _check_table(table: Mapping[str, Any]) -> None:
    """Every row has exactly the declared columns, with values of the declared dtype."""
    tid = table["id"]
    names = [c["name"] for c in table["columns"]]
    if len(set(names)) != len(names):
        raise EvidenceError(f"table {tid}: duplicate column names")
    for c in table["columns"]:
        if c["dtype"] not in DTYPES or c["unit"] not in UNITS:
            raise EvidenceError(f"table {tid}: column {c['name']} has dtype {c['dtype']!r} / unit "
                                f"{c['unit']!r}; allowed {DTYPES} / {UNITS}")
    for i, row in enumerate(table["rows"]):
        if list(row) != names:
            raise EvidenceError(f"table {tid}: row {i} has columns {list(row)}, declared {names}")
        for c in table["columns"]:
            value = row[c["name"]]
            ok = value is None or (isinstance(value, _PYTHON_TYPES[c["dtype"]])
                                   and not (c["dtype"] in ("int", "float")
                                            and isinstance(value, bool)))
            if not ok:
                raise EvidenceError(f"table {tid}: row {i} column {c['name']} holds {value!r}, "
                                    f"declared {c['dtype']}")


def build_tables(study_dir: Path) -> tuple[list[dict[str, Any]], dict[str, str], dict[str, Any]]:
    """Read the study folder and return ``(tables, input checksums, study manifest)``.

    Raises
    ------
    EvidenceError
        When a study file is missing, does not match the study's manifest, or holds something
        the build does not understand.
    """
    study = _Study(study_dir)
    tables: list[dict[str, Any]] = []
    for builder in _BUILDERS:
        made = builder(study)
        tables.extend(made if isinstance(made, list) else [made])
    ids = [t["id"] for t in tables]
    if len(set(ids)) != len(ids):
        raise EvidenceError(f"duplicate table ids: {ids}")
    for table in tables:
        _check_table(table)
    return tables, dict(sorted(study.inputs.items())), study.manifest


def _dump(obj: Any) -> bytes:
    return (json.dumps(obj, indent=1, ensure_ascii=False) + "\n").encode("utf-8")


def write(study_dir: Path, out_dir: Path) -> list[str]:
    """Build every table into ``out_dir/tables`` and write ``out_dir/manifest.json``.

    Tables a previous build left behind and this build does not make are removed.

    Returns
    -------
    list of str
        The table ids written, in build order.
    """
    tables, inputs, study_manifest = build_tables(study_dir)
    table_dir = out_dir / "tables"
    table_dir.mkdir(parents=True, exist_ok=True)
    entries = []
    for table in tables:
        raw = _dump(table)
        (table_dir / f"{table['id']}.json").write_bytes(raw)
        entries.append({"id": table["id"], "path": f"tables/{table['id']}.json",
                        "sha256": hashlib.sha256(raw).hexdigest(), "title": table["title"],
                        "source": table["source"], "n_rows": len(table["rows"])})
    keep = {f"{t['id']}.json" for t in tables}
    for stale in table_dir.glob("*.json"):
        if stale.name not in keep:
            stale.unlink()
    manifest = {"schema_version": 1, "study_version": study_manifest.get("evidence_version"),
                "study_inputs": inputs, "tables": entries}
    (out_dir / "manifest.json").write_bytes(_dump(manifest))
    return [t["id"] for t in tables]


def main(argv: Iterable[str] | None = None) -> int:
    """Command-line entry point; returns the process exit status."""
    parser = argparse.ArgumentParser(prog="python -m toolform.evidence.build",
                                     description="Build ToolForm's evidence tables from the "
                                                 "study's files.")
    parser.add_argument("--study-dir", type=Path, default=DEFAULT_STUDY_DIR,
                        help=f"the study's folder (default: {DEFAULT_STUDY_DIR})")
    parser.add_argument("--out", type=Path, default=PACKAGE_DIR,
                        help="where tables/ and manifest.json go (default: the evidence package)")
    args = parser.parse_args(list(argv) if argv is not None else None)
    try:
        ids = write(args.study_dir, args.out)
    except EvidenceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {len(ids)} tables to {args.out / 'tables'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
