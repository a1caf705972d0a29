"""The character LCD in classic mode: every classic screen the unit shows in the classic
scenarios (tests/scripts/classic/*.expect, French and English) laid out on a 20x4 and a 16x2
HD44780, with the edition's token labels, the currency and the icons as words; the deed's own
20x4 layout (docs/classic.md §5.6)."""

from __future__ import annotations

import re
import shlex
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bank.app.runtime import panel_labels
from bank.unit.io import Icon, Screen
from board_assets import load_edition
from drivers import charlcd
from drivers.charlcd import Labels
from tests.panels.mega_screens import (
    FORCE_LOST,
    SKYSCRAPER_BUILT,
    depot_deed,
    skyscraper_deed,
)

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "tests" / "scripts" / "classic").glob("*.expect"))
_LINE = re.compile(r"^\s*[\d.]+ screen (\S+)(.*)$")


def parse_screen(line: str) -> Screen | None:
    """The screen of a transcript line (``Screen.text()`` read back), None for a cue."""
    m = _LINE.match(line)
    if m is None:
        return None
    name, rest = m.groups()
    head, _, text = rest.partition(" | ")
    fields: dict[str, object] = {}
    for part in head.split():
        if part.startswith("#"):
            fields["number"] = int(part[1:])
        elif part.startswith("["):
            fields["token"] = part[1:-1]
        elif part.startswith("{"):
            fields["icons"] = frozenset(Icon(i) for i in part[1:-1].split(","))
        elif re.fullmatch(r"L\d+", part):
            fields["level"] = int(part[1:])
        elif re.fullmatch(r"\d+s", part):
            fields["countdown"] = int(part[:-1])
        else:
            fields["amount"] = int(part)
    lines = tuple(text.split(" / ")) if text else ()
    return Screen(name, lines, off=name == "off", **fields)  # type: ignore[arg-type]


def edition_of(expect: Path) -> str:
    tap = expect.with_suffix(".tap").read_text(encoding="utf-8")
    args = next(line for line in tap.splitlines() if line.startswith("# args:"))
    words = shlex.split(args.removeprefix("# args:"))
    return words[words.index("--edition") + 1] if "--edition" in words else "ultime-fr"


@cache
def classic_screens() -> list[tuple[str, Screen]]:
    """Every distinct classic screen of the scenarios, with its edition."""
    seen: dict[tuple[str, Screen], None] = {}
    for expect in SCENARIOS:
        edition = edition_of(expect)
        if load_edition(edition).ruleset != "classic":
            continue
        for line in expect.read_text(encoding="utf-8").splitlines():
            screen = parse_screen(line)
            if screen is not None:
                seen[(edition, screen)] = None
    return list(seen)


def labels_of(edition: str) -> Labels:
    ed = load_edition(edition)
    return panel_labels(ed, ed.language)


def test_the_scenarios_show_every_kind_of_classic_screen() -> None:
    kinds = {screen.name for _, screen in classic_screens()}
    for kind in ("deed", "entry", "pick", "menu", "trade", "interest", "dice", "card", "debt"):
        assert kind in kinds
    assert {e for e, _ in classic_screens()} >= {"classic-fr", "classic-uk"}


def _numbers(text: str) -> list[str]:
    return re.findall(r"\d+", text)


@pytest.mark.parametrize(("cols", "rows"), [(20, 4), (16, 2)])
def test_every_classic_screen_is_readable_on_the_character_lcd(cols: int, rows: int) -> None:
    """Within the glass, in the A00 ROM's characters, and no number of the text lost: an
    amount, a deed, a dice total or a count is what a player reads off the box."""
    for edition, screen in classic_screens():
        out = charlcd.layout(screen, cols, rows, glyphs=True, labels=labels_of(edition))
        assert len(out) == rows, screen
        for row in out:
            assert len(row) == cols, (screen, out)
            assert all((" " <= ch <= "}" and ch != "\\") or ch < "\x08" for ch in row), out
        if screen.off:
            continue
        shown = " ".join(out)
        for line in screen.lines:
            for number in _numbers(charlcd.fold(line)):
                assert number in shown, (screen, out)


def test_a_20x4_keeps_every_text_line_whole() -> None:
    """Four rows are room enough: each line of the unit is on the glass as it is written
    (the deed's own layout says the same things in its own words, below)."""
    for edition, screen in classic_screens():
        if screen.name in ("deed", "info") and screen.number is not None:
            continue
        out = charlcd.layout(screen, 20, 4, glyphs=False, labels=labels_of(edition))
        rows = [row.rstrip() for row in out]
        for line in screen.lines:
            # an ellipsis the A00 ROM writes as "..." is one "." when three cells do not fit
            whole = {charlcd.fold(t, glyphs=False) for t in (line, line.replace("…", "."))}
            assert whole & set(rows), (screen, out)


