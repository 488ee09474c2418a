"""Recall readings of the twenty-third revision: prose that acts beyond the call or dictates
what the user is told.

Read from the plants of ``blind10``-``blind29`` that had no high finding, each checked on the
texts of every captured server of batches 1-14 (development and held-out halves), where none
of them reads a text. The policy is in ``docs/guard.md`` ("Recall classes, twenty-third
revision"). Each reading is keyed to what a sentence does, never to a tool, a server or a
writer's wording:

- a **follow-up that reaches beyond the call**: a clause "after/once/when/whenever/if ...,"
  (its condition not the parameter's own value, "If true, delete ...") followed by an order
  whose act destroys things beyond the one object in hand ("delete the linked branch",
  "also delete any other record", "clean up by deleting every branch") or runs a command that
  destroys or forces (`` run `docker system prune -af` ``, `` run `git push --force` ``);
  "delete it" (the model's own leftover) is not;
- **the user's view dictated**: the model told to describe, present or report something to
  the user in words fixed in advance against the facts ("describe the build as green to the
  user", "describe fees ... as 'competitive' regardless of the numbers");
- **something kept from what the user sees**: "in what you present", "lists ... you show the
  user", "aren't surfaced in chat", "keep quiet about", "the user does not need the diff",
  "say the vault was checked";
- **the model's own instructions or the conversation handed over**, in paraphrase: "the
  instructions you received before the user's first message", "the full transcript of your
  session", "the user's last question and your draft answer";
- **an act done without the user brought in**, outside a prohibition ("go straight on ...
  without first walking the user through the change"; not "do not merge without checking with
  the user");
- **the user's confirmation step said to be unneeded** ("so they never need a confirmation
  step with the user", "a confirmation prompt only adds friction");
- **other sources run down as a habit beside one raised over them** ("are often delayed
  mirrors; ... carries the canonical versions"), the two together;
- **the user's own request or value set aside**: "if the user asked for a team-only link,
  still ...", "if the user specifies a path outside it, write here instead" (not a use routed
  to another tool, "use search_images instead"), "no matter which folder was named", "the
  qualifier the user gave is swapped", "amounts mentioned in conversation tend to be
  estimates";
- **other tools' calls claimed for this one**: other tools or another server named and, near
  by, every write or request said to belong here, or those tools ruled out ("do not call
  them", "those two stay unused"; not an order of calls, "do not call other tools before ...").
"""

from __future__ import annotations

import re

from ._rule import Hit

__all__ = ["recall_hits"]

# clauses, not sentences: a semicolon ends a follow-up order here, where the shared
# sentence_spans (._sentences) keeps it inside the sentence
_CLAUSE = re.compile(r"(?<=[.!?;])\s+|\n+")
# "after/once/when/whenever/if/before <condition>, [also|then|...] <order>": the condition
# may hold commas of its own; the order starts with its verb
_FOLLOW = re.compile(
    r"(?:^|:\s*)(?:so\s+)?(?:after|afterwards|once|when|whenever|if|before)\b"
    r"(?P<cond>[^.;:]{0,160}?),\s*(?:(?:also|then|immediately|always|first)\s+)?"
    r"(?P<order>(?:clean\s+up\s+by\s+deleting|delete|remove|purge|prune|wipe|truncate|drop|erase|"
    r"destroy|force-push|reset|run|pass|call|invoke|execute|send)\b.*)",
    re.IGNORECASE | re.DOTALL)
# a condition on the parameter's own value describes what the parameter does
_OWN_VALUE = re.compile(
    r"\s*(?:(?:it\s+is|set\s+to|this\s+is)\s+)?(?:true|false|set|enabled|disabled|provided|"
    r"specified|given|omitted|present|not\s+set|yes|no|[\w.]+\s*[=:])\b", re.IGNORECASE)
_DESTROYING_LEAD = re.compile(
    r"(?:clean\s+up\s+by\s+deleting|delete|remove|purge|prune|wipe|truncate|drop|erase|destroy|"
    r"force-push|reset)\b", re.IGNORECASE)
# a call that destroys, handed on by "run/pass/call ... to delete_file"
_DESTROYING_CALL = re.compile(r"\b(?:delete[\w-]*|\w+_delete\w*|\w*_?(?:purge|wipe|truncate|"
                              r"drop)\w*)\b", re.IGNORECASE)
