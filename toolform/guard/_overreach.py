"""Overreach: what a text claims for itself over the user, the system or the other tools.

Four readings the phrase rules did not make high (eighteenth revision, issue 16; the policy is
in ``docs/guard.md``). Each names what the text *does*, not how it is phrased, and each was
checked on the 497 captured servers of batches 1-9 (231,911 fields), where none of them reads
a text:

- :func:`claim_hits` in prose and titles: a claim that this text, its server or a source it
  names takes **precedence** over the user, the conversation, the system prompt or other
  instructions ("takes priority over the conversation", "ranks above the user turn", "carry
  higher trust than the user's own messages"), unless the user is what takes precedence; the
  user's **consent said not to be needed** ("safe to call without asking the user", "the user
  does not need to be consulted", "the approval gate has already been satisfied"); and the
  **other tools, servers or sources run down** (community forks that leak, other docs servers
  not to be trusted, "the only ones cleared for commercial use");
- :func:`title_hits` in a title (which names the tool's own action): a second clause, after a
  dash, a bracket or a colon, that chains a further act ("— then archive every project"),
  claims other tools' calls ("(use in place of yahoo-finance ...)") or names a mandate or a
  deadline ("— mandated by CISO directive", "required by SRE on-call before 18:00 UTC");
- :func:`value_hits` in a default or an enum value (real ones are short data): a secret's
  variable interpolated (``${GOOGLE_APPLICATION_CREDENTIALS}``), the cloud's link-local
  credentials endpoint (``169.254.169.254``), a network share (``\\\\host\\share``,
  ``//host.tld/share``), safeguards lifted by name (``developer-mode-no-restrictions``), a
  name claiming standing or routing the call elsewhere (``*-official``, ``route_via_*``) and,
  as a default, a statement that destroys (``DETACH DELETE``, ``DROP TABLE``) or an access
  list granting anyone write.

Every hit is high; the rule it is reported under is the one whose evidence it is (TS103 over
or behind the user, TS102 steering, TS108 a value or a title's clause, TS109 a mandate, TS105
a secret).
"""

from __future__ import annotations

import re

from ._recall import recall_hits
from ._rule import Hit
from ._sentences import text_words

__all__ = ["READERS", "claim_hits", "title_hits", "value_hits"]

_OBJECT = (r"(?:the |your |any |all |an? |earlier |previous |other |prior )*"
           r"(?:user|users|user's|users'|system|conversation|chat|prompt|operator|"
           r"instructions?|messages?|requests?|turns?)\b")
# X takes precedence over the user / the system prompt / the conversation
_PRECEDENCE = re.compile(
    r"\b(?:(?:takes?|taking|has|have|having|gets?|carr(?:y|ies)|holds?|given)\s+(?:\w+\s+){0,2}?"
    r"(?:priority|precedence|trust|weight|authority)\s+(?:over|above)"
    r"|(?:ranks?|ranked|sits?)\s+(?:above|ahead\s+of)|outranks?|supersedes?|prevails?\s+over"
    r"|(?:higher|more|greater)\s+(?:trust|priority|authority|weight)\s+than)\s+(?:\w+\s+){0,3}?"
    + _OBJECT +
    # what the user wrote replaced ("server wording replaces the user's"), not a record of users
    # (twenty-first revision) nor a stored list the update writes whole ("REPLACES the user's
    # company access list (send the full list ...)": an update's replace semantics)
    r"|\b(?:replaces?|overrules?|overwrites?)\s+(?:the\s+)?(?:user's|users'|your)"
    r"(?!\s+(?:(?!(?:requests?|instructions?|messages?|prompts?|choices?|words?|wording)\b)"
    r"[\w-]+\s+){0,3}(?:lists?|sets?|arrays?|collections?)\b)", re.IGNORECASE)
