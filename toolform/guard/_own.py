"""What a catalogue names as its own (eighteenth revision, issue 16's precision on real
servers): the objects its tools manage, its own settings and home, its own hosts, and the
examples and option names its prose spells out.

A hand rule reads one text at a time; some of its high readings are wrong only in the light of
the whole catalogue. :func:`own_reading` reads the catalogue once and returns a function that
takes one field's (rule, hit) pairs and lowers to medium the high hits whose evidence is the
catalogue's own:

* TS105, a secret or private noun that a tool name of the catalogue names as its object
  (``credential`` beside ``list_credentials``, ``API key`` beside ``create-api-key``): the
  tool's work, not a secret handed over;
* TS105, a secret's variable, ``.env`` or the environment named in the server's own
  configuration prose ("Requires FIGMA_ACCESS_TOKEN", "read from the DB_PASSWORD environment
  variable") with no verb that hands something over in the sentence, and a path under the
  home directory into the server's own folder (``~/.config/comfyui-mcp/``, the capture's own
  name);
* TS101, a value said to move data when every address in it is the catalogue's own (its
  registered label a word of the server's own name, or named in two or more of the
  catalogue's titles and descriptions) or sits in an example ("e.g.", "for example", "such
  as", "Examples:"), a query sample, or code (a call's argument: ``debug(LoggingLevel.INFO,``);
* TS103, an order whose words are an option's name (``ignore-warnings`` described as "ignore
  warnings", the parameter the field describes or an identifier the text names);
* TS108, a parameter's title that only spells the parameter's own name in Title Case ("Swap
  Ppc Override" for ``swap_ppc_override``, as schema generators write them): the title is the
  name, read as an identifier is (high only when the name itself is an order:
  ``override_user_limits``), not as a claim of standing or an instruction-like sentence.

Only titles and descriptions are read this way (a default or an enum value is judged by where
it sits: :mod:`toolform.guard._placement`), and only these rules' high hits: the hit stays as a
medium finding, and the escalation that two readings agree on still applies after it.
"""

from __future__ import annotations

import re
from pathlib import PurePath
from typing import Callable, Sequence

from ..ir import Toolset
from ._concealment import identifier_order
from ._placement import host_label, param_name
from ._reading import _EMAIL, _MOVES_DATA, _URL
from ._rule import Hit, Rule
from ._sentences import _Sentences

__all__ = ["own_reading", "usage_reading"]

Pairs = Sequence[tuple[Rule, Hit]]

_KINDS = frozenset({"tool.title", "tool.description", "param.title", "param.description"})
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def _words(name: str) -> list[str]:
    """A name or phrase as lower-case words, a plural's ``s`` dropped (``listCredentials``,
    ``private_keys``, ``API keys``: list credential, private key, api key)."""
    out = []
    for w in _WORD.findall(name):
        w = w.lower()
        out.append(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w)
    return out


def _runs(words: Sequence[str], longest: int = 3) -> set[str]:
    """Every run of one to ``longest`` consecutive words, joined without separators."""
    return {"".join(words[i:j]) for i in range(len(words))
            for j in range(i + 1, min(len(words), i + longest) + 1)}


# -- TS105 -----------------------------------------------------------------------------------

# A secret noun named by a tool of the catalogue is the object it manages; a phrase of at most
# three words (the credential gate's nouns), not a variable or a path
_NOUN = re.compile(r"[A-Za-z]+(?:[\s_-][A-Za-z]+){0,2}")
# a phrase is the catalogue's object also when its head is, and the head is itself a secret
# or the conversation ("private key" beside `create_signing_key`, "full chat" beside
# `chat_completion`); a head such as "name" or "address" alone names nothing secret
_SECRET_HEADS = frozenset({"key", "secret", "credential", "token", "password", "passphrase",
                           "cookie", "chat", "conversation"})
