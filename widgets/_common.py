"""What every ToolForm widget does the same way: tooltips, reset, export, a busy indicator.

* Every control carries a tooltip (its ``tooltip`` trait) saying what it sets.
* Reset puts every control back to the value it had when the widget was built, and redoes the
  widget's first view.
* Export: the DataFrame of what is shown is the widget's ``frame`` attribute, and a "Download
  CSV" link beside Reset saves it (a ``data:`` link: no server, works offline).
* While work runs, the busy indicator says what is being done.
"""

from __future__ import annotations

import base64
import contextlib
from typing import Any, Iterator, Mapping

import ipywidgets as widgets

from toolform.csvtext import csv_text

from ._html import esc

__all__ = ["Conventions"]

_BUSY = ('<span class="toolform-busy" style="color: #555">'
         '<i class="fa fa-spinner fa-spin"></i> {}</span>')


class Conventions:
    """Mixin for the widgets: :meth:`_conventions` while building the layout, then
    :meth:`_remember_start` once the first view is shown (the end of ``__init__``).

    Attributes
    ----------
    frame : pandas.DataFrame or None
        What the widget shows, as a DataFrame (None before there is anything to show).
    reset_button : ipywidgets.Button
        Back to the starting state.
    download : ipywidgets.HTML
        A link that saves :attr:`frame` as CSV.
    busy : ipywidgets.HTML
        Says what runs while the widget works; empty otherwise.
    toolbar : ipywidgets.HBox
        Reset, the download link and the busy indicator.
    """

    frame: Any = None

    def _conventions(self, name: str, tooltips: Mapping[Any, str]) -> widgets.HBox:
        """Set the tooltips and build the toolbar (returned).

        ``name`` is the CSV file's stem; ``tooltips`` maps each control to its tooltip. The
        controls with a ``value`` are the ones :meth:`reset` puts back.
        """
        self._csv_name = name
        self.reset_button = widgets.Button(description="Reset", icon="undo",
                                           tooltip="Put every control back as it was at the "
                                                   "start, and show the first view again")
        self.download = widgets.HTML(tooltip="Save the table shown as a CSV file")
        self.busy = widgets.HTML()
        for control, text in tooltips.items():
            control.tooltip = text
        self._controls = [c for c in tooltips if hasattr(c, "value")]
        self._start: list[tuple[Any, Any]] = []
        self.reset_button.on_click(lambda _: self.reset())
        self.toolbar = widgets.HBox([self.reset_button, self.download, self.busy])
        return self.toolbar

    def _remember_start(self) -> None:
        """Record every control's value now, as the state :meth:`reset` goes back to."""
        self._start = [(c, c.value) for c in self._controls]

    def reset(self) -> None:
        """Back to the starting state: the widget's own state first (:meth:`_on_reset`), then
        every control's starting value (their observers redraw the views)."""
        with self._working("resetting"):
            self._on_reset()
            for control, value in self._start:
                control.value = value

    def _on_reset(self) -> None:
        """What a widget puts back before its controls are (override)."""

    @contextlib.contextmanager
    def _working(self, what: str) -> Iterator[None]:
        """Show ``what`` in the busy indicator while the block runs."""
        self.busy.value = _BUSY.format(esc(what) + "…")
        try:
            yield
        finally:
            self.busy.value = ""

    def _export(self, frame: Any) -> None:
        """Make ``frame`` the shown table: :attr:`frame` and the CSV link."""
        self.frame = frame
        if frame is None or not len(frame):
            self.download.value = ""
            return
        data = base64.b64encode(csv_text(frame).encode("utf-8")).decode("ascii")
        self.download.value = (f'<a class="toolform-download" download="{esc(self._csv_name)}.csv" '
                               f'href="data:text/csv;charset=utf-8;base64,{data}">'
                               f"Download CSV ({len(frame)} rows)</a>")
