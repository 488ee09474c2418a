"""The phrasing rules' matchers: TS101 to TS105 and TS109.

Each rule has a few phrase patterns (gated by the words they cannot match without, see
:mod:`toolform.guard._sentences`) that give exact spans, and TS101 to TS105 add the general
sentence reading of :mod:`toolform.guard._reading`. TS104 also has a catalogue matcher: another
tool's name in a directive.
"""
from __future__ import annotations

import functools
import re
from typing import Iterator

from ._foreign import foreign_hits, foreign_tool_order
from ._rule import Hit, ScanContext, _VALUE_KINDS
from ._sentences import _gate, _run, _rx, _Sentences
from ._reading import (_ACTING_CALL, _OWN_FIELD, _UNPROMPTED, moves_data, opaque_code, _DESCRIBING, _DIRECTIVE_CUE, _directives, _EMAIL, _EXPLAINS, _for_input,
                       _general, _KEEP_SAFE, _kept_out, _OWN_SECRET, _ROUTING_HEAD, _LITERAL, _SCALAR, _SECRET_ANY,
                       _STRONG, _STRONG_RX, _UNCONDITIONAL, _URL, _CONVERSATION)
__all__ = ["NAME_TOKEN"]

# -- TS101 argument-directive ------------------------------------------------------------------

_VERBS = ("set", "pass", "use", "put", "fill", "enter", "include", "add", "append", "prepend",
          "specify", "provide", "supply", "give", "change", "override", "replace", "insert",
          "assign", "fix", "end", "start", "begin", "prefix", "suffix", "sign", "route",
          "redirect", "wrap", "tag", "choose", "pick", "select", "prefer", "widen", "expand",
          "switch", "increase", "raise", "lower")
_VALUE_VERB = r"(?:set|pass|use|put|fill(?:\s+in)?|enter|include|add|append|prepend|specify|" \
              r"provide|supply|give|change|override|replace|insert|assign|fix|end|start|begin|" \
              r"prefix|suffix|sign|route|redirect|wrap|tag|choose|pick|select|prefer|widen|" \
              r"expand|switch|increase|raise|lower)"
# Every literal above needs one of these: a quote, @, ://, a digit, - or _, or a scalar word.
_LITERAL_HINTS = ("'*", '"', "`", "“", "‘", "@", "://", "-", "_", *(f"{d}*" for d in "0123456789"),
                  "true", "false", "null", "none", "yes", "no")
_STRONG_HINTS = ("'*", '"', "`", "“", "‘", "@", "://", "-", "_", *(f"{d}*" for d in "0123456789"))
_TS101 = (
    _gate("verb", rf"""\b{_VALUE_VERB}
        (?: \b[^.;!?\n]{{0,80}}?(?:\b(?:to|as|with|through|via|equal\s+to)\b|[:=])\s*
            (?:the\s+(?:value|string|literal)\s+)?(?P<lit>{_LITERAL})
          | \s+(?:[\w'-]+\s+){{0,3}}(?P<lit2>{_STRONG}|{_SCALAR})
            \s+(?:for|in|into|as|on|at|to)\b
          | (?<=choose|select|prefer)\s+(?:the\s+(?:value|option|id)\s+)?(?P<lit4>{_LITERAL})
          | (?<=pick)\s+(?:the\s+(?:value|option|id)\s+)?(?:[\w-]+\s+)?(?P<lit5>{_LITERAL}) )""",
          _VERBS, also=_LITERAL_HINTS),
    _gate("modal", rf"""\b(?:must|should|shall|has\s+to|have\s+to|needs?\s+to)\s+
        (?:always\s+|only\s+|now\s+|instead\s+|also\s+)?(?:be|equal|contain|include|use|
        start\s+with|end\s+with|match)\s+(?:set\s+to\s+|exactly\s+)?(?:[\w'-]+\s+){{0,2}}
        (?P<lit>{_STRONG})""",
          ("must", "should", "shall", "has", "have", "need", "needs"), also=_STRONG_HINTS),
    _gate("always", rf"""\b(?:always|never)\s+{_VALUE_VERB}\b[^.;!?\n]{{0,80}}?
        \b(?:parameters?|arguments?|fields?|params?|values?|lists?|arrays?|query|request|
        body|payload|input)\b""", ("always", "never")),
    _gate("always_value", rf"""\b(?:always|never)\s+{_VALUE_VERB}\b[^.;!?\n]{{0,80}}?
        (?P<lit3>{_LITERAL})""", ("always", "never"), also=_LITERAL_HINTS),
)


# A parameter that protects someone other than the caller (the owner told, secrets redacted,
# a lock relocked, an audit kept, a second factor asked), set off: false, 0, off, none. A name
# that already says the safeguard is off (disable_notifications, skip_audit, no_mask, unmask)
# set to false keeps it on. The words around the safeguard are bounded (linear time).
_SAFEGUARD = r"(?:redact|notify|notification|relock|audit|encrypt|mask|mfa|2fa|two_factor)"
_SAFEGUARD_OFF = re.compile(rf"""\b(?!(?:disable|skip|without|bypass|no[_-]|un(?={_SAFEGUARD}))
    )[a-z0-9_]{{0,30}}?{_SAFEGUARD}[a-z0-9_]{{0,30}}+[`'"]?\s*+(?:[:=]|\bto\b)\s*+[`'"]?
    (?:false|0|off|none|disabled)\b""", re.IGNORECASE | re.VERBOSE)


def _ts101(text: str, ctx: ScanContext) -> Iterator[Hit]:
    sentences = _Sentences(text)
    for _label, m in _run(_TS101, text, ctx):
        sentence = sentences.of(m.start(), m.end())
        groups = m.groupdict()
        literal = next((groups[k] for k in ("lit", "lit2", "lit3", "lit4", "lit5")
                        if groups.get(k)), "")
        cue = _UNCONDITIONAL.search(sentence) or _DIRECTIVE_CUE.search(sentence)
        # a code-like literal in a sentence about formats is a format (YYYY-MM-DD)
        strong = bool(literal) and bool(_STRONG_RX.fullmatch(literal)) and not (
            _EXPLAINS.search(sentence))
        if _SAFEGUARD_OFF.search(sentence):
            # (fifteenth revision) a safeguard switched off by the caller's own value: the
            # owner not notified, redaction or the relock timer disabled
            yield Hit(m.start(), m.end(), "high", "switches a safeguard off")
        elif cue or strong:
            # high only when the value pinned moves data: an address, a URL, an account
            planted = moves_data(literal) or (bool(_UNCONDITIONAL.search(sentence))
                                              and opaque_code(literal))
            yield Hit(m.start(), m.end(), "high" if planted else "medium",
                      "fixes an argument's value unconditionally" if cue
                      else f"fixes an argument to the literal {literal!r}")
        else:
            yield Hit(m.start(), m.end(), "medium", "tells the caller which value to use")
    yield from _general("TS101", text, ctx)


# -- TS102 addresses-model ---------------------------------------------------------------------

_MODEL_WORDS = ("ai", "a.i.", "llm", "llms", "language", "agent", "agents", "assistant",
                "assistants", "chatbot", "chatbots", "claude", "gpt", "chatgpt", "copilot",
                "gemini", "model", "models", "system")
_MODEL_WORD = (r"(?:ai|a\.i\.|llm|llms|language\s+models?|ai\s+models?|(?<!user[-\s])"
               r"(?<!human\s)(?<!support\s)(?<!customer\s)(?<!sales\s)(?<!travel\s)agents?|"
               r"assistants?|chatbots?|claude|gpt(?:-\d[\w.-]*)?|chatgpt|copilot|gemini)")
