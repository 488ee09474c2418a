"""``toolform ab-test``: the eight-cell A/B test from the command line."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..abtest import LOCAL_MODEL_ID, RECORDED_AB_CASSETTE, RECORDED_AB_DATASETS


def register(app: typer.Typer) -> None:
    """Add the ``ab-test`` command to ``app``."""

    @app.command("ab-test")
    def ab_test_command(
        dataset: str = typer.Option(",".join(RECORDED_AB_DATASETS),
                                    help="Comma-separated dataset names."),
        model: str = typer.Option(LOCAL_MODEL_ID, help="Model id sent to the server."),
        base_url: Optional[str] = typer.Option(
            None, help="OpenAI-compatible base URL (e.g. http://127.0.0.1:8080/v1). "
                       "Without it, the cassette is replayed offline."),
        api_key: Optional[str] = typer.Option(None, envvar="TOOLFORM_API_KEY",
                                              help="API key for the server, if it needs one."),
        n: int = typer.Option(50, min=1, help="Requests per cell."),
        out: Path = typer.Option(Path("out/ab-test"), help="Folder for CSV, chart and checkpoint."),
        cassette: Optional[Path] = typer.Option(
            None, help="Cassette to replay from (and record to, with --base-url). "
                       "Default: the committed local-model recording."),
        seed: int = typer.Option(0, help="Seed of the request draw and the bootstrap."),
        concurrency: int = typer.Option(4, min=1, help="Requests in flight at once."),
        max_tokens: int = typer.Option(160, min=1, help="Completion budget per turn, in tokens "
                                                        "(part of the cassette key)."),
        progress: bool = typer.Option(True, help="Show a progress bar."),
    ) -> None:
        """Run the eight core formats, each with its default protocol, and print the table."""
        from ..abtest import ab_test
        from ..charts import save_chart
        from ..clients import cassette_client
        from ..datasets import data_path, load_dataset

        datasets = [load_dataset(name.strip()) for name in dataset.split(",") if name.strip()]
        tape = cassette or data_path(RECORDED_AB_CASSETTE)
        client = cassette_client(tape, model, base_url=base_url, api_key=api_key,
                                 max_concurrency=concurrency)
        out.mkdir(parents=True, exist_ok=True)
        result = ab_test(datasets, client, n=n, seed=seed, checkpoint=out / "turns.jsonl",
                         max_concurrency=concurrency, max_tokens=max_tokens, progress=progress)
        result.turns.to_csv(out / "turns.csv", index=False)
        result.cells.to_csv(out / "cells.csv", index=False)
        written = save_chart(result.chart(), out / "ab_chart")
        typer.echo(result.table().to_string(index=False))
        typer.echo(result.summary())
        typer.echo(f"wrote {out / 'turns.csv'}, {out / 'cells.csv'}, "
                   + ", ".join(str(p) for p in written))
