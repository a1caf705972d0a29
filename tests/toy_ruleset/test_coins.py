"""The coins toy ruleset played on every panel, from its own folder: its card kind, its icon,
its menu item, its words and its panel vocabulary reach the sim panel (a tap script), the
terminal view (a real pseudo-terminal), the serial panel (a pseudo-terminal pair and the
simulated firmware), the emulator's glass (pygame on a dummy display) and the web view, and
``ultibank history`` tells its game in words."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from bank.cli import main
from bank.unit.io import Button, CardId, Screen
from tests import toy_ruleset as coins

pytestmark = pytest.mark.xdist_group("coins_ruleset")


@pytest.fixture(autouse=True)
def installed() -> Iterator[None]:
    coins.install()
    try:
        yield
    finally:
        coins.uninstall()


def script(tmp: Path, data: Path, capsys: pytest.CaptureFixture[str]) -> tuple[dict, str]:  # type: ignore[type-arg]
    state = tmp / "state.json"
    code = main(["script", str(coins.SCRIPT), "--edition", str(coins.EDITION_FILE),
                 "--data-dir", str(data), "--state", str(state)])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(state.read_text(encoding="utf-8")), out


def test_the_sim_panel_plays_the_coin_the_star_and_the_menu(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state, transcript = script(tmp_path, tmp_path / "data", capsys)
    assert state["edition"] == "coins"
    # red bought the spot (5 - 3) and was paid 1; blue wished 2 on coin 2 and paid 1
    assert {p["card"]: p["balance"] for p in state["players"]} == {1: 3, 2: 6}
    assert "screen coins_wish #2 {star} | Coin 2 / Tap a bank card" in transcript
    assert "screen coins_wished 2 {star} | Wished 2" in transcript
    assert "screen coins_menu #1 | 1 Rules" in transcript
    assert "screen coins_rules | Land pays 1 / Coin N gives N" in transcript


def test_its_history_is_told_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    script(tmp_path, data, capsys)
    assert (
        main(
            [
                "history",
                "show",
                "1",
                "--set",
                f'game.edition="{coins.EDITION_FILE}"',
                "--data-dir",
                str(data),
            ]
        )
        == 0
    )
    told = capsys.readouterr().out
    for line in ("A game of coins for Red, Blue", "Red bought The Spot for 3 c",
                 "Blue wished on coin 2: 2 c", "Blue paid Red 1 c"):  # fmt: skip
        assert line in told, told
    assert (
        main(
            [
                "history",
                "show",
                "1",
                "--set",
                f'game.edition="{coins.EDITION_FILE}"',
                "--data-dir",
                str(data),
                "--lang",
                "fr",
            ]
        )
        == 0
    )
    assert "Blue fait un vœu sur la pièce 2 : 2 c" in capsys.readouterr().out


def test_a_coin_card_is_a_card_of_its_editions_kind() -> None:
    from bank.unit.io import CardRanges
    from board_assets import load_edition_file

    cards = CardRanges.of(load_edition_file(coins.EDITION_FILE))
    assert [str(c) for c in cards.cards()] == [
        "bank:1",
        "bank:2",
        "prop:1",
        "coin:1",
        "coin:2",
        "coin:3",
    ]
    assert CardId.parse("coin:3", cards) == CardId("coin", 3)
    with pytest.raises(ValueError, match=r"coin cards run 1\.\.3, not 4"):
        CardId.parse("coin:4", cards)
    with pytest.raises(ValueError, match=r"did you mean coin:1\?"):
        CardId.parse("coins:1", cards)


def test_the_panel_vocabulary_names_the_coin_the_star_and_the_menu() -> None:
    """The wiring asks the ruleset; the terminal's help and keys and a character LCD's status
    words follow its vocabulary, with no line of the panels naming the ruleset."""
    from bank.app.runtime import panel_labels
    from bank.unit.io import CardRanges
    from board_assets import load_edition_file
    from drivers.charlcd import layout as render_rows
    from drivers.terminal_panel import KeyReader, Tap

    edition = load_edition_file(coins.EDITION_FILE)
    labels = panel_labels(edition, "en")
    assert labels.art(coins.STAR) == coins.STAR_ART and labels.menu == {1: "Rules"}
    reader = KeyReader("en", CardRanges.of(edition), labels)
    assert reader.keys("c3\r") == [Tap(CardId("coin", 3))]
    assert "c1-c3 Enter = Coin" in reader.help() and "m 1 = Rules" in reader.help()
    wished = Screen("coins_wished", ("Wished 2",), amount=2, icons=frozenset({coins.STAR}))
    assert "STAR" in " ".join(render_rows(wished, 20, 4, labels=labels))
    french = panel_labels(edition, "fr")
    assert "ETOILE" in " ".join(render_rows(wished, 20, 4, labels=french))


def test_the_emulator_plays_the_coin_and_draws_the_star_from_the_rulesets_art(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The emulator's window (pygame on its dummy display) in front of a running bank: the
    coin and the bank card played, its glass lights the star, drawn from the ruleset's art
    (the glass without the star differs exactly there)."""
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    import pygame

    from bank.app.runtime import Runtime, panel_labels
    from bank.app.script import parse_script
    from bank.services.settings import load_settings
    from firmware_sim.emulator import PygamePanel
    from firmware_sim.lcd import LcdRenderer

    edition = f'game.edition="{coins.EDITION_FILE}"'
    rt = Runtime(load_settings(None, [f'game.data_dir="{tmp_path / "data"}"', edition]))
    labels = panel_labels(rt.edition, "en")
    panel = PygamePanel(rt.edition, clock=rt.clock, sound=False, labels=labels)
    rt.add_panel(panel)
    rt.start(control=False)
    try:
        panel.open()
        for line in ("tap bank:1", "tap bank:2", "press ok", "tap coin:2", "tap bank:2"):
            for action in parse_script(line, "test", rt.cards):
                rt.perform(action)
        rt.daemon.call(lambda: None)
        for _ in range(5):
            panel.step()
        glass = LcdRenderer(currency="c", art=labels.icons)
        area = pygame.Rect(glass.layout.icon_rects[coins.STAR])
        wished = Screen("coins_wished", ("Wished 2",), amount=2, icons=frozenset({coins.STAR}))
        unlit = Screen("coins_wished", ("Wished 2",), amount=2)

        def pixels(surface: pygame.Surface) -> bytes:
            return pygame.image.tobytes(surface.subsurface(area).copy(), "RGB")

        shown = pixels(panel.lcd_surface())
        assert shown == pixels(glass.render(wished))
        assert shown != pixels(glass.render(unlit))
        player = rt.game.state.player(2)
        assert player is not None and player.balance == 7
    finally:
        panel.close()
        rt.stop()


