"""House editions are checked like shipped ones (issue 17, point 3).

The attacks of the issue, one by one, on a copy of classic-fr; then a fuzz over one-change
copies of every shipped edition: each copy is refused with one line naming a field, or is an
edition whose every number is within the documented ceiling and every text printable and
short.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bank import rulesets
from board_assets import (
    EDITIONS_DIR,
    MAX_AMOUNT,
    MAX_TEXT,
    EditionError,
    _Validator,
    edition_names,
    load_edition,
    load_edition_file,
)
from tests.support.editions import house_copy

ESC = "\\u001b[2J\\u001b[H"  # clears a terminal, as TOML text


def _house(tmp_path: Path, old: str, new: str, source: str = "classic-fr") -> Path:
    text = house_copy((EDITIONS_DIR / f"{source}.toml").read_text(encoding="utf-8"))
    assert old in text, old
    path = tmp_path / "maison.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


HOUSE = r"classic\.deeds\[number=1\]\.house: at most 1,000,000"
JAIL_FEE = "\njail_fee = 1000000000000000000000000000000\n"
BACK = r"classic\.chance\[\d+\]\.spaces: at most 12"
NAME = r"properties\[\d+\]\.name"


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        ("number = 1, house = 50,", "number = 1, house = 10000000,", HOUSE),
        ("amount = 200\n", "amount = 10000000\n", r"classic\.taxes\[0\]\.amount: at most"),
        ("\ngo_salary = 200\n", "\ngo_salary = 10000000\n", r"constants\.go_salary: at most"),
        ("\njail_fee = 50\n", JAIL_FEE, r"constants\.jail_fee: at most"),
        ('effect = "back"\nspaces = 3', 'effect = "back"\nspaces = 1000', BACK),
        ("utility_dice = 2", "utility_dice = 0", r"classic\.utility_dice: must be at least 1"),
        ("utility_dice = 2", "utility_dice = 1000000", r"classic\.utility_dice: at most 20"),
        ('name = "Rue de la Paix"', f'name = "Rue{ESC}"', NAME + r": '\\x1b' is not a printable"),
        ('name = "Rue de la Paix"', 'name = "' + "x" * 10_000 + '"', NAME + r": at most 60"),
        ('"chien", ', f'"chien{ESC}", ', r"classic\.token_labels\[0\]\.label: '\\x1b'"),
        ('"chien", ', '"' + "c" * 10_000 + '", ', r"classic\.token_labels\[0\]\.label: at most 20"),
        ("card_table = true", "card_table = true\nbonus = 5", r"classic\.bonus: unknown key"),
        ('"FREE_PARKING"', '"SPACEPORT"', r"constants\.ring\[20\]: 'SPACEPORT' is no space"),
        ("min_players = 2", "min_players = 1", r"constants\.min_players: a game has 2 players"),
        ('chance_name = "Chance"', 'chance_name = "' + "C" * 50 + '"',
         r"classic\.chance_name: at most 20"),
    ],
)  # fmt: skip
def test_each_attack_of_the_issue_is_refused_naming_the_field(
    tmp_path: Path, old: str, new: str, field: str
) -> None:
    with pytest.raises(EditionError, match=rf"^maison\.toml: {field}") as caught:
        load_edition_file(_house(tmp_path, old, new))
    assert "\n" not in str(caught.value)


def test_a_house_edition_may_not_claim_a_shipped_id(tmp_path: Path) -> None:
    text = (EDITIONS_DIR / "classic-fr.toml").read_text(encoding="utf-8")
    path = tmp_path / "maison.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(EditionError, match=r"edition\.id: 'classic-fr' is a shipped edition's id"):
        load_edition_file(path)
    load_edition_file(_house(tmp_path, "go_salary = 200", "go_salary = 250"))  # its own id: fine
    assert load_edition("classic-fr").id == "classic-fr"  # the shipped file itself


def test_a_label_can_never_drive_the_terminal_of_ultibank_tap() -> None:
    from bank.unit.text import printable

    assert printable("voiture") == "voiture"
    assert printable("a\x1b[2Jb\x07") == "a\\x1b[2Jb\\x07"
    assert printable("a\x1b[2Jb").isprintable()


# ---------------------------------------------------------------- the fuzz


def _leaves(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _leaves(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _leaves(value, (*path, i))
    else:
        yield path, node


def _tables(node: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    if isinstance(node, dict):
        yield path
        for key, value in node.items():
            yield from _tables(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _tables(value, (*path, i))


def _at(node: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        node = node[step]
    return node


BAD_INTS = (0, -1, 10**6 + 1, 10**7, 10**30, True, 1.5, "12")
BAD_TEXTS = ("", " ", "a\x1b[2Jb", "x" * 10_000, "\u202etxet", 7)


def _copies(raw: dict[str, Any], rnd: random.Random) -> Iterator[tuple[str, dict[str, Any]]]:
    """One-change copies of *raw*: a value replaced, a key removed, an unknown key added.

    Each copy is *raw* changed in place and put back once the caller is done with it."""
    for path, value in list(_leaves(raw)):
        if isinstance(value, bool):
            choices: tuple[Any, ...] = (1, "yes")
        elif isinstance(value, int):
            choices = BAD_INTS
        elif isinstance(value, str):
            choices = BAD_TEXTS
        else:
            continue
        parent = _at(raw, path[:-1])
        for bad in rnd.sample(choices, 2):
            parent[path[-1]] = bad
            yield f"{'.'.join(map(str, path))} = {bad!r:.30}", raw
            parent[path[-1]] = value
        if isinstance(path[-1], str):
            del parent[path[-1]]
            yield f"{'.'.join(map(str, path))} removed", raw
            parent[path[-1]] = value
    for path in list(_tables(raw)):
        table = _at(raw, path)
        table["surprise"] = 1
        yield f"{'.'.join(map(str, path))}.surprise = 1", raw
        del table["surprise"]


def _sound(raw: dict[str, Any], what: str) -> None:
    """What an accepted copy must be: every number within the ceiling, every text printable
    and of bounded length (the refusal of anything else is the checks' job)."""
    for path, value in _leaves(raw):
        where = f"{what}: {'.'.join(map(str, path))}"
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            assert 0 <= value <= MAX_AMOUNT, where
        elif isinstance(value, str):
            assert value.isprintable() and 0 < len(value) <= MAX_TEXT, where
            assert value.strip() == value, where
        else:
            raise AssertionError(f"{where}: a {type(value).__name__} was accepted")
    for path in _tables(raw):
        assert "surprise" not in _at(raw, path), f"{what}: an unknown key was accepted"


@pytest.mark.parametrize("name", edition_names())
def test_every_one_change_copy_of_a_shipped_edition_is_refused_or_sound(name: str) -> None:
    import tomllib

    raw = tomllib.loads((EDITIONS_DIR / f"{name}.toml").read_text(encoding="utf-8"))
    rnd = random.Random(name)
    checked = refused = 0
    for what, changed in _copies(raw, rnd):
        checked += 1
        try:
            edition = _Validator("fuzz.toml").edition(changed)
            rulesets.for_edition(edition)  # the ruleset's own schema, as a game would run it
            if edition.ruleset == "classic":
                from bank.rulesets.classic.edition import classic_edition

                classic_edition(edition)
        except EditionError as err:
            refused += 1
            message = str(err)
            assert "\n" not in message and re.match(r"^fuzz\.toml: \S", message), message
            continue
        _sound(changed, what)
    assert checked > 500 and refused > checked // 2, (checked, refused)
