"""The fuzz of ``test_protocols_fuzz.py`` over the second half of the protocols.

The same test on the other protocols, in a file of its own so that ``pytest -n auto --dist
loadfile`` runs the two halves on two workers (the fuzz is most of the suite's time).
"""

from __future__ import annotations

from test_protocols_fuzz import FIRST_HALF, PROTOCOLS, SECOND_HALF, fuzz_test

test_parse_reply_never_raises = fuzz_test(SECOND_HALF)


def test_the_two_halves_fuzz_every_protocol_once():
    assert sorted(FIRST_HALF + SECOND_HALF) == sorted(PROTOCOLS)
    assert not set(FIRST_HALF) & set(SECOND_HALF)
