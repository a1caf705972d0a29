"""The keypad icon (docs/classic.md §5.5: a number entry is open) on the panels: serial protocol
version 2's bit 16, never sent to a version 1 panel; the simulated firmware's LCD and the
character LCD's status words (`CLAVIER` / `KEYPAD`); the amount entry of a real classic game
played from a keypad panel over a real pseudo-terminal pair."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from bank.unit.io import Button, Icon, Screen
from drivers import charlcd
from drivers import panel_protocol as pp
from tests.panels.test_mega_starwars_serial import tap
from tests.panels.test_serial_keypad import balance, bank_with_panel, click, shows
from tests.support.pty_pair import PtyPair

KEYPAD = frozenset({Icon.KEYPAD})
ENTRY = Screen("entry", ("Montant ?", "150  ✓ valider"), amount=150, icons=KEYPAD)


def test_version_2_sends_bit_16_and_version_1_never_sees_it() -> None:
    v2 = pp.encode_show(ENTRY)
    assert bytes((3, 0x01, 0x00, 0x00)) in v2  # icon_len 3, the mask 0x010000
    assert pp.decode_show(v2) == ENTRY
    v1 = pp.encode_show(ENTRY, 1)
    assert pp.decode_show(v1, 1) == replace(ENTRY, icons=frozenset())
    both = replace(ENTRY, icons=KEYPAD | {Icon.TRADE})
    assert pp.icon_mask(both.icons) == 1 << 16 | 1 << 13
    assert pp.icon_mask(both.icons, 1) == 1 << 13


def test_the_character_lcd_says_clavier_or_keypad() -> None:
    fr = charlcd.layout(ENTRY, 20, 4, glyphs=False, lang="fr")
    assert fr[0] == "CLAVIER" + " " * 10 + "150"
    en = charlcd.layout(ENTRY, 20, 4, glyphs=False, lang="en")
    assert en[0] == "KEYPAD" + " " * 11 + "150"
    none = charlcd.layout(replace(ENTRY, icons=frozenset()), 20, 4, glyphs=False, lang="fr")
    assert none[0] == " " * 17 + "150"


def test_a_keypad_panel_shows_the_icon_while_the_amount_is_typed(
    tmp_path: Path, cable: PtyPair
) -> None:
    """classic-fr on a version 2 keypad panel: menu item 6 typed on the keypad, racecar's
    card, 150 typed: the entry's screens carry bit 16 and the LCD says KEYPAD; the result
    that follows the ✓ does not."""
    with bank_with_panel(tmp_path, cable, "classic-fr", keypad=True) as (rt, fw):
        tap(rt, "bank:1")
        tap(rt, "bank:2")
        click(fw, Button.OK)
        shows(fw, "game_started", "2 joueurs")
        click(fw, Button.MENU)
        fw.key("6")
        shows(fw, "menu", "Recevoir banque")
        assert fw.screen is not None and Icon.KEYPAD not in fw.screen.icons
        tap(rt, "bank:2")
        shows(fw, "entry", "Montant ?")
        fw.key("150")
        shows(fw, "entry", "150")
        assert fw.screen is not None and fw.screen.icons == KEYPAD
        assert fw.lcd_lines[0].startswith("KEYPAD")
        click(fw, Button.OK)
        shows(fw, "received", "Solde 1650")
        assert fw.screen is not None and Icon.KEYPAD not in fw.screen.icons
        assert not any("KEYPAD" in row for row in fw.lcd_lines)
        assert balance(rt, 2) == 1650


def test_a_version_1_panel_types_the_amount_with_its_buttons_without_the_icon(
    tmp_path: Path, cable: PtyPair
) -> None:
    """A version 1 panel (16 icon bits): the three-button entry arrives without the keypad
    icon, nothing is refused, the amount is received."""
    with bank_with_panel(tmp_path, cable, "classic-fr", version=1) as (rt, fw):
        tap(rt, "bank:1")
        tap(rt, "bank:2")
        click(fw, Button.OK)
        shows(fw, "game_started", "2 joueurs")
        for _ in range(6):
            click(fw, Button.MENU)
        shows(fw, "menu", "Recevoir banque")
        tap(rt, "bank:2")
        shows(fw, "entry", "Montant ?")
        click(fw, Button.MENU)
        click(fw, Button.MENU)
        shows(fw, "entry", "+100")
        click(fw, Button.OK)
        shows(fw, "entry", "100  ")
        assert fw.screen is not None and fw.screen.icons == frozenset()
        assert not any("KEYPAD" in row for row in fw.lcd_lines)
        assert fw.stats["malformed"] == 0