def test_a_16x2_shows_both_lines_of_a_classic_screen() -> None:
    interest = Screen(
        "interest",
        ("Titre 12 hypothéqué", "✓garder 9 M lever 99"),
        number=12,
        amount=9,
        token="dog",
        icons=frozenset({Icon.MORTGAGE}),
    )
    out = charlcd.layout(interest, 16, 2, glyphs=False, labels=labels_of("classic-fr"))
    assert out == ("Titre 12 hypo.  ", "vgar. 9 M lev 99")
    entry = Screen("entry", ("Montant ?", "150  ✓ valider"), amount=150)
    assert charlcd.layout(entry, 16, 2, glyphs=False, labels=labels_of("classic-fr")) == (
        "Montant ?       ",
        "150  v valider  ",
    )


def test_squeeze_keeps_numbers_and_shortens_the_longest_words_first() -> None:
    assert charlcd.squeeze("Pile sur Départ +400", 16) == "Pil sur Dép +400"
    assert charlcd.squeeze("chien>1 voiture>3 c…", 16) == "chien>1 voi>3 c…"
    assert charlcd.squeeze("chien : 3 + 4 = 7", 16) == "chien: 3+4=7"
    assert charlcd.squeeze("Touchez une carte", 16) == "Touc. une carte"
    assert charlcd.squeeze("short", 16) == "short"


FR = labels_of("classic-fr")


@pytest.mark.parametrize(
    ("screen", "rows"),
    [
        (
            Screen(
                "deed",
                ("12 Av. Mozart", "chien loyer 200 €"),
                number=12,
                token="dog",
                level=2,
                amount=200,
            ),
            ["12 Av. Mozart", "chien  2 maisons", "Loyer 200 E", "carte paie le loyer"],
        ),
        (
            Screen(
                "deed",
                ("28 Rue de la Paix", "voiture loyer 2000 €"),
                number=28,
                token="racecar",
                level=5,
                amount=2000,
            ),
            ["28 Rue de la Paix", "voiture  hotel", "Loyer 2000 E", "carte paie le loyer"],
        ),
        (
            Screen("deed", ("1 Bd de Belleville", "Prix 60 €"), number=1, amount=60),
            ["1 Bd de Belleville", "a vendre", "Prix 60 E", "carte achat, M ench."],
        ),
        (
            Screen(
                "deed",
                ("3 Rue Lecourbe", "brouette hypothéqué"),
                number=3,
                token="wheelbarrow",
                level=0,
                amount=0,
                icons=frozenset({Icon.MORTGAGE}),
            ),
            ["3 Rue Lecourbe", "brouette  hypotheque", "brouette hypotheque", "X retour"],
        ),
        (
            Screen(
                "deed",
                ("12 Cie d'électricité", "chapeau ×4/10 dés"),
                number=12,
                token="tophat",
                level=1,
            ),
            [
                "12 Cie d'electricite",
                "chapeau  1 maison",
                "chapeau x4/10 des",
                "carte paie le loyer",
            ],
        ),
    ],
)
def test_a_deed_on_a_20x4(screen: Screen, rows: list[str]) -> None:
    """docs/classic.md §5.6: ``12 Av. Mozart`` / ``chien  2 maisons`` / ``Loyer 200 €`` / the hint
    line; the currency and the accents as the A00 ROM can show them."""
    assert charlcd.layout(screen, 20, 4, glyphs=False, labels=FR) == tuple(
        r.ljust(20) for r in rows
    )


def test_a_deed_in_english() -> None:
    uk = labels_of("classic-uk")
    screen = Screen(
        "deed", ("39 Mayfair", "car rent 200 £"), number=28, token="racecar", level=1, amount=200
    )
    assert charlcd.layout(screen, 20, 4, glyphs=False, labels=uk) == (
        "39 Mayfair          ",
        "car  1 house        ",
        "Rent 200 L          ",
        "card pays the rent  ",
    )


def test_the_classic_icons_have_words_in_french_too() -> None:
    """The status row names every icon in the game's language: a French game's mortgage,
    tax, dice, trade, pot and card icons were missing from it."""
    for icon in (Icon.MORTGAGE, Icon.TAX, Icon.DICE, Icon.TRADE, Icon.POT, Icon.CARD):
        out = charlcd.layout(Screen("x", ("a",), icons=frozenset({icon})), lang="fr")
        assert out[0].strip() == charlcd.ICON_WORDS_BY_LANG["fr"][icon], icon
    pot = Screen("pot", ("chien +300 (parc)", "Solde 1800 €"), amount=300, token="dog")
    out = charlcd.layout(
        pot.__class__(**{**_fields(pot), "icons": frozenset({Icon.POT})}), labels=FR
    )
    assert out[0] == "chien            300" and out[1].startswith("PARC")


