"""Transactions in words (the classic ruleset's narrator, bank/rulesets/classic/narrate.py):
every classic scenario of ``tests/scripts/classic/``
is said in French and English without falling back to a command's bare name, and the words
follow the state each transaction started from."""

from __future__ import annotations

import dataclasses
import shlex
from pathlib import Path

import pytest

from bank import rulesets
from bank.cli import main
from bank.engine.events import apply
from bank.engine.records import LEGACY_RULESET, Record, decode_entries
from bank.engine.state import GameState
from bank.rulesets.classic import outcomes as co
from bank.services.journal import Journal
from bank.views.narrate import narrator_for, states_before
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
            narrator = narrator_for(edition, lang)
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
        "bankruptcy", "undo", "birthday_gift", "force",
    }  # fmt: skip


def test_the_outcome_read_from_the_events_tells_the_same_words(tmp_path: Path) -> None:
    """The last step of the upcaster of version 0 (a record from before outcomes were
    journalled, which the rules no longer decide the same way) reads the outcome from the
    events: for every classic scenario it is the journalled outcome (but a rent's basis), and
    in both languages it tells the same words (a rent's basis read from the outcome or from
    the state it started from)."""
    for n, script in enumerate(SCENARIOS):
        edition_id, records = play(script, tmp_path / str(n))
        if records[0].ruleset == LEGACY_RULESET:
            continue
        edition = load_edition(edition_id)
        codec = rulesets.find("classic").outcomes
        assert codec is not None and codec.from_events is not None
        narrators = [narrator_for(edition, lang) for lang in ("fr", "en")]
        state = GameState.empty(edition)
        for record in records:
            after = apply(state, record.events)
            read = codec.from_events(edition, record, state, after)
            if record.name != "undo":
                assert read is not None, (script.name, record.name)
                want = record.outcome
                # where a card's move paid a rent, or the deck it sends to, is not in the events
                if (
                    isinstance(read, co.CardPlayed)
                    and isinstance(want, co.CardPlayed)
                    and read.landing is None
                ):
                    want = dataclasses.replace(want, landing=None, draw=None)
                # what a rent was worked out from is the rules' word (the outcome's basis);
                # read from the events, the words take it from the state (the same words)
                if isinstance(want, co.RentPaid) and isinstance(read, co.RentPaid):
                    assert read.basis is None and want.basis is not None
                    want = dataclasses.replace(want, basis=None)
                assert read == want, (script.name, record.number)
                stored = codec.encode(read)
                again = dataclasses.replace(record, stored_outcome=stored, _outcome=None)
                for narrator in narrators:
                    assert narrator.words(again, state) == narrator.words(record, state), (
                        script.name,
                        record.number,
                    )
            state = after


def told(tmp_path: Path, stem: str, lang: str) -> list[str]:
    """The titles of scenario *stem*'s transactions in *lang*, replayed from its start."""
    edition_id, records = play(SCENARIOS[[s.stem for s in SCENARIOS].index(stem)], tmp_path)
    edition = load_edition(edition_id)
    narrator = narrator_for(edition, lang)
    state = GameState.empty(edition)
    titles = []
    for record in records:
        titles.append(narrator.title(record, state))
        state = apply(state, record.events)
    return titles


