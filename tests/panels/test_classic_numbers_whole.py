"""Issue 19.1, every number whole on every panel: each screen of every scenario (the classic ones
of tests/scripts/classic with their own options, the spec's classic examples, the web view's
games, the readers' classic game, the Ultime scenarios of tests/scripts and the example game of
docs/), as each panel lays it out, shows every number the screen's model carries whole: the
amounts, the players and the deed numbers of its lines, and its amount. The panels: the
emulator's glass (25 cells, its lines written for that width, the amount on the seven-segment
digits), the box's 20x4 and 16x2 character LCDs, the terminal view, and the serial panel's
firmware (its LCD laid out without the edition's labels) at 20x4 and 16x2.

Every screen is collected from the unit as the scenario runs (``ultibank script``), so a new
scenario is checked without a word here."""

from __future__ import annotations

import io
import re
import shlex
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from bank.app.runtime import panel_labels
from bank.app.script import ScriptRunner
from bank.cli import main
from bank.unit.io import WIDE_COLS, Icon, Output, Screen, ShowScreen, TitleLayout
from board_assets import load_edition
from drivers import charlcd
from drivers import panel_protocol as pp
from drivers.gpio_panel import GpioPanel, LcdConfig
from drivers.terminal_panel import TerminalPanel
from firmware_sim.lcd import AMOUNT_CELLS, TEXT_COLS, TEXT_ROWS, glass_rows
from firmware_sim.segments import digits_text
from tests.panels.fake_hd44780 import FakeHD44780
from tests.support.fakes import FakeClock
from tests.unit.test_classic_scripts import ALL as CLASSIC
from tests.unit.test_classic_scripts import EXAMPLES, args_of

ROOT = Path(__file__).resolve().parents[2]
ULTIME = [*sorted((ROOT / "tests" / "scripts").glob("*.tap")), ROOT / "docs" / "example-game.tap"]
WEB = sorted((ROOT / "tests" / "web").glob("*.tap"))


def _web_args(path: Path) -> list[str]:
    """The options on a web game's ``# ultibank script PATH ...`` line."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# ultibank script "):
            return shlex.split(line.removeprefix("# ultibank script "))[1:]
    raise AssertionError(f"{path.name} has no '# ultibank script' line")


SCENARIOS: list[tuple[Path, list[str]]] = [
    *((p, args_of(p)) for p in CLASSIC),
    *((p, ["--edition", "classic-fr"]) for p in sorted(EXAMPLES.glob("*.tap"))),
    *((p, _web_args(p)) for p in WEB),
    (ROOT / "tests" / "drivers" / "stack_classic.tap", ["--edition", "classic-fr"]),
    *((p, []) for p in ULTIME),
]


def _screens(path: Path, args: list[str], tmp_path: Path) -> list[Screen]:
    """Every screen the unit shows as ``ultibank script PATH ARGS`` runs."""
    shown: list[Screen] = []
    emit = ScriptRunner._emit

    def recording(self: ScriptRunner, outputs: list[Output]) -> None:
        shown.extend(o.screen for o in outputs if isinstance(o, ShowScreen))
        emit(self, outputs)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ScriptRunner, "_emit", recording)
        argv = ["script", str(path), *args, "--data-dir", str(tmp_path / "d")]
        assert main([*argv, "--state", str(tmp_path / "state.json")]) == 0
    return shown


def _edition(args: list[str]) -> str:
    return args[args.index("--edition") + 1] if "--edition" in args else "ultime-fr"


def _numbers(text: str) -> Counter[str]:
    return Counter(re.findall(r"\d+", text))


def _glass(screen: Screen, title: TitleLayout | None) -> str:
    """What the emulator's glass shows: its text rows, its amount and number digits."""
    rows = glass_rows(screen, title, TEXT_COLS, TEXT_ROWS)
    assert all(len(r) <= TEXT_COLS for r in rows), rows
    segments = [
        digits_text(screen.amount, AMOUNT_CELLS),
        digits_text(screen.number, 2),
        digits_text(screen.countdown, 2),
    ]
    return " ".join([*rows, *segments])