def test_the_web_view_shows_the_coins_game(tmp_path: Path) -> None:
    from tests.web.conftest import start_table, stop_table

    table = start_table(tmp_path, overrides=[f'game.edition="{coins.EDITION_FILE}"'])
    try:
        table.start_game(1, 2)
        table.tap("coin:3", "bank:1")
        state = table.state()
        assert {p["card"]: p["balance"] for p in state["players"]} == {1: 8, 2: 5}
        status, page, _ = table.get("/")
        assert status == 200 and b"<html" in page.lower()
    finally:
        stop_table(table)


def test_the_serial_panel_plays_the_coin_and_lights_the_star(tmp_path: Path) -> None:
    """The coin on the reader, the bank card, the result on the simulated firmware's LCD over
    a real pseudo-terminal pair; the bank sends the star in its icon table (the ruleset's
    vocabulary), so the firmware's character LCD writes its word."""
    from bank.app.runtime import Runtime, panel_labels
    from bank.app.script import parse_script
    from bank.services.settings import load_settings
    from drivers.serial_panel import SerialPanel
    from firmware_sim.panel_firmware import PanelFirmware
    from tests.panels.conftest import FAST, wait_until
    from tests.panels.test_serial_keypad import balance, click, shows
    from tests.support.pty_pair import make_pair

    cable = make_pair(tmp_path)
    fw = PanelFirmware(cable.panel_path, ack_timeout=0.05, icons=True)
    fw.start()
    edition = f'game.edition="{coins.EDITION_FILE}"'
    rt = Runtime(load_settings(None, [f'game.data_dir="{tmp_path / "data"}"', edition]))
    try:
        labels = panel_labels(rt.edition, "en")
        rt.add_panel(SerialPanel(cable.host_path, clock=rt.clock, labels=labels, **FAST))
        rt.start(control=False)
        shows(fw, "new_game")

        def tap(card: str) -> None:
            for action in parse_script(f"tap {card}", "test", rt.cards):
                rt.perform(action)

        tap("bank:1")
        tap("bank:2")
        shows(fw, "new_game", "blue")
        click(fw, Button.OK)
        wait_until(lambda: rt.daemon.call(lambda: rt.game.state.started), what="the game")
        tap("coin:2")
        shows(fw, "coins_wish", "Coin 2")
        assert fw.screen is not None and coins.STAR in fw.screen.icons
        tap("bank:2")
        shows(fw, "coins_wished", "Wished 2")
        assert balance(rt, 2) == 7
        assert "STAR" in " ".join(fw.lcd_lines)
        click(fw, Button.MENU)
        shows(fw, "coins_menu", "1 Rules")
    finally:
        rt.stop()
        fw.stop()
        cable.close()


def test_the_terminal_view_plays_the_coin_on_a_real_pseudo_terminal(tmp_path: Path) -> None:
    """`ultibank run --panel terminal` in a process of its own (the ruleset registered by its
    own entry module), typed into key by key: c2 Enter taps coin 2, 2 taps blue's card."""
    from tests.panels.test_terminal_panel import Pty

    data = str(tmp_path / "d")
    term = Pty("tests.toy_ruleset.run", "run", "--panel", "terminal", "--edition",
               str(coins.EDITION_FILE), "--reader", "sim", "--data-dir", data)  # fmt: skip
    try:
        term.wait_for(lambda: b"New game" in term.screen, what="the registration")
        for keys, shown in ((b"1", b"red"), (b"2", b"blue"), (b"\r", b"2"), (b"c2\r", b"Coin 2"),
                            (b"2", b"Wished 2"), (b"?", b"c1-c3")):  # fmt: skip
            start = len(term.screen)
            term.type(keys)
            term.wait_for(lambda s=shown, at=start: s in term.screen[at:], what=repr(shown))
        assert b"STAR" in term.screen
        term.type(b"q")
        term.proc.wait(timeout=10)
    finally:
        term.close()
