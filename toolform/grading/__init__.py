"""Grading: do a reply's calls match the gold calls, under the study's three rules.

The rules differ only in which of the calls and repairs ``parse_reply`` records they look at
(:func:`select_calls`, the one definition):

* ``as_written``: the calls exactly as the parser read them; tool names must match exactly.
* ``main``: names differing from a tool only by case or separators are accepted; flat
  arguments are re-nested into their object parameter for text-valued protocols only
  (``xml_call``, ``nl_intent``), whose values arrive as text anyway.
* ``symmetric``: the same name repair, and re-nesting for every protocol.

Every rule then compares values the same way. The numbered points, each with a hand-checked
test in ``tests/test_grading.py``:

1. Tool names: exact under ``as_written``; case- and separator-resolved names are accepted
   under ``main`` and ``symmetric``; a nearest-name resolution (``get_wether``) is never
   accepted.
2. Types: text values are typed from the schema inside the parser, for text-valued protocols
   only. A typed protocol (JSON, Python) writing ``"5"`` for an integer is wrong.
3. Strings: enum values compare case-insensitively (``"Celsius"`` matches ``"celsius"``);
   every other string compares exactly.
4. Numbers: integers and floats compare by value (``5`` matches ``5.0``); a float matches
   within a relative tolerance of 1e-6. Booleans are not numbers.
5. Omissions: an absent argument matches when the gold call lists it in ``may_omit``, or when
   one of its gold values equals the parameter's declared default. An explicit value equal to
   the declared default matches a gold call that leaves the argument out.
6. Extras: an argument the gold call does not list is wrong unless it equals its declared
   default; an argument the tool's schema does not declare is always wrong.
7. Parallel calls: reply calls and gold calls are matched as multisets (order-free), each
   gold call to a distinct reply call; the counts must be equal.
8. An empty gold list and no call in the reply is correct (a right abstention).
9. Nested objects are compared key by key with points 3 to 6 (declared field defaults count);
   arrays element by element, in order, with equal lengths.

``schema_valid`` is separate from ``correct``: every call validates (``jsonschema-rs``, draft
2020-12) against its tool's input schema (:func:`validate_arguments`, the one schema check; a
call to an unknown tool is not valid). With no call it is True. It is None, never False, when a
validator cannot run (a ``pattern`` its regex engine rejects or gives up on, a ``$ref`` that
resolves nowhere): that is a failure of the instrument, not of the call, and
``Verdict.schema_issue`` says what happened. ``schema_issue`` also lists, for an invalid call,
each problem with its path in the arguments (``get_weather: days: expected integer, got the
string '5'``).
"""

from __future__ import annotations

from ._grade import (FLOAT_TOLERANCE, ArgumentProblem, Verdict, call_schema_valid, grade, grade_all,
                     grade_rules, schema_check, unmatched_gold, validate_arguments)
from ._gradings import grade_gradings
from ._possible_answers import MATCHINGS, grade_possible_answers, normalise_string
from ._rules import GRADINGS, RULE_MEANINGS, RULES, check_rule
from ._select import calls_under_rule, select_calls, select_repaired, selections
from ._version import VERDICT_LIBRARIES, VERDICT_MODULES, grading_version

__all__ = [
    "ArgumentProblem",
    "FLOAT_TOLERANCE",
    "GRADINGS",
    "MATCHINGS",
    "RULES",
    "RULE_MEANINGS",
    "VERDICT_LIBRARIES",
    "VERDICT_MODULES",
    "Verdict",
    "call_schema_valid",
    "calls_under_rule",
    "check_rule",
    "grade",
    "grade_all",
    "grade_gradings",
    "grade_possible_answers",
    "grade_rules",
    "grading_version",
    "normalise_string",
    "schema_check",
    "select_calls",
    "select_repaired",
    "selections",
    "unmatched_gold",
    "validate_arguments",
]
