"""The terminal panel: the key reader on its own, then the real thing through a pseudo-terminal."""

from __future__ import annotations

import contextlib
import io
import os
import pty
import select
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from bank.unit.io import Button, CardId, Cue, Screen
from drivers.terminal_panel import Click, Hold, KeyReader, Quit, Refuse, Say, Tap, TerminalPanel

ROOT = Path(__file__).resolve().parents[2]


def test_keys_to_actions() -> None:
    k = KeyReader()
    assert k.keys("om\nx\x1b") == [
        Click(Button.OK),
        Click(Button.MENU),
        Click(Button.OK),
        Click(Button.CANCEL),
        Click(Button.CANCEL),
    ]
    assert k.keys("ur") == [Hold((Button.OK, Button.CANCEL)), Hold((Button.CANCEL,))]
    assert k.keys("3") == [Tap(CardId("bank", 3))]
    assert k.keys("p1") == [] and k.entering == "p1"
    assert k.keys("6\n") == [Tap(CardId("prop", 16))]
    assert k.keys("e7\r") == [Tap(CardId("event", 7))]
    assert k.keys("q") == [Quit()]


def test_arrow_keys_are_not_escape() -> None:
    arrow = Refuse("unknown key (arrow or function key): ? for help")
    assert KeyReader().keys("\x1b[A\x1b[B\x1bOPm") == [arrow, arrow, arrow, Click(Button.MENU)]


def test_bad_card_numbers_are_refused_with_a_reason() -> None:
    k = KeyReader()
    assert k.keys("p99\n") == [Say("no prop card 99 (1..22)")]
    assert k.keys("e\n") == [Say("type a number after e, e.g. e7")]
    assert k.keys("p12\x7f\x7f5\n") == [Tap(CardId("prop", 5))]
    assert k.keys("p1m") == [Say("card entry cancelled"), Click(Button.MENU)]


def test_line_mode() -> None:
    k = KeyReader()
    assert k.line("") == [Click(Button.OK)]
    assert k.line("p16") == [Tap(CardId("prop", 16))]
    assert k.line(" e23 ") == [Tap(CardId("event", 23))]
    assert k.line("mo") == [Click(Button.MENU), Click(Button.OK)]


def test_screens_and_cues_print(tmp_path: Path) -> None:
    out = (tmp_path / "out").open("w+")
    inp = (tmp_path / "in").open("w+")
    panel = TerminalPanel(inp, out, style="block")
    panel.show(Screen("balance", lines=("Joueur 3",), amount=1500, token="car"))
    panel.play(Cue.ERROR)
    panel.play(Cue.KACHING)
    out.seek(0)
    assert out.read().splitlines() == [
        "+--------------------+",
        "|car             1500|",
        "|Joueur 3            |",
        "|                    |",
        "|                    |",
        "+--------------------+",
        "~ error\a",
        "~ kaching",
    ]
    line = TerminalPanel(inp, out, style="line", bell=False)
    out.seek(0)
    out.truncate()
    line.show(Screen("balance", amount=1500, token="car"))
    line.play(Cue.ERROR)
    out.seek(0)
    assert out.read().splitlines() == ["balance [car] 1500", "~ error"]


class Pty:
    """A program on a pseudo-terminal: keys in through the master, its screen out of it."""

    def __init__(self, *args: str) -> None:
        self.master, slave = pty.openpty()
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", *args],
            stdin=slave,
            stdout=slave,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.screen = b""
        self.inputs: list[str] = []
        self._err = b""

    def pump(self, timeout: float = 0.05) -> None:
        assert self.proc.stderr is not None
        err_fd = self.proc.stderr.fileno()
        ready, _, _ = select.select([self.master, err_fd], [], [], timeout)
        if self.master in ready:
            with contextlib.suppress(OSError):
                self.screen += os.read(self.master, 4096)
        if err_fd in ready:
            self._err += os.read(err_fd, 4096)
            *lines, self._err = self._err.split(b"\n")
            self.inputs += [x.decode() for x in lines]

    def wait_for(self, check: object, timeout: float = 10.0, what: str = "") -> None:
        deadline = time.monotonic() + timeout
        while not check():  # type: ignore[operator]
            if time.monotonic() > deadline:
                pytest.fail(f"timed out waiting for {what}; screen={self.screen!r}")
            self.pump()

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=5)
        os.close(self.master)


