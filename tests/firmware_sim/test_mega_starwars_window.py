"""The emulator in Méga and Star Wars II (docs/classic.md §7): a real pygame surface in front of
the real bank (the harness of ``test_classic_window``): a short game of each, played by clicks
and keys, ending in the balances read from the unit; the new icons and the skyscraper's bar read
back from the glass's pixels; the 37-deed tray and its hover lines; the Star Wars sides.

The two games save a screenshot of the window (the F12 key's code) at one moment; with
``ULTIBANK_WRITE_SHOTS=1`` they are written to ``docs/`` (the pictures of docs/classic.md).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from bank.rulesets.classic.state import classic
from bank.unit.io import Button, CardId, Icon, Input, Screen
from board_assets import load_edition
from drivers.sim import VirtualClock
from firmware_sim import layout as L
from firmware_sim.emulator import PygamePanel
from firmware_sim.lcd import ICON_ORDER, TOP_ICONS, LcdLayout, LcdRenderer
from firmware_sim.pg import pygame
from firmware_sim.sounds import RecordingPlayer

from .lcdread import any_lit, read_amount
from .test_classic_window import ClassicTable, _lines
from .trays import labels_of, window_spots

LAY = LcdLayout()
DOCS = Path(__file__).resolve().parents[2] / "docs"
NEW_ICONS = (Icon.SKYSCRAPER, Icon.DEPOT, Icon.FORCE)


@pytest.fixture
def mega(tmp_path: Path) -> Iterator[ClassicTable]:
    t = ClassicTable(tmp_path / "data", "mega-fr")
    yield t
    t.close()


@pytest.fixture
def starwars(tmp_path: Path) -> Iterator[ClassicTable]:
    t = ClassicTable(tmp_path / "data", "starwars-ep2-fr")
    yield t
    t.close()


def _lit_icons(t: ClassicTable) -> set[Icon]:
    """The new icons lit on the glass, read from the LCD's pixels."""
    surf = t.panel.lcd_surface()
    return {icon for icon in NEW_ICONS if any_lit(surf, LAY.icon_rects[icon])}


def _skyscraper_bar(t: ClassicTable) -> bool:
    return any_lit(t.panel.lcd_surface(), LAY.skyscraper_bar)


def _screenshot(t: ClassicTable, tmp_path: Path, name: str, hover: CardId) -> None:
    """Save the window as F12 does, the mouse over *hover*; into docs/ with
    ``ULTIBANK_WRITE_SHOTS=1``."""
    _hover(t, hover)
    path = t.panel.save_screenshot(tmp_path / name)
    assert pygame.image.load(str(path)).get_size() == L.WINDOW_SIZE
    if os.environ.get("ULTIBANK_WRITE_SHOTS") == "1":
        shutil.copyfile(path, DOCS / name)


def _shown(t: ClassicTable, screen: Screen) -> int | None:
    """The amount the glass shows (read from its pixels), checked against the model's."""
    amount = read_amount(t.panel.lcd_surface(), LAY)
    assert amount == screen.amount
    return amount