# the server's own configuration: a variable it requires or reads ("Requires
# FIGMA_ACCESS_TOKEN", "needing ... COMFY_API_KEY here"), or one named as an environment
# variable or said to be set ("the REGISTRY_ACCESS_TOKEN environment variable", "DB_PASSWORD
# must be set")
# (the server's "reads" or "are read from", not the order "read")
_REQUIRED_BEFORE = re.compile(r"\b(?:requires?|required|needs?|needing|reads|(?:is|are)\s+read"
                              r"\s+from)\b(?:(?![.;:!?](?:\s|\Z))[^\n]){0,80}\Z", re.IGNORECASE)
_SETTING_AFTER = re.compile(r"""\s*(?:(?:environment|env)\s+var(?:iable)?s?\b|(?:is|are|must\s+be|
    should\s+be|to\s+be|has\s+to\s+be)\s+(?:set|configured|exported|defined)\b)""",
                            re.IGNORECASE | re.VERBOSE)
# a verb that hands something over (what TS105 is about), asks for a secret's value, or pins
# an argument to it
_HANDED_OVER = re.compile(r"""\b(?:pass|passing|send|sending|include|including|attach|paste|
    copy|forward|upload|share|post|submit|provide|supply|append|prepend|insert|put|fill|embed|
    give|transmit|echo|output|reveal|disclose|print|dump|leak|exfiltrate|write|log|note|
    save|store|record|quote|repeat|encode|summari[sz]e|value\s+of|contents?\s+of|plaintext|
    set\s+(?:this|it|\w+)\s+to|use\s+(?:it|them|this|that|its\s+value)\s+(?:as|for|in))\b
    |'s\s+value\b""", re.IGNORECASE | re.VERBOSE)
_VARIABLE = re.compile(r"(?-i:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)|\.env|env(?:ironment)?\s+var\w*",
                       re.IGNORECASE)
# (twenty-second revision) under the XDG base folders (``~/.local/share``, ``~/.local/state``,
# ``~/.cache``) the folder named is the one after them, and it may end the path
_HOME_PATH = re.compile(r"~/(?:(?:\.local/(?:share|state)|\.cache)/(?P<xdg>[\w-]+)(?:/|\Z)"
                        r"|\.config/\.?(?P<dir>[\w-]+)/|\.?(?P<top>[\w-]+)/)[\w./-]*")
# a path's last part that is itself a secret stays what it is, whoever's folder holds it
_SECRET_FILE = re.compile(r"credential|token|secret|passw|\bkeys?\b|id_[a-z0-9]+|\.env|\.pem"
                          r"|cookie", re.IGNORECASE)


# a word after an article or a possessive is a noun ("the write guard", "a note", "its output")
_DETERMINER = re.compile(r"\b(?:the|a|an|its|your|their|this|that|no|every|each)\s+\Z",
                         re.IGNORECASE)


# "..., including their manifests": a list begun, nothing included in a request
_LISTING = re.compile(r"[,(]\s*\Z")


def _hands_over(sentence: str) -> bool:
    """Whether ``sentence`` holds a verb that hands something over (:data:`_HANDED_OVER`),
    not a noun spelled the same."""
    return any(_DETERMINER.search(sentence, 0, m.start()) is None and not (
        m.group().lower() == "including" and _LISTING.search(sentence, 0, m.start()))
               for m in _HANDED_OVER.finditer(sentence))


def _own_object(noun: str, sentence: str, named: set[str]) -> bool:
    """Whether ``noun`` is what a tool name of the catalogue names, in a sentence that hands
    nothing over."""
    words = _words(noun)
    return (bool(words) and ("".join(words) in named or (
                words[-1] in _SECRET_HEADS and words[-1] in named))
            and _NOUN.fullmatch(noun.strip()) is not None
            and _HANDED_OVER.search(sentence) is None)


def _own_setting(text: str, hit: Hit, sentence_start: int, sentence: str) -> bool:
    """Whether the variable at the hit is one the server requires, reads or has set, in a
    sentence that hands nothing over."""
    if _VARIABLE.fullmatch(text[hit.start:hit.end].strip()) is None:
        return False
    return (_REQUIRED_BEFORE.search(text[sentence_start:hit.start]) is not None
            or _SETTING_AFTER.match(text, hit.end) is not None) and (
        _HANDED_OVER.search(sentence) is None)


