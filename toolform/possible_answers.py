"""Deprecated home of BFCL's possible-answer grading, kept one release: it lives in
``toolform.grading`` (``from toolform.grading import grade_possible_answers``)."""

from __future__ import annotations

from ._deprecated import moved_names

__all__: list[str] = []

__getattr__ = moved_names(__name__, {
    "MATCHINGS": "toolform.grading.MATCHINGS",
    "grade_possible_answers": "toolform.grading.grade_possible_answers",
    "normalise_string": "toolform.grading.normalise_string",
})
