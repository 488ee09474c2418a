"""Escalation: a finding is high when two independent readings of a text agree.

A hand-written rule (TS101-TS110, TS112) reads an instruction's *form* and makes a finding medium
when the form is there but no payload makes it high (``docs/guard.md``); TS111, the learned
detector, reads how much the whole text reads like a planted instruction, without any rule. On
blind batches, rules written from earlier misses did not reach the next writer's plants, while
nine plants in ten got a medium finding. So a rule's medium finding becomes **high** when TS111's
score for the same text reaches the model's ``escalate_at`` (tau), and TS111's own finding becomes
high when its score reaches ``alone_at`` (tau2, far higher). Both thresholds ship with the weights
in ``datasets/guard/detector.json`` and were chosen on validation data by
``datasets/guard/train_detector.py`` (``datasets/guard/README.md``, item 27).

TS111's score for a rule's finding is the whole text's probability, as TS111 reads it (scoring the
sentence a finding covers instead failed more real servers on validation). Only texts of at least
:data:`~toolform.guard._learned.MIN_WORDS` words are read, as TS111 reads them; a low finding is
never escalated.
"""

from __future__ import annotations

from typing import Callable, Sequence

from ._learned import LearnedModel, long_enough, packaged_model
from ._rule import Hit, Rule

__all__ = ["escalate", "escalated"]

_LEARNED = "TS111"


def escalated(model: LearnedModel, rule_id: str, hit: Hit, p: float) -> Hit:
    """``hit`` itself, or a high copy of it when the escalation policy applies to a medium hit
    on a text of :data:`~toolform.guard._learned.MIN_WORDS` words or more whose probability
    under ``model`` is ``p``: a hand rule's hit when ``p`` reaches ``model.escalate_at``,
    TS111's when it reaches ``model.alone_at``. A threshold of ``None`` escalates nothing."""
    if hit.severity != "medium":
        return hit
    if rule_id == _LEARNED:
        if model.alone_at is None or p < model.alone_at:
            return hit
        return Hit(hit.start, hit.end, "high", f"{hit.detail}; at or above {model.alone_at} alone")
    if model.escalate_at is None or p < model.escalate_at:
        return hit
    return Hit(hit.start, hit.end, "high", f"{hit.detail}; learned detector agrees (p={p:.4f}, "
                                           f"at or above {model.escalate_at})")


def escalate(text: str, pairs: Sequence[tuple[Rule, Hit]],
             model: LearnedModel | None = None,
             settled: Callable[[str, str, Hit], bool] | None = None,
             ) -> Sequence[tuple[Rule, Hit]]:
    """The (rule, hit) pairs of one field's ``text`` with the escalation policy applied.

    Parameters
    ----------
    text : str
        The field's text (the hits' offsets are into it).
    pairs : sequence of (Rule, Hit)
        Every rule's hits on the field, as the scan assembled them.
    model : LearnedModel, optional
        Default: the packaged model, whose ``escalate_at`` and ``alone_at`` are the policy.
    settled : callable ``(rule_id, text, hit) -> bool``, optional
        A hand rule's medium hit for which it returns true stays medium (the catalogue's own
        usage prose and configuration: :func:`toolform.guard._own.usage_reading`).

    Returns
    -------
    sequence of (Rule, Hit)
        ``pairs`` itself when no hit is medium (or the text is too short to be read), else a new
        list in the same order, with the escalated hits high.

    Raises
    ------
    toolform.errors.DatasetError
        When the packaged model is needed and cannot be read.
    """
    if not any(h.severity == "medium" for _, h in pairs) or not long_enough(text):
        return pairs
    m = model or packaged_model()
    if m.escalate_at is None and m.alone_at is None:
        return pairs
    p = m.probability(text)  # once per text: a long text may carry many hits
    out = []
    for r, h in pairs:
        raised = escalated(m, r.id, h, p)
        # (the catalogue's own reading is asked only of a hit the policy would raise)
        keep = raised is not h and r.id != _LEARNED and settled is not None and settled(
            r.id, text, h)
        out.append((r, h if keep else raised))
    return out
