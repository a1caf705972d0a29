"""The classic configuration keys (docs/classic.md §6): ``unit.entry_seconds`` and
``unit.trade_seconds`` time the classic unit's entries and offers, and the configuration
file's ``[classic]`` and ``[variants]`` tables reach every command that starts a game (``run``,
``emulate``, ``script``), checked in one line naming ``table.key`` and recorded with the game.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bank.app.runtime import Runtime
from bank.cli import main
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.rules import ClassicRulesEngine
from bank.services.settings import SettingsError, load_settings
from bank.unit.io import Button, ButtonPressed, ButtonReleased, CardId, CardTapped

START = "tap bank:1\ntap bank:2\npress ok\n"

#: an amount entry (item 6, receive from the bank) left alone after a 12 is typed
ENTRY = START + "press menu\nkey 6\ntap bank:1\nkey 12\nwait 6\n"
#: an offer (dog gives deed 1 to racecar) left unanswered
OFFER = (
    START
    + "tap deed:1\ntap bank:1\npress menu\nkey 10\ntap bank:1\ntap bank:2\ntap deed:1\n"
    + "press ok\nwait 6\n"  # ✓ on Titres makes the offer (READINGS A10)
)


def script(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[list[str], dict[str, object]]:
    """The screens of ``ultibank script`` (name and text) and its state file."""
    path = tmp_path / "s.tap"
    path.write_text(text, encoding="utf-8")
    argv = ["script", str(path), "--edition", "classic-fr", "--state", "-", *args]
    assert main([*argv, "--data-dir", str(tmp_path / "d")]) == 0, capsys.readouterr().err
    got = capsys.readouterr()
    screens = [line.split(" screen ", 1)[1] for line in got.err.splitlines() if " screen " in line]
    return screens, json.loads(got.out)


# ---------------------------------------------------------------- unit.entry_seconds


def test_a_shorter_entry_seconds_abandons_an_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    screens, state = script(tmp_path, ENTRY, capsys, "--set", "unit.entry_seconds=5")
    assert screens[-1].startswith("idle"), screens[-3:]  # abandoned after 5 s
    players = state["players"]
    assert isinstance(players, list) and players[0]["balance"] == 1500  # nothing received


def test_the_default_entry_seconds_keeps_the_entry_past_five_seconds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    screens, _ = script(tmp_path, ENTRY, capsys)
    assert screens[-1].startswith("entry 12"), screens[-3:]


def test_entry_seconds_from_the_configuration_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "c.toml"
    config.write_text("[unit]\nentry_seconds = 5\n", encoding="utf-8")
    screens, _ = script(tmp_path, ENTRY, capsys, "--config", str(config))
    assert screens[-1].startswith("idle"), screens[-3:]


def test_a_shorter_entry_seconds_abandons_a_pick(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # racecar lands on dog's utility: the dice total is asked (a pick), then left alone
    text = START + "tap deed:8\ntap bank:1\ntap deed:8\ntap bank:2\nwait 6\n"
    screens, state = script(tmp_path, text, capsys, "--set", "unit.entry_seconds=5")
    assert screens[-2].startswith("pick") and screens[-1].startswith("idle"), screens[-3:]
    players = state["players"]
    assert isinstance(players, list) and players[1]["balance"] == 1500  # no rent paid
    (tmp_path / "default").mkdir()
    screens, _ = script(tmp_path / "default", text, capsys)
    assert screens[-1].startswith("pick"), screens[-3:]


# ---------------------------------------------------------------- unit.trade_seconds


def test_a_shorter_trade_seconds_drops_an_offer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    screens, state = script(tmp_path, OFFER, capsys, "--set", "unit.trade_seconds=5")
    assert screens[-1].startswith("trade_refused"), screens[-3:]
    props = state["properties"]
    assert isinstance(props, list) and props[0]["owner"] == 1  # the deed stayed with dog


def test_the_default_trade_seconds_keeps_the_offer_past_five_seconds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    screens, _ = script(tmp_path, OFFER, capsys)
    assert screens[-1].startswith("trade_offer"), screens[-3:]


@pytest.mark.parametrize(
    ("override", "allowed"),
    [
        ("unit.entry_seconds=0", "from 1 to 3600"),
        ("unit.entry_seconds=nan", "from 1 to 3600"),
        ("unit.trade_seconds=-5", "from 1 to 3600"),
        ("unit.trade_seconds=true", "from 1 to 3600"),
    ],
)
def test_the_unit_timeouts_are_checked(override: str, allowed: str) -> None:
    with pytest.raises(SettingsError) as caught:
        load_settings(None, [override])
    message = str(caught.value)
    assert override.split("=")[0] in message and allowed in message and "\n" not in message


def test_the_unit_timeouts_are_read_into_the_unit_config() -> None:
    unit = load_settings(None, ["unit.entry_seconds=12", "unit.trade_seconds=90"]).unit()
    assert (unit.entry_seconds, unit.trade_seconds) == (12.0, 90.0)
    default = load_settings(None, []).unit()
    assert (default.entry_seconds, default.trade_seconds) == (30.0, 60.0)


# ---------------------------------------------------------------- [classic] and [variants]

CONFIG = """\
[game]
edition = "classic-fr"

