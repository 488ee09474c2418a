"""``ReplyGrader``: read a reply under a protocol and grade it against a gold call, rule by rule."""

from __future__ import annotations

import json
from typing import Any, Mapping

import ipywidgets as widgets
import pandas as pd

from toolform.datasets import dataset_names, load_dataset
from toolform.grading import RULES, grade, select_calls
from toolform.ir import Request, ToolCall
from toolform.protocols import get_protocol, parse_reply, protocol_ids

from ._common import Conventions
from ._html import error, esc, fact, mark, pre, table

__all__ = ["ReplyGrader"]


def _calls_text(calls: tuple[ToolCall, ...]) -> str:
    if not calls:
        return "(no call)"
    return "\n".join(f"{c.name}({json.dumps(dict(c.arguments), ensure_ascii=False)})"
                     for c in calls)


class ReplyGrader(Conventions, widgets.VBox):
    """Paste or pick a reply; see how it parses and how each grading rule grades it.

    The parse is ``toolform.protocols.parse_reply`` (strict parse, lenient parse, format
    compliance, and the repairs: names resolved, flat arguments re-nested, another protocol's
    calls taken); each verdict is ``toolform.grading.grade`` under one of the three rules against
    the request's gold calls, with grade's reason when it is wrong. Taking another protocol's
    calls (the lenient fallback) is a repair, so it applies under ``main`` and ``symmetric``
    only: ``as_written`` grades the calls as the asked protocol wrote them.

    Parameters
    ----------
    request : Request, optional
        The request to grade against (its toolset and gold calls). Default: the first request of
        ``dataset``.
    dataset : str, default "bfcl/simple_python"
        The packaged dataset whose requests the ``request`` list offers.
    protocol_id : str, optional
        The protocol the model was asked to answer in (default: ``xml_call`` when registered,
        else the first registered protocol).
    replies : mapping of str to str, optional
        Extra replies to offer in :attr:`pick` (e.g. recorded replies), by label.

    Attributes
    ----------
    dataset, request : ipywidgets.Dropdown
        Where the request comes from.
    protocol : ipywidgets.Dropdown
        The protocol the reply is read under.
    pick : ipywidgets.Dropdown
        Ready-made replies: the gold call written by each protocol's writer, a plain-text
        answer, and the ``replies`` given; picking one puts it in :attr:`reply`.
    reply : ipywidgets.Textarea
        The reply text (type or paste). A new request starts it with the gold call written in
        the asked protocol; changing the protocol keeps it, to read the same text another way.
    lenient : ipywidgets.Checkbox
        Grade another protocol's calls when the asked protocol reads none (``lenient_fallback``),
        under ``main`` and ``symmetric``.
    grade_button : ipywidgets.Button
        Parse and grade now (also done on every change).
    request_view, parse_view, verdicts : ipywidgets.HTML
        The request and its gold calls; the parse; one row per rule.
    parsed : dict of str to ParsedReply
        The last parse under each rule.
    results : dict of str to Verdict
        The last verdict under each rule.
    frame : pandas.DataFrame
        The verdicts shown: one row per rule (``rule``, ``correct``, ``tool_correct``,
        ``schema_valid``, ``calls``, ``reason``); ``download`` saves it as CSV.
    """

    def __init__(self, request: Request | None = None, *, dataset: str = "bfcl/simple_python",
                 protocol_id: str | None = None, replies: Mapping[str, str] | None = None) -> None:
        self.parsed: dict[str, Any] = {}
        self.results: dict[str, Any] = {}
        self._extra = dict(replies or {})
        self._given = request
        ids = protocol_ids()
        names = dataset_names()
        self.dataset = widgets.Dropdown(options=names,
                                        value=dataset if dataset in names else names[0],
                                        description="dataset")
        self.request = widgets.Dropdown(description="request",
                                        layout=widgets.Layout(width="60%"))
        self.protocol = widgets.Dropdown(
            options=ids, value=protocol_id or ("xml_call" if "xml_call" in ids else ids[0]),
            description="protocol")
        self.pick = widgets.Dropdown(description="pick", layout=widgets.Layout(width="60%"))
        self.reply = widgets.Textarea(description="reply", continuous_update=False,
                                      layout=widgets.Layout(width="95%", height="110px"))
        self.lenient = widgets.Checkbox(value=False, description="lenient fallback",
                                        indent=False)
        self.grade_button = widgets.Button(description="Grade", button_style="primary")
        self.request_view = widgets.HTML()
        self.parse_view = widgets.HTML()
        self.verdicts = widgets.HTML()
        source = [] if request is not None else [widgets.HBox([self.dataset, self.request])]
        toolbar = self._conventions("reply_grades", {
            self.dataset: "The packaged dataset the requests come from",
            self.request: "The request graded against: its tools and gold calls",
            self.protocol: "The protocol the model was asked to answer in; the reply is read "
                           "under it",
            self.lenient: "Take another protocol's calls when the asked one reads none (a "
                          "repair: not under as_written)",
            self.pick: "A ready-made reply: the gold call in each protocol, or no call",
            self.reply: "The reply text: type or paste",
            self.grade_button: "Parse and grade now (also done on every change)",
        })
        super().__init__(children=[
            *source, self.request_view, widgets.HBox([self.protocol, self.lenient]), self.pick,
            self.reply, widgets.HBox([self.grade_button, toolbar]), self.parse_view,
            self.verdicts,
        ])
        if request is None:
            self._fill_requests()
            self.dataset.observe(lambda _: self._fill_requests(), names="value")
            self.request.observe(lambda _: self._on_request(), names="value")
        self.protocol.observe(lambda _: self._fill_picks(), names="value")
        self.pick.observe(self._on_pick, names="value")
        self.reply.observe(lambda _: self.grade(), names="value")
        self.lenient.observe(lambda _: self.grade(), names="value")
        self.grade_button.on_click(lambda _: self.grade())
        self._on_request()
        self._remember_start()

    def _on_reset(self) -> None:
        if self._given is None:
            self._fill_requests()
        self._on_request()

    def __repr__(self) -> str:
        return f"ReplyGrader(request={self.current.id!r}, protocol={self.protocol.value!r})"

    @property
    def current(self) -> Request:
        """The request replies are graded against."""
        if self._given is not None:
            return self._given
        return load_dataset(self.dataset.value)[self.request.value]

    # -- wiring ----------------------------------------------------------------------------------
    def _fill_requests(self) -> None:
        ds = load_dataset(self.dataset.value)
        self.request.options = [(f"{r.id}: {r.text[:70]}", r.id) for r in ds.requests]
        if self.request.value is None:  # a Dropdown that had no options selects none
            self.request.value = ds.requests[0].id

    def _on_request(self) -> None:
        request = self.current
        gold = _calls_text(tuple(g.first_call() for g in request.gold))
        accepted = "; ".join(
            f"{g.name}: " + ", ".join(f"{k} ∈ {list(v)}" for k, v in g.accepted.items())
            + (f" (may omit {', '.join(g.may_omit)})" if g.may_omit else "")
            for g in request.gold) or "no call expected"
        self.request_view.value = (
            f"<div><b>Request</b> {esc(request.id)}: {esc(request.text)}</div>"
            f"<div>Tools on offer: {esc(', '.join(request.toolset.names))}</div>"
            f"<div><b>Gold</b>: {esc(accepted)}</div>{pre(gold)}")
        self._fill_picks()
        self.pick.value = self.pick.options[1][1]  # the gold call in the asked protocol

    def _fill_picks(self) -> None:
        """Offer the gold calls written by every protocol's writer, asked protocol first."""
        request = self.current
        calls = [g.first_call() for g in request.gold]
        asked = self.protocol.value
        options: list[tuple[str, str]] = [("(choose a ready-made reply)", "")]
        for pid in [asked] + [p for p in protocol_ids() if p != asked]:
            try:
                text = get_protocol(pid).protocol.write(calls, request.toolset)
            except Exception:  # noqa: BLE001 - a protocol that cannot carry these calls is left out
                continue
            what = "the gold call" if calls else "an abstention"
            options.append((f"{what}, written in {pid}", text))
        options.append(("a plain-text answer, no call",
                        get_protocol(asked).protocol.write([], request.toolset)))
        options.extend(self._extra.items())
        self.pick.options = options
        self.pick.value = ""
        self.grade()

    def _on_pick(self, _: Any) -> None:
        if not self.pick.value:
            return
        if self.reply.value == self.pick.value:
            self.grade()
        else:
            self.reply.value = self.pick.value  # its observer grades

    # -- grading ---------------------------------------------------------------------------------
    def grade(self) -> None:
        """Parse :attr:`reply` under the protocol and every rule, and grade it against the gold."""
        request = self.current
        try:
            # taking another protocol's calls is a repair: the grading rules decide who takes
            # it (as_written takes none: toolform.grading.select_calls)
            parsed = parse_reply(self.reply.value, request.toolset, self.protocol.value,
                                 lenient_fallback=self.lenient.value)
            self.parsed = {rule: parsed for rule in RULES}
            self.results = {rule: grade(parsed, request.gold, request.toolset, rule)
                            for rule in RULES}
        except Exception as exc:  # a gold call the toolset rejects is shown, not raised
            self.parse_view.value = error(exc)
            self.verdicts.value = ""
            return
        p = self.parsed["main"]
        lenient = (f"read as <b>{esc(p.lenient_protocol)}</b>"
                   + (" (calls taken)" if p.lenient_taken else " (calls not taken)")
                   if p.parsed_lenient and not p.parsed_strict else "")
        names = "; ".join(f"{w!r} → {t!r} ({how})" for w, t, how in p.resolved_names) or "none"
        issues = ("".join(f"<li>{esc(i)}</li>" for i in p.issues)
                  or "<li>none: the parser read the reply without forgiving anything</li>")
        self.parse_view.value = (
            '<div class="toolform-parse">'
            + table([[mark(p.parsed_strict), mark(p.parsed_lenient) + " " + lenient,
                      mark(p.format_compliant)]],
                    [f"strict parse ({p.protocol_id})", "lenient parse", "format compliant"],
                    raw=[0, 1, 2])
            + f"<div><b>Calls as written</b>{pre(_calls_text(p.calls_as_written))}</div>"
            f"<div>Names resolved: {esc(names)} · re-nesting needed: {fact(p.renested)}</div>"
            f"<div>Parser issues (what reading the reply forgave; the grading reasons are in "
            f"the verdicts below):<ul style='margin: 2px 0'>{issues}</ul></div></div>")
        rows, records = [], []
        for rule in RULES:
            v = self.results[rule]
            calls = _calls_text(select_calls(self.parsed[rule], rule, nearest=True))
            why = v.reason or ("" if v.schema_valid else "a call does not validate against its "
                                                         "tool's schema")
            rows.append([rule, mark(v.correct), mark(v.tool_correct), mark(v.schema_valid),
                         pre(calls), f"<b>{esc(why)}</b>" if why else ""])
            records.append({"rule": rule, "correct": v.correct, "tool_correct": v.tool_correct,
                            "schema_valid": v.schema_valid, "calls": calls, "reason": v.reason})
        self._export(pd.DataFrame(records))
        note = ("<div style='font-size: 11px; color: #555'>as_written grades the calls as the "
                "asked protocol wrote them: no other protocol's calls are taken</div>"
                if self.lenient.value else "")
        self.verdicts.value = ('<div class="toolform-verdicts"><b>Verdict by grading rule</b>'
                               + table(rows, ["rule", "correct", "right tool", "schema valid",
                                              "calls graded", "why not"], raw=range(6))
                               + note + "</div>")
