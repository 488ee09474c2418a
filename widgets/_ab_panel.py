"""``ABTestPanel``: run the eight-cell A/B test from a notebook, watch it, stop it, resume it."""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from toolform.abtest import (CORE_FORMATS, LOCAL_MODEL_ID, RECORDED_AB_CASSETTE,
                             RECORDED_AB_DATASETS, ABResult, ab_test, select_requests,
                             summarize_cells)
from toolform.clients import OpenAICompatClient, ReplayClient
from toolform.datasets import data_path, dataset_names, load_dataset
from toolform.errors import DatasetError
from toolform.runs import read_checkpoint, turns_frame

from ._html import error, esc, frame_table

__all__ = ["ABTestPanel"]

#: Where the model's replies come from: (label, value) pairs of :attr:`ABTestPanel.model_source`.
MODEL_SOURCES = (("replay a cassette", "replay"), ("local server", "local"),
                 ("any base URL", "url"))

#: The local model server's address (``toolform local-model serve``).
LOCAL_BASE_URL = "http://127.0.0.1:8080/v1"


class ABTestPanel(widgets.VBox):
    """The eight-cell A/B test (``toolform.abtest.ab_test``) with start, stop and resume.

    The run happens on a background thread, checkpointed turn by turn to a JSONL file
    (``toolform.runs``). While it runs, the panel reads the checkpoint every ``poll_s`` seconds
    and shows the progress, the table (``ABResult.table()``: accuracy per cell and rule in
    percent, Wilson 95% intervals, paired bootstrap contrast against ``json_schema_openai`` in
    percentage points) and the chart (``ABResult.chart()``) of the turns finished so far. Stop
    lets the turns in flight finish and starts no more; Resume runs again on the same checkpoint,
    which asks only for the turns not yet finished.

    Parameters
    ----------
    client : ChatClient, optional
        A client to run against instead of the model controls (anything with ``model`` and
        ``complete``, e.g. an ``OpenAICompatClient`` with custom settings); the model controls
        are then hidden.
    poll_s : float, default 0.5
        Seconds between looks at the checkpoint while a run is going.

    Attributes
    ----------
    model_source : ipywidgets.ToggleButtons
        ``"replay"`` (the cassette, offline), ``"local"`` (:data:`LOCAL_BASE_URL`) or ``"url"``.
    model, base_url, cassette, checkpoint : ipywidgets.Text
        The model id; the server's API root (for ``"url"``); the cassette to replay (or record
        to); the checkpoint file (blank: Start makes a new one in a temporary folder).
    api_key : ipywidgets.Password
        Bearer token for servers that need one.
    record : ipywidgets.Checkbox
        With a live model, also append every reply to :attr:`cassette` (replayed on a rerun).
    datasets : ipywidgets.SelectMultiple
        The packaged datasets requests are drawn from.
    n, seed : ipywidgets.BoundedIntText, ipywidgets.IntText
        Requests per cell, and the seed of the draw and the bootstrap.
    start_button, stop_button, resume_button : ipywidgets.Button
    progress : ipywidgets.IntProgress
        Turns finished out of cells × requests.
    status : ipywidgets.HTML
        What the run is doing, or why it failed.
    table : ipywidgets.HTML
        The display table of the turns finished so far.
    chart : ipywidgets.Output
        The Altair chart of the turns finished so far.
    result : ABResult or None
        The finished (or stopped) run's result.
    """

    def __init__(self, client: Any = None, *, poll_s: float = 0.5) -> None:
        self.poll_s = poll_s
        self._given = client
        self.result: ABResult | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._worker: threading.Thread | None = None
        self._poller: threading.Thread | None = None
        self._shown = -1
        self._ended = False
        self.model_source = widgets.ToggleButtons(options=MODEL_SOURCES, value="replay",
                                                  description="model")
        self.model = widgets.Text(value=LOCAL_MODEL_ID, description="model id")
        self.base_url = widgets.Text(value=LOCAL_BASE_URL, description="base URL")
        self.api_key = widgets.Password(description="API key")
        try:
            recorded = str(data_path(RECORDED_AB_CASSETTE))
        except DatasetError:  # an install without the committed recording
            recorded = ""
        self.cassette = widgets.Text(value=recorded, description="cassette",
                                     placeholder="a cassette .jsonl file",
                                     layout=widgets.Layout(width="80%"))
        self.record = widgets.Checkbox(value=False, description="record replies to the cassette",
                                       indent=False)
        names = dataset_names()
        chosen = [d for d in RECORDED_AB_DATASETS if d in names]
        self.datasets = widgets.SelectMultiple(options=names, value=chosen or names[:1],
                                               description="datasets", rows=4)
        self.n = widgets.BoundedIntText(value=50, min=1, max=10_000, description="N per cell")
        self.seed = widgets.IntText(value=0, description="seed")
        self.checkpoint = widgets.Text(description="checkpoint", placeholder="(new temporary file)",
                                       layout=widgets.Layout(width="80%"))
        self.start_button = widgets.Button(description="Start", button_style="primary",
                                           icon="play")
        self.stop_button = widgets.Button(description="Stop", button_style="warning",
                                          icon="stop", disabled=True)
        self.resume_button = widgets.Button(description="Resume", icon="forward")
        self.progress = widgets.IntProgress(value=0, min=0, max=1, description="turns")
        self.status = widgets.HTML()
        self.table = widgets.HTML(layout=widgets.Layout(width="98%"))
        self.chart = widgets.Output()
        self._live = widgets.VBox([self.base_url, self.api_key, self.record])
        if client is None:
            model_controls = [self.model_source, self.model, self._live, self.cassette]
        else:
            self.model.value = getattr(client, "model", "") or ""
            model_controls = [widgets.HTML(f"model <b>{esc(self.model.value)}</b> "
                                           f"(client {esc(type(client).__name__)})")]
        super().__init__(children=[
            *model_controls,
            widgets.HBox([self.datasets, widgets.VBox([self.n, self.seed])]), self.checkpoint,
            widgets.HBox([self.start_button, self.stop_button, self.resume_button]),
            widgets.HBox([self.progress, self.status]), self.table, self.chart,
        ])
        self._on_source()
        self.model_source.observe(lambda _: self._on_source(), names="value")
        self.start_button.on_click(lambda _: self.start())
        self.stop_button.on_click(lambda _: self.stop())
        self.resume_button.on_click(lambda _: self.resume())

    def __repr__(self) -> str:
        return (f"ABTestPanel(model={self.model.value!r}, source={self.model_source.value!r}, "
                f"n={self.n.value})")

    @property
    def running(self) -> bool:
        """A run is going."""
        return self._worker is not None and self._worker.is_alive()

    def _on_source(self) -> None:
        source = self.model_source.value
        self._live.layout.display = "none" if source == "replay" else None
        self.base_url.disabled = source == "local"
        if source == "local":
            self.base_url.value = LOCAL_BASE_URL

    def _client(self) -> Any:
        if self._given is not None:
            return self._given
        if self.model_source.value == "replay":
            return ReplayClient(self.cassette.value, model=self.model.value, mode="replay")
        live = OpenAICompatClient(self.base_url.value, self.model.value,
                                  api_key=self.api_key.value or None)
        if self.record.value:
            return ReplayClient(self.cassette.value, inner=live, mode="auto")
        return live

    # -- actions ---------------------------------------------------------------------------------
    def start(self) -> None:
        """Start a new run on a new checkpoint (a given checkpoint path must not exist yet)."""
        if self.running:
            return
        path = self.checkpoint.value.strip()
        if path and Path(path).exists():
            self.status.value = (f"the checkpoint <code>{esc(path)}</code> exists: press Resume "
                                 "to continue that run, or give another path")
            return
        if not path:
            path = str(Path(tempfile.mkdtemp(prefix="toolform-ab-")) / "turns.jsonl")
            self.checkpoint.value = path
        self.result = None
        self._launch(path, "started")

    def resume(self) -> None:
        """Run again on the current checkpoint: only the turns not yet finished are asked."""
        if self.running:
            return
        path = self.checkpoint.value.strip()
        if not path:
            self.status.value = "no checkpoint to resume: press Start first"
            return
        self._launch(path, "resumed")

    def stop(self) -> None:
        """Let the turns in flight finish and start no more (Resume continues the run)."""
        if self.running:
            self._stop.set()
            self.status.value = "stopping: the turns in flight finish, then the run stops"

    def wait(self, timeout: float | None = None) -> ABResult | None:
        """Block until the current run ends (or ``timeout`` seconds pass); return its result."""
        for thread in (self._worker, self._poller):
            if thread is not None:
                thread.join(timeout)
        return self.result

    # -- the run ---------------------------------------------------------------------------------
    def _launch(self, path: str, verb: str) -> None:
        try:
            client = self._client()
            sources = [load_dataset(name) for name in self.datasets.value]
            planned = len(CORE_FORMATS) * len(select_requests(sources, self.n.value,
                                                              self.seed.value))
        except Exception as exc:  # a bad cassette, URL or dataset is shown, not raised
            self.status.value = error(exc)
            return
        self._stop = threading.Event()
        self._shown = -1
        self._ended = False
        self.progress.max = max(planned, 1)
        self.progress.value = 0
        self.status.value = f"{verb}: {planned} turns planned, checkpoint <code>{esc(path)}</code>"
        self._buttons(running=True)
        args = (client, sources, self.n.value, self.seed.value, path)
        self._worker = threading.Thread(target=self._work, args=args, daemon=True,
                                        name="toolform-ab-run")
        self._poller = threading.Thread(target=self._poll, args=(path, self.seed.value),
                                        daemon=True, name="toolform-ab-poll")
        self._worker.start()
        self._poller.start()

    def _work(self, client: Any, sources: list[Any], n: int, seed: int, path: str) -> None:
        try:
            result = ab_test(sources, client, n=n, seed=seed, checkpoint=path, progress=False,
                             stop=self._stop)
        except Exception as exc:  # the run's failure is shown in the panel
            self.status.value = error(exc)
        else:
            self.result = result
            self._show(result, final=True)
            finished = len(result.turns)
            failed = int(result.turns["error"].notna().sum())
            stopped = self._stop.is_set() and finished < self.progress.max
            head = (f"stopped after {finished} of {self.progress.max} turns (Resume continues)"
                    if stopped else f"done: {finished} turns")
            errors = (f"; {failed} turns failed, e.g. {esc(result.turns['error'].dropna().iloc[0])}"
                      if failed else "")
            best = f"; {esc(result.summary())}" if not stopped and len(result.best) else ""
            self.status.value = head + errors + best
        finally:
            self._buttons(running=False)

    def _poll(self, path: str, seed: int) -> None:
        worker = self._worker
        while worker is not None and worker.is_alive():
            worker.join(self.poll_s)
            rows = read_checkpoint(path)
            if rows and len(rows) != self._shown and worker.is_alive():
                turns = turns_frame(rows)
                # the headline cell is only chosen when the run ends
                self._show(ABResult(turns=turns, cells=summarize_cells(turns, seed=seed),
                                    headline_rule="", best=(), model=self.model.value))

    def _show(self, result: ABResult, *, final: bool = False) -> None:
        with self._lock:
            if self._ended and not final:
                return  # the finished run's result is already shown
            self._ended = self._ended or final
            self._shown = len(result.turns)
            self.progress.value = min(self._shown, self.progress.max)
            self.table.value = (f'<div style="overflow-x: auto">{frame_table(result.table())}'
                                "</div>")
            self.chart.outputs = ()
            self.chart.append_display_data(result.chart())

    def _buttons(self, *, running: bool) -> None:
        self.start_button.disabled = running
        self.resume_button.disabled = running
        self.stop_button.disabled = not running