def _fields(screen: Screen) -> dict[str, object]:
    return {f: getattr(screen, f) for f in Screen.__dataclass_fields__}


def test_eight_players_tokens_are_the_editions_labels() -> None:
    """Bank cards 1-8 of classic-fr carry the edition's labels on the status row."""
    labels = [
        "chien",
        "voiture",
        "chapeau",
        "bateau",
        "fer",
        "de",
        "chaussure",
        "brouette",
    ]
    tokens = load_edition("classic-fr").token_names
    assert len(tokens) == 8
    for token, label in zip(tokens, labels, strict=True):
        screen = Screen("balance", ("x",), token=token, amount=1500)
        assert charlcd.layout(screen, labels=FR)[0] == label.ljust(16) + "1500"


def test_the_middle_dot_of_the_classic_lines_is_not_a_question_mark() -> None:
    """`M suivant · carte`: the A00 ROM has no middle dot; it was shown as `?`."""
    assert charlcd.fold("M suivant · carte") == "M suivant - carte"


@given(
    st.builds(
        Screen,
        name=st.sampled_from(["deed", "info", "entry", "menu", "balance", "x"]),
        lines=st.lists(st.text(max_size=30), max_size=3).map(tuple),
        amount=st.none() | st.integers(-(10**6), 10**6),
        number=st.none() | st.integers(0, 99),
        token=st.none() | st.sampled_from(["dog", "wheelbarrow", "x" * 12]),
        level=st.none() | st.integers(0, 6),
        icons=st.frozensets(st.sampled_from(list(Icon))),
        countdown=st.none() | st.integers(0, 999),
        off=st.booleans(),
    ),
    st.sampled_from([(16, 2), (20, 4), (20, 2), (16, 4), (40, 4)]),
    st.booleans(),
)
def test_classic_rows_always_fit_the_glass(
    screen: Screen, size: tuple[int, int], glyphs: bool
) -> None:
    cols, rows = size
    out = charlcd.layout(screen, cols, rows, glyphs, labels=FR)
    assert len(out) == rows
    for row in out:
        assert len(row) == cols
        assert all((" " <= ch <= "}" and ch != "\\") or (glyphs and ch < "\x08") for ch in row)


# ---------------------------------------------------------------- Méga and Star Wars (issue 13)


def test_the_scenarios_include_mega_and_star_wars_screens() -> None:
    """The all-screens tests above run over the mega_* and sw_* scenarios too."""
    screens = classic_screens()
    assert {e for e, _ in screens} >= {"mega-fr", "mega-uk", "starwars-ep2-fr"}
    mega = [s for e, s in screens if e.startswith("mega")]
    assert any(s.level == 6 and Icon.SKYSCRAPER in s.icons for s in mega)
    assert any(s.name == "deed" and Icon.DEPOT in s.icons for s in mega)
    assert any(s.name == "dice" and "+" in s.lines[0] and s.lines[0].count("+") == 2 for s in mega)
    assert any(s.name == "gift" for s in mega)
    sw = [s for e, s in screens if e.startswith("starwars")]
    assert any(s.name == "force" and Icon.FORCE in s.icons for s in sw)
    assert any(s.token == "obiwan" for s in sw) and any(s.token == "dooku" for s in sw)


@pytest.mark.parametrize(("cols", "rows"), [(20, 4), (16, 2)])
def test_no_character_of_a_classic_screen_becomes_a_question_mark(cols: int, rows: int) -> None:
    """The unit writes a payment with the minus sign (`Dépôt −100`, `Dooku −200`, `Maison 1
    −50`): the A00 ROM has none, and the glass showed `Depot ?100`."""
    for edition, screen in classic_screens():
        out = charlcd.layout(screen, cols, rows, glyphs=False, labels=labels_of(edition))
        assert "".join(out).count("?") <= "".join(screen.lines).count("?"), (screen, out)
    assert charlcd.fold("Dooku −200") == "Dooku -200"


# The Méga and Star Wars labels name the third die's faces and the menu's extra items in the
# unit's words: they are made inside the tests (at collection they would register the classic
# texts before tests/unit/test_text.py lists the shared ones).
MEGA_FR, MEGA_UK, STAR_WARS = "mega-fr", "mega-uk", "starwars-ep2-fr"


