"""Issue 19.6: the emulator's glass shows, on its third text row under a classic deed check,
the same hint as the 20x4 character LCD (`carte paie le loyer`, `carte achat, M ench.`,
`X retour`), read back dot by dot from the rendered surface."""

from __future__ import annotations

import io
from pathlib import Path

from bank.app.runtime import panel_labels
from bank.app.script import ScriptRunner, parse_script
from bank.unit.io import CardRanges, Output, Screen, ShowScreen
from board_assets import load_edition
from drivers import charlcd
from drivers.deck import with_foreign
from firmware_sim.dotfont import fold
from firmware_sim.lcd import LcdRenderer

from .lcdread import read_text_row


class Recording(ScriptRunner):
    """A script runner that keeps every screen the unit showed."""

    screens: list[Screen]

    def _emit(self, outputs: list[Output]) -> None:
        self.__dict__.setdefault("screens", [])
        self.screens.extend(o.screen for o in outputs if isinstance(o, ShowScreen))
        super()._emit(outputs)


def _deed_screens(tmp_path: Path, edition: str) -> list[Screen]:
    script = (
        "tap bank:1\ntap bank:2\npress ok\n"
        "tap deed:1\npress cancel\n"  # unowned: card buys, M auction
        "tap deed:1\ntap bank:1\n"  # bought
        "tap deed:1\npress cancel\n"  # owned: card pays the rent
        "info deed\n"  # the info screen of the last deed: X back
    )
    ed = load_edition(edition)
    runner = Recording(edition, tmp_path, io.StringIO())
    try:
        runner.run(parse_script(script, "hint", with_foreign(CardRanges.of(ed))))
    finally:
        runner.close()
    title = panel_labels(ed, "fr").title
    assert title is not None
    return [s for s in runner.screens if title.hint(s) is not None]


def test_the_glass_shows_the_character_lcds_hint(tmp_path: Path) -> None:
    for edition, lang in (("classic-fr", "fr"), ("classic-uk", "en")):
        ed = load_edition(edition)
        labels = panel_labels(ed, lang)
        renderer = LcdRenderer(currency=ed.currency, token_labels=labels.tokens, title=labels.title)
        screens = _deed_screens(tmp_path / edition, edition)
        assert len(screens) >= 3, screens
        hints = set()
        for screen in screens:
            rows = charlcd.layout(screen, 20, 4, labels=labels)
            surf = renderer.render(screen)
            third = read_text_row(surf, renderer.layout, 2).strip()
            assert third == fold(rows[3].strip()), (screen, rows)
            hints.add(third)
        want = {"fr": {"carte achat, M ench.", "carte paie le loyer", "X retour"},
                "en": {"card buys, M auction", "card pays the rent", "X back"}}[lang]  # fmt: skip
        assert {fold(h) for h in want} <= hints, hints


def test_an_ultime_glass_has_no_hint_row() -> None:
    renderer = LcdRenderer()
    screen = Screen("property", ("Place de la Bourse", "Loyer 280"), number=16, amount=280)
    assert read_text_row(renderer.render(screen), renderer.layout, 2).strip() == ""
