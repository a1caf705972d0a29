"""Every configuration value has a range: refused with one line naming the key, the value and
what is allowed, wherever it comes from (the file, ``--set``, a flag)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bank.services.settings import DEFAULTS, SCHEMA, SettingsError, load_settings

#: (TABLE.KEY=VALUE, words the message must contain besides the key)
BAD = [
    ("rules.auction_seconds=nan", "from 1 to 300"),  # the auction never ended
    ("rules.auction_seconds=inf", "from 1 to 300"),
    ("rules.auction_seconds=0", "from 1 to 300"),
    ("unit.hold_seconds=-1", "from 0.2 to 60"),  # one X press archived the game
    ("unit.hold_seconds=0", "from 0.2 to 60"),
    ("unit.idle_seconds=nan", "from 1 to 3600"),  # purchases impossible
    ("unit.idle_seconds=inf", "from 1 to 3600"),  # OverflowError on a property tap
    ("unit.idle_seconds=1e400", "from 1 to 3600"),
    ("unit.idle_seconds=" + "9" * 400, "from 1 to 3600"),  # a traceback before
    ("unit.language=de", "'fr', 'en'"),  # accepted, French used
    ('unit.language="de"', "'fr', 'en'"),
    ("reader.rearm_seconds=-0.5", "from 0 to 10"),
    ("reader.paths=[]", "reader paths"),
    ("reader.paths=nfc", "reader paths"),
    ("panel.backends=hdmi", "panels"),
    ("panel.gpio_ok=40", "BCM"),
    ("panel.gpio_buzzer=-2", "no buzzer"),
    ("panel.lcd_address=300", "0x08 to 0x77"),
    ("panel.lcd_cols=2.5", "whole number"),
    ("panel.lcd_rows=5", "from 0 to 4"),
    ('panel.serial_port=""', "non-empty"),
    ("web.port=99999", "from 0 to 65535"),  # bound a random port
    ("web.port=-1", "from 0 to 65535"),
    ('web.host=""', "non-empty"),
    ("web.enabled=1", "true or false"),
    ("game.edition=nope", "ultime-fr"),
    ('game.data_dir="a\\u0000b"', "NUL"),
]


@pytest.mark.parametrize(("override", "allowed"), BAD)
def test_a_value_out_of_range_is_refused_naming_key_value_and_range(
    override: str, allowed: str
) -> None:
    key = override.split("=", 1)[0]
    with pytest.raises(SettingsError) as caught:
        load_settings(None, [override])
    message = str(caught.value)
    assert "\n" not in message and len(message) < 200
    assert message.startswith("--set: ") and key in message and allowed in message


@pytest.mark.parametrize(("override", "allowed"), BAD[:12])
def test_the_config_file_is_checked_the_same(tmp_path: Path, override: str, allowed: str) -> None:
    name, value = override.split("=", 1)
    table, key = name.split(".")
    path = tmp_path / "config.toml"
    try:
        tomllib.loads(f"v = {value}")
    except tomllib.TOMLDecodeError:
        value = f'"{value}"'  # a bare word on the command line is text
    path.write_text(f"[{table}]\n{key} = {value}\n")
    with pytest.raises(SettingsError, match=rf"^config\.toml: {table}\.{key} = .*{allowed}"):
        load_settings(path)


def test_every_key_has_a_range_and_its_default_is_inside_it() -> None:
    for table, keys in DEFAULTS.items():
        if table == "rules":
            continue
        assert set(SCHEMA[table]) == set(keys), table
        for key, default in keys.items():
            assert SCHEMA[table][key](default) == default, f"{table}.{key}"


def test_values_in_range_are_kept_with_their_type() -> None:
    s = load_settings(
        None,
        ["unit.hold_seconds=1", "unit.language=en", "web.port=0", "reader.paths=pcsc,sim"],
    )
    assert s.unit().hold_seconds == 1.0 and isinstance(s.unit().hold_seconds, float)
    assert s.unit().language == "en"
    assert s.get("web", "port") == 0
    assert s.get("reader", "paths") == ["pcsc", "sim"]
    assert s.given == {"unit.hold_seconds", "unit.language", "web.port", "reader.paths"}


def test_a_flag_value_is_taken_as_given_not_as_toml() -> None:
    s = load_settings(None, (), [("--data-dir", "game.data_dir", "/tmp/x\\by")])
    assert str(s.data_dir) == "/tmp/x\\by"  # a backspace before


def test_a_flag_out_of_range_is_named_in_the_message() -> None:
    with pytest.raises(SettingsError, match=r"^--web-port: web\.port = 99999: expected"):
        load_settings(None, (), [("--web-port", "web.port", 99999)])


def _ultibank(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bank.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
        env={"HOME": str(cwd), "PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path.cwd())},
    )


def test_the_command_line_refuses_bad_values_in_one_line(tmp_path: Path) -> None:
    script = tmp_path / "s.tap"
    script.write_text("tap bank:1\n")
    for args in (
        ["--set", "unit.language=de", "script", str(script)],
        ["--set", "game.edition=nope", "script", str(script)],  # ignored by script before
        ["--set", "unit.idle_seconds=" + "9" * 400, "state"],
        ["run", "--web", "--web-port", "99999", "--data-dir", str(tmp_path)],
    ):
        done = _ultibank(*args, cwd=tmp_path)
        assert done.returncode != 0, args
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("ultibank: "), (args, done.stderr)
        assert "Traceback" not in done.stderr


def test_script_plays_the_edition_given_by_set(tmp_path: Path) -> None:
    script = tmp_path / "s.tap"
    script.write_text("tap bank:1\ntap bank:2\npress ok\n")
    state = tmp_path / "out.json"
    done = _ultibank(
        "--set", "game.edition=ultimate-uk", "script", str(script), "--state", str(state),
        cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert '"edition": "ultimate-uk"' in state.read_text()