@pytest.mark.parametrize(
    ("screen", "edition", "rows"),
    [
        (
            skyscraper_deed("Bleu foncé 1", "chien", "loyer 2500 €"),
            MEGA_FR,
            ["35 Bleu fonce 1", "chien  gratte-ciel", "Loyer 2500 E", "carte paie le loyer"],
        ),
        (
            skyscraper_deed("Knightsbridge", "dog", "rent 2500 £"),
            MEGA_UK,
            ["35 Knightsbridge", "dog  skyscraper", "Rent 2500 L", "card pays the rent"],
        ),
        (
            depot_deed("Gare Montparnasse", "chien dépôt 100 €"),
            MEGA_FR,
            ["4 Gare Montparnasse", "chien  depot", "Loyer 100 E", "carte paie le loyer"],
        ),
        (
            depot_deed("King's Cross Stat…", "dog depot 100 £"),
            MEGA_UK,
            ["4 King's Cross Stat.", "dog  depot", "Rent 100 L", "card pays the rent"],
        ),
        (
            skyscraper_deed("Av. Champs-Élysé…", "brouette", "loyer 2500 €", "wheelbarrow"),
            MEGA_FR,
            ["35 Av. Champs-Elyse.", "brouette gratte-ciel", "Loyer 2500 E", "carte paie le loyer"],
        ),
    ],
)
def test_a_mega_deed_on_a_20x4(screen: Screen, edition: str, rows: list[str]) -> None:
    """A skyscraper (level 6) or a depot is said like a classic deed's buildings:
    ``chien  gratte-ciel`` / ``Loyer 2500 €``."""
    assert charlcd.layout(screen, 20, 4, glyphs=False, labels=labels_of(edition)) == tuple(
        r.ljust(20) for r in rows
    )


def test_the_new_icons_have_words_in_both_languages() -> None:
    assert charlcd.layout(SKYSCRAPER_BUILT, 20, 4, glyphs=False, labels=labels_of(MEGA_FR)) == (
        "#35         L6 #####",
        "GRATTE-CIEL      200",
        "35 Bleu fonce 1     ",
        "Gratte-ciel -200    ",
    )
    uk = Screen("built", ("4 Euston", "Depot −100"), amount=100, icons=frozenset({Icon.DEPOT}))
    out = charlcd.layout(uk, 20, 4, glyphs=False, labels=labels_of(MEGA_UK))
    assert out[0] == "DEPOT" + " " * 12 + "100"
    assert charlcd.layout(FORCE_LOST, 20, 4, glyphs=False, labels=labels_of(STAR_WARS)) == (
        "Dooku            200",
        "FORCE               ",
        "Vaincu par la Force ",
        "Dooku -200          ",
    )
    for icon in (Icon.SKYSCRAPER, Icon.DEPOT, Icon.FORCE):
        for lang in ("en", "fr"):
            word = charlcd.ICON_WORDS_BY_LANG[lang][icon]
            assert word.isupper() and len(word) <= 11, (lang, icon)


@pytest.mark.parametrize(
    ("screen", "edition", "big", "small"),
    [
        (
            Screen("dice", ("chien : 3+3+3=9", "Triple !"), token="dog"),
            MEGA_FR,
            ("chien", "chien : 3+3+3=9", "Triple !", ""),
            ("chien : 3+3+3=9", "Triple !"),
        ),
        (
            Screen("dice", ("voiture : 5 + 5 = 10", "double · M. Monopoly"), token="racecar"),
            MEGA_FR,
            ("voiture", "voiture : 5 + 5 = 10", "double - M. Monopoly", ""),
            ("voiture: 5+5=10", "double-M. Mono."),
        ),
        (
            Screen(
                "dice",
                ("Obi-Wan : 3 + 4 = 7", "clair +3 · obscur +4"),
                token="obiwan",
                icons=frozenset({Icon.FORCE}),
            ),
            STAR_WARS,
            ("Obi-Wan", "FORCE", "Obi-Wan : 3 + 4 = 7", "clair +3 - obscur +4"),
            ("Obi-Wan: 3+4=7", "cla +3-obsc. +4"),
        ),
    ],
)
def test_the_dice_screen_with_the_third_die(
    screen: Screen, edition: str, big: tuple[str, ...], small: tuple[str, ...]
) -> None:
    """The third die's number in the sum, its symbol or the Force die's face on line 2."""
    labels = labels_of(edition)
    assert charlcd.layout(screen, 20, 4, glyphs=False, labels=labels) == tuple(
        r.ljust(20) for r in big
    )
    assert charlcd.layout(screen, 16, 2, glyphs=False, labels=labels) == tuple(
        r.ljust(16) for r in small
    )
