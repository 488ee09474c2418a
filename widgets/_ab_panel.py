"""``ABTestPanel``: run the eight-cell A/B test from a notebook, watch it, stop it, resume it."""

from __future__ import annotations

import tempfile
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from toolform.charts import displayable
from toolform.clients import OpenAICompatClient, ReplayClient
from toolform.datasets import data_path, dataset_names, load_dataset
from toolform.errors import DatasetError, OutputExistsError
from toolform.experiments import (CORE_CELLS, LOCAL_MODEL_ID, RECORDED_AB_CASSETTE,
                                  RECORDED_AB_DATASETS, RECORDED_AB_MAX_TOKENS, ABResult, ab_test,
                                  select_requests, summarize_cells)
from toolform.runs import turns_frame

from ._common import Conventions
from ._html import error, esc, frame_table

__all__ = ["ABTestPanel"]

#: Where the model's replies come from: (label, value) pairs of :attr:`ABTestPanel.model_source`.
MODEL_SOURCES = (("replay a cassette", "replay"), ("local server", "local"),
                 ("any base URL", "url"))

#: The local model server's address (``toolform local-model serve``).
LOCAL_BASE_URL = "http://127.0.0.1:8080/v1"
#: While a run goes, the chart is redrawn at most this often (seconds).
CHART_EVERY_S = 3.0