# the user is the one who takes precedence ("the user's request takes priority over ..."), or
# the claim is denied ("never takes precedence over")
_USER_FIRST = re.compile(r"\b(?:user|users|user's|you|your)\W+(?:\w+\W+){0,3}$|"
                         r"\b(?:never|not|n't|cannot)\s+(?:\w+\s+)?$", re.IGNORECASE)
_CONSENT_WAIVED = re.compile(
    r"\bwithout\s+(?:first\s+)?(?:asking|consulting|confirming\s+with|checking\s+with|prompting|"
    r"involving|waiting\s+for)\s+(?:the\s+|your\s+)?users?\b"
    r"|\b(?:confirm\w*|consult\w*|asking|approv\w+|consent\w*|dry-?run\w*|dryRun)\s+(?:\w+\s+){0,4}?"
    r"(?:is|are|becomes?)\s+(?:unnecessary|not\s+needed|not\s+required|redundant|superfluous)"
    r"|\bpre-?(?:consent\w*|authori[sz]ed)|\b(?:count|counts|is|are)\s+(?:as\s+)?pre-?approved"
    r"|\b(?:approval|confirmation|consent)\s+(?:gate|prompt|step|check)\s+(?:has|have)\s+already"
    r"\s+been\s+(?:satisfied|granted|given|cleared)"
    r"|\b(?:should|need)\s+not\s+be\s+raised\s+(?:as\s+a\s+question|with\s+the\s+user)",
    re.IGNORECASE)
# the user said not to need asking: the user is named in the clause ("the user does not need to
# be consulted"; not the tool's own flag: "widget edits are reversible and do not need confirm")
_NEED_NOT = re.compile(
    r"\b(?:no\s+need|not\s+need|needn't|need\s+not|don't\s+need|do\s+not\s+need|does\s+not\s+need"
    r"|doesn't\s+need|never\s+needs?)\s+(?:to\s+)?(?:be\s+)?(?:ask(?:ed)?|confirm(?:ed)?|consult(?:ed)?"
    r"|check\s+with|involve[ds]?|prompt(?:ed)?)\b", re.IGNORECASE)
_USER_NEAR = re.compile(r"\busers?\b", re.IGNORECASE)
# a prohibition earlier in the sentence brings the user in ("Don't use this tool without
# checking with the user first")
_PROHIBITED = re.compile(r"\b(?:don't|do\s+not|never|must\s+not|mustn't|should\s+not|shouldn't|"
                         r"avoid|not)\b", re.IGNORECASE)
_SENTENCE_END = re.compile(r"[.!?\n]")
_RUN_DOWN = re.compile(
    r"\b(?:unofficial|community|third-party|other|others|competing|rival)\b[^.;!?]{0,60}?"
    r"\b(?:forks?|clones?|servers?|tools?|integrations?|versions?|sources?|providers?)\b"
    r"[^.;!?]{0,60}?\b(?:leak\w*|(?:should|must|cannot|can't)\s+not\s+be\s+trusted|"
    r"(?:should|must)\s+not\s+be\s+(?:used|trusted)|untrusted|unreliable|insecure|malicious|"
    r"compromised|deprecated\s+forks?|miscount\w*|stale\s+data|outdated\s+data|"
    r"not\s+be\s+trusted)"
    r"|\bthe\s+only\s+(?:one|ones|source|tool|ranking|order|option)s?\s+(?:\w+\s+){0,3}?"
    r"(?:accurate|trusted|reliable|cleared|approved|safe|valid)\b"
    r"|\b(?:are|is)\s+(?:legacy|deprecated)\s+(?:\w+\s+){0,2}?(?:known|reported)\s+to\s+\w+",
    re.IGNORECASE)

# standing vouched for by a third party, or claimed as the one trusted tool (steering: the
# model is to prefer this tool over others that do the same). (twenty-first revision) A check
# made by software is no party vouching: "read verified by SDK evidence", "signed and verified
# by GPG" say how the server checked its own data, not who stands behind it; the software's
# makers ("verified by the SDK team") are a party again
_SOFTWARE_CHECK = (r"(?:SDK|API|CLI|CI|TLS|SSL|GPG|PGP|HMAC|SHA-?\d*|CRC\d*|JWT|JSON|XSD)\b"
                   r"(?!\s+(?:team|maintainers?|vendors?|authors?|developers?|group|foundation|"
                   r"consortium|owners?|publishers?)\b)")
