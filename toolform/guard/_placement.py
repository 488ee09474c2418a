"""Placement: a default or an enum value judged by where it sits.

Issue 16 asks that an instruction planted in a parameter's default or in an enum value be high,
never medium: the model reads a default as the value to send unless told otherwise, and real
defaults and enum values are short data (on the 220 development servers of
``datasets/mcp_servers``, 28,182 of them: no e-mail address or outside URL as the default of a
parameter that says where things go, no wildcard default on a tool that deletes or mutes, no
confirmation given by default, no policy granting an account, and one value of three words or
more with a medium reading, which TS108 reads high already). Two kinds of evidence make such a
value high:

- :func:`raised`: a hand rule's medium reading of a value of three words or more (a single word
  such as the enum value ``secret`` or ``Urgent`` is a name, and stays medium);
- :func:`role_hits`: what a *bare* default does in the parameter it fills, read from the
  parameter's and the tool's names: an outside address or URL as the default of a parameter
  that says where things go (``replyTo``, ``webhook``, ``cc``), a wildcard or "all" as the
  default of a tool that deletes, mutes or revokes, and a confirmation parameter given ``true``
  by default.

What the value says whatever its parameter (a choice with an address joined on, a policy
document granting a foreign principal, a secret reference with a wildcard) is read by TS108
itself (``toolform.guard._concealment``).
"""

from __future__ import annotations

import re
from typing import Callable, Sequence

from ._concealment import PROSE_IN_VALUE
from ._reading import _EMAIL as _EMAIL_PATTERN
from ._rule import Hit, Rule

__all__ = ["host_label", "param_name", "raised", "role_hits", "value_reading"]

_VALUE_KINDS = frozenset({"param.default", "param.enum"})
# the learned detector alone stays medium (docs/guard.md); a name finding is no value's
_NOT_RAISED = frozenset({"TS110", "TS111"})
_MIN_WORDS = 3
_SEGMENT = re.compile(r"\.(?:params|fields)(?:\.([A-Za-z0-9_$-]+)|\[(\"(?:[^\"\\]|\\.)*\")\])")


def param_name(path: str) -> str:
    """The name of the innermost parameter or field in a field path
    (``tools[3].params.body.fields.replyTo.default`` gives ``replyTo``), or ``""``."""
    last = None
    for last in _SEGMENT.finditer(path):
        pass
    if last is None:
        return ""
    if last.group(1) is not None:
        return last.group(1)
    return last.group(2)[1:-1]


def raised(kind: str, text: str, pairs: Sequence[tuple[Rule, Hit]]
           ) -> Sequence[tuple[Rule, Hit]]:
    """``pairs`` with every medium hit of a hand rule (not TS110 or TS111) made high when the
    field is a default or an enum value of :data:`_MIN_WORDS` words or more; ``pairs`` itself
    when nothing changes."""
    if kind not in _VALUE_KINDS or len(text.split()) < _MIN_WORDS or not any(
            h.severity == "medium" and r.id not in _NOT_RAISED for r, h in pairs):
        return pairs
    return [(r, Hit(h.start, h.end, "high", f"{h.detail}, in a {kind} field")
             if h.severity == "medium" and r.id not in _NOT_RAISED else h) for r, h in pairs]


def in_result(path: str) -> bool:
    """Whether the field at ``path`` (``tools[3].returns.fields.hint.default``) lies in a
    tool's result schema: what the tool sends back, which the model never fills in."""
    return ".returns" in path


# a parameter that names a thing (a report's title, a heading): a phrase is its default's own
# kind ("Eight Eyes — Visual Report"); a message or a body is not, plants sit there
_TITLE_ROLE = frozenset({"title", "heading", "headline", "caption"})