def test_a_short_mega_game_played_with_clicks_and_keys(mega: ClassicTable, tmp_path: Path) -> None:
    t = mega
    t.card("bank", 1)
    t.card("bank", 2)
    assert _lines(t.button(Button.OK)) == "Partie lancée / 2 joueurs, 2500 €"
    # dog buys the Gare Montparnasse and builds its depot (M, 7 on the keypad, dog, the deed)
    t.card("deed", 4)
    assert t.card("bank", 1).name == "bought"
    t.button(Button.MENU)
    t.keypad("7")
    t.card("bank", 1)
    built = t.card("deed", 4)
    assert _lines(built) == "4 Gare Montparnasse / Dépôt −100"
    assert _lit_icons(t) == {Icon.DEPOT}
    t.button(Button.OK)
    # racecar lands on it: a station with a depot charges double (25 x 2), the depot lit
    t.type("/d4\n")
    rent = t.key(pygame.K_F3)
    assert _lines(rent) == "voiture paie 50 / à chien" and _lit_icons(t) == {Icon.DEPOT}
    # the speed die on the unit's dice, by the D key then racecar's card (seed 0)
    assert t.type("d").number == 11
    assert _lines(t.key(pygame.K_F3)) == "voiture : 1+1+3=5 / double"
    t.type("d")
    assert _lines(t.card("bank", 1)) == "chien : 1+6+3=10"
    t.type("d")
    assert _lines(t.key(pygame.K_F3)) == "voiture : 6 + 1 = 7 / Bus"
    # dog owns the three brown lots and builds them up to a skyscraper each (18 taps)
    for deed in (1, 2, 3):
        t.card("deed", deed)
        t.card("bank", 1)
    t.button(Button.MENU)
    t.keypad("7")
    t.card("bank", 1)
    for _ in range(5):
        for deed in (1, 2, 3):
            t.card("deed", deed)
    assert t.panel.screen.level == 5 and not _skyscraper_bar(t)
    assert _lit_icons(t) == set()
    sky = t.card("deed", 1)
    assert _lines(sky) == "1 Bd de Belleville / Gratte-ciel −50" and sky.level == 6
    assert _lit_icons(t) == {Icon.SKYSCRAPER} and _skyscraper_bar(t)
    _screenshot(t, tmp_path, "emulator-mega.png", CardId("deed", 1))
    t.card("deed", 2)
    t.card("deed", 3)
    t.button(Button.OK)
    # racecar lands on a lot with a skyscraper: 750
    t.card("deed", 1)
    assert _lines(t.card("bank", 2)) == "voiture paie 750 / à chien"
    assert _lit_icons(t) == {Icon.SKYSCRAPER}
    # the Birthday Gift by menu item 15 (M, then 1 and 5 on the keyboard's digits)
    assert t.type("m15").lines[0] == "Cadeau +100"
    gift = t.key(pygame.K_F3)
    assert _lines(gift) == "voiture +100 / Solde 1800 €"
    # the balances, as the unit shows them (read from the glass) and as the game holds them
    assert _shown(t, t.card("bank", 1)) == 1900
    assert _shown(t, t.card("bank", 2)) == 1800
    assert t.balances() == [1900, 1800]
    ext = classic(t.rt.game.state)
    assert ext.depots == (4,)
    assert [t.rt.game.state.prop(n).level for n in (1, 2, 3)] == [6, 6, 6]


def test_a_short_star_wars_game_with_the_force_die_and_battles(
    starwars: ClassicTable, tmp_path: Path
) -> None:
    t = starwars
    t.card("bank", 1)  # Obi-Wan
    t.card("bank", 6)  # Dooku
    t.button(Button.OK)
    t.card("deed", 1)
    t.card("bank", 6)
    # Obi-Wan rolls the white, black and Force dice: the light square
    t.button(Button.MENU)
    t.keypad("11")
    assert _lines(t.card("bank", 1)) == "Obi-Wan : 1 + 1 = 2 / double · carré clair"
    assert _lit_icons(t) == set()
    t.card("deed", 1)
    assert _lines(t.card("bank", 1)) == "Obi-Wan paie 2 / à Dooku"
    # the Force battle, menu item 14, then the lander's card: judged on his roll, won
    t.button(Button.MENU)
    menu = t.keypad("14")
    assert menu.lines[0] == "Force" and _lit_icons(t) == {Icon.FORCE}
    won = t.card("bank", 1)
    assert _lines(won) == "Force vaincue / déplacez le symbole" and _lit_icons(t) == {Icon.FORCE}
    _screenshot(t, tmp_path, "emulator-starwars.png", CardId("bank", 1))
    # Dooku rolls the light square: his battle is lost, 200 to the bank (keys: D, F7, M 1 4)
    t.type("d")
    assert _lines(t.key(pygame.K_F7)) == "Dooku : 1 + 6 = 7 / carré clair"
    t.type("m14")
    lost = t.key(pygame.K_F7)
    assert _lines(lost) == "Vaincu par la Force / Dooku −200" and _shown(t, lost) == 200
    # two more rolls: the second is a Force shift, the Force icon lit on the dice screen
    t.type("d")
    t.key(pygame.K_F7)
    t.type("d")
    shift = t.key(pygame.K_F2)
    assert _lines(shift) == "Obi-Wan : 6 + 1 = 7 / clair +6 · obscur +1"
    assert _lit_icons(t) == {Icon.FORCE}
    assert _shown(t, t.card("bank", 1)) == 1498
    assert _shown(t, t.card("bank", 6)) == 1242
    assert t.balances() == [1498, 1242]


