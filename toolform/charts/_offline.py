"""Charts that draw without a network: live in JupyterLab, in saved notebooks, in HTML files.

Altair's default renderer loads Vega from a CDN, so on a machine without internet every chart is
an "Error loading script". ToolForm registers its own Altair renderer, ``"toolform"``, and
enables it when ``toolform.charts`` is imported (unless another renderer was chosen first). It
puts three things in each chart's output bundle, all made by vl-convert through Altair:

* ``application/vnd.vega.v5+json``: the chart compiled to a Vega spec. JupyterLab (and Notebook
  7) draw it with the Vega runtime they ship, offline, interactive (tooltips, the actions menu
  with SVG/PNG export), in trusted and untrusted notebooks alike. JupyterLab registers this mime
  type for Vega 5 only; the compiled spec uses nothing Vega 6 added (``tests/test_browser.py``
  draws every chart in JupyterLab and checks it).
* ``image/svg+xml``: the picture, for wherever the Vega output is not drawn (a code host's static
  preview, nbconvert's HTML, a classic notebook).
* ``text/plain``: the chart's title.

Altair's offline ``jupyter`` renderer (``JupyterChart``) was weighed and not taken: each chart
is a widget whose saved state carries the whole 0.9 MB Vega bundle, so a notebook of ten charts
saves 9 MB, and a saved notebook reopened without its kernel shows "model not found".

HTML files are written with the JavaScript inlined (Altair's ``save(..., inline=True)``, which
takes vl-convert's bundle), so they open offline too.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import altair as alt

__all__ = ["OFFLINE_RENDERER", "VEGA_MIME_TYPE", "displayable", "enable_offline",
           "offline_bundle", "save_chart"]

#: The name ToolForm's renderer is registered under in ``altair.renderers``.
OFFLINE_RENDERER = "toolform"
#: The mime type JupyterLab's bundled Vega renderer draws.
VEGA_MIME_TYPE = "application/vnd.vega.v5+json"
_SVG = "image/svg+xml"


def offline_bundle(spec: dict[str, Any], *, image: bool = True) -> dict[str, Any]:
    """The output bundle of one chart: the compiled Vega spec, its SVG, and a text line.

    What the ``"toolform"`` Altair renderer shows whenever a chart is displayed.

    Parameters
    ----------
    spec : dict
        A Vega-Lite spec (``chart.to_dict()``).
    image : bool, default True
        Add the static SVG. Widgets that redraw often pass False: their outputs are not saved
        as cell outputs, and the SVG takes longer to make than the Vega spec.

    Returns
    -------
    dict
        Mime type to content: ``application/vnd.vega.v5+json`` (dict), ``image/svg+xml`` (str)
        and ``text/plain`` (str).

    Raises
    ------
    ValueError
        When vl-convert cannot compile the spec.
    """
    from altair.utils.mimebundle import spec_to_mimebundle

    compiled = spec_to_mimebundle(spec, format="vega", mode="vega-lite")
    bundle: dict[str, Any] = {VEGA_MIME_TYPE: next(iter(compiled.values()))}
    if image:
        bundle.update(spec_to_mimebundle(spec, format="svg", mode="vega-lite"))
    title = spec.get("title")
    if isinstance(title, dict):
        title = title.get("text")
    bundle["text/plain"] = f"<chart: {title}>" if title else "<chart>"
    return bundle


def _render(spec: dict[str, Any], **options: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The ``"toolform"`` renderer: Altair calls it with the spec (data inlined) and the options
    given to ``alt.renderers.enable`` or ``set_embed_options``; ``embed_options`` go on to
    JupyterLab's vega-embed."""
    embed = options.get("embed_options") or {}
    return offline_bundle(spec), ({VEGA_MIME_TYPE: {"embed_options": embed}} if embed else {})


def enable_offline(*, force: bool = False) -> str:
    """Register the ``"toolform"`` renderer with Altair and enable it.

    Called when ``toolform.charts`` is imported. A renderer chosen before (anything but
    Altair's ``"default"``) is kept unless ``force`` is set.

    Parameters
    ----------
    force : bool, default False
        Enable the offline renderer even when another one is active.

    Returns
    -------
    str
        The name of the renderer active afterwards.
    """
    if OFFLINE_RENDERER not in alt.renderers.names():
        alt.renderers.register(OFFLINE_RENDERER, _render)
    if force or alt.renderers.active == "default":
        alt.renderers.enable(OFFLINE_RENDERER)
    return alt.renderers.active


class _Shown:
    """A display object for ``ipywidgets.Output.append_display_data``: a chart's bundle."""

    def __init__(self, chart: alt.TopLevelMixin, image: bool) -> None:
        self._chart = chart
        self._image = image

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        return offline_bundle(self._chart.to_dict(), image=self._image)


def displayable(chart: alt.TopLevelMixin, *, image: bool = False) -> _Shown:
    """``chart`` as an object IPython displays offline, whatever renderer Altair has enabled.

    For widgets: ``output.append_display_data(displayable(chart))``.

    Parameters
    ----------
    chart : altair chart
    image : bool, default False
        Also carry the static SVG (see :func:`offline_bundle`).
    """
    return _Shown(chart, image)


def save_chart(chart: alt.TopLevelMixin, path: str | os.PathLike[str]) -> list[Path]:
    """Write ``chart`` as a self-contained HTML file and a PNG, next to each other.

    The HTML carries Vega, Vega-Lite and vega-embed inline (about 0.9 MB; no CDN, so it opens
    offline); the PNG is drawn by vl-convert at twice the chart's size.

    Parameters
    ----------
    chart : altair chart
        Any Altair chart.
    path : str or path
        The files' stem; a ``.html`` or ``.png`` suffix is dropped. Missing folders are made.

    Returns
    -------
    list of pathlib.Path
        The HTML file, then the PNG.
    """
    stem = Path(path)
    if stem.suffix in (".html", ".png"):
        stem = stem.with_suffix("")
    stem.parent.mkdir(parents=True, exist_ok=True)
    html, png = stem.with_name(stem.name + ".html"), stem.with_name(stem.name + ".png")
    chart.save(str(html), inline=True)
    chart.save(str(png), scale_factor=2)
    return [html, png]