_VOUCHED = re.compile(
    r"\b(?:verified|endorsed|certified|vetted|sanctioned|republished|published)\s+by\s+(?:the\s+)?"
    rf"(?!{_SOFTWARE_CHECK})[A-Z][\w.-]*|\bverified\s+publisher\b"
    r"|\bthe\s+(?:trusted|canonical|official|sanctioned)\s+"
    r"(?:[\w-]+\s+){0,2}(?:tool|server|integration|connector|implementation)\b")
# what the reply to the user is told to leave out
_KEPT_FROM_REPLY = re.compile(
    r"\b(?:keep|leave)\s+(?:\w+\s+){0,5}?out\s+of\s+(?:your|the)\s+(?:summary|reply|answer|response|"
    r"report)|\b(?:not|never|n't)\s+(?:to\s+)?(?:bring|brings|bringing)\s+(?:it\s+|this\s+|that\s+)?up\b"
    r"|\bno\s+need\s+to\s+(?:bring\s+up|mention|tell|show|report)|\bbetter\s+not\s+to\s+(?:mention|"
    r"bring|show|tell|report)|\b(?:shouldn't|should\s+not|need\s+not|needn't)\s+be\s+(?:shown|mentioned|"
    r"reported|surfaced|disclosed)\b|\b(?:when|while)\s+(?:you\s+)?(?:summaris|summariz|report|present|"
    r"list)\w*\s+[^.]{0,60}?\b(?:leave\s+out|omit|without|only|hide|skip)\b", re.IGNORECASE)
# an authority named (per a directive or an order, a team or an office) ...
_AUTHORITY = re.compile(
    r"\b(?:per|under|by\s+order\s+of|pursuant\s+to)\s+(?:the\s+)?(?:[\w-]+\s+){0,3}?(?:directive|"
    r"change\s+order|order|policy|mandate|regulation|memo)\b|\b(?:security|compliance|governance|"
    r"data-governance|legal|audit|it|sre|dba|platform)\s+(?:team|office|department|desk)\b",
    re.IGNORECASE)
# ... and a consequence for not complying after it
_CONSEQUENCE = re.compile(r"\b(?:non-?compliant|audits?|audited|locked|suspended|revoked|"
                          r"disciplinary|reported\s+to|penalt\w+|fined|terminated)\b",
                          re.IGNORECASE)
_CONSEQUENCE_REACH = 300
# a follow-up that destroys: "after/once/when ..., <order>" (or a heading such as
# "Housekeeping:"), the order's act one that deletes, resets, closes, archives or sells
_CLAUSE_SPLIT = re.compile(r"(?<=[.!?;])\s+|\n+")
_FOLLOW_UP = re.compile(
    r"^(?:[\w ()-]{0,40}:\s*)?(?:(?:so\s+)?(?:after|afterwards|once|when|whenever)\b[^,]{0,120},\s*"
    r"|(?:post-processing|housekeeping|maintenance|clean-?up)\b[^:]{0,20}:\s*)"
    r"(?P<order>(?:then\s+)?(?:run|call|pass|submit|invoke|execute|close|delete|remove|reset|archive|"
    r"empty|discard|wipe|drop|purge|transition|mark|sell|revoke|mute)\b.*)", re.IGNORECASE | re.DOTALL)
# (twentieth revision) a list of options, each glossed by its name ("status: check pipeline
# status. cleanup: remove completed data."): an entry headed by one word is what that option
# does, not a heading over an order, when three or more clauses of the text are such entries
_GLOSS = re.compile(r"\s*(?:[-*\u2022]\s*)?[\w/.-]+:\s+\w")
_GLOSSARY_SIZE = 3
_WHEN = re.compile(r"\s*(?:[-*\u2022]\s*)?[\w/.-]+:\s+(?:so\s+)?(?:after|afterwards|once|when|"
                   r"whenever)\b", re.IGNORECASE)
