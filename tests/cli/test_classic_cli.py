"""Issue 19: a headless classic game typed from the command line (`ultibank key`, `roll`,
`info`, `tap deed:N` on a running daemon), help texts that name every edition and list what
the running game takes, and one voice for errors (exit 2, one line, "did you mean")."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bank.cli import build_parser
from board_assets import edition_names

ROOT = Path(__file__).resolve().parents[2]


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(
        HOME=str(tmp_path / "home"),
        XDG_CONFIG_HOME=str(tmp_path / "home" / ".config"),
        ULTIBANK_DATA_DIR=str(tmp_path / "data"),
        PYTHONPATH=str(ROOT),
    )
    return env


def ultibank(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bank.cli", *args],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=60, check=False,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip


@pytest.fixture
def classic_daemon(tmp_path: Path) -> Iterator[dict[str, str]]:
    """`ultibank run --edition classic-fr` with a simulated panel; yields the environment."""
    env = _env(tmp_path)
    sock = tmp_path / "data" / "control.sock"
    proc = subprocess.Popen(
        [sys.executable, "-m", "bank.cli", "run", "--edition", "classic-fr", "--panel", "sim",
         "--reader", "sim"],
        cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 20
    while not sock.exists():
        assert proc.poll() is None, proc.communicate()[1]
        assert time.monotonic() < deadline, "the daemon did not open its control socket"
        time.sleep(0.05)
    try:
        yield env
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _one_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ultibank: "), done.stderr
    return lines[0]


def test_a_classic_game_typed_from_the_command_line(classic_daemon: dict[str, str]) -> None:
    env = classic_daemon
    started = ultibank(env, "tap", "bank:1", "bank:2")
    assert "Joueur 2: voiture" in started.stdout
    assert "Partie lancée" in ultibank(env, "press", "ok").stdout
    # the dice: fixed, then rolled for the dog's bank card
    opened = ultibank(env, "roll", "3", "4")
    assert opened.returncode == 0, opened.stderr
    assert "screen menu #11" in opened.stdout and "Dés" in opened.stdout
    rolled = ultibank(env, "tap", "bank:1")
    assert "chien : 3 + 4 = 7" in rolled.stdout
    # a deed bought by typing its price owed nothing: Rue de la Paix is 400 on classic-fr
    bought = ultibank(env, "tap", "deed:28", "bank:1")
    assert bought.returncode == 0, bought.stderr
    state = ultibank(env, "state").stdout
    assert '"owner": 1' in state
    # an amount typed on the keypad: the menu's pay item, then 150
    ultibank(env, "press", "cancel")
    table = ultibank(env, "info", "table")
    assert "screen info" in table.stdout and "chie 1100" in table.stdout, table.stdout
    # a fixed roll without opening anything, then the dice item opened alone
    fixed = ultibank(env, "roll", "6", "6", "--fix-only")
    assert "next roll fixed: 6 + 6" in fixed.stdout
    ultibank(env, "roll")
    double = ultibank(env, "tap", "bank:2")
    assert "voiture : 6 + 6 = 12" in double.stdout and "double" in double.stdout.lower()
    typed = ultibank(env, "key", "150")
    assert typed.returncode == 0 and typed.stdout.count("cue error") == 3  # idle: no entry open


def test_the_running_game_says_what_it_takes(classic_daemon: dict[str, str]) -> None:
    env = classic_daemon
    helped = ultibank(env, "tap", "--help")
    assert helped.returncode == 0
    text = " ".join(helped.stdout.split())
    assert (
        "deed:N (a title deed), chance:N and chest:N" in text
    )  # the static help names the classic kinds
    assert "The running game (classic-fr) takes:" in text
    assert "deed:1..28, chance:1..16, chest:1..16" in text
    assert "info table, turn, cash, deed, deeds, others, scores" in text
    assert "prop:" not in text.split("The running game")[1]  # not an Ultime game
    for command in ("key", "roll", "info", "press", "state", "hold"):
        assert "The running game (classic-fr)" in ultibank(env, command, "--help").stdout


def test_a_help_without_a_daemon_says_none_answers(tmp_path: Path) -> None:
    done = ultibank(_env(tmp_path), "key", "--help")
    assert done.returncode == 0 and "DIGITS|back" in done.stdout
    assert "No daemon answers at" in done.stdout


def test_errors_of_the_running_classic_game_speak_its_edition(
    classic_daemon: dict[str, str],
) -> None:
    env = classic_daemon
    assert _one_error(ultibank(env, "tap", "deed:40")) == "ultibank: deed cards run 1..28, not 40"
    assert "did you mean table?" in _one_error(ultibank(env, "info", "tabel"))
    assert "did you mean deed:3?" in _one_error(ultibank(env, "tap", "dead:3"))
    assert "did you mean bank:dog?" in _one_error(ultibank(env, "tap", "bank:dgo"))
    assert "each die is 1 to 6" in _one_error(ultibank(env, "roll", "7", "1"))
    assert "roll A B" in _one_error(ultibank(env, "roll", "3"))
    assert "key DIGITS" in _one_error(ultibank(env, "key", "1a"))


def test_every_help_with_an_edition_names_every_edition() -> None:
    parser = build_parser()
    subs = next(a for a in parser._actions if hasattr(a, "choices") and a.choices)
    texts = {"ultibank": parser.format_help()}
    for name, sub in subs.choices.items():
        if any("--edition" in a.option_strings for a in sub._actions):
            texts[name] = sub.format_help()
    assert {"run", "emulate", "script", "enroll", "write-card"} <= set(texts)
    for name, text in texts.items():
        flat = " ".join(text.split())
        missing = [e for e in edition_names() if e not in flat]
        assert not missing, f"`ultibank {name} --help` does not name {missing}"


def test_user_errors_exit_2_in_one_line_with_did_you_mean(tmp_path: Path) -> None:
    env = _env(tmp_path)
    cases = {
        ("emulate", "--edition", "clasic-fr", "--terminal"): "did you mean classic-fr?",
        ("script", "/dev/null", "--edition", "clasic-fr"): "did you mean classic-fr?",
        ("run", "--edition", "clasic-fr"): "did you mean classic-fr?",
        ("--set", "game.editon=classic-fr", "state"): "did you mean game.edition?",
        ("--set", "rules.auction_secs=3", "state"): "did you mean auction_seconds?",
        ("--set", "classic.dice_sed=3", "state"): "did you mean classic.dice_seed?",
        ("enroll", "--only", "dead:4"): "did you mean deed:4?",
        # the range of the edition in use, not Méga's 1..37
        ("enroll", "--edition", "classic-fr", "--only", "deed:40"): "deed cards run 1..28",
        ("enroll", "--edition", "mega-fr", "--only", "deed:40"): "deed cards run 1..37",
        ("state",): "no ultibank daemon is running here",
    }
    for argv, wanted in cases.items():
        line = _one_error(ultibank(env, *argv))
        assert wanted in line, (argv, line)
