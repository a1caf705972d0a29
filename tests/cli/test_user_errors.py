"""Every command, given bad arguments or values, ends in one line on stderr: never a traceback.

The commands and their options are read from the argument parser itself, so a new command or
option is tried as soon as it exists: one with no bad value known here fails the test and
says what to add.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from bank.app.play import RunningGameHelp
from bank.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]

# Positionals that work, so that the bad value tried is the only thing wrong.
VALID_POSITIONALS = {
    "script": ["{script}"],
    "tap": ["bank:1"],
    "press": ["ok"],
    "hold": ["cancel", "5"],
    "write-card": ["prop:16"],
    "key": ["150"],
    "info": ["table"],
}

# A bad value for each option or positional, by its dest ({file} is a regular file, so
# {file}/x can be neither read nor created). A list is the whole argument group to pass.
BAD_VALUES: dict[str, list[str] | str] = {
    "config": "{tmp}/missing.toml",
    "overrides": "no-equals-sign",
    "edition": "nope",
    "data_dir": "{file}/data",
    "reader": "nope:0",
    "panel": "nope",
    "deck": "{tmp}/missing-deck.toml",
    "socket": "{file}/control.sock",
    "web_host": ["--web", "--web-host", "host.invalid"],
    "web_port": "not-a-port",
    "state": "{file}/state.json",
    "output": "{file}/export.json",
    "only": "prop:99",
    "screenshot": "{file}/shot.png",
    "file": "{tmp}/missing.tap",
    "what": "prop:99",
    "buttons": "nope",
    "seconds": "soon",
    "card": "prop:99",
    "action": "nope",
    "game": "first",
    "seed": "seven",
    "lang": "de",
    "keys": "1a",
    "dice": "7",
    "name": "tabel",
    "say": "loud",
    "record": "{file}/voice",
}

# dests that take no value (flags and counters): nothing to get wrong
FLAGS = (argparse._StoreTrueAction, argparse._CountAction, argparse._HelpAction, RunningGameHelp)


@dataclass(frozen=True)
class Case:
    why: str
    argv: list[str]


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("the ultibank parser has no subcommands")


def _option_string(action: argparse.Action) -> str:
    return max(action.option_strings, key=len)


def cases_for(name: str, sub: argparse.ArgumentParser) -> Iterator[Case]:
    actions = [a for a in sub._actions if not isinstance(a, FLAGS)]
    positionals = [a for a in actions if not a.option_strings]
    required = [a for a in positionals if a.nargs not in ("?", "*")]
    if name not in VALID_POSITIONALS and required:
        raise AssertionError(f"add valid positionals for `ultibank {name}` to VALID_POSITIONALS")
    valid = VALID_POSITIONALS.get(name, [])
    yield Case("an unknown option", [name, *valid, "--no-such-option"])
    if required:
        yield Case("no arguments", [name])
    if all(a.nargs not in ("+", "*") for a in positionals):
        yield Case("one argument too many", [name, *valid, "surplus", "words"])
    for action in actions:
        dest = action.dest.removesuffix("_after")  # the global options after the command
        if dest not in BAD_VALUES:
            raise AssertionError(
                f"`ultibank {name}` has {dest!r}: add a bad value for it to BAD_VALUES"
            )
        bad = BAD_VALUES[dest]
        if action.option_strings:
            argv = bad if isinstance(bad, list) else [_option_string(action), bad]
            yield Case(f"bad {_option_string(action)}", [name, *valid, *argv])
        else:
            index = positionals.index(action)
            args = list(valid) + [""] * (index + 1 - len(valid))
            args[index] = str(bad)
            yield Case(f"bad {action.dest}", [name, *args])


@dataclass(frozen=True)
class Outcome:
    case: Case
    status: int | None
    stderr: str

    def problem(self) -> str | None:
        """What is wrong with how the command ended, or None."""
        if self.status is None:
            return "did not end within 60 s (the bad value was accepted)"
        lines = [line for line in self.stderr.splitlines() if line.strip()]
        if "Traceback" in self.stderr or any(line.startswith("  File ") for line in lines):
            return f"a traceback:\n{self.stderr}"
        if self.status <= 0:
            return f"exit status {self.status}, stderr {self.stderr!r}"
        # "ultibank: ..." or, for a script, "FILE[:LINE]: ..." (docs/scripts.md)
        if not lines or lines[-1].startswith(" ") or ": " not in lines[-1]:
            return f"no one-line message at the end of stderr: {self.stderr!r}"
        return None


def _run(argv: list[str], env: dict[str, str]) -> tuple[int | None, str]:
    try:
        out = subprocess.run(
            [sys.executable, "-m", "bank.cli", *argv],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return None, ""
    return out.returncode, out.stderr


@pytest.fixture
def setting(tmp_path: Path) -> tuple[dict[str, str], dict[str, str]]:
    """The environment of a fresh user without a display, and the {names} of the values."""
    regular = tmp_path / "a-file"
    regular.write_text("not a directory\n")
    script = tmp_path / "ok.tap"
    script.write_text("tap bank:1\ntap bank:2\npress ok\n")
    hidden = ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")  # other tests set a driver
    env = {k: v for k, v in os.environ.items() if k not in hidden}
    env.update(
        ULTIBANK_DATA_DIR=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        PYTHONPATH=str(ROOT),
    )
    names = {"tmp": str(tmp_path), "file": str(regular), "script": str(script)}
    return env, names


def _fill(argv: list[str], names: dict[str, str]) -> list[str]:
    return [arg.format(**names) for arg in argv]


def _check_all(cases: list[Case], env: dict[str, str], names: dict[str, str]) -> None:
    def attempt(case: Case) -> Outcome:
        status, stderr = _run(_fill(case.argv, names), env)
        return Outcome(case, status, stderr)

    with ThreadPoolExecutor(max_workers=4) as pool:
        outcomes = list(pool.map(attempt, cases))
    failures = [
        f"ultibank {' '.join(_fill(o.case.argv, names))} ({o.case.why}): {problem}"
        for o in outcomes
        if (problem := o.problem()) is not None
    ]
    assert not failures, "\n\n".join(failures)


def test_the_enumeration_reaches_every_command() -> None:
    """Guards the test below: it must see the commands the help lists."""
    names = set(subcommands())
    assert {"run", "emulate", "script", "tap", "press", "hold", "state", "history"} <= names
    assert {"readers", "enroll", "write-card"} <= names


@pytest.mark.slow
def test_every_command_with_bad_arguments_says_one_line(
    setting: tuple[dict[str, str], dict[str, str]],
) -> None:
    env, names = setting
    cases = [case for name, sub in subcommands().items() for case in cases_for(name, sub)]
    # the global options, before the command
    cases += [
        Case("bad --set before the command", ["--set", "game.nope=1", "state"]),
        Case("missing --config before the command", ["--config", "{tmp}/none.toml", "history"]),
        Case("no such command", ["fly"]),
    ]
    _check_all(cases, env, names)


def test_the_reported_tracebacks_are_one_line_messages(
    setting: tuple[dict[str, str], dict[str, str]],
) -> None:
    """The ones a new user met (issue 10.2)."""
    env, names = setting
    cases = [
        Case("unknown edition", ["run", "--edition", "nope", "--reader", "sim"]),
        Case("unknown edition", ["emulate", "--edition", "nope", "--terminal"]),
        Case("unknown edition in --set", ["--set", "game.edition=nope", "run"]),
        Case("no such card", ["write-card", "prop:99", "--reader", "pcsc"]),
        Case("no such card", ["enroll", "--only", "prop:99"]),
    ]
    _check_all(cases, env, names)
    status, stderr = _run(["run", "--edition", "nope"], env)
    assert stderr.strip() == (
        "ultibank: --edition: game.edition = 'nope': expected one of classic-fr, classic-uk, "
        "mega-fr, mega-uk, one-piece-fr, starwars-ep2-fr, ultimate-uk, ultime-fr, "
        "or the path of an edition file (.toml)"
    )
    status, stderr = _run(["write-card", "prop:99", "--reader", "pcsc"], env)
    assert status == 2 and "prop cards run 1..22, not 99" in stderr
    assert len(stderr.strip().splitlines()) == 1


def test_a_reader_that_stops_early_gets_no_broken_pipe_message(tmp_path: Path) -> None:
    """`ultibank history show 1 | head -1`: the rest of the output is dropped without a word."""
    data = tmp_path / "data"
    script = tmp_path / "g.tap"
    script.write_text("tap bank:1\ntap bank:2\npress ok\n" + "tap prop:5\ntap bank:2\n" * 4000)
    subprocess.run(
        [sys.executable, "-m", "bank.cli", "script", str(script), "--data-dir", str(data)],
        cwd=ROOT, check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    env = dict(os.environ, ULTIBANK_DATA_DIR=str(data), PYTHONPATH=str(ROOT))
    # about 200 kB: more than a pipe holds, so the writer meets the closed pipe
    shell = f"{sys.executable} -m bank.cli history show 1 | head -1"
    out = subprocess.run(
        ["bash", "-o", "pipefail", "-c", shell],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert out.stdout.count("\n") == 1 and "new_game" in out.stdout
    assert out.stderr == ""  # no "[Errno 32] Broken pipe", no "Exception ignored"
    assert out.returncode == 141  # as a command killed by SIGPIPE


def test_a_config_that_is_a_directory_and_enrolling_on_the_simulated_reader_say_why(
    setting: tuple[dict[str, str], dict[str, str]], tmp_path: Path
) -> None:
    """Found trying issue 10 again: `--config /etc` printed a bare "[Errno 21] Is a directory",
    and `enroll --reader sim` prompted for a card no one can tap on a simulated reader, forever."""
    env, _ = setting
    status, stderr = _run(["--config", str(tmp_path), "run"], env)
    assert status == 2
    assert stderr.strip() == (
        f"ultibank: {tmp_path}: cannot read the configuration file: Is a directory"
    )
    status, stderr = _run(["enroll", "--reader", "sim"], env)
    assert status == 2, "enrolling on the simulated reader did not end"
    assert stderr.strip() == (
        "ultibank: enroll needs a real reader: --reader pcsc (or usb, tty:..., udp)"
    )
    status, stderr = _run(["write-card", "prop:1", "--reader", "sim"], env)
    assert (status, stderr.strip()) == (
        2, "ultibank: write-card needs a real reader: --reader pcsc (or usb, tty:..., udp)"
    )  # fmt: skip
