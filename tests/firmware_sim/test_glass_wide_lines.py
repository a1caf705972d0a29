"""Issue 19.1: the emulator's glass uses its 25 cells. A classic screen carries its lines
written for the glass (:attr:`Screen.wide`) beside the 20-cell ones the character LCDs show;
the glass draws the wide ones: read back dot by dot from the rendered surface, the long
street name and the interest question read whole on the glass (`27 Av. des Champs-Élysées`,
`✓garder 18 M lever 193`), where the transcript and the 20x4 LCD keep `27 Av. Champs-Élys.`
and `✓gard 18 M lev 193`; the info table and ranking pages and the trade's panels and summary
with its cash name the tokens whole (`voiture>3 chapeau>100`); and on every classic scenario
no row of the glass ends cut or cuts a token name whose whole name fits its 25 cells."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bank.app.runtime import panel_labels
from bank.rulesets.classic.edition import classic_edition
from bank.unit.io import Screen
from board_assets import EditionError, load_edition
from drivers import charlcd
from firmware_sim.dotfont import fold
from firmware_sim.lcd import TEXT_COLS, LcdRenderer, glass_rows
from tests.panels.test_classic_numbers_whole import _screens
from tests.unit.test_classic_scripts import ALL as CLASSIC
from tests.unit.test_classic_scripts import EXAMPLES, SCENARIOS, args_of

from .lcdread import read_text_row


def test_the_glass_draws_the_lines_written_for_its_width(tmp_path: Path) -> None:
    path = SCENARIOS / "x_long_lines.tap"
    screens = _screens(path, args_of(path), tmp_path)
    ed = load_edition("classic-fr")
    labels = panel_labels(ed, "fr")
    renderer = LcdRenderer(currency=ed.currency, token_labels=labels.tokens, title=labels.title)
    read: dict[str, list[str]] = {}
    for screen in screens:
        if (
            screen.name in ("interest", "deed", "no_rent")
            and screen.wide
            and screen.name not in read
        ):
            surf = renderer.render(screen)
            lay = renderer.layout
            read[screen.name] = [read_text_row(surf, lay, r).strip() for r in range(2)]
            lcd = charlcd.layout(screen, 20, 4, labels=labels)
            assert charlcd.fold(screen.lines[0]).ljust(20) in lcd or screen.name == "interest"
    assert read["interest"] == [fold("Titre 27 hypothéqué"), fold("✓garder 18 M lever 193")]
    assert read["deed"][0] == fold("27 Av. des Champs-Élysées")
    assert read["no_rent"] == [fold("27 Av. des Champs-Élysées"), fold("Hypothéqué : pas de loyer")]


def _read_glass(path: Path, tmp_path: Path) -> list[tuple[Screen, list[str]]]:
    """Each screen of scenario *path* and the two text rows read back from its rendered glass."""
    screens = _screens(path, args_of(path), tmp_path)
    ed = load_edition("classic-fr")
    labels = panel_labels(ed, "fr")
    renderer = LcdRenderer(currency=ed.currency, token_labels=labels.tokens, title=labels.title)
    out = []
    for screen in screens:
        surf = renderer.render(screen)
        out.append((screen, [read_text_row(surf, renderer.layout, r).strip() for r in range(2)]))
    return out


def test_the_glass_shows_whole_token_names_in_the_info_pages_and_the_trade(tmp_path: Path) -> None:
    """Six players with long names: the trade panels and the summary keep the cash and name the
    tokens whole on the glass, the info table and the ranking too, page by page; the 20 cells
    (the transcript's lines, the 20x4 LCD) keep their shortened tokens, byte for byte."""
    read = _read_glass(SCENARIOS / "x_wide_glass.tap", tmp_path)
    labels = panel_labels(load_edition("classic-fr"), "fr")
    trade = [rows for s, rows in read if s.name == "trade"]
    assert [fold("Titres"), fold("voiture:3 chapeau:-")] in trade
    assert [fold("Cartes prison"), fold("voiture:0 chapeau:0")] in trade
    assert [fold("Résumé"), fold("voiture>3 chapeau>100")] in trade
    summary = next(s for s, rows in read if rows[0] == fold("Résumé"))
    assert summary.lines == ("Résumé", "voitur>3 chapea>100")  # the character LCD's
    assert charlcd.fold("voitur>3 chapea>100").ljust(20) in charlcd.layout(
        summary, 20, 4, labels=labels
    )
    info = [rows for s, rows in read if s.name == "info"]
    assert info[0] == [fold("voiture 1400 chapeau 1400"), fold("fer 1500 dé 1500")]
    # the second page: the two whole names would take 28 cells; both shortened alike
    assert info[1] == [fold("chaussu 1500 brouett 1500"), ""]
    assert info[2] == [fold("Classement 1/3"), fold("1.chapeau 2.fer 3.dé")]
    assert info[3] == [fold("Classement 2/3"), fold("4.chaussure")]
    assert info[4] == [fold("Classement 3/3"), fold("5.brouette 6.voiture")]
    first = next(s for s, rows in read if s.name == "info")
    assert first.lines == ("voit 1400 chap 1400", "fer 1500 dé 1500")


def _labels(args: list[str]) -> tuple[str, ...]:
    """The token labels of the scenario's edition (none for an Ultime one)."""
    name = args[args.index("--edition") + 1] if "--edition" in args else "ultime-fr"
    try:
        return classic_edition(load_edition(name)).token_labels
    except EditionError:
        return ()


def _cut_words(row: str, labels: tuple[str, ...]) -> list[str]:
    """The token names cut short in *row* whose whole name would still fit the glass's row."""
    cut = []
    for m in re.finditer(r"[\w'-]{3,}", row):
        word = m.group()
        for label in labels:
            short = label != word and label.startswith(word)
            whole = row[m.start() :].startswith(label)
            if short and not whole and len(row) - len(word) + len(label) <= TEXT_COLS:
                cut.append(f"{word} ({label})")
    return cut


#: every classic scenario with its options: tests/scripts/classic and the spec's examples
ALL_CLASSIC = [
    *((p, args_of(p)) for p in CLASSIC),
    *((p, ["--edition", "classic-fr"]) for p in sorted(EXAMPLES.glob("*.tap"))),
]


@pytest.mark.parametrize(("path", "args"), ALL_CLASSIC, ids=[p.stem for p, _ in ALL_CLASSIC])
def test_no_glass_row_of_a_classic_scenario_is_shortened_where_it_would_fit(
    path: Path, args: list[str], tmp_path: Path
) -> None:
    """Every screen of every classic scenario, on the glass (its rows as drawn): no row ends
    cut (`…`) and no token name is cut where the whole name fits the row's 25 cells."""
    labels = _labels(args)
    lang = "en" if "-uk" in " ".join(args) else "fr"
    name = args[args.index("--edition") + 1] if "--edition" in args else "ultime-fr"
    title = panel_labels(load_edition(name), lang).title if labels else None
    bad = []
    for screen in _screens(path, args, tmp_path):
        for row in glass_rows(screen, title):
            assert len(row) <= TEXT_COLS
            if row.endswith("…") or _cut_words(row, labels):
                bad.append(f"{screen.text()} -> {row!r} {_cut_words(row, labels)}")
    assert not bad, "\n".join(bad)
