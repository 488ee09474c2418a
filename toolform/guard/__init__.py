"""The guard: scan and clean tool metadata and pin definitions.

The study's threat (``injection.json``): a third party who controls one tool's description
writes one plain instruction into it, and every format that shows descriptions let models follow
it on 38.48 to 54.16% of turns, while the minimal schema, which shows none, let none through.
The guard keeps instructions out of the description channel:

- :func:`scan_toolset` runs the rules (:data:`GUARD_RULES`): eleven written by hand, TS101 to
  TS110 and TS112 (look-alike letters), and TS111, a logistic regression trained on the labelled
  set and the captured servers' texts, over every name, title, description, default and enum
  value, at any depth, and returns :class:`Finding` objects; a hand rule's medium finding is high
  when TS111's probability for the text reaches the model's escalation threshold
  (:func:`findings_frame` for a DataFrame); :func:`guard` does it in one call from a file.
- :func:`clean_toolset` returns a copy without the flagged sentences and hidden characters (or
  without any description), and a log of every change.
- :func:`pin` / :func:`verify` hash each tool definition so a description changed after approval
  is caught.
- :func:`plant_instruction` writes the study's attack into a toolset and :func:`calls_follow`
  tells whether a call obeyed it.
- :func:`detector_scores` measures the rules on the labelled set in ``datasets/guard/``
  (``train_detector.py`` there trains TS111 and chooses its escalation threshold);
  ``toolform.experiments.hijack_experiment`` measures, per format, how often a model follows a
  planted sentence, with and without the guard.

The guard never executes, fetches or evaluates anything it reads. Its only decoding is TS107
looking at a base64, hex or percent-encoded run of at most :data:`MAX_DECODE_CHARS` characters,
or at text labelled as a cipher deciphered by letter shifts, as text; TS111 only counts words
and character n-grams.
"""

from typing import Any

from .._deprecated import moved_names
from ._clean import CLEAN_MODES, CleanLogEntry, clean_toolset, strip_text
from ._fields import FIELD_KINDS, FieldText, iter_fields
from ._labelled import (DEVELOPMENT_SPLITS, SPLITS, DetectorScores, LabelledText, detector_scores,
                        labelled_toolset, load_labelled_set)
from ._learned import LearnedModel, instruction_probability, load_model
from ._plant import DEFAULT_SENTENCE, DEFAULT_SENTINEL, calls_follow, plant_instruction
from ._pin import PinReport, pin, read_lockfile, tool_hash, verify, write_lockfile
from ._rule import MAX_DECODE_CHARS, SEVERITIES, Rule
from ._rules import GUARD_RULES, clear_caches, get_rule
from ._sarif import SARIF_LEVELS, SARIF_SCHEMA_URI, sarif_log
from ._report import FAIL_ON, GuardReport, guard
from ._scan import FINDING_COLUMNS, Finding, findings_frame, scan_text, scan_toolset

__all__ = [
    "CLEAN_MODES",
    "CleanLogEntry",
    "DEFAULT_SENTENCE",
    "DEFAULT_SENTINEL",
    "DEVELOPMENT_SPLITS",
    "DetectorScores",
    "FAIL_ON",
    "FIELD_KINDS",
    "FINDING_COLUMNS",
    "FieldText",
    "Finding",
    "GUARD_RULES",
    "GuardReport",
    "LabelledText",
    "LearnedModel",
    "MAX_DECODE_CHARS",
    "PinReport",
    "Rule",
    "SARIF_LEVELS",
    "SARIF_SCHEMA_URI",
    "SEVERITIES",
    "SPLITS",
    "calls_follow",
    "clean_toolset",
    "clear_caches",
    "detector_scores",
    "findings_frame",
    "get_rule",
    "guard",
    "instruction_probability",
    "iter_fields",
    "labelled_toolset",
    "load_labelled_set",
    "load_model",
    "pin",
    "plant_instruction",
    "read_lockfile",
    "sarif_log",
    "scan_text",
    "scan_toolset",
    "strip_text",
    "tool_hash",
    "verify",
    "write_lockfile",
]


#: The hijack experiment moved to ``toolform.experiments``; its old names are kept one release.
_moved = moved_names(__name__, {name: f"toolform.experiments.{name}" for name in (
    "CONDITIONS", "HIJACK_COLUMNS", "HijackResult", "RECORDED_HIJACK_CASSETTE",
    "RECORDED_HIJACK_DRAW", "RECORDED_HIJACK_FORMATS", "RECORDED_HIJACK_SENTENCES",
    "hijack_experiment", "record_hijack", "recorded_hijack")}, stacklevel=3)


def __getattr__(name: str) -> Any:
    if name == "RULES":  # the old name of GUARD_RULES, kept one release
        import warnings

        from ._rules import RULES_RENAMED

        warnings.warn(RULES_RENAMED, DeprecationWarning, stacklevel=2)
        return GUARD_RULES
    return _moved(name)
