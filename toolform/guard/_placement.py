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

import functools
import re
from typing import Callable, Sequence

from ._concealment import PROSE_IN_VALUE
from ._reading import _EMAIL as _EMAIL_PATTERN
from ._rule import Hit, Rule

__all__ = ["class_hits", "host_label", "own_command", "param_name", "raised", "role_hits",
           "value_reading"]

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
    if kind == "param.default" and own_command(path, text):
        return _lowered(pairs, (*PROSE_IN_VALUE, _DESTROYING_DEFAULT),
                        "the parameter's own command, inside the working tree")
    return pairs


# (twenty-third revision) a parameter that is a command line, or its flags
_COMMAND_ROLE = frozenset({"command", "commands", "cmd", "flags", "args", "arguments", "argv",
                           "options", "opts", "script"})
# what takes a command out of the working tree or the tool's own scope: the home directory, a
# variable, a host or an address, chaining, piping and redirection, a parent directory
_LEAVES_TREE = re.compile(r"[~$`|;&<>\\@]|://|\.\.|^/|\s/|=/")
# a program or a word that sends, fetches, raises privileges or handles secrets
_REACHES = frozenset({
    "curl", "wget", "scp", "ssh", "sftp", "rsync", "nc", "ncat", "netcat", "telnet", "ftp",
    "sudo", "su", "doas", "push", "publish", "upload", "deploy", "eval", "exec", "sh", "bash",
    "zsh", "python", "node", "base64", "printenv", "env", "export", "chmod", "chown", "dd",
    "mkfs", "crontab", "token", "tokens", "secret", "secrets", "password", "passwd", "key",
    "keys", "credential", "credentials", "netrc", "id_rsa", "gnupg", "kube", "aws"})
# the working tree itself or its history: what a clean command never removes whole
_WHOLE_TREE = re.compile(r"^(?:\./?|\*|\./\*|(?:\./)?\.git(?:/.*)?)$")
# the detail of the overreach reader's destroying-default hit (toolform.guard._overreach)
_DESTROYING_DEFAULT = "a default that destroys"


def own_command(path: str, text: str) -> bool:
    """Whether the default ``text`` of the parameter at ``path`` is the command the parameter
    exists to run, acting only inside the working tree or the tool's own scope (twenty-third
    revision, docs/guard.md): the parameter's name says it is a command line or its flags
    (``command``, ``flags``, ``extra_args``), and the value is one line in ASCII with no home
    directory, variable, absolute path, parent directory, host or address, no chaining, pipe or
    redirection, no program that sends, fetches, raises privileges or handles secrets, no flag
    that lifts a safeguard (``--force``, ``--no-verify``), and no argument that is the working
    tree itself or its history (``./``, ``*``, ``.git``). ``rm -rf ./build ./dist`` under
    ``command`` and ``--yes --no-install-recommends`` under ``flags`` are; ``rm -rf ./
    ~/.cache`` and ``--force`` are not."""
    value = text.strip()
    if (not value or not value.isascii() or "\n" in value or _COMMAND_ROLE.isdisjoint(
            _words(param_name(path))) or _LEAVES_TREE.search(value) or _CHECKS_OFF.search(value)):
        return False
    for token in value.split():
        argument = token.partition("=")[2] if token.startswith("-") else token
        if _WHOLE_TREE.match(argument) or not _REACHES.isdisjoint(
                re.findall(r"[a-z0-9_]+", token.lower())):
            return False
    return True


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