def test_through_a_real_pseudo_terminal() -> None:
    term = Pty("tests.panels.term_prog", "0.3")
    try:
        term.wait_for(lambda: b"+--------------------+" in term.screen, what="the screen")
        assert b"|boat            1500|" in term.screen
        assert b"|GO                  |" in term.screen
        # cbreak: single keys act without Enter, and are not echoed.
        term.type(b"o")
        term.wait_for(lambda: len(term.inputs) >= 2, what="OK")
        assert term.inputs[:2] == [
            "ButtonPressed(at=7.0, button=<Button.OK: 'ok'>)",
            "ButtonReleased(at=7.0, button=<Button.OK: 'ok'>)",
        ]
        term.type(b"p16\n")
        term.wait_for(lambda: len(term.inputs) >= 4, what="the property tap and lift")
        assert "CardTapped(at=7.0, card=CardId(kind='prop', number=16)" in term.inputs[2]
        assert term.inputs[3].startswith("CardLifted(")
        before = len(term.inputs)
        term.type(b"u")
        term.wait_for(lambda: len(term.inputs) >= before + 4, what="the undo hold and release")
        held = term.inputs[before:]
        assert [h.split("(")[0] for h in held] == [
            "ButtonPressed",
            "ButtonPressed",
            "ButtonReleased",
            "ButtonReleased",
        ]
        assert b"holding OK+X" in term.screen
        term.type(b"?")
        term.wait_for(lambda: b"bank card" in term.screen, what="the help")
        assert b"p16" not in term.screen.split(b"keys:")[0]  # typed keys are not echoed
        term.type(b"q")
        assert term.proc.wait(timeout=10) == 0
        term.wait_for(lambda: b"bye" in term.screen, what="the goodbye")
    finally:
        term.close()


def test_keys_typed_during_a_hold_come_after_its_release() -> None:
    """A piped ``u`` (hold ✓+X: undo) then a card: the hold is released before the card is
    tapped, so the undo takes back what came before it, not the card typed after it."""
    proc = subprocess.run(
        [sys.executable, "-m", "tests.panels.term_prog", "0.3"],
        input=b"u\n2\nq\n",
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=30,
    )
    assert proc.returncode == 0
    kinds = [line.split("(")[0] for line in proc.stderr.decode().splitlines()]
    assert kinds == [
        "ButtonPressed",
        "ButtonPressed",
        "ButtonReleased",
        "ButtonReleased",
        "CardTapped",
        "CardLifted",
    ]


def test_terminal_settings_are_restored() -> None:
    master, slave = pty.openpty()
    try:
        before = termios.tcgetattr(slave)
        with os.fdopen(os.dup(slave), "r") as stdin, open(os.devnull, "w") as out:
            panel = TerminalPanel(stdin, out)
            panel.start(lambda item: None)
            during = termios.tcgetattr(slave)
            panel.close()
            after = termios.tcgetattr(slave)
        assert during[3] & termios.ICANON == 0 and during[3] & termios.ECHO == 0
        assert after == before
    finally:
        os.close(master)
        os.close(slave)


def test_line_mode_on_a_pipe() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tests.panels.term_prog", "0.1"],
        input=b"m\n\n2\ne7\nq\n",
        capture_output=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=30,
    )
    assert proc.returncode == 0
    inputs = proc.stderr.decode().splitlines()
    kinds = [(line.split("(")[0], line.split("button=<Button.")[-1][:4]) for line in inputs]
    assert [k for k, _ in kinds] == [
        "ButtonPressed",
        "ButtonReleased",
        "ButtonPressed",
        "ButtonReleased",
        "CardTapped",
        "CardLifted",
        "CardTapped",
        "CardLifted",
    ]
    assert "Button.MENU" in inputs[0] and "Button.OK" in inputs[2]
    assert "CardId(kind='bank', number=2)" in inputs[4]
    assert "CardId(kind='event', number=7)" in inputs[6]
    assert b"|boat            1500|" in proc.stdout


