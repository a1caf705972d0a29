"""The GPIO panel against gpiozero's MockFactory and an in-memory HD44780."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from bank.unit.io import Button, ButtonPressed, ButtonReleased, Cue, Icon, PanelStatus, Screen
from drivers import charlcd
from drivers.base import PanelError
from drivers.gpio_panel import PATTERNS, GpioPanel, GpioPins, LcdConfig
from tests.panels.conftest import FakeClock, Inbox, wait_until
from tests.panels.fake_hd44780 import FakeHD44780


class RecordingPWMPin(MockPWMPin):  # type: ignore[misc]
    """A PWM mock pin that also remembers every frequency it was set to."""

    def __init__(self, factory: Any, info: Any) -> None:
        super().__init__(factory, info)
        self.frequencies: list[float | None] = []

    def _set_frequency(self, value: float | None) -> None:
        super()._set_frequency(value)
        self.frequencies.append(value)


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory(pin_class=RecordingPWMPin)
    yield f
    f.reset()


class LcdShop:
    """Hands out fake LCDs and remembers them (the panel reopens a lost one)."""

    def __init__(self, cols: int = 20, rows: int = 4) -> None:
        self.made: list[FakeHD44780] = []
        self.size = (cols, rows)
        self.broken = False

    def __call__(self, cfg: LcdConfig) -> FakeHD44780:
        assert (cfg.cols, cfg.rows) == self.size
        lcd = FakeHD44780(cfg.cols, cfg.rows, fail=self.broken)
        self.made.append(lcd)
        return lcd

    @property
    def lcd(self) -> FakeHD44780:
        return self.made[-1]


def make_panel(
    factory: MockFactory, clock: FakeClock, shop: LcdShop | None = None, **kw: Any
) -> GpioPanel:
    shop = shop or LcdShop()
    return GpioPanel(
        lcd=LcdConfig(cols=shop.size[0], rows=shop.size[1]),
        clock=clock,
        pin_factory=factory,
        lcd_factory=shop,
        pause=lambda seconds: False,  # play patterns instantly
        bounce_time=None,
        **kw,
    )


@pytest.fixture
def shop() -> LcdShop:
    return LcdShop()


@pytest.fixture
def panel(
    factory: MockFactory, clock: FakeClock, inbox: Inbox, shop: LcdShop
) -> Iterator[GpioPanel]:
    p = make_panel(factory, clock, shop)
    p.start(inbox)
    yield p
    p.close()


@pytest.mark.parametrize(
    ("pin", "button"), [(17, Button.OK), (27, Button.MENU), (22, Button.CANCEL)]
)
def test_buttons_post_press_and_release(
    panel: GpioPanel, factory: MockFactory, inbox: Inbox, clock: FakeClock, pin: int, button: Button
) -> None:
    clock.now = 10.0
    factory.pin(pin).drive_low()  # the button shorts the pulled-up pin to ground
    clock.now = 15.5  # a 5 s hold is just press and release times to the daemon
    factory.pin(pin).drive_high()
    assert inbox.items == [ButtonPressed(10.0, button), ButtonReleased(15.5, button)]


def test_ok_and_cancel_held_together(panel: GpioPanel, factory: MockFactory, inbox: Inbox) -> None:
    factory.pin(17).drive_low()
    factory.pin(22).drive_low()
    factory.pin(22).drive_high()
    factory.pin(17).drive_high()
    assert [(type(i).__name__, i.button) for i in inbox.items] == [  # type: ignore[union-attr]
        ("ButtonPressed", Button.OK),
        ("ButtonPressed", Button.CANCEL),
        ("ButtonReleased", Button.CANCEL),
        ("ButtonReleased", Button.OK),
    ]


def test_pins_are_configurable(factory: MockFactory, clock: FakeClock, inbox: Inbox) -> None:
    p = GpioPanel(
        GpioPins(ok=5, menu=6, cancel=13, buzzer=None),
        lcd=None,
        clock=clock,
        pin_factory=factory,
        bounce_time=None,
    )
    p.start(inbox)
    try:
        factory.pin(6).drive_low()
        factory.pin(17).drive_low()  # the default OK pin is not ours any more
        assert inbox.items == [ButtonPressed(1000.0, Button.MENU)]
        factory.pin(6).drive_high()
        p.play(Cue.ERROR)  # no buzzer: silently nothing
    finally:
        p.close()


def test_each_cue_plays_its_tone_pattern(panel: GpioPanel, factory: MockFactory) -> None:
    pin = factory.pin(18)
    for n, cue in enumerate(Cue, start=1):
        pin.frequencies.clear()
        panel.play(cue)
        wait_until(lambda: len(panel.cues_played) == n, what=f"cue {cue}")  # noqa: B023
        tones = [f for f in pin.frequencies if f]
        want = [float(hz) for hz, _ in PATTERNS[cue] if hz]
        assert tones == pytest.approx(want)
        assert pin.state == 0  # silent afterwards


def test_an_active_buzzer_beeps_on_and_off(
    factory: MockFactory, clock: FakeClock, inbox: Inbox
) -> None:
    p = make_panel(factory, clock, buzzer="active")
    p.start(inbox)
    try:
        pin = factory.pin(18)
        pin.clear_states()
        p.play(Cue.KACHING)  # tone, rest, tone
        wait_until(lambda: p.cues_played, what="the cue")
        states = [s.state for s in pin.states]
        assert states[-1] == 0 and states.count(1) == 2
    finally:
        p.close()


def test_screen_on_the_lcd_with_glyphs(panel: GpioPanel, shop: LcdShop) -> None:
    screen = Screen("property", lines=("Avenue Foch",), number=19, token="jet", level=2, amount=180)
    panel.show(screen)
    assert shop.lcd.lines() == list(charlcd.layout(screen, 20, 4))
    assert shop.lcd.lines()[0] == "#19 jet     L2 \x00\x00\x01\x01\x01"
    assert shop.lcd.lines()[2].startswith("Avenue Foch")
    assert shop.lcd.glyph(0) == charlcd.GLYPHS[0]
    assert shop.lcd.glyph(2) == charlcd.GLYPHS[2]


def test_a_countdown_tick_rewrites_only_what_changed(panel: GpioPanel, shop: LcdShop) -> None:
    base = Screen("auction", lines=("Enchere",), icons=frozenset({Icon.AUCTION}), amount=120)
    panel.show(Screen("auction", lines=base.lines, icons=base.icons, amount=120, countdown=10))
    before = shop.lcd.data_writes
    panel.show(Screen("auction", lines=base.lines, icons=base.icons, amount=120, countdown=9))
    assert shop.lcd.lines()[0] == "AUCT \x029          120"
    assert shop.lcd.data_writes - before <= 2


def test_off_turns_the_backlight_off_and_blanks(panel: GpioPanel, shop: LcdShop) -> None:
    panel.show(Screen("idle", lines=("Bonjour",)))
    panel.show(Screen("off", off=True))
    assert shop.lcd.backlight_enabled is False
    assert shop.lcd.lines() == [" " * 20] * 4
    panel.show(Screen("idle", lines=("Bonjour",)))
    assert shop.lcd.backlight_enabled is True


def test_a_16x2_lcd(factory: MockFactory, clock: FakeClock, inbox: Inbox) -> None:
    shop = LcdShop(16, 2)
    p = make_panel(factory, clock, shop)
    p.start(inbox)
    try:
        p.show(Screen("balance", lines=("Joueur 2",), token="car", amount=1500))
        assert shop.lcd.lines() == ["car         1500", "Joueur 2        "]
    finally:
        p.close()


def test_no_lcd_at_start_is_a_clear_error(factory: MockFactory, clock: FakeClock) -> None:
    shop = LcdShop()
    shop.broken = True
    p = make_panel(factory, clock, shop)
    with pytest.raises(PanelError, match=r"no 20x4 LCD at 0x27 on /dev/i2c-1.*raspi-config"):
        p.start(Inbox())
    # The pins were given back: a new panel can claim them.
    p2 = make_panel(factory, clock)
    p2.start(Inbox())
    p2.close()


def test_lcd_lost_and_back_mid_game(panel: GpioPanel, shop: LcdShop, inbox: Inbox) -> None:
    panel.show(Screen("balance", amount=100))
    shop.lcd.fail = True
    shop.broken = True
    panel.show(Screen("balance", amount=200))
    assert inbox.of(PanelStatus) == [PanelStatus(1000.0, False, "gpio", inbox.items[-1].detail)]  # type: ignore[union-attr]
    assert "LCD lost" in inbox.items[-1].detail  # type: ignore[union-attr]
    shop.broken = False
    panel.show(Screen("balance", amount=300))
    assert [s.connected for s in inbox.of(PanelStatus)] == [False, True]  # type: ignore[union-attr]
    assert shop.lcd.lines()[0].rstrip().endswith("300")


def test_missing_gpiozero_is_a_clear_panel_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "gpiozero", None)
    with pytest.raises(PanelError, match=r"pip install 'ultibank\[pi\]'"):
        GpioPanel()


@pytest.mark.filterwarnings("ignore::gpiozero.PinFactoryFallback")
def test_no_pin_factory_off_the_pi_is_a_clear_panel_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from gpiozero import Device

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    p = GpioPanel(lcd=None)
    with pytest.raises(PanelError, match="lgpio"):
        p.start(Inbox())


def test_built_from_the_panel_settings() -> None:
    from bank.services.settings import DEFAULTS

    p = GpioPanel.from_config(DEFAULTS["panel"])
    assert p.pins == GpioPins() and p.lcd_config == LcdConfig()
    raw = {**DEFAULTS["panel"], "gpio_ok": 5, "gpio_buzzer": -1, "lcd_rows": 2, "lcd_cols": 16}
    p = GpioPanel.from_config(raw)
    assert p.pins == GpioPins(ok=5, buzzer=None)
    assert p.lcd_config == LcdConfig(cols=16, rows=2)
    assert GpioPanel.from_config({**raw, "lcd_rows": 0}).lcd_config is None