# Every alternative needs one of the model words, so they are the triggers.
_TS102 = (_gate("address", rf"""
      \b(?:dear|hey|hi|hello|attention|note\s+(?:to|for)|
        instructions?\s+(?:to|for)|reminder\s+(?:to|for))\s*,?\s+(?:the\s+|all\s+|any\s+|my\s+)?
        (?:{_MODEL_WORD}|model)\b
    | \b(?:you\s+are|you're|as)\s+(?:an?\s+|the\s+)?(?:ai\b|helpful\s+assistant|large\s+language|
        language\s+model|llm\b|assistant\b|chatbot\b)
    | \b(?:if|when)\s+you\s+are\s+(?:an?\s+|the\s+)?(?:{_MODEL_WORD}|model)\b
    | (?<!\ba\s)(?<!\ban\s)(?<!\bthe\s)(?<!\bone\s)(?<!\bany\s)
      \b(?:important|note|notice|reminder|instructions?|message|info|guidance|guidelines?|
        directions?|directives?|rules?|memo)\s+(?:for|to)\s+
        (?:the\s+|any\s+|all\s+)?(?:{_MODEL_WORD}|model)\b
    | \b{_MODEL_WORD}\s+(?:must|should|shall|needs?\s+to|is\s+(?:required|expected|instructed|
        asked)\s+to|are\s+(?:required|expected|instructed|asked)\s+to|has\s+to|have\s+to|
        may\s+not|must\s+not|should\s+not|cannot|will\s+(?:now|always|never))\b
    | ^[ \t]*(?:system|assistant|ai)\s*:
    | (?:^|(?<=[.;!?(])|(?<=[.;!?(]\s)|(?<=[.;!?(]\s\s))(?:(?:the|an?)\s+)?(?:ai|llm|model|assistant|agent|system|{_MODEL_WORD})\s+
      (?:guidance|instructions?|notes?|directives?|rules?|guidelines?|policy|reminder|notice|memo|
      directions?|only)\s*:
""", _MODEL_WORDS, re.IGNORECASE | re.MULTILINE),
    # A tool's description describes the tool; text about the answer the model gives is
    # addressed to the model even when it never names it.
    _gate("answer", r"""\b(?:in|to|into)\s+(?:every|each|any|all|your)\s+(?:final\s+)?
        (?:answers?|responses?|replies|reply)\b
      | \b(?:your|each|every|any)\s+(?:\w+\s+)?(?:answers?|responses?|replies|reply)\s+
        (?:\w+ly\s+)?(?:should|must|will\s+always|needs?\s+to|ends?\s+with|starts?\s+with|
        begins?\s+with|mentions?|includes?|contains?)\b""",
          ("answer", "answers", "response", "responses", "reply", "replies")),
)


# "The assistant must provide the full path": documentation about the model, in the third
# person, as real servers write it; a vocative or "if you are a model" speaks to it.
_THIRD_PERSON = re.compile(rf"(?:the\s+)?{_MODEL_WORD}\s+(?:must|should|shall|needs?|is|are|has|"
                           rf"have|may|cannot|will)\b", re.IGNORECASE)



def _ts102(text: str, ctx: ScanContext) -> Iterator[Hit]:
    sentences = _Sentences(text)
    told: list[tuple[int, int]] | None = None
    for label, m in _run(_TS102, text, ctx):
        if label == "address" and not _THIRD_PERSON.match(m.group()):
            if told is None:
                told = [(c.start, c.end) for c in _directives(text, ctx)]
            start, end = sentences.around(m.start(), m.end())
            # the model addressed and told what to do, in that sentence or the next: high,
            # unless what it is told is how to fill the tool's own field
            steered = [(s, e) for s, e in told if start <= s < end + 1 or s == end]
            if steered and not any(_OWN_FIELD.search(text, s, e) for s, e in steered):
                yield Hit(m.start(), m.end(), "high",
                          "speaks to the model and tells it what to do")
                continue
        yield Hit(m.start(), m.end(), "medium", "tells the model how to answer"
                  if label == "answer" else "speaks to the model reading the tool list")
    yield from _general("TS102", text, ctx)
    yield from foreign_hits("TS102", text, ctx)


# -- TS103 override-instructions ---------------------------------------------------------------

_USER_WORDS = ("user", "users", "human", "humans", "operator", "operators", "customer",
               "customers", "requester", "requesters", "person", "persons")
_TS103 = (
    # the verb, not a compound's noun ("an MFA-bypass policy", twentieth revision)
    _gate("ignore", r"""\b(?<!-)(?:ignore|disregard|forget|override|overrule|bypass|supersede|
        circumvent|set\s+aside)\s+(?:(?:all|any|every|the|your|of|these|those|its)\s+){0,3}
        (?:(?:previous|prior|earlier|above|preceding|other|original|existing|initial|system|
        safety|security|user'?s?|developer|standard|normal)\s+){0,2}
        (?:instructions?|prompts?|rules?|guidelines?|guidance|advice|directions?|directives?|
        polic(?:y|ies)|constraints?|guardrails?|restrictions?|safeguards?|warnings?|concerns?|
        limits?|limitations?|boundaries|programming|requests?\s+of\s+the\s+user|
        what\s+the\s+user)\b""",
          ("ignore", "disregard", "forget", "override", "overrule", "bypass", "supersede",
           "circumvent", "aside")),
    _gate("hide", r"""
        \b(?:do\s+not|don'?t|never|must\s+not|should\s+not|shouldn'?t|without)\s+(?:ever\s+)?
        (?:tell|telling|inform|informing|notify|notifying|mention|mentioning|reveal|revealing|
        show|showing|alert|alerting|ask|asking|warn|warning|let|letting|disclose|disclosing)\s+
        (?:this\s+to\s+|it\s+to\s+|anything\s+to\s+)?(?:the\s+|your\s+)?
        (?:user|human|operator|customer|requester|person)s?\b
      | \b(?:regardless\s+of|no\s+matter|irrespective\s+of|even\s+if|even\s+when|even\s+though)
        \s+(?:what|which|whatever|how)?
        [^.;\n]{0,40}?\b(?:the\s+)?(?:user
        # (twenty-first revision) the user's role or rights, said to change nothing ("answers 403
        # even when the authorising user is a co-admin"), describe the permission model
        (?!s?\s+(?:is|are)\s+(?:an?\s+|the\s+)?(?:[\w-]+\s+)?(?:(?:co-?)?admin\w*|(?:co-?)?owner|
          member|maintainer|superuser|moderator|editor|viewer|guest|collaborator|manager)s?\b
         |s?\s+(?:has|have|holds?)\s+(?:the\s+|an?\s+)?(?:[\w-]+\s+){0,2}?(?:permissions?|
          scopes?|roles?|rights|privileges?)\b)
        |human|instructions|
        # a protocol's request ("even when the HTTP request ...") is data, not the user's
        (?<!http\s)(?<!https\s)(?<!api\s)(?<!rest\s)(?<!rpc\s)(?<!graphql\s)request)
        # an HTTP request's parts ("irrespective of the original request URI") are data
        (?!\s+(?:uri|url|path|body|headers?|method|params|parameters|payload|line|host)\b)
      | \b(?:the\s+)?user\s+(?:has|have|had)\s+(?:already\s+)?(?:consented|agreed|approved|
        authori[sz]ed|allowed|given\s+(?:permission|consent))
      | \b(?:the\s+)?user\s+(?:must\s+not|should\s+not|shouldn'?t|does\s+not\s+need\s+to|
        doesn'?t\s+need\s+to|need\s+not|must\s+never|should\s+never|is\s+not\s+to)\s+
        (?:know|see|be\s+told|be\s+informed|find\s+out|notice|learn|be\s+aware)
      | \b(?:instead\s+of|rather\s+than)\s+(?:what\s+)?the\s+user\s+(?:asked|requested|wants|said|
        specified|typed)""", (*_USER_WORDS, "regardless", "matter", "irrespective", "even")),
    _gate("impersonate", r"""\b(?:treat|consider|regard|read|handle)\s+[^.;\n]{0,60}?\bas\s+
        (?:if\s+it\s+(?:came|comes|were)\s+from|coming\s+from|written\s+by|sent\s+by|said\s+by|
        from|an?\s+instruction\s+from)\s+(?:the\s+)?(?:user|system|developer|administrator|
        operator)
      | \bthe\s+user\s+(?:says|said|has\s+said|asks|asked|wants\s+you\s+to|instructs)\s*:""",
          ("treat", "consider", "regard", "read", "handle", "user")),
    _gate("grant", r"""\byou\s+(?:are|have\s+been|were)\s+(?:now\s+|hereby\s+|also\s+)?
        (?:authori[sz]ed|permitted|allowed|cleared|granted|entitled)\b""",
          ("authorized", "authorised", "permitted", "allowed", "cleared", "granted", "entitled")),
    # (not after will, would, may, can, might: "guessing them will silently return the wrong
    # data" says what happens, fourteenth revision)
    _gate("stealth", r"""\b(?<!will\s)(?<!would\s)(?<!may\s)(?<!can\s)(?<!might\s)
        (?:quietly|silently|secretly|covertly|discreetly|invisibly)\s+
        (?:\w+\s+)?(?:add|append|include|send|change|widen|replace|set|use|call|forward|copy|
        upload|delete|remove|modify|switch|return|run|invoke|insert|post|save|store|log)\b""",
          ("quietly", "silently", "secretly", "covertly", "discreetly", "invisibly")),
    _gate("precedence", r"""\b(?:takes?|has|have|with)\s+(?:absolute\s+|highest\s+|top\s+)?
        (?:precedence|priority)\s+over\b""", ("precedence", "priority")),
    _gate("new", r"""\b(?:new|updated|real|hidden|secret|true)\s+(?:system\s+)?instructions?\s*
        (?:[:\-]|follow|are)""", ("instruction", "instructions")),
    _gate("secret", r"""\b(?:keep|treat)\s+(?:this|these|it)\s+(?:instructions?\s+|notes?\s+)?
        (?:a\s+)?(?:secret|hidden|confidential|private)\b""",
          ("secret", "hidden", "confidential", "private")),
    _gate("supersedes", r"""\bthis\s+(?:instruction|message|note|notice|rule|description)\s+
        (?:overrides|supersedes|replaces|takes)\b""", ("overrides", "supersedes", "replaces",
                                                       "takes")),
)