def test_the_status_row_speaks_the_games_language(tmp_path: Path) -> None:
    """One language per game, the status row included: the token as the LCD names it and the
    icons' words in French, and no internal screen name in the frame (issue 10.9)."""
    from bank.unit.io import Icon

    out = (tmp_path / "out").open("w+")
    inp = (tmp_path / "in").open("w+")
    panel = TerminalPanel(inp, out, style="block", language="fr")
    icons = frozenset({Icon.GO, Icon.JAIL})
    panel.show(Screen("balance", lines=("Joueur 1",), amount=1700, token="car", icons=icons))
    out.seek(0)
    rows = out.read().splitlines()
    assert rows[0] == "+--------------------+"
    assert rows[1] == "|voiture         1700|"
    assert rows[2].startswith("|DEPART PRISON")
    assert "balance" not in "".join(rows) and "GO" not in rows[2]


def _printed(encoding: str, screen: Screen, style: str = "block") -> str:
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding=encoding, write_through=True)
    TerminalPanel(io.StringIO(), out, style=style).show(screen)
    return raw.getvalue().decode(encoding)


JOINED = Screen("new_game", lines=("Joueur 2: hélico", "✓ pour commencer"), amount=1500)
STARTED = Screen("new_game", lines=("Partie lancée", "2 joueurs, 1500 M€"))


def test_a_utf8_terminal_shows_accents_and_symbols() -> None:
    block = _printed("utf-8", JOINED)
    assert "|Joueur 2: hélico    |" in block and "|✓ pour commencer    |" in block
    assert "|2 joueurs, 1500 M€  |" in _printed("utf-8", STARTED)
    assert _printed("utf-8", STARTED, "line").endswith("| Partie lancée / 2 joueurs, 1500 M€\n")


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_a_narrower_terminal_gets_the_fallback_for_what_it_cannot_show(encoding: str) -> None:
    block = _printed(encoding, STARTED)
    assert "|2 joueurs, 1500 ME  |" in block
    lancee = "Partie lancée" if encoding == "latin-1" else "Partie lancee"
    assert f"|{lancee}       |" in block
    line = _printed(encoding, JOINED, "line")  # never a line lost to an encoding error
    assert line.endswith(" pour commencer\n") and "Joueur 2" in line


def test_an_unknown_key_is_refused_with_a_word_and_the_error_cue() -> None:
    k = KeyReader()
    assert k.keys("z") == [Refuse("unknown key 'z': ? for help")]
    assert k.keys("\x1b[A") == [Refuse("unknown key (arrow or function key): ? for help")]
    assert k.line("mz") == [Click(Button.MENU), Refuse("unknown key 'z': ? for help")]
    out = io.StringIO()
    panel = TerminalPanel(io.StringIO(), out)
    panel._run(k.keys("z"))
    assert out.getvalue() == "unknown key 'z': ? for help\n~ error\a\n"


def test_the_terminal_speaks_the_units_language() -> None:
    k = KeyReader("fr")
    assert k.keys("z") == [Refuse("touche inconnue 'z' : ? pour l'aide")]
    assert k.keys("p99\n") == [Say("pas de carte propriété 99 (1..22)")]
    help_text = k.keys("?")
    assert isinstance(help_text[0], Say) and "carte banque" in help_text[0].text
    out = io.StringIO()
    panel = TerminalPanel(io.StringIO(), out, language="fr", hold_seconds=0.01)
    panel._run([Hold((Button.CANCEL,))])
    assert out.getvalue().startswith("maintien de X...")
    panel.close()
