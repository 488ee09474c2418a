"""Real-world replies, one class per point of issue 14 (1 to 5), each case reproducing a
public bug report or a vendor's documented shape (``source`` in the fixture): they read as
the case says.

The cases are in ``tests/fixtures/replies/real_world.jsonl`` (the split the parsers were tuned
on) and ``real_world_held_out.jsonl`` (other threads, scored once before any fix: the README
beside them gives that figure); ``tests/benchmarks/replies_classes.py`` prints the same check
as a table per class.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from toolform.ir import Toolset

sys.path.insert(0, str(Path(__file__).resolve().parent / "benchmarks"))
from replies_classes import TOOLS, cases, check  # noqa: E402

TOOLSET = Toolset.from_json(TOOLS.read_text("utf-8"))
CASES = cases()
HELD_OUT = cases(held_out=True)
CLASSES = ("markup_in_strings", "delimiters_in_strings", "schema_typed_values", "vendor_shapes",
           "examples")


def test_every_class_has_cases_with_sources():
    assert {c["class"] for c in CASES} == set(CLASSES)
    assert all(c["source"] for c in CASES)
    assert min(sum(c["class"] == k for c in CASES) for k in CLASSES) >= 10


def test_the_held_out_split_comes_from_other_sources():
    assert {c["class"] for c in HELD_OUT} == set(CLASSES) and all(c["source"] for c in HELD_OUT)
    assert not {c["source"] for c in HELD_OUT} & {c["source"] for c in CASES}


@pytest.mark.parametrize("case", CASES + HELD_OUT, ids=[c["id"] for c in CASES + HELD_OUT])
def test_real_world_reply_reads_as_expected(case):
    assert not check(case, TOOLSET), check(case, TOOLSET)
