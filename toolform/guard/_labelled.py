"""The guard's labelled set, and how well the detector does on it.

``datasets/guard/labelled.jsonl`` (see its ``README.md``) holds texts labelled ``benign`` (copied
verbatim from real MCP ``tools/list`` captures and BFCL function documents) or ``injected``
(written for this project, in varied styles and places). :func:`detector_scores` puts each text where it belongs in a small
toolset (a tool description, a parameter's description, default, enum value or title, or a tool
name), adds the row's catalogue as name-only tools, scans it, and counts a text as *flagged* when
its tool gets a finding at the asked severity or above.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from ..errors import DatasetError, InvalidParameterError
from ..ir import ParamIR, ToolIR, Toolset, TypeIR
from ._rule import SEVERITIES, severity_rank
from ._scan import scan_toolset

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "DEVELOPMENT_SPLITS", "DetectorScores", "LABELS", "LabelledText", "PLACES", "SPLITS",
    "detector_scores",
    "labelled_toolset", "load_labelled_set",
]

#: The labels a row can carry.
LABELS = ("benign", "injected")
#: The splits, in the order they were written (see ``datasets/guard/README.md``): ``dev`` rows
#: were written first (their injected half after the rules) and the rules were revised once
#: after scoring them; ``holdout1`` was written after that revision, scored once, then used for
#: a second revision; ``holdout2`` was written after the second revision and scored once;
#: ``dev2`` (118 injected, 100 benign) was written for the third revision, which used all four
#: splits; ``holdout3``, ``holdout4`` and ``holdout5`` (60 + 60 each) were each written blind by
#: a colleague who never saw the rules and scored once with the revision of their day; the
#: rules were then revised on ``holdout3`` and ``holdout4``, and ``holdout5`` only trains TS111,
#: the learned detector, with every other development split; ``holdout6`` and ``holdout7`` (60
#: injected, 60 real benign, 20 benign written like the injected ones, each) were written blind
#: by a fourth colleague; ``holdout6`` was scored once with the rules and the first TS111, then
#: read; ``dev3`` (160 twin pairs: a made-up tool documented honestly, and the same text with
#: an instruction planted) was written to train TS111 on the instruction rather than the voice;
#: ``holdout7`` was scored once with the sixth revision, then read; ``holdout8`` (60 + 60 + 20,
#: written blind by a fifth colleague) was scored once with the seventh revision, then read;
#: ``dev4`` (160 more twins, half of whose honest texts name another tool of their server) was
#: written for the eighth; ``holdout9`` (60 + 60 + 20, written blind by a sixth colleague) was
#: scored once with the eighth revision and is used for nothing: it is the held-out split.
#: ``blind1`` ... ``blind7`` and ``confusables1`` ... ``confusables5`` were each scored once
#: and then read; ``blind10`` and ``blind11`` (scored once with the thirteenth revision) were
#: the fourteenth revision's validation set and are development data now.
SPLITS = ("dev", "holdout1", "holdout2", "dev2", "holdout3", "holdout4", "holdout5", "holdout6",
          "dev3", "holdout7", "holdout8", "dev4", "holdout9", "blind1", "confusables1", "blind2",
          "confusables2", "blind3", "confusables3", "blind4", "blind5", "blind6", "blind7",
          "confusables4", "confusables5", "blind10", "blind11")
#: The splits TS111 is trained on: the first twelve (``holdout9``, the eighth revision's
#: held-out batch, and the batches added after it are not).
DEVELOPMENT_SPLITS = SPLITS[:12]
#: Where a row's text is placed (field kinds of ``FIELD_KINDS``).
PLACES = ("tool.description", "tool.title", "tool.name", "param.description", "param.title",
          "param.default", "param.enum")
_DEFAULT = "guard/labelled.jsonl"
_REQUIRED = ("id", "split", "label", "place", "text", "server", "tool", "style")


@dataclass(frozen=True)
class LabelledText:
    """One row of the labelled set.

    Parameters
    ----------
    id : str
        ``benign-001`` ... / ``injected-001`` ...
    split : str
        One of :data:`SPLITS`.
    label : str
        ``"benign"`` or ``"injected"``.
    place : str
        Where the text sits (one of :data:`PLACES`).
    text : str
        The text itself.
    server : str
        The MCP server (npm package) the text or its carrier tool comes from, or
        ``bfcl/<category>`` for a BFCL function document.
    tool : str
        The carrier tool's name (for ``tool.name`` rows: the text).
    param : str or None
        The carrier parameter for ``param.*`` places.
    style : str
        ``"real"`` for benign rows; the injection style otherwise (``imperative``, ``polite``,
        ``zero_width``, ``html_comment``, ``tag_block``, ``base64``, ``authority``...).
    catalogue : tuple of str
        The other tool names of the server, shown as name-only tools beside the carrier.
    note : str
        Provenance or remarks.
    """

    id: str
    split: str
    label: str
    place: str
    text: str
    server: str
    tool: str
    style: str
    param: str | None = None
    catalogue: tuple[str, ...] = ()
    note: str = ""


def _row(data: Any, where: str) -> LabelledText:
    if not isinstance(data, dict):
        raise DatasetError(f"{where}: a row must be a JSON object")
    missing = [k for k in _REQUIRED if not isinstance(data.get(k), str) or not data.get(k)]
    if missing:
        raise DatasetError(f"{where}: missing or empty {', '.join(missing)}")
    if data["split"] not in SPLITS:
        raise DatasetError(f"{where}: split must be one of {SPLITS}, got {data['split']!r}")
    if data["label"] not in LABELS:
        raise DatasetError(f"{where}: label must be one of {LABELS}, got {data['label']!r}")
    if data["place"] not in PLACES:
        raise DatasetError(f"{where}: place must be one of {PLACES}, got {data['place']!r}")
    if data["place"].startswith("param.") and not data.get("param"):
        raise DatasetError(f"{where}: place {data['place']} needs a param")
    return LabelledText(id=data["id"], split=data["split"], label=data["label"],
                        place=data["place"], text=data["text"], server=data["server"],
                        tool=data["tool"], style=data["style"], param=data.get("param"),
                        catalogue=tuple(data.get("catalogue") or ()), note=data.get("note", ""))


def load_labelled_set(path: str | os.PathLike[str] | None = None, *,
                      splits: Sequence[str] | None = None) -> list[LabelledText]:
    """Read the labelled set.

    Parameters
    ----------
    path : path, optional
        A JSONL file of rows; default: the packaged ``datasets/guard/labelled.jsonl``.
    splits : sequence of str, optional
        Keep only these splits (see :data:`SPLITS`); default: all.

    Returns
    -------
    list of LabelledText
        In file order.

    Raises
    ------
    toolform.errors.DatasetError
        When the file is missing, a line is not JSON, a row lacks a field or has an unknown
        split, label or place, or two rows share an id (the file and line are named).
    ValueError
        When ``splits`` names an unknown split.
    """
    if splits is not None and not set(splits) <= set(SPLITS):
        raise InvalidParameterError(f"splits must be among {SPLITS}, got {list(splits)!r}")
    source = (Path(path) if path is not None
              else Path(str(resources.files("toolform.datasets").joinpath(_DEFAULT))))
    try:
        lines = source.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise DatasetError(f"labelled set not found: {source}") from None
    rows: list[LabelledText] = []
    seen: set[str] = set()
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{source}:{n}"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{where}: not JSON ({exc.msg})") from None
        row = _row(data, where)
        if row.id in seen:
            raise DatasetError(f"{where}: duplicate id {row.id!r}")
        seen.add(row.id)
        if splits is None or row.split in splits:
            rows.append(row)
    return rows


def labelled_toolset(row: LabelledText) -> Toolset:
    """The toolset a row is scanned in: its catalogue as name-only tools, then the carrier.

    The carrier tool holds the text at the row's place: as its description or title, as its
    name, or in one string parameter's description, title or default, or as the value of a
    one-value enum parameter.

    Raises
    ------
    DatasetError
        When the row's place is not one of :data:`PLACES`.
    """
    if row.place == "tool.name":
        carrier = ToolIR(row.text)
    elif row.place == "tool.description":
        carrier = ToolIR(row.tool, description=row.text)
    elif row.place == "tool.title":
        carrier = ToolIR(row.tool, title=row.text)
    else:
        name = row.param or "value"
        if row.place == "param.enum":
            param = ParamIR(name, TypeIR("enum", values=(row.text,)))
        elif row.place == "param.default":
            param = ParamIR(name, TypeIR("string"), required=False, default=row.text)
        elif row.place == "param.title":
            param = ParamIR(name, TypeIR("string"), title=row.text)
        elif row.place == "param.description":
            param = ParamIR(name, TypeIR("string"), description=row.text)
        else:  # a row built by hand with a place of its own would be scored somewhere it is not
            raise DatasetError(f"row {row.id!r}: place must be one of {PLACES}, got {row.place!r}")
        carrier = ToolIR(row.tool, params=(param,))
    # a catalogue is a set of names: a name written twice is one tool, as a server lists it once
    others = tuple(ToolIR(n) for n in dict.fromkeys(row.catalogue) if n != carrier.name)
    return Toolset(others + (carrier,), source=row.id)


@dataclass(frozen=True)
class DetectorScores:
    """Detection quality on a labelled set at one severity threshold.

    Parameters
    ----------
    severity : str
        Threshold: a text counts as flagged with a finding at this severity or above.
    true_positives, false_positives, false_negatives, true_negatives : int
        Counts of injected-flagged, benign-flagged, injected-missed and benign-passed texts.
    rows : tuple of dict
        Per text: ``id``, ``split``, ``label``, ``place``, ``style``, ``flagged``, ``rules`` (ids
        found at the threshold).
    """

    severity: str
    true_positives: int
    false_positives: int
    false_negatives: int
    true_negatives: int
    rows: tuple[dict[str, Any], ...] = ()

    @property
    def recall(self) -> float:
        """Percent of injected texts flagged."""
        total = self.true_positives + self.false_negatives
        return 100.0 * self.true_positives / total if total else float("nan")

    @property
    def precision(self) -> float:
        """Percent of flagged texts that are injected."""
        total = self.true_positives + self.false_positives
        return 100.0 * self.true_positives / total if total else float("nan")

    @property
    def false_positive_rate(self) -> float:
        """Percent of benign texts flagged."""
        total = self.false_positives + self.true_negatives
        return 100.0 * self.false_positives / total if total else float("nan")

    @property
    def frame(self) -> pd.DataFrame:
        """The per-text rows as a DataFrame (id, split, label, place, style, flagged, rules)."""
        import pandas as pd

        return pd.DataFrame(list(self.rows), columns=["id", "split", "label", "place", "style",
                                                      "flagged", "rules"])

    def summary(self) -> str:
        """One line with recall, false-positive rate and precision (percent)."""
        return (f"at {self.severity}: recall {self.recall:.1f}% "
                f"({self.true_positives}/{self.true_positives + self.false_negatives} injected "
                f"flagged), false positives {self.false_positive_rate:.1f}% "
                f"({self.false_positives}/{self.false_positives + self.true_negatives} benign), "
                f"precision {self.precision:.1f}%")


def detector_scores(rows: Sequence[LabelledText] | None = None, *,
                    severity: str = "high") -> DetectorScores:
    """Scan every labelled text in its toolset and count what the guard flags.

    Parameters
    ----------
    rows : sequence of LabelledText, optional
        Default: :func:`load_labelled_set`.
    severity : {"high", "medium", "low"}, default "high"
        Flag a text when its carrier tool has a finding at this severity or above.

    Returns
    -------
    DetectorScores

    Raises
    ------
    ValueError
        On an unknown severity.
    """
    if severity not in SEVERITIES:
        raise InvalidParameterError(f"severity must be one of {SEVERITIES}, got {severity!r}")
    rows = load_labelled_set() if rows is None else rows
    limit = severity_rank(severity)
    counts = {"tp": 0, "fp": 0, "fn": 0, "tn": 0}
    out = []
    for row in rows:
        toolset = labelled_toolset(row)
        carrier = toolset.tools[-1].name
        rules = sorted({f.rule for f in scan_toolset(toolset)
                        if f.tool == carrier and severity_rank(f.severity) <= limit})
        flagged = bool(rules)
        injected = row.label == "injected"
        counts[("t" if flagged == injected else "f") + ("p" if flagged else "n")] += 1
        out.append({"id": row.id, "split": row.split, "label": row.label, "place": row.place,
                    "style": row.style, "flagged": flagged, "rules": rules})
    return DetectorScores(severity, counts["tp"], counts["fp"], counts["fn"], counts["tn"],
                          tuple(out))