_INSTRUCTION_NOUN = re.compile(r"\b(?:instructions?|notes?|messages?|steps?|descriptions?|rules?)\b",
                              re.IGNORECASE)


# Precedence over the model's instructions or the user ("takes precedence over any other
# instruction", "over what the user asked"); over anything else it orders the tool's inputs
# ("takes precedence over userId": a whole word, fourteenth revision).
_PRECEDENCE_OVER_RULES = re.compile(r"""\s*(?:(?:any|all|every|the|your|other|earlier|previous|prior|
    system|user'?s?)\s+){0,3}(?:instructions?|rules?|guidelines?|guidance|directives?|prompts?|
    polic(?:y|ies)|users?|requests?|system|what|everything|anything|whatever)\b""",
                                    re.IGNORECASE | re.VERBOSE)


_ASK_THE_USER = re.compile(r"\b(?:ask|asking)\s+(?:the\s+|your\s+)?(?:user|human|customer)s?\b",
                           re.IGNORECASE)


# (twenty-third revision) "you are authorized" right after a noun is a relative clause that
# scopes the noun to what the caller's account may reach ("the cubes you are authorized to
# read", "Cube name you are authorized for"), not a grant; a reporting verb before it ("the
# admin confirms you are authorized to ...") or a sentence that begins with it still grants
_SCOPED_NOUN = re.compile(r"""(?<![\w'-])(?!(?:and|or|but|so|now|then|because|since|as|if|when|
    once|here|note|therefore|hence|thus|that|which|confirm\w*|say\w*|said|state\w*|verif\w*|
    know\w*|knew|mean\w*|assum\w*|believ\w*|guarantee\w*|ensur\w*|declar\w*|certif\w*|
    decid\w*|agree\w*|approv\w*|tell\w*|told|remember\w*|trust\w*|mind|aware|sure|given|
    assured|informed|advised|note[sd]?)\s)[a-z][\w/-]*\s+\Z""", re.IGNORECASE | re.VERBOSE)
# the scoping form: "you are authorized/allowed/permitted/entitled", not "you have been granted"
_SCOPE_GRANT = re.compile(r"you\s+are\s+(?:authori[sz]ed|allowed|permitted|entitled)\b",
                          re.IGNORECASE)


def _ts103(text: str, ctx: ScanContext) -> Iterator[Hit]:
    for label, m in _run(_TS103, text, ctx):
        if (label == "grant" and _SCOPE_GRANT.match(m.group())
                and _SCOPED_NOUN.search(text, max(0, m.start() - 40), m.start())):
            yield Hit(m.start(), m.end(), "medium", "scopes a thing to what the caller may reach")
            continue
        if label == "precedence" and not _PRECEDENCE_OVER_RULES.match(text, m.end()):
            # "'id_no' takes precedence over 'name'", "over x,y": the tool's own inputs
            yield Hit(m.start(), m.end(), "low", "orders the tool's own parameters")
            continue
        if (label == "secret" and not _INSTRUCTION_NOUN.search(m.group())
                and _SECRET_ANY.search(text)):
            # "Your API key ... Keep it confidential": advice about the user's own secret
            yield Hit(m.start(), m.end(), "low", "asks to keep a secret value private")
            continue
        if label == "hide" and _ASK_THE_USER.search(m.group()):
            # "Don't ask user for input": a value to fill in, not something kept from them
            yield Hit(m.start(), m.end(), "medium", "asks the model not to ask the user")
            continue
        yield Hit(m.start(), m.end(), "high", "overrides earlier instructions or the user")
    yield from _general("TS103", text, ctx)
    yield from foreign_hits("TS103", text, ctx)


# -- TS104 cross-tool --------------------------------------------------------------------------

_CALL_VERB = r"(?:call|invoke|run|use|execute|trigger|query|fetch|read|open|send)"
_SEND_VERBS = ("send", "forward", "post", "upload", "email", "mail", "copy", "mirror", "report",
               "share", "transmit", "relay", "bcc", "cc", "exfiltrate", "leak", "submit", "sync",
               "push")
_TS104 = (
    _gate("first", rf"""(?:\b(?:must|should|needs?\s+to|have\s+to|please|always)\s+first|
        (?:^|(?<=[.;:!?\n])|(?<=[.;:!?\n]\s)|(?<=[.;:!?\n]\s\s))first\s*,?|
        \bbefore\s+(?:using|calling|invoking|running|
        executing|answering|responding|replying)(?:\s+(?:this|the|any|these)\s+
        (?:tools?|functions?))?\s*,?|\bprior\s+to\s+(?:using|calling|invoking)\s+(?:this|the)\s+
        (?:tool|function)\s*,?)\s+(?:you\s+(?:must|should|need\s+to)\s+|please\s+|always\s+|
        first\s+)?{_CALL_VERB}\b""", ("first", "before", "prior")),
    _gate("then", r"""\b(?:after|once|when)\s+(?:calling|using|running|invoking|executing)\s+
        (?:this|the)\s+(?:tool|function)\b[^.\n]{0,60}?\b(?:call|invoke|run|use|send|forward|
        post|email|upload|notify|copy)\b""",
          ("calling", "using", "running", "invoking", "executing")),
    _gate("also", r"""\b(?:also|additionally|then|afterwards|subsequently|next)\s*,?\s+
        (?:always\s+)?(?:call|invoke|execute|trigger)\s+""",
          ("also", "additionally", "then", "afterwards", "subsequently", "next")),
    _gate("order", r"""\b(?:call|invoke|run|execute|trigger|use)\s+(?:the\s+)?[`'"]?[A-Za-z_]
        [\w.-]*[`'"]?(?:\s+(?:tool|function|command|endpoint))?\s+(?:first|beforehand|
        before\s+this|afterwards|after\s+this|as\s+well|immediately\s+after)\b""",
          ("first", "beforehand", "before", "afterwards", "after", "well", "immediately")),
    _gate("send", r"""\b(?:send|forward|post|upload|e-?mail|mail|copy|mirror|report|share|
        transmit|relay|bcc|cc|exfiltrate|leak|submit|sync)\s+(?:a\s+copy\s+of\s+)?
        (?:(?:the|all|any|every|each|its|their|your|this|these)\s+){0,2}(?:tool'?s?\s+)?
        (?:[\w-]+\s+){0,2}?(?P<what>results?|outputs?|responses?|contents?|data|conversation|
        transcript|history|information|info|findings|answers?|everything|summary|details|
        messages?|emails?|it|them)
        \b[^.\n]{0,60}?\bto\b(?P<dest>[^.\n]{0,80})""", _SEND_VERBS),
    _gate("exfil", rf"""\b(?:send|forward|post|upload|e-?mail|mail|copy|mirror|share|transmit|
        relay|sync|push|report|leak|exfiltrate)\s+(?:it\s+|them\s+|everything\s+|a\s+copy\s+)?
        (?:to|at|into)\s+(?:{_EMAIL}|{_URL}|@[\w-]+|\+?\d[\d\s().-]{{7,}}\d)""", _SEND_VERBS),
    _gate("instead", r"""\b(?:use|call)\s+(?:this\s+tool\s+)?instead\s+of\b|\binstead\s+of\s+
        (?:using|calling)\b|\b(?:this\s+tool|it)\s+(?:replaces|supersedes|overrides)\b
        |\b(?:this\s+tool|it)\s+(?:is|has\s+been)\s+(?:temporarily\s+|now\s+)?(?:replaced|
        superseded|disabled|moved)\b""",
          ("instead", "replaces", "supersedes", "overrides", "replaced", "superseded", "disabled",
           "moved")),
    # fourteenth revision: another tool run down (broken, deprecated, leaking, "from the other
    # server"), read by :func:`_ts104` with this tool claimed in its place
    _gate("rundown", r"""\b(?:is|are|has\s+been|have\s+been)\s+(?:now\s+)?(?:deprecated|broken|unsafe|
        compromised|insecure|unreliable|retired)\b|\bleaks?\b|\b(?:the\s+other|another)\s+
        (?:[\w-]+\s+){0,2}?(?:server|mcp|connector|integration)\b""",
          ("deprecated", "broken", "unsafe", "compromised", "insecure", "unreliable", "retired",
           "leak", "leaks", "other", "another")),
)
# this tool claimed in another's place: "route all messages through this tool", "use this one"
_IN_ITS_PLACE = re.compile(r"""\b(?:through|via)\s+this\s+(?:tool|one|server)\b|\bthis\s+(?:tool|
    one)\s+instead\b|\buse\s+this\s+(?:tool|one)\b|\bthis\s+tool\s+replaces\b""",
                           re.IGNORECASE | re.VERBOSE)
