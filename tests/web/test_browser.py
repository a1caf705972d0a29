"""The web view in a real headless Chromium: taps on the simulated reader change the page.

Set ``ULTIBANK_DOCS_SCREENSHOT=1`` to also refresh ``docs/web-phone.png`` from the phone test.
"""

from __future__ import annotations

import os
import shutil
import struct
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bank.unit.io import Button
from tests.web.browser import PHONE, open_browser
from tests.web.conftest import (
    Table,
    key,
    need_matplotlib,
    start_classic_table,
    start_table,
    stop_table,
)

pytestmark = pytest.mark.slow
DOCS = Path(__file__).resolve().parents[2] / "docs"


def wait_for(driver: Any, script: str, timeout: float = 10.0) -> Any:
    """Poll *script* in the page until it returns something truthy (a real browser: a deadline)."""
    deadline = time.monotonic() + timeout
    while True:
        value = driver.execute_script(script)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"the page never satisfied: {script}")
        time.sleep(0.02)  # polling a real process, not waiting for time to pass


def until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.02)


def balance_of(driver: Any, card: int) -> str | None:
    result: str | None = driver.execute_script(
        "const b = document.querySelector(`.player[data-card='${arguments[0]}'] .balance`);"
        "return b ? b.dataset.balance : null;",
        card,
    )
    return result


def load(driver: Any, table: Table) -> None:
    driver.get(table.web.url)
    wait_for(driver, "return window.ultibank && window.ultibank.renders.length > 0")


def severe_console_errors(driver: Any) -> list[str]:
    try:
        entries = driver.get_log("browser")
    except Exception:  # not every driver keeps the console
        return []
    return [e["message"] for e in entries if e.get("level") == "SEVERE"]


def test_phone_page_follows_taps(table: Table, tmp_path: Path) -> None:
    with open_browser(*PHONE) as driver:
        load(driver, table)
        assert "Pas de partie" in driver.find_element("id", "players").text  # French unit
        table.start_game(1, 2, 3, 4)
        wait_for(driver, "return document.querySelectorAll('.player').length === 4")
        assert balance_of(driver, 2) == "1500"

        table.tap("prop:22", "bank:2")
        until(lambda: balance_of(driver, 2) == "1100")
        card = driver.find_element("css selector", ".player[data-card='2']").text
        assert "Hélicoptère" in card.title() and "1 propriété" in card
        owner = driver.find_element("id", "owner-22")
        assert owner.get_attribute("visibility") == "visible"
        icon = driver.find_element("css selector", "#owner-22 use")
        assert icon.get_attribute("href") == "#tok-helicopter"
        fill = driver.find_element("css selector", "#owner-22 circle").get_attribute("fill")
        assert fill == "#e07a00"  # the helicopter's colour (card 2)
        assert driver.find_element("id", "pip-22-1").get_attribute("class") == "pip on"
        assert driver.find_element("id", "pip-22-2").get_attribute("class") == "pip"
        first = driver.find_element("css selector", "#log li")
        assert "undoable" in first.get_attribute("class").split()
        assert "hélicoptère arrive sur #22" in first.text.lower()
        assert "l'annulation porterait" in first.text

        # more of a game for the picture: purchases, a rent, a prisoner, an auction with a bid
        for prop, bank in ((21, 2), (12, 1), (13, 1), (1, 3), (8, 4), (12, 3)):
            table.tap(f"prop:{prop}", f"bank:{bank}")
        table.press(Button.MENU, Button.MENU)
        table.tap("bank:4")  # jet goes to jail
        table.tap("prop:15")
        table.press(Button.MENU, Button.OK)
        table.tap("bank:3", "bank:1", "bank:3")
        wait_for(
            driver,
            "return !document.getElementById('auction').hidden && "
            "document.getElementById('auc-price').textContent.startsWith('60')",
        )
        assert "bateau" in driver.find_element("id", "auc-bidder").text
        assert "#15" in driver.find_element("id", "auc-prop").text
        secs = int(driver.find_element("id", "auc-secs").text)
        assert 0 < secs <= 10
        jet = driver.find_element("css selector", ".player[data-card='4']").text
        assert "en prison" in jet
        # a phone screen: nothing wider than the viewport
        assert driver.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
        driver.execute_script("window.scrollTo(0, 0)")
        shot = tmp_path / "web-phone.png"
        assert driver.save_screenshot(str(shot))
        width, height = struct.unpack(">II", shot.read_bytes()[16:24])
        assert (width, height) == PHONE
        if os.environ.get("ULTIBANK_DOCS_SCREENSHOT"):
            shutil.copyfile(shot, DOCS / "web-phone.png")
        assert severe_console_errors(driver) == []