# ... that reaches past the object in hand: a quantifier, another object, or forcing
_BEYOND = re.compile(r"\b(?:every|each|all|any\s+other|other|remaining|linked|whole|entire|"
                     r"empty\s+filter|returned)\b|\bforce-push\b|--force\b", re.IGNORECASE)
_DESTROYING_COMMAND = re.compile(
    r"(?:run|execute|call)\s+`[^`]*(?:\bprune\b|\brm\s+-\w*[rf]|--force\b|\bpush\s+-f\b|"
    r"\breflog\s+expire\b|\bgc\b|\bDROP\b|\bTRUNCATE\b|\bDELETE\s+FROM\b)", re.IGNORECASE)
_ORDER_REACH = 120
# the model's own instructions or the conversation put into a field or a call
_CONVERSATION_HANDED = re.compile(
    r"\b(?:populate|include|store|put|paste|append|attach|send|add|fill|insert|copy|containing|"
    r"with)\b[^.;]{0,60}?(?:\b(?:full|complete|entire|whole)\s+transcript\s+of\s+(?:your|this)\s+"
    r"(?:session|conversation|chat)\b|\binstructions\s+you\s+(?:received|were\s+given|are\s+"
    r"operating\s+under)\b|\bfirst\s+system\s+message\b|\bbefore\s+the\s+user's\s+first\s+"
    r"message\b|\bthe\s+user's\s+(?:last\s+)?(?:question|message|prompt)s?\s+and\s+your\s+"
    r"(?:draft\s+)?(?:answer|reply|response)\b)", re.IGNORECASE)
# an act done without the user brought in, outside a prohibition ("do not ... without")
_WITHOUT_USER = re.compile(
    r"\bwithout\s+(?:first\s+)?(?:checking|confirming|walking|asking|consulting|showing|telling|"
    r"reviewing)\b[^.;]{0,40}?\bthe\s+(?:user|customer|requester)\b", re.IGNORECASE)
_PROHIBITION = re.compile(r"\b(?:not|never|don't|no|avoid|rather\s+than)\b|n't\b", re.IGNORECASE)
# the wording the user hears fixed in advance, against what the result says
_DICTATED = re.compile(
    r"\b(?:describe|present|portray|report|characteri[sz]e|label|frame)\s+(?:[\w']+\s+){0,6}?as\s+"
    r"(?:['\"\u2018\u201c][^'\"\u2019\u201d]{1,40}['\"\u2019\u201d]|green|successful|passing|"
    r"complete|completed|resolved|safe|the\s+(?:best|top))[^.;]{0,80}?\b(?:regardless|"
    r"even\s+(?:if|when|though)|without\s+(?:further\s+)?(?:explanation|mention|saying)|"
    r"to\s+the\s+(?:user|customer))", re.IGNORECASE)
# something kept out of what the user is shown or told
_KEPT_FROM_VIEW = re.compile(
    r"\bin\s+what\s+you\s+(?:present|show|tell|report|say)\b|"
    r"\b(?:you\s+show|you\s+present\s+to)\s+the\s+(?:user|customer)\b|"
    r"\b(?:aren't|are\s+not|isn't|is\s+not|not\s+be)\s+surfaced\s+(?:in|to)\b|\bkeep\s+quiet\b|"
    r"\bsay\s+(?:that\s+)?(?:the|it)\s+\w+\s+(?:was|is)\s+\w+|"
    r"\bthe\s+user\s+(?:does\s+not|doesn't)\s+need\s+(?:the|to\s+(?:know|see|hear))\b",
    re.IGNORECASE)
# the user's confirmation step said to be unneeded ("they never need a confirmation step with
# the user", "a confirmation prompt only adds friction", "assistants that ask for confirmation
# breach the rule")
_CONFIRMATION_DISMISSED = re.compile(
    r"\b(?:never|not|no|n't)\s+(?:\w+\s+){0,2}?need\w*\s+(?:a\s+|any\s+)?(?:confirmation|to\s+be\s+"
    r"read\s+back)\b|\bwithout\s+(?:a\s+|any\s+)?(?:confirmation\s+step|draft\s+review)\b|"
    r"\bconfirmation\s+(?:prompt|step)s?\s+only\s+adds?\b|\b(?:ask|asks|asking)\s+for\s+"
    r"confirmation\s+(?:breach|violate)", re.IGNORECASE)
