"""The guard on the captured real servers (``datasets/mcp_servers``): the corpus, its split, and
the figures its data card reports."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest


CORPUS = Path(__file__).resolve().parents[1] / "datasets" / "mcp_servers"
sys.path.insert(0, str(CORPUS))
import evaluate  # noqa: E402  (datasets/mcp_servers/evaluate.py)

MANIFEST_DOC = json.loads((CORPUS / "servers.json").read_text(encoding="utf-8"))
MANIFEST = MANIFEST_DOC["servers"]
CAPTURES = {p.stem: json.loads(p.read_text(encoding="utf-8"))
            for p in sorted((CORPUS / "tools").glob("*.json"))}
def test_the_corpus_has_the_servers_and_tools_its_card_reports():
    assert len(CAPTURES) == 781
    assert sum(len(d["tools"]) for d in CAPTURES.values()) == 19424
    registries = {d["registry"] for d in CAPTURES.values()}
    assert registries == {"npm", "pypi"}
    old = {"@modelcontextprotocol/server-" + n for n in (
        "brave-search", "everything", "filesystem", "github", "gitlab", "google-maps", "memory",
        "postgres", "puppeteer", "sequential-thinking", "slack")}
    assert old.isdisjoint(d["package"] for d in CAPTURES.values())  # TS111's negatives


def test_every_server_is_split_by_its_package_hash():
    by_name = {s["name"]: s for s in MANIFEST}
    for name, doc in CAPTURES.items():
        entry = by_name[name]
        odd = int(hashlib.sha256(entry["package"].encode()).hexdigest(), 16) % 2
        assert entry["split"] == doc["split"] == ("heldout" if odd else "dev"), name
        assert (doc["package"], doc["version"]) == (entry["package"], entry["version"])
        assert doc["batch"] == entry.get("batch", 1)


def test_every_capture_loads_with_each_tool_it_lists():
    # the loader alone (no guard), so this reads the captures awaiting their scoring too
    from toolform.io import load_tools
    for name, doc in CAPTURES.items():
        toolset = load_tools(CORPUS / "tools" / f"{name}.json")
        assert [t.name for t in toolset.tools] == [t["name"] for t in doc["tools"]], name


# (servers, text fields, text fields flagged high, servers exiting 0) with the current
# (thirteenth) revision. Before it, batch 4 (both halves) was scored once with the twelfth
# before it was read; the held-out figures of batches 2 and 3 were scored once with the tenth
# (batch 2: 34 texts high then), those of batch 1 once with the ninth, each before it was read.
RECORDED = {
    # batches 1-4; ms-365 (batch 2) loads since recursive $refs have an IR (25 texts high with the
    # twelfth revision).
    # Thirteenth revision (tuned on all four batches, so none of these is held out any more):
    # twelfth-revision figures were dev (53, 111 exit 0), 1: (63, 35), 2: (27, 6), 3: (15, 25),
    # 4: (32, 30)
    # batch 5 (31 servers) scored once with the thirteenth revision, frozen before it was
    # captured (2026-12-02 12:28 UTC); its development half (13 servers) joins ("dev", None)
    # Fourteenth revision (tuned on all five batches; thirteenth-revision figures were dev
    # (48, 124 exit 0), 1: (55, 35), 2: (26, 6), 3: (13, 26), 4: (3, 38), 5: (3, 15))
    # batch 5's remainder (20 servers) and batch 6 (41) scored once with the fourteenth revision,
    # frozen before either was read (2026-12-03 15:57 UTC); their development halves join
    # ("dev", None), which was (139, 40386, 40, 129) before them
    # Fifteenth revision (tuned on all six batches; fourteenth-revision figures were dev
    # (56, 155 exit 0), 2: (17, 6), 6: (26, 16))
    # batch 7 (47 servers) scored once with the fifteenth revision, frozen before anyone had
    # read it (2026-12-03 16:39 UTC); its development half (21) joins ("dev", None), which was
    # (170, 46911, 50, 158) before it
    # The loader then read the five captures it had refused (an empty enum: heroui-native,
    # heroui-react, netlify; a root oneOf of required alternatives: esignatures, flightradar),
    # the guard unchanged: ("dev", None) was (191, 53583, 70, 173), heldout 1 (54, 9940, 35, 43),
    # 2 (12, 6024, 16, 7), 4 (41, 6321, 2, 39), 6 (20, 6696, 0, 19)
    # Sixteenth revision (TS111 retrained, escalation; every figure above unchanged by it).
    # batch 8 (51 servers) scored once with it, frozen before anyone had read batch 8
    # (2026-12-03 19:16 UTC); its development half (29) joins ("dev", None), which was
    # (191, 53814, 77, 173) before it
    # Seventeenth revision (other languages; placement and precision; written on the
    # development servers only): ("dev", None) was (220, 65480, 125, 196) with the sixteenth,
    # (220, 65480, 65, 205) with the seventeenth; held-out batch 3 had 8 texts high
    # batch 9 (43 servers) scored once with the seventeenth revision, frozen before anyone had
    # read it (2026-12-04 19:46 UTC); its development half (19) joins ("dev", None)
    # Eighteenth revision, part A (the catalogue's own evidence, toolform/guard/_own.py; tuned
    # on batches 1-8, batch 9 read once at the end): ("dev", None) was (239, 70442, 74, 218)
    # with the seventeenth; held out, 1: (35, 44), 2: 16 texts high, 3: 10, 4: 2, 7: 5, 8: 4,
    # 9: (3, 21)
    # batch 10 (48 PyPI servers) scored once with the eighteenth revision, frozen before anyone
    # had read it (2026-12-04 22:38 UTC, at c72b39e); its development half (23) joins
    # ("dev", None), which was (239, 70442, 54, 225) before it
    # Nineteenth revision, part A (usage prose and the server's own configuration not
    # escalated, titles naming whose account, Greek-letter symbols, a protocol's request; tuned
    # on batches 1-9 and batch 10's development half): with the eighteenth, ("dev", None) was
    # (262, 76506, 86, 239), held out 7: 4 texts high, 10: (13, 17)
    # batch 11 (49 PyPI servers) scored once with the nineteenth revision, frozen before anyone
    # had read it (2026-12-04 23:36 UTC, at c027c73); its development half (24) joins
    # ("dev", None), which was (262, 76506, 74, 242) before it
    # Twentieth revision (classes of real text read on the failing servers of batches 1-11,
    # tests/test_guard_real_classes.py; TS111 retrained on its hard set): with the nineteenth,
    # ("dev", None) was (286, 87631, 90, 260), held out 1: (16, 45), 2: 12 texts high,
    # 10: (9, 19), 11: (6, 22)
    # Twenty-first revision (classes read on batch 12's failing servers and the development
    # servers): with the twentieth, ("dev", None) was (298, 91684, 114, 277), held out 12:
    # (4, 20); batch 13's development half (19 servers, 4,808 texts, 12 high, 13 exit 0) joins
    # it after the twenty-first's one-time scoring, (298, 91684, 65, 279) before
    # Twenty-second revision (classes read on batch 13's failing servers and the development
    # servers, item 38a; tool names, item 38b; TS111 item 36a's winner, item 38c): with the
    # twenty-first, ("dev", None) was (317, 96492, 77, 292), held out 13: (15, 20)
    # Twenty-third revision (classes read on batch 14's failing servers and the development
    # servers, docs/guard.md): with the twenty-second, ("dev", None) was (342, 99455, 92, 312),
    # held out 13: (8, 24), 14: (13, 20)
    ("dev", None): (367, 104750, 51, 343),
    ("heldout", 1): (54, 9998, 14, 47),
    ("heldout", 2): (12, 6043, 8, 8),
    ("heldout", 3): (31, 21693, 8, 27),
    ("heldout", 4): (41, 6331, 1, 40),
    ("heldout", 5): (28, 6246, 0, 28),  # (18, 3705, 0, 18) before the remainder's 10
    ("heldout", 6): (20, 6702, 0, 20),
    ("heldout", 7): (26, 3765, 3, 24),
    ("heldout", 8): (22, 3529, 3, 19),
    ("heldout", 9): (24, 2613, 1, 23),
    ("heldout", 10): (25, 3960, 5, 22),
    ("heldout", 11): (25, 6725, 1, 24),
    # batch 12 (34 of 65 servers captured at their first start) scored once with the twentieth
    # revision, frozen at 08a6add (2026-12-06 03:51 UTC); its development half (12 servers,
    # 4,053 texts, 49 high, 10 exit 0) joins ("dev", None)
    ("heldout", 12): (22, 4805, 0, 22),
    # batch 13 (49 of 65 servers captured at their first start) scored once with the
    # twenty-first revision, frozen at 4486e41 (2026-12-06 14:39 UTC)
    ("heldout", 13): (30, 6017, 7, 24),
    # batch 14 (53 of 65 servers captured) scored once with the twenty-second revision, frozen
    # at dc283eb (2026-12-06 18:00 UTC); its development half (25 servers, 2,963 texts, 21
    # high, 18 exit 0) joins ("dev", None), which was (317, 96492, 71, 294) before it
    ("heldout", 14): (28, 5298, 4, 25),
    # batch 15 (51 of 65 servers captured) scored once with the twenty-third revision, frozen
    # at fa1c6ad (2026-12-06 21:38 UTC); its development half (25 servers, 5,295 texts, 9
    # high, 21 exit 0) joins ("dev", None), which was (342, 99455, 42, 322) before it
    ("heldout", 15): (26, 7359, 8, 22),
}


#: The batches the guard has been scored on. A batch captured for a one-time held-out scoring
#: is left out of RECORDED, and so not scanned here, until that scoring has been made and
#: recorded above: reading its findings before would spend it.
SCORED = sorted({batch for _split, batch in RECORDED if batch is not None})

#: The batches captured for a one-time held-out scoring that has not been made yet (none: batch
#: 14 was scored on 2026-12-06 at 18:00 UTC). No test here runs the guard on such a batch; the
#: manifest's ``awaiting_scoring`` says the same for the other tests that read the corpus. When
#: the scoring is made, its figures go into RECORDED and the batch leaves both.
AWAITING_SCORING: tuple[int, ...] = ()


@pytest.fixture(scope="module")
def corpus_rows():
    """Every captured server of the scored batches read and scanned once, for all the splits
    below."""
    return [row for batch in SCORED for row in evaluate.rows(batch=batch)]


def test_every_batch_of_the_manifest_is_scored_and_recorded_or_awaits_its_scoring():
    assert evaluate.batches() == list(range(1, 16))  # what evaluate.py --batch accepts
    assert SCORED + list(AWAITING_SCORING) == evaluate.batches()
    assert tuple(MANIFEST_DOC["awaiting_scoring"]) == AWAITING_SCORING


@pytest.mark.parametrize("split,batch", sorted(RECORDED, key=str))
def test_the_guard_on_the_servers_as_recorded(corpus_rows, split, batch):
    rows = [r for r in corpus_rows
            if r["split"] == split and (batch is None or r["batch"] == batch)]
    got = (len(rows), sum(int(r["texts"]) for r in rows),
           sum(int(r["fields_high"]) for r in rows), sum(r["exit"] == 0 for r in rows))
    assert got == RECORDED[(split, batch)]
    # every capture loads (a capture the loader could not read would be exit 2, never a crash)
    assert [r["server"] for r in rows if r["exit"] == 2] == []
