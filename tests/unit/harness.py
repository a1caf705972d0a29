"""A hands-and-eyes double for driving a :class:`Unit` in tests, on a virtual clock."""

from __future__ import annotations

from bank.engine.config import UnitConfig
from bank.engine.game import Game
from bank.rulesets.ultime.config import RulesConfig
from bank.rulesets.ultime.unit import Unit
from bank.unit.io import (
    Button,
    ButtonPressed,
    ButtonReleased,
    CardId,
    CardLifted,
    CardTapped,
    Cue,
    Input,
    Output,
    PlayCue,
    Screen,
    ShowScreen,
    Tick,
)
from board_assets import load_edition


class Harness:
    """Feeds a unit taps, presses, holds and waits; records every screen and cue."""

    def __init__(
        self,
        game: Game | None = None,
        config: UnitConfig | None = None,
        edition: str = "ultime-fr",
        rules: RulesConfig | None = None,
    ) -> None:
        self.game = game or Game(load_edition(edition), rules or RulesConfig())
        self.unit = Unit(self.game, config)
        self.now = 0.0
        self.outputs: list[Output] = []
        self.outputs += self.unit.power_on(self.now)

    # hands
    def feed(self, inp: Input) -> list[Output]:
        out = self.unit.handle(inp)
        self.outputs += out
        return out

    def tap(self, card: str | None) -> list[Output]:
        cid = CardId.parse(card) if card is not None else None
        out = self.feed(CardTapped(self.now, cid, "UID"))
        return out + self.feed(CardLifted(self.now, "UID"))

    def press(self, button: str) -> list[Output]:
        b = Button(button)
        return self.feed(ButtonPressed(self.now, b)) + self.feed(ButtonReleased(self.now, b))

    def down(self, button: str) -> list[Output]:
        return self.feed(ButtonPressed(self.now, Button(button)))

    def up(self, button: str) -> list[Output]:
        return self.feed(ButtonReleased(self.now, Button(button)))

    def wait(self, seconds: float) -> list[Output]:
        target = self.now + seconds
        out: list[Output] = []
        while (due := self.unit.next_deadline()) is not None and due <= target:
            self.now = max(self.now, due)
            out += self.feed(Tick(self.now))
        self.now = target
        return out

    def hold(self, *buttons: str, seconds: float = 5.0) -> list[Output]:
        out: list[Output] = []
        for b in buttons:
            out += self.down(b)
        out += self.wait(seconds)
        for b in reversed(buttons):
            out += self.up(b)
        return out

    def start(self, *cards: int) -> None:
        for c in cards:
            self.tap(f"bank:{c}")
        self.press("ok")
        assert self.game.state.started

    # eyes
    @property
    def screen(self) -> Screen:
        """The last screen shown."""
        shown = [o.screen for o in self.outputs if isinstance(o, ShowScreen)]
        return shown[-1]

    @property
    def cues(self) -> list[Cue]:
        return [o.cue for o in self.outputs if isinstance(o, PlayCue)]

    def balance(self, card: int) -> int:
        p = self.game.state.player(card)
        assert p is not None
        return p.balance

    def owner_level(self, number: int) -> tuple[int | None, int | None]:
        p = self.game.state.prop(number)
        return p.owner, p.level


def screens_of(out: list[Output]) -> list[Screen]:
    return [o.screen for o in out if isinstance(o, ShowScreen)]


def cues_of(out: list[Output]) -> list[Cue]:
    return [o.cue for o in out if isinstance(o, PlayCue)]
