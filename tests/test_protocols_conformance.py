"""One conformance suite over every registered protocol, driven by the registry (issue 14,
point 7).

Each protocol in ``protocol_ids()`` has a fixture file ``tests/fixtures/protocols/<id>.json``
(written by ``tests/fixtures/protocols/build.py``; see its docstring for where each
expectation comes from) holding samples of every kind below, each with its expected parse.
A registered protocol without a fixture, or a fixture missing a kind, fails the suite.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolform.evidence import load_evidence
from toolform.ir import Toolset
from toolform.protocols import get_protocol, parse_reply, protocol_ids

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "protocols"
TOOLS = Toolset.from_json((FIXTURES / "tools.json").read_text("utf-8"))
#: Every kind of sample each fixture must hold.
KINDS = ("no_call", "one_call", "parallel_calls", "json_types", "escapes_unicode",
         "markup_in_strings", "delimiters_in_strings", "truncated", "malformed",
         "vendor_shapes")


def _fixture(protocol_id: str) -> dict[str, Any]:
    return json.loads((FIXTURES / f"{protocol_id}.json").read_text("utf-8"))


def _samples() -> list[tuple[str, int, dict[str, Any]]]:
    out = []
    for pid in protocol_ids():
        path = FIXTURES / f"{pid}.json"
        if path.exists():
            out.extend((pid, i, s) for i, s in enumerate(_fixture(pid)["samples"]))
    return out


def typed(value: Any) -> Any:
    """A value with its JSON type made explicit, so ``1 == 1.0 == True`` cannot hide a slip."""
    if isinstance(value, dict):
        return ("object", {k: typed(v) for k, v in value.items()})
    if isinstance(value, list):
        return ("array", [typed(v) for v in value])
    if isinstance(value, bool):
        return ("boolean", value)
    if isinstance(value, int):
        return ("integer", value)
    if isinstance(value, float):
        return ("number", value)
    return (type(value).__name__, value)


def _calls(calls: Any) -> list[tuple[str, Any]]:
    return [(c["name"], typed(c["arguments"])) for c in calls]


@pytest.mark.parametrize("protocol_id", protocol_ids())
def test_every_protocol_has_a_fixture_of_every_kind(protocol_id):
    path = FIXTURES / f"{protocol_id}.json"
    assert path.exists(), f"protocol {protocol_id} is registered but has no fixture {path.name}"
    fixture = _fixture(protocol_id)
    assert fixture["protocol_id"] == protocol_id
    kinds = {s["kind"] for s in fixture["samples"]}
    assert set(KINDS) <= kinds, sorted(set(KINDS) - kinds)


def test_no_fixture_without_a_protocol():
    files = {p.stem for p in FIXTURES.glob("*.json")} - {"tools"}
    assert files == set(protocol_ids())


@pytest.mark.parametrize("protocol_id", protocol_ids())
def test_metadata_matches_the_fixture_and_the_study(protocol_id):
    spec = get_protocol(protocol_id)
    declared = _fixture(protocol_id)["metadata"]
    assert (spec.supports_parallel, spec.structured, spec.text_values,
            list(spec.cannot_carry)) == (declared["supports_parallel"], declared["structured"],
                                         declared["text_values"], declared["cannot_carry"])
    row = _STUDY[protocol_id]
    assert (spec.supports_parallel, spec.structured) == (row["supports_parallel"],
                                                         row["structured"])


_STUDY = {r["protocol_id"]: r for r in load_evidence("protocols").frame().to_dict("records")}


def test_the_study_lists_exactly_the_registered_protocols():
    assert set(_STUDY) == set(protocol_ids())


@pytest.mark.parametrize("protocol_id,index,sample", _samples(),
                         ids=[f"{p}-{i}-{s['kind']}" for p, i, s in _samples()])
def test_sample_parses_as_expected(protocol_id, index, sample):
    want = sample["expect"]
    parsed = parse_reply(sample["reply"], TOOLS, protocol_id)
    assert parsed.parsed_strict == want["parsed_strict"], parsed.issues
    assert parsed.format_compliant == want["format_compliant"], parsed.issues
    assert _calls([c.to_dict() for c in parsed.calls_as_written]) == _calls(want["calls"]), \
        parsed.issues
    if "lenient_protocol" in want:
        assert parsed.lenient_protocol == want["lenient_protocol"], parsed.issues
    if "vendor_shape" in want:
        assert parsed.vendor_shape == want["vendor_shape"], parsed.issues
    if "lenient_calls" in want:
        lenient = parse_reply(sample["reply"], TOOLS, protocol_id, lenient_fallback=True)
        assert _calls([c.to_dict() for c in lenient.calls_as_written]) == \
            _calls(want["lenient_calls"]), lenient.issues
    if "issue" in want:
        assert any(want["issue"] in i for i in parsed.issues), parsed.issues
    # every call read carries its provenance: the reader, and a span of the reply
    for call in parsed.parsed_calls:
        start, end = call.span
        assert 0 <= start <= end <= len(sample["reply"])
        assert call.protocol_id == protocol_id or call.vendor_shape is not None
