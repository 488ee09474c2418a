"""``RoutingLab``: the routing SIMULATION with sliders, its picture, and the missions."""

from __future__ import annotations

import inspect
from typing import Any

import ipywidgets as widgets
import pandas as pd

from toolform.catalogue import MISSIONS, ROUTINGS, run_mission
from toolform.catalogue import RoutingLab as Lab
from toolform.charts import displayable, routing_sweep_chart, routing_trace_chart

from ._common import Conventions
from ._html import error, esc, frame_table, mark, table

__all__ = ["RoutingLab"]

#: The lab settings the sliders set, and the sweep of k the chart draws.
LAB_SETTINGS = ("n_tools", "n_domains", "distinctiveness", "vagueness", "near_duplicates")
SWEEP_KS = (1, 2, 4, 8, 16, 32, 64)
#: Simulated requests per run (``RoutingLab.run``'s default); the traced request is one of them.
N_REQUESTS = 500


class RoutingLab(Conventions, widgets.VBox):
    """Sliders over ``toolform.catalogue.RoutingLab`` — a SIMULATION: no model is asked anything.

    Tools are vectors grouped into domains; a router shows the chooser all tools, the ``k``
    nearest (``exact``) or the ``k`` nearest inside the nearest domains (``grouped``), and the
    chooser's noise grows with what it reads. The panel shows one :meth:`RoutingLab.run
    <toolform.catalogue.RoutingLab.run>` (success, recall, tokens and latency per simulated
    request), success and recall against k (:meth:`~toolform.catalogue.RoutingLab.sweep`), and
    the catalogue drawn by domain (its first two principal components). A mission sets the
    catalogue; Play checks the chosen routing against its goals (``run_mission``).

    Attributes
    ----------
    n_tools, n_domains, near_duplicates, k, groups : ipywidgets.IntSlider
    request : ipywidgets.IntSlider
        Which of the run's simulated requests to trace (0 … 499).
    distinctiveness, vagueness : ipywidgets.FloatSlider
    routing : ipywidgets.ToggleButtons
        ``all``, ``exact`` or ``grouped``.
    merge : ipywidgets.Checkbox
        Merge near duplicates into their originals (fixing the catalogue).
    mission : ipywidgets.Dropdown
        ``""`` for free play, or a mission id; a mission sets the catalogue sliders.
    play_button : ipywidgets.Button
    result, mission_view, trace_view : ipywidgets.HTML
        The run's figures; the mission; the traced request's steps.
    chart, picture : ipywidgets.Output
        Success and recall against k, with the all-tools level and the mission's goal
        labelled (``toolform.charts.routing_sweep_chart``); the traced request among the tools
        by domain (``routing_trace_chart``).
    lab : toolform.catalogue.RoutingLab
    run : pandas.DataFrame
        The last run's row (``toolform.catalogue.LAB_COLUMNS``).
    trace : toolform.catalogue.RoutingTrace
        The traced request.
    played : MissionResult or None
    frame : pandas.DataFrame
        The sweep the chart draws (``RoutingLab.sweep`` rows, simulated); ``download`` saves
        it as CSV.
    """

    def __init__(self) -> None:
        defaults = {name: p.default for name, p in inspect.signature(Lab).parameters.items()}
        self._defaults = {name: defaults[name] for name in LAB_SETTINGS}
        self.lab: Any = None
        self.run: Any = None
        self.trace: Any = None
        self.played: Any = None
        slider = {"continuous_update": False, "style": {"description_width": "110px"}}
        self.n_tools = widgets.IntSlider(value=defaults["n_tools"], min=10, max=1000, step=10,
                                         description="catalogue size", **slider)
        self.n_domains = widgets.IntSlider(value=defaults["n_domains"], min=1, max=30,
                                           description="domains", **slider)
        self.distinctiveness = widgets.FloatSlider(value=defaults["distinctiveness"], min=0,
                                                   max=2, step=0.05,
                                                   description="distinctiveness", **slider)
        self.vagueness = widgets.FloatSlider(value=defaults["vagueness"], min=0, max=1.5,
                                             step=0.05, description="vagueness", **slider)
        self.near_duplicates = widgets.IntSlider(value=defaults["near_duplicates"], min=0,
                                                 max=200, description="near duplicates",
                                                 **slider)
        self.routing = widgets.ToggleButtons(options=ROUTINGS, value="exact",
                                             description="strategy")
        self.k = widgets.IntSlider(value=8, min=1, max=64, description="k", **slider)
        self.groups = widgets.IntSlider(value=2, min=1, max=12, description="groups", **slider)
        self.request = widgets.IntSlider(value=0, min=0, max=N_REQUESTS - 1,
                                         description="trace request", **slider)
        self.merge = widgets.Checkbox(value=False, description="merge near duplicates",
                                      indent=False)
        self.mission = widgets.Dropdown(
            options=[("free play", "")] + [(m.title, m.id) for m in MISSIONS.values()],
            value="", description="mission")
        self.play_button = widgets.Button(description="Play", button_style="primary",
                                          icon="flag-checkered")
        self.status = widgets.HTML()
        self.result = widgets.HTML()
        self.mission_view = widgets.HTML()
        self.trace_view = widgets.HTML()
        self.chart = widgets.Output()
        self.picture = widgets.Output()
        self._catalogue = (self.n_tools, self.n_domains, self.distinctiveness, self.vagueness,
                           self.near_duplicates)
        toolbar = self._conventions("routing_sweep", {
            self.mission: "Free play, or a mission: it sets the catalogue and a goal",
            self.play_button: "Check the chosen routing against the mission's goals",
            self.n_tools: "Tools in the simulated catalogue",
            self.n_domains: "Domains the tools are grouped in",
            self.distinctiveness: "How far apart the domains are (higher: easier routing)",
            self.vagueness: "How vague requests are (higher: noisier matches)",
            self.near_duplicates: "Tools that nearly copy another one",
            self.routing: "all: every tool shown; exact: the k nearest; grouped: the k nearest "
                          "inside the nearest domains",
            self.k: "Tools shown to the chooser",
            self.groups: "Domains searched by grouped routing",
            self.merge: "Merge near duplicates into their originals (fixing the catalogue)",
            self.request: "Which simulated request to trace",
        })
        super().__init__(children=[
            widgets.HTML("<b>Routing lab — a simulation:</b> no model is asked; tools and "
                         "requests are vectors (see <code>toolform.catalogue.RoutingLab</code>)."),
            toolbar,
            widgets.HBox([self.mission, self.play_button]), self.mission_view,
            widgets.HBox([widgets.VBox(list(self._catalogue)),
                          widgets.VBox([self.routing, self.k, self.groups, self.merge])]),
            self.status, self.result, widgets.HBox([self.chart, self.picture]),
            self.request, self.trace_view,
        ])
        for control in self._catalogue:
            control.observe(lambda _: self.refresh(rebuild=True), names="value")
        for control in (self.routing, self.k, self.groups, self.merge):
            control.observe(lambda _: self.refresh(), names="value")
        self.request.observe(lambda _: self._show_trace(), names="value")
        self.mission.observe(lambda _: self._on_mission(), names="value")
        self.play_button.on_click(lambda _: self.play())
        self._building = False
        self.refresh(rebuild=True)
        self._remember_start()

    def _on_reset(self) -> None:
        self.played = None
        self.status.value = ""
    def __repr__(self) -> str:
        return (f"RoutingLab(simulation, tools={self.n_tools.value}, routing="
                f"{self.routing.value!r}, k={self.k.value}, mission={self.mission.value!r})")

    # -- settings --------------------------------------------------------------------------------
    def _choices(self) -> dict[str, Any]:
        return {"routing": self.routing.value, "k": self.k.value, "groups": self.groups.value,
                "merge_duplicates": self.merge.value}

    def _on_mission(self) -> None:
        mission = MISSIONS.get(self.mission.value)
        settings = {**self._defaults, **(dict(mission.lab) if mission else {})}
        self._building = True  # one rebuild for the whole set of sliders
        for name in LAB_SETTINGS:
            getattr(self, name).value = settings[name]
            getattr(self, name).disabled = mission is not None
        self.merge.disabled = mission is not None and "merge_duplicates" not in mission.choices
        if self.merge.disabled:
            self.merge.value = False
        self._building = False
        self.played = None
        if mission is None:
            self.mission_view.value = ""
        else:
            goals = [f"success ≥ {mission.min_success:g}%"]
            if mission.max_tokens is not None:
                goals.append(f"tokens ≤ {mission.max_tokens:,.0f}")
            if mission.max_latency_s is not None:
                goals.append(f"latency ≤ {mission.max_latency_s:g} s")
            self.mission_view.value = (
                f'<div class="toolform-mission"><b>{esc(mission.title)}</b>: '
                f"{esc(mission.brief)}<br>Goal: {esc(', '.join(goals))}. You choose: "
                f"{esc(', '.join(mission.choices))}.</div>")
        self.refresh(rebuild=True)

    # -- actions ---------------------------------------------------------------------------------
    def refresh(self, *, rebuild: bool = False) -> None:
        """Run the simulation for the current settings (rebuilding the catalogue if asked)."""
        if self._building:
            return
        try:
            with self._working("simulating"):
                if rebuild or self.lab is None:
                    self.lab = Lab(**{name: getattr(self, name).value for name in LAB_SETTINGS})
                self.run = self.lab.run(n_requests=N_REQUESTS, **self._choices())
                # showing all tools has no k: its curve is drawn for exact routing
                sweep = self.lab.sweep(SWEEP_KS, routing=self.routing.value if
                                       self.routing.value != "all" else "exact",
                                       groups=self.groups.value,
                                       merge_duplicates=self.merge.value)
        except Exception as exc:  # e.g. more near duplicates than tools
            self.status.value = error(exc)
            return
        self.status.value = ""
        row = self.run.iloc[0]
        self.result.value = (
            '<div class="toolform-routing">'
            + table([[f"{row['success']:.1f}%", f"{row['recall']:.1f}%",
                      f"{row['choice_accuracy']:.1f}%", f"{row['shown']:.1f}",
                      f"{row['tokens']:,.0f}", f"{row['latency_s']:.2f} s"]],
                    ["success", "recall (target shown)", "choice when shown", "tools read",
                     "tool tokens", "latency"])
            + f"<div><i>Simulated over {int(row['n_requests'])} requests.</i></div></div>")
        self._draw_sweep(sweep)
        self._show_trace()

    def play(self) -> None:
        """Play the chosen mission with the current routing choices and show its checks."""
        mission = MISSIONS.get(self.mission.value)
        if mission is None:
            self.status.value = "Pick a mission first."
            return
        choices = {k: v for k, v in self._choices().items() if k in mission.choices}
        self.played = run_mission(mission.id, **choices)
        checks = "".join(f"<li>{esc(goal)}: {mark(ok)}</li>"
                         for goal, ok in self.played.checks.items())
        verdict = "Mission passed" if self.played.passed else "Not yet"
        colour = "#137333" if self.played.passed else "#b00020"
        self.status.value = (f"<div style='color: {colour}'><b>{verdict}</b> (simulation)</div>"
                             f"<ul style='margin: 2px 0'>{checks}</ul>")

    # -- pictures --------------------------------------------------------------------------------
    def _show_trace(self) -> None:
        """Trace the chosen request under the current settings: its steps and its picture."""
        if self.lab is None:
            return
        try:
            self.trace = self.lab.trace(self.request.value, n_requests=N_REQUESTS,
                                        **self._choices())
        except Exception as exc:
            self.status.value = error(exc)
            return
        self.trace_view.value = (
            '<div class="toolform-trace">' + frame_table(self.trace.steps())
            + "<div><i>One simulated request: the router's shortlist, best first</i></div>"
            + frame_table(self.trace.frame().drop(columns="simulation").head(16),
                          float_format="{:.3f}") + "</div>")
        self.picture.outputs = ()
        self.picture.append_display_data(displayable(routing_trace_chart(self.trace.points())))

    def _draw_sweep(self, sweep: pd.DataFrame) -> None:
        mission = MISSIONS.get(self.mission.value)
        self._export(sweep)
        self.chart.outputs = ()
        self.chart.append_display_data(displayable(routing_sweep_chart(
            sweep, goal=mission.min_success if mission else None)))