def _own_home(span: str, own_names: set[str], sentence: str) -> bool:
    """Whether ``span`` is a path under the home directory into a folder named by the
    server's own name (``own_names``), or a folder (no file named) that a sentence handing
    nothing over names as where the tool works; never to a file that is itself a secret."""
    m = _HOME_PATH.fullmatch(span.strip())
    if m is None or _SECRET_FILE.search(span):
        return False
    if _FOLDER.fullmatch(span.strip()) and not _hands_over(sentence):
        return True  # "Lists the installed plugins (~/.gemini/config/plugins)"
    named = m.group("dir") or m.group("top") or m.group("xdg")
    folder = set(_words(named)) - {"mcp", "server", "config"}
    return any(w.startswith(o) or o.startswith(w) for w in folder for o in own_names
               if len(w) >= 4 and len(o) >= 4)


# what a parameter's name says it takes besides the thing itself: a path to it
_PATH_WORDS = {"path", "file", "filename", "dir", "directory", "folder", "location"}


def _own_input(span: str, path: str) -> bool:
    """Whether ``span`` is a path under the home directory to the very file the described
    parameter is named for (``~/.kube/config`` for ``kubeconfig_path``: the parameter's words
    less the path's, joined, are the path's words joined), and that file is no secret by its
    own name (twenty-second revision)."""
    words = _words(param_name(path) or "")
    if not _PATH_WORDS & set(words) or _HOME_PATH.fullmatch(span.strip()) is None or (
            _SECRET_FILE.search(span)):
        return False
    named = "".join(w for w in words if w not in _PATH_WORDS)
    return len(named) >= 4 and named == "".join(_words(span))


# a folder: no part after the first holds a dot (a file's extension), and the last is a
# collection, a plural or ended by a slash (`~/.claude/skills`, `~/notes/`; not `~/.kube/config`,
# a file)
_FOLDER = re.compile(r"~/\.?[\w-]+(?:/[\w-]+)*(?:[a-z]s/?|/)")
# a variable named after the server itself (APILLOW_API_KEY for apillow) that the user is told
# to set: the server's own configuration, unless it is set into something ("set X as the ...")
_SET_BEFORE = re.compile(r"\b(?:set|export|configure|define|add)\s+(?:the\s+)?\Z", re.IGNORECASE)
_SET_INTO = re.compile(r"\s+(?:as|to|in|into|on|for)\b", re.IGNORECASE)


