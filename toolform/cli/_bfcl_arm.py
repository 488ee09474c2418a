"""``toolform bfcl-arm``: formats × protocols on BFCL requests, graded four ways."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..abtest import LOCAL_MODEL_ID
from ..bfcl_arm import RECORDED_BFCL_CASSETTE, RECORDED_BFCL_CELL, RECORDED_MAX_TOKENS


def register(app: typer.Typer) -> None:
    """Add the ``bfcl-arm`` command to ``app``."""

    @app.command("bfcl-arm")
    def bfcl_arm_command(
        cells: str = typer.Option(RECORDED_BFCL_CELL.label,
                                  help="Comma-separated format/protocol cells."),
        model: str = typer.Option(LOCAL_MODEL_ID, help="Model id sent to the server."),
        base_url: Optional[str] = typer.Option(
            None, help="OpenAI-compatible base URL. Without it, the cassette is replayed."),
        api_key: Optional[str] = typer.Option(None, envvar="TOOLFORM_API_KEY",
                                              help="API key for the server, if it needs one."),
        cassette: Optional[Path] = typer.Option(
            None, help="Cassette to replay from (and record to, with --base-url). "
                       "Default: the committed local-model recording."),
        out: Path = typer.Option(Path("out/bfcl-arm"), help="Folder for CSVs and checkpoint."),
        concurrency: int = typer.Option(4, min=1, help="Requests in flight at once."),
        max_tokens: int = typer.Option(RECORDED_MAX_TOKENS, min=1,
                                       help="Completion budget per turn, in tokens "
                                            "(part of the cassette key)."),
        progress: bool = typer.Option(True, help="Show a progress bar."),
    ) -> None:
        """Run cells on the recorded BFCL draw (simple, multiple, parallel, parallel_multiple)
        and print accuracy under the three rules and BFCL's possible answers."""
        from ..bfcl_arm import bfcl_arm, bfcl_arm_requests, bfcl_arm_table
        from ..clients import cassette_client
        from ..datasets import data_path
        from ..runs import Cell

        chosen = []
        for label in filter(None, (c.strip() for c in cells.split(","))):
            format_id, _, protocol_id = label.partition("/")
            chosen.append(Cell(format_id, protocol_id or None))
        tape = cassette or data_path(RECORDED_BFCL_CASSETTE)
        client = cassette_client(tape, model, base_url=base_url, api_key=api_key,
                                 max_concurrency=concurrency)
        out.mkdir(parents=True, exist_ok=True)
        turns = bfcl_arm(bfcl_arm_requests(), client, chosen, checkpoint=out / "turns.jsonl",
                         max_concurrency=concurrency, max_tokens=max_tokens, progress=progress)
        table = bfcl_arm_table(turns)
        turns.to_csv(out / "turns.csv", index=False)
        table.to_csv(out / "table.csv", index=False)
        wide = table.pivot_table(index=["cell", "category"], columns="grading",
                                 values="accuracy", sort=False).round(1)
        typer.echo(wide.to_string())
        typer.echo(f"wrote {out / 'turns.csv'}, {out / 'table.csv'}")