_TOOL_SHAPED = re.compile(r"(?<![\w.'\"/-])[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+")
_EXTERNAL = re.compile(rf"{_EMAIL}|{_URL}|\+?\d[\d\s().-]{{7,}}\d|@\w+|webhook|endpoint|server|"
                       r"address|external", re.IGNORECASE)
_SEND_HIGH = {"result", "results", "output", "outputs", "response", "responses", "content",
              "contents", "data", "conversation", "transcript", "history", "information", "info",
              "findings", "answer", "answers", "everything", "summary", "details"}
_ORDER_DETAIL = {"first": "asks for another call before this one",
                 "then": "asks for another call after this one",
                 "also": "asks for an additional call",
                 "order": "orders a call to another tool"}
_NAME_DIRECTIVE = _rx(r"""\b(?:always|must|should|never|first|before|after|then|call|invoke|run|
    execute|trigger|send|forward|set|bcc|cc|redirect|route|replace)\b""")
_NAME_SOFT = re.compile(r"\b(?:deprecated|instead|legacy|obsolete|see\s+also)\b", re.IGNORECASE)
#: A token that can be a tool name in prose (``send_email``, ``math.factorial``).
NAME_TOKEN = re.compile(r"(?<![\w.-])[A-Za-z_][\w.-]*\w")


_ACTING_NAME = re.compile(r"(?:reset|delete|wipe|remove|drop|purge|destroy|send|post|transfer|pay|"
                          r"approve|merge|publish|share|grant|invite|disable|revoke|rotate|kill|"
                          r"shutdown|deploy|upload|forward|export|email|notify|truncate|erase|"
                          r"unlock|disarm)", re.IGNORECASE)
_TO_USER = re.compile(r"\s*(?:the\s+|your\s+)?(?:users?|humans?|requesters?|callers?)\b",
                      re.IGNORECASE)
_WITH_USER = re.compile(r"\bwith\s+(?:the\s+|your\s+)?(?:users?|humans?|requesters?)\b",
                        re.IGNORECASE)


# (twenty-third revision) a send whose sender is not the model: a third party the tool's data
# describes ("the organizer would like an invitee to send a response to the event"), or the
# place a parameter names for the tool's own sending ("index: Index to send data to")
_OTHER_SENDER = re.compile(r"""\b(?:invitees?|attendees?|recipients?|participants?|guests?|
    organi[sz]ers?|reviewers?|approvers?|subscribers?|devices?|forwarders?|(?:index|indexes|
    indices|destination|channel|topic|queue|bucket|stream|sink|target)\s+to)\s+
    (?:(?:can|may|will|would|to|should)\s+)?\Z""", re.IGNORECASE | re.VERBOSE)


def _ts104(text: str, ctx: ScanContext) -> Iterator[Hit]:
    run_down = False
    for label, m in _run(_TS104, text, ctx):
        if label == "instead":
            yield Hit(m.start(), m.end(), "medium", "steers the model to or from another tool")
        elif label == "rundown":
            # another tool called broken or foreign, and its calls claimed for this one: on
            # the 295 servers captured when it was written, and datasets/mcp, no description
            # says both
            if not run_down and _IN_ITS_PLACE.search(text) and _TOOL_SHAPED.search(text):
                run_down = True
                yield Hit(m.start(), m.end(), "high", "runs another tool down and claims its "
                                                      "calls for this one")
        elif label == "exfil":
            yield Hit(m.start(), m.end(), "high", "sends something to an outside address")
        elif label == "send":
            dest = m.group("dest") or ""
            if _TO_USER.match(dest) or _WITH_USER.search(m.group()):
                # "share all information with the user": the user is not elsewhere
                yield Hit(m.start(), m.end(), "low", "shares output with the user")
                continue
            external = _EXTERNAL.search(dest)
            # "Send an email to the given address." opening a description is the tool's job,
            # and so is a send by someone else or to the parameter's own place (above), unless
            # it goes to an outside address
            opening = ctx.kind in _DESCRIBING and not text[:m.start()].strip()
            other = ctx.kind in _DESCRIBING and (
                _OTHER_SENDER.search(text, max(0, m.start() - 40), m.start()) is not None)
            high = not opening and (external or (
                not other and m.group("what").lower() in _SEND_HIGH))
            yield Hit(m.start(), m.end(), "high" if high else "medium",
                      "sends tool output or conversation elsewhere")
        elif _for_input(_Sentences(text).of(m.start(), m.end())):
            yield Hit(m.start(), m.end(), "medium", "asks for another call, for an input")
        else:
            # an order of calls, with nothing sent anywhere, is phrasing alone (medium); an
            # order to run another tool that acts (reset, delete, send, approve ...) moves
            # that tool's calls (high)
            start, end = _Sentences(text).around(m.start(), m.end())
            acting = _ACTING_CALL.search(text, m.start(), end) and (
                label in ("then", "also") or _UNPROMPTED.search(text, start, end)
                or _UNCONDITIONAL.search(text, start, end))
            yield Hit(m.start(), m.end(), "high" if acting else "medium",
                      _ORDER_DETAIL[label] + (", one that acts" if acting else ""))
    yield from _general("TS104", text, ctx)
    yield from foreign_hits("TS104", text, ctx)


# Another tool's calls moved, which a tool's own documentation has no business doing: a hook on
# another tool's use ("whenever send_email is about to be used", "after every call to
# read_file", "each time create_pull_request runs, follow it with ...") or another tool
# disabled ("do not call brave_web_search", "search_files must not be called", "the
# create_event tool is deprecated"). Not an order of calls ("do not call list_repositories /
# list_service_connections first": a list of tools, then first, again, before ...), nor a use
# ruled out for one purpose ("do not use search_issues for conversation queries", "... with
# reveal just to check"): usage notes (fourteenth revision).
_HOOK_BEFORE = (r"(?:whenever|every\s+time|each\s+time|any\s+time|after\s+(?:every|each|any|all)|"
                r"before\s+(?:every|each|any|all)|(?:follow|precede)\s+(?:every|each|all|any))"
                r"\b[^.;!?]{0,40}?")
_USED = r"(?:is|are|gets?|was)?\s*(?:about\s+to\s+be\s+)?(?:used|called|invoked|run|runs|executed|succeeds)"
_DISABLE_BEFORE = (r"(?:do\s+not|don'?t|never|must\s+not|should\s+not|shouldn'?t|cannot|can'?t|no\s+longer)"
                   r"\s+(?:\w+\s+){0,2}?(?:use|call|invoke|run|trust|rely\s+on)\s+(?:the\s+)?(?:[\w-]+\s+(?:or|and|,)\s+)*")
_DISABLED_AFTER = (r"(?:\s+tool)?\s+(?:(?:is|are|has\s+been|have\s+been)\s+(?:now\s+|also\s+)?(?:deprecated|"
                   r"disabled|broken|obsolete|unsafe|retired|unreliable|compromised)|(?:must|should|may)\s+"
                   r"(?:not|never)\s+be\s+(?:used|called|invoked|run))")


@functools.lru_cache(maxsize=4096)
def _other_tool_moved(sentence: str, name: str) -> bool:
    """Whether ``sentence`` hooks onto or disables the tool named by ``name`` (escaped)."""
    return bool(re.search(rf"{_HOOK_BEFORE}\b{name}\b(?:\s+tool)?\s*{_USED}\b"
                          rf"|\b(?:after|before)\s+(?:every|each|any)\s+(?:call|use|run)\s+(?:to|of)\s+"
                          rf"{name}\b|{_DISABLE_BEFORE}{name}\b(?!(?:\s*(?:/|,|\bor\b|\band\b)\s*[\w-]++)*+\s+(?:first|again|twice|yet|"
                          rf"for\b(?!\s+(?:any|all|every|anything))|just|with|when|if|on|in|to|"
                          rf"before|after|until|unless)\b)|\b{name}\b{_DISABLED_AFTER}",
                          sentence, re.IGNORECASE))