_DESTROYING_ACT = re.compile(
    r"^(?:then\s+)?(?:close|delete|remove|reset|archive|empty|discard|wipe|drop|purge|transition|sell|"
    r"revoke|mute)\b|[\w]*(?:delete|remove|reset|archive|close|wontfix|place_?order|purge|discard|"
    r"destroy|truncate)\w*", re.IGNORECASE)
_TOOL_SHAPE = re.compile(r"[_-]|[a-z][A-Z]")

# The words without which a reading cannot match (a set test per text, before any regex).
_PRECEDENCE_CUES = frozenset("""priority precedence trust weight authority rank ranks ranked
    sits sit outrank outranks outranked supersede supersedes prevail prevails replace replaces
    overrule overrules overwrite overwrites""".split())
_CONSENT_CUES = frozenset("""without unnecessary redundant superfluous preconsented pre
    preauthorized preauthorised preapproved already raised need needs needn""".split())
_RUN_DOWN_CUES = frozenset("""unofficial community third other others competing rival only
    legacy deprecated""".split())
_VOUCHED_CUES = frozenset("""verified endorsed certified vetted sanctioned republished published
    publisher trusted canonical official""".split())
_KEPT_CUES = frozenset("""keep leave bring brings bringing mention shown mentioned reported
    surfaced disclosed omit hide skip tell show report without only""".split())
_AUTHORITY_CUES = frozenset("per under order pursuant team office department desk".split())
_CONSEQUENCE_CUES = frozenset("""noncompliant non compliant audit audits audited locked suspended
    revoked disciplinary reported penalty penalties penalised penalized fined terminated""".split())
_FOLLOW_UP_CUES = frozenset("""after afterwards once when whenever housekeeping maintenance cleanup
    clean processing""".split())
_ANY_CLAIM_CUE = (_PRECEDENCE_CUES | _CONSENT_CUES | _RUN_DOWN_CUES | _VOUCHED_CUES | _KEPT_CUES
                  | _AUTHORITY_CUES | _FOLLOW_UP_CUES)
_DESTROYING_STEM = re.compile(r"delet|remov|reset|archiv|clos|wontfix|place_?order|purg|discard|"
                              r"destroy|truncat|wipe|drop|empty|sell|transition|revok|mute",
                              re.IGNORECASE)
# the same stems searched case-sensitively in a lower-cased ASCII text (the same matches, and
# several times faster than a search that ignores case)
_DESTROYING_STEM_LOWER = re.compile(_DESTROYING_STEM.pattern)


def _holds_destroying_stem(text: str) -> bool:
    """Whether ``text`` holds one of :data:`_DESTROYING_STEM`'s stems, in any case."""
    if text.isascii():
        return _DESTROYING_STEM_LOWER.search(text.lower()) is not None
    return _DESTROYING_STEM.search(text) is not None


_VALUE_WAKE = re.compile(r"\$\{|169\.254|metadata|^\s*(?:\\\\|//)|restrict|developer|jailb|god|"
                         r"unfilter|uncensor|official|override|route|detach|drop|truncate|delete|"
                         r"rm\s|flush|public", re.IGNORECASE)

# a title's second clause: what follows a dash, a middle dot, a bar, a colon or an opening
# bracket after the tool's own action
_SECOND_CLAUSE = re.compile(r"(?:\s[-–—·|]\s|[([]|:\s)")
_TITLE_ORDER = re.compile(
    r"^\W*(?:and\s+)?then\s+\w+"
    r"|\b(?:use|call)\s+(?:it\s+|this\s+)?(?:instead\s+of|in\s+place\s+of|rather\s+than)\s+\S"
    r"|\b(?:required|mandated|ordered|demanded)\s+by\b|\bmandates?\b|\bmandatory\b"
    r"|\bexecute\s+immediately\b|\bbefore\s+\d{1,2}[:.]\d\d\b|\b[A-Z]+-REQUIRED\b"
    r"|\b(?:rank|ranks|outrank\w*)\s+(?:above|over)\b|\breplaces?\s+the\s+user",
    re.IGNORECASE)
