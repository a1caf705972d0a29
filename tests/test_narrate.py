"""Transactions in words (bank/narrate.py): every classic scenario of ``tests/scripts/classic/``
is said in French and English without falling back to a command's bare name, and the words
follow the state each transaction started from."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from bank.cli import main
from bank.events import apply
from bank.journal import Journal
from bank.narrate import Narrator, states_before
from bank.records import LEGACY_RULESET, Record, decode_entries
from bank.state import GameState
from board_assets import load_edition

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "tests" / "scripts" / "classic").glob("*.tap"))


def play(script: Path, data_dir: Path) -> tuple[str, list[Record]]:
    args = next(
        shlex.split(line.removeprefix("# args:"))
        for line in script.read_text(encoding="utf-8").splitlines()
        if line.startswith("# args:")
    )
    assert main(["script", str(script), *args, "--data-dir", str(data_dir)]) == 0
    with Journal(data_dir / "journal.sqlite") as journal:
        records = decode_entries(journal.entries())
    edition = args[args.index("--edition") + 1]
    return edition, records


def test_every_classic_scenario_is_told_in_both_languages(tmp_path: Path) -> None:
    seen: set[str] = set()
    for n, script in enumerate(SCENARIOS):
        edition_id, records = play(script, tmp_path / str(n))
        if records[0].ruleset == LEGACY_RULESET:
            continue  # an Ultime game refusing classic cards: its own words
        edition = load_edition(edition_id)
        for lang in ("fr", "en"):
            narrator = Narrator(edition, lang)
            state = GameState.empty(edition)
            for record in records:
                title = narrator.title(record, state)
                assert title and title != record.name, (script.name, lang, record.name)
                seen.add(record.name)
                state = apply(state, record.events)
    # the scenarios reach every kind of transaction a classic unit makes but the rare ones
    assert seen >= {
        "new_game", "visit", "auction_sale", "series_sale", "classic_go", "classic_jail",
        "classic_leave_jail", "tax", "pay_bank", "receive_bank", "collect_pot", "build",
        "sell_building", "mortgage", "trade", "interest", "roll", "card", "generic_card",
        "bankruptcy", "undo",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "fr",
            [
                "chien lance les dés : 3 + 3 = 6 (double)",
                "chien lance les dés : 4 + 4 = 8 (3 doubles : prison)",
            ],
        ),
        ("en", ["dog rolls 3 + 3 = 6 (double)", "dog rolls 4 + 4 = 8 (3 doubles: jail)"]),
    ],
)
def test_walking_back_from_the_state_gives_the_same_words_as_a_replay(
    tmp_path: Path, lang: str, words: list[str]
) -> None:
    edition_id, records = play(SCENARIOS[[s.stem for s in SCENARIOS].index("m11_dice")], tmp_path)
    edition = load_edition(edition_id)
    narrator = Narrator(edition, lang)
    forward = []
    state = GameState.empty(edition)
    for record in records:
        forward.append(narrator.title(record, state))
        state = apply(state, record.events)
    backward = [
        narrator.title(r, s)
        for r, s in zip(reversed(records), states_before(state, records), strict=True)
    ]
    assert backward[::-1] == forward
    for line in words:
        assert line in forward


def test_a_pound_edition_writes_pounds_first_in_english() -> None:
    uk = load_edition("classic-uk")
    assert Narrator(uk, "en").money(60) == "£60"
    assert Narrator(uk, "fr").money(60) == "60 £"
    assert Narrator(load_edition("classic-fr"), "en").money(60) == "60 €"


def test_an_edition_with_its_own_tokens_names_them_by_its_labels() -> None:
    starwars = load_edition("starwars-ep2-fr")
    narrator = Narrator(starwars, "fr")
    assert narrator.who(1) == "Obi-Wan" and narrator.who(None) == "la banque"