def test_game_over_page_shows_the_winner_and_the_chart(table: Table) -> None:
    need_matplotlib()
    with open_browser(*PHONE) as driver:
        load(driver, table)
        table.play_to_bankruptcy()
        wait_for(driver, "return !document.getElementById('gameover').hidden", 10)
        assert "voiture gagne" in driver.find_element("id", "winner").text.lower()
        helicopter = driver.find_element("css selector", ".player[data-card='2']").text
        assert "en faillite" in helicopter
        natural = wait_for(
            driver,
            "const i = document.getElementById('chart');"
            "return i.complete && i.naturalWidth > 0 ? [i.naturalWidth, i.naturalHeight] : null;",
            60,
        )
        assert natural == [800, 450]
        assert severe_console_errors(driver) == []


def test_page_in_english_for_an_english_unit(tmp_path: Path) -> None:
    table = start_table(tmp_path, overrides=['unit.language="en"'])
    try:
        table.start_game(1, 2)
        table.tap("prop:22", "bank:2")
        with open_browser(*PHONE) as driver:
            load(driver, table)
            first = driver.find_element("css selector", "#log li").text
            assert "helicopter lands on #22" in first and "undo would cancel" in first
            assert (
                driver.find_element("css selector", ".log h2").text.lower() == "last transactions"
            )
            go = driver.find_element("id", "space-0").text
            assert "GO" in go
            assert driver.execute_script("return document.documentElement.lang") == "en"
    finally:
        stop_table(table)


def test_page_shows_what_happened_before_it_opened(table: Table) -> None:
    table.start_game(1, 2)
    table.tap("prop:5", "bank:1")
    with open_browser(*PHONE) as driver:
        load(driver, table)
        assert balance_of(driver, 1) == "1380"
        assert driver.find_element("id", "owner-5").get_attribute("visibility") == "visible"
        lcd = driver.find_element("id", "lcd-lines").text
        assert "République" in lcd


def test_classic_page_draws_the_ring_buildings_mortgages_and_eight_players(
    tmp_path: Path,
) -> None:
    """Set ``ULTIBANK_DOCS_SCREENSHOT=1`` to refresh ``docs/web-classic.png`` from this test."""
    table = start_classic_table(tmp_path / "data")
    try:
        with open_browser(1400, 1100) as driver:
            load(driver, table)
            spaces = driver.execute_script(
                "return document.querySelectorAll('[id^=space-]').length"
            )
            assert spaces == 40
            wait_for(driver, "return document.querySelectorAll('.player').length === 8")
            colours = driver.execute_script(
                "return [...document.querySelectorAll('.player')].map("
                "(p) => getComputedStyle(p).borderLeftColor)"
            )
            assert len(set(colours)) == 8

            def visible(node_id: str) -> bool:
                node = driver.find_element("id", node_id)
                return bool(node.get_attribute("visibility") == "visible")

            assert visible("hotel-1") and not visible("house-1-1")
            assert [visible(f"house-2-{k}") for k in range(1, 5)] == [True] * 4
            assert [visible(f"house-4-{k}") for k in range(1, 5)] == [True, True, False, False]
            assert visible("mortgage-3") and not visible("mortgage-4")
            assert driver.find_element("id", "space-5").get_attribute("data-state") == "mortgaged"
            fill = driver.find_element("css selector", "#owner-28 circle").get_attribute("fill")
            assert fill == "#2a9d55"  # ship (card 4) owns Rue de la Paix after the trade
            # bateau and brouette, chien and chapeau share an initial: the disc adds the card
            assert driver.find_element("css selector", "#owner-28 .initial").text == "B4"
            assert driver.find_element("css selector", "#owner-1 .initial").text == "C1"
            discs = driver.execute_script(
                "return [...document.querySelectorAll('.player .tok text')]"
                ".map((t) => t.textContent)"
            )
            assert discs == ["C1", "V", "C3", "B4", "F", "D", "C7", "B8"]
            centre = driver.find_element("id", "board").text
            assert "Parc gratuit : 200 €" in centre and "24 maisons, 11 hôtels" in centre
            boot = driver.find_element("css selector", ".player[data-card='7']").text
            assert "en prison" in boot and "1 carte prison" in boot and "0 titre" in boot
            dog = driver.find_element("css selector", ".player[data-card='1']")
            assert dog.get_attribute("data-worth") == "1750" and "valeur 1" in dog.text
            first = driver.find_element("css selector", "#log li").text
            assert "dé paie 250 € de loyer à chien pour 1 Boulevard de Belleville (hôtel)" in first
            tax = driver.find_element("id", "space-4").text
            assert "TAXE" in tax and "−200" in tax
            shot = tmp_path / "web-classic.png"
            assert driver.save_screenshot(str(shot))
            if os.environ.get("ULTIBANK_DOCS_SCREENSHOT"):
                shutil.copyfile(shot, DOCS / "web-classic.png")

            # the interest question after a trade, as the unit shows it
            table.press(Button.MENU)
            key(table, "10")
            table.tap("bank:5", "bank:3", "deed:3")
            table.press(Button.OK)  # ✓ on the deeds panel makes the offer at once
            wait_for(driver, "return !document.getElementById('step').hidden")
            assert "Échange proposé" in driver.find_element("id", "step").text
            table.tap("bank:3")
            wait_for(
                driver,
                "return document.getElementById('step').dataset.kind === 'interest'",
            )
            step = driver.find_element("id", "step").text
            assert "3 Gare Montparnasse" in step and "garder : payer 10 €" in step
            assert "lever : payer 110 €" in step
            assert severe_console_errors(driver) == []
        with open_browser(*PHONE) as driver:  # 8 players still fit a phone
            load(driver, table)
            wait_for(driver, "return document.querySelectorAll('.player').length === 8")
            assert driver.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
    finally:
        stop_table(table)