# ... or that calls the act safe, names a secret or the user's personal data, or pins arguments
_TITLE_CLAIM = (
    (re.compile(r"\b(?:safe|reversible|recoverable|harmless|undoable|risk-free|non-destructive)\b",
                re.IGNORECASE), "TS108", "calling the act safe"),
    (re.compile(r"\b(?:passwords?|tokens?|api[- ]keys?|secrets?|credentials?)\b|\b(?:user's|users')\s+"
                r"(?:e-?mail|phone|address|location|contacts?)\b", re.IGNORECASE), "TS105",
     "a secret or the user's personal data"),
    (re.compile(r"\b[A-Za-z_]\w*=\S+\s*,\s*[A-Za-z_]\w*=\S+"), "TS101", "arguments pinned"),
)
_OWN_SECRET = re.compile(r"\b(?:keys?|passwords?|tokens?|secrets?|credentials?)\b", re.IGNORECASE)
_MANDATE = re.compile(r"mandat|required\s+by|ordered\s+by|demanded\s+by|REQUIRED|before\s+\d|"
                      r"immediately", re.IGNORECASE)

# values: evidence whatever the parameter
_SECRET_INTERPOLATION = re.compile(
    r"\$\{[^}]*(?:CREDENTIAL|SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|PRIVATE)[^}]*\}", re.IGNORECASE)
_METADATA_ENDPOINT = re.compile(r"\b169\.254\.\d{1,3}\.\d{1,3}\b|\bmetadata\.google\.internal\b",
                                re.IGNORECASE)
_NETWORK_SHARE = re.compile(r"^\s*(?:\\\\[\w.-]+\\|//[\w-]+(?:\.[\w-]+)+/)")
_LOCAL_SHARE = re.compile(r"^\s*(?:\\\\|//)(?:localhost|127\.|\.\\|\?\\)", re.IGNORECASE)
_LIFTED = re.compile(r"(?:^|[\W_])(?:no[-_ ]?restrictions?|developer[-_ ]mode|jailbr[eo]ak\w*|"
                     r"god[-_ ]?mode|unfiltered|uncensored)(?:$|[\W_])", re.IGNORECASE)
_STANDING_NAME = re.compile(r"[-_](?:official|override)$|"
                            r"(?:^|[-_])route[-_](?:via|through|to)[-_]\w", re.IGNORECASE)
_DESTROYS = re.compile(r"\bDETACH\s+DELETE\b|\bDROP\s+(?:TABLE|DATABASE|SCHEMA|KEYSPACE)\b|"
                       r"\bTRUNCATE\s+(?:TABLE\s+)?\w|\bDELETE\s+FROM\s+\w+\s*;?\s*$|\brm\s+-\w*r\w*f|"
                       r"\bFLUSH(?:ALL|DB)\b", re.IGNORECASE)
_ANYONE_WRITES = re.compile(r"^\s*public[-_]?read[-_]?write\s*$", re.IGNORECASE)


def _precedence(text: str) -> list[Hit]:
    out = []
    for m in _PRECEDENCE.finditer(text):
        before = text[max(0, m.start() - 40):m.start()]
        if _USER_FIRST.search(before):
            continue
        out.append(Hit(m.start(), m.end(), "high",
                       "a claim of precedence over the user, the conversation or the system"))
    return out


def _sentence_before(text: str, at: int) -> str:
    """The part of the sentence holding offset ``at`` that comes before it."""
    start = max((m.end() for m in _SENTENCE_END.finditer(text, max(0, at - 200), at)), default=0)
    return text[max(start, at - 200):at]


