"""What the speaking unit says (``ultibank script --say``): every scenario of the project's
tap scripts, Ultime and classic, in its own edition and in the edition of the other language
(``ultime-fr`` / ``ultimate-uk``, ``classic-fr`` / ``classic-uk``, ``mega-fr`` / ``mega-uk``),
checked line by line against ``tests/speech/golden/``. Between them they reach every kind of
transaction the narration knows (purchase, rent with houses, auction, GO, jail, taxes, cards,
builds, mortgages, trades, bankruptcy, undo, Méga's and Star Wars' own) and the screens a
player acts on (refusals, bids, the jail question, balances, the winner).

After an intended change of words, rewrite the golden files with ``ULTIBANK_WRITE_GOLDEN=1``
and read the diff.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest

from bank.cli import main

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).with_name("golden")
WRITE = os.environ.get("ULTIBANK_WRITE_GOLDEN") == "1"
SIBLING = {
    "ultime-fr": "ultimate-uk",
    "ultimate-uk": "ultime-fr",
    "classic-fr": "classic-uk",
    "classic-uk": "classic-fr",
    "mega-fr": "mega-uk",
    "mega-uk": "mega-fr",
}


def _args(path: Path) -> list[str]:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# args:"):
            return shlex.split(line.removeprefix("# args:"))
    return ["--edition", "ultime-fr"]


def _cases() -> list[tuple[Path, list[str]]]:
    cases = []
    scripts = sorted((ROOT / "tests" / "scripts").glob("*.tap"))
    scripts += sorted((ROOT / "tests" / "scripts" / "classic").glob("*.tap"))
    for path in scripts:
        args = _args(path)
        edition = args[args.index("--edition") + 1]
        cases.append((path, args))
        other = SIBLING.get(edition)
        if other is not None:
            swapped = list(args)
            swapped[swapped.index("--edition") + 1] = other
            cases.append((path, swapped))
    return cases


CASES = _cases()


def said(path: Path, args: list[str], tmp: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The ``say`` lines of a script's transcript (the time column left out)."""
    assert main(["script", str(path), *args, "--say", "--data-dir", str(tmp)]) == 0
    out = capsys.readouterr().out
    return [line.split(" say ", 1)[1] for line in out.splitlines() if " say " in line]


@pytest.mark.parametrize(
    ("path", "args"),
    CASES,
    ids=[f"{p.stem}-{a[a.index('--edition') + 1]}" for p, a in CASES],
)
def test_what_the_unit_says_matches_its_golden_file(
    path: Path, args: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edition = args[args.index("--edition") + 1]
    lines = said(path, args, tmp_path, capsys)
    golden = GOLDEN / f"{path.stem}.{edition}.say"
    # every number is said in words: no digit, no currency sign reaches the voice
    for line in lines:
        assert not re.search(r"[0-9€£฿₥]", line), line
    if WRITE:
        golden.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    want = golden.read_text(encoding="utf-8").splitlines()
    for n, (got, expected) in enumerate(zip(lines, want, strict=False), start=1):
        assert got == expected, f"{golden.name}:{n}"
    assert len(lines) == len(want), golden.name
