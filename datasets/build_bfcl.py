"""Build ``datasets/bfcl/*.jsonl`` from the Berkeley Function Calling Leaderboard's own data.

The data ships inside the ``bfcl-eval`` package (``bfcl_eval/data/``): ``BFCL_v4_<category>.json``
holds the questions and function documents, ``possible_answer/BFCL_v4_<category>.json`` the
acceptable answers, both as JSON Lines matched by ``id``. Each question becomes one
``toolform.ir.Request`` line::

    pip install --no-deps bfcl-eval
    python datasets/build_bfcl.py                      # or: --data-dir path/to/bfcl_eval/data

Function documents go through ``toolform.io.from_bfcl``. In a possible answer, ``""`` among an
argument's values means the argument may be left out: the argument is listed in the gold call's
``may_omit`` and the ``""`` is dropped (an argument whose only value was ``""`` keeps an empty
tuple of values: leaving it out is the only right answer).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any, Iterator

from toolform.errors import DatasetError, LoaderError
from toolform.io import from_bfcl
from toolform.ir import GoldCall, Request

#: The categories converted by default (single-turn, single-call, Python).
CATEGORIES = ("simple_python", "multiple", "parallel", "parallel_multiple", "irrelevance",
              "live_simple", "live_multiple")
#: Rows of BFCL's own data whose gold call does not fit its toolset; left out, and listed in
#: the data card. Any other such row stops the build.
KNOWN_SOURCE_ERRORS = frozenset({"parallel_multiple_12", "parallel_multiple_26",
                                 "live_multiple_862-181-3", "live_multiple_964-207-0",
                                 "live_simple_106-63-0", "live_simple_112-68-0",
                                 "live_multiple_507-149-4"})
#: Categories where no tool fits: BFCL ships no possible answers, and the gold is "no call".
NO_CALL_CATEGORIES = ("irrelevance",)
#: Where the built files go by default: the ``bfcl`` folder beside this script.
OUT_DIR = Path(__file__).resolve().parent / "bfcl"


def bfcl_data_dir() -> Path:
    """The ``data`` folder of the installed ``bfcl_eval`` package (found without importing it).

    Raises
    ------
    DatasetError
        When ``bfcl-eval`` is not installed.
    """
    spec = importlib.util.find_spec("bfcl_eval")
    if spec is None or not spec.submodule_search_locations:
        raise DatasetError("bfcl-eval is not installed: pip install --no-deps bfcl-eval "
                           "(or pass --data-dir)")
    return Path(next(iter(spec.submodule_search_locations))) / "data"


def _read_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each non-blank line; a bad line raises naming file and line."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DatasetError(f"cannot read {path}: {exc}") from exc
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{path}, line {number}: not JSON ({exc})") from exc
        if not isinstance(value, dict):
            raise DatasetError(f"{path}, line {number}: expected an object")
        yield number, value


def gold_calls(ground_truth: list[dict[str, Any]], where: str) -> tuple[GoldCall, ...]:
    """BFCL possible answers as gold calls.

    Parameters
    ----------
    ground_truth : list of dict
        BFCL's ``[{func_name: {arg: [acceptable values]}}]``.
    where : str
        File and line, for errors.

    Returns
    -------
    tuple of GoldCall
        One per entry, every acceptable value kept; ``""`` turns into ``may_omit``.

    Raises
    ------
    DatasetError
        When an entry is not a one-key object of argument lists.
    """
    calls = []
    for index, entry in enumerate(ground_truth):
        if not isinstance(entry, dict) or len(entry) != 1:
            raise DatasetError(f"{where}: ground_truth[{index}] must be one {{name: args}} object")
        (name, args), = entry.items()
        if not isinstance(args, dict) or not all(isinstance(v, list) for v in args.values()):
            raise DatasetError(f"{where}: ground_truth[{index}].{name} must map arguments to "
                               "lists of acceptable values")
        accepted = {arg: tuple(concrete for v in values if v != ""
                               for concrete in expand_nested(v))
                    for arg, values in args.items()}
        may_omit = tuple(arg for arg, values in args.items() if "" in values)
        calls.append(GoldCall(name=name, accepted=accepted, may_omit=may_omit))
    return tuple(calls)


def _is_nested_answer(value: Any) -> bool:
    """A dict whose every value is a list of acceptable values: BFCL's nested possible answer."""
    return isinstance(value, dict) and bool(value) and \
        all(isinstance(v, list) for v in value.values())


def expand_nested(value: Any) -> list[Any]:
    """Every concrete value a BFCL nested possible answer stands for.

    Inside an object argument BFCL keeps, per key, a list of acceptable values (``""``: the key
    may be left out); a list of such objects is matched element by element. Gold calls hold
    concrete values, so each nested answer becomes the product of its keys' options (at most
    128 variants in the v4 data).

    Parameters
    ----------
    value : Any
        One acceptable value of an argument.

    Returns
    -------
    list
        The concrete values, in the source's order; ``[value]`` for a plain value.
    """
    if _is_nested_answer(value):
        variants: list[dict[str, Any]] = [{}]
        for key, options in value.items():
            choices = [(False, None)] * ("" in options) + [
                (True, c) for o in options if o != "" for c in expand_nested(o)]
            variants = [{**v, key: c} if keep else v for v in variants for keep, c in choices]
        return variants
    if isinstance(value, list) and value and all(_is_nested_answer(v) for v in value):
        products: list[list[Any]] = [[]]
        for item in value:
            products = [p + [c] for p in products for c in expand_nested(item)]
        return products
    return [value]