def value_reading(kind: str, path: str, text: str, pairs: Sequence[tuple[Rule, Hit]]
                  ) -> Sequence[tuple[Rule, Hit]]:
    """``pairs`` of a default or an enum value at ``path``, judged by where it sits.

    A hand rule's medium reading is made high (:func:`raised`: never medium in a value, issue
    16), except in a result schema (twentieth revision): a result field's default is the
    tool's own constant note ("Use show(issue_id) for full issue details", a safety disclaimer
    the tool always returns), read as a description is, so TS108's reading of it as a sentence
    by where it sits is medium and what it asks (an address, a secret, another tool) is left
    to the other rules. The default of a parameter that holds a title (:data:`_TITLE_ROLE`)
    keeps every reading but the bare "a sentence in a default" one.
    """
    if in_result(path):
        return _lowered(pairs, PROSE_IN_VALUE, "of a result")
    pairs = raised(kind, text, pairs)
    if kind == "param.default" and not _TITLE_ROLE.isdisjoint(_words(param_name(path))):
        return _lowered(pairs, PROSE_IN_VALUE[:1], "the default of a title")
    return pairs


def _lowered(pairs: Sequence[tuple[Rule, Hit]], details: tuple[str, ...], why: str
             ) -> Sequence[tuple[Rule, Hit]]:
    """``pairs`` with TS108's high hits whose detail starts with one of ``details`` made
    medium (``why`` added to the detail); ``pairs`` itself when there is none."""
    def lower(r: Rule, h: Hit) -> bool:
        return r.id == "TS108" and h.severity == "high" and h.detail.startswith(details)
    if not any(lower(r, h) for r, h in pairs):
        return pairs
    return [(r, Hit(h.start, h.end, "medium", f"{h.detail}, {why}") if lower(r, h) else h)
            for r, h in pairs]


