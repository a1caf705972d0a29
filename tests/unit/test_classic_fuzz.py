"""Random classic gestures over 8 players (classic-fr, classic-uk, Star Wars, mega-fr,
mega-uk) never crash the unit nor break an invariant.

Random scripts (taps of every card kind, buttons, keypad keys, rigged rolls, waits, undo and
power cuts, plus whole gestures: landings, the menu's items with a card, sessions) run through
``ultibank script``'s runner; the state file must keep the bank's stock of every building
kind whole (Méga: skyscrapers and depots too), one owner per deed, no building on a mortgaged
deed and no depot on a mortgaged station, building only on a whole group (Méga: all lots but
one, and the whole group under a skyscraper) and even among the lots one owner holds, no
negative balance; and no LCD line is longer than 20 cells. ``ULTIBANK_FUZZ_EXAMPLES``
runs a longer search.
"""

from __future__ import annotations

import io
import json
import os
import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bank.rulesets.classic.edition import classic_edition
from bank.script import run_script
from board_assets import load_edition

EDITIONS = ["classic-fr", "classic-uk", "starwars-ep2-fr", "mega-fr", "mega-uk"]
START = "".join(f"tap bank:{n}\n" for n in range(1, 9)) + "press ok\n"

banks = st.integers(1, 8).map(lambda n: f"tap bank:{n}")
deeds = st.integers(1, 37).map(lambda n: f"tap deed:{n}")  # 1-28 outside Méga: see fit()
others = st.one_of(
    st.integers(1, 16).map(lambda n: f"tap chance:{n}"),
    st.integers(1, 16).map(lambda n: f"tap chest:{n}"),
    st.integers(1, 22).map(lambda n: f"tap prop:{n}"),
)
single = st.one_of(
    banks,
    deeds,
    others,
    st.sampled_from(["press ok", "press menu", "press cancel", "key back", "info scores"]),
    st.integers(0, 9999).map(lambda n: f"key {n}"),
    st.tuples(
        st.integers(1, 6), st.integers(1, 6), st.sampled_from(["", " 1", " 2", " 3", " mr", " bus"])
    ).map(lambda d: f"roll {d[0]} {d[1]}{d[2]}"),
    st.sampled_from(
        ["wait 1", "wait 10.5", "wait 31", "hold ok+cancel 5.5", "power off", "power on"]
    ),
)
gesture = st.one_of(
    st.tuples(deeds, banks).map("\n".join),
    st.tuples(st.integers(1, 16), banks).map(lambda t: f"press menu\nkey {t[0]}\n{t[1]}"),
    st.tuples(st.sampled_from([7, 8, 9]), banks, st.lists(deeds, max_size=4)).map(
        lambda t: "\n".join([f"press menu\nkey {t[0]}", t[1], *t[2], "press ok"])
    ),
)
scripts = st.lists(st.one_of(single, gesture, gesture), min_size=5, max_size=60)
#: Star Wars II: rolls with the Force die, and the Force battle with its pick (§7.1)
force = st.one_of(
    st.tuples(
        st.integers(1, 6), st.integers(1, 6), st.sampled_from(["light", "dark", "shift"])
    ).map(lambda d: f"roll {d[0]} {d[1]} {d[2]}"),
    st.tuples(banks, st.lists(st.sampled_from(["key 1", "key 3", "press menu"]), max_size=3)).map(
        lambda t: "\n".join(["press menu", "key 14", t[0], *t[1], "press ok"])
    ),
)
sw_scripts = st.lists(st.one_of(single, gesture, force, force), min_size=5, max_size=60)


def fit(line: str, edition: str) -> str:
    """A generated line in *edition*'s terms: deeds 1-28 and no third die outside Méga."""
    if edition.startswith("mega"):
        return line
    line = re.sub(r"deed:(\d+)", lambda m: f"deed:{(int(m.group(1)) - 1) % 28 + 1}", line)
    return re.sub(r"^(roll \d \d) \w+$", r"\1", line, flags=re.M)


def check(state: dict[str, object], edition: str) -> None:
    ed = classic_edition(load_edition(edition))
    props = state["properties"]
    assert isinstance(props, list)
    bank = state["bank"]
    assert isinstance(bank, dict)
    houses = sum(p["houses"] for p in props)
    hotels = sum(1 for p in props if p["hotel"])
    towers = sum(1 for p in props if p["skyscraper"])
    depots = sum(1 for p in props if p["depot"])
    assert houses + bank["houses"] == 32 and hotels + bank["hotels"] == 12
    assert (towers + bank["skyscrapers"], depots + bank["depots"]) == (ed.skyscrapers, ed.depots)
    assert min(bank.values()) >= 0, bank
    for p in props:
        if p["mortgaged"]:
            assert p["houses"] == 0 and not p["hotel"] and not p["skyscraper"], p
            assert not p["depot"], p  # a depot blocks its station's mortgage
        if p["owner"] is None:
            assert p["level"] is None and not p["mortgaged"] and not p["depot"], p
    for group in {d.group for d in ed.deeds}:
        lots = ed.group(group)
        if ed.deed(lots[0]).kind != "street":
            continue
        for owner in {props[n - 1]["owner"] for n in lots} - {None}:
            mine = [props[n - 1]["level"] or 0 for n in lots if props[n - 1]["owner"] == owner]
            if not max(mine):
                continue
            spare = 1 if ed.mega and max(mine) < 6 else 0
            assert len(mine) >= len(lots) - spare, (group, owner, mine)
            # Méga: the lowest lot aside (the last lot, bought after the others were built on)
            even = sorted(mine)[1:] if ed.mega else mine
            assert max(even) - min(even) <= 1, (group, mine)
    players = state["players"]
    assert isinstance(players, list)
    for p in players:
        assert isinstance(p["balance"], int) and p["balance"] >= 0, p


@settings(
    max_examples=int(os.environ.get("ULTIBANK_FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.sampled_from(EDITIONS), scripts)
def test_random_classic_gestures_keep_the_invariants(edition: str, lines: list[str]) -> None:
    play(edition, lines)


@settings(
    max_examples=int(os.environ.get("ULTIBANK_FUZZ_EXAMPLES", "30")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(sw_scripts, st.sampled_from(["die", "symbol"]), st.sampled_from([0, 1]))
def test_random_star_wars_gestures_with_the_force_keep_the_invariants(
    lines: list[str], reading: str, minutes: int
) -> None:
    """With the time limit on or off (a one-minute game ends within a few waits)."""
    sets = (("starwars", "force_rule", reading), ("variants", "time_limit_minutes", minutes))
    play("starwars-ep2-fr", lines, sets)


def play(edition: str, lines: list[str], sets: tuple[tuple[str, str, object], ...] = ()) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "fuzz.tap"
        text = "\n".join(fit(line, edition) for line in lines)
        script.write_text(START + text + "\n", encoding="utf-8")
        state_path = Path(tmp) / "state.json"
        out = io.StringIO()
        code = run_script(
            script, edition, Path(tmp) / "d", state_path, out, err=out, ruleset_sets=sets
        )
        assert code == 0, out.getvalue()[-2000:]
        check(json.loads(state_path.read_text(encoding="utf-8")), edition)
        for line in out.getvalue().splitlines():  # every LCD line keeps to 20 cells
            if " screen " in line and " | " in line:
                for text in line.split(" | ", 1)[1].split(" / "):
                    assert len(text) <= 20, line
