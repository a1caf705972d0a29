"""The emulator in classic mode (docs/classic.md §5.6), on a real pygame surface with the real bank.

The window runs on SDL's dummy driver in front of the real runtime (game, classic unit, daemon
loop and a journal on disk, on a virtual clock): a short classic-fr game is played by clicks on
the tray, the buttons and the keypad, then again by the keyboard's keys, and both end in the
balances the unit shows when each player's bank card is tapped. Hovering a deed shows its rents;
the tray is laid out from the edition's data (Méga's 37 deeds fit the same tray).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bank.app.runtime import Runtime
from bank.services.settings import load_settings
from bank.unit.io import (
    Button,
    ButtonPressed,
    ButtonReleased,
    CardId,
    CardRanges,
    Input,
    KeyPressed,
    KeyReleased,
    MenuAsked,
    Screen,
)
from board_assets import load_edition
from drivers.sim import VirtualClock
from firmware_sim import layout as L
from firmware_sim.emulator import PygamePanel
from firmware_sim.lcd import LcdLayout, LcdRenderer
from firmware_sim.pg import pygame
from firmware_sim.sounds import RecordingPlayer

from .lcdread import any_lit, read_amount
from .trays import labels_of, window_spots


class ClassicTable:
    """The classic window in front of a running bank (the wiring of ``ultibank emulate``)."""

    def __init__(self, data_dir: Path, edition: str = "classic-fr") -> None:
        self.clock = VirtualClock(1000.0)
        # a fixed dice seed: the games the box starts draw a random one (READINGS D1)
        settings = load_settings(
            None,
            [f'game.data_dir="{data_dir}"', f'game.edition="{edition}"', "classic.dice_seed=0"],
        )
        self.rt = Runtime(settings, clock=self.clock)
        self.panel = PygamePanel(
            self.rt.edition,
            clock=self.clock,
            player=RecordingPlayer(),
            language=self.rt.unit.screens.lang,
            labels=labels_of(self.rt.edition, self.rt.unit.screens.lang),
        )
        self.rt.add_panel(self.panel)
        self.rt.start(control=False)
        self.panel.open()
        self.settle()
        self.spots = window_spots(self.panel.edition)

    # ---------------------------------------------------------------- the loop

    def settle(self) -> Screen:
        """Let the window send what it has, the bank answer it, and the window show it."""
        self.panel.step()
        self.rt.daemon.call(lambda: None)  # queued after the inputs: they have been handled
        self.panel.step()
        return self.panel.screen

    def post(self, event: pygame.event.Event) -> Screen:
        pygame.event.post(event)
        return self.settle()

    # ---------------------------------------------------------------- the mouse

    def spot(self, action: L.Action) -> L.Hotspot:
        return next(s for s in self.spots if s.action == action)

    def click(self, action: L.Action) -> Screen:
        pos = self.spot(action).centre
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        self.settle()
        return self.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))

    def card(self, kind: str, number: int) -> Screen:
        return self.click(L.TapCard(CardId(kind, number)))

    def button(self, button: Button) -> Screen:
        return self.click(L.PressButton(button))

    def keypad(self, digits: str) -> Screen:
        screen = self.panel.screen
        for d in digits:
            screen = self.click(L.PressKey(d))
        return screen

    # ---------------------------------------------------------------- the keyboard

    def key(self, key: int, char: str = "", mod: int = 0) -> Screen:
        down = pygame.event.Event(
            pygame.KEYDOWN, key=key, unicode=char, mod=mod, scancode=0
        )  # fmt: skip
        pygame.event.post(down)
        self.settle()
        return self.post(pygame.event.Event(pygame.KEYUP, key=key, unicode="", mod=mod))

    def type(self, text: str) -> Screen:
        """Type *text*: letters, digits and ``/``; ``\\n`` is Enter."""
        screen = self.panel.screen
        for ch in text:
            if ch == "\n":
                screen = self.key(pygame.K_RETURN, "\r")
            elif ch == "/":
                screen = self.key(pygame.K_KP_DIVIDE, "/")
            else:
                screen = self.key(pygame.key.key_code(ch), ch)
        return screen

    def close(self) -> None:
        self.rt.stop()
        pygame.display.quit()

    # ---------------------------------------------------------------- the bank

    def balances(self) -> list[int]:
        return [p.balance for p in self.rt.game.state.players]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[ClassicTable]:
    t = ClassicTable(tmp_path / "data")
    yield t
    t.close()


def _lines(screen: Screen) -> str:
    return " / ".join(screen.lines)


def _balance_shown(t: ClassicTable, seat_screen: Screen) -> int | None:
    """The balance the glass shows (read back from the LCD's pixels), and the model's."""
    amount = read_amount(t.panel.lcd_surface(), LcdLayout())
    assert amount == seat_screen.amount
    return amount


def test_a_short_classic_game_played_with_the_mouse(table: ClassicTable) -> None:
    t = table
    bank = t.card
    # registration: two bank cards, ✓
    bank("bank", 1)
    bank("bank", 2)
    assert t.button(Button.OK).name == "game_started"
    # dog buys both brown deeds (the second completes the group)
    assert t.card("deed", 1).name == "deed"
    assert _lines(t.card("bank", 1)) == "1 Bd de Belleville / Achat 60 €"
    t.card("deed", 2)
    assert t.card("bank", 1).name == "bought"
    # racecar lands on deed 1: the whole group doubles the base rent
    t.card("deed", 1)
    assert _lines(t.card("bank", 2)) == "voiture paie 4 / à chien"
    # build through the menu and the keypad: M, 7, dog's card, then the two deeds, ✓
    assert t.button(Button.MENU).name == "menu"
    assert t.keypad("7").lines[0] == "Construire"
    assert t.card("bank", 1).name == "session"
    assert t.card("deed", 1).name == "built"
    assert t.card("deed", 2).name == "built"
    t.button(Button.OK)
    # rent with one house, shown on the deed's glass: level 1
    assert t.card("deed", 1).level == 1
    assert _lines(t.card("bank", 2)) == "voiture paie 10 / à chien"
    # racecar buys a station and mortgages it (M, 9 on the keypad)
    t.card("deed", 3)
    t.card("bank", 2)
    t.button(Button.MENU)
    t.keypad("9")
    t.card("bank", 2)
    mortgaged = t.card("deed", 3)
    assert mortgaged.name == "mortgaged" and mortgaged.amount == 100
    t.button(Button.OK)
    # the dice: M, 1, 1 then dog's card (seed 0: a double one)
    t.button(Button.MENU)
    assert t.keypad("11").number == 11
    rolled = t.card("bank", 1)
    assert rolled.name == "dice" and rolled.lines[0] == "chien : 1 + 1 = 2"
    # racecar pays the bank 150, typed on the keypad (⌫ corrects), ✓ on the keypad's own ✓
    t.button(Button.MENU)
    t.keypad("5")
    t.card("bank", 2)
    assert t.keypad("155").amount == 155
    assert t.click(L.PressKey("back")).amount == 15
    t.keypad("0")
    paid = t.click(L.PressButton(Button.OK))  # the same ✓ as the keypad's last key
    assert paid.name == "paid"
    # a trade (M, 1 0): racecar's mortgaged station for 50 from dog; dog keeps the mortgage
    t.button(Button.MENU)
    assert t.keypad("10").number == 10
    t.card("bank", 1)
    t.card("bank", 2)
    assert _lines(t.card("deed", 3)) == "Titres / chie:- voit:3"
    t.button(Button.MENU)
    t.keypad("50")
    assert _lines(t.card("bank", 1)) == "Argent / 50 par chien"
    t.button(Button.MENU)
    t.button(Button.MENU)
    assert t.button(Button.OK).name == "trade_offer"
    assert t.button(Button.OK).name == "interest"  # racecar accepts; the mortgage question
    assert t.button(Button.OK).lines[1] == "Gardé −10"
    # the balances, as the unit shows them when each bank card is tapped
    assert _balance_shown(t, t.card("bank", 1)) == 1234
    assert _balance_shown(t, t.card("bank", 2)) == 1286
    assert t.balances() == [1234, 1286]


def test_the_keypads_last_key_is_a_second_ok(table: ClassicTable) -> None:
    keys = L.keypad_hotspots()
    assert [s.action for s in keys][-3:] == [
        L.PressKey("back"),
        L.PressKey("0"),
        L.PressButton(Button.OK),
    ]
    t = table
    t.card("bank", 1)
    t.card("bank", 2)
    ok = keys[-1].centre
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=ok, button=1))
    t.settle()
    assert t.panel.held_buttons == {Button.OK}
    t.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=ok, button=1))
    assert t.panel.screen.name == "game_started"


def test_the_same_game_played_with_the_keyboard(table: ClassicTable) -> None:
    t = table
    sent: list[Input] = []
    post = t.rt.daemon.post
    t.panel.start(lambda i: (sent.append(i), post(i)))
    t.key(pygame.K_F2)
    t.key(pygame.K_F3)
    assert t.key(pygame.K_RETURN, "\r").name == "game_started"
    assert t.type("/d1\n").name == "deed"
    assert t.key(pygame.K_F2).name == "bought"
    t.type("/deed:2\n")
    assert t.key(pygame.K_F2).name == "bought"
    t.type("/d1\n")
    # Space is the computer game's rent "buzzer": ✓ on the landing shown (no card: refused)
    assert t.key(pygame.K_SPACE, " ").name == "error"
    assert _lines(t.key(pygame.K_F3)) == "voiture paie 4 / à chien"
    # H builds (menu item 7), then the deeds typed after /
    assert t.type("h").number == 7
    assert t.key(pygame.K_F2).name == "session"
    assert t.type("/d1\n").name == "built"
    assert t.type("/d2\n").name == "built"
    t.key(pygame.K_RETURN, "\r")
    t.type("/d1\n")
    assert _lines(t.key(pygame.K_F3)) == "voiture paie 10 / à chien"
    t.type("/d3\n")
    t.key(pygame.K_F3)
    # K: the mortgage session (menu item 9)
    assert t.type("k").number == 9
    t.key(pygame.K_F3)
    assert t.type("/d3\n").name == "mortgaged"
    t.key(pygame.K_RETURN, "\r")
    # D: the dice (menu item 11)
    assert t.type("d").number == 11
    assert t.key(pygame.K_F2).lines[0] == "chien : 1 + 1 = 2"
    # M and a digit of the top row: item 5; the amount on the keypad's digits
    t.type("m5")
    t.key(pygame.K_F3)
    assert t.type("155").amount == 155
    # D during an entry is refused by the unit (the entry stays), Backspace is ⌫ there
    assert t.type("d").name == "error"
    assert t.key(pygame.K_BACKSPACE).amount == 15
    t.key(pygame.K_KP0, "0")  # the numeric keypad's digits too
    assert t.key(pygame.K_KP_ENTER, "\r").name == "paid"
    # Backspace outside an entry is X: the check screen of a deed goes back to idle
    t.type("/d5\n")
    assert t.key(pygame.K_BACKSPACE).name == "idle"
    # E: the trade; A accepts it, Enter keeps the mortgage
    assert t.type("e").number == 10
    t.key(pygame.K_F2)
    t.key(pygame.K_F3)
    t.type("/d3\n")
    t.type("m50")
    assert _lines(t.key(pygame.K_F2)) == "Argent / 50 par chien"
    t.type("mm")
    assert t.key(pygame.K_RETURN, "\r").name == "trade_offer"
    assert t.type("a").name == "interest"
    assert t.key(pygame.K_RETURN, "\r").lines[1] == "Gardé −10"
    # S: the scores (an info screen); I: who has what
    assert t.type("s").name == "info"
    assert t.type("i").name == "info"
    assert t.key(pygame.K_F2).amount == 1234
    assert t.key(pygame.K_F3).amount == 1286
    assert t.balances() == [1234, 1286]
    # the keypad digits went as keys (pressed, then released), the menu letters as MenuAsked
    assert KeyPressed(1000.0, "5") in sent and KeyReleased(1000.0, "5") in sent
    assert [i.item for i in sent if isinstance(i, MenuAsked)] == [7, 9, 11, 11, 10]


def test_shift_and_ctrl_change_what_a_letter_does() -> None:
    ed = load_edition("classic-fr")
    table = L.keypad_shortcuts(CardRanges.of(ed), labels_of(ed))

    def action(key: int, mod: int = 0) -> L.Action | None:
        sc = L.shortcut_for_key(key, pygame.key.name(key), 0, table, mod)
        return sc.action if sc is not None else None

    assert action(pygame.K_v) == L.AskInfo("deeds")
    assert action(pygame.K_v, pygame.KMOD_LSHIFT) == L.AskInfo("others")
    assert action(pygame.K_h) == L.AskMenu(7)
    assert action(pygame.K_h, pygame.KMOD_RSHIFT) == L.AskMenu(8)
    assert action(pygame.K_k) == action(pygame.K_k, pygame.KMOD_SHIFT) == L.AskMenu(9)
    # R refuses a trade (X); only Ctrl+R is the reset gesture
    assert action(pygame.K_r) == L.PressButton(Button.CANCEL)
    assert action(pygame.K_r, pygame.KMOD_LCTRL) == L.HoldGesture((Button.CANCEL,), 5.5)
    assert action(pygame.K_p) == action(pygame.K_j) == L.AskMenu(2)
    assert action(pygame.K_e) == L.AskMenu(10)
    assert action(pygame.K_a) == L.PressButton(Button.OK)
    assert [action(k) for k in (pygame.K_i, pygame.K_t, pygame.K_c, pygame.K_f, pygame.K_s)] == [
        L.AskInfo(n) for n in ("table", "turn", "cash", "deed", "scores")
    ]
    # F2 ... F9 are the bank cards 1 ... 8; digits (either row) are keypad keys
    assert [action(getattr(pygame, f"K_F{n}")) for n in range(2, 10)] == [
        L.TapCard(CardId("bank", n)) for n in range(1, 9)
    ]
    assert action(pygame.K_KP7) == action(pygame.K_7) == L.PressKey("7")
    assert L.shortcut_for_key(0, "?", 0, table) is not None  # help on a layout's "?"


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("d12", CardId("deed", 12)),
        ("c3", CardId("chance", 3)),
        ("k16", CardId("chest", 16)),
        ("b5", CardId("bank", 5)),
        ("deed:28", CardId("deed", 28)),
        ("D12", CardId("deed", 12)),
        ("d29", None),
        ("c17", None),
        ("b9", None),
        ("prop:3", None),
        ("x1", None),
        ("", None),
    ],
)
def test_a_typed_card_names_one_of_the_games_cards(text: str, card: CardId | None) -> None:
    ed = load_edition("classic-fr")
    assert L.typed_card(text, CardRanges.of(ed), labels_of(ed).keys) == card


def test_a_card_typed_that_the_game_lacks_says_so(table: ClassicTable) -> None:
    t = table
    t.type("/d3")
    assert t.panel.status_text.startswith("carte : d3_")
    t.key(pygame.K_BACKSPACE)
    t.type("40\n")
    assert t.panel.status_text == "pas de carte « d40 »"
    t.type("/d")
    t.key(pygame.K_ESCAPE)  # Esc cancels the typing and presses nothing
    assert t.panel.held_buttons == set() and t.panel.screen.name == "new_game"


def test_hovering_a_deed_shows_its_name_price_and_rents(table: ClassicTable) -> None:
    t = table

    def hover(card: CardId) -> str:
        pos = t.spot(L.TapCard(card)).centre
        t.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
        return t.panel.status_text

    assert hover(CardId("deed", 12)).split("\n") == [
        "titre 12 : Avenue Mozart (Orange) · prix 180 €",
        "loyer 14 € · 1-4 maisons 70 / 200 / 550 / 750 · hôtel 950 €",
        "maison 100 € · hypothèque 90 €",
    ]
    assert hover(CardId("deed", 3)).split("\n")[1:] == [
        "loyer selon les gares possédées : 25 / 50 / 100 / 200",
        "hypothèque 100 €",
    ]
    assert "×4 / ×10" in hover(CardId("deed", 8))
    assert hover(CardId("chest", 1)).startswith("Caisse de communauté 1 : ")
    assert hover(CardId("bank", 8)) == "carte banque 8 : brouette"
    # the status box shows the three lines: pixels of text in each third of it
    box = pygame.Rect(L.KEYPAD_STATUS_RECT)
    hover(CardId("deed", 12))
    canvas = t.panel.canvas
    for third in range(3):
        band = pygame.Rect(box.x + 12, box.y + 9 + third * 18, box.w - 24, 18)
        assert any(
            sum(canvas.get_at((x, y))[:3]) > 600
            for x in range(band.x, band.right, 2)
            for y in range(band.y, band.bottom)
        )


def test_the_classic_tray_follows_the_edition() -> None:
    fr = load_edition("classic-fr")
    spots = window_spots(fr)
    kinds = [s.action.card.kind for s in spots if isinstance(s.action, L.TapCard)]
    assert (kinds.count("bank"), kinds.count("deed")) == (8, 28)
    assert (kinds.count("chance"), kinds.count("chest")) == (16, 16)
    # the deeds in one column per group: stations and utilities in their own columns
    xs = {s.action.card.number: s.rect[0] for s in spots
          if isinstance(s.action, L.TapCard) and s.action.card.kind == "deed"}  # fmt: skip
    assert len(set(xs.values())) == len(fr.groups) == 10
    assert xs[3] == xs[11] == xs[18] == xs[26] and xs[8] == xs[21]
    # no card table (Star Wars): no Chance / Community Chest cards, the deeds take the room
    sw = [
        s for s in window_spots(load_edition("starwars-ep2-fr")) if isinstance(s.action, L.TapCard)
    ]
    assert {s.action.card.kind for s in sw} == {"bank", "deed"}


@pytest.mark.parametrize(
    "columns",
    [
        [2, 3, 3, 3, 3, 3, 3, 2, 4, 2],  # classic: 28 deeds
        [3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 2],  # Méga-like: 37 deeds, 52 spaces
        [4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4],  # more than any box
    ],
)
def test_a_bigger_board_fits_the_same_tray(columns: list[int]) -> None:
    bottom = L.TRAY_COLUMNS_END
    rects = [r for col in L.column_rects(columns, L.TRAY_COLUMNS_Y, bottom) for r in col]
    assert len(rects) == sum(columns)
    tray = pygame.Rect(L.TRAY_X, L.TRAY_COLUMNS_Y, L.TRAY_W, bottom - L.TRAY_COLUMNS_Y)
    for i, r in enumerate(rects):
        rect = pygame.Rect(r)
        assert tray.contains(rect), (r, tray)
        assert rect.w >= 36 and rect.h >= 30  # still big enough to click and read
        assert not any(rect.colliderect(other) for other in rects[i + 1 :])


def test_the_glass_writes_a_classic_players_label_and_the_houses() -> None:
    pygame.display.init()
    lay = LcdLayout()
    plain = LcdRenderer(currency="€", token_labels={"dog": "chien"})
    token_area = (120, 150, 160, 22)
    blank = plain.render(Screen("deed", ("1 Bd de Belleville",), number=1))
    assert not any_lit(blank, token_area)
    for level in range(6):
        surf = plain.render(Screen("deed", ("x",), number=1, token="dog", level=level))
        assert any_lit(surf, token_area)
        lit = [any_lit(surf, r) for r in lay.level_rects]
        assert lit == [i < level for i in range(5)]  # 0-4 houses, 5 bars for a hotel
    # an 8-seat game's labels all fit the token area (8 characters at most)
    wide = LcdRenderer(currency="€", token_labels={"droid": "Mace Windu"})
    surf = wide.render(Screen("balance", ("x",), token="droid"))
    assert any_lit(surf, token_area) and not any_lit(surf, (284, 150, 40, 22))


def test_ultibank_emulate_opens_the_classic_window(tmp_path: Path) -> None:
    """``ultibank emulate --edition classic-fr`` is no longer refused: it opens the classic
    window (here on SDL's dummy driver, saving a screenshot): the keypad and the tray show."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    shot = tmp_path / "classic.png"
    done = subprocess.run(
        [sys.executable, "-m", "bank.cli", "emulate", "--edition", "classic-fr", "--data-dir",
         str(tmp_path / "d"), "--screenshot", str(shot)],
        cwd=root, env=env, capture_output=True, text=True, timeout=60,
        stdin=subprocess.DEVNULL, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    pygame.display.init()
    picture = pygame.image.load(str(shot))
    assert picture.get_size() == L.WINDOW_SIZE
    # the keypad's keys (dark grey) and the Community Chest cards (blue) are drawn
    key = L.keypad_hotspots()[4]
    assert picture.get_at(key.centre)[:3] != picture.get_at((5, 5))[:3]
    chest = next(s for s in window_spots(load_edition("classic-fr"))
                 if s.action == L.TapCard(CardId("chest", 1)))  # fmt: skip
    x, y, w, _ = chest.rect
    assert tuple(picture.get_at((x + w // 2, y + 4)))[:3] == (90, 170, 220)


def test_an_ultime_unit_refuses_a_menu_shortcut() -> None:
    """The menu shortcuts are classic keys: the Ultime unit gets the error cue and nothing
    changes (its emulator never sends one)."""
    from bank.unit.io import Cue, PlayCue, ShowScreen
    from tests.unit.harness import Harness

    h = Harness()
    h.tap("bank:1")
    h.tap("bank:2")
    h.press("ok")
    out = h.feed(MenuAsked(h.now, 11))
    assert PlayCue(h.now, Cue.ERROR) in out
    assert [o.screen.name for o in out if isinstance(o, ShowScreen)] == ["error"]
    assert all(
        not isinstance(sc.action, L.AskMenu | L.AskInfo | L.PressKey | L.BackKey)
        for sc in L.shortcuts(CardRanges.of(load_edition("ultime-fr")))
    )


@pytest.mark.parametrize(
    ("screen", "sent"),
    [
        ("entry", [KeyPressed(1000.0, "back"), KeyReleased(1000.0, "back")]),
        ("pick", [KeyPressed(1000.0, "back"), KeyReleased(1000.0, "back")]),
        ("auction", [KeyPressed(1000.0, "back"), KeyReleased(1000.0, "back")]),
        ("deed", [ButtonPressed(1000.0, Button.CANCEL), ButtonReleased(1000.0, Button.CANCEL)]),
        ("idle", [ButtonPressed(1000.0, Button.CANCEL), ButtonReleased(1000.0, Button.CANCEL)]),
    ],
)
def test_backspace_is_delete_in_an_entry_else_x(screen: str, sent: list[Input]) -> None:
    inputs: list[Input] = []
    panel = PygamePanel(
        "classic-fr",
        clock=VirtualClock(1000.0),
        player=RecordingPlayer(),
        labels=labels_of("classic-fr"),
    )
    panel.start(inputs.append)
    try:
        panel.show(Screen(screen, ("x",)))
        panel.step()
        for kind in (pygame.KEYDOWN, pygame.KEYUP):
            pygame.event.post(pygame.event.Event(kind, key=pygame.K_BACKSPACE, unicode="", mod=0))
            panel.step()
        assert inputs == sent
    finally:
        panel.close()
        pygame.display.quit()
