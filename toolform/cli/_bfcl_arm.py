"""``toolform bfcl-arm``: formats × protocols on BFCL requests, graded four ways.

Exit status: 0 on success; 1 under ``--strict`` when a turn failed; 2 for a usage error (an
unknown cell, an unreadable cassette, a replayed draw the cassette does not hold).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

from ..experiments import RECORDED_BFCL_CASSETTE, RECORDED_BFCL_CELL, RECORDED_BFCL_MAX_TOKENS
from ..recordings import LOCAL_MODEL_ID

__all__ = ["bfcl_arm_text", "register"]


def bfcl_arm_text(table: Any, turns: Any) -> str:
    """The BFCL arm's table for a terminal: one block per cell, one row per category.

    Parameters
    ----------
    table : pandas.DataFrame
        ``bfcl_arm_table(turns)``: accuracy and Wilson 95% interval (percent) per cell,
        category and grading.
    turns : pandas.DataFrame
        The turns it was made from (for the failed turns per category).

    Returns
    -------
    str
        Lines of at most 100 characters: per category the graded turns ``n``, the failed
        turns, and each grading's ``accuracy [low, high]``.
    """
    from ..grading import GRADINGS

    failed = turns[turns["error"].notna()].groupby(["cell", "category"]).size()
    lines = ["Accuracy in percent of graded turns [Wilson 95% interval]; n graded turns, "
             "failed turns left out.",
             "Gradings: the study's three rules (main, symmetric, as_written) and BFCL's "
             "possible answers."]
    for cell, group in table.groupby("cell", sort=False):
        header = ["category", "n", "failed", *GRADINGS]
        rows = []
        for category, rows_of in group.groupby("category", sort=False):
            by_rule = rows_of.set_index("rule")
            rows.append([category, str(int(rows_of["n"].iloc[0])),
                         str(int(failed.get((cell, category), 0))),
                         *(f"{by_rule.at[g, 'accuracy']:.1f} [{by_rule.at[g, 'ci_low']:.1f}, "
                           f"{by_rule.at[g, 'ci_high']:.1f}]" for g in GRADINGS)])
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        lines += ["", f"cell {cell}"]
        lines += [" ".join(text.ljust(w) if i == 0 else text.rjust(w)
                            for i, (text, w) in enumerate(zip(r, widths))).rstrip()
                  for r in [header, *rows]]
    return "\n".join(lines)


def register(app: typer.Typer) -> None:
    """Add the ``bfcl-arm`` command to ``app``.

    Parameters
    ----------
    app : typer.Typer
        The ``toolform`` command-line app.
    """

    @app.command("bfcl-arm")
    def bfcl_arm_command(
        cells: str = typer.Option(RECORDED_BFCL_CELL.label, metavar="CELLS",
                                  help="Comma-separated format/protocol cells."),
        model: str = typer.Option(LOCAL_MODEL_ID, metavar="ID",
                                  help="Model id sent to the server."),
        base_url: Optional[str] = typer.Option(
            None, metavar="URL",
            help="OpenAI-compatible base URL. Without it, the cassette is replayed."),
        api_key: Optional[str] = typer.Option(None, envvar="TOOLFORM_API_KEY", metavar="KEY",
                                              help="API key for the server, if it needs one."),
        cassette: Optional[Path] = typer.Option(
            None, metavar="FILE", help="Cassette to replay from (and record to, with "
                                       "--base-url). Default: the committed local-model "
                                       "recording."),
        out: Path = typer.Option(Path("out/bfcl-arm"), metavar="DIR",
                                 help="Folder for CSVs and checkpoint."),
        concurrency: int = typer.Option(4, min=1, metavar="N",
                                        help="Requests in flight at once."),
        max_tokens: int = typer.Option(RECORDED_BFCL_MAX_TOKENS, min=1, metavar="N",
                                       help="Completion budget per turn, in tokens (part of the "
                                            "cassette key)."),
        allow_misses: bool = typer.Option(False, "--allow-misses",
                                          help="Replay cells the cassette does not wholly "
                                               "hold; the missing turns are failed turns."),
        strict: bool = typer.Option(False, "--strict", help="Exit 1 when any turn failed."),
        progress: bool = typer.Option(True, help="Show a progress bar."),
    ) -> None:
        """Run cells on the recorded BFCL draw (simple, multiple, parallel, parallel_multiple)
        and print accuracy under the three rules and BFCL's possible answers.

        Prints, per cell and BFCL category, the graded and failed turns and each grading's
        accuracy with its Wilson 95% interval (percent). Writes turns.csv, table.csv and the
        checkpoint turns.jsonl to --out.
        """
        from ..experiments import bfcl_arm, bfcl_arm_requests
        from ..clients import cassette_client
        from ..csvtext import write_csv
        from ..datasets import data_path
        from ..errors import ToolFormError
        from ..formats import get_format
        from ..protocols import get_protocol
        from ..runs import Cell
        from ._failures import fail, refuse_misses, report_failures

        chosen = []
        labels = [c.strip() for c in cells.split(",") if c.strip()]
        try:
            for label in labels:
                format_id, _, protocol_id = label.partition("/")
                get_format(format_id)
                if protocol_id:
                    get_protocol(protocol_id)
                chosen.append(Cell(format_id, protocol_id or None))
            tape = cassette or data_path(RECORDED_BFCL_CASSETTE)
            client = cassette_client(tape, model, base_url=base_url, api_key=api_key,
                                     max_concurrency=concurrency)
        except (ToolFormError, ValueError, OSError) as exc:
            raise fail(str(exc)) from None
        if not chosen:
            raise fail("--cells names no cell")
        requests = bfcl_arm_requests()

        def run(chat_client, **options):
            return bfcl_arm(requests, chat_client, cells=chosen, concurrency=concurrency,
                            max_tokens=max_tokens, **options)

        if base_url is None and not allow_misses:
            refuse_misses(lambda probe: run(probe, progress=False).turns, client,
                          f"the cells {', '.join(labels)}")
        out.mkdir(parents=True, exist_ok=True)
        result = run(client, checkpoint=out / "turns.jsonl", progress=progress)
        turns, table = result.turns, result.cells
        write_csv(turns, out / "turns.csv")  # any reply text survives (toolform.csvtext)
        write_csv(table, out / "table.csv")
        typer.echo(bfcl_arm_text(table, turns))
        for path in (out / "turns.csv", out / "table.csv"):
            typer.echo(f"wrote {path}")
        report_failures(turns, strict=strict)
