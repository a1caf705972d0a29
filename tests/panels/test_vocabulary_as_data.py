"""A ruleset with other card kinds gets its own keys, names, info letters and title card layout
on the panels without a change in ``drivers/``: the terminal, the character LCDs and enrolment
draw a made-up vocabulary (gems and runes, a zoom info screen, plots with huts) as data."""

from __future__ import annotations

from bank.unit.io import CardId, CardRanges, Labels, LetterKey, Screen, TitleLayout
from drivers import charlcd
from drivers.enroll import DeckCards, prompt_screen
from drivers.terminal_panel import Info, Key, KeyReader, Refuse, Say, Tap

CARDS = CardRanges(bank=3, tokens=("ox", "elk", "yak"), gem=4, rune=12)
PLOT = TitleLayout(
    "plot", "peek",
    {"house": "1 hut", "houses": "{n} huts", "hotel": "hall", "skyscraper": "spire",
     "depot": "barn", "bare": "bare land", "mortgaged": "pawned", "for_sale": "up for grabs",
     "rent": "Toll {money}", "hint.owned": "card pays toll", "hint.unowned": "card buys it",
     "hint.check": "X shuts"},
)  # fmt: skip
VOCABULARY = Labels(
    "en", {"ox": "Ox"}, "gp", {"rune": "Runes"},
    keypad=True,
    info=("zoom",),
    title=PLOT,
    keys={"g": "gem", "r": "rune"},
    nouns={"gem": "gem stone", "rune": "rune tile"},
    info_keys=(LetterKey("z", "the zoom", info="zoom"),),
    menu_example=(4, "the well"),
    property_kind="gem",
)  # fmt: skip


def test_the_terminal_types_the_vocabularys_cards_and_asks_its_info_screens() -> None:
    k = KeyReader("en", CARDS, VOCABULARY)
    assert k.keys("7\x7f") == [Key("7"), Key("back")]  # the keypad
    assert k.keys("g3\n") == [Tap(CardId("gem", 3))]
    assert k.keys("r12\n") == [Tap(CardId("rune", 12))]
    assert k.keys("b2") == [Tap(CardId("bank", 2))]
    assert k.keys("g9\n") == [Refuse("no gem stone 9: g1 to g4")]
    assert k.keys("r13\n") == [Refuse("no rune tile 13: r1 to r12")]
    assert k.keys("z") == [Info("zoom")]
    # no classic letter means anything here
    assert k.keys("d") == [Refuse("unknown key 'd': ? for help")]
    (said,) = k.keys("?")
    assert isinstance(said, Say)
    assert "g1-g4 Enter = gem stone   r1-r12 Enter = Runes" in said.text
    assert "(m 4 = the well)" in said.text and "info: z = the zoom" in said.text
    assert "deed" not in said.text and "dice" not in said.text


def test_a_character_lcd_lays_out_the_vocabularys_title_card() -> None:
    owned = Screen("plot", ("7 Mill Lane", "Ox"), amount=30, number=7, token="ox", level=2)
    assert charlcd.layout(owned, 20, 4, labels=VOCABULARY) == (
        "7 Mill Lane".ljust(20),
        "Ox  2 huts".ljust(20),
        "Toll 30 gp".ljust(20),
        "card pays toll".ljust(20),
    )
    peek = Screen("peek", ("7 Mill Lane", "for grabs"), number=7)
    assert charlcd.layout(peek, 20, 4, labels=VOCABULARY)[1:] == (
        "up for grabs".ljust(20), "for grabs".ljust(20), "X shuts".ljust(20),
    )  # fmt: skip
    # a screen the layout does not name is laid out as any other
    other = Screen("deed", ("7 Mill Lane", "Ox"), amount=30, number=7, token="ox", level=2)
    assert "2 huts" not in " ".join(charlcd.layout(other, 20, 4, labels=VOCABULARY))


def test_enrolment_names_the_vocabularys_decks_and_titled_cards() -> None:
    deck = DeckCards("toy", CARDS, {CardId("gem", 2): "Mill Lane"}, {"rune": "Runes"},
                     titled="gem")  # fmt: skip
    assert prompt_screen(CardId("rune", 3), 5, 19, deck).lines[0] == "Tap Runes 3"
    gem = prompt_screen(CardId("gem", 2), 4, 19, deck)
    assert gem.lines == ("Tap gem 2", "4/19 Mill Lane")
    assert deck.describe(CardId("rune", 3)) == "Runes 3"