#: Méga (§7.2) and Star Wars II (§7.1) in words: each scenario's sentences a player reads
MEGA_AND_STARWARS = [
    ("mega_skyscraper", "fr", [
        "chien construit sur 35 Bleu foncé 1 : un gratte-ciel",
        "voiture paie 2500 € de loyer à chien pour 35 Bleu foncé 1 (gratte-ciel)",
        "chien vend le gratte-ciel de 36 Avenue des Champs-Élysées (reste : un hôtel)",
    ]),
    ("mega_skyscraper", "en", [
        "dog builds on 35 Bleu foncé 1: a skyscraper",
        "racing car pays dog 2500 € rent for 35 Bleu foncé 1 (skyscraper)",
        "dog sells the skyscraper on 36 Avenue des Champs-Élysées (now a hotel)",
    ]),
    ("mega_skyscraper_uk", "en", [
        "dog builds on 35 Knightsbridge: a skyscraper",
        "racing car pays dog £2500 rent for 35 Knightsbridge (skyscraper)",
    ]),
    ("mega_depot", "fr", [
        "chien construit un dépôt sur 4 Gare Montparnasse : −100 €",
        "voiture paie 50 € de loyer à chien pour 4 Gare Montparnasse (2 gares)",
        "voiture paie 100 € de loyer à chien pour 4 Gare Montparnasse (2 gares, dépôt)",
        "chien vend le dépôt de 4 Gare Montparnasse : +50 €",
    ]),
    ("mega_depot", "en", [
        "dog builds a depot on 4 Gare Montparnasse: −100 €",
        "racing car pays dog 100 € rent for 4 Gare Montparnasse (2 stations, depot)",
        "dog sells the depot on 4 Gare Montparnasse: +50 €",
    ]),
    ("mega_gift_notes", "fr", ["chien reçoit le cadeau d'anniversaire : +100 €"]),
    ("mega_gift_notes_uk", "en", ["dog receives the Birthday Gift: +£100"]),
    ("mega_rent_x3", "fr", [
        "voiture paie 2 € de loyer à chien pour 1 Boulevard de Belleville",
        "voiture paie 4 € de loyer à chien pour 1 Boulevard de Belleville "
        "(tous les terrains du groupe sauf un : ×2)",
        "voiture paie 6 € de loyer à chien pour 1 Boulevard de Belleville (groupe complet : ×3)",
    ]),
    ("mega_rent_x3", "en", [
        "racing car pays dog 4 € rent for 1 Boulevard de Belleville (all lots but one: ×2)",
        "racing car pays dog 6 € rent for 1 Boulevard de Belleville (whole group: ×3)",
    ]),
    ("mega_utilities", "fr", [
        "voiture paie 100 € de loyer à chien pour 27 Compagnie de distribution des eaux "
        "(dés 5 × 20)",
    ]),
    ("mega_auction_space", "fr", ["chien remporte 20 Avenue Matignon aux enchères pour 150 €"]),
    ("mega_speed_die", "fr", [
        "chien lance les dés : 3 + 4 + 1 = 8",
        "voiture lance les dés : 2 + 5 + 2 = 9",
        "voiture lance les dés : 1 + 2 = 3, M. Monopoly",
        "chien lance les dés : 4 + 6 = 10, bus",
        "voiture lance les dés : 5 + 5 = 10, M. Monopoly (double)",
    ]),
    ("mega_speed_die", "en", [
        "dog rolls 3 + 4 + 1 = 8",
        "racing car rolls 1 + 2 = 3, Mr Monopoly",
        "dog rolls 4 + 6 = 10, bus",
    ]),
    ("mega_triples", "fr", [
        "chien lance les dés : 3 + 3 + 3 = 9 (triple)",
        "voiture lance les dés : 1 + 1 = 2 (double : libéré)",  # a jailed roller: two dice
    ]),
    ("mega_triples", "en", ["dog rolls 3 + 3 + 3 = 9 (triple)"]),
    ("sw_force_die_faces", "fr", [
        "Obi-Wan lance les dés : 3 + 4 = 7, dé de Force : bascule",
        "Obi-Wan lance les dés : 5 + 6 = 11, dé de Force : carré clair",
        "Obi-Wan (côté clair) remporte la bataille de la Force : carré clair",
        "Obi-Wan (côté clair) perd la bataille de la Force : carré obscur, pénalité 200 cr",
        "Obi-Wan (côté clair) perd la bataille de la Force : bascule, pénalité 200 cr",
        "Dooku (côté obscur) perd la bataille de la Force : carré clair, pénalité 200 cr",
        "Dooku lance les dés : 1 + 2 = 3, dé de Force : bascule (pas de double, essai 1)",
    ]),
    ("sw_force_die_faces", "en", [
        "Obi-Wan rolls 3 + 4 = 7, Force die: shift",
        "Obi-Wan (light side) wins the Force battle: light square",
        "Obi-Wan (light side) loses the Force battle: dark square, penalty 200 cr",
    ]),
    ("sw_force_symbol", "fr", [
        "Anakin (côté clair) remporte la bataille de la Force : symbole clair",
        "Jango (côté obscur) perd la bataille de la Force : symbole clair, pénalité 150 cr",
        "Jango (côté obscur) remporte la bataille de la Force : symbole obscur",
    ]),
    ("sw_force_penalty_pot", "fr", [
        "Droïde (côté obscur) perd la bataille de la Force : carré clair, pénalité 200 cr",
    ]),
]  # fmt: skip


@pytest.mark.parametrize(("stem", "lang", "lines"), MEGA_AND_STARWARS)
def test_mega_and_star_wars_transactions_in_words(
    tmp_path: Path, stem: str, lang: str, lines: list[str]
) -> None:
    titles = told(tmp_path, stem, lang)
    for line in lines:
        assert line in titles, (line, titles)


def test_the_new_money_reasons_are_worded(tmp_path: Path) -> None:
    edition_id, records = play(
        SCENARIOS[[s.stem for s in SCENARIOS].index("sw_force_penalty_pot")], tmp_path
    )
    edition = load_edition(edition_id)
    narrator = narrator_for(edition, "fr")
    state = GameState.empty(edition)
    details = []
    for record in records:
        details.append(narrator.words(record, state)[1])
        state = apply(state, record.events)
    assert "Droïde → la banque 100 cr (pénalité de la Force); Droïde doit 100 cr" in details
    assert any("Droïde → la banque 100 cr (dette)" in d for d in details)


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
    narrator = narrator_for(edition, lang)
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
    assert narrator_for(uk, "en").money(60) == "£60"
    assert narrator_for(uk, "fr").money(60) == "60 £"
    assert narrator_for(load_edition("classic-fr"), "en").money(60) == "60 €"


def test_an_edition_with_its_own_tokens_names_them_by_its_labels() -> None:
    starwars = load_edition("starwars-ep2-fr")
    narrator = narrator_for(starwars, "fr")
    assert narrator.who(1) == "Obi-Wan" and narrator.who(None) == "la banque"