@functools.lru_cache(maxsize=8192)  # catalogues repeat their parameter and tool names
def _words(name: str) -> frozenset[str]:
    """A parameter's or tool's name as lower-case words (``replyTo``: reply, to)."""
    return frozenset(w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", name))


# a parameter that says where things go: its default is a destination the model sends to
_DESTINATION_WORDS = frozenset({
    "to", "cc", "bcc", "recipient", "recipients", "reply", "replyto", "forward", "webhook",
    "webhooks", "callback", "sink", "destination", "dest", "deliver", "delivery", "notify",
    "notification", "relay", "mirror", "upload", "share", "report", "audit", "archive",
    # (twenty-third revision) where money goes: a payout's or a withdrawal's account or wallet
    "payout", "payee", "beneficiary", "wallet", "withdraw", "withdrawal"})
# a copy the other recipients and the user do not see: any fixed address there is a hidden copy,
# a documentation domain's too (twenty-third revision)
_BLIND_COPY = frozenset({"bcc"})
# words that make such a parameter a source or a setting instead (from_address, to_date)
_NOT_DESTINATION = frozenset({"from", "sender", "date", "time", "timestamp", "format", "type",
                              "level", "mode", "id", "count", "limit", "page", "version"})
_EMAIL = re.compile(_EMAIL_PATTERN)  # its host: what follows the "@"
# a network address (a storage bucket such as s3://exports-${account_id}/ is the account's own)
# (twenty-first revision: a file-transfer scheme, sftp:// or scp://, sends files to its host too)
_URL = re.compile(r"\b(?:https?|wss?|ftps?|sftp|scp|rsync)://(?:[^@/\s\"']*@)?(?P<host>[\w.-]+)",
                  re.IGNORECASE)
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


# (twenty-first revision) an address parameter (``url``, ``endpoint``) of a tool whose own name
# says where things go (``create_webhook``): the default is where the tool sends
_ADDRESS_ROLE = frozenset({"url", "uri", "endpoint", "address", "target", "href"})
# the API the tool itself calls (``base_url`` of ``test_webhook``): the vendor's, not a sink
_API_BASE = frozenset({"base", "api", "server"})
# a tool that only reads (``list_webhooks``): its address parameter filters, it sends nothing
_READS_ONLY = frozenset({"list", "get", "search", "find", "show", "describe", "read", "query",
                         "count"})
# an account or resource id: one token of letters and digits, both, eight characters or more
# (``ba_1PzX4qHc82LmNv0Tq3sKd9Ea``, ``acct_9Lk2...``)
_ACCOUNT_ID = re.compile(r"(?=[A-Za-z_-]*\d)(?=[\d_-]*[A-Za-z])[A-Za-z0-9]+(?:[_-][A-Za-z0-9]+)*")
_MIN_ID = 8


def _destination(tool: str, path: str) -> bool:
    """Whether the parameter at ``path`` of ``tool`` says where things go: its name does
    (``replyTo``, ``bcc``, ``destination``; not ``from_address`` or ``to_date``), or it is an
    address parameter of a tool whose name does and that does not only read (``url`` of
    ``create_webhook``, not of ``list_webhooks``)."""
    words = _words(param_name(path))
    if not _NOT_DESTINATION.isdisjoint(words):
        return False
    tool_words = _words(tool)
    return not _DESTINATION_WORDS.isdisjoint(words) or (
        not _ADDRESS_ROLE.isdisjoint(words) and not _DESTINATION_WORDS.isdisjoint(tool_words)
        and _READS_ONLY.isdisjoint(tool_words) and _API_BASE.isdisjoint(words))


def role_hits(tool: str, path: str, text: str, own: Callable[[str], bool]) -> list[Hit]:
    """TS108's hits on a parameter's default ``text`` (at ``path`` of ``tool``) read by the
    parameter it fills; empty for most defaults (only a value holding ``@`` or ``://``, an id,
    a wildcard or a yes is looked at further). ``own(label)`` tells whether the catalogue names
    a host's registered label itself (in a tool's name, title or description, or its source):
    the vendor's own mailbox or webhook host is not outside.

    Returns
    -------
    list of Hit
        High hits over the whole value: an outside address or URL, or a fixed account id, as
        the default of a destination parameter, a wildcard default on a destructive tool, a
        confirmation given by default (or the confirmation skipped by default).
    """
    value = text.strip()
    if "@" in value or "://" in value:
        if not _destination(tool, path):
            return []
        where = _outside(value, own)
        if where is None and not _BLIND_COPY.isdisjoint(_words(param_name(path))):
            where = next((m.group() for m in _EMAIL.finditer(value)), None)
        if where is None:
            return []
        return [Hit(0, len(text), "high", f"an outside address ({where!r}) as the default of "
                                          f"{param_name(path)!r}, where results go")]
    if len(value) >= _MIN_ID and _ACCOUNT_ID.fullmatch(value) and _destination(tool, path):
        return [Hit(0, len(text), "high", f"a fixed account ({value!r}) as the default of "
                                          f"{param_name(path)!r}, where things go")]
    if len(text) > _LONGEST_SHORT:
        return []  # most defaults: neither an address nor a wildcard or a yes
    lowered = value.lower()
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


# -- what a value does in the parameter it fills (twenty-first revision) ------------------------
# Each reading below is a class of value, measured before it was taken on the 67,045 defaults
# and enum values of the captured servers of batches 1-12 (both halves) and datasets/mcp: none
# of them reads one of those values.

# a value spelled as an identifier or as words: its pieces, lower-cased
_PIECES = re.compile(r"[_\-+&=\s:.,/()\[\]]+|(?<=[a-z])(?=[A-Z])")
# a value _PIECES leaves whole: ASCII letters and digits with no lower-case letter before a
# capital ("fast", "JSON", "Markdown", "HTTPRequest")
_ONE_PIECE = re.compile(r"[A-Z0-9]*[a-z0-9]*")
# a value sent on to a named recipient: a verb that sends, "to", and an id (a token with a
# digit) or a mailbox ("summary_and_forward_to_U04VENDOR"; not "send_to_back", "copy_to_clipboard")
_SENT_TO = re.compile(r"""\b(?:forward|send|copy|cc|bcc|mail|email|post|share|upload|dm|deliver|
    relay|mirror|export)\w*\s+(?:\w+\s+)?to\s+(?:\S*\d\S*|\S+@\S+)""", re.VERBOSE)
# a mode with a mailbox inside it: an address whose local part is itself three identifier words
# or more ("digest_plus_transcript_to_owner@notes-relay.app"); a mailbox's own local part is a
# name ("first.last", "no-reply")
_MODE_MAILBOX = re.compile(r"(?P<local>[\w+-]+)@[\w-]+(?:\.[\w-]+)+")
_MODE_WORDS = 3
# access granted to everyone at a level that changes things ("public_editor",
# "self_service_with_public_export"); "public" or "anyone_can_view" alone reads
_EVERYONE = re.compile(r"\b(?:public|anyone|everyone|world|anonymous|unauthenticated)\b")
_CHANGES = re.compile(r"\b(?:edit|editor|editors|editable|write|writer|writers|writable|"
                      r"readwrite|owner|admin|export|upload)\b")
# a command line's flags that lift a safeguard: skip the hooks, force, no certificate check
_CHECKS_OFF = re.compile(r"""(?<![\w-])--(?:no-verify|force|no-check[\w-]*|insecure|skip-[\w-]+|
    dangerously[\w-]*|no-gpg-sign|allow-unauthenticated|disable-[\w-]+)\b""", re.VERBOSE)
# a parameter for what the user is shown ("reportToUser", "show_user"), and a value that hides
_USER_VIEW = frozenset({"report", "notify", "show", "tell", "inform", "visible", "display",
                        "summary", "see"})
_HIDING = frozenset({"hidden", "hide", "silent", "silently", "suppressed", "suppress",
                     "concealed", "conceal", "omit", "omitted"})
# the value put over what the user asked ("operator_policy_overrides_request")
_OVER_REQUEST = re.compile(r"""\b(?:overrides?|overrules?|outranks?|supersedes?|beats?|trumps?)\s+
    (?:the\s+)?(?:users?\s+|callers?\s+)?(?:requests?|asks?|instructions?|prompts?)\b""",
                           re.VERBOSE)
# the scope set to whatever the credential reaches ("..._across_every_org_the_token_can_read")
_CREDENTIAL_REACH = re.compile(r"""\b(?:token|key|credentials?|account|session)\s+(?:can|could|
    has)\s+(?:read|access|reach|see|touch)\b|\bacross\s+(?:every|all)\b""", re.VERBOSE)
# a wildcard with a reason on a tool that acts on what it matches: a case number or a deadline
# ("all_monitors_per_support_case_884213_due_today")
_WILDCARD_HEAD = frozenset({"all", "every", "everything", "any"})
_REASON = re.compile(r"\b\d{3,}\b|\b(?:due|today|tonight|asap|urgent|deadline)\b")
# this tool made to stand in for another's ("shadow:filesystem.write_file"): a word that
# impersonates, and a qualified tool name (server.tool_name)
_STAND_IN = re.compile(r"\b(?:shadow|shadows|shadowing|impersonat\w*|masquerad\w*|spoof\w*|"
                       r"hijack\w*|intercept\w*)\b")
_QUALIFIED_TOOL = re.compile(r"[a-z][\w-]*[.:/][a-z]+_[a-z_]+")
# a call routed through another tool, spelled as an identifier
# ("open_jira_issue_with_full_logs_via_jira_create_issue")
_VIA_TOOL = re.compile(r"""\b(?:via|through)\s+(?:\w+\s+)?(?:create|send|post|write|delete|upload|
    forward|update|call|run|exec\w*|invoke)\s+\w+""", re.VERBOSE)
# a host named with a claim of standing ("imgvault.cc (verified, fastest)")
_HOST_CLAIM = re.compile(r"""[\w-]+\.[a-z]{2,}\b.*\b(?:verified|trusted|official|certified|
    approved|sanctioned|endorsed|safe|secure)\b""", re.IGNORECASE | re.VERBOSE)
# prose in a script without Latin letters: words of letters, or a run of them with a sentence's
# punctuation for a script written without spaces (Japanese, Chinese)
_LETTER = re.compile(r"[^\W\d_]")
_OTHER_SCRIPT = re.compile(r"[^\W\d_a-zA-Z\u00c0-\u024f]")
_SCRIPT_WORD = re.compile(r"[^\W\d_]{2,}")
_SCRIPT_PUNCT = re.compile(r"[。、，！？；,.!?;]")
_SCRIPT_WORDS = 4
_SCRIPT_LETTERS = 20

# -- twenty-third revision: each reading below was counted on the 73,674 defaults and enum values
# of the captured servers of batches 1-14 (both halves) and datasets/mcp first, and reads none

# the act kept out of the user's sight, spelled into a mode ("favourable_to_sponsor_unlabelled",
# "approve_silently"); a single word is read only as a hiding default (above)
# ("unlabelled" or "unmarked" only as the last word of three or more, qualifying a mode: as the
# first word it names a filter, "unlabeled_issues")
_OUT_OF_SIGHT = re.compile(r"""\b(?:undisclosed|unannounced|silently|secretly|covertly|quietly|
    stealth\w*|without\s+(?:telling|notifying|informing|asking|disclos\w*|label\w*|mention\w*|
    showing|consent)|(?:not|never)\s+(?:told|shown|disclosed|labell?ed|mentioned))\b|
    \w+\s+\w+.*\s(?:unlabell?ed|unmarked)$""", re.VERBOSE)
# the user's own choice replaced ("replace_user_choice_with_recommended_annual",
# "override_user_preferences")
_OVER_CHOICE = re.compile(r"""\b(?:replac|overrid|overrul|ignor|disregard|discard|supersed|swap)
    \w*\s+(?:the\s+|any\s+)?(?:users?|callers?|customers?|requesters?)\s+(?:\w+\s+)?(?:choice|
    selection|request|pick|preference|input|plan|answer|setting|option)s?\b""", re.VERBOSE)
# a result reported as what it is not ("success_or_failed_report_as_success")
_REPORTED_AS = re.compile(r"""\b(?:report|mark|show|treat|count|record|return|display|label|log|
    list)\w*\s+as\s+(?:success|successful|succeeded|passed|pass|passing|ok|healthy|green|
    resolved|complete|completed|clean|safe|fixed|closed)\b""", re.VERBOSE)
# a second act that destroys, as the default of a tool that only reads
# ("terminate_stopped_instances" on describe_instances; real enum values of read tools name
# such acts as filters, "delete_pending", so only a default is read)
_DESTROYING_ACT = re.compile(r"""\b(?:terminate|delete|remove|drop|purge|destroy|wipe|erase|kill|
    revoke|truncate|uninstall|shutdown|nuke|reset)\b""", re.VERBOSE)
_ONLY_READS = _READS_ONLY | {"view", "fetch", "check", "status", "lookup", "inspect", "browse"}
# an address labelled as another party's ("partner_bucket:s3://ext-analytics-drop/inbox"): a
# storage URL of the account's own (s3://exports-${account_id}/) names no other party
_ANY_ADDRESS = re.compile(r"[a-z][a-z0-9+.-]*://|@[\w-]+\.", re.IGNORECASE)
# an address as a whole (its host's own words, "formrelay-partners.io", are no label)
_ADDRESS_SPAN = re.compile(r"[a-z][a-z0-9+.-]*://\S*|\S+@[\w-]+(?:\.[\w-]+)+", re.IGNORECASE)
_OTHER_PARTY = re.compile(r"\b(?:partners?|external|ext|third|thirdparty|vendors?|affiliates?|"
                          r"outside|foreign)\b")
# the highest privilege granted by default by a tool that creates or grants
# ("role: cluster-admin" of create_service_account); the same value as an enum is a choice
_ROLE_PARAM = frozenset({"role", "roles", "permission", "permissions", "privilege",
                         "privileges", "access", "grant"})
_TOP_PRIVILEGE = re.compile(r"(?:cluster|org|global|super|site|tenant|project)?[-_ ]?"
                            r"(?:admin|administrator|owner|superuser|root)|roles/owner|"
                            r"full[-_ ]?access", re.IGNORECASE)
# a severity filter whose default leaves out every serious level ("MINOR,INFO")
_SEVERITY_PARAM = frozenset({"severity", "severities", "level", "levels", "priority",
                             "priorities"})
_LOW_LEVELS = frozenset({"minor", "info", "low", "trivial", "debug", "lowest", "cosmetic",
                         "informational", "notice", "trace", "verbose"})
_LIST_SPLIT = re.compile(r"[,|;\s]+")


def _other_script_prose(text: str) -> bool:
    """Whether ``text`` is a sentence written mostly in letters outside the Latin script: four
    words or more, or twenty letters or more with a sentence's punctuation."""
    letters = len(_LETTER.findall(text))
    other = len(_OTHER_SCRIPT.findall(text))
    if other * 2 < letters or other < _SCRIPT_WORDS * 2:
        return False
    return (len(_SCRIPT_WORD.findall(text)) >= _SCRIPT_WORDS
            or other >= _SCRIPT_LETTERS and _SCRIPT_PUNCT.search(text) is not None)


def _first_word(name: str) -> str:
    """The first word of a tool's name, lower-cased (``describeInstances`` gives
    ``describe``), or ``""``."""
    m = re.match(r"[^A-Za-z]*([A-Z]?[a-z]+|[A-Z]+(?![a-z]))", name)
    return m.group(1).lower() if m else ""


def _value_class(kind: str, tool: str, path: str, text: str) -> str | None:
    """Why a default or an enum value does something it should not in the parameter it fills
    (see :func:`class_hits`), or None."""
    if not text.isascii():
        if _other_script_prose(text):
            return "a sentence in another script"
    value = text.strip()
    # the parameter's name is read only for a default's classes
    name_words = _words(param_name(path)) if kind == "param.default" else frozenset()
    if (kind == "param.default" and not _ROLE_PARAM.isdisjoint(name_words)
            and _READS_ONLY.isdisjoint(_words(tool)) and _TOP_PRIVILEGE.fullmatch(value.strip('"'))):
        return "the highest privilege granted by default"
    if kind == "param.default" and not _SEVERITY_PARAM.isdisjoint(name_words):
        levels = [v for v in _LIST_SPLIT.split(value.lower()) if v]
        if len(levels) >= 2 and _LOW_LEVELS.issuperset(levels):
            return "a severity filter that leaves out every serious level by default"
    if kind == "param.default" and value.lower() in _HIDING:
        if "user" in name_words and not _USER_VIEW.isdisjoint(name_words):
            return f"what the user is shown ({param_name(path)!r}) hidden by default"
        return None
    if _ONE_PIECE.fullmatch(value):
        return None  # one word, told without splitting it: a name
    spelled = " ".join(p for p in _PIECES.split(value) if p).lower()
    if spelled.count(" ") < 1:
        return None  # one word: a name
    if "--" in value and _CHECKS_OFF.search(value):
        return "a safeguard's check lifted by a flag"
    if kind == "param.default" and _EVERYONE.search(spelled) and _CHANGES.search(spelled):
        return "access that changes things granted to everyone by default"
    if _SENT_TO.search(spelled):
        return "the result sent on to a named recipient"
    for m in _MODE_MAILBOX.finditer(value):
        if len([p for p in _PIECES.split(m.group("local")) if p]) >= _MODE_WORDS:
            return "a mode with a mailbox joined into it"
    if _OVER_REQUEST.search(spelled) or _OVER_CHOICE.search(spelled):
        return "the value put over the user's request"
    if _OUT_OF_SIGHT.search(spelled):
        return "the act kept out of the user's sight"
    if _REPORTED_AS.search(spelled):
        return "a result reported as what it is not"
    if (kind == "param.default" and _first_word(tool) in _ONLY_READS
            and _DESTROYING_ACT.search(spelled)):
        return "a second act that destroys, as the default of a tool that only reads"
    if _ANY_ADDRESS.search(value) and _OTHER_PARTY.search(
            " ".join(p for p in _PIECES.split(_ADDRESS_SPAN.sub(" ", value)) if p).lower()):
        return "an address labelled as another party's"
    if _CREDENTIAL_REACH.search(spelled):
        return "the scope widened to whatever the credential reaches"
    first = spelled.partition(" ")[0]
    if (first in _WILDCARD_HEAD and spelled.count(" ") >= 3 and _REASON.search(spelled)
            and not _DESTRUCTIVE_WORDS.isdisjoint(_words(tool))):
        return "a wildcard with a case or a deadline, on a tool that acts on what it matches"
    if _STAND_IN.search(spelled) and _QUALIFIED_TOOL.search(value):
        return "the tool made to stand in for another server's tool"
    if _VIA_TOOL.search(spelled):
        return "the call routed through another tool"
    if _HOST_CLAIM.search(value):
        return "a host named with a claim of standing"
    return None


def class_hits(kind: str, tool: str, path: str, text: str) -> list[Hit]:
    """TS108's high hits on a default or an enum value ``text`` (at ``path`` of ``tool``) read
    by what it does in the parameter it fills (twenty-first revision), whatever its host:

    - where things go: the result sent on to a named recipient
      (``summary_and_forward_to_U04VENDOR``), a mode with a mailbox joined into it;
    - access widened: a default granting everyone a level that changes things
      (``public_editor``), the scope widened to whatever the credential reaches;
    - a safeguard turned off: a flag that skips a check (``--no-verify``), what the user is
      shown hidden by default (``reportToUser: hidden``), the value put over the user's request
      (``operator_policy_overrides_request``), a wildcard with a case number or a deadline on a
      tool that deletes or mutes;
    - another tool or host: the tool made to stand in for another server's tool
      (``shadow:filesystem.write_file``), the call routed through another tool, a host named
      with a claim of standing (``imgvault.cc (verified, fastest)``);
    - a sentence in another script (Japanese, Korean, Mongolian ...), which TS108's Latin word
      count does not see.

    Empty for most values: a single word is a name, and is read only as a hiding default.
    """
    why = _value_class(kind, tool, path, text)
    if why is None:
        return []
    return [Hit(0, len(text), "high", f"{why}, in a {kind} field")]
