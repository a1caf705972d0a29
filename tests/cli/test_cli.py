"""The ``ultibank`` command end to end: script, the daemon with its control socket, history."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "tests" / "scripts"


def ultibank(*args: str, check: bool = True, **kw: object) -> subprocess.CompletedProcess[str]:
    out = subprocess.run(
        [sys.executable, "-m", "bank.cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
        **kw,  # type: ignore[arg-type]
    )
    if check and out.returncode != 0:
        raise AssertionError(f"ultibank {' '.join(args)} -> {out.returncode}\n{out.stderr}")
    return out


def test_help_lists_every_command() -> None:
    out = ultibank("--help").stdout
    for word in ("run", "emulate", "script", "tap", "press", "state", "history", "readers",
                 "enroll", "write-card"):  # fmt: skip
        assert word in out
    assert "auction_seconds" in out  # the --set example


def test_script_writes_state_to_stdout(tmp_path: Path) -> None:
    script = tmp_path / "g.tap"
    script.write_text("tap bank:1\ntap bank:jet\npress ok\ntap prop:1\ntap bank:4\n")
    out = ultibank("script", str(script), "--state", "-")
    state = json.loads(out.stdout)  # stdout is the state file alone; the transcript on stderr
    assert [p["balance"] for p in state["players"]] == [1500, 1440]
    assert state["properties"][0] == {"number": 1, "owner": 4, "level": 1}
    assert "cue kaching" in out.stderr
    plain = ultibank("script", str(script))
    assert "cue kaching" in plain.stdout and not plain.stderr


def test_script_parse_error_exit_2(tmp_path: Path) -> None:
    script = tmp_path / "bad.tap"
    script.write_text("tap bank:1\n\npress jump\n")
    out = ultibank("script", str(script), check=False)
    assert out.returncode == 2
    assert f"{script}:3:" in out.stderr


def test_script_set_overrides_rules(tmp_path: Path) -> None:
    script = tmp_path / "a.tap"
    script.write_text(
        "tap bank:1\ntap bank:2\npress ok\ntap prop:11\npress menu\npress ok\npress ok\n"
        "wait 3.5\ntap bank:2\n"
    )
    short = ultibank("--set", "rules.auction_seconds=3", "script", str(script), "--state", "-")
    state = json.loads(short.stdout)
    assert state["properties"][10] == {"number": 11, "owner": 2, "level": 1}
    after = ultibank("script", str(script), "--set", "rules.auction_seconds=3", "--state", "-")
    assert '"owner": 2' in after.stdout
    both = ultibank("--set", "rules.auction_seconds=3", "script", str(script), "--set",
                    'unit.language="en"')  # fmt: skip
    assert "heli pays 20" in both.stdout
    bad = ultibank("--set", "rules.auction_secs=3", "script", str(script), check=False)
    assert bad.returncode == 2 and "unknown rules setting" in bad.stderr


@pytest.fixture
def daemon(tmp_path: Path):  # type: ignore[no-untyped-def]
    env = dict(os.environ, ULTIBANK_DATA_DIR=str(tmp_path / "data"), PYTHONPATH=str(ROOT))
    procs: list[subprocess.Popen[str]] = []

    def start() -> subprocess.Popen[str]:
        p = _start_daemon(
            ["--reader", "sim", "--panel", "sim"], env, tmp_path / "data" / "control.sock"
        )
        procs.append(p)
        return p

    def ctl(*args: str) -> subprocess.CompletedProcess[str]:
        return ultibank(*args, env=env)

    yield start, ctl, tmp_path / "data", env
    for p in procs:
        if p.poll() is None:
            p.kill()
            p.wait()


def test_daemon_control_socket_journal_and_resume(daemon) -> None:  # type: ignore[no-untyped-def]
    start, ctl, data, env = daemon
    proc = start()
    sock = data / "control.sock"
    assert stat.S_IMODE(sock.stat().st_mode) == 0o600
    for line in (("tap", "bank:1"), ("tap", "bank:boat"), ("press", "ok")):
        ctl(*line)
    out = ctl("tap", "prop:16").stdout
    assert "property #16" in out and "cue read" in out
    out = ctl("tap", "bank:3").stdout
    assert "cue kaching" in out
    state = json.loads(ctl("state").stdout)
    assert [p["balance"] for p in state["players"]] == [1500, 1240]
    assert state["properties"][15] == {"number": 16, "owner": 3, "level": 1}
    assert state["undo_available"] is True
    bad = ultibank("tap", "prop:99", env=env, check=False)
    assert bad.returncode == 2 and "prop" in bad.stderr
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(10) == 0
    assert not sock.exists()
    # power comes back: the game resumes from the journal
    start()
    state = json.loads(ctl("state").stdout)
    assert state["properties"][15]["owner"] == 3
    listing = ultibank("history", env=env)  # beside the running daemon: read-only
    assert "current" in listing.stdout and not listing.stderr


def test_history_list_show_export(tmp_path: Path) -> None:
    data = tmp_path / "data"
    script = tmp_path / "g.tap"
    lines = ["tap bank:1", "tap bank:2", "press ok", "tap prop:5", "tap bank:2", "hold cancel 5"]
    lines += ["tap bank:3", "tap bank:4", "press ok", "press menu"]
    script.write_text("\n".join(lines) + "\n")
    ultibank("script", str(script), "--data-dir", str(data))
    env = dict(os.environ, ULTIBANK_DATA_DIR=str(data))
    listing = ultibank("history", env=env).stdout.splitlines()
    assert len(listing) == 2 and "archived" in listing[0] and "current" in listing[1]
    assert "ultime-fr 1:car,2:helicopter" in listing[0]
    assert "3:boat,4:jet" in listing[1]
    shown = ultibank("history", "show", "1", env=env).stdout
    assert "land card=2 number=5" in shown and "card 2 → bank 120" in shown
    exported = json.loads(ultibank("history", "export", "1", "--json", env=env).stdout)
    assert [r["command"] for r in exported] == ["new_game", "land"]
    csv_text = ultibank("history", "export", "1", "--csv", env=env).stdout
    assert csv_text.splitlines()[0].startswith("seq,time")
    missing = ultibank("history", "show", "9", env=env, check=False)
    assert missing.returncode == 2 and "no game 9" in missing.stderr


def test_no_daemon_gives_a_clear_message(tmp_path: Path) -> None:
    env = dict(os.environ, ULTIBANK_DATA_DIR=str(tmp_path))
    out = ultibank("state", env=env, check=False)
    assert out.returncode == 2 and "no ultibank daemon is running" in out.stderr


@pytest.mark.nfcpy
def test_write_card_through_nfcpy_then_refuse_a_written_tag() -> None:
    from bank.unit.io import CardId
    from drivers.identity import decode_card_record, parse_type2_ndef
    from tests.support.udp_tag_sim import UdpTagSim

    with UdpTagSim() as sim:
        tag = sim.place("04A1B2C3D4E5F6")  # a blank, formatted NTAG215
        out = ultibank("write-card", "prop:16", "--reader", sim.path)
        assert "wrote prop:16 on tag 04A1B2C3D4E5F6" in out.stdout
        assert decode_card_record(parse_type2_ndef(bytes(tag.memory))) == CardId("prop", 16)
        again = ultibank("write-card", "bank:2", "--reader", sim.path, check=False)
        assert again.returncode == 1 and "refused" in again.stdout
        assert decode_card_record(parse_type2_ndef(bytes(tag.memory))) == CardId("prop", 16)
        over = ultibank("write-card", "bank:2", "--reader", sim.path, "--overwrite")
        assert "wrote bank:2" in over.stdout
        assert decode_card_record(parse_type2_ndef(bytes(tag.memory))) == CardId("bank", 2)


def test_emulate_without_display_falls_back_to_the_terminal(tmp_path: Path) -> None:
    """No DISPLAY: the terminal view; a game piped in is played, even the keys before q."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(ULTIBANK_DATA_DIR=str(tmp_path / "data"), SDL_VIDEODRIVER="x11")
    out = ultibank("emulate", input="1\n2\n\np16\n1\nq\n", env=env)
    assert "no display found" in out.stderr
    assert "Achat 260" in out.stdout and "~ kaching" in out.stdout
    cont = tmp_path / "c.tap"
    cont.write_text("tap bank:2\n")
    state = ultibank("script", str(cont), "--data-dir", str(tmp_path / "data"), "--state", "-")
    assert '"number": 16, "owner": 1, "level": 1' in state.stdout