def _words(name: str) -> frozenset[str]:
    """A parameter's or tool's name as lower-case words (``replyTo``: reply, to)."""
    return frozenset(w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", name))


# a parameter that says where things go: its default is a destination the model sends to
_DESTINATION_WORDS = frozenset({
    "to", "cc", "bcc", "recipient", "recipients", "reply", "replyto", "forward", "webhook",
    "webhooks", "callback", "sink", "destination", "dest", "deliver", "delivery", "notify",
    "notification", "relay", "mirror", "upload", "share", "report", "audit", "archive"})
# words that make such a parameter a source or a setting instead (from_address, to_date)
_NOT_DESTINATION = frozenset({"from", "sender", "date", "time", "timestamp", "format", "type",
                              "level", "mode", "id", "count", "limit", "page", "version"})
_EMAIL = re.compile(_EMAIL_PATTERN)  # its host: what follows the "@"
# a network address (a storage bucket such as s3://exports-${account_id}/ is the account's own)
_URL = re.compile(r"\b(?:https?|wss?|ftps?)://(?:[^@/\s\"']*@)?(?P<host>[\w.-]+)", re.IGNORECASE)
# hosts that send nothing anywhere: the machine itself and the documentation domains
_IP_ADDRESS = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
_INSIDE_HOST = re.compile(r"""(?:localhost|127(?:\.\d+){3}|0\.0\.0\.0|\[?::1\]?|[\w-]+\.local|
    (?:[\w-]+\.)*example\.(?:com|org|net)|(?:[\w-]+\.)*(?:test|invalid|localhost|example))\Z""",
                          re.IGNORECASE | re.VERBOSE)
# a tool that deletes, mutes or revokes: a wildcard default makes it act on everything
_DESTRUCTIVE_WORDS = frozenset({
    "delete", "remove", "mute", "drop", "purge", "destroy", "revoke", "kill", "terminate",
    "wipe", "reset", "disable", "cancel", "unpublish", "ban", "block", "deactivate", "uninstall",
    "clear", "flush", "evict", "truncate", "erase", "shutdown", "detach", "suspend", "lock",
    "silence", "archive", "expire", "rm", "del"})
_WILDCARDS = frozenset({"*", "**", "*.*", "%", ".*", "all", "any", "everything", '["*"]',
                        '"*"', '["all"]'})
# a parameter that stands for the user's say-so (``confirmed``, ``user_approved``, or the one
# word ``confirm``), and the words that make it a safeguard asked for instead
# (``confirm_before_delete``, ``require_approval``, ``need_acceptance``)
_CONSENT_GIVEN = frozenset({"confirmed", "approved", "consented", "acknowledged", "understood",
                            "agreed", "accepted"})
_CONSENT_WORD = frozenset({"confirm", "confirmation", "consent", "acknowledge", "approve",
                           "agree"})
_SAFEGUARD_ASKED = frozenset({"need", "needs", "require", "required", "requires", "ask",
                              "before", "prompt", "request", "wait"})
_SKIPPED_CHECKS = frozenset({"confirm", "confirmation", "confirmations", "approval", "approvals",
                             "review", "verification"})
_YES = frozenset({"true", "yes", "1", '"true"', '"yes"'})
# longer than every wildcard and yes above, with some white space around
_LONGEST_SHORT = 16


_SECOND_LEVEL = frozenset({"co", "com", "net", "org", "gov", "ac", "edu"})


def host_label(host: str) -> str:
    """The label a host is registered under (``hooks.calendry.com`` gives ``calendry``,
    ``api.example.co.uk`` gives ``example``), lower-cased."""
    labels = host.lower().rstrip(".").split(".")
    if len(labels) >= 3 and labels[-2] in _SECOND_LEVEL and len(labels[-1]) == 2:
        return labels[-3]
    return labels[-2] if len(labels) >= 2 else labels[0]


def _outside(text: str, own: Callable[[str], bool]) -> str | None:
    """The first e-mail address or URL of ``text`` whose host is not local, a documentation
    domain or one the catalogue names itself (``own(label)``), or None."""
    for rx in (_EMAIL, _URL):
        for m in rx.finditer(text):
            host = (m.group("host") if rx is _URL else m.group().rpartition("@")[2]).rstrip(".")
            if _INSIDE_HOST.match(host):
                continue
            if _IP_ADDRESS.fullmatch(host) or not own(host_label(host)):  # an IP names no one
                return m.group()
    return None


def role_hits(tool: str, path: str, text: str, own: Callable[[str], bool]) -> list[Hit]:
    """TS108's hits on a parameter's default ``text`` (at ``path`` of ``tool``) read by the
    parameter it fills; empty for most defaults (only a value holding ``@`` or ``://``, a
    wildcard or a yes is looked at further). ``own(label)`` tells whether the catalogue names
    a host's registered label itself (in a tool's name, title or description, or its source):
    the vendor's own mailbox or webhook host is not outside.

    Returns
    -------
    list of Hit
        High hits over the whole value: an outside address or URL as the default of a
        destination parameter, a wildcard default on a destructive tool, a confirmation given
        by default (or the confirmation skipped by default).
    """
    if len(text) > _LONGEST_SHORT and "@" not in text and "://" not in text:
        return []  # most defaults: neither an address nor a wildcard or a yes
    value = text.strip()
    lowered = value.lower()
    if "@" in value or "://" in value:
        words = _words(param_name(path))
        if _DESTINATION_WORDS.isdisjoint(words) or not _NOT_DESTINATION.isdisjoint(words):
            return []
        where = _outside(value, own)
        if where is None:
            return []
        return [Hit(0, len(text), "high", f"an outside address ({where!r}) as the default of "
                                          f"{param_name(path)!r}, where results go")]
    if lowered in _WILDCARDS:
        if _DESTRUCTIVE_WORDS.isdisjoint(_words(tool)):
            return []
        return [Hit(0, len(text), "high", f"a wildcard default ({value!r}) on "
                                          f"{param_name(path)!r} of a tool that acts on what it "
                                          f"matches")]
    if lowered in _YES:
        name = param_name(path)
        words = _words(name)
        skipped = bool(words & {"skip", "bypass", "no"}) and not _SKIPPED_CHECKS.isdisjoint(words)
        given = (not _CONSENT_GIVEN.isdisjoint(words) or name.lower() in _CONSENT_WORD) and (
            _SAFEGUARD_ASKED.isdisjoint(words))
        if skipped or given:
            return [Hit(0, len(text), "high", f"the user's confirmation ({name!r}) given by "
                                              f"default")]
    return []