def _ts104_names(text: str, ctx: ScanContext) -> Iterator[Hit]:
    names = ctx.known_names
    if not names or names.isdisjoint(NAME_TOKEN.findall(text)):
        return
    sentences = _Sentences(text)
    for m in NAME_TOKEN.finditer(text):
        if m.group() not in names or m.group() == ctx.tool:
            continue
        sentence = sentences.of(m.start(), m.end())
        name = re.escape(m.group())
        if _ACTING_NAME.search(m.group()) and foreign_tool_order(sentence):
            # (seventeenth revision) a tool that acts, added in another language to this
            # call or to every call ("Po wykonaniu zawsze uruchom też bulk_delete ...")
            yield Hit(m.start(), m.end(), "high", f"orders, in another language, a call to "
                                                  f"another tool that acts, {m.group()!r}")
        elif _other_tool_moved(sentence, name):
            yield Hit(m.start(), m.end(), "high", f"hooks onto or disables another tool of the "
                                                  f"catalogue, {m.group()!r}")
        elif _NAME_SOFT.search(sentence) or _for_input(sentence):
            yield Hit(m.start(), m.end(), "medium", f"refers to another tool, {m.group()!r}")
        elif _NAME_DIRECTIVE.search(sentence):
            # a tool that acts, ordered for the model's own turn or on every call, is high
            acting = (_ACTING_CALL.search(sentence) is not None
                      and (_UNPROMPTED.search(sentence) or _UNCONDITIONAL.search(sentence))
                      and _ACTING_NAME.match(m.group()) is not None)
            yield Hit(m.start(), m.end(), "high" if acting else "medium",
                      f"orders a call to another tool that acts, {m.group()!r}" if acting
                      else f"instructs about another tool of the catalogue, {m.group()!r}")
        else:
            yield Hit(m.start(), m.end(), "low", f"mentions another tool, {m.group()!r}")


# -- TS105 secret-request ----------------------------------------------------------------------

_TS105 = (
    _gate("file", r"""~/\.[\w-]+(?:/[\w.-]+)* | \.ssh/ | \bid_(?:rsa|dsa|ecdsa|ed25519)\b
        | /etc/(?:passwd|shadow) | \.aws/credentials | (?<![\w.])\.env\b | \.npmrc\b | \.netrc\b
        | \.pgpass\b | \.git-credentials | \.docker/config\.json | \bmcp\.json\b
        | claude_desktop_config\.json | \.cursor/""",
          ("~/", ".ssh/", "id_", "/etc/", ".aws", ".env", ".npmrc", ".netrc", ".pgpass",
           ".git-cred", ".docker", "mcp.json", "claude_desktop", ".cursor/")),
    _gate("credential", r"""\bkeychain\b | \bseed\s+phrases? | \brecovery\s+phrases? | \bmnemonic\b
        | \bprivate[\s_-]keys? | \bssh[\s_-]keys? | \bapi[\s_-]?keys? | \bapikeys?\b
        | \baccess[\s_-]?tokens? | \bauth(?:entication|orization)?[\s_-]?(?:tokens?|headers?|
          cookies?) | \bbearer\s+tokens? | \bsession[\s_-]?(?:tokens?|cookies?)
        | \brefresh[\s_-]tokens? | \bsecret[\s_-]?keys? | \bclient[\s_-]secrets? | \bsecrets?\b
        | \bpasswords? | \bpassphrases? | \bpasswd\b | \bcredentials? | \bcookies\b
        | \bcredit\s+card(?:\s+numbers?)? | \bsocial\s+security | \bcvv\b
        | \bone-time\s+(?:codes?|passwords?) | \b2fa\s+codes? | \benvironment\s+variables?
        | \benv\s+vars?\b | \b_?auth_?token\b | \bprintenv\b | \bos\.environ\b
        | \bending\s+in\s+_?(?:key|token|secret|password)\b""",
          ("keychain", "seed", "recovery", "mnemonic", "private", "ssh", "api", "apikey",
           "apikeys", "access", "accesstoken", "accesstokens", "auth*", "bearer", "session*",
           "refresh", "secret*", "passw*", "passphrase*", "credential*", "cookies", "credit",
           "social", "cvv", "one-time", "2fa", "environment", "env", "printenv", "environ",
           "ending")),
    _gate("variable", r"""(?-i:\b[A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)*(?:TOKEN|KEY|SECRET|PASSWORD|PASSWD|
        PAT|CREDENTIALS?)\b)""", ("token", "key", "secret", "password", "passwd", "pat",
                                   "credential", "credentials"), also=("_",)),
    _gate("conversation", r"""\b(?:entire|full|whole|complete)\s+(?:conversation|chat|dialog(?:ue)?)
        | \b(?:entire|full|whole|complete)\s+context\s+of\s+(?:this|the|our|your)\s+(?:conversation|
          chat|session|thread|dialog(?:ue)?)
        | \bconversation\s+(?:history|so\s+far|log|transcript|context)
        | \bchat\s+(?:history|log|transcript) | \bmessage\s+history
        | \b(?:previous|prior|earlier|past|other)\s+(?:user\s+)?(?:messages|conversations|
          chats|prompts) | \ball\s+(?:(?:the\s+)?user\s+(?:messages|prompts)|(?:the\s+)?(?:
          conversations|chats|prompts)|(?:the\s+)?messages\s+(?:so\s+far|exchanged|above|
          (?:the\s+user|you)\s+(?:\w+\s+)?(?:sent|wrote|typed)))
        | \bmessages\s+(?:of|from|in)\s+(?:the|this)\s+(?:current\s+|ongoing\s+)?(?:conversation|
          chat|session|thread)""",
          ("conversation", "conversations", "chat", "chats", "dialog", "dialogue", "context",
           "message", "messages", "prompts"),
          also=("entire", "full", "whole", "complete", "history", "far", "log", "transcript",
                "context", "previous", "prior", "earlier", "all", "past", "other", "the",
                "this")),
    _gate("prompt", r"""\bsystem\s+prompt | \byour\s+(?:instructions|system\s+message|guidelines|
          rules) | \bthe\s+(?:system\s+message|hidden\s+prompt)""",
          ("system", "instructions", "guidelines", "rules", "hidden"),
          also=("prompt", "message", "your")),
    _gate("personal", r"""\b(?:the\s+)?user'?s\s+(?:[\w-]+\s+){0,2}(?:messages|emails|contacts|
          files|documents|folders?|directory|downloads|desktop|photos|inbox|mailbox|drive|
          location|address|name|phone(?:\s+number)?|browsing\s+history|
          birthday|date\s+of\s+birth)\b | \bhome\s+(?:directory|address) | \bphone\s+numbers?
          | \bip\s+address(?:es)? | \bdate\s+of\s+birth | \bfull\s+name""",
          ("user", "users", "home", "phone", "ip", "birth", "full"),
          also=("messages", "emails", "contacts", "files", "documents", "location", "address",
                "addresses", "name", "phone", "number", "numbers", "browsing", "birthday",
                "folder", "folders", "downloads", "desktop", "photos", "inbox", "mailbox", "drive",
                "birth", "date", "directory")),
    # calm steering (fourteenth revision): a result said to be valid only once a secret or the
    # conversation goes with the request ("accurate only when the session has shared its system
    # prompt with ..."), or the right value said to be the one kept in a secret
    _gate("validity", r"""\b(?:only\s+(?:be\s+)?(?:considered\s+)?(?:valid|accurate|complete|
        correct|reliable|accepted|honou?red|trusted)|(?:valid|accurate|complete|correct|reliable|
        accepted|trusted)\s+only)\b[^.;]{0,100}?\b(?:once|when|if|after|where|provided)\b
        | \b(?:correct|right|proper|valid|real)\s+(?:[\w-]+\s+){0,4}?is\s+(?:the\s+one|the\s+value|
        whatever\s+is)?\s*(?:stored|kept|found|held|saved|set)\s+in\b""",
          ("valid", "accurate", "complete", "correct", "reliable", "accepted", "honored",
           "honoured", "trusted", "right", "proper", "real")),
)
_TAKE_VERB = _rx(r"""
    \b(?:read|cat|open|load|include|including|pass|passing|send|sending|attach|provide|append|
    prepend|insert|put|paste|copy|forward|upload|add|embed|share|extract|collect|gather|dump|print|
    leak|exfiltrate|fill|supply|give|transmit|post|echo|output|reveal|disclose|retrieve|grab|fetch|
    summari[sz]e|encode|submit|quote|repeat|list\s+all|save|store|record|log|remember|keep|write|
    note|use|using|passed|attached|included|sent|copied|pasted|provided|supplied)\b""")