def test_a_daemon_without_a_terminal_survives_sighup(tmp_path: Path) -> None:
    """A service's reader tty can become its controlling terminal; its hang-up must not kill."""
    env = dict(os.environ, ULTIBANK_DATA_DIR=str(tmp_path / "data"), PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "bank.cli", "run", "--reader", "sim", "--panel", "sim"],
        cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        sock = tmp_path / "data" / "control.sock"
        deadline = time.monotonic() + 15
        while not sock.exists():
            assert proc.poll() is None and time.monotonic() < deadline, "no daemon"
            time.sleep(0.02)
        proc.send_signal(signal.SIGHUP)
        ultibank("tap", "bank:1", env=env)
        assert proc.poll() is None, "SIGHUP killed the daemon"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _start_daemon(argv: list[str], env: dict[str, str], sock: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "bank.cli", "run", *argv],
        cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 15
    while not sock.exists():
        assert proc.poll() is None, proc.communicate()[1]
        assert time.monotonic() < deadline, "the daemon did not open its control socket"
        time.sleep(0.02)
    return proc


def _stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_client_commands_find_a_daemon_started_with_data_dir(tmp_path: Path) -> None:
    """`run --data-dir ./g`: state, tap, press and hold take --data-dir or ULTIBANK_DATA_DIR."""
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if k not in ("ULTIBANK_DATA_DIR", "XDG_DATA_HOME")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), PYTHONPATH=str(ROOT))
    games = tmp_path / "g"
    proc = _start_daemon(
        ["--data-dir", str(games), "--reader", "sim", "--panel", "sim"],
        env, games / "control.sock",
    )  # fmt: skip
    try:
        lost = ultibank("state", env=env, check=False)
        assert lost.returncode == 2
        assert str(home / ".local/share/ultibank/control.sock") in lost.stderr
        assert "--data-dir DIR" in lost.stderr and "ULTIBANK_DATA_DIR" in lost.stderr
        assert len(lost.stderr.strip().splitlines()) == 1
        # several cards in one tap, in order, as the usage line says
        taps = ultibank("tap", "bank:1", "bank:2", "--data-dir", str(games), env=env)
        assert taps.stdout.count("cue") >= 2
        ultibank("press", "--data-dir", str(games), "ok", env=env)
        ultibank("tap", "prop:16", "bank:1", "--data-dir", str(games), env=env)
        state = json.loads(ultibank("state", "--data-dir", str(games), env=env).stdout)
        assert [p["card"] for p in state["players"]] == [1, 2]
        assert state["properties"][15]["owner"] == 1
        # a bad card stops the line there: the cards after it are not tapped
        bad = ultibank("tap", "prop:2", "prop:99", "bank:2", "--data-dir", str(games),
                       env=env, check=False)  # fmt: skip
        assert bad.returncode == 2 and "prop" in bad.stderr
        with_env = dict(env, ULTIBANK_DATA_DIR=str(games))
        held = ultibank("hold", "cancel", "0.1", env=with_env)
        assert held.returncode == 0
        state = json.loads(ultibank("state", env=with_env).stdout)
        assert state["properties"][15]["owner"] == 1
        assert state["properties"][1]["owner"] is None  # prop:2 was read, bank:2 never tapped
    finally:
        _stop(proc)