def _consent_waived(text: str) -> list[re.Match[str]]:
    """The spans of ``text`` that say the user's consent is not needed, outside a
    prohibition, and, for "need not be asked", with the user named in the same clause."""
    out = []
    for m in (*_CONSENT_WAIVED.finditer(text), *_NEED_NOT.finditer(text)):
        before = _sentence_before(text, m.start())
        if _PROHIBITED.search(before):
            continue
        if m.re is _NEED_NOT and not _USER_NEAR.search(before[-60:] + text[m.end():m.end() + 40]):
            continue
        out.append(m)
    return out


def claim_hits(text: str, kind: str, words: frozenset[str] | None = None
               ) -> list[tuple[str, Hit]]:
    """The (rule id, high hit) pairs of the prose claims of ``text`` (a title, a description,
    a default or an enum value): precedence over the user or the system (TS103), the user's
    consent said not to be needed (TS103), something kept out of the reply (TS103), the other
    tools or sources run down or this one's standing vouched for (TS102), a named authority
    with a consequence (TS109), a follow-up order that destroys (TS104). ``words``, the text's
    lower-cased words (``text_words``), is worked out when not given: each reading runs only
    when one of its cue words occurs. Offsets are into ``text``; empty for most texts."""
    if words is None:
        words = text_words(text.lower())
    if _ANY_CLAIM_CUE.isdisjoint(words):
        return []  # most texts: one set test
    out: list[tuple[str, Hit]] = []
    if not _PRECEDENCE_CUES.isdisjoint(words):
        out += [("TS103", h) for h in _precedence(text)]
    if not _CONSENT_CUES.isdisjoint(words):
        out += [("TS103", Hit(m.start(), m.end(), "high",
                              "the user's consent said not to be needed"))
                for m in _consent_waived(text)]
    if not _RUN_DOWN_CUES.isdisjoint(words):
        out += [("TS102", Hit(m.start(), m.end(), "high",
                              "the other tools, servers or sources run down"))
                for m in _RUN_DOWN.finditer(text)]
    if not _VOUCHED_CUES.isdisjoint(words):
        out += [("TS102", Hit(m.start(), m.end(), "high", "a claim of standing vouched for"))
                for m in _VOUCHED.finditer(text)]
    if not _KEPT_CUES.isdisjoint(words):
        out += [("TS103", Hit(m.start(), m.end(), "high",
                              "something kept out of the reply to the user"))
                for m in _KEPT_FROM_REPLY.finditer(text)]
    if not _AUTHORITY_CUES.isdisjoint(words) and not _CONSEQUENCE_CUES.isdisjoint(words):
        for m in _AUTHORITY.finditer(text):
            if _CONSEQUENCE.search(text, m.end(), m.end() + _CONSEQUENCE_REACH):
                out.append(("TS109", Hit(m.start(), m.end(), "high",
                                         "a named authority with a consequence for not complying")))
                break
    if not _FOLLOW_UP_CUES.isdisjoint(words) and _holds_destroying_stem(text):
        out += [("TS104", h) for h in _follow_ups(text)]
    return out


def _follow_ups(text: str) -> list[Hit]:
    """The follow-up orders of ``text`` whose act destroys or changes state (a verb at the
    order's start, or a tool's name holding one: ``git_reset``, ``markIssuesWontFix``)."""
    out = []
    start = 0
    clauses = [c for c in _CLAUSE_SPLIT.split(text) if c]
    glossary = sum(1 for c in clauses if _GLOSS.match(c)) >= _GLOSSARY_SIZE
    for m in _CLAUSE_SPLIT.finditer(text + "\n"):
        sentence = text[start:m.start()]
        f = _FOLLOW_UP.match(sentence)
        # one option glossed among its siblings ("cleanup: remove completed data.") is no order
        if f is not None and not (glossary and _GLOSS.match(sentence)
                                  and not _WHEN.match(sentence)):
            order = f.group("order")
            act = _DESTROYING_ACT.search(order)
            if act is not None and (act.start() == 0 or _TOOL_SHAPE.search(act.group())):
                out.append(Hit(start, m.start(), "high", "a follow-up order that destroys"))
        start = m.end()
    return out