def box(stack: ExitStack, cols: int, rows: int, labels: charlcd.Labels) -> Callable[[Screen], str]:
    """The Pi box: the GPIO panel (gpiozero's mock pins) and its LCD, an in-memory HD44780
    driven through RPLCD; what its glass shows after each screen."""
    factory = MockFactory(pin_class=MockPWMPin)
    made: list[FakeHD44780] = []

    def lcd_factory(cfg: LcdConfig) -> FakeHD44780:
        made.append(FakeHD44780(cfg.cols, cfg.rows))
        return made[-1]

    panel = GpioPanel(
        lcd=LcdConfig(cols=cols, rows=rows),
        clock=FakeClock(),
        pin_factory=factory,
        lcd_factory=lcd_factory,
        pause=lambda seconds: False,
        bounce_time=None,
        labels=labels,
    )
    panel.start(lambda item: None)
    stack.callback(factory.reset)
    stack.callback(panel.close)

    def show(screen: Screen) -> str:
        panel.show(screen)
        return " ".join(made[-1].lines())

    return show


def _panels(edition: str, stack: ExitStack) -> Iterator[tuple[str, Callable[[Screen], str]]]:
    ed = load_edition(edition)
    labels = panel_labels(ed, ed.language)
    yield "glass", lambda s: _glass(s, labels.title)
    yield "box 20x4", box(stack, 20, 4, labels)
    yield "box 16x2", box(stack, 16, 2, labels)
    out = io.StringIO()  # a UTF-8 terminal: accents and symbols as they are
    term = TerminalPanel(stdin=io.StringIO(), stdout=out, language=ed.language, labels=labels)

    def terminal(screen: Screen) -> str:
        out.seek(0)
        out.truncate()
        term.show(screen)  # the frame the terminal view prints: `+----+` and `|row|` lines
        return " ".join(line.strip("|") for line in out.getvalue().splitlines()[1:-1])

    yield "terminal", terminal

    def serial(cols: int, rows: int) -> Callable[[Screen], str]:
        """The serial panel's firmware: the screen as it crosses the wire (protocol version
        2), laid out on its LCD as the simulated firmware does."""
        return lambda s: " ".join(charlcd.layout(pp.decode_show(pp.encode_show(s)), cols, rows))

    yield "serial 20x4", serial(20, 4)
    yield "serial 16x2", serial(16, 2)


def test_every_kind_of_scenario_is_checked() -> None:
    assert len(CLASSIC) >= 50 and len(ULTIME) >= 30 and WEB and list(EXAMPLES.glob("*.tap"))


@pytest.mark.parametrize(
    ("path", "args"), SCENARIOS, ids=[f"{p.parent.name}/{p.stem}" for p, _ in SCENARIOS]
)
def test_every_number_whole_on_every_panel(path: Path, args: list[str], tmp_path: Path) -> None:
    """A number of the screen's lines missing whole from what a panel shows fails, naming the
    panel, the screen and the rows (and a number of the glass's lines that the 20-cell lines
    cut: `Mace Windu : 5 + 6…` lost its total); so does the screen's amount on the glass and
    the 4-row LCDs (a zero amount is words: no rent, nothing paid). A 2-row LCD has no status
    row: it shows the amount beside a line that leaves room for it (see test_with_amount); an
    auction's seconds show on every panel."""
    screens = list(dict.fromkeys(_screens(path, args, tmp_path)))  # each screen once
    assert screens
    lost: list[str] = []
    for screen in screens:  # the unit's own 20-cell lines, against the glass's 25-cell ones
        if screen.wide and _numbers(" ".join(screen.wide)) - _numbers(" ".join(screen.lines)):
            lost.append(f"the 20-cell lines {screen.lines!r} cut {screen.wide!r}")
    with ExitStack() as stack:
        _check_panels(screens, _panels(_edition(args), stack), lost)
    assert not lost, "\n".join(dict.fromkeys(lost))