[classic]
dice_seed = 77
rent_claim_deadline = "none"

[variants]
free_parking = "taxes"
double_go = true
"""


def test_the_file_tables_make_the_classic_configuration(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text(CONFIG, encoding="utf-8")
    rules = load_settings(config).rules()
    assert isinstance(rules, ClassicConfig)
    assert rules.classic.dice_seed == 77 and rules.classic.rent_claim_deadline == "none"
    assert rules.variants.free_parking == "taxes" and rules.variants.double_go
    assert rules.variants.fast_game is False  # the rest keep their defaults


def test_set_overrides_the_file_tables(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text(CONFIG, encoding="utf-8")
    rules = load_settings(config, ["variants.free_parking=off", "classic.dice_seed=3"]).rules()
    assert isinstance(rules, ClassicConfig)
    assert rules.variants.free_parking == "off" and rules.classic.dice_seed == 3


def test_an_ultime_game_ignores_the_classic_tables(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text(CONFIG.replace("classic-fr", "ultime-fr"), encoding="utf-8")
    rules = load_settings(config).rules()
    assert not isinstance(rules, ClassicConfig)


@pytest.mark.parametrize(
    ("table", "line", "words"),
    [
        ("classic", 'rent_claim_deadline = "never"', "classic.rent_claim_deadline"),
        ("classic", "dice_seed = -1", "classic.dice_seed"),
        ("classic", "auction_step = 0", "classic.auction_step"),
        ("variants", "double_go = 1", "variants.double_go"),
        ("variants", "fast_game_end_after = 3", "variants.fast_game_end_after"),
        ("variants", "free_parking_sed = 100", "variants.free_parking_sed"),
        ("classic", "speed_die = true", "classic.speed_die"),
    ],
)
def test_a_bad_file_value_is_refused_naming_table_key(
    tmp_path: Path, table: str, line: str, words: str
) -> None:
    config = tmp_path / "c.toml"
    config.write_text(f"[{table}]\n{line}\n", encoding="utf-8")
    with pytest.raises(SettingsError) as caught:
        load_settings(config)
    message = str(caught.value)
    assert message.startswith("c.toml: ") and words in message and "\n" not in message


def test_a_table_that_is_not_a_table_is_refused(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text("classic = 3\n", encoding="utf-8")
    with pytest.raises(SettingsError, match=r"c\.toml: classic must be a table \[classic\]"):
        load_settings(config)


def recorded_of(rt: Runtime) -> dict[str, object]:
    """The classic configuration the running game recorded at its start."""
    rules = rt.game.ruleset
    assert isinstance(rules, ClassicRulesEngine)
    return dict(rules.settings(rt.game.state).recorded())


def test_run_records_the_file_tables_with_a_new_game(tmp_path: Path) -> None:
    """What ``ultibank run`` and ``emulate`` build (a Runtime over the settings) starts a
    classic game with the file's values recorded, and a stored game keeps them."""
    config = tmp_path / "c.toml"
    config.write_text(CONFIG, encoding="utf-8")
    settings = load_settings(config, [f'game.data_dir="{tmp_path / "d"}"'])
    rt = Runtime(settings)
    rt.start(control=False)
    try:
        for card in (1, 2):  # registration through the daemon, as the readers post it
            rt.daemon.post(CardTapped(time.monotonic(), CardId("bank", card)))
        rt.daemon.post(ButtonPressed(time.monotonic(), Button.OK))
        rt.daemon.post(ButtonReleased(time.monotonic(), Button.OK))
        rt.daemon.call(lambda: None)
        game = rt.game
        assert game.state.started
        recorded = recorded_of(rt)
    finally:
        rt.stop()
    assert recorded["classic.dice_seed"] == 77
    assert recorded["classic.rent_claim_deadline"] == "none"
    assert recorded["variants.free_parking"] == "taxes" and recorded["variants.double_go"]
    # a later start with other values keeps the recorded ones
    later = load_settings(None, [f'game.data_dir="{tmp_path / "d"}"', 'game.edition="classic-fr"',
                                 "classic.dice_seed=5"])  # fmt: skip
    rt = Runtime(later)
    try:
        again = recorded_of(rt)
    finally:
        rt.stop()
    assert again["classic.dice_seed"] == 77


