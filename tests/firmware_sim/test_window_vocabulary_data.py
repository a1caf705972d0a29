"""The emulator's keypad window draws a made-up vocabulary as data: its letters, its typed
cards' letters, its decks' colours and its columns' title come from the ruleset's panel
vocabulary, not from ``firmware_sim/`` (which names no ruleset's card kind)."""

from __future__ import annotations

from bank.unit.io import Button, CardId, CardRanges, Labels, LetterKey, Tray
from board_assets import load_edition
from drivers.sim import VirtualClock
from firmware_sim import layout as L
from firmware_sim.emulator import PygamePanel
from firmware_sim.pg import pygame
from firmware_sim.sounds import RecordingPlayer

GREEN = (0, 200, 0)


def test_the_vocabularys_letters_and_typed_cards() -> None:
    cards = CardRanges(bank=3, tokens=("ox", "elk", "yak"), gem=4)
    labels = Labels(
        "en", keypad=True, keys={"g": "gem"},
        window_keys=(LetterKey("z", "zoom in", info="zoom"),
                     LetterKey("z", "the well (menu 4)", menu=4, shift=True, label="Shift+Z"),
                     LetterKey("q", "quick yes", button=Button.OK, early=True)),
        words={"typed.key": "/ g3 Enter", "typed.help": "tap a gem (g1-g4)"},
    )  # fmt: skip
    table = L.keypad_shortcuts(cards, labels)
    rows = L.help_rows("en", table)
    assert ("Z", "zoom in") in rows and ("Shift+Z", "the well (menu 4)") in rows
    assert ("/ g3 Enter", "tap a gem (g1-g4)") in rows
    # the early key is listed with the card keys, before the undo gesture
    assert rows.index(("Q", "quick yes")) == rows.index(("/ g3 Enter", "tap a gem (g1-g4)")) + 1
    found = L.shortcut_for_key(pygame.K_z, "z", 0, table)
    assert found is not None and found.action == L.AskInfo("zoom")
    shifted = L.shortcut_for_key(pygame.K_z, "Z", 0, table, pygame.KMOD_LSHIFT)
    assert shifted is not None and shifted.action == L.AskMenu(4)
    assert L.typed_card("g3", cards, labels.keys) == CardId("gem", 3)
    assert L.typed_card("g5", cards, labels.keys) is None
    assert L.typed_card("d3", cards, labels.keys) is None  # no classic letter here


def test_the_window_paints_the_vocabularys_deck_colour_and_column_title() -> None:
    ed = load_edition("ultime-fr")
    tray = Tray(
        "prop", ((1, 2, 3), (4, 5)), ("event",),
        colours={"event": "#00c800"}, column_title="PLOTS",
    )  # fmt: skip
    panel = PygamePanel(ed, clock=VirtualClock(1000.0), player=RecordingPlayer(),
                        labels=Labels("en", tray=tray))  # fmt: skip
    try:
        panel.start(lambda _: None)
        panel.open()
        panel.step()
        canvas = panel.canvas
        x, y, _, h = next(s.rect for s in L.hotspots(ed, tray)
                          if s.action == L.TapCard(CardId("event", 9)))  # fmt: skip
        assert tuple(canvas.get_at((x + 1, y + h // 2)))[:3] == GREEN
        assert panel._tray_titles()[1] == ("PLOTS", L.TRAY_COLUMNS_Y)
    finally:
        panel.close()
        pygame.display.quit()