def inside(driver: Any, position: int) -> list[str]:
    """The ids (or tags) of what the space at ring *position* draws outside its own square."""
    result: list[str] = driver.execute_script(
        "const cell = document.getElementById(`space-${arguments[0]}`);"
        "const box = cell.querySelector('rect.space').getBBox();"
        "const out = [];"
        "for (const n of cell.querySelectorAll('text, circle, rect, path')) {"
        "  if (n.closest('title') || n === cell.querySelector('rect.space')) continue;"
        "  const b = n.getBBox();"
        "  if (b.width === 0 && b.height === 0) continue;"
        "  if (b.x < box.x - 0.5 || b.y < box.y - 0.5 || b.x + b.width > box.x + box.width + 0.5"
        "      || b.y + b.height > box.y + box.height + 0.5)"
        "    out.push(n.id || n.parentNode.id || n.tagName);"
        "}"
        "return out;",
        position,
    )
    return result


def test_mega_page_draws_the_52_spaces_skyscrapers_depots_and_the_speed_die(
    tmp_path: Path,
) -> None:
    """Set ``ULTIBANK_DOCS_SCREENSHOT=1`` to refresh ``docs/web-mega.png`` from this test."""
    from tests.web.conftest import MEGA_SCRIPT, start_script_table

    table = start_script_table(tmp_path / "data", MEGA_SCRIPT, "mega-fr")
    try:
        with open_browser(1400, 1100) as driver:
            load(driver, table)
            wait_for(driver, "return document.querySelectorAll('.player').length === 4")
            assert (
                driver.execute_script("return document.querySelectorAll('[id^=space-]').length")
                == 52
            )
            # 13 spaces a side: 0-12 share the bottom row, 13-25 the left column ...
            boxes = driver.execute_script(
                "return [...Array(52).keys()].map((i) => {"
                "const b = document.querySelector(`#space-${i} rect.space`).getBBox();"
                "return [b.x, b.y, b.width, b.height]; })"
            )
            for side in range(4):
                row = boxes[13 * side : 13 * side + 13]
                fixed = 1 if side % 2 == 0 else 0  # the bottom and top rows share y
                assert len({round(b[fixed]) for b in row[1:]}) == 1, side
            # each space draws inside its own square (numbers, tokens, buildings)
            for position in range(52):
                assert inside(driver, position) == [], position

            def visible(node_id: str) -> bool:
                node = driver.find_element("id", node_id)
                return bool(node.get_attribute("visibility") == "visible")

            assert visible("skyscraper-1") and not visible("hotel-1")
            assert visible("hotel-2") and visible("hotel-3") and not visible("skyscraper-2")
            assert visible("depot-4") and not visible("depot-15")
            assert [visible(f"house-5-{k}") for k in range(1, 5)] == [True, False, False, False]
            assert visible("mortgage-10")
            assert driver.find_element("id", "space-1").get_attribute("data-state") == (
                "skyscraper"
            )
            station = driver.find_element("id", "space-6")  # deed 4, Gare Montparnasse
            assert station.get_attribute("data-state") == "depot"
            assert driver.find_elements("id", "depot-1") == []  # a street has no depot
            for n in (7, 12, 27):  # the three utilities, tophat's
                fill = driver.find_element("css selector", f"#owner-{n} circle")
                assert fill.get_attribute("fill") == "#1f77b4"
            centre = driver.find_element("id", "board").text
            assert "29 maisons, 10 hôtels" in centre and "7 gratte-ciel, 3 dépôts" in centre
            assert "dernier lancer : chien 2 + 5 · M. Monopoly" in centre
            assert "ENCHÈRE" in driver.find_element("id", "space-14").text
            assert "CADEAU" in driver.find_element("id", "space-47").text
            first = driver.find_element("css selector", "#log li").text
            assert "chien lance les dés : 2 + 5 = 7, M. Monopoly" in first
            shot = tmp_path / "web-mega.png"
            assert driver.save_screenshot(str(shot))
            if os.environ.get("ULTIBANK_DOCS_SCREENSHOT"):
                shutil.copyfile(shot, DOCS / "web-mega.png")

            # a roll with the speed die's number, seen live
            table.rt.daemon.call(lambda: table.rt.unit.queue_roll((4, 1), "3"))
            table.press(Button.MENU)
            key(table, "11")
            table.tap("bank:2")
            wait_for(
                driver,
                "return document.getElementById('board-roll').textContent"
                ".includes('voiture 4 + 1 + 3')",
            )
            assert severe_console_errors(driver) == []
        with open_browser(*PHONE) as driver:  # the 52 spaces still fit a phone
            load(driver, table)
            wait_for(driver, "return document.querySelectorAll('.player').length === 4")
            assert driver.execute_script("return document.documentElement.scrollWidth") <= PHONE[0]
    finally:
        stop_table(table)