def test_script_reads_the_file_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "c.toml"
    config.write_text(CONFIG, encoding="utf-8")
    _, state = script(tmp_path, START, capsys, "--config", str(config))
    cfg = state["config"]
    assert isinstance(cfg, dict)
    assert cfg["classic"]["dice_seed"] == 77 and cfg["variants"]["free_parking"] == "taxes"


def test_script_set_wins_over_the_file_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "c.toml"
    config.write_text(CONFIG, encoding="utf-8")
    _, state = script(
        tmp_path, START, capsys, "--config", str(config), "--set", "variants.free_parking=off"
    )
    cfg = state["config"]
    assert isinstance(cfg, dict) and cfg["variants"]["free_parking"] == "off"


def test_an_ultime_script_ignores_the_file_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "c.toml"
    config.write_text(CONFIG.replace('edition = "classic-fr"\n', 'edition = "ultime-fr"\n'))
    path = tmp_path / "u.tap"
    path.write_text("tap bank:1\ntap bank:2\npress ok\n", encoding="utf-8")
    argv = ["script", str(path), "--config", str(config), "--state", "-"]
    assert main([*argv, "--data-dir", str(tmp_path / "d")]) == 0, capsys.readouterr().err
    assert json.loads(capsys.readouterr().out)["players"][0]["balance"] > 0


@pytest.mark.parametrize("command", ["run", "emulate", "script"])
def test_every_game_command_refuses_a_bad_table_value_in_one_line(
    tmp_path: Path, command: str
) -> None:
    config = tmp_path / "bad.toml"
    config.write_text('[game]\nedition = "classic-fr"\n[variants]\nfree_parking = "all"\n')
    tap = tmp_path / "s.tap"
    tap.write_text(START, encoding="utf-8")
    extra = {"run": [], "emulate": ["--terminal"], "script": [str(tap)]}[command]
    argv = [command, *extra]
    proc = subprocess.run(
        [sys.executable, "-m", "bank.app.cli", *argv, "--config", str(config),
         "--data-dir", str(tmp_path / "d")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "variants.free_parking" in lines[0], proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_table_a_ruleset_adds_is_read_and_checked_the_same(tmp_path: Path) -> None:
    """Room for ``[mega]`` and ``[starwars]``: a ruleset that names a table in its
    ``config_tables`` gets it read from the file and checked by its own configuration."""
    import dataclasses

    from bank import rulesets
    from bank.engine.errors import BankError
    from tests.support import toy

    def config(raw: dict[str, object]) -> object:
        for key, value in dict(raw.get("toyextra", {})).items():  # type: ignore[call-overload]
            if key != "speed_die" or not isinstance(value, bool):
                raise BankError(f"toyextra.{key}: expected speed_die = true or false")
        return raw

    spec = dataclasses.replace(
        toy.RULESET, name="toyextra", config=config, config_tables=("toyextra",)
    )
    rulesets.register(spec)
    try:
        good = tmp_path / "good.toml"
        good.write_text("[toyextra]\nspeed_die = false\n", encoding="utf-8")
        assert load_settings(good).raw["toyextra"] == {"speed_die": False}
        bad = tmp_path / "bad.toml"
        bad.write_text("[toyextra]\nspeed_die = 3\n", encoding="utf-8")
        with pytest.raises(SettingsError, match=r"^bad\.toml: toyextra\.speed_die: "):
            load_settings(bad)
    finally:
        rulesets.unregister("toyextra")
    with pytest.raises(SettingsError, match=r"unknown table \[toyextra\]"):
        load_settings(good)
