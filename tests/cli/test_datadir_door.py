"""One door to the data directory (issue 17, point 2).

Every command that reads or writes the data directory makes the same checks: a directory
other users may write to is refused (unless ``game.strict_modes = false``), a link planted in
place of one of ultibank's files is never followed, and the files ultibank creates are new
ones (``O_EXCL|O_NOFOLLOW``). Each command is tried in a world-writable directory, then with
the check turned off and a link planted where it would write; the link's target (a file
another user wants overwritten) must stay as it was.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bank.services.datadir import DataDirError, open_output, write_atomic
from bank.services.journal import Journal, backup_journal

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = "tap bank:1\ntap bank:2\npress ok\n"
PRECIOUS = "root's file: must not change\n"


def _ultibank(data: Path, *args: str, strict: bool = True) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("ULTIBANK_DATA_DIR", None)
    options = [] if strict else ["--set", "game.strict_modes=false"]
    return subprocess.run(
        [sys.executable, "-m", "bank.cli", *options, *args, "--data-dir", str(data)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False,
        stdin=subprocess.DEVNULL,
    )  # fmt: skip


def _world_writable(tmp_path: Path) -> Path:
    data = tmp_path / "shared"
    data.mkdir()
    os.chmod(data, 0o777)  # no sticky bit: anyone may plant or replace files here
    return data


def _target(tmp_path: Path) -> Path:
    target = tmp_path / "precious"
    target.write_text(PRECIOUS)
    return target


def _commands(tmp_path: Path) -> dict[str, list[str]]:
    script = tmp_path / "game.tap"
    script.write_text(SCRIPT)
    return {
        "run": ["run", "--reader", "sim", "--panel", "sim"],
        "emulate": ["emulate", "--terminal"],
        "tap": ["tap", "bank:1"],
        "state": ["state"],
        "acknowledge": ["acknowledge"],
        "script": ["script", str(script)],
        "enroll": ["enroll", "--reader", "tty:/dev/null"],
        "history": ["history"],
        "history backup": ["history", "backup", str(tmp_path / "copy.sqlite")],
        "history export": ["history", "export", "1", "--json"],
    }


COMMANDS = [
    "run", "emulate", "tap", "state", "acknowledge", "script", "enroll", "history",
    "history backup", "history export",
]  # fmt: skip


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_refuses_a_world_writable_data_dir(tmp_path: Path, command: str) -> None:
    data = _world_writable(tmp_path)
    # something to read, for the commands that read: a journal made by ultibank itself
    with Journal(data / "journal.sqlite") as j:
        j.new_game({"edition": "ultime-fr"})
        j.append({"i": 1})
    before = sorted(p.name for p in data.iterdir())
    done = _ultibank(data, *_commands(tmp_path)[command])
    assert done.returncode != 0, done.stdout
    assert "writable by every user" in done.stderr and "strict_modes" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert sorted(p.name for p in data.iterdir()) == before  # nothing made there


@pytest.mark.parametrize(
    ("command", "planted"),
    [
        ("run", "journal.sqlite.tip"),
        ("emulate", "journal.sqlite-wal"),
        ("tap", "control.sock"),
        ("script", "journal.sqlite-wal"),
        ("enroll", "deck.toml"),
        ("history", "journal.sqlite-wal"),
        ("history backup", "journal.sqlite-shm"),
        ("history export", "journal.sqlite-wal"),
    ],
)
def test_no_command_follows_a_planted_link(tmp_path: Path, command: str, planted: str) -> None:
    data = _world_writable(tmp_path)
    with Journal(data / "journal.sqlite") as j:
        j.new_game({"edition": "ultime-fr"})
        j.append({"i": 1})
    target = _target(tmp_path)
    (data / planted).unlink(missing_ok=True)
    (data / planted).symlink_to(target)
    done = _ultibank(data, *_commands(tmp_path)[command], strict=False)
    assert done.returncode != 0, done.stdout
    assert "symbolic link" in done.stderr and planted in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert target.read_text() == PRECIOUS


def test_a_script_state_file_and_an_export_never_write_through_a_link(tmp_path: Path) -> None:
    data = tmp_path / "data"
    target = _target(tmp_path)
    link = tmp_path / "state.json"
    link.symlink_to(target)
    script = tmp_path / "game.tap"
    script.write_text(SCRIPT)
    done = _ultibank(data, "script", str(script), "--state", str(link))
    assert done.returncode != 0 and "symbolic link" in done.stderr, done.stderr
    assert target.read_text() == PRECIOUS
    done = _ultibank(data, "history", "export", "1", "--json", "--output", str(link))
    assert done.returncode != 0 and "symbolic link" in done.stderr, done.stderr
    assert target.read_text() == PRECIOUS
    plain = tmp_path / "export.json"
    done = _ultibank(data, "history", "export", "1", "--json", "--output", str(plain))
    assert done.returncode == 0, done.stderr
    assert '"command"' in plain.read_text()


def test_a_backup_never_writes_through_a_link_planted_beside_it(tmp_path: Path) -> None:
    journal = tmp_path / "data" / "journal.sqlite"
    with Journal(journal) as j:
        j.new_game({"edition": "ultime-fr"})
        j.append({"i": 1})
    shared = _world_writable(tmp_path)
    target = _target(tmp_path)
    # where the backup used to make its temporary copy, guessable from our pid
    (shared / f".copy.sqlite.{os.getpid()}.partial").symlink_to(target)
    assert backup_journal(journal, shared / "copy.sqlite") == (1, 1)
    assert target.read_text() == PRECIOUS
    with Journal(shared / "copy.sqlite") as j:
        assert len(list(j.records())) == 1


def test_the_deck_is_saved_through_a_new_file_never_a_link(tmp_path: Path) -> None:
    from drivers.deck import Deck

    target = _target(tmp_path)
    (tmp_path / "deck.toml.tmp").symlink_to(target)  # the temporary name it used to write
    deck = Deck({})
    deck.save(tmp_path / "deck.toml")
    assert target.read_text() == PRECIOUS
    assert "[cards]" in (tmp_path / "deck.toml").read_text()
    assert not (tmp_path / "deck.toml").is_symlink()


def test_the_door_helpers_refuse_links_and_existing_files(tmp_path: Path) -> None:
    target = _target(tmp_path)
    link = tmp_path / "out"
    link.symlink_to(target)
    with pytest.raises(DataDirError, match="symbolic link"):
        open_output(link)
    write_atomic(link, b"new")  # replaces the link itself
    assert target.read_text() == PRECIOUS and link.read_bytes() == b"new"
    assert not link.is_symlink()