def test_star_wars_page_shows_each_characters_side_and_the_force_die(tmp_path: Path) -> None:
    from tests.web.conftest import STARWARS_SCRIPT, start_script_table

    table = start_script_table(tmp_path / "data", STARWARS_SCRIPT, "starwars-ep2-fr")
    try:
        with open_browser(1400, 1100) as driver:
            load(driver, table)
            wait_for(driver, "return document.querySelectorAll('.player').length === 8")
            sides = driver.execute_script(
                "return [...document.querySelectorAll('.player')].map("
                "(p) => [p.dataset.card, p.querySelector('.badge.side').textContent])"
            )
            assert sides == [[str(c), "côté clair"] for c in range(1, 6)] + [
                [str(c), "côté obscur"] for c in range(6, 9)
            ]
            light, dark = driver.execute_script(
                "return ['light', 'dark'].map((s) => getComputedStyle("
                "document.querySelector(`.badge.side.${s}`)).backgroundColor)"
            )
            assert light != dark
            centre = driver.find_element("id", "board").text
            assert "dernier lancer : Jango 2 + 1 · carré obscur" in centre
            log = driver.find_element("id", "log").text
            assert "Anakin (côté clair) perd la bataille de la Force : bascule" in log
            assert severe_console_errors(driver) == []
    finally:
        stop_table(table)


def test_the_english_mega_board_keeps_its_words_inside_their_spaces(tmp_path: Path) -> None:
    from tests.web.conftest import MEGA_SCRIPT, start_script_table

    table = start_script_table(tmp_path / "data", MEGA_SCRIPT, "mega-uk")
    try:
        with open_browser(1400, 1100) as driver:
            load(driver, table)
            wait_for(driver, "return document.querySelectorAll('.player').length === 4")
            assert driver.execute_script("return document.documentElement.lang") == "en"
            for position in range(52):
                assert inside(driver, position) == [], position
            assert "AUCTION" in driver.find_element("id", "space-14").text
            assert "BIRTHDAY" in driver.find_element("id", "space-47").text
            centre = driver.find_element("id", "board").text
            assert "7 skyscrapers, 3 depots" in centre
            assert "last roll: dog 2 + 5 · Mr Monopoly" in centre
            assert severe_console_errors(driver) == []
    finally:
        stop_table(table)