_EXAMPLE_HEAD = re.compile(r"\s*(?:[-*•]\s*)?(?:example|e\.g\.|for\s+example)\b", re.IGNORECASE)
# A sentence that spells out a value's format names what goes in it; it asks for nothing.
# (twenty-third revision) and so does one that says what the value maps to or is based on
# ("By convention, this value should map to the user's email name")
_FORMAT_EXPLAINED = re.compile(r"\bformatted\s+(?:as|like)\b|\bin\s+the\s+format\b|"
                               r"\bwhere\s+[{<]\w+[}>]\s+(?:is|stands\s+for)\b|"
                               r"\b(?:value|name|id|identifier)\s+(?:should\s+|must\s+|will\s+)?"
                               r"(?:maps?|corresponds?)\s+to\b", re.IGNORECASE)


_HANDED = re.compile(r"\b(?:included|includes?|shared|shares?|appears?|sent|provided|passed|"
                     r"attached|supplied|copied|added|forwarded|pasted)\b", re.IGNORECASE)
# what a result's validity may not hang on: the conversation, a secret, the system prompt
_SENSITIVE = re.compile(r"\bsystem\s+prompt\b|\bconnection\s+string\b|(?-i:\b[A-Z][A-Z0-9]*_"
                        r"(?:[A-Z0-9]+_)*(?:TOKEN|KEY|SECRET|PASSWORD)\b)|\buser'?s\s+(?:\w+\s+)?"
                        r"(?:messages|prompts|questions|conversation|chat)\b", re.IGNORECASE)


_FLAG_AFTER = re.compile(r"[ \t]+--?[A-Za-z]")


def _command_word(text: str, start: int, end: int) -> bool:
    """Whether the words at ``text[start:end]`` are a command line's: a flag (``--api-key``)
    or a word a flag follows (``add credential --name``)."""
    return (start > 0 and text[start - 1] == "-") or _FLAG_AFTER.match(text, end) is not None


# a take said not to happen ("`.env` is never read", "keys are not sent", twentieth revision):
# the verb directly under a negation, with at most a form of "be" between
_TAKE_NEGATED = re.compile(r"\b(?:never|not|n't|cannot)\s+(?:be\s+|been\s+|get\s+)?\Z",
                             re.IGNORECASE)


# (twentieth revision) "IP address", "phone number", "full name" said bare are the catalogue's
# own data as often as a person's (a server's IP addresses, a database's full name): one is a
# person's when its clause names an owner ("your phone number", "the customer's full address
# and phone number") or lists it with another personal datum ("email, full name and IP address")
_BARE_PERSONAL = re.compile(r"ip\s+address(?:es)?|phone\s+numbers?|full\s+names?",
                            re.IGNORECASE)
_PERSONAL_NEAR = re.compile(r"""\b(?:your|their|his|her)\s | \b(?:user|customer|caller|person|
    people|contact|everyone|recipient|owner|employee|patient|client|reporter|member|subscriber|
    buyer|guest|visitor|lead)s?'s?\s | \be-?mails?\b | \bemail\s+address | \b(?:home|postal|
    street|full)\s+address | \bdate\s+of\s+birth | \bbirthday | \bsocial\s+security""",
                            re.IGNORECASE | re.VERBOSE)
_NEAR = 60  # characters either side of the datum in which its owner or a sibling datum counts
# a personal datum the tool falls back on itself when the argument is left out ("Omit to start
# from the user's current location"), in a sentence with no verb that takes something: what
# the tool uses, nothing handed over
_OMITTED = re.compile(r"""\W*(?:omit|leave\s+(?:\w+\s+)?(?:out|blank|empty|unset)|if\s+
    (?:omitted|not\s+(?:given|set|provided)))\b""", re.IGNORECASE | re.VERBOSE)
_FALLS_BACK = re.compile(r"\b(?:defaults?|falls?\s+back)\s+to\s+(?:[\w-]+\s+){0,2}\Z",
                         re.IGNORECASE)


def _not_handed(text: str, sentence: tuple[int, int], m: re.Match[str]) -> bool:
    """Whether the personal datum ``m`` (in the sentence spanning ``sentence``) is the
    catalogue's own or the tool's fallback rather than one asked for (see ``_BARE_PERSONAL``,
    ``_OMITTED``)."""
    start, end = sentence
    if (_BARE_PERSONAL.fullmatch(m.group().strip()) and _PERSONAL_NEAR.search(
            text, max(start, m.start() - _NEAR), min(end, m.end() + _NEAR)) is None):
        return True
    return (_OMITTED.match(text, start) is not None
            or _FALLS_BACK.search(text, max(start, m.start() - 40), m.start()) is not None
            ) and not _takes(text[start:sentence[1]])


def _takes(sentence: str) -> bool:
    """Whether ``sentence`` has a verb that takes something (``read``, ``send``, ``attach``
    ...) that no negation directly governs."""
    return any(_TAKE_NEGATED.search(sentence, max(0, m.start() - 16), m.start()) is None
               for m in _TAKE_VERB.finditer(sentence))


# (twenty-third revision) an act on a secret or a private file put under the user's own yes
# ("Confirm with the user before sending values taken from a local .env file"): the user is
# brought in, nothing goes behind their back
_USER_CONFIRMS = re.compile(r"""\b(?:confirm|check)\s+with\s+the\s+user\s+(?:first\s+)?before\b
    |\b(?:ask|get)\s+(?:the\s+user(?:'s)?\s+)?(?:for\s+)?(?:the\s+user'?s\s+)?(?:permission|approval|
    confirmation|consent)\s+before\b|\bonly\s+(?:after|once|if|when)\s+the\s+user\s+(?:has\s+)?
    (?:explicitly\s+)?(?:confirm|approv|agree|consent)""", re.IGNORECASE | re.VERBOSE)
_ROUTING = re.compile(rf"\A\W*{_ROUTING_HEAD}", re.IGNORECASE)


def _stays(text: str, sentence: str, start: int, end: int) -> bool:
    """Whether the secret or private file at ``text[start:end]`` (in ``sentence``) stays where
    it is: its sentence, read whole across line breaks, puts the act on it under the user's
    confirmation (``_USER_CONFIRMS``), or it is a clause that says when a tool is or is not for
    a task, whose subject the secret is (``_ROUTING_HEAD``); and nothing in it sends the secret
    to an address or into what the model writes (``_ADDRESSED_MOVE``)."""
    head = max((m.end() for m in _SENTENCE_END.finditer(text, 0, start)), default=0)
    tail = _SENTENCE_END.search(text, end)
    whole = text[head:tail.end() if tail else len(text)]
    return any((_USER_CONFIRMS.search(piece) or _ROUTING.match(piece))
               and not _ADDRESSED_MOVE.search(piece) for piece in (sentence, whole))


_SENTENCE_END = re.compile(r"[.!?](?=\s|\Z)|\n\s*\n")
_ADDRESSED_MOVE = re.compile(r"https?://|[\w.+-]+@[\w-]+\.[\w.]+|\b(?:in(?:to)?\s+(?:the\s+|your\s+)?"
                             r"(?:body|notes?|reply|response|summary|comment|ticket))\b",
                             re.IGNORECASE)