class ABTestPanel(Conventions, widgets.VBox):
    """The eight-cell A/B test (``toolform.experiments.ab_test``) with start, stop and resume.

    The run happens on a background thread, checkpointed turn by turn to a JSONL file
    (``toolform.runs``). The panel follows it through the run's ``on_turn`` callback: each
    finished turn (those a resumed checkpoint already held included) moves the progress bar,
    and at most every ``refresh_s`` seconds the panel redraws the table (``ABResult.table()``: accuracy per cell and rule in
    percent with its Wilson 95% interval as numeric low/high columns, the paired bootstrap
    contrast against ``json_schema_openai`` in percentage points) and the chart
    (``ABResult.chart()``) of the turns finished so far. Stop lets the turns in flight finish
    and starts no more; Resume runs again on the same checkpoint, which asks only for the turns
    not yet finished; Start always begins a new run on a new checkpoint, clearing the last
    one's table. A replay can be paced (seconds per recorded reply) so that it can be watched,
    stopped and resumed like a live run.

    Parameters
    ----------
    client : ChatClient, optional
        A client to run against instead of the model controls (anything with ``model`` and
        ``complete``, e.g. an ``OpenAICompatClient`` with custom settings); the model controls
        are then hidden.
    refresh_s : float, default 0.5
        Least seconds between two redraws of the table while a run is going (every turn moves
        the progress bar; a redraw that takes long spaces the next ones out, so redrawing takes
        at most a sixth of the run's time).
    pace_s : float, default 0.0
        The starting value of :attr:`pace`.
    poll_s : float, optional
        Deprecated name of ``refresh_s`` (the panel no longer polls the checkpoint: it follows
        the runner's ``on_turn``); kept one release, with a ``DeprecationWarning``.

    Attributes
    ----------
    model_source : ipywidgets.ToggleButtons
        ``"replay"`` (the cassette, offline), ``"local"`` (:data:`LOCAL_BASE_URL`) or ``"url"``.
    model, base_url, cassette, checkpoint : ipywidgets.Text
        The model id; the server's API root (for ``"url"``); the cassette to replay (or record
        to); the checkpoint file (blank: Start makes a new one in a temporary folder; an
        existing file: Start makes a new one beside it, Resume continues it).
    pace : ipywidgets.BoundedFloatText
        Seconds each replayed reply waits (replay only; 0 replays at full speed).
    max_tokens : ipywidgets.BoundedIntText
        Completion budget per turn, in tokens; part of each cassette key, so a replay needs the
        recording's (the committed cassette's is ``RECORDED_AB_MAX_TOKENS``, 160, the default).
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
    frame : pandas.DataFrame or None
        The table shown (``ABResult.table()``); ``download`` saves it as CSV.
    """

    def __init__(self, client: Any = None, *, refresh_s: float = 0.5,
                 pace_s: float = 0.0, poll_s: float | None = None) -> None:
        if poll_s is not None:
            warnings.warn("ABTestPanel(poll_s=) is deprecated and will be removed in the next "
                          "release; use refresh_s", DeprecationWarning, stacklevel=2)
            refresh_s = poll_s
        self.refresh_s = refresh_s
        self._given = client
        self.result: ABResult | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._worker: threading.Thread | None = None
        self._rows: list[dict[str, Any]] = []
        self._ended = False
        self._charted = 0.0
        self._next_table = 0.0
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
        self.pace = widgets.BoundedFloatText(value=pace_s, min=0.0, max=60.0, step=0.05,
                                             description="pace (s)")
        self.max_tokens = widgets.BoundedIntText(value=RECORDED_AB_MAX_TOKENS, min=1,
                                                 max=100_000, description="max tokens")
        self.start_button = widgets.Button(description="Start", button_style="primary",
                                           icon="play")
        self.stop_button = widgets.Button(description="Stop", button_style="warning",
                                          icon="stop", disabled=True)
        self.resume_button = widgets.Button(description="Resume", icon="forward")
        self.progress = widgets.IntProgress(value=0, min=0, max=1, description="turns")
        self.status = widgets.HTML()
        # the table scrolls inside the panel rather than pushing it wider
        self.table = widgets.HTML(layout=widgets.Layout(width="98%", max_height="420px",
                                                        overflow="auto"))
        self.chart = widgets.Output()
        self._live = widgets.VBox([self.base_url, self.api_key, self.record])
        if client is None:
            model_controls = [self.model_source, self.model, self._live, self.cassette,
                              self.pace]
        else:
            self.model.value = getattr(client, "model", "") or ""
            model_controls = [widgets.HTML(f"model <b>{esc(self.model.value)}</b> "
                                           f"(client {esc(type(client).__name__)})")]
        toolbar = self._conventions("ab_test", {
            self.model_source: "Where replies come from: the cassette (offline), the local "
                               "model server, or any OpenAI-compatible URL",
            self.model: "The model id sent to the server (and part of each cassette key)",
            self.base_url: "The server's API root, e.g. http://127.0.0.1:8000/v1",
            self.api_key: "Bearer token, for servers that need one",
            self.record: "Also append every live reply to the cassette",
            self.cassette: "The cassette file replayed (or recorded to)",
            self.pace: "Seconds each replayed reply waits: a slow replay can be stopped and "
                       "resumed",
            self.datasets: "The packaged datasets the requests are drawn from",
            self.n: "Requests per cell (the study measured 50)",
            self.seed: "Seed of the request draw and the bootstrap",
            self.max_tokens: "Completion budget per turn (tokens); part of each cassette key: "
                             "the committed cassette was recorded at 160",
            self.checkpoint: "JSONL file each finished turn is appended to",
            self.start_button: "Start a new run on a new checkpoint",
            self.stop_button: "Let the turns in flight finish and start no more",
            self.resume_button: "Carry on from the checkpoint: only unfinished turns are asked",
        })
        super().__init__(children=[
            *model_controls,
            widgets.HBox([self.datasets, widgets.VBox([self.n, self.seed, self.max_tokens])]),
            self.checkpoint,
            widgets.HBox([self.start_button, self.stop_button, self.resume_button]),
            widgets.HBox([self.progress, self.status]), toolbar, self.table, self.chart,
        ])
        self._on_source()
        self.model_source.observe(lambda _: self._on_source(), names="value")
        self.start_button.on_click(lambda _: self.start())
        self.stop_button.on_click(lambda _: self.stop())
        self.resume_button.on_click(lambda _: self.resume())
        self._remember_start()

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
        self.pace.layout.display = None if source == "replay" else "none"
        self.base_url.disabled = source == "local"
        if source == "local":
            self.base_url.value = LOCAL_BASE_URL

    def _client(self) -> Any:
        if self._given is not None:
            return self._given
        if self.model_source.value == "replay":
            return ReplayClient(self.cassette.value, model=self.model.value, mode="replay",
                                pace_s=self.pace.value)
        live = OpenAICompatClient(self.base_url.value, self.model.value,
                                  api_key=self.api_key.value or None)
        if self.record.value:
            return ReplayClient(self.cassette.value, inner=live, mode="auto")
        return live

    # -- actions ---------------------------------------------------------------------------------
    def start(self) -> None:
        """Start a new run on a new checkpoint, clearing the last run's table and chart.

        A blank checkpoint field gets a new file in a temporary folder; a path that exists
        already (the last run's, say) gets a new file beside it (``turns-2.jsonl``...), so no
        run's turns are mixed into another's. Resume is the way to continue a run.
        """
        if self.running:
            return
        path = self.checkpoint.value.strip()
        if not path:
            path = str(Path(tempfile.mkdtemp(prefix="toolform-ab-")) / "turns.jsonl")
        elif Path(path).exists():
            path = str(_fresh_beside(Path(path)))
        self.checkpoint.value = path
        self.result = None
        self._clear()
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
        if self._worker is not None:
            self._worker.join(timeout)
        return self.result

    def _clear(self) -> None:
        self.table.value = ""
        self.chart.outputs = ()
        self._export(None)

    def _on_reset(self) -> None:
        """Stop a run, clear the results and show the starting controls."""
        if self.running:
            self._stop.set()
            self.wait(60)
        self.result = None
        self._clear()
        self.progress.value = 0
        self.status.value = ""
        self._on_source()

    # -- the run ---------------------------------------------------------------------------------
    def _launch(self, path: str, verb: str) -> None:
        try:
            client = self._client()
            sources = [load_dataset(name) for name in self.datasets.value]
            planned = len(CORE_CELLS) * len(select_requests(sources, self.n.value,
                                                            self.seed.value))
        except Exception as exc:  # a bad cassette, URL or dataset is shown, not raised
            self.status.value = error(exc)
            return
        self._stop = threading.Event()
        self._rows = []
        self._ended = False
        self._charted = self._next_table = 0.0
        self.progress.max = max(planned, 1)
        self.progress.value = 0
        self.status.value = f"{verb}: {planned} turns planned, checkpoint <code>{esc(path)}</code>"
        self._buttons(running=True)
        args = (client, sources, self.n.value, self.seed.value, path)
        self._worker = threading.Thread(target=self._work, args=args, daemon=True,
                                        name="toolform-ab-run")
        self._worker.start()

    def _work(self, client: Any, sources: list[Any], n: int, seed: int, path: str) -> None:
        with self._working("running the eight cells"):
            self._run(client, sources, n, seed, path)

    def _run(self, client: Any, sources: list[Any], n: int, seed: int, path: str) -> None:
        try:
            result = ab_test(sources, client, n=n, seed=seed, checkpoint=path, progress=False,
                             stop=self._stop, max_tokens=self.max_tokens.value,
                             on_turn=lambda row: self._on_turn(row, seed))
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

    def _on_turn(self, row: dict[str, Any], seed: int) -> None:
        """The run's ``on_turn``, called on the run's thread with each finished turn: move the
        progress bar; redraw the table of the turns so far at most every ``refresh_s``, and
        less often when a redraw is slow (the bootstrap of a large run)."""
        self._rows.append(row)
        self.progress.value = min(len(self._rows), self.progress.max)
        began = time.monotonic()
        if began < self._next_table:
            return
        turns = turns_frame(self._rows)
        # the headline cell is only chosen when the run ends
        self._show(ABResult(turns=turns, cells=summarize_cells(turns, seed=seed),
                            model=self.model.value, headline_rule="", best=()))
        # the redraw runs on the run's thread: keep it to a fifth of the run's time at most
        took = time.monotonic() - began
        self._next_table = began + max(self.refresh_s, 5 * took)

    def _show(self, result: ABResult, *, final: bool = False) -> None:
        with self._lock:
            if self._ended and not final:
                return  # the finished run's result is already shown
            self._ended = self._ended or final
            self.progress.value = min(len(result.turns), self.progress.max)
            shown = result.table()
            self._export(shown)
            self.table.value = (
                '<div style="overflow: auto"><div style="font-size: 11px; color: #555">'
                "accuracy: % of graded turns; _low/_high: Wilson 95% interval; _vs_json: "
                "percentage points against json_schema_openai (paired bootstrap 95% interval)"
                f"</div>{frame_table(shown)}</div>")
            now = time.monotonic()
            if final or now - self._charted >= CHART_EVERY_S:
                self._charted = now
                self.chart.outputs = ()
                self.chart.append_display_data(displayable(result.chart()))

    def _buttons(self, *, running: bool) -> None:
        self.start_button.disabled = running
        self.resume_button.disabled = running
        self.stop_button.disabled = not running


def _fresh_beside(path: Path) -> Path:
    """``turns-2.jsonl``, ``turns-3.jsonl``...: the first name beside ``path`` not taken."""
    for number in range(2, 10_000):
        candidate = path.with_name(f"{path.stem}-{number}{path.suffix}")
        if not candidate.exists():
            return candidate
    raise OutputExistsError(f"no free checkpoint name beside {path} (up to "
                            f"{path.stem}-9999{path.suffix} is taken)", path=str(path))
