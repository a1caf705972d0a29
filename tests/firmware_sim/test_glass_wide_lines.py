"""Issue 19.1: the emulator's glass uses its 25 cells. A classic screen carries its lines
written for the glass (:attr:`Screen.wide`) beside the 20-cell ones the character LCDs show;
the glass draws the wide ones: read back dot by dot from the rendered surface, the long
street name and the interest question read whole on the glass (`27 Av. des Champs-Élysées`,
`✓garder 18 M lever 193`), where the transcript and the 20x4 LCD keep `27 Av. Champs-Élys.`
and `✓gard 18 M lev 193`."""

from __future__ import annotations

from pathlib import Path

from bank.app.runtime import panel_labels
from board_assets import load_edition
from drivers import charlcd
from firmware_sim.dotfont import fold
from firmware_sim.lcd import LcdRenderer
from tests.panels.test_classic_numbers_whole import _screens
from tests.unit.test_classic_scripts import SCENARIOS, args_of

from .lcdread import read_text_row


def test_the_glass_draws_the_lines_written_for_its_width(tmp_path: Path) -> None:
    path = SCENARIOS / "x_long_lines.tap"
    screens = _screens(path, args_of(path), tmp_path)
    ed = load_edition("classic-fr")
    labels = panel_labels(ed, "fr")
    renderer = LcdRenderer(currency=ed.currency, token_labels=labels.tokens, lang="fr")
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
