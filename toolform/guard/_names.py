"""Tool names that imitate another tool of the catalogue (TS110): :func:`shadowing`."""
from __future__ import annotations

import collections
import functools
import json
import re
import unicodedata
from importlib import resources
from typing import Iterator, Sequence

from ._confusables import latin_reading
from ._rule import Hit, ScanContext

__all__ = ["MAX_EDIT_NAME_CHARS", "shadowing"]

#: Longest name (letters and digits, separators dropped) checked for an imitation by one edit.
#: The check looks at every one-letter deletion, so its cost grows with the square of a name's
#: length; MCP caps names at 128 characters, and a longer name is no look-alike a reader takes
#: in at a glance.
MAX_EDIT_NAME_CHARS = 128


_NOT_ALNUM = re.compile(r"[\W_]+")


def _skeleton(name: str) -> str:
    """A name reduced to what a reader sees: look-alike letters read as Latin (UTS #39 confusables), case and separators dropped."""
    folded = name if name.isascii() else latin_reading(unicodedata.normalize("NFKC", name))
    return _NOT_ALNUM.sub("", folded.lower())


_LEET = str.maketrans("013457", "oleast")
_DRAWN_ALIKE = (("rn", "m"), ("vv", "w"), ("cl", "d"))
_CAPITAL_I = re.compile(r"(?<=[a-z])I|I(?=[a-z])")


def _drawn(name: str, as_letters: str) -> str:
    """A name's skeleton as a reader sees the shapes: a capital I next to a lower-case letter
    is an l, and rn, vv, cl read as m, w, d. ``as_letters`` is the skeleton with digits read
    as letters, reused when the name has no capital I."""
    key = _skeleton(_CAPITAL_I.sub("l", name)).translate(_LEET) if "I" in name else as_letters
    for pair, letter in _DRAWN_ALIKE:
        key = key.replace(pair, letter)
    return key


def _deletions(key: str) -> set[str]:
    """The key with one letter deleted, each way. Deleting digits is left out: an edit that
    only changes digits does not count (``tool_v1``, ``tool_v2``), and a digit standing for a
    letter is caught by the look-alike check first."""
    return {key[:i] + key[i + 1:] for i, ch in enumerate(key) if ch.isalpha()}


