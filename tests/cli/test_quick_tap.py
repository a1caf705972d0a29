"""The short way of a plain ``ultibank tap``/``press`` (bank/app/quick.py): against a real
daemon it says, sends and exits as the full command does, with neither the settings, pathlib
nor json loaded; whenever its own reading of the paths or of the data directory's door is in
doubt, the settings and the door themselves say what is wrong (issue 20)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bank.app import quick
from bank.services import datadir
from bank.services.control_client import decode_answer
from bank.services.settings import load_settings
from tests.support.probe import PROBE

ROOT = Path(__file__).resolve().parents[2]


#: what the short way never loads when it needs no settings
UNUSED = ("argparse", "pathlib", "json", "bank.services.settings", "bank.services.datadir",
          "bank.unit", "typing", "struct", "socket", "tomllib", "re")  # fmt: skip


def run(module: str, *argv: str, env: dict[str, str]) -> tuple[tuple[int, str, str], set[str]]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(module=module), *argv],
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=False, env=env,
    )  # fmt: skip
    text, _, modules = out.stderr.rpartition("\nMODULES ")
    return (out.returncode, out.stdout, text), set(json.loads(modules))


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """No configuration file; the default data directory under the test's own folder."""
    return {
        **os.environ,
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "share"),
        "HOME": str(tmp_path / "home"),
        "ULTIBANK_DATA_DIR": "",
    }


def _daemon(data: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "bank.cli", "run", "--data-dir", str(data), "--reader", "sim",
         "--panel", "sim"],
        cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 20
    while not (data / "control.sock").exists():
        assert proc.poll() is None, "the daemon stopped"
        assert time.monotonic() < deadline, "the daemon did not open its control socket"
        time.sleep(0.02)
    return proc


@pytest.fixture
def two_daemons(tmp_path: Path, env: dict[str, str]) -> Iterator[tuple[Path, Path]]:
    """Two fresh games, one for the short way and one for the full command."""
    quick_data, full_data = tmp_path / "q", tmp_path / "f"
    procs = [_daemon(quick_data, env), _daemon(full_data, env)]
    yield quick_data, full_data
    for proc in procs:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_a_game_told_the_short_way_answers_as_told_the_full_way(
    two_daemons: tuple[Path, Path], env: dict[str, str]
) -> None:
    """A good card, the same card again (refused by the unit), an unknown card (refused by the
    daemon: one line, status 2), two cards in one command, a press, a purchase, a refused card
    before another (which is then not sent)."""
    quick_data, full_data = two_daemons
    lines = [
        ["tap", "bank:1"],
        ["tap", "bank:1"],
        ["tap", "nope:1"],
        ["tap", "bank:2", "bank:3"],
        ["press", "ok"],
        ["tap", "prop:16"],
        ["tap", "bank:1"],  # buys it
        ["tap", "prop:99", "bank:2"],  # refused: bank:2 is not sent
    ]
    for argv in lines:
        told, modules = run("quick", *argv, "--data-dir", str(quick_data), env=env)
        expected, _ = run("cli", *argv, "--data-dir", str(full_data), env=env)
        assert told == expected, argv
        for name in UNUSED:
            assert name not in modules, f"the short `ultibank {' '.join(argv)}` imported {name}"
    assert run("quick", "tap", "nope:1", "--data-dir", str(quick_data), env=env)[0][0] == 2
    states = [
        json.loads(run("cli", "state", "--data-dir", str(data), env=env)[0][1])
        for data in (quick_data, full_data)
    ]
    assert states[0] == states[1] and len(states[0]["players"]) == 3
    assert states[0]["properties"][15]["owner"] == 1  # the taps went in, once each


def test_the_default_data_directory_and_a_socket_flag(
    two_daemons: tuple[Path, Path], env: dict[str, str], tmp_path: Path
) -> None:
    quick_data, _ = two_daemons
    told, modules = run("quick", "press", "ok", env={**env, "ULTIBANK_DATA_DIR": str(quick_data)})
    assert told[0] == 0 and "pathlib" not in modules
    told, modules = run("quick", "tap", "bank:1", f"--socket={quick_data}/control.sock", env=env)
    assert told[0] == 0 and "pathlib" not in modules
    told, _ = run("quick", "tap", "bank:1", env=env)  # $XDG_DATA_HOME/ultibank: no daemon
    assert told[0] == 2 and f"{tmp_path}/share/ultibank/control.sock" in told[2]