def test_history_reads_the_journal_of_a_running_daemon(tmp_path: Path) -> None:
    """A real `ultibank run` holds the journal; history, show and export still read it."""
    data = tmp_path / "data"
    env = dict(os.environ, ULTIBANK_DATA_DIR=str(data), PYTHONPATH=str(ROOT))
    proc = _start_daemon(["--reader", "sim", "--panel", "sim"], env, data / "control.sock")
    try:
        for line in (("bank:1", "bank:2"), ("prop:5",)):
            ultibank("tap", *line, env=env)
        ultibank("press", "ok", env=env)
        ultibank("tap", "prop:5", "bank:2", env=env)
        listing = ultibank("history", env=env)
        assert "current" in listing.stdout and not listing.stderr
        shown = ultibank("history", "show", "1", env=env).stdout
        assert "card 2 → bank 120" in shown  # the purchase committed a moment ago
        exported = json.loads(ultibank("history", "export", "1", "--json", env=env).stdout)
        assert exported[-1]["card"] == 2
        # the daemon is not disturbed: it goes on journalling, and history sees that too
        ultibank("tap", "prop:9", "bank:1", env=env)
        again = json.loads(ultibank("history", "export", "1", "--json", env=env).stdout)
        assert len(again) > len(exported)
        assert proc.poll() is None
    finally:
        _stop(proc)
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    # stopped: the same history, and the journal is still the daemon's to reopen
    after = ultibank("history", "export", "1", "--json", env=env).stdout
    assert json.loads(after) == again