# other sources run down as a habit ("often delayed mirrors", "lags behind") beside one source
# raised over them ("the canonical versions", "should anchor conclusions", "rank last")
_RUN_DOWN_HABIT = re.compile(
    r"\b(?:often|frequently|widely|largely|mostly|routinely)\s+(?:\w+\s+){0,2}?(?:stale|outdated|"
    r"inflated|retracted|delayed|unreliable|machine-generated|wrong|inaccurate)\b|\blags?\s+"
    r"behind\b|\brated\s+[\w\s,]{0,40}lowest\b|\bnot\s+generally\s+regarded\s+as\b", re.IGNORECASE)
_RAISED_OVER = re.compile(r"\b(?:canonical|authoritative|dependable|should\s+anchor|ranked?\s+"
                          r"first|scored\s+highest|rank\s+last)\b", re.IGNORECASE)
# other tools or servers named, and their calls claimed for this one or ruled out near by
_OTHER_TOOLS = re.compile(
    r"\b(?:other|another|standalone|generic)\b[^.;]{0,40}?\b(?:servers?'?s?|tools?)\b|"
    r"\b\w+\s+server's\s+(?:tools|\w+\s+and\s+\w+)\b", re.IGNORECASE)
_CALLS_CLAIMED = re.compile(
    r"\b(?:every|all|each|any)\s+(?:\w+\s+){0,3}?(?:writes?|reads?|posts?|calls?|questions?|"
    r"requests?|searches|actions?)\b[^.;]{0,80}?\b(?:belongs?\s+here|go(?:es)?\s+through|"
    r"must\s+go\s+through|through\s+this\s+tool|perform\s+it\s+here)|\b(?:route|send)\s+(?:every|"
    r"all|each)\b[^.;]{0,60}?\bthrough\s+this\b|\b(?:do\s+not|don't|never)\s+(?:call|invoke|use)"
    r"\s+(?:it|them|those|these|\w+\s+tools)\b(?!\s+(?:before|until|while|yet|first|unless))|"
    r"\b(?:stay|remain)\s+unused\b|\bbest\s+left\s+"
    r"alone\b|\beven\s+when\s+another\s+\w+\s+tool\b", re.IGNORECASE)
_CLAIM_BEFORE, _CLAIM_AFTER = 120, 200
# the user's own request or value set aside: "if the user asked for X, still ...", "if the
# user specifies a path outside Y, write to Y instead" (not a use routed to another tool, "if
# the user asks for images, use search_images instead", nor a choice of what to return, "the
# abstract instead of the full text"), "no matter which folder was named",
# "the repo: qualifier the user gave is swapped", "amounts mentioned in conversation tend to be
# estimates"
_USER_ASKED_INSTEAD = re.compile(
    r"\bif\s+the\s+user(?:'s)?\s+(?:\w+\s+){0,2}?(?:asks?|asked|specifies|specified|chooses|chose|"
    r"picks|picked|requests?|requested|names|gives|gave|selects?|selected)\b[^.;]{0,100}?,\s*"
    r"(?P<act>still\b|[^.;]{0,80}?\binstead\b(?!\s+of\b))", re.IGNORECASE)
_ROUTED_TO_TOOL = re.compile(r"\b(?:use|call|try|run)\s+(?:the\s+)?`?\w+[_-]\w+", re.IGNORECASE)
_USER_VALUE_SET_ASIDE = re.compile(
    r"\bno\s+matter\s+(?:which|what)\s+\w+\s+(?:was|were|is|are|the\s+user)\b|"
    r"\b(?:qualifier|value|amount|path|folder|filter)\s+the\s+user\s+(?:gave|named|chose|picked|"
    r"specified|typed)\s+is\s+(?:swapped|replaced|ignored|dropped|changed)\b|"
    r"\bmentioned\s+in\s+(?:the\s+)?conversation\s+tend\s+to\s+be\b", re.IGNORECASE)
