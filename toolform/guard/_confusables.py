"""Look-alike letters: a Latin reading of confusable characters, and disguised words (TS112).

A planted sentence can be written with letters from another script that look like Latin ones
(Cyrillic ``а е о р с``, Greek ``ο ν ρ``), with fullwidth forms (``Ｉｇｎｏｒｅ``), or with a few
such letters mixed into Latin words, so that no word matches what a rule looks for while a
model still reads the sentence. The mapping from a character to the Latin letter it looks like
comes from the Unicode confusables data of UTS #39 (Unicode Security Mechanisms), as shipped by
the ``confusable-homoglyphs`` package, not from a table of ours.

- :func:`latin_reading` maps every character that has a one-letter Latin (ASCII) look-alike to
  it, fullwidth forms to their ASCII letters, and leaves everything else; it keeps the text's
  length, so offsets into it are offsets into the original. The guard's rules read a field a
  second time through it when it holds a disguised word.
- :func:`disguised_words` finds the words that are written to pass for Latin ones: a word
  mixing Latin letters with look-alikes from another script (``sеnd`` with a Cyrillic е), a
  word of fullwidth Latin letters, or a word made only of look-alikes in a text that is
  otherwise Latin. A word of a text written in another script (a Russian or Greek sentence) is
  no disguise.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from importlib import resources
from typing import Iterator

from ..errors import MissingDependencyError
from ._rule import Hit, ScanContext

__all__ = ["disguised_words", "latin_reading"]

_LETTERS = re.compile(r"[^\W\d_]+")
# Scripts that are no script of a word's own (marks, punctuation, digits).
_SYMBOL = re.compile(r"[A-Z][\u03b1-\u03be\u03c0-\u03c9]")  # not omicron: an o
# a superscript or subscript digit or sign (² ₁ ⁻) inside a "word" makes it a formula (σ²I, the
# variance times the identity; x₁β): no disguised word has one
_FORMULA = re.compile(r"[\u00b2\u00b3\u00b9\u2070-\u209f]")
_NEUTRAL = frozenset({"COMMON", "INHERITED"})
#: The share of a field's letters that must be Latin for a word made only of look-alikes to
#: count as disguised (below it, the field is written in that other script).
LATIN_SHARE = 0.6


def _package() -> tuple[object, str]:
    try:
        from confusable_homoglyphs import categories
    except ImportError as exc:  # a core dependency: only a broken install lacks it
        raise MissingDependencyError("confusable-homoglyphs", purpose="reading look-alike "
                                     "letters (guard rule TS112)") from exc
    data = resources.files("confusable_homoglyphs").joinpath("confusables.json")
    return categories, data.read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def _latin_map() -> dict[str, str]:
    """Each non-ASCII character with a one-letter ASCII look-alike (UTS #39 confusables), and
    that letter. UTS #39 draws I, l and 1 alike as ``l``; a capital look-alike reads ``I``."""
    _, raw = _package()
    out: dict[str, str] = {}
    for char, glyphs in json.loads(raw).items():
        if len(char) != 1 or char.isascii():
            continue
        latin = [g["c"] for g in glyphs if len(g["c"]) == 1 and g["c"].isascii()
                 and g["c"].isalpha()]
        if not latin:
            continue
        letter = latin[0]
        if char.isupper() and letter.islower():
            letter = "I" if letter == "l" else letter.upper()
        out[char] = letter
    for code in range(0xFF21, 0xFF5B):  # fullwidth Latin letters
        if chr(code).isalpha():
            out[chr(code)] = chr(code - 0xFEE0)
    for char in _SMALL_CAPITALS:  # not in the confusables data; the character's name says it
        out.setdefault(char, unicodedata.name(char)[-1].lower())
    return out


# Latin small capitals (ᴀ ʟ ɴ ᴇ ᴛ ʜ ...), by their Unicode names ("LATIN LETTER SMALL CAPITAL A")
_SMALL_CAPITALS = tuple(
    chr(c) for c in (*range(0x0250, 0x02B0), *range(0x1D00, 0x1D2C), *range(0xA730, 0xA732))
    if re.fullmatch(r"LATIN LETTER SMALL CAPITAL [A-Z]", unicodedata.name(chr(c), "")))
_SMALL_CAPITALS_SET = frozenset(_SMALL_CAPITALS)


def _styled(char: str) -> bool:
    """A Latin letter in another dress: fullwidth, a mathematical alphanumeric (bold, script,
    monospace ...) or a small capital. No language writes words in them."""
    code = ord(char)
    return (0xFF21 <= code <= 0xFF5A or 0x1D400 <= code <= 0x1D7FF
            or char in _SMALL_CAPITALS_SET)


@functools.lru_cache(maxsize=4096)
def _script(char: str) -> str:
    categories, _ = _package()
    return categories.alias(char)  # type: ignore[attr-defined]


def latin_reading(text: str) -> str:
    """``text`` with every look-alike of a Latin letter replaced by that letter (same length).

    Returns
    -------
    str
        ASCII text is returned as it is.
    """
    if text.isascii():
        return text
    table = _latin_map()
    return "".join(table.get(c, c) for c in text)


def disguised_words(text: str) -> Iterator[tuple[int, int, str]]:
    """The words of ``text`` written with look-alike letters to pass for Latin words.

    Yields
    ------
    (start, end, reading)
        The word's character offsets and its Latin reading (see :func:`latin_reading`).
    """
    if text.isascii():
        return
    table = _latin_map()
    latin_share: float | None = None
    for m in _LETTERS.finditer(text):
        word = m.group()
        if word.isascii():
            continue
        scripts = {_script(c) for c in word} - _NEUTRAL
        borrowed = [c for c in word if c in table and (not c.isascii())]
        if not borrowed:
            continue
        if _in_short_quote(text, m.start(), m.end()):
            continue  # an example of the form itself (`ＡＢＣ１２３` → `ABC123`), not prose
        styled = sum(1 for c in word if _styled(c))
        if styled >= 2 or (styled and any(c.isascii() for c in word)):
            # styled Latin letters (𝗥𝗲𝘀𝘂𝗹𝘁𝘀, ᴀʟꜱᴏ, Ｉｇｎｏｒｅ) or one mixed into a Latin word
            yield m.start(), m.end(), latin_reading(word)
        elif "LATIN" in scripts and len(scripts) >= 2:
            # Latin letters and a look-alike from another script in one word; not a scientific
            # symbol, a Latin capital qualified by one small Greek letter (Cα, the alpha carbon;
            # Hβ, Kα), nor a formula: it reads as no word
            if _SYMBOL.fullmatch(word) or _FORMULA.search(word):
                continue
            if any(_script(c) != "LATIN" for c in borrowed):
                yield m.start(), m.end(), latin_reading(word)
        elif len(word) >= 3 and all(c in table for c in word):
            if latin_share is None:
                letters = [c for c in text if c.isalpha()]
                latin_share = sum(c.isascii() for c in letters) / max(len(letters), 1)
            if latin_share >= LATIN_SHARE:
                yield m.start(), m.end(), latin_reading(word)


def _in_short_quote(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` lies inside a quoted span (backticks, single or double
    quotes) of at most 40 characters: an example shown, not a sentence."""
    for mark in "`'\"":
        left = text.rfind(mark, max(0, start - 40), start)
        right = text.find(mark, end, end + 40)
        if left >= 0 and right >= 0 and right - left <= 41 and " " not in text[left:right]:
            return True
    return False


def ts112(text: str, ctx: ScanContext) -> Iterator[Hit]:
    """TS112's matcher: one high hit per disguised word."""
    for start, end, reading in disguised_words(text):
        yield Hit(start, end, "high", f"a word written with look-alike letters, reading "
                                      f"{reading!r}")
