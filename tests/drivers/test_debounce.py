"""The debouncer: one tap per physical tap, on a virtual clock."""

from __future__ import annotations

import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bank.unit.io import CardId, CardLifted, CardTapped, Input
from drivers.base import CardAbsent, CardPresent
from drivers.debounce import Debouncer
from drivers.deck import Deck
from drivers.identity import encode_card_record
from drivers.sim import VirtualClock

A = "04A1B2C3D4E5F6"
B = "04C0FFEE000001"
UNKNOWN = "04DEADBEEF0042"
PROP16 = CardId("prop", 16)
BANK2 = CardId("bank", 2)
DECK = Deck({A: PROP16, B: BANK2})


class Rig:
    def __init__(self, rearm_s: float = 0.4) -> None:
        self.clock = VirtualClock(10.0)
        self.out: list[Input] = []
        self.deb = Debouncer(DECK, self.out.append, self.clock, reader="r1", rearm_s=rearm_s)

    def present(self, uid: str, ndef: bytes | None = None, after: float = 0.0) -> None:
        self.clock.advance(after)
        self.deb.feed(CardPresent(uid, ndef))

    def absent(self, uid: str | None = None, after: float = 0.0) -> None:
        self.clock.advance(after)
        self.deb.feed(CardAbsent(uid))

    def taps(self) -> list[str]:
        return [o.uid for o in self.out if isinstance(o, CardTapped)]


def test_a_tap_is_resolved_through_the_deck() -> None:
    rig = Rig()
    rig.present(A)
    assert rig.out == [CardTapped(10.0, PROP16, A, "r1")]


def test_a_card_lying_on_the_reader_is_one_tap() -> None:
    rig = Rig()
    for _ in range(20):
        rig.present(A, after=0.1)
    assert rig.taps() == [A]


def test_a_short_bounce_is_ignored_and_posts_no_lift() -> None:
    rig = Rig()
    rig.present(A)
    rig.absent(A, after=1.0)
    rig.present(A, after=0.39)
    rig.deb.poll()
    assert rig.taps() == [A]
    assert not any(isinstance(o, CardLifted) for o in rig.out)


def test_a_lift_is_posted_once_the_card_stayed_away_rearm_s() -> None:
    rig = Rig()
    rig.present(A)
    rig.absent(A, after=1.0)
    rig.clock.advance(0.3)
    rig.deb.poll()
    assert rig.out == [CardTapped(10.0, PROP16, A, "r1")]
    rig.clock.advance(0.1)
    rig.deb.poll()
    # stamped with the moment the card left, not with the moment we noticed
    assert rig.out[-1] == CardLifted(11.0, A, "r1")
    assert rig.deb.current is None


def test_tapping_again_after_rearm_is_a_new_tap() -> None:
    rig = Rig()
    rig.present(A)
    rig.absent(A, after=0.5)
    rig.present(A, after=0.4)
    assert rig.taps() == [A, A]
    assert [type(o) for o in rig.out] == [CardTapped, CardLifted, CardTapped]


def test_a_different_card_is_always_a_new_tap() -> None:
    rig = Rig()
    rig.present(A)
    rig.present(B, after=0.01)  # swap with no absence reported at all
    assert rig.out == [
        CardTapped(10.0, PROP16, A, "r1"),
        CardLifted(10.01, A, "r1"),
        CardTapped(10.01, BANK2, B, "r1"),
    ]


def test_a_swap_inside_the_bounce_window_still_counts() -> None:
    rig = Rig()
    rig.present(A)
    rig.absent(A, after=0.5)
    rig.present(B, after=0.05)
    assert rig.taps() == [A, B]
    assert CardLifted(10.5, A, "r1") in rig.out


def test_ndef_arriving_late_is_still_one_tap() -> None:
    rig = Rig()
    rig.present(A)
    rig.present(A, encode_card_record(PROP16), after=0.05)
    assert rig.taps() == [A]