@pytest.mark.parametrize("edition", ["mega-fr", "mega-uk"])
def test_the_mega_tray_holds_37_deeds_each_clickable_and_readable(edition: str) -> None:
    ed = load_edition(edition)
    spots = [s for s in window_spots(ed) if isinstance(s.action, L.TapCard)]
    deeds = {s.action.card.number: pygame.Rect(s.rect) for s in spots
             if s.action.card.kind == "deed"}  # fmt: skip
    assert sorted(deeds) == list(range(1, 38))
    kinds = [s.action.card.kind for s in spots]
    assert (kinds.count("bank"), kinds.count("chance"), kinds.count("chest")) == (8, 16, 16)
    # one column per group: 8 colours, 4 stations, 3 utilities
    xs = {n: r.x for n, r in deeds.items()}
    assert len(set(xs.values())) == len(ed.groups) == 10
    assert xs[4] == xs[15] == xs[24] == xs[34] and xs[7] == xs[12] == xs[27]
    rects = list(deeds.values())
    for i, r in enumerate(rects):
        assert r.w >= 36 and r.h >= 30
        assert not any(r.colliderect(o) for o in rects[i + 1 :])


@pytest.mark.parametrize("edition", ["classic-fr", "mega-fr", "mega-uk", "starwars-ep2-fr"])
@pytest.mark.parametrize("screen", [(1024, 768), (800, 600), (640, 480)])
def test_the_classic_windows_fit_a_small_screen(edition: str, screen: tuple[int, int]) -> None:
    from .test_window_fit import _every_spot_clickable

    inputs: list[Input] = []
    panel = PygamePanel(edition, clock=VirtualClock(1000.0), player=RecordingPlayer(),
                        screen_size=screen, labels=labels_of(edition))  # fmt: skip
    panel.start(inputs.append)
    panel.open()
    panel.step()
    pygame.event.clear()
    try:
        assert panel.window.get_size()[0] <= screen[0]
        assert panel.window.get_size()[1] <= screen[1]
        _every_spot_clickable(panel, inputs)
    finally:
        panel.close()
        pygame.display.quit()


def _hover(t: ClassicTable, card: CardId) -> list[str]:
    pos = t.spot(L.TapCard(card)).centre
    t.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
    return t.panel.status_text.split("\n")


def test_hovering_a_mega_deed_shows_the_skyscraper_the_depot_and_the_third_utility(
    mega: ClassicTable,
) -> None:
    assert _hover(mega, CardId("deed", 35)) == [
        "titre 35 : Bleu foncé 1 (Bleu foncé) · prix 350 €",
        "loyer 35 € · maisons 175 / 500 / 1100 / 1300 · hôtel 1500 · gratte-ciel 2500 €",
        "maison, hôtel, gratte-ciel 200 € · hypothèque 175 €",
    ]
    assert _hover(mega, CardId("deed", 4))[1] == (
        "loyer par gares possédées : 25 / 50 / 100 / 200 · avec dépôt : 50 / 100 / 200 / 400"
    )
    assert _hover(mega, CardId("deed", 27))[1] == (
        "loyer : ×4 / ×10 / ×20 fois les dés (1, 2 ou 3 compagnies)"
    )


def test_hovering_a_mega_uk_deed_speaks_english(tmp_path: Path) -> None:
    t = ClassicTable(tmp_path / "data", "mega-uk")
    try:
        assert _hover(t, CardId("deed", 35))[1] == (
            "rent 35 £ · houses 175 / 500 / 1100 / 1300 · hotel 1500 · skyscraper 2500 £"
        )
        assert _hover(t, CardId("deed", 15))[1].endswith("with a depot: 50 / 100 / 200 / 400")
        assert "×20 times the dice (1, 2 or 3 utilities)" in _hover(t, CardId("deed", 7))[1]
    finally:
        t.close()


def _side_colours() -> dict[str, tuple[tuple[int, ...], tuple[int, ...]]]:
    """The sides' (ring, disc) colours the Star Wars vocabulary gives the window, as RGB."""
    tray = labels_of("starwars-ep2-fr").tray
    assert tray is not None
    return {
        side: (tuple(pygame.Color(ring))[:3], tuple(pygame.Color(disc))[:3])
        for side, (ring, disc) in tray.mark_colours.items()
    }