def convert(category: str, data_dir: Path, version: str) -> list[Request]:
    """Every question of one BFCL category as a ``Request``.

    Parameters
    ----------
    category : str
        A BFCL v4 category with single-turn, single-message questions (``simple_python``...).
    data_dir : Path
        The ``bfcl_eval/data`` folder.
    version : str
        The bfcl-eval version, for each request's ``source``.

    Returns
    -------
    list of Request
        In the source's order.

    Raises
    ------
    DatasetError
        On a question that is not one user message, answers that do not match the questions
        one to one, or a gold call naming a tool or argument the toolset lacks.
    """
    questions_path = data_dir / f"BFCL_v4_{category}.json"
    answers_path = data_dir / "possible_answer" / f"BFCL_v4_{category}.json"
    answers = ({} if category in NO_CALL_CATEGORIES else
               {row["id"]: (number, row) for number, row in _read_jsonl(answers_path)})
    source = f"BFCL v4 {category}, bfcl-eval {version}, Apache-2.0"
    requests = []
    for number, row in _read_jsonl(questions_path):
        where = f"{questions_path}, line {number} ({row.get('id')})"
        turns = row.get("question")
        roles = [m.get("role") for m in turns[0]] if isinstance(turns, list) and len(turns) == 1 \
            else None
        if roles not in (["user"], ["system", "user"]):
            raise DatasetError(f"{where}: expected one turn of a user message, after at most one "
                               "system message")
        toolset = from_bfcl(row["function"], source=f"{questions_path}#{row['id']}")
        if category in NO_CALL_CATEGORIES:
            gold: tuple[GoldCall, ...] = ()
        elif row["id"] not in answers:
            raise DatasetError(f"{where}: no possible answer in {answers_path}")
        else:
            answer_line, answer = answers.pop(row["id"])
            gold = gold_calls(answer["ground_truth"], f"{answers_path}, line {answer_line}")
        problem = _gold_problem(gold, toolset)
        if problem:
            if row["id"] not in KNOWN_SOURCE_ERRORS:
                raise DatasetError(f"{where}: {problem}")
            continue  # a documented error in BFCL's own data: the row is left out
        requests.append(Request(id=row["id"], text=turns[0][-1]["content"], toolset=toolset,
                                gold=gold, category=category, source=source,
                                system=turns[0][0]["content"] if len(turns[0]) == 2 else ""))
    if answers:
        raise DatasetError(f"{answers_path}: answers without a question: {sorted(answers)[:5]}")
    return requests


def _gold_problem(gold: tuple[GoldCall, ...], toolset: Any) -> str:
    """Why the gold calls do not fit the toolset ("" when they do)."""
    for call in gold:
        tool = toolset.get(call.name)
        if tool is None:
            return f"gold call {call.name!r} is not in the toolset {toolset.names}"
        unknown = [arg for arg in call.accepted if tool.param(arg) is None]
        if unknown:
            return f"gold arguments {unknown} are not parameters of {call.name!r}"
        closed = [arg for arg, values in call.accepted.items()
                  if not values and arg not in call.may_omit]
        if closed:  # BFCL's checker can never pass such a row
            return f"gold arguments {closed} accept no value and may not be left out"
        absent = [arg for arg, values in call.accepted.items()
                  if not values and tool.param(arg).required]
        if absent:  # BFCL's checker wants required arguments present: never passes either
            return f"required arguments {absent} may only be left out"
    return ""


def write_jsonl(requests: list[Request], path: Path) -> None:
    """Write one ``Request.to_dict()`` per line, UTF-8, in order (folders are created).

    Parameters
    ----------
    requests : list of Request
        What to write.
    path : Path
        The JSONL file to (over)write.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        for request in requests:
            out.write(json.dumps(request.to_dict(), ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point.

    Parameters
    ----------
    argv : list of str, optional
        Arguments (default: ``sys.argv[1:]``): ``--data-dir``, ``--bfcl-version``, ``--out``,
        ``--categories``.

    Returns
    -------
    int
        0 on success, 1 when the data is missing or malformed (the reason goes to stderr).
    """
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="bfcl_eval/data folder (default: the installed bfcl-eval package's)")
    parser.add_argument("--bfcl-version", default=None,
                        help="bfcl-eval version for the source field (default: the installed one)")
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="output folder")
    parser.add_argument("--categories", nargs="+", default=list(CATEGORIES))
    args = parser.parse_args(argv)
    try:
        data_dir = args.data_dir or bfcl_data_dir()
        version = args.bfcl_version
        if version is None:
            try:
                version = importlib.metadata.version("bfcl-eval")
            except importlib.metadata.PackageNotFoundError as exc:
                raise DatasetError("bfcl-eval is not installed; pass --bfcl-version") from exc
        for category in args.categories:
            requests = convert(category, data_dir, version)
            target = args.out / f"{category}.jsonl"
            write_jsonl(requests, target)
            print(f"{target}: {len(requests)} requests")
    except (DatasetError, LoaderError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