def test_history_says_a_game_that_ended_is_finished(tmp_path: Path) -> None:
    data = tmp_path / "data"
    ultibank("script", str(EXAMPLES / "g12_bankruptcy.tap"), "--data-dir", str(data))
    env = dict(os.environ, ULTIBANK_DATA_DIR=str(data))
    (line,) = ultibank("history", env=env).stdout.splitlines()
    assert "finished" in line and "current" not in line


def test_end_of_piped_input_ends_the_terminal_view(tmp_path: Path) -> None:
    """`printf '1\\n2\\n\\n' | ultibank emulate --terminal` plays the keys, then ends."""
    env = dict(os.environ, ULTIBANK_DATA_DIR=str(tmp_path / "data"))
    started = time.monotonic()
    out = ultibank("emulate", "--terminal", input="1\n2\n\np16\n1", env=env)  # no q, no \n
    assert time.monotonic() - started < 30
    assert "~ kaching" in out.stdout  # the last line, without its newline, was played
    cont = tmp_path / "c.tap"
    cont.write_text("wait 0\n")
    state = ultibank("script", str(cont), "--data-dir", str(tmp_path / "data"), "--state", "-")
    assert '"number": 16, "owner": 1, "level": 1' in state.stdout
    empty = ultibank("emulate", "--terminal", stdin=subprocess.DEVNULL, env=env)
    assert empty.returncode == 0


def test_a_screenshot_run_exits_once_the_file_is_written(tmp_path: Path) -> None:
    """SDL_VIDEODRIVER=dummy ultibank emulate --screenshot x.png: for automated runs."""
    pytest.importorskip("pygame")
    env = dict(
        os.environ, ULTIBANK_DATA_DIR=str(tmp_path / "data"), SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
    )  # fmt: skip
    shot = tmp_path / "x.png"
    out = ultibank("emulate", "--screenshot", str(shot), env=env, stdin=subprocess.DEVNULL)
    assert shot.read_bytes().startswith(b"\x89PNG")
    assert f"screenshot saved to {shot}" in out.stderr
    bad = ultibank("emulate", "--screenshot", str(shot / "y.png"), env=env, check=False,
                   stdin=subprocess.DEVNULL)  # fmt: skip
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert bad.stderr.splitlines()[-1].startswith(f"ultibank: the screenshot {shot}/y.png failed")
    no_window = {k: v for k, v in env.items() if k not in ("DISPLAY", "SDL_VIDEODRIVER")}
    refused = ultibank("emulate", "--screenshot", str(shot), env=no_window, check=False)
    assert refused.returncode == 2 and "--screenshot needs the window" in refused.stderr


def test_no_alsa_chatter_before_the_no_sound_warning(tmp_path: Path) -> None:
    """Without a sound card the emulator says so in one line, not after eight ALSA lines."""
    pytest.importorskip("pygame")
    if (
        Path("/proc/asound/cards").is_file()
        and "no soundcards" not in Path("/proc/asound/cards").read_text()
    ):
        pytest.skip("this machine has a sound card")
    env = dict(os.environ, ULTIBANK_DATA_DIR=str(tmp_path / "data"), SDL_VIDEODRIVER="dummy")
    env.pop("SDL_AUDIODRIVER", None)
    out = ultibank("emulate", "--screenshot", str(tmp_path / "x.png"), env=env)
    assert "no sound" in out.stderr
    assert "ALSA lib" not in out.stderr, out.stderr


@pytest.mark.parametrize(
    ("language", "hello", "holding"),
    [("", "ultibank, vue terminal : ? pour l'aide", "maintien de X..."),
     ("en", "ultibank terminal panel: ? for help", "holding X...")],
)  # fmt: skip
def test_the_daemons_terminal_panel_speaks_the_games_language(
    tmp_path: Path, language: str, hello: str, holding: str
) -> None:
    """`ultibank run` (terminal panel by default) in the French edition: its hello, its help and
    its messages are French like the LCD, as in `emulate --terminal`; English when set so."""
    data = tmp_path / "data"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [sys.executable, "-m", "bank.cli", "--set", f"unit.language={language!r}".replace("'", '"'),
         "run", "--data-dir", str(data), "--reader", "sim", "--panel", "terminal"],
        cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 15
        while not (data / "control.sock").exists():
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.02)
        assert proc.stdin is not None
        proc.stdin.write("r\n")
        proc.stdin.flush()
        time.sleep(0.5)
    finally:
        _stop(proc)
    out = proc.stdout.read() if proc.stdout else ""
    assert hello in out
    assert holding in out
