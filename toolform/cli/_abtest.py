"""``toolform ab-test``: the eight-cell A/B test from the command line.

Exit status: 0 on success; 1 under ``--strict`` when a turn failed; 2 for a usage error (an
unknown dataset, an unreadable cassette, a replayed draw the cassette does not hold).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..recordings import (LOCAL_MODEL_ID, RECORDED_AB_CASSETTE, RECORDED_AB_DATASETS,
                          RECORDED_AB_MAX_TOKENS)

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add the ``ab-test`` command to ``app``.

    Parameters
    ----------
    app : typer.Typer
        The ``toolform`` command-line app.
    """

    @app.command("ab-test")
    def ab_test_command(
        dataset: str = typer.Option(",".join(RECORDED_AB_DATASETS), metavar="NAMES",
                                    help="Comma-separated dataset names."),
        model: str = typer.Option(LOCAL_MODEL_ID, metavar="ID",
                                  help="Model id sent to the server."),
        base_url: Optional[str] = typer.Option(
            None, metavar="URL", help="OpenAI-compatible base URL (e.g. "
                                      "http://127.0.0.1:8080/v1). Without it, the cassette is "
                                      "replayed offline."),
        api_key: Optional[str] = typer.Option(None, envvar="TOOLFORM_API_KEY", metavar="KEY",
                                              help="API key for the server, if it needs one."),
        n: int = typer.Option(50, min=1, metavar="N", help="Requests per cell."),
        out: Path = typer.Option(Path("out/ab-test"), metavar="DIR",
                                 help="Folder for CSV, chart and checkpoint."),
        cassette: Optional[Path] = typer.Option(
            None, metavar="FILE", help="Cassette to replay from (and record to, with "
                                       "--base-url). Default: the committed local-model "
                                       "recording."),
        seed: int = typer.Option(0, metavar="N",
                                 help="Seed of the request draw and the bootstrap."),
        concurrency: int = typer.Option(4, min=1, metavar="N",
                                        help="Requests in flight at once."),
        timeout: float = typer.Option(60.0, min=0.001, metavar="SECONDS",
                                      help="Per-attempt timeout of a live request, in seconds."),
        retries: int = typer.Option(4, min=0, metavar="N",
                                    help="Retries of a live request after the first attempt: "
                                         "timeouts, connection errors, HTTP 408/409/429/5xx "
                                         "and malformed bodies, after 0.5 s doubling to 8 s "
                                         "(or the server's Retry-After, up to 120 s)."),
        max_tokens: int = typer.Option(RECORDED_AB_MAX_TOKENS, min=1, metavar="N",
                                       help="Completion budget per turn, in tokens (part of the "
                                            "cassette key)."),
        pace: float = typer.Option(0.0, min=0.0, metavar="SECONDS",
                                   help="Wait this long before each replayed reply (to watch a "
                                        "replay, or stop and resume it)."),
        allow_misses: bool = typer.Option(False, "--allow-misses",
                                          help="Replay a draw the cassette does not wholly "
                                               "hold; the missing turns are failed turns."),
        strict: bool = typer.Option(False, "--strict",
                                    help="Exit 1 when any turn failed."),
        progress: bool = typer.Option(True, help="Show a progress bar."),
    ) -> None:
        """Run the eight core formats, each with its default protocol, and print the table.

        The table gives accuracy in percent of graded turns under the three grading rules,
        with a Wilson 95% interval and the paired contrast against json_schema_openai in
        percentage points (bootstrap 95% interval) under the headline rule, symmetric. Failed
        turns are counted on stderr. Writes turns.csv, cells.csv, the checkpoint turns.jsonl
        and the chart ab_chart.html (self-contained) and ab_chart.png to --out.
        """
        from ..experiments import ab_test
        from ..charts import save_chart
        from ..clients import cassette_client
        from ..csvtext import write_csv
        from ..datasets import data_path, load_dataset
        from ..errors import ToolFormError
        from ._failures import fail, refuse_misses, report_failures

        try:
            datasets = [load_dataset(name.strip()) for name in dataset.split(",")
                        if name.strip()]
            tape = cassette or data_path(RECORDED_AB_CASSETTE)
            client = cassette_client(tape, model, base_url=base_url, api_key=api_key,
                                     max_concurrency=concurrency, pace_s=pace,
                                     timeout=timeout, retries=retries)
        except (ToolFormError, ValueError, OSError) as exc:
            raise fail(str(exc)) from None
        if not datasets:
            raise fail("--dataset names no dataset")

        def run(chat_client, **options):
            return ab_test(datasets, chat_client, n=n, seed=seed, concurrency=concurrency,
                           max_tokens=max_tokens, **options)

        if base_url is None and not allow_misses:
            refuse_misses(lambda probe: run(probe, progress=False).turns, client,
                          f"the draw (--seed {seed}, --n {n}, --dataset {dataset})")
        out.mkdir(parents=True, exist_ok=True)
        result = run(client, checkpoint=out / "turns.jsonl", progress=progress)
        # any reply text survives: NUL and lone surrogates are written as _xHHHH_ escapes
        # (toolform.csvtext; read_csv restores them)
        write_csv(result.turns, out / "turns.csv")
        write_csv(result.cells, out / "cells.csv")
        written = save_chart(result.chart(), out / "ab_chart")
        typer.echo(result.report())
        for path in [out / "turns.csv", out / "cells.csv", *written]:
            typer.echo(f"wrote {path}")
        report_failures(result.turns, strict=strict)