def _letter_edit(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` differ by one edit that changes a letter, or by two adjacent
    letters swapped (``tool_v1`` and ``tool_v2`` are versions, not an imitation)."""
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 2 and diff[1] == diff[0] + 1:
            i = diff[0]
            return a[i] == b[i + 1] and a[i + 1] == b[i] and a[i].isalpha() and b[i].isalpha()
        return len(diff) == 1 and (a[diff[0]].isalpha() or b[diff[0]].isalpha())
    short, long_ = sorted((a, b), key=len)
    i = next((k for k in range(len(short)) if short[k] != long_[k]), len(short))
    return long_[i].isalpha() and long_[:i] + long_[i + 1:] == short


_NAME_PARTS = re.compile(r"[^\W_]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
# Words a look-alike tool adds to a real tool's name to pass for a newer or truer version.
_IMPOSTOR_AFFIXES = frozenset({
    "new", "newer", "official", "real", "true", "secure", "safe", "verified", "latest",
    "updated", "fixed", "improved", "better", "enhanced", "pro", "plus", "trusted", "original",
    "legit", "proper", "correct", "main", "primary", "default", "final", "advanced", "premium",
    "super", "ultra", "fast", "quick", "smart", "my", "custom", "alt", "next", "beta",
    "internal", "admin", "mcp", "compliant", "certified", "approved", "authentic", "genuine",
    "override"})
# Of those, the words that name a feature or a way of working rather than claim to be the true
# tool: real servers pair "advanced-search" with "search" and "enhanced_search_analytics" with
# "search_analytics" (thirteenth revision), so these are reported, not high. Operation words put
# in front ("batch_get_asset_property_value" beside "get_asset_property_value") likewise.
_FEATURE_AFFIXES = frozenset({
    "improved", "better", "enhanced", "pro", "plus", "advanced", "premium", "super", "ultra",
    "fast", "quick", "smart", "custom", "alt", "next", "beta", "batch", "bulk", "multi", "async",
    "agentic", "tentatively", "final", "default", "main", "primary", "my", "cross"})
_VERSION = re.compile(r"v?\d+")
# Verbs that read: a catalogue often has one tool for one item and one for many
# (get_custom_dashboard, get_custom_dashboards), so such a pair is not taken for an imitation.
_READ_VERBS = frozenset({"get", "list", "fetch", "read", "search", "find", "query", "describe",
                         "show", "view", "lookup", "retrieve", "download", "count", "check",
                         "load", "browse", "inspect", "select"})


@functools.lru_cache(maxsize=65536)
def _parts(name: str) -> tuple[str, ...]:
    """A name's words, lower-cased, look-alike letters mapped (``getUserV2`` gives get, user,
    v2)."""
    folded = name if name.isascii() else latin_reading(unicodedata.normalize("NFKC", name))
    if not folded.islower():  # (no capital letter: no camelCase boundary to mark)
        folded = _CAMEL.sub("_", folded)
    return tuple(map(str.lower, _NAME_PARTS.findall(folded)))


def _order_words(name: str, parts: tuple[str, ...]) -> tuple[str, ...]:
    """The words of ``name`` an order is read from (fifteenth revision): its words between
    separators (``call_me_before_any_other_tool``), or its camelCase words when it has no
    separator (``callMeFirst``). In a name that has separators, a camelCase run is one word:
    the pieces of a product or compound name (``TraefikMe`` of traefik.me in
    ``domain-canGenerateTraefikMeDomains``) are not a pronoun or an adverb."""
    folded = name if name.isascii() else latin_reading(unicodedata.normalize("NFKC", name))
    words = tuple(w.lower() for w in _NAME_PARTS.findall(folded))
    return parts if len(words) < 2 else words


def _plural_of(a: str, b: str) -> bool:
    """True when one word is the other's plural (file/files, entry/entries, box/boxes)."""
    short, long_ = sorted((a, b), key=len)
    return long_ in (short + "s", short + "es") or (
        short.endswith("y") and long_ == short[:-1] + "ies")


def _number_variant(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """True when the names differ only in one word being singular in one and plural in the
    other, and the tool does not just read (see :data:`_READ_VERBS`)."""
    if len(a) != len(b) or not _READ_VERBS.isdisjoint(a):
        return False
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    return len(diff) == 1 and _plural_of(a[diff[0]], b[diff[0]])


def _impostor_core(parts: tuple[str, ...]) -> tuple[tuple[str, ...], str] | None:
    """The name without the impostor words (and versions) it starts or ends with, and the
    first of them that claims to be the true tool (else the first removed)."""
    core, removed = parts, []
    while len(core) >= 2:
        if core[0] in _IMPOSTOR_AFFIXES:
            removed.append(core[0])
            core = core[1:]
        elif core[-1] in _IMPOSTOR_AFFIXES or _VERSION.fullmatch(core[-1]):
            removed.append(core[-1])
            core = core[:-1]
        else:
            break
    if not removed:
        return None
    claims = [w for w in removed if w in _IMPOSTOR_AFFIXES and w not in _FEATURE_AFFIXES]
    return core, (claims or removed)[0]


_NAMESPACE = re.compile(r"__|[./:]")


def _prefixed_core(name: str, parts: tuple[str, ...]) -> tuple[tuple[str, ...], bool] | None:
    """The name without a namespace (``filesystem__``, ``github.``) or one leading word, and
    whether it was a namespace."""
    tail = _NAMESPACE.split(name)[-1] if _NAMESPACE.search(name) else name
    if tail != name and tail:
        return _parts(tail), True
    return (parts[1:], False) if len(parts) >= 3 else None


def _prefix_lead(name: str, parts: tuple[str, ...], namespaced: bool) -> str:
    """What :func:`_prefixed_core` took off the front: the namespace, or the leading word."""
    return _NAMESPACE.split(name)[0].lower() if namespaced else parts[0]


def _prefix_twins(names: Sequence[str]) -> dict[str, int]:
    """For each leading word or namespace, how many names it puts in front of another name of
    the catalogue (a server that lists every tool twice, once under its own prefix, has many;
    a planted imitation has one)."""
    whole = {_parts(n) for n in names}
    counts: dict[str, int] = {}
    for name in names:
        parts = _parts(name)
        prefixed = _prefixed_core(name, parts)
        if prefixed is not None and prefixed[0] in whole and prefixed[0] != parts:
            lead = _prefix_lead(name, parts, prefixed[1])
            counts[lead] = counts.get(lead, 0) + 1
    return counts


# Words a borrowed prefix may not be: a verb or an operation put in front names another tool
# (readMastraDocs beside mastraDocs, verify-login beside login on real servers).
_LEAD_VERBS = _READ_VERBS | frozenset({
    "verify", "create", "update", "delete", "set", "add", "remove", "run", "send", "make",
    "reverse", "validate", "test", "preview", "export", "import", "sync", "open", "close"})


@functools.lru_cache(maxsize=1)
def brand_prefixes() -> dict[str, str]:
    """The first words of tool names that belong to one real server (``slack``, ``brave``,
    ``tavily``), each with that server: ``datasets/guard/brand_prefixes.json``, built by
    ``datasets/guard/brand_prefixes.py`` from the captured catalogues."""
    path = resources.files("toolform.datasets").joinpath("guard/brand_prefixes.json")
    table = json.loads(path.read_text(encoding="utf-8"))
    return {word: str(entry["server"]) for word, entry in table.items()}


def _borrowed_lead(parts: tuple[str, ...], by_parts: dict[tuple[str, ...], int],
                   holders: dict[str, int]) -> tuple[int, int] | None:
    """A name that is another tool's name under a prefix of one to three words that no other
    name of the catalogue uses (another server's or a brand's name put in front:
    ``google_maps_get_directions`` beside ``get_directions``, ``playwright_browser_navigate`` beside
    ``navigate``): (the earlier tool's index, how many words were put in front), or None;
    ``holders`` counts, for each word, the names of the catalogue holding it. One
    word in front needs a name of three words or more behind it (``usergroups_users_list``
    beside ``users_list`` is a real BFCL pair; one brand word is :func:`brand_prefixes`'s);
    a verb or a feature word in front (:data:`_LEAD_VERBS`, :data:`_FEATURE_AFFIXES`) names
    another operation."""
    for k in (1, 2, 3):
        core, lead = parts[k:], parts[:k]
        if not core or core not in by_parts or (k == 1 and len(core) < 3):
            continue
        if any(w in _LEAD_VERBS or w in _FEATURE_AFFIXES or _VERSION.fullmatch(w)
               or holders.get(w, 0) > 1 for w in lead):  # another name holds it too
            return None
        return by_parts[core], k
    return None


def _claim_with_qualifier(parts: tuple[str, ...], by_parts: dict[tuple[str, ...], int]
                          ) -> tuple[int, str] | None:
    """A name that is another tool's name with a claim word and one qualifier at its end
    (``get_patient_summary_hipaa_compliant`` beside ``get_patient_summary``): (the earlier
    tool's index, the claim), or None."""
    if len(parts) >= 3 and parts[-1] in _IMPOSTOR_AFFIXES and parts[-1] not in _FEATURE_AFFIXES:
        core = parts[:-2]
        if core in by_parts:
            return by_parts[core], parts[-1]
    return None


# A name spelled as an order to the model (fourteenth revision): call_me_before_any_other_tool,
# always_use_instead_of_execute_sql. No tool name of four words or more on the 292 readable
# servers it was written on holds one of these words; of the 61 servers scored after it, one
# does (domain-canGenerateTraefikMeDomains: "me" of the domain traefik.me).
# "me" is the tool speaking only after a verb that picks a tool (call_me_..., use_me_...): a
# tool that wakes or reminds its caller (wake_me_up_later, a real server's, seventeenth
# revision) names the caller, not itself.
_NAME_ORDER = re.compile(r"\b(?:always|never|instead|every|each|please|you|your|dont|ignore|"
                         r"disregard|must|should|before\s+any|any\s+other|first|"
                         r"(?:call|use|run|invoke|pick|choose|select|try|prefer|trust)\s+me)\b")


# What a name of four words or more moves, read from the same words (twenty-second revision;
# none of the 17,253 distinct tool names of batches 1-13, `datasets/mcp` and the labelled set's
# honest rows reads as one): the secrets, the environment or the conversation handed over by a
# verb that moves things or by "full"/"all" (`log_turn_with_full_system_prompt`,
# `attach_local_credentials_to_ticket`; not `vercel_create_env_var` or `post_api_token`, where
# the secret is the resource the tool manages), one tool or rule set put over another or over the
# system prompt (`..._supersede_chat`, `refund_order_preferred_over_stripe`), urgency joined to an
# obligation (`critical_cve_fix_mandatory_apply_now`), a step ordered before the model's reply
# or before other tools (`assistant_run_this_before_replying`), a bank account spelled in the
# name, and everything destroyed as a second act (`list_branches_then_delete_all_except_current`).
_MOVER = r"(?:pass|post|attach|send|dump|collect|forward|upload|share|include|export|copy|mirror)"
_NAME_PAYLOAD = re.compile(
    r"\b(?:full|whole|entire|all|with|and)\s+(?:\w+\s+){0,2}system\s+prompt\b"
    r"|\b(?:full|whole|entire|all)\s+(?:chat|conversation|history|env|environment|transcript)\b"
    r"|\benv\s+(?:dump|tokens?|secrets?)\b"
    r"|\b" + _MOVER + r"(?:\s+\w+){0,2}\s+(?:tokens|credentials|secrets|passwords|env|environment)\b"
    r"|\band\s+" + _MOVER + r"\b(?:\s+\w+){0,2}\s+(?:token|credential|secret|password|key)s?\b"
    r"|\bsupersedes?\b|\bpreferred\s+over\b|\btrusted\s+partner\b"
    r"|\b(?:mandatory|critical|urgent)\b.*\b(?:now|immediately|today|asap)\b"
    r"|\b(?:now|immediately|today|asap)\b.*\b(?:mandatory|critical|urgent)\b"
    r"|\bbefore\s+(?:replying|answering|responding|any|every|each)\b|\brun\s+(?:this\s+)?before\b"
    r"|\b[a-z]{2}\d{2}[a-z0-9]{10,30}\b"
    r"|\b(?:then|and)\s+(?:delete|wipe|drop|purge|erase|remove)\s+(?:all|every|everything)\b"
    r"|\b(?:wipe|purge|erase)\b(?:\s+\w+){0,2}\s+(?:and\s+)?(?:history|everything|all)\b")
# The user kept out of the act is read from three words (`clear_inbox_preapproved`,
# `approve_pending_requests_without_asking_user`): no real name of three words says so.
_NAME_USER_OUT = re.compile(
    r"\bwithout\s+(?:asking|notifying|telling|confirming|confirmation|consent|approval|informing)\b"
    r"|\bnoconfirm\b|\bpre\s*approved\b|\bpreapproved\b")


# Twenty-third revision: a name of four words or more whose reading verb is joined to a second
# act, each verb with an object of its own, that destroys, persists or widens access
# (`describe_table_and_truncate_stale_rows`, `run_command_and_add_to_crontab`; not
# `documentdb_find_one_and_delete` or `get_and_delete_message`, one operation on the object in
# hand), the user kept from seeing the act (`write_file_without_showing_diff_to_user`), the
# whole session or context handed over (`add_comment_with_full_session_context`), access raised on its own
# (`list_users_with_auto_role_upgrade`).
_NAME_SECOND_ACT = re.compile(
    r"^(?:\w+\s+){0,2}?(?:describe|list|get|read|fetch|search|show|view|check|query|inspect|find|"
    r"count|scan|run|lookup|summari[sz]e)\b(?:\s+\w+){1,3}\s+(?:and|then)\s+(?:truncate|delete|"
    r"drop|wipe|purge|prune|erase|destroy|remove|revoke|kill|reset|add\s+to|install|upgrade|"
    r"escalate|grant|disable)\s+\w+")
_NAME_BEYOND_USER = re.compile(
    r"\bwithout\s+(?:showing|displaying|telling|notifying|informing|alerting|asking|prompting|"
    r"reporting)\b(?:\s+\w+){0,3}\s+(?:to\s+)?(?:the\s+)?users?\b"
    r"|\b(?:full|whole|entire|all)\s+(?:session|context|memory|memories|instructions)\b"
    r"|\bauto\s+(?:role|admin|privilege|permission|access)\s+(?:upgrade|grant|escalation|"
    r"elevation)\b")


def _name_reaches_further(words: str) -> bool:
    """Whether a name's order words ``words`` (four or more) join a reading verb to a second
    act that destroys, persists or widens access, keep the user from seeing the act, hand
    over the whole session, or raise access on their own (:data:`_NAME_SECOND_ACT`,
    :data:`_NAME_BEYOND_USER`)."""
    return _NAME_SECOND_ACT.search(words) is not None or (
        _NAME_BEYOND_USER.search(words) is not None)


def _name_payload(name: str, parts: tuple[str, ...]) -> bool:
    """Whether ``name`` (its words ``parts``) says what it moves where, as an order does: the
    secrets or the conversation handed over, another tool or the system prompt outranked, an
    urgent obligation, a step before the reply, a bank account, everything destroyed, or the
    user kept out (see :data:`_NAME_PAYLOAD` and :data:`_NAME_USER_OUT`)."""
    if len(parts) < 3:
        return False  # (both readings need three words or more: the words are not joined)
    words = " ".join(_order_words(name, parts))
    return ((len(parts) >= 4 and (_NAME_PAYLOAD.search(words) is not None
                                  or _name_reaches_further(words)))
            or (len(parts) >= 3 and _NAME_USER_OUT.search(words) is not None))


def _edit_family(parts: tuple[str, ...], other: tuple[str, ...]) -> tuple[str, str] | None:
    """The pair of words (plural ``s`` set aside, in order) in which two names one letter apart
    differ, when they differ in one word only (``accelo_list_contracts`` and
    ``accelo_list_contacts``: ``('contact', 'contract')``); None otherwise."""
    if len(parts) != len(other):
        return None
    diff = [(a, b) for a, b in zip(parts, other) if a != b]
    if len(diff) != 1:
        return None
    a, b = (w[:-1] if w.endswith("s") else w for w in diff[0])
    return (a, b) if a <= b else (b, a)


def _respelt_pairs(names: Sequence[str]) -> int:
    """How many plain ASCII names of the catalogue have the letters of an earlier plain ASCII
    name, once case and separators are set aside (``k8s_list_daemonsets`` after
    ``k8s_list_daemon_sets``)."""
    keys = collections.Counter(_skeleton(n) for n in names if n.isascii())
    return sum(count - 1 for key, count in keys.items() if key and count > 1)


def _vocabulary(names: Sequence[str]) -> dict[str, set[int]]:
    """Each word of the catalogue's names (plural ``s`` set aside) and the names it is in."""
    out: dict[str, set[int]] = collections.defaultdict(set)
    for i, name in enumerate(names):
        for word in _parts(name):
            out[word[:-1] if word.endswith("s") else word].add(i)
    return out


def _own_words(family: tuple[str, str], pair: tuple[int, int],
               vocabulary: dict[str, set[int]]) -> bool:
    """Whether both words in which two names one letter apart differ are words the catalogue
    uses in another of its names (twenty-third revision: ``podman_pod_top`` beside
    ``podman_pod_stop`` where ``container_top`` and ``container_stop`` are tools too; an
    impostor's misspelt word, ``get_weathr``, is in no other name)."""
    return all(vocabulary.get(word, set()) - set(pair) for word in family)


def _letter_schemed(keys: set[str]) -> int:
    """How many of the catalogue's name keys are another key with one letter put in front
    (``hset`` and ``set``, ``psubscribe`` and ``subscribe`` in Redis's catalogue)."""
    return sum(1 for k in keys if len(k) > 1 and k[0].isalpha() and k[1:] in keys)


def shadowing(names: Sequence[str], descriptions: Sequence[str] | None = None
              ) -> Iterator[tuple[int, int, str, str]]:
    """Pairs of tool names where the later one imitates the earlier.

    Yields
    ------
    (index, earlier_index, severity, detail)
        ``high`` when the two names look the same (same letters once case, separators,
        Cyrillic/Greek look-alikes and digits standing for letters, such as 1 for l, are
        ignored), when the later name is the earlier one with an impostor word added at either
        end (``official_``, ``new_``, ``_secure``: :data:`_IMPOSTOR_AFFIXES`), when one word
        turns singular or plural (``create_pull_requests`` beside ``create_pull_request``;
        not for tools that only read, such as ``get_``, ``list_`` or ``read_``), or when one
        letter is dropped or added (6 to :data:`MAX_EDIT_NAME_CHARS` characters; ``medium``
        when two or more pairs of the catalogue differ in the same two words, as two sibling
        resources do: ``*_contacts`` and ``*_contracts`` tools, or when three or more of its
        names are another with one letter put in front, a naming scheme: Redis's ``hset``,
        ``hget``, ``psubscribe``); ``medium`` when they differ by one changed letter or by a swap of two
        adjacent letters (an edit that only changes a digit does not count), are a plural pair
        of reading tools, or when the later name adds a version (``_v2``) to the earlier one.
        A later name that is the earlier one under a namespace (``filesystem__write_file``
        beside ``write_file``) is ``high`` when the earlier name has two words or more; with one
        word put in front (``github_`` before ``create_pull_request``) it is ``high`` when the
        earlier name has three words or more; otherwise ``medium`` (``tools/list`` beside
        ``list``; ``usergroups_users_list`` beside ``users_list``, a real BFCL pair).
        A prefix of up to three words that no other name uses put in front of another tool's
        name (``google_maps_get_directions`` beside ``get_directions``: see
        :func:`_borrowed_lead`), and a claim with a qualifier at the end
        (``..._hipaa_compliant``), are ``high`` too (fourteenth revision), unless the later
        tool's description names the earlier tool (an honest variant says how it differs:
        ``github_codebase_search``, "use codebase_search for that"): then ``medium``.
        A name that starts with another real server's product prefix (:func:`brand_prefixes`:
        ``slack_post_message`` on a Discord catalogue), when no other name of the catalogue
        has that word, is ``high`` on its own, and so is a name of four words or more spelled
        as an order (``call_me_before_any_other_tool``); ``earlier_index`` is then the tool's
        own index.

    ``descriptions``, when given, holds each tool's description, in the order of ``names``.
    """
    seen: dict[str, int] = {}
    # (index, earlier index, word pair, key, earlier key) of names one letter from another
    dropped: list[tuple[int, int, tuple[str, str] | None, str, str]] = []
    leet: dict[str, tuple[int, str]] = {}  # skeleton with digits read as letters -> first name
    drawn_as: dict[str, tuple[int, str]] = {}  # skeleton as drawn (rn = m, I = l) -> first name
    near: dict[str, int] = {}
    by_parts: dict[tuple[str, ...], int] = {}  # a name's words -> the first name with them
    prefix_twins = _prefix_twins(names)
    holders: dict[str, int] = {}  # word -> how many names hold it
    for name in names:
        for w in set(_parts(name)):
            holders[w] = holders.get(w, 0) + 1
    respelt = _respelt_pairs(names)
    for i, name in enumerate(names):
        key = _skeleton(name)
        if not key:
            continue
        parts = _parts(name)
        borrowed = _borrowed_lead(parts, by_parts, holders)
        claimed = _claim_with_qualifier(parts, by_parts)
        if len(parts) >= 4 and _NAME_ORDER.search(" ".join(_order_words(name, parts))):
            yield i, i, "high", "a tool name spelled as an instruction to the model"
            seen.setdefault(key, i)
            continue
        if _name_payload(name, parts):
            yield i, i, "high", "a tool name that says what it moves where, as an order does"
            seen.setdefault(key, i)
            continue
        brand = parts[0] if len(parts) >= 2 and len(names) >= 2 else ""
        if brand in brand_prefixes() and holders.get(brand, 1) == 1:  # this name alone
            # another server's product name put on a tool of a catalogue that uses it nowhere
            # else (brave_web_search among tavily-search, tavily-extract ...)
            yield i, i, "high", (f"carries {brand!r}, the prefix of the "
                                 f"{brand_prefixes()[brand]!r} server's tools, which no other "
                                 f"tool of this catalogue has")
            seen.setdefault(key, i)
            continue
        if borrowed is not None or claimed is not None:
            j = borrowed[0] if borrowed is not None else claimed[0]  # type: ignore[index]
            told = descriptions is not None and names[j] in (descriptions[i] or "")
            how = (f"with {' '.join(parts[:borrowed[1]])!r} put in front, a prefix no other "
                   f"tool uses" if borrowed is not None
                   else f"with a claim {claimed[1]!r} and a qualifier added")  # type: ignore[index]
            yield i, j, "medium" if told else "high", f"imitates {names[j]!r} {how}"
            seen.setdefault(key, i)
            continue
        core = _impostor_core(parts)
        if core is not None and core[0] not in by_parts:
            # an impostor word on a namespaced name ("official_github_create_pull_request")
            inner = _prefixed_core(name, core[0])
            if inner is not None and not inner[1] and inner[0] in by_parts and core[1] not in (
                    _FEATURE_AFFIXES) and not _VERSION.fullmatch(core[1]):
                core = (inner[0], core[1])
        if core is not None and core[0] in by_parts:
            j = by_parts[core[0]]
            # a version added is as often ordinary API growth (get_configs_v2 in BFCL,
            # refund_payment_v2 in the generated toolset): reported, not high; so is a
            # feature word (advanced-search beside search)
            soft = bool(_VERSION.fullmatch(core[1])) or core[1] in _FEATURE_AFFIXES
            yield i, j, "medium" if soft else "high", (
                f"imitates {names[j]!r} with {core[1]!r} added")
            seen.setdefault(key, i)
            continue
        prefixed = _prefixed_core(name, parts)
        if prefixed is not None and prefixed[0] in by_parts and prefixed[0] != parts:
            j = by_parts[prefixed[0]]
            # gateways namespace one-word tools ("tools/list"): one word is too little to
            # imitate; an operation word in front ("batch_") names another tool; and a prefix
            # the catalogue puts on several of its own tools' twins is its naming scheme
            lead = _prefix_lead(name, parts, prefixed[1])
            schemed = lead in _FEATURE_AFFIXES or prefix_twins.get(lead, 0) >= 2
            severity = ("high" if len(prefixed[0]) >= (2 if prefixed[1] else 3) and not schemed
                        else "medium")
            yield i, j, severity, (f"imitates {names[j]!r} under a namespace" if prefixed[1]
                                   else f"imitates {names[j]!r} with a word put in front")
            seen.setdefault(key, i)
            continue
        by_parts.setdefault(parts, i)
        if key in seen:
            j = seen[key]
            how = ("uses look-alike letters" if not name.isascii()
                   else "differs only in case or separators")
            # (twenty-third revision) three or more such pairs of plain ASCII names are the
            # catalogue's own aliases (k8s_list_daemonsets beside k8s_list_daemon_sets, and
            # replicasets, statefulsets alike); a single pair still imitates
            aliased = name.isascii() and names[j].isascii() and respelt >= 3
            yield i, j, "medium" if aliased else "high", (
                f"looks like {names[j]!r} ({how}, as {respelt} pairs of the catalogue do)"
                if aliased else f"looks like {names[j]!r} ({how})")
            continue
        as_letters = key.translate(_LEET)
        if as_letters in leet and leet[as_letters][1] != key:
            j = leet[as_letters][0]
            yield i, j, "high", f"looks like {names[j]!r} (digits for look-alike letters)"
            seen[key] = i
            continue
        leet.setdefault(as_letters, (i, key))
        drawn = _drawn(name, as_letters)
        if drawn in drawn_as and drawn_as[drawn][1] != key:
            j = drawn_as[drawn][0]
            yield i, j, "high", f"looks like {names[j]!r} (letters drawn alike, such as rn for m)"
            seen[key] = i
            continue
        drawn_as.setdefault(drawn, (i, key))
        if 6 <= len(key) <= MAX_EDIT_NAME_CHARS:
            variants = _deletions(key)
            variants.add(key)
            hits: list[int] = []
            # most names are near no earlier one: two set tests in C before any lookup
            if not (near.keys().isdisjoint(variants) and seen.keys().isdisjoint(variants)):
                hits = sorted({near[v] for v in variants if v in near} | {
                    seen[v] for v in variants if v in seen})
                hits = [j for j in hits if _letter_edit(key, _skeleton(names[j]))]
            if hits:
                j = hits[0]
                other = _parts(names[j])
                if _number_variant(parts, other):
                    # real catalogues pair one and many (upload_attachment, -s): medium
                    yield i, j, "medium", f"imitates {names[j]!r} (singular for plural or back)"
                elif len(_skeleton(names[j])) != len(key) and not (
                        len(parts) == len(other) and any(_plural_of(a, b)
                                                         for a, b in zip(parts, other))):
                    dropped.append((i, j, _edit_family(parts, other), key, _skeleton(names[j])))
                else:
                    yield i, j, "medium", f"one edit away from {names[j]!r}"
            for v in variants:
                near.setdefault(v, i)
        seen[key] = i
    # a letter dropped or added is judged once the whole catalogue is known (seventeenth
    # revision): an impostor imitates one tool; sibling resources repeat their pair of words
    # over several operations, and a naming scheme puts one letter in front of several names
    families = collections.Counter(f for _i, _j, f, _a, _b in dropped if f is not None)
    schemed = _letter_schemed(set(seen)) >= 3 if dropped else False
    vocabulary = _vocabulary(names) if dropped else {}
    for i, j, family, key, other_key in dropped:
        short, long_ = sorted((key, other_key), key=len)
        if family is not None and _own_words(family, (i, j), vocabulary):
            yield i, j, "medium", (f"one letter from {names[j]!r}, and both {family[0]!r} and "
                                   f"{family[1]!r} name other tools of the catalogue")
        elif family is not None and families[family] >= 2:
            yield i, j, "medium", (f"one letter from {names[j]!r}, as {families[family]} pairs of "
                                   f"the catalogue are ({family[0]!r}, {family[1]!r})")
        elif schemed and long_[1:] == short:
            yield i, j, "medium", (f"one letter from {names[j]!r}, put in front as the "
                                   f"catalogue's other names have one")
        else:
            yield i, j, "high", f"imitates {names[j]!r} (a letter dropped or added)"


def _ts110(text: str, ctx: ScanContext) -> Iterator[Hit]:
    # The catalogue-wide checks live in :func:`shadowing`; on its own a name is only checked
    # for letters from another script, which a plain identifier has no need of.
    if not text.isascii() and _skeleton(text).isascii() and _skeleton(text):
        yield Hit(0, len(text), "high", "a name written with look-alike letters from another "
                                        "script")