def _own_variable(text: str, hit: Hit, own_names: set[str], sentence: str) -> bool:
    """Whether the hit is a variable whose first word is a word of the server's own name,
    which the sentence says to set (and into nothing else), with no address in it."""
    span = text[hit.start:hit.end].strip()
    if not re.fullmatch(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+", span):
        return False
    head = span.split("_", 1)[0].lower()
    return (head in own_names and _SET_BEFORE.search(text, 0, hit.start) is not None
            and _SET_INTO.match(text, hit.end) is None
            and "@" not in sentence and "://" not in sentence)


# -- TS101 -----------------------------------------------------------------------------------

# (not "like" or "i.e.": "I'd like the webhook set to ...", "i.e. always ...")
_EXAMPLE = re.compile(r"\b(?:e\.g\.|eg\.|for\s+example|for\s+instance|such\s+as)|\bexamples?\s*:",
                      re.IGNORECASE)
_EXAMPLES_LABEL = re.compile(r"\b(?:examples?|e\.g\.)(?:\*\*)?\s*:", re.IGNORECASE)
_QUERY = re.compile(r"\b(?:query|queries|filter|filters|search|syntax|expression)\b",
                    re.IGNORECASE)
_HOST = re.compile(r"(?:[\w-]+\.)+[a-z]{2,}", re.IGNORECASE)
_IP = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
# (not the documentation domains: planted texts use ``.example`` hosts as their own)
_THIS_MACHINE = re.compile(r"localhost|127(?:\.\d{1,3}){3}|\[?::1\]?", re.IGNORECASE)


def _host(address: str) -> str | None:
    """The host an address names (an e-mail address's, a URL's, a bare domain's)."""
    if "@" in address:
        return address.rsplit("@", 1)[1]
    m = re.match(r"(?:[a-z]+://)?(?:[^@/\s]*@)?(?P<host>[\w.-]+)", address, re.IGNORECASE)
    return m.group("host") if m else None


class _Catalogue:
    """The catalogue's own names and texts, read on first use."""

    def __init__(self, toolset: Toolset) -> None:
        self.toolset = toolset
        self._named: set[str] | None = None
        self._texts: list[str] | None = None
        self._vocabulary: set[str] | None = None
        self.own_names = {w for w in _words(PurePath(toolset.source or "").stem) if len(w) >= 4}

    @property
    def vocabulary(self) -> set[str]:
        """The catalogue's own identifiers: every tool name, and every parameter name that is
        an identifier of two words or more (``write_file``, ``threadTs``; not ``query``)."""
        if self._vocabulary is None:
            found = {t.name for t in self.toolset.tools}
            found.update(p.name for t in self.toolset.tools for p in t.params
                         if _IDENTIFIER.fullmatch(p.name))
            self._vocabulary = found
        return self._vocabulary

    @property
    def named(self) -> set[str]:
        """Every run of up to three words of a tool name (``create-api-key``: create, api,
        key, createapi, apikey, createapikey)."""
        if self._named is None:
            self._named = set().union(*(_runs(_words(t.name)) for t in self.toolset.tools))
        return self._named

    def texts(self) -> list[str]:
        """The distinct titles and descriptions of tools and parameters, lower-cased."""
        if self._texts is None:
            found = set()
            for t in self.toolset.tools:
                found.update(x for x in (t.title, t.description) if x)
                found.update(x for p in t.params for x in (p.title, p.description) if x)
            self._texts = [x.lower() for x in found]
        return self._texts

    def own_host(self, host: str) -> bool:
        """Whether the catalogue names this host as its own: its registered label (three
        letters or more, never an IP) a word of the server's own name, or the host's
        registered domain named in two or more of its titles and descriptions."""
        if _THIS_MACHINE.fullmatch(host):
            return True  # the machine itself (not 0.0.0.0: a rule open to 0.0.0.0/0 is everyone)
        if _IP.fullmatch(host):
            return False
        label = host_label(host)
        if len(label) < 3:
            return False
        if any(label == o or (len(label) >= 4 and (label.startswith(o) or o.startswith(label)))
               for o in self.own_names):
            return True
        domain = ".".join(host.lower().split(".")[-2:])
        word = re.compile(rf"(?<![\w-]){re.escape(domain)}(?![\w-])")  # a subdomain too
        return sum(1 for x in self.texts() if word.search(x)) >= 2


def _exemplified(text: str, start: int, end: int, sentence_start: int) -> bool:
    """Whether the address at ``text[start:end]`` sits in an example (after "e.g." in its
    sentence, or after an "Examples:" label in its line) or a piece of code."""
    before = text[max(sentence_start, start - 80):start]
    line = text[max(text.rfind("\n", 0, start) + 1, start - 300):start]
    if _EXAMPLE.search(before) or _EXAMPLES_LABEL.search(line):
        return True
    # code: a call's argument, the name of a call, or a dotted name that goes on past what
    # looked like its top-level domain (`admin.app.home.render`)
    if before.endswith("(") and text[end:end + 1] in (",", ")") or text[end:end + 1] == "(" or (
            re.match(r"\.[A-Za-z_]", text[end:end + 2])):
        return True
    # a query sample: field:value inside prose about queries
    head = before[-24:]
    return bool(re.search(r"[\w.]+[:=]\Z", head)) and "@" not in text[start:end] and bool(
        _QUERY.search(text[sentence_start:end]))


def _own_addresses(text: str, hit: Hit, sentences: _Sentences, catalogue: _Catalogue) -> bool:
    """Whether every address in the hit is the catalogue's own or an example (and there is
    one)."""
    found = list(_MOVES_DATA.finditer(text, hit.start, hit.end))
    if not found:
        return False
    for m in found:
        address = m.group()
        sentence_start = sentences.around(m.start(), m.end())[0]
        if _exemplified(text, m.start(), m.end(), sentence_start):
            continue
        if not (re.fullmatch(_EMAIL, address) or re.match(_URL, address)
                or _HOST.fullmatch(address.split("/")[0]) or _IP.fullmatch(address)):
            return False  # a phone number, an account, a channel: not judged here
        host = _host(address)
        if host is None or not catalogue.own_host(host):
            return False
    return True


# -- TS103 -----------------------------------------------------------------------------------

# an order spelled in words of Latin letters only (an option's words, nothing else)
_SPELLED = re.compile(r"[A-Za-z]+(?:[\s_-]+[A-Za-z]+)+")
_IDENTIFIER = re.compile(r"[A-Za-z][a-z0-9]*(?:[-_][A-Za-z0-9]+|[A-Z][a-z0-9]+)+")


def _option_named(text: str, hit: Hit, path: str) -> bool:
    """Whether the order's words (``text[hit.start:hit.end]``) are an option's name: the
    parameter the field describes or an identifier of two words or more elsewhere in the text
    (the order's own span, a hyphenated word such as "pre-consented", names no option)."""
    span = text[hit.start:hit.end]
    if _SPELLED.fullmatch(span.strip()) is None:
        return False
    said = _words(span)
    if len(said) < 2:
        return False
    names = [param_name(path), *(m.group() for m in _IDENTIFIER.finditer(text)
                                 if m.end() <= hit.start or m.start() >= hit.end)]
    return any(len(w) >= 2 and w == said for w in (_words(n) for n in names if n))


_LETTERS = re.compile(r"[^a-z0-9]+")


def _name_title(path: str, text: str, pairs: Pairs) -> Pairs:
    """``pairs`` with TS108's high hits held at medium when the parameter title ``text`` spells
    only the name of its parameter (the same letters and digits, case and separators aside) and
    that name, read as an identifier, is no order (twenty-first revision)."""
    if not any(r.id == "TS108" and h.severity == "high" for r, h in pairs):
        return pairs
    name = param_name(path)
    if (not name or _LETTERS.sub("", name.lower()) != _LETTERS.sub("", text.lower())
            or identifier_order(name, setting_aside=True)):
        return pairs
    return [(r, Hit(h.start, h.end, "medium", f"{h.detail}; the parameter's own name"))
            if r.id == "TS108" and h.severity == "high" else (r, h) for r, h in pairs]


def own_reading(toolset: Toolset) -> Callable[[str, str, str, Pairs], Pairs]:
    """A function ``(kind, path, text, pairs) -> pairs`` that lowers to medium the high hits
    of TS101, TS103 and TS105 in a title or description whose evidence is the catalogue's own
    (see the module's docstring); it returns ``pairs`` itself when nothing changes. The
    catalogue is read on first use, once per scan."""
    catalogue = _Catalogue(toolset)

    def demote(kind: str, path: str, text: str, pairs: Pairs) -> Pairs:
        if kind == "param.title":
            pairs = _name_title(path, text, pairs)
        if kind not in _KINDS or not any(
                h.severity == "high" and r.id in ("TS101", "TS103", "TS105") for r, h in pairs):
            return pairs
        sentences = _Sentences(text)
        out = []
        for rule, hit in pairs:
            why = None
            if hit.severity == "high":
                span = text[hit.start:hit.end]
                if rule.id == "TS105":
                    start, end = sentences.around(hit.start, hit.end)
                    sentence = text[start:end]
                    if _own_object(span, sentence, catalogue.named):
                        why = "an object the catalogue's own tools manage"
                    elif _own_setting(text, hit, start, sentence):
                        why = "the server's own configuration"
                    elif _own_home(span, catalogue.own_names, sentence):
                        why = "the server's own folder"
                    elif kind == "param.description" and _own_input(span, path):
                        why = "the file the parameter takes"
                    elif _own_variable(text, hit, catalogue.own_names, sentence):
                        why = "the server's own configuration"
                elif rule.id == "TS101" and _own_addresses(text, hit, sentences, catalogue):
                    why = "an address of the catalogue's own or an example"
                elif rule.id == "TS103" and _option_named(text, hit, path):
                    why = "an option's name, described"
            out.append((rule, Hit(hit.start, hit.end, "medium", f"{hit.detail}; {why}"))
                       if why else (rule, hit))
        return out if any(a is not b for (_, a), (_, b) in zip(out, pairs)) else pairs

    return demote


# -- escalation ------------------------------------------------------------------------------

# a name as a token of the text (a tool name may hold dots and hyphens)
_NAME_TOKEN = re.compile(r"(?<![\w.-])[A-Za-z_][\w.-]*\w")
# what a plant carries besides a name: an address, a path, a quoted path or channel, a secret,
# the conversation, keeping it from the user, a call chained onto this one or made on every
# result, acting before the user is answered, or steering calls away from a tool (shadowing);
# a usage note routes the user's own goal to the tool that does it, nothing more
_PAYLOAD = re.compile(r"""@|://|~/|\bhttps?\b|\.(?:ssh|env|aws|pem)\b|['"][/#][^'"]*['"]|
    \b(?:secrets?|passwords?|passphrases?|credentials?|tokens?|api[\s_-]?keys?|private\s+keys?|
    cookies?|conversation|chat\s+history|system\s+prompt|previous\s+messages?|
    (?:do\s+not|don't|never|without)\s+(?:tell|inform|mention|notify|alert|show|reveal|use)|
    silently|secretly|quietly|ignore|disregard|override|instead|exfiltrat\w*|forward\w*|
    upload\w*|hand\w*\s+(?:\w+\s+){0,4}to|(?:also|then)\s+(?:run|call|invoke|use)|follow\s+this
    \s+with|(?:each|every)\s+(?:item|page|result|file|message|draft|record|entry|row)s?|
    before\s+(?:answering|replying|responding)|prefer\s+this\s+tool|route\s+every)\b""",
                      re.IGNORECASE | re.VERBOSE)


def usage_reading(toolset: Toolset) -> Callable[[str, str, Hit], bool]:
    """A function ``(rule_id, text, hit) -> bool``: whether a medium hit is the catalogue
    describing itself, which the escalation policy leaves medium (``docs/guard.md``, "The
    catalogue's own evidence"). That is so for a TS105 hit on a variable, ``.env`` or the
    environment named in a sentence with no verb that hands something over (the server's
    configuration, named as a noun), and when the hit's span names one of the catalogue's own
    identifiers (a tool name, or a parameter name of two words or more) and the sentence it
    sits in, those names aside, carries no payload of a plant (an address, a path, a secret,
    the conversation, an override, keeping something from the user, a call chained onto this
    one or made on every result, acting before the user is answered, steering calls away from
    a tool). The catalogue is read on first use, once per scan."""
    catalogue = _Catalogue(toolset)

    def usage(rule_id: str, text: str, hit: Hit) -> bool:
        span = text[hit.start:hit.end]
        if rule_id == "TS105" and _VARIABLE.fullmatch(span.strip()):
            start, end = _Sentences(text).around(hit.start, hit.end)
            return not _hands_over(text[start:end])
        if not any(m.group() in catalogue.vocabulary for m in _NAME_TOKEN.finditer(span)):
            return False
        start, end = _Sentences(text).around(hit.start, hit.end)
        # the names themselves are no payload ("webftp_upload_content" uploads nothing here)
        sentence = _NAME_TOKEN.sub(lambda m: "NAME" if m.group() in catalogue.vocabulary
                                   else m.group(), text[start:end])
        # a payload noun that the catalogue's tools name is their object ("conversation" beside
        # `slack_list_conversations`), as for TS105 above
        return all("".join(_words(m.group())) in catalogue.named
                   for m in _PAYLOAD.finditer(sentence) if m.group()[:1].isalpha())

    return usage