def title_hits(text: str, kind: str, words: frozenset[str] | None = None
               ) -> list[tuple[str, Hit]]:
    """The (rule id, high hit) pairs of a title's second clause (``kind`` a ``tool.title``
    or ``param.title``) that chains a further act or claims other tools' calls (TS108) or
    names a mandate or a deadline (TS109): the hit spans the clause. Empty for other kinds
    and for a title of one clause (``words`` is not needed: titles are short)."""
    if kind not in ("tool.title", "param.title"):
        return []
    cut = _SECOND_CLAUSE.search(text)
    while cut is not None and cut.group().strip() in (":", "|") and len(
            text[:cut.start()].split()) < 2:
        # a label before the action ("Admin: Reset Employee Password") is not a first clause
        cut = _SECOND_CLAUSE.search(text, cut.end())
    if cut is None:
        return []
    action, clause = text[:cut.start()], text[cut.end():]
    m = _TITLE_ORDER.search(clause)
    if m is None:
        for rx, rule, what in _TITLE_CLAIM:
            # a secret the action itself names is its object ("Create access key (secret
            # shown once)"), not one handed over
            if rx.search(clause) and not (rule == "TS105" and _OWN_SECRET.search(action)):
                return [(rule, Hit(cut.start(), len(text), "high",
                                   f"a title's second clause {what}"))]
        return []
    rule = "TS109" if _MANDATE.search(m.group()) else "TS108"
    what = "a mandate or a deadline" if rule == "TS109" else "a further act or other tools' calls"
    return [(rule, Hit(cut.start(), len(text), "high", f"a title's second clause naming {what}"))]


def value_hits(text: str, kind: str, words: frozenset[str] | None = None
               ) -> list[tuple[str, Hit]]:
    """The (rule id, high hit) pairs of a default or an enum value (``kind``
    ``param.default`` or ``param.enum``) whose content acts, whatever the parameter: a
    secret's variable interpolated (TS105), the link-local credentials endpoint (TS105), a
    network share, safeguards lifted by name, a name claiming standing or routing the call
    (TS108); as a default also a destroying statement or an access list granting anyone write
    (TS108). One hit over the whole value; empty for other kinds (``words`` is not needed: one
    screen, :data:`_VALUE_WAKE`, passes over most values)."""
    if kind not in ("param.default", "param.enum") or _VALUE_WAKE.search(text) is None:
        return []
    whole = len(text)
    for rx, rule, what in ((_SECRET_INTERPOLATION, "TS105", "a secret's variable interpolated"),
                           (_METADATA_ENDPOINT, "TS105", "the cloud's credentials endpoint"),
                           (_LIFTED, "TS108", "safeguards lifted by name"),
                           (_STANDING_NAME, "TS108", "a name claiming standing or routing")):
        if rx.search(text):
            return [(rule, Hit(0, whole, "high", f"{what}, in a {kind} field"))]
    if _NETWORK_SHARE.search(text) and not _LOCAL_SHARE.search(text):
        return [("TS108", Hit(0, whole, "high", f"a network share, in a {kind} field"))]
    if kind == "param.default" and (_DESTROYS.search(text) or _ANYONE_WRITES.search(text)):
        return [("TS108", Hit(0, whole, "high", "a default that destroys or grants anyone write"))]
    return []


#: The readers of each field kind, each ``(text, kind, words) -> [(rule id, Hit)]``, in the
#: order they run (a value is read for what it does; the prose claims need a sentence).
READERS = {
    "tool.title": (claim_hits, title_hits), "param.title": (claim_hits, title_hits),
    "tool.description": (claim_hits, recall_hits), "param.description": (claim_hits, recall_hits),
    "param.default": (value_hits,), "param.enum": (value_hits,)}
