"""The window turns keys and clicks into the unit's inputs, and shows what it is sent."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from bank.unit.io import (
    Button,
    ButtonPressed,
    ButtonReleased,
    CardId,
    CardLifted,
    CardTapped,
    Cue,
    Icon,
    Screen,
)
from board_assets import load_edition
from drivers.base import Panel
from firmware_sim import layout as L
from firmware_sim.emulator import PygamePanel, display_available
from firmware_sim.lcd import LcdRenderer
from firmware_sim.pg import pygame

from .conftest import FakeClock, PanelRig
from .lcdread import read_amount

PROPERTY = Screen(
    name="property", lines=("Place de la Bourse",), amount=280, number=16, level=2, token="boat"
)


def test_it_is_a_panel(rig: PanelRig) -> None:
    assert isinstance(rig.panel, Panel)


@pytest.mark.parametrize(
    ("key", "button"),
    [
        (pygame.K_RETURN, Button.OK),
        (pygame.K_KP_ENTER, Button.OK),
        (pygame.K_m, Button.MENU),
        (pygame.K_ESCAPE, Button.CANCEL),
        (pygame.K_BACKSPACE, Button.CANCEL),
    ],
)
def test_button_keys_press_and_release(rig: PanelRig, key: int, button: Button) -> None:
    rig.key(key, up=False)
    assert rig.panel.held_buttons == {button}
    rig.clock.advance(5.2)
    rig.key_up(key)
    assert rig.take() == [ButtonPressed(1000.0, button), ButtonReleased(1005.2, button)]
    assert rig.panel.held_buttons == set()


def test_a_key_held_with_autorepeat_presses_once(rig: PanelRig) -> None:
    rig.key(pygame.K_RETURN, up=False)
    rig.key(pygame.K_RETURN, up=False)
    rig.key_up(pygame.K_RETURN)
    assert [type(i) for i in rig.take()] == [ButtonPressed, ButtonReleased]


def test_enter_and_escape_held_together(rig: PanelRig) -> None:
    rig.key(pygame.K_RETURN, up=False)
    rig.key(pygame.K_ESCAPE, up=False)
    assert rig.panel.held_buttons == {Button.OK, Button.CANCEL}
    rig.key_up(pygame.K_ESCAPE)
    rig.key_up(pygame.K_RETURN)
    assert [(type(i).__name__, i.button) for i in rig.take()] == [  # type: ignore[union-attr]
        ("ButtonPressed", Button.OK),
        ("ButtonPressed", Button.CANCEL),
        ("ButtonReleased", Button.CANCEL),
        ("ButtonReleased", Button.OK),
    ]


def test_keys_held_when_the_window_loses_focus_are_released(rig: PanelRig) -> None:
    rig.key(pygame.K_RETURN, up=False)
    rig.key(pygame.K_2, "2", up=False)
    pygame.event.post(pygame.event.Event(pygame.WINDOWFOCUSLOST))
    rig.panel.step()
    assert rig.panel.held_buttons == set()
    assert [type(i).__name__ for i in rig.take()] == [
        "ButtonPressed",
        "CardTapped",
        "ButtonReleased",
        "CardLifted",
    ]
    rig.key_up(pygame.K_RETURN)  # the late key-up changes nothing
    assert rig.take() == []


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_digit_keys_tap_bank_cards(rig: PanelRig, n: int) -> None:
    rig.key(getattr(pygame, f"K_{n}"), str(n), up=False)
    rig.clock.advance(0.4)
    rig.key_up(getattr(pygame, f"K_{n}"))
    assert rig.take() == [
        CardTapped(1000.0, CardId("bank", n), uid="", reader="emulator"),
        CardLifted(1000.4, uid="", reader="emulator"),
    ]


@pytest.mark.parametrize("shift", [False, True])
def test_the_digit_row_taps_on_an_azerty_keyboard(rig: PanelRig, shift: bool) -> None:
    # AZERTY: the "1" key types "&" unshifted and "1" with Shift; its scancode is the digit's
    rig.key(pygame.K_AMPERSAND, "1" if shift else "&", scancode=pygame.KSCAN_1)
    # typing a property number with the unshifted digit row: "é" is the "2" key
    rig.key(pygame.K_p, "p")
    rig.key(pygame.K_AMPERSAND, "1" if shift else "&", scancode=pygame.KSCAN_1)
    rig.key(0, "2" if shift else "é", scancode=pygame.KSCAN_2)
    rig.key(pygame.K_RETURN, "\r")
    taps = [i.card for i in rig.take() if isinstance(i, CardTapped)]
    assert taps == [CardId("bank", 1), CardId("prop", 12)]


@pytest.mark.parametrize(("letter", "kind"), [(pygame.K_p, "prop"), (pygame.K_e, "event")])
@pytest.mark.parametrize("number", [1, 9, 16, 22])
def test_letter_number_enter_taps_that_card(
    rig: PanelRig, letter: int, kind: str, number: int
) -> None:
    rig.key(letter, "p" if kind == "prop" else "e")
    for d in str(number):
        rig.key(getattr(pygame, f"K_{d}"), d)
    assert f"{number}_" in rig.panel.status_text  # the number being typed is shown
    assert rig.take() == []
    rig.key(pygame.K_RETURN, "\r")
    assert rig.take() == [
        CardTapped(1000.0, CardId(kind, number), uid="", reader="emulator"),
        CardLifted(1000.0, uid="", reader="emulator"),
    ]
    assert rig.panel.held_buttons == set()  # the Enter that confirmed pressed no ✓


def test_typing_can_be_corrected_and_cancelled(rig: PanelRig) -> None:
    rig.key(pygame.K_p, "p")
    rig.key(pygame.K_3, "3")
    rig.key(pygame.K_BACKSPACE)
    rig.key(pygame.K_2, "2")
    rig.key(pygame.K_RETURN, "\r")
    assert [i.card for i in rig.take() if isinstance(i, CardTapped)] == [CardId("prop", 2)]
    rig.key(pygame.K_e, "e")
    rig.key(pygame.K_5, "5")
    rig.key(pygame.K_ESCAPE)
    assert rig.take() == []  # Esc left the typing; it pressed no X
    assert rig.panel.status_text == "F1 ou ? pour l'aide"  # the French edition's window


def test_a_number_out_of_range_is_refused_with_a_message(rig: PanelRig) -> None:
    rig.key(pygame.K_p, "p")
    rig.key(pygame.K_3, "3")
    rig.key(pygame.K_0, "0")
    rig.key(pygame.K_RETURN, "\r")
    assert rig.take() == []
    assert rig.panel.status_text == "pas de carte propriété 30"


def test_undo_key_holds_ok_and_cancel_for_the_gesture(rig: PanelRig) -> None:
    rig.key(pygame.K_u, "u")
    assert rig.panel.held_buttons == {Button.OK, Button.CANCEL}
    rig.clock.advance(L.HOLD_SECONDS - 0.1)
    rig.panel.step()
    assert rig.panel.held_buttons == {Button.OK, Button.CANCEL}
    rig.clock.advance(0.1)
    rig.panel.step()
    got = rig.take()
    assert got == [
        ButtonPressed(1000.0, Button.OK),
        ButtonPressed(1000.0, Button.CANCEL),
        ButtonReleased(1000.0 + L.HOLD_SECONDS, Button.OK),
        ButtonReleased(1000.0 + L.HOLD_SECONDS, Button.CANCEL),
    ]
    assert L.HOLD_SECONDS >= 5.0


def test_reset_key_holds_cancel_alone(rig: PanelRig) -> None:
    rig.key(pygame.K_r, "r")
    rig.clock.advance(L.HOLD_SECONDS)
    rig.panel.step()
    assert rig.take() == [
        ButtonPressed(1000.0, Button.CANCEL),
        ButtonReleased(1000.0 + L.HOLD_SECONDS, Button.CANCEL),
    ]


def _spot(card: CardId) -> L.Hotspot:
    spots = L.hotspots(load_edition("ultime-fr"))
    return next(s for s in spots if s.action == L.TapCard(card))


ALL_CARDS = [CardId("bank", n) for n in range(1, 5)]
ALL_CARDS += [CardId("prop", n) for n in range(1, 23)]
ALL_CARDS += [CardId("event", n) for n in range(1, 24)]


@pytest.mark.parametrize("card", ALL_CARDS, ids=str)
def test_clicking_a_card_taps_it_until_the_mouse_is_released(rig: PanelRig, card: CardId) -> None:
    pos = _spot(card).centre
    rig.mouse_down(pos)
    assert rig.take() == [CardTapped(1000.0, card, uid="", reader="emulator")]
    rig.clock.advance(1.5)
    rig.mouse_up(pos)
    assert rig.take() == [CardLifted(1001.5, uid="", reader="emulator")]


def test_the_tray_has_every_card_once_and_no_overlap() -> None:
    spots = L.hotspots(load_edition("ultime-fr"))
    cards = [s.action.card for s in spots if isinstance(s.action, L.TapCard)]
    assert sorted(cards) == sorted(ALL_CARDS)
    for i, a in enumerate(spots):
        for b in spots[i + 1 :]:
            assert not pygame.Rect(a.rect).colliderect(pygame.Rect(b.rect)), (a, b)
        x, y, w, h = a.rect
        assert x >= 0 and y >= 0 and x + w <= L.WINDOW_SIZE[0] and y + h <= L.WINDOW_SIZE[1]


@pytest.mark.parametrize("button", list(Button))
def test_clicking_a_button_holds_it_while_the_mouse_is_down(rig: PanelRig, button: Button) -> None:
    x, y = L.BUTTON_CENTRES[button]
    rig.mouse_down((x + 10, y - 10))
    rig.clock.advance(5.0)
    rig.mouse_up((0, 0))  # released anywhere
    assert rig.take() == [ButtonPressed(1000.0, button), ButtonReleased(1005.0, button)]


def test_a_click_beside_a_round_button_does_nothing(rig: PanelRig) -> None:
    x, y = L.BUTTON_CENTRES[Button.OK]
    rig.click((x + L.BUTTON_RADIUS - 2, y + L.BUTTON_RADIUS - 2))  # in the square, off the disc
    assert rig.take() == []


def test_right_click_latches_buttons_for_a_two_button_hold(rig: PanelRig) -> None:
    rig.click(L.BUTTON_CENTRES[Button.OK], button=3)
    rig.click(L.BUTTON_CENTRES[Button.CANCEL], button=3)
    assert rig.panel.held_buttons == {Button.OK, Button.CANCEL}
    rig.clock.advance(6)
    rig.click(L.BUTTON_CENTRES[Button.OK], button=3)
    rig.click(L.BUTTON_CENTRES[Button.CANCEL], button=3)
    assert rig.take() == [
        ButtonPressed(1000.0, Button.OK),
        ButtonPressed(1000.0, Button.CANCEL),
        ButtonReleased(1006.0, Button.OK),
        ButtonReleased(1006.0, Button.CANCEL),
    ]


def test_a_latched_button_pressed_again_by_key_is_not_pressed_twice(rig: PanelRig) -> None:
    rig.click(L.BUTTON_CENTRES[Button.OK], button=3)
    rig.key(pygame.K_RETURN)
    assert rig.take() == [ButtonPressed(1000.0, Button.OK)]
    assert rig.panel.held_buttons == {Button.OK}


def test_shown_screens_reach_the_lcd_and_the_window(rig: PanelRig) -> None:
    # show() comes from the daemon's thread
    t = threading.Thread(target=rig.panel.show, args=(PROPERTY,))
    t.start()
    t.join()
    frames = rig.panel.frames
    rig.panel.step()
    assert rig.panel.frames == frames + 1
    expected = LcdRenderer("M€").render(PROPERTY)
    lcd = rig.panel.window.subsurface(pygame.Rect(L.LCD_POS, expected.get_size()))
    assert pygame.image.tobytes(lcd, "RGB") == pygame.image.tobytes(expected, "RGB")
    assert read_amount(lcd, LcdRenderer("M€").layout) == 280


def test_odd_screens_are_drawn_without_failing(rig: PanelRig) -> None:
    odd = [
        Screen(name="x", level=9, number=150, countdown=120, token="dog", colour="not a colour"),
        Screen(name="x", level=0, amount=-123456, lines=("\t\x00" * 40, "", "a", "b", "c")),
        Screen(name="x", colour="#1d3c8f", icons=frozenset(Icon)),
    ]
    for screen in odd:
        rig.panel.show(screen)
        assert rig.panel.step()
    assert rig.panel.drawn == odd[-1]


def test_the_group_lamp_shows_the_screens_colour(rig: PanelRig) -> None:
    rig.panel.show(Screen(name="property", number=21, colour="#1d3c8f"))
    rig.panel.step()
    ux, uy, uw, _ = L.UNIT_RECT
    assert tuple(rig.panel.window.get_at((ux + uw - 76, uy + 37)))[:3] == (0x1D, 0x3C, 0x8F)


def test_nothing_is_redrawn_when_nothing_changes(rig: PanelRig) -> None:
    rig.panel.show(PROPERTY)
    rig.panel.step()
    frames = rig.panel.frames
    for _ in range(10):
        rig.panel.step()
    rig.panel.show(PROPERTY)  # the same screen again
    rig.panel.step()
    assert rig.panel.frames == frames


def test_cues_reach_the_player(rig: PanelRig) -> None:
    rig.panel.play(Cue.KACHING)
    rig.panel.play(Cue.LEVEL_UP)
    assert rig.player.cues == []  # played by the pygame thread, at its next frame
    rig.panel.step()
    assert rig.player.cues == [Cue.KACHING, Cue.LEVEL_UP]


def test_help_overlay_lists_every_shortcut_and_toggles(rig: PanelRig) -> None:
    rows = dict(L.help_rows("en"))
    for sc in L.SHORTCUTS:
        label, what = sc.texts("en")
        assert rows[label] == what
    assert {"click a card", "click a button", "right-click a button"} <= set(rows)
    assert rows["1"] == "tap bank card 1 (car)" and rows["U"].endswith("for 5.5 s")
    labels = " ".join(rows)
    for needed in ("Enter", "Esc", "M", "1", "4", "P n Enter", "E n Enter", "U", "R", "F1"):
        assert needed in labels
    before = rig.panel.window.get_at((300, 300))
    rig.key(pygame.K_F1)
    assert rig.panel.help_visible
    shaded = rig.panel.window.get_at((300, 300))
    assert sum(shaded[:3]) < sum(before[:3]) / 2  # the overlay darkens the window
    rig.key(pygame.K_SLASH, "?")
    assert not rig.panel.help_visible
    rig.key(pygame.K_F1)
    rig.key(pygame.K_RETURN, "\r")  # any key closes the help and does nothing else
    assert not rig.panel.help_visible
    rig.key(pygame.K_F1)
    rig.click(L.BUTTON_CENTRES[Button.OK])  # so does a click
    assert not rig.panel.help_visible
    assert rig.take() == []


def test_every_shortcut_key_does_what_the_table_says(rig: PanelRig) -> None:
    for sc in L.SHORTCUTS:
        for key in sc.keys:
            found = L.shortcut_for_key(key, "")
            assert found is sc, (sc.label, key)
        for ch in sc.chars:
            assert L.shortcut_for_key(0, ch) is sc


def test_closing_the_window_asks_the_daemon_to_stop(rig: PanelRig) -> None:
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    assert rig.panel.step() is False
    assert rig.quits == 1


def test_screenshot_is_the_window(rig: PanelRig, tmp_path: Path) -> None:
    rig.panel.show(PROPERTY)
    path = rig.panel.save_screenshot(tmp_path / "shot.png")
    shot = pygame.image.load(str(path))
    assert shot.get_size() == L.WINDOW_SIZE
    lcd = shot.subsurface(pygame.Rect(L.LCD_POS, (480, 272)))
    assert read_amount(lcd, LcdRenderer("M€").layout) == 280


def test_run_ui_serves_another_thread_and_stops_on_close(clock: FakeClock, tmp_path: Path) -> None:
    panel = PygamePanel("ultime-fr", clock=clock, sound=False)
    panel.start(lambda _: None)
    shot = tmp_path / "from-daemon.png"
    errors: list[BaseException] = []

    def daemon() -> None:
        try:
            panel.show(Screen(name="balance", amount=1500, token="car", icons=frozenset({Icon.GO})))
            panel.save_screenshot(shot)  # waits for the pygame thread
        except BaseException as err:  # pragma: no cover - reported below
            errors.append(err)
        finally:
            panel.close()

    worker = threading.Thread(target=daemon)
    worker.start()
    panel.run_ui(threading.Event())  # returns once close() is called
    worker.join(5)
    assert not errors
    image = pygame.image.load(str(shot))
    lcd = image.subsurface(pygame.Rect(L.LCD_POS, (480, 272)))
    assert read_amount(lcd, LcdRenderer("M€").layout) == 1500


def test_display_available_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    pygame.display.quit()  # as the command line finds it: nothing opened yet
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert display_available()
    monkeypatch.setenv("SDL_VIDEODRIVER", "x11")
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert not display_available()
    monkeypatch.setenv("DISPLAY", ":987")  # no X server there
    assert not display_available()
    # no driver named: SDL would fall back to its offscreen driver (a window nobody sees)
    monkeypatch.delenv("SDL_VIDEODRIVER")
    assert not display_available()


def test_the_uk_edition_draws_with_its_currency(clock: FakeClock) -> None:
    panel = PygamePanel("ultimate-uk", clock=clock, sound=False)
    try:
        panel.show(Screen(name="balance", amount=1500, token="jet"))
        panel.step()
        assert panel.drawn is not None and panel.drawn.amount == 1500
        assert panel.edition.currency == "₥"
    finally:
        panel.close()