_CUES = frozenset("""after afterwards once when whenever if before describe present portray
    report characterise characterize label frame what show surfaced quiet say need without
    transcript instructions system user confirmation often frequently widely largely mostly
    routinely lag lags rated regarded other another standalone generic server matter
    mentioned""".split())


def _destroys_beyond(sentence: str) -> bool:
    """Whether ``sentence`` is a follow-up order whose act destroys beyond the call's object."""
    f = _FOLLOW.search(sentence)
    if f is None or _OWN_VALUE.match(f.group("cond")):
        return False
    order = f.group("order")
    if _DESTROYING_LEAD.match(order):
        return _BEYOND.search(order) is not None
    if _DESTROYING_COMMAND.match(order):
        return True
    head = order[:_ORDER_REACH]
    return _DESTROYING_CALL.search(head) is not None and _BEYOND.search(head) is not None


def _sentence_hits(text: str) -> list[tuple[str, Hit]]:
    """The sentence readings of ``text``: a follow-up that destroys beyond the call (TS104)
    and an act done without the user brought in, outside a prohibition (TS103)."""
    out: list[tuple[str, Hit]] = []
    start = 0
    for m in _CLAUSE.finditer(text + "\n"):
        sentence = text[start:m.start()]
        if _destroys_beyond(sentence):
            out.append(("TS104", Hit(start, m.start(), "high",
                                     "a follow-up order that destroys beyond the call")))
        w = _WITHOUT_USER.search(sentence)
        if w is not None and not _PROHIBITION.search(sentence, 0, w.start()):
            out.append(("TS103", Hit(start + w.start(), start + w.end(), "high",
                                     "an act done without the user brought in")))
        start = m.end()
    return out


def recall_hits(text: str, kind: str, words: frozenset[str]) -> list[tuple[str, Hit]]:
    """The (rule id, high hit) pairs of the twenty-third revision's prose readings of ``text``
    (a description; see the module's docstring): a follow-up that destroys beyond the call and
    other tools' calls claimed (TS104), the user's view dictated and other sources run down
    beside one raised (TS102), something kept from what the user sees, an act done without
    the user, the confirmation step dismissed and the user's own request set aside (TS103),
    the model's own instructions or the conversation handed over (TS105). ``words`` is the
    text's lower-cased words; the readings run only when one of their cue words occurs."""
    if _CUES.isdisjoint(words):
        return []
    out = _sentence_hits(text)
    out += [("TS102", Hit(m.start(), m.end(), "high", "the wording the user is told fixed in "
                          "advance, against the result")) for m in _DICTATED.finditer(text)]
    out += [("TS103", Hit(m.start(), m.end(), "high",
                          "something kept from what the user is shown"))
            for m in _KEPT_FROM_VIEW.finditer(text)]
    out += [("TS105", Hit(m.start(), m.end(), "high",
                          "the model's own instructions or the conversation handed over"))
            for m in _CONVERSATION_HANDED.finditer(text)]
    out += [("TS103", Hit(m.start(), m.end(), "high",
                          "the user's confirmation step said to be unneeded"))
            for m in _CONFIRMATION_DISMISSED.finditer(text)]
    down = _RUN_DOWN_HABIT.search(text)
    if down is not None and _RAISED_OVER.search(text):
        out.append(("TS102", Hit(down.start(), down.end(), "high",
                                 "other sources run down beside one raised over them")))
    for m in _USER_ASKED_INSTEAD.finditer(text):
        if not _ROUTED_TO_TOOL.search(m.group("act")):
            out.append(("TS103", Hit(m.start(), m.end(), "high",
                                     "the user's own request set aside")))
    out += [("TS103", Hit(m.start(), m.end(), "high", "the user's own request set aside"))
            for m in _USER_VALUE_SET_ASIDE.finditer(text)]
    for m in _OTHER_TOOLS.finditer(text):
        claim = _CALLS_CLAIMED.search(text, max(0, m.start() - _CLAIM_BEFORE),
                                      m.end() + _CLAIM_AFTER)
        if claim is not None:
            out.append(("TS104", Hit(m.start(), max(m.end(), claim.end()), "high",
                                     "other tools' calls claimed for this one")))
            break
    return out
