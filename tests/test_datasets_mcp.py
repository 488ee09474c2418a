"""datasets/mcp: the real MCP catalogues as IR JSON and the hand-written requests."""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path

import jsonschema

from toolform.ir import Request, Toolset

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "datasets" / "mcp"
REAL = FOLDER / "captures"  # the servers' tools/list replies, as captured
SERVERS = ["brave-search", "everything", "filesystem", "github", "gitlab", "google-maps",
           "memory", "postgres", "puppeteer", "sequential-thinking", "slack"]


def _toolset(name: str) -> Toolset:
    return Toolset.from_json((FOLDER / name).read_text(encoding="utf-8"), source=name)


def _rows(name: str) -> list[dict]:
    return [json.loads(line) for line in
            (FOLDER / name).read_text(encoding="utf-8").splitlines()]


def _requests(name: str) -> list[Request]:
    return [Request.from_dict({**row, "tools": _toolset(row["tools"]).to_dict()})
            for row in _rows(name)]


def test_eleven_servers_and_97_tools():
    sizes = {stem: len(_toolset(f"{stem}.json")) for stem in SERVERS}
    assert sum(sizes.values()) == 97
    assert sizes["github"] == 26 and sizes["postgres"] == 1
    catalogue = _toolset("catalogue.json")
    assert len(catalogue) == 97
    assert "github__create_issue" in catalogue and "gitlab__create_issue" in catalogue
    assert catalogue["slack__slack_post_message"].params == \
        _toolset("slack.json")["slack_post_message"].params


def test_at_least_150_requests_covering_every_tool():
    requests = _requests("requests.jsonl")
    assert len(requests) >= 150
    assert len({r.id for r in requests}) == len(requests)
    covered = {(row["tools"], row["gold"][0]["name"]) for row in _rows("requests.jsonl")}
    every = {(f"{stem}.json", t.name) for stem in SERVERS for t in _toolset(f"{stem}.json")}
    assert covered == every
    categories = Counter(r.category for r in requests)
    assert set(categories) == {"call", "routing"} and categories["call"] >= 150


def test_every_gold_call_validates_against_its_tool():
    for r in _requests("requests.jsonl"):
        gold = r.gold[0]
        tool = r.toolset[gold.name]
        if r.category == "routing":
            assert dict(gold.accepted) == {}
            continue
        jsonschema.Draft202012Validator(tool.input_schema()).validate(
            dict(gold.first_call().arguments))


def test_catalogue_lines_mirror_the_per_server_lines():
    per_server = _rows("requests.jsonl")
    combined = _rows("catalogue.jsonl")
    assert [r["id"] for r in per_server] == [r["id"] for r in combined]
    for a, b in zip(per_server, combined):
        stem = a["tools"].removesuffix(".json")
        assert b["tools"] == "catalogue.json"
        assert b["gold"][0]["name"] == f"{stem}__{a['gold'][0]['name']}"
        assert b["gold"][0]["accepted"] == a["gold"][0]["accepted"]
        assert a["source"].startswith("@modelcontextprotocol/server-")


def test_hand_checked_request():
    request = next(r for r in _requests("requests.jsonl") if r.id == "mcp_slack_005")
    assert request.text == "Reply 'On it!' in the thread 1718203344.002100 of channel C024BE91L."
    assert request.gold[0].first_call().to_dict() == {
        "name": "slack_reply_to_thread",
        "arguments": {"channel_id": "C024BE91L", "thread_ts": "1718203344.002100",
                      "text": "On it!"}}


def test_committed_files_match_a_fresh_build(tmp_path):
    spec = importlib.util.spec_from_file_location("build_mcp", ROOT / "datasets" / "build_mcp.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    (tmp_path / "requests.yaml").write_bytes((FOLDER / "requests.yaml").read_bytes())
    counts = module.build(REAL, tmp_path)
    assert counts == {"servers": 11, "tools": 97, "requests": len(_rows("requests.jsonl")),
                      "with_arguments": sum(r["category"] == "call"
                                            for r in _rows("requests.jsonl"))}
    for path in sorted(FOLDER.glob("*.json*")):
        assert (tmp_path / path.name).read_bytes() == path.read_bytes(), path.name