def test_no_daemon_is_the_same_message_both_ways(tmp_path: Path, env: dict[str, str]) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    for where in ([f"--data-dir={data}"], ["--socket", str(tmp_path / "none.sock")]):
        told, modules = run("quick", "tap", "bank:1", *where, env=env)
        assert told == run("cli", "tap", "bank:1", *where, env=env)[0]
        assert told[0] == 2 and told[2].startswith("ultibank: no ultibank daemon is running")
        assert "bank.services.settings" not in modules


@pytest.mark.parametrize("problem", ["group-writable", "linked journal", "a file"])
def test_a_data_directory_the_door_refuses_is_refused_in_the_doors_words(
    tmp_path: Path, env: dict[str, str], problem: str
) -> None:
    data = tmp_path / "data"
    if problem == "a file":
        data.write_text("")
    else:
        data.mkdir(mode=0o700)
    if problem == "group-writable":
        data.chmod(0o770)
    if problem == "linked journal":
        (data / "journal.sqlite").symlink_to(tmp_path / "elsewhere")
    told, modules = run("quick", "tap", "bank:1", "--data-dir", str(data), env=env)
    assert told == run("cli", "tap", "bank:1", "--data-dir", str(data), env=env)[0]
    assert told[0] == 2 and told[2].count("\n") == 1
    assert "bank.services.datadir" in modules  # the door itself said it


def test_the_short_way_knows_the_files_the_door_checks() -> None:
    assert quick.DATA_FILES == datadir.DATA_FILES


@given(st.text(alphabet="/.a~b", max_size=12))
def test_a_plain_path_is_what_pathlib_makes_of_it(text: str) -> None:
    plain = quick.plain_path(text)
    if plain is not None:
        assert plain == str(Path(text))
        assert quick._parent(plain) == str(Path(text).parent)
        assert quick._join(plain, "control.sock") == str(Path(text) / "control.sock")


@pytest.mark.parametrize(
    ("variables", "flags"),
    [
        ({}, []),
        ({"XDG_DATA_HOME": "/x/share/"}, []),
        ({"ULTIBANK_DATA_DIR": "rel/./game/"}, []),
        ({"ULTIBANK_DATA_DIR": "/g"}, [("--data-dir", "./d/"), ("--data-dir", "/e//f")]),
        ({}, [("--socket", "/run/u.sock")]),
        ({}, [("--socket", "s.sock"), ("--data-dir", ".")]),
        ({"HOME": "/"}, []),
    ],
)
def test_the_socket_is_found_where_the_settings_find_it(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    variables: dict[str, str],
    flags: list[tuple[str, str]],
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("ULTIBANK_DATA_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    found = quick.socket_without_settings(flags)
    names = {"--data-dir": "game.data_dir", "--socket": "control.socket"}
    settings = load_settings(None, (), [(f, names[f], str(Path(v))) for f, v in flags])
    assert found == (str(settings.control_socket), str(settings.data_dir))


def test_a_configuration_file_or_a_path_to_expand_leaves_it_to_the_settings(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert quick.socket_without_settings([("--data-dir", "/d")]) is not None
    (tmp_path / "ultibank").mkdir()
    (tmp_path / "ultibank" / "config.toml").write_text("")
    assert quick.socket_without_settings([("--data-dir", "/d")]) is None
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "none"))
    assert quick.socket_without_settings([("--data-dir", "~/d")]) is None
    assert quick.socket_without_settings([("--socket", "//s.sock")]) is None


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(st.dictionaries(st.text(), json_values, max_size=5), st.booleans())
def test_an_answer_reads_as_json_reads_it(answer: dict[str, object], ascii_only: bool) -> None:
    line = json.dumps(answer, ensure_ascii=ascii_only).encode() + b"\n"
    assert decode_answer(line) == json.loads(line)


@pytest.mark.parametrize(
    "reply", [b"[1]\n", b'{"a": 1} x\n', b"\n", b"\xff\n", b'{"a":\n', b"nul\n", b'{"a": 01}\n']
)
def test_a_reply_json_refuses_is_refused(reply: bytes) -> None:
    with pytest.raises(ValueError):
        decode_answer(reply)
