"""``ultibank history`` for a classic game: the list, its transactions in words in French and
English, its exports, and the read-only reading beside a daemon that plays on.

The game is ``tests/web/classic_table.tap`` (8 players, a hotel, houses, a mortgage, the pot,
jail and a jail card, a trade), played through ``ultibank script`` into a journal. An Ultime
journal's history is checked byte for byte in ``tests/test_records.py`` (the v1 fixture)."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bank.cli import main
from tests.web.conftest import (
    MEGA_SCRIPT,
    STARWARS_SCRIPT,
    play_classic_script,
    play_script,
    start_table,
    stop_table,
)


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    play_classic_script(tmp_path)
    return tmp_path


def history(capsys: pytest.CaptureFixture[str], data_dir: Path, *args: str) -> str:
    capsys.readouterr()
    assert main(["history", *args, "--data-dir", str(data_dir)]) == 0
    return capsys.readouterr().out


def texts(out: str) -> list[str]:
    """The words of each line of ``history show`` (after the number, the date and the time)."""
    return [re.sub(r"^ *\d+  \S+ \S+  ", "", line) for line in out.splitlines()]


def test_the_list_names_the_classic_game_and_its_players(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (line,) = history(capsys, data_dir).splitlines()
    assert "current" in line and "29 transactions" in line and "classic-fr" in line
    assert "8:wheelbarrow" in line


def test_show_says_each_transaction_in_french(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = texts(history(capsys, data_dir, "show", "1"))
    assert len(lines) == 29
    assert (
        lines[0]
        == "Nouvelle partie : chien, voiture, chapeau, bateau, fer, dé, chaussure, brouette"
    )
    assert lines[1] == (
        "chien achète 1 Boulevard de Belleville pour 60 € — chien → la banque 60 € (achat); "
        "1 Boulevard de Belleville → chien"
    )
    assert lines[9].startswith("chien construit sur 1 Boulevard de Belleville : 4 maisons")
    assert lines[11].startswith("chien construit sur 1 Boulevard de Belleville : un hôtel")
    assert lines[19].startswith(
        "chapeau paie 90 € de loyer à voiture pour 4 Rue de Vaugirard (2 maisons)"
    )
    assert lines[21].startswith("fer hypothèque 3 Gare Montparnasse : +100 €")
    assert lines[22].startswith("dé paie Impôts sur le revenu : 200 €")
    assert lines[23] == "chaussure va en prison"
    assert lines[24] == "chaussure tire Chance 8 : Libéré de prison"
    assert lines[27].startswith(
        "Échange : brouette donne 28 Rue de la Paix ; bateau donne 100 € — "
        "28 Rue de la Paix → bateau; bateau → brouette 100 € (échange)"
    )
    assert lines[28].startswith(
        "dé paie 250 € de loyer à chien pour 1 Boulevard de Belleville (hôtel)"
    )


def test_show_in_english(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = texts(history(capsys, data_dir, "show", "1", "--lang", "en"))
    assert lines[0] == (
        "New game: dog, racing car, top hat, ship, iron, thimble, boot, wheelbarrow"
    )
    assert lines[11].startswith("dog builds on 1 Boulevard de Belleville: a hotel")
    assert (
        lines[21] == "iron mortgages 3 Gare Montparnasse: +100 € — the bank → iron 100 € (mortgage)"
    )
    assert lines[23] == "boot goes to jail"
    assert lines[27].startswith("Trade: wheelbarrow gives 28 Rue de la Paix; ship gives 100 €")
    assert lines[28].startswith("thimble pays dog 250 € rent for 1 Boulevard de Belleville (hotel)")


def test_the_units_language_is_the_default(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = history(capsys, data_dir, "show", "1", "--set", 'unit.language="en"')
    assert texts(out)[23] == "boot goes to jail"


def test_a_wrong_language_is_one_line(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["history", "show", "1", "--lang", "de", "--data-dir", str(data_dir)])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--lang" in err


def test_the_exports_are_parseable_and_carry_the_words(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = json.loads(history(capsys, data_dir, "export", "1", "--json"))
    assert len(rows) == 29
    assert [r["command"] for r in rows[:4]] == ["new_game", "visit", "visit", "build"]
    assert rows[27]["text"].startswith("Échange : brouette donne 28 Rue de la Paix")
    assert rows[27]["summary"].startswith("trade first=8 second=4")
    assert any(e["kind"] == "classic" for r in rows for e in r["events"])
    # the typed outcome beside the words: the trade's kind and fields, as journalled
    assert rows[27]["outcome"]["k"] == "traded" and rows[27]["outcome"]["card"] == 8
    assert rows[1]["outcome"] == {"k": "bought", "card": 1, "amount": 60, "number": 1,
                                  "completed_group": False}  # fmt: skip
    out = history(capsys, data_dir, "export", "1", "--csv", "--lang", "en")
    table = list(csv.DictReader(io.StringIO(out)))
    assert len(table) == 29 and list(table[0])[8:10] == ["text", "outcome"]
    assert json.loads(table[1]["outcome"]) == rows[1]["outcome"]
    assert list(table[0])[-1] == "balance 8:wheelbarrow"  # then each player's balance after it
    assert table[23]["text"] == "boot goes to jail"
    assert json.loads(table[1]["events"])[0]["reason"] == "purchase"
    target = data_dir / "game.csv"
    history(capsys, data_dir, "export", "1", "--csv", "--output", str(target))
    assert ",events,text,outcome,balance 1:" in target.read_text(encoding="utf-8").splitlines()[0]


def test_history_reads_a_classic_game_beside_the_daemon_that_plays_it(data_dir: Path) -> None:
    table = start_table(data_dir, overrides=['game.edition="classic-fr"'])
    env = dict(os.environ, TZ="UTC")
    cli = [sys.executable, "-m", "bank.app.cli", "history"]
    try:
        table.tap("deed:9", "bank:3")  # tophat buys Avenue de Neuilly while history reads
        out = subprocess.run(
            [*cli, "show", "1", "--data-dir", str(data_dir)],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert out.returncode == 0, out.stderr
        last = texts(out.stdout)[-1]
        assert last.startswith("chapeau achète 9 ") and "pour 140 €" in last
        table.tap("deed:9", "bank:2")  # the daemon goes on writing after the read
        snap = table.state()
        assert snap["transactions"][0]["title"].startswith("voiture paie")
    finally:
        stop_table(table)


def test_a_classic_record_decodes_in_a_fresh_interpreter(data_dir: Path) -> None:
    """The one decoder knows the classic kinds without a game being built first."""
    code = (
        "import json, sqlite3, sys\n"
        "from bank.engine.records import decode\n"
        "rows = sqlite3.connect(sys.argv[1]).execute('SELECT payload FROM records').fetchall()\n"
        "print(sorted({decode(json.loads(r)).name for (r,) in rows}))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(data_dir / "journal.sqlite")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    names = out.stdout.strip()
    for name in ("build", "card", "classic_jail", "mortgage", "tax", "trade", "visit"):
        assert f"'{name}'" in names


# ---------------------------------------------------------------------- Méga and Star Wars II


@pytest.fixture
def mega_dir(tmp_path: Path) -> Path:
    """``tests/web/mega_table.tap``: a skyscraper, hotels, a depot, three utilities, the
    speed die, the Birthday Gift."""
    play_script(tmp_path, MEGA_SCRIPT, ["--edition", "mega-fr"])
    return tmp_path


@pytest.fixture
def starwars_dir(tmp_path: Path) -> Path:
    """``tests/web/starwars_table.tap``: the sides, the Force die, a battle won and one lost."""
    play_script(tmp_path, STARWARS_SCRIPT, ["--edition", "starwars-ep2-fr"])
    return tmp_path


def test_a_mega_game_is_told_in_french_and_english(
    mega_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fr = texts(history(capsys, mega_dir, "show", "1"))
    assert len(fr) == 40
    assert fr[19] == (
        "chien construit sur 1 Boulevard de Belleville : un gratte-ciel — "
        "chien → la banque 50 € (construction)"
    )
    assert fr[22].startswith("voiture construit un dépôt sur 4 Gare Montparnasse : −100 €")
    assert fr[26] == "bateau lance les dés : 3 + 4 + 2 = 9"
    assert fr[27].startswith(
        "bateau paie 140 € de loyer à chapeau pour 27 Compagnie de distribution des eaux "
        "(dés 7 × 20)"
    )
    assert fr[36].startswith(
        "chapeau paie 100 € de loyer à voiture pour 4 Gare Montparnasse (2 gares, dépôt)"
    )
    assert fr[37].startswith(
        "chapeau paie 750 € de loyer à chien pour 1 Boulevard de Belleville (gratte-ciel)"
    )
    assert fr[38] == (
        "bateau reçoit le cadeau d'anniversaire : +100 € — "
        "la banque → bateau 100 € (cadeau d'anniversaire)"
    )
    assert fr[39] == "chien lance les dés : 2 + 5 = 7, M. Monopoly"
    en = texts(history(capsys, mega_dir, "show", "1", "--lang", "en"))
    assert en[19].startswith("dog builds on 1 Boulevard de Belleville: a skyscraper")
    assert en[22].startswith("racing car builds a depot on 4 Gare Montparnasse: −100 €")
    assert en[37].startswith(
        "top hat pays dog 750 € rent for 1 Boulevard de Belleville (skyscraper)"
    )
    assert en[38].startswith("ship receives the Birthday Gift: +100 €")
    assert en[39] == "dog rolls 2 + 5 = 7, Mr Monopoly"


def test_a_mega_export_carries_the_words(
    mega_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = json.loads(history(capsys, mega_dir, "export", "1", "--json"))
    assert len(rows) == 40
    assert rows[38]["command"] == "birthday_gift"
    assert rows[38]["text"].startswith("bateau reçoit le cadeau d'anniversaire : +100 €")
    assert rows[22]["text"].startswith("voiture construit un dépôt sur 4 Gare Montparnasse")
    assert any(e["kind"] == "classic" and e["field"] == "depots" for e in rows[22]["events"])
    table = list(csv.DictReader(io.StringIO(
        history(capsys, mega_dir, "export", "1", "--csv", "--lang", "en")
    )))  # fmt: skip
    assert table[19]["text"].startswith("dog builds on 1 Boulevard de Belleville: a skyscraper")
    assert table[39]["text"] == "dog rolls 2 + 5 = 7, Mr Monopoly"
    # no transaction falls back to its bare command name
    assert all(row["text"].split(" — ")[0] != row["command"] for row in table)


def test_a_star_wars_game_is_told_with_the_sides_and_the_force(
    starwars_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (line,) = history(capsys, starwars_dir).splitlines()
    assert "starwars-ep2-fr" in line and "9 transactions" in line
    fr = texts(history(capsys, starwars_dir, "show", "1"))
    assert fr[0] == (
        "Nouvelle partie : Obi-Wan, Anakin, Padmé, Mace Windu, Clone, Dooku, Jango, Droïde"
    )
    assert fr[3] == "Anakin lance les dés : 3 + 4 = 7, dé de Force : bascule"
    assert fr[4] == (
        "Anakin (côté clair) perd la bataille de la Force : bascule, pénalité 200 cr — "
        "Anakin → la banque 200 cr (pénalité de la Force)"
    )
    assert fr[6] == "Mace Windu (côté clair) remporte la bataille de la Force : carré clair"
    en = texts(history(capsys, starwars_dir, "show", "1", "--lang", "en"))
    assert en[4].startswith(
        "Anakin (light side) loses the Force battle: Force shift, penalty 200 cr"
    )
    assert en[6] == "Mace Windu (light side) wins the Force battle: light square"
    assert en[8] == "Jango rolls 2 + 1 = 3, Force die: dark square"
    rows = json.loads(history(capsys, starwars_dir, "export", "1", "--json", "--lang", "en"))
    assert [r["command"] for r in rows].count("force") == 2
    assert rows[4]["text"].endswith("Anakin → the bank 200 cr (Force penalty)")