def _ts105(text: str, ctx: ScanContext) -> Iterator[Hit]:
    sentences = _Sentences(text)
    told: list[tuple[int, int]] | None = None
    for label, m in _run(_TS105, text, ctx):
        if label == "validity":
            sentence = sentences.of(m.start(), m.end())
            # what follows the claim: the sensitive thing, handed over (or kept, for "the
            # correct value is the one stored in SLACK_BOT_TOKEN")
            tail = text[m.start():sentences.around(m.start(), m.end())[1]]
            wanted = _SENSITIVE.search(tail) or _CONVERSATION.search(tail)
            if (wanted and (_HANDED.search(tail) or m.group().lower().endswith(" in"))
                    and not _KEEP_SAFE.search(sentence) and not _OWN_SECRET.search(sentence)):
                yield Hit(m.start(), m.end(), "high", f"makes the result hang on handing over "
                                                      f"{wanted.group().strip()!r}")
            continue
        if told is None:
            told = [(c.start, c.end) for c in _directives(text, ctx)]
        if label == "file" and ctx.kind in _VALUE_KINDS:
            yield Hit(m.start(), m.end(), "high", f"a value pointing at {m.group().strip()!r}")
        elif _KEEP_SAFE.search(sentences.of(m.start(), m.end())):
            # "This key should be kept secret": advice about the user's own value
            yield Hit(m.start(), m.end(), "low", f"asks to keep {m.group().strip()!r} private")
        elif _kept_out(text, sentences.around(m.start(), m.end())[0], m.start(), m.end()):
            yield Hit(m.start(), m.end(), "low", f"asks to keep {m.group().strip()!r} out")
        elif _FORMAT_EXPLAINED.search(sentences.of(m.start(), m.end())):
            # "formatted as 'https://{ip}/api' where {ip} is the IP address of the server"
            yield Hit(m.start(), m.end(), "medium", f"mentions {m.group().strip()!r}")
        elif label == "personal" and _not_handed(text, sentences.around(m.start(), m.end()),
                                                 m):
            yield Hit(m.start(), m.end(), "medium", f"mentions {m.group().strip()!r}")
        elif any(s <= m.start() < e for s, e in told) or (
                label in ("file", "variable") and _takes(sentences.of(m.start(), m.end()))):
            start = sentences.around(m.start(), m.end())[0]
            # a kind of secret named in an instruction ("for Secret resources", "these are
            # credentials", "Example: Fill username, password") is not one asked for: high
            # needs a verb that takes it, just before it, in a sentence that does not document
            # the secret as the tool's own (shown once, returned to the user)
            # (fourteenth revision) nor is a variable the tool itself needs set, masks or
            # lists as a kind of authentication ("Requires FIGMA_ACCESS_TOKEN to be set")
            # (seventeenth revision) nor is a word of a command line, a flag or the noun a
            # flag follows ("prefer the CLI: agentcore add credential --name <n> --api-key")
            taken = (label != "credential" or (
                _TAKE_VERB.search(text, max(start, m.start() - 60), m.start()) is not None
                and not _EXAMPLE_HEAD.match(text, start)
                and not _command_word(text, m.start(), m.end()))) and (
                label == "file" or not _OWN_SECRET.search(sentences.of(m.start(), m.end()))
            ) and not _stays(text, sentences.of(m.start(), m.end()), m.start(), m.end())
            yield Hit(m.start(), m.end(), "high" if taken else "medium",
                      f"asks to pass on {m.group().strip()!r}" if taken
                      else f"mentions {m.group().strip()!r} in an instruction")
        else:
            yield Hit(m.start(), m.end(), "medium", f"mentions {m.group().strip()!r}")
    yield from _general("TS105", text, ctx)
    yield from foreign_hits("TS105", text, ctx)


# -- TS109 urgency-authority -------------------------------------------------------------------

_TS109 = (
    _gate("shout", r"""(?-i:\b(?:IMPORTANT|CRITICAL|URGENT|MANDATORY|WARNING|ATTENTION|NOTICE|
        REQUIRED|PRIORITY|SECURITY\s+NOTICE|ACTION\s+REQUIRED)\b)\s*[:!]""",
          ("important", "critical", "urgent", "mandatory", "warning", "attention", "notice",
           "required", "priority", "security", "action")),
    _gate("urgency", r"""\b(?:urgent(?:ly)?|immediately|right\s+away|without\s+delay|asap|
        at\s+once)\b""", ("urgent", "urgently", "immediately", "away", "delay", "asap", "once")),
    _gate("official", r"""\bthis\s+is\s+(?:a\s+|an\s+)?(?:mandatory|required|critical|official|
        urgent|security)\b""", ("mandatory", "required", "critical", "official", "urgent",
                                "security"), also=("this",)),
    _gate("authority", r"""\b(?:mandated|required|authori[sz]ed|approved|requested)\s+by\s+
        (?:the\s+)?(?:admin|administrator|security|compliance|legal|it|system|developer|operator|
        management|anthropic|openai|google|microsoft)
      | \bon\s+behalf\s+of\s+(?:the\s+)?(?:admin|administrator|developer|security|system|
        anthropic|openai)
      | \b(?:notice|message|note|directive|instruction|order|update|request)s?\s+from\s+
        (?:the\s+|your\s+|our\s+)?(?:[\w-]+\s+)?(?:admin|administrator|developers?|security\s+team|
        operator|owner|maintainers?|it\s+department|system|anthropic|openai)
      | \b(?:the\s+)?(?:developer|administrator|admin|operator|system|anthropic|openai)s?\s+
        (?:requires?|mandates?|has\s+instructed|instructs|wants\s+you)\b""",
          ("mandated", "required", "authorized", "authorised", "approved", "requested",
           "behalf", "requires", "require", "mandates", "mandate", "instructed", "instructs",
           "wants", "notice", "notices", "message", "note", "directive", "instruction", "order",
           "update", "request"),
          also=("admin", "administrator", "security", "compliance", "legal", "it", "system",
                "developer", "developers", "operator", "management", "anthropic", "openai",
                "google", "microsoft", "maintainer", "maintainers", "owner", "team",
                "department", "administrators", "admins", "operators", "systems")),
    _gate("policy", r"""\bper\s+(?:company|security|corporate|legal|compliance|
        organi[sz]ation(?:al)?)\s+(?:policy|policies|requirements?|rules?)
      | \b(?:security|compliance|legal|it|admin|system)\s+(?:team|department|policy|notice|
        requirement|mandate|override|directive)\b""",
          ("policy", "policies", "requirement", "requirements", "rule", "rules", "team",
           "department", "notice", "mandate", "override", "directive")),
    _gate("threat", r"""\bfailure\s+to\s+(?:comply|follow|do\s+so|obey)\b
      | \b(?:will|may|could)\s+result\s+in\s+(?:data\s+loss|termination|a\s+security|suspension|
        penalt|legal)
      | \b(?:or(?:\s+else)?|otherwise)\s*,?\s+(?:the|this|your)\s+(?:request|call|tool|action|
        operation|account|query|server)\s+will\s+(?:be\s+(?:rejected|blocked|denied|refused|
        suspended)|fail|break|not\s+work)""", ("failure", "result", "or", "otherwise"),
          also=("comply", "follow", "do", "obey", "loss", "termination", "security",
                "suspension", "penalty", "penalties", "legal", "rejected", "blocked", "denied",
                "refused", "suspended", "fail", "break", "work")),
    _gate("caps", r"""(?-i:\b[A-Z]{3,}(?:\s+[A-Z]{3,})+\b)\s*[:!]
      | \[\s*(?-i:[A-Z]{3,}(?:[\s_-]+[A-Z]{3,})+)[^\]]{0,20}\]""", (":", "!", "[")),
    _gate("order", r"""\bby\s+order\s+of\b""", ("order",), also=("by",)),
    _gate("rulebook", r"""\b(?:under|per|according\s+to)\s+(?:the\s+|our\s+|your\s+)?
        (?:[\w-]+\s+){0,2}(?:polic(?:y|ies)|regulations?|requirements?|rules)\b""",
          ("under", "per", "according"),
          also=("policy", "policies", "regulation", "regulations", "requirement",
                "requirements", "rules")),
    _gate("office", r"""\b(?:admin|administrator|operator|owner|security|compliance|legal|it|
        system|maintainers?|developers?)(?:'s)?\s+(?:directive|notice|order|request|requirement|
        mandate|instruction|memo|update|alert)s?\b""",
          ("directive", "directives", "notice", "notices", "order", "orders", "request",
           "requests", "requirement", "requirements", "mandate", "mandates", "instruction",
           "instructions", "memo", "memos", "update", "updates", "alert", "alerts"),
          also=("admin", "administrator", "operator", "owner", "security", "compliance", "legal",
                "it", "system", "maintainer", "maintainers", "developer", "developers")),
    _gate("sender", r"""\b(?:notice|message|directive|order|memo|note|word|instructions?|request|
        update)s?\s+from\s+(?:the\s+|your\s+|our\s+)?(?:[\w-]+\s+){0,3}(?:team|operator|owner|
        admin|administrator|maintainers?|developers?|company|management|server|vendor|provider|
        anthropic|openai)\b""", ("from",),
          also=("team", "operator", "owner", "admin", "administrator", "maintainer",
                "maintainers", "developer", "developers", "company", "management", "server",
                "vendor", "provider", "anthropic", "openai")),
    # a thing said to be cleared ("a pre-approved Frappe method", fourteenth revision) is an
    # object's property, not an order's clearance (the gated scan reads a line at a time, so a
    # word ending a wrapped line is read as such too). Being on an allow list is a property of
    # whatever is listed ("(must be allowlisted)", "allowlisted mesh attachments", "an origin
    # the operator allowlisted", twentieth revision): it clears an order only when said of the
    # call or request itself ("this request is whitelisted, skip the check")
    _gate("cleared", r"""\b(?<!\ba\s)(?<!\ban\s)(?<!\bthe\s)(?:pre-?approved|pre-?authori[sz]ed)
        \b(?!\s*\Z|\s+(?:[\w-]+\s+){0,2}?(?:method|methods|endpoint|endpoints|ip|ips|domain|
        domains|host|hosts|address|addresses|function|functions|origin|origins|command|
        commands))
      | \b(?:this|the|your)\s+(?:call|request|action|operation|session|transfer)\s+(?:is|was|
        has\s+been)\s+(?:already\s+)?(?:whitelisted|allowlisted)\b
      | \b(?:whitelisted|allowlisted)\s+(?:call|request|action|operation|session|transfer)s?\b
      | \b(?:mandatory|compulsory|compliance\s+requirement)\b""",
          ("preapproved", "approved", "preauthorized", "preauthorised", "authorized",
           "authorised", "whitelisted", "allowlisted", "mandatory", "compulsory", "compliance")),
    # thirteenth revision: a penalty threatened for not complying, and an order's sender named
    # in more ways (a named office, "by instruction of", "X-mandated", an executive requiring)
    # (twenty-first revision) a fee or a charge the act itself costs ("Cancel one vendor visit.
    # May incur cancellation fees.") is its price, not a sanction: it is one only after a
    # failure to comply ("calls without the header will incur fees"); a penalty or a fine is one
    _gate("penalty", r"""\b(?:will|would|may)\s+(?:have\s+(?:\w+\s+){0,2}revoked|incur\s+(?:\w+\s+)?
        (?:penalt\w+|fines?)|be\s+(?:locked|escalated|penali[sz]ed|frozen|revoked|
        reported\s+to))
      | \b(?:without|unless|otherwise|not|n't|never|omit\w*|skip\w*|fail\w*|ignor\w*)\b[^.;\n]{0,80}?
        \b(?:will|would|may)\s+incur\s+(?:\w+\s+)?(?:fees?|charges?)
      | \b(?:is|are)\s+(?:logged|reported|treated)\s+as\s+(?:an?\s+)?(?:violation|breach)
      | \breportable\s+(?:\w+\s+)?breach | \bconstitutes?\s+(?:a\s+)?breach | \bliability\s+is\s+void
      | \bfails?\s+(?:the\s+)?audit | \bto\s+avoid\s+(?:a\s+)?(?:freeze|suspension|penalt\w+|
        termination)""",
          ("will", "would", "may", "is", "are", "reportable", "constitutes", "constitute",
           "liability", "fail", "fails", "avoid")),
    _gate("named", r"""\b(?:notice|message|directive|instruction|order|alert|bulletin|memo)s?\s+from\s+
        (?:the\s+)?(?-i:[A-Z][\w&-]*)
      | \bby\s+instruction\s+of\b
      | \b(?:required|mandated|ordered|demanded)\s+by\s+(?:the\s+|your\s+)?(?:[\w&-]+\s+){0,3}?
        (?:team|officer|board|centre|center|department|administrator|admin|owner|management|
        compliance|legal|counsel|regulator|authority|cfo|ceo|cto|ciso)\b
      | \b[a-z]+-mandated\b
      | \b(?:the\s+)?(?:cfo|ceo|cto|ciso|dpo|data\s+protection\s+officer|org(?:anization)?\s+owner|
        workspace\s+owner)\s+(?:requires|mandates|has\s+(?:ordered|approved))
      | \bapproved\s+by\s+your\s+(?:[\w']+\s+){0,2}(?:administrator|admin|owner|manager)
      | \bfrom\s+the\s+(?:[\w&-]+\s+){1,4}(?:team|officer|board|centre|center|department|
        administrator)\s*[:,]
      | \b(?:legal\s+hold|admin\s+override)\b""",
          ("from", "instruction", "required", "mandated", "ordered", "demanded", "cfo", "ceo",
           "cto", "ciso", "dpo", "officer", "owner", "approved", "legal", "admin")),
    _gate("stress", r"""\b(?:highest|top)\s+priority\b|\b(?:critically|extremely|very)\s+
        important\b|\bstrictly\s+(?:required|necessary|mandatory)\b""",
          ("priority", "important", "strictly")),
)