def test_the_star_wars_bank_cards_show_each_characters_side(starwars: ClassicTable) -> None:
    t = starwars
    sides = load_edition("starwars-ep2-fr").raw["classic"]["sides"]
    canvas = t.panel.canvas
    for seat in range(1, 9):
        x, y, _, _ = t.spot(L.TapCard(CardId("bank", seat))).rect
        disc = tuple(canvas.get_at((x + 14, y + 14)))[:3]
        assert disc == _side_colours()[sides[seat - 1]][1], seat
    assert _hover(t, CardId("bank", 1)) == ["carte banque 1 : Obi-Wan (côté clair)"]
    assert _hover(t, CardId("bank", 6)) == ["carte banque 6 : Dooku (côté obscur)"]


def test_a_classic_bank_card_has_no_side_mark(tmp_path: Path) -> None:
    t = ClassicTable(tmp_path / "data", "classic-fr")
    try:
        x, y, _, _ = t.spot(L.TapCard(CardId("bank", 1))).rect
        disc = tuple(t.panel.canvas.get_at((x + 14, y + 14)))[:3]
        assert disc not in {c for _, c in _side_colours().values()}
        assert _hover(t, CardId("bank", 1)) == ["carte banque 1 : chien"]
    finally:
        t.close()


def test_level_6_is_a_skyscraper_on_the_glass() -> None:
    pygame.display.init()
    r = LcdRenderer(currency="€", token_labels={"dog": "chien"})

    def glass(level: int, icons: frozenset[Icon] = frozenset()) -> pygame.Surface:
        return r.render(Screen("deed", ("x",), number=1, token="dog", level=level, icons=icons))

    hotel, sky = glass(5), glass(6)
    assert all(any_lit(hotel, b) for b in LAY.level_rects)
    assert all(any_lit(sky, b) for b in LAY.level_rects)
    # the skyscraper: its bar and its icon, even from a screen that gives only the level
    assert not any_lit(hotel, LAY.skyscraper_bar)
    assert not any_lit(hotel, LAY.icon_rects[Icon.SKYSCRAPER])
    assert any_lit(sky, LAY.skyscraper_bar) and any_lit(sky, LAY.icon_rects[Icon.SKYSCRAPER])
    # a skyscraper sold (level 5, its icon): 5 bars and the icon, not the sixth bar
    sold = glass(5, frozenset({Icon.SKYSCRAPER}))
    assert any_lit(sold, LAY.icon_rects[Icon.SKYSCRAPER])
    assert not any_lit(sold, LAY.skyscraper_bar)
    # an Ultime glass shows no sixth bar: nothing there but the glass
    assert not any_lit(r.render(Screen("blank")), LAY.skyscraper_bar)


def test_the_classic_icons_and_the_sixth_bar_overlap_nothing_on_the_glass() -> None:
    small = [pygame.Rect(LAY.icon_rects[i]) for i in ICON_ORDER[TOP_ICONS:]]
    # mortgage, tax, dice, trade, pot, card, skyscraper, depot, Force, keypad: the 5 x 2 block
    assert len(small) == 10
    others = [
        *(pygame.Rect(r) for r in LAY.level_rects),
        pygame.Rect(LAY.skyscraper_bar),
        pygame.Rect(LAY.token_rects["car"]),
        pygame.Rect(*LAY.number_cell(0), 2 * LAY.small.cell_width + LAY.small_spacing,
                    LAY.small.height),
    ]  # fmt: skip
    every = small + others
    for i, r in enumerate(every):
        assert pygame.Rect((0, 0), LAY.size).contains(r)
        assert not any(r.colliderect(o) for o in every[i + 1 :]), r


def test_ultibank_emulate_opens_the_mega_window(tmp_path: Path) -> None:
    """``ultibank emulate --edition mega-fr`` opens the window with the 37-deed tray (on SDL's
    dummy driver, saving a screenshot)."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    shot = tmp_path / "mega.png"
    done = subprocess.run(
        [sys.executable, "-m", "bank.cli", "emulate", "--edition", "mega-fr", "--data-dir",
         str(tmp_path / "d"), "--screenshot", str(shot)],
        cwd=root, env=env, capture_output=True, text=True, timeout=60,
        stdin=subprocess.DEVNULL, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    pygame.display.init()
    picture = pygame.image.load(str(shot))
    for n in (1, 34, 37):  # the first deed, the fourth station, the last street
        x, y, _, h = next(s.rect for s in window_spots(load_edition("mega-fr"))
                          if s.action == L.TapCard(CardId("deed", n)))  # fmt: skip
        assert tuple(picture.get_at((x + 5, y + h - 5)))[:3] == (250, 248, 240), n
