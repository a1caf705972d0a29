"""The serial front panel in Méga and Star Wars II (issue 13): the Force, skyscraper and depot
icons travel at version 2's bits 17, 18 and 19 and show on the simulated firmware's LCD; a
version 1 panel never sees them (its 16 bits) and plays on; Méga and Star Wars games played
from the simulated firmware (its keypad, over a real pseudo-terminal pair) into a real bank."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from bank.app.runtime import Runtime
from bank.app.script import parse_script
from bank.unit.io import Button, Icon
from drivers import panel_protocol as pp
from firmware_sim.panel_firmware import PanelFirmware
from tests.panels.conftest import FakeClock, Inbox, wait_until
from tests.panels.mega_screens import FORCE_LOST, SKYSCRAPER_BUILT, depot_deed
from tests.panels.test_serial_keypad import (
    balance,
    bank_with_panel,
    click,
    link,
    shows,
)
from tests.support.pty_pair import PtyPair

NEW_ICONS = frozenset({Icon.FORCE, Icon.SKYSCRAPER, Icon.DEPOT})


def tap(rt: Runtime, card: str) -> None:
    """A card of the running game's edition on the reader (deed 37, bank card 8)."""
    for action in parse_script(f"tap {card}", "test", rt.cards):
        rt.perform(action)


def test_the_new_icons_take_the_bits_the_protocol_reserved() -> None:
    """docs/serial-protocol.md §4: 16 keypad, 17 Force, 18 skyscraper, 19 depot."""
    assert pp.icon_mask(frozenset({Icon.FORCE})) == 1 << 17
    assert pp.icon_mask(frozenset({Icon.SKYSCRAPER})) == 1 << 18
    assert pp.icon_mask(frozenset({Icon.DEPOT})) == 1 << 19
    assert pp.icon_mask(frozenset({Icon.KEYPAD})) == 1 << 16
    assert sorted(pp.ICON_BITS.values()) == [*range(20)]
    # a version 1 panel's mask keeps its 16 bits only
    assert pp.icon_mask(NEW_ICONS | {Icon.MORTGAGE}, 1) == 1 << 10


def test_version_2_carries_them_in_three_mask_bytes_and_version_1_leaves_them_out() -> None:
    # (a mortgage icon beside it, to show version 1 keeps the bits it has)
    screen = replace(SKYSCRAPER_BUILT, icons=SKYSCRAPER_BUILT.icons | {Icon.MORTGAGE})
    v2 = pp.encode_show(screen)
    assert pp.decode_show(v2) == screen
    v1 = pp.encode_show(screen, 1)
    assert len(v2) == len(v1) + 2  # the size byte and a third mask byte
    assert pp.decode_show(v1, 1) == replace(screen, icons=frozenset({Icon.MORTGAGE}))
    # A version 2 panel that predates an icon ignores its bit (bit 20 is nobody's yet).
    mask_at = v2.index(bytes((3,)) + (pp.icon_mask(screen.icons)).to_bytes(3, "big"))
    spare = bytearray(v2)
    spare[mask_at + 1] |= 0x10  # bit 20
    assert pp.decode_show(bytes(spare)) == screen


def test_the_firmware_shows_the_new_icons_and_an_old_panel_never_sees_them(
    cable: PtyPair, inbox: Inbox, clock: FakeClock
) -> None:
    force = FORCE_LOST
    depot = depot_deed("Gare Montparnasse", "chien dépôt 100 €")
    with link(cable, inbox, clock) as (panel, fw):
        panel.show(force)
        wait_until(lambda: fw.screen == force, what="the Force screen")
        assert fw.lcd_lines[:2] == ("dooku            200", "FORCE" + " " * 15)
        panel.show(depot)
        wait_until(lambda: fw.screen == depot, what="the depot")
        assert fw.lcd_lines[1].startswith("DEPOT")
    with link(cable, inbox, clock, version=1) as (panel, fw):
        panel.show(force)
        wait_until(lambda: fw.screen is not None and fw.screen.name == "force", what="v1")
        assert fw.screen == replace(force, icons=frozenset())
        assert fw.stats["malformed"] == 0
        assert not any("FORCE" in row for row in fw.lcd_lines)


def menu_to(fw: PanelFirmware, item: int) -> None:
    """M from idle, then M until the menu shows *item*, one press per item shown."""
    for _ in range(16):
        shown = len(fw.screens)
        click(fw, Button.MENU)
        wait_until(lambda n=shown: len(fw.screens) > n, what="the next item")
        if fw.screen is not None and fw.screen.number == item:
            return
    raise AssertionError(f"menu item {item} never came: {fw.screen}")


def test_a_star_wars_force_battle_from_a_keypad_panel(tmp_path: Path, cable: PtyPair) -> None:
    """starwars-ep2-fr on a version 2 keypad panel: Obi-Wan and Dooku, menu item 14 typed as
    1 4 on the panel's keypad, Dooku's card, the Force die's face picked with the keypad (1:
    carré clair): Dooku loses 200; the panel's LCD says FORCE."""
    with bank_with_panel(tmp_path, cable, "starwars-ep2-fr", keypad=True) as (rt, fw):
        tap(rt, "bank:1")
        tap(rt, "bank:6")
        click(fw, Button.OK)
        shows(fw, "game_started", "2 joueurs", "1500 cr")
        click(fw, Button.MENU)
        fw.key("14")
        shows(fw, "menu", "Force")
        assert fw.screen is not None and fw.screen.number == 14
        assert Icon.FORCE in fw.screen.icons and "FORCE" in fw.lcd_lines[1]
        tap(rt, "bank:6")
        shows(fw, "pick", "Dé de Force ?")
        fw.key("1")
        shows(fw, "pick", "carré clair")
        click(fw, Button.OK)
        shows(fw, "force", "Vaincu par la Force", "Dooku −200")
        assert fw.lcd_lines[1].startswith("FORCE")
        assert balance(rt, 6) == 1300 and balance(rt, 1) == 1500


def test_a_mega_depot_and_the_birthday_gift_on_an_old_panel(tmp_path: Path, cable: PtyPair) -> None:
    """mega-fr on a version 1 panel (no keypad, 16 icon bits): a station bought, its depot
    built through the menu's buttons, the Birthday Gift (item 15) by M presses; the depot's
    screens arrive without the icon, nothing is refused, the balances are the unit's."""
    with bank_with_panel(tmp_path, cable, "mega-fr", version=1) as (rt, fw):
        tap(rt, "bank:1")
        tap(rt, "bank:2")
        click(fw, Button.OK)
        shows(fw, "game_started", "2 joueurs", "2500")
        tap(rt, "deed:4")
        tap(rt, "bank:1")
        shows(fw, "bought", "Achat 200")
        menu_to(fw, 7)
        shows(fw, "menu", "Construire")
        tap(rt, "bank:1")
        shows(fw, "session", "chien")
        tap(rt, "deed:4")
        shows(fw, "built", "Dépôt −100")
        assert fw.screen is not None and fw.screen.icons == frozenset()
        click(fw, Button.OK)
        shows(fw, "idle")
        menu_to(fw, 15)  # the item after 12 in a Méga game without the pot variant
        shows(fw, "menu", "Cadeau +100")
        tap(rt, "bank:1")
        shows(fw, "gift", "chien +100", "Solde 2300")
        assert fw.stats["malformed"] == 0
        assert balance(rt, 1) == 2500 - 200 - 100 + 100