def _check_panels(
    screens: list[Screen], panels: Iterator[tuple[str, Callable[[Screen], str]]], lost: list[str]
) -> None:
    for panel, show in panels:
        for screen in screens:
            if screen.off:
                continue
            # the glass shows the lines written for its width: the same numbers (a zero may
            # be words there: `Hypothéqué : pas de loyer`)
            lines = screen.wide if panel == "glass" and screen.wide else screen.lines
            want = _numbers(" ".join(lines))
            if lines is screen.wide:
                kept = _numbers(" ".join(screen.lines)) - want
                if set(kept) - {"0"}:
                    lost.append(f"wide lines: {screen.wide!r} lose {kept} of {screen.lines!r}")
            if screen.amount and not panel.endswith("x2"):
                want[str(abs(screen.amount))] = max(want[str(abs(screen.amount))], 1)
            if screen.countdown is not None:  # an auction's seconds: every panel shows them
                want[str(screen.countdown)] = max(want[str(screen.countdown)], 1)
            missing = want - _numbers(show(screen))
            if missing:
                lost.append(f"{panel}: {screen.text()!r} shows {show(screen)!r}")


def test_the_glass_lines_are_whole_words_and_the_lcd_lines_fit_20_cells(tmp_path: Path) -> None:
    """The long street names and the interest question: the emulator's glass reads the whole
    words in its 25 cells, the character LCD the 20-cell lines (numbers whole on both)."""
    path = ROOT / "tests" / "scripts" / "classic" / "x_long_lines.tap"
    screens = _screens(path, args_of(path), tmp_path)
    wide = {w for s in screens for w in s.wide}
    assert all(len(w) <= WIDE_COLS for w in wide)
    assert all(len(line) <= 20 for s in screens for line in s.lines)
    assert "27 Av. des Champs-Élysées" in wide
    lines = {line for s in screens for line in s.lines}
    assert "27 Av. Champs-Élys." in lines and "27 Av. des Champs-Élysées" not in lines


def test_with_amount() -> None:
    """On a 2-row LCD (no status row) the amount, and an auction's seconds, go beside the last
    line that leaves room for them, that line squeezed for it; a line that already shows it, or
    no room, changes nothing; an Ultime 16x2 keeps both lines rather than a status row when the
    second line holds a number (`Refusé / 2 joueurs minimum`)."""
    bought = Screen("bought", ("14 Rue de Paradis", "Achat 160 €"), amount=160)
    assert charlcd.with_amount(bought, ["14 Rue de Para.", "Achat 160 E"], 16) == [
        "14 Rue de Para.",
        "Achat 160 E",
    ]
    group = Screen("bought", ("14 Rue Blanche", "Groupe !"), amount=160)
    assert charlcd.with_amount(group, ["14 Rue Blanche", "Groupe !"], 16) == [
        "14 Rue Blanche",
        "Groupe !     160",
    ]
    full = Screen("rank", ("1 2 3 4 5 6 7 8", "9 10 11 12 13 14"), amount=160)
    rows = ["1 2 3 4 5 6 7 8", "9 10 11 12 13 14"]
    assert charlcd.with_amount(full, rows, 16) == rows
    auction = Screen("auction", ("Enchère 0 M€", "✓ ou carte: +20"), amount=0, countdown=10)
    # the seconds beside the bid (the step of +20 on the second line, where a status row
    # took both before)
    assert charlcd.layout(auction, 16, 2) == ("Enchere 0 ME \x0210", "\x03 ou carte: +20 ")
    refused = Screen("error", ("Refusé", "2 joueurs minimum"), icons=frozenset({Icon.ERROR}))
    assert charlcd.layout(refused, 16, 2) == ("Refuse          ", "2 joueurs mini. ")


def test_squeeze_drops_spaces_before_it_cuts() -> None:
    assert charlcd.squeeze("c>1 v>3 c>100 P0/1", 16) == "c>1 v>3c>100P0/1"
    assert charlcd.squeeze("c>1 v>3 c>100 P0/1", 20) == "c>1 v>3 c>100 P0/1"
    # never between two numbers: they would read as one
    assert charlcd.squeeze("9 10 11 12 13 14 15", 16) == "9 10 11 12 13 14"