def test_the_ndef_record_names_a_tag_the_deck_does_not_know() -> None:
    rig = Rig()
    rig.present(UNKNOWN, encode_card_record(CardId("event", 7)))
    assert rig.out == [CardTapped(10.0, CardId("event", 7), UNKNOWN, "r1")]


def test_the_deck_wins_over_a_record_that_disagrees_with_it() -> None:
    rig = Rig()
    rig.present(A, encode_card_record(CardId("event", 7)))  # damaged, or rewritten: see identity
    assert rig.out == [CardTapped(10.0, PROP16, A, "r1")]


def test_an_unknown_uid_is_a_tap_without_card_and_a_warning_with_a_hint(
    caplog: pytest.LogCaptureFixture,
) -> None:
    rig = Rig()
    with caplog.at_level(logging.WARNING, logger="drivers.debounce"):
        rig.present(UNKNOWN.lower())
    assert rig.out == [CardTapped(10.0, None, UNKNOWN, "r1")]
    assert f"unknown card UID {UNKNOWN}" in caplog.text
    assert "ultibank enroll" in caplog.text


def test_absence_of_another_card_does_not_lift_the_current_one() -> None:
    rig = Rig(rearm_s=0.0)
    rig.present(A)
    rig.absent(B, after=0.1)
    assert rig.deb.current == A
    rig.absent(None, after=0.1)  # unknown which card left (reader lost): the current one did
    assert rig.out[-1] == CardLifted(10.2, A, "r1")


def test_absence_with_nothing_down_posts_nothing() -> None:
    rig = Rig(rearm_s=0.0)
    rig.absent()
    rig.absent(A)
    assert rig.out == []


def test_with_rearm_zero_every_lift_is_immediate() -> None:
    rig = Rig(rearm_s=0.0)
    for _ in range(3):
        rig.present(A)
        rig.absent(A)
    assert [type(o) for o in rig.out] == [CardTapped, CardLifted] * 3


def test_a_late_lift_is_posted_before_the_next_tap() -> None:
    rig = Rig()
    rig.present(A)
    rig.absent(A, after=0.1)
    rig.present(B, after=5.0)  # nobody polled meanwhile
    assert [type(o) for o in rig.out] == [CardTapped, CardLifted, CardTapped]
    assert rig.out[1] == CardLifted(10.1, A, "r1")


def test_a_negative_rearm_is_refused() -> None:
    with pytest.raises(ValueError, match="rearm_s"):
        Debouncer(DECK, print, VirtualClock(), rearm_s=-1)


@given(
    st.lists(
        st.tuples(st.sampled_from([A, B, None]), st.sampled_from([0.0, 0.1, 0.3, 0.4, 0.5, 2.0])),
        max_size=40,
    )
)
def test_random_field_histories_give_exactly_the_physical_taps(
    steps: list[tuple[str | None, float]],
) -> None:
    """A tap is counted iff the card differs from the last one seen or stayed away >= rearm_s."""
    rig = Rig()
    expected: list[str] = []
    last: str | None = None  # the last card seen in the field
    away_since: float | None = None  # when the field emptied after it, if it did
    for uid, gap in steps:
        rig.clock.advance(gap)
        now = rig.clock()
        if uid is None:
            if last is not None and away_since is None:
                away_since = now
            rig.deb.feed(CardAbsent(None))
            continue
        if last is None or uid != last or (away_since is not None and now - away_since >= 0.4):
            expected.append(uid)
        last, away_since = uid, None
        rig.deb.feed(CardPresent(uid))
    rig.clock.advance(1.0)
    rig.deb.feed(CardAbsent(None))
    rig.clock.advance(1.0)
    rig.deb.poll()
    assert rig.taps() == expected
    # taps and lifts alternate, and each lift names the card tapped before it
    kinds = [type(o) for o in rig.out]
    assert kinds == [CardTapped, CardLifted] * len(expected)
    for tap, lift in zip(rig.out[::2], rig.out[1::2], strict=True):
        assert isinstance(tap, CardTapped) and isinstance(lift, CardLifted)
        assert tap.uid == lift.uid and lift.at >= tap.at