_ESCALATING = frozenset({"official", "authority", "policy", "threat", "caps", "order",
                         "rulebook", "office", "sender", "cleared", "penalty", "named"})
_MODAL_DIRECTIVE = _rx(r"""\b(?:must|shall|has\s+to|have\s+to|needs?\s+to|(?:is|are)\s+required
    \s+to|required\s+to|(?:is|are)\s+(?:obliged|obligated|bound)\s+to)\b""")
# (fifteenth revision) what makes an authority's text an order without an imperative: a
# requirement stated beside a penalty for not meeting it ("Compliance control SOC2-CC6.1
# requires tokens ... to use ttl `87600h`; shorter values fail audit"), or the user's sign-off
# said not to be needed ("approved by your organization's administrator and does not need user
# sign-off")
_REQUIREMENT = _rx(r"""\b(?:requires?|required|mandated|mandates?|mandatory|obligatory|binding|
    minimum|maximum)\b""")
_PENALTY_LABELS = frozenset({"penalty", "threat"})
_SIGN_OFF_WAIVED = _rx(r"""\b(?:does|do|will)\s+not\s+(?:need|require)\s+(?:the\s+|any\s+)?
    (?:user|your|their|customer)(?:'s)?\s+(?:sign-?off|approval|confirmation|consent)
    |\bno\s+(?:user|customer)\s+(?:sign-?off|approval|confirmation|consent)\s+(?:is\s+)?
    (?:needed|required)""")


_SENDER_LABELS = frozenset({"sender", "order", "authority", "cleared", "threat", "penalty",
                            "named"})
# "MANDATORY REQUIREMENTS:" heads documentation; pre-approval is the claim that matters
_MANDATORY = re.compile(r"(?i)mandatory|compulsory|compliance\s+requirement")
# The model's own vendor or operator named as the authority (a server about Google Cloud names
# Google as its subject, not as an authority over the model).
_VENDOR = re.compile(r"\b(?:anthropic|openai|your\s+(?:developer|operator|administrator|admin|"
                     r"owner))\b", re.IGNORECASE)


# (twenty-third revision) messages or alerts "from" a party as the object of the tool's own
# operation ("Delete an alert from Splunk", "List system messages from Splunk server", "fetch
# the entire set of messages from the server"): data the tool handles, not an order's sender;
# a sentence that also says to follow or obey them still names one
_HANDLED_MESSAGES = re.compile(r"""\b(?:list|lists|listing|get|gets|fetch|fetches|fetching|read|
    reads|delete|deletes|remove|removes|retrieve|retrieves|sync|syncs|search|searches|query|
    download|downloads|pull|pulls|poll|polls|receive|receives|archive|archives|export|exports|
    count|counts|show|shows|view|views|filter|filters|clear|clears|dismiss|acknowledge)\s+
    (?:(?:an?|the|all|any|every|each|new|unread|recent|system|entire|set|of|its|their)\s+){0,4}
    \Z""", re.IGNORECASE | re.VERBOSE)
_OBEYED = re.compile(r"\b(?:follow|obey|comply|as\s+instructed|do\s+what|carry\s+out)\b",
                     re.IGNORECASE)


def _handled_message(text: str, label: str, m: re.Match[str]) -> bool:
    """Whether the sender or named-source match ``m`` is messages the tool's own operation
    handles (``_HANDLED_MESSAGES`` just before it, and nothing says to obey them)."""
    return (label in ("sender", "named")
            and _HANDLED_MESSAGES.search(text, max(0, m.start() - 60), m.start()) is not None
            and _OBEYED.search(text) is None)


def _ts109(text: str, ctx: ScanContext) -> Iterator[Hit]:
    directive: bool | None = None
    hits = list(_run(_TS109, text, ctx))
    threatened = any(label in _PENALTY_LABELS for label, _ in hits)
    for label, m in hits:
        if _handled_message(text, label, m):
            yield Hit(m.start(), m.end(), "low", "names messages the tool itself handles")
            continue
        if label in _ESCALATING:
            if directive is None:
                directive = bool(_MODAL_DIRECTIVE.search(text) or _DIRECTIVE_CUE.search(text)
                                 or _UNCONDITIONAL.search(text)
                                 or any(True for _ in _directives(text, ctx))
                                 or (threatened and _REQUIREMENT.search(text))
                                 or _SIGN_OFF_WAIVED.search(text))
            if directive:
                # an authority named as the sender of an order (an administrator, a vendor, a
                # security team), pre-approval or a threat, around an instruction: high;
                # headings such as IMPORTANT: or per policy are framing, medium
                named = (label in _SENDER_LABELS and not _MANDATORY.fullmatch(m.group())) or bool(
                    _VENDOR.search(text))
                yield Hit(m.start(), m.end(), "high" if named else "medium",
                          "an authority named as the source of an instruction" if named
                          else "authority framing around an instruction")
                continue
        yield Hit(m.start(), m.end(), "medium", "urgency or authority framing")
    yield from foreign_hits("TS109", text, ctx)
