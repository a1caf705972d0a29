"""The classic unit's gestures that the readings settle (issue 16): each test drives the unit
through a tap script (``ultibank script … --state -``) and checks the state file and the
transcript. Every docstring names the readings it checks (``READINGS A10``), and
``docs/readings.md`` lists them.

Scripts start with two players, dog (bank card 1) and racecar (bank card 2), unless they say
otherwise; deed numbers are classic-fr's.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from textwrap import dedent
from typing import Any

import pytest

from bank.cli import main

P2 = "tap bank:1\ntap bank:2\npress ok\n"
P3 = "tap bank:1\ntap bank:2\ntap bank:3\npress ok\n"


class Run:
    """One script's transcript (lines) and state file."""

    def __init__(self, lines: list[str], state: dict[str, Any]) -> None:
        self.lines = lines
        self.state = state

    def player(self, card: int) -> dict[str, Any]:
        return next(p for p in self.state["players"] if p["card"] == card)

    def balance(self, card: int) -> int:
        return int(self.player(card)["balance"])

    def owner(self, number: int) -> int | None:
        prop = next(p for p in self.state["properties"] if p["number"] == number)
        owner: int | None = prop["owner"]
        return owner

    def screens(self, name: str | None = None) -> list[str]:
        """The screens shown (``name | line 1 / line 2``), optionally of one name only."""
        shown = [line.split(" screen ", 1)[1] for line in self.lines if " screen " in line]
        return [s for s in shown if name is None or s.split()[0] == name]

    def last_screen(self) -> str:
        return self.screens()[-1]

    def after(self, text: str) -> list[str]:
        """The transcript lines after the last one containing *text*."""
        at = max(i for i, line in enumerate(self.lines) if text in line)
        return self.lines[at + 1 :]

    def errors(self) -> int:
        return sum(1 for line in self.lines if line.endswith("cue error"))


@pytest.fixture
def play(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Any:
    runs = iter(range(1000))

    def run(body: str, *sets: str, start: str = P2) -> Run:
        n = next(runs)
        script = tmp_path / f"s{n}.tap"
        script.write_text(start + dedent(body), encoding="utf-8")
        argv = ["script", str(script), "--edition", "classic-fr"]
        argv += ["--data-dir", str(tmp_path / f"d{n}"), "--state", "-"]
        for s in sets:
            argv += ["--set", s]
        assert main(argv) == 0, capsys.readouterr().err
        out = capsys.readouterr()
        return Run(out.err.splitlines(), json.loads(out.out))

    return run


def pick_shown(run: Run) -> list[str]:
    """The options a pick showed, in order (its second line)."""
    return [s.split(" | ", 1)[1].split(" / ", 1)[1] for s in run.screens("pick")]


# ---------------------------------------------------------------- the trade (A10, C15, C17)


def test_ok_on_titres_or_cartes_prison_makes_the_offer_at_once(play: Any) -> None:
    """READINGS A10: ✓ on `Titres` (or on `Cartes prison`) makes the offer at once; the next
    ✓ is the partner's acceptance."""
    run = play(
        """
        tap deed:1
        tap bank:1               # dog buys Belleville (60)
        press menu
        key 10
        tap bank:1
        tap bank:2
        tap deed:1               # Titres: dog gives Belleville
        press ok                 # the offer, at once
        press ok                 # racecar accepts
        """
    )
    assert run.owner(1) == 2
    assert not any("Résumé" in s for s in run.screens())
    assert run.screens("trade_offer") and run.screens("traded")
    run = play(
        """
        tap chest:5
        tap bank:1               # dog holds the Community Chest jail card
        press menu
        key 10
        tap bank:1
        tap bank:2
        press menu
        press menu               # Cartes prison
        tap bank:1               # dog's card moves
        press ok                 # the offer, at once
        tap bank:2               # racecar's card accepts
        """
    )
    assert run.player(1)["jail_cards"] == [] and run.player(2)["jail_cards"] == ["chest"]
    assert not any("Résumé" in s for s in run.screens())


def test_m_after_resume_wraps_to_titres_and_no_timeout_while_composing(play: Any) -> None:
    """READINGS A10: M after `Résumé` wraps to `Titres`; the composition has no timeout."""
    run = play(
        """
        tap deed:1
        tap bank:1
        press menu
        key 10
        tap bank:1
        tap bank:2
        press menu
        press menu
        press menu               # Résumé
        press menu               # back to Titres
        wait 300                 # no timeout while composing
        tap deed:1               # still composing: dog gives Belleville
        press ok
        press ok
        """
    )
    panels = [s.split(" | ", 1)[1].split(" / ")[0] for s in run.screens("trade")]
    assert panels[-6:] == ["Titres", "Argent", "Cartes prison", "Résumé", "Titres", "Titres"]
    assert run.owner(1) == 2 and run.balance(1) == 1440


def test_jail_cards_move_first_held_by_bank_card_and_by_tag_back_and_forth(play: Any) -> None:
    """READINGS A10, C15: with two jail cards, the bank card moves the first held (order
    acquired) not already moving; a tag moves that card and, tapped again, moves it back."""
    holds_both = """
        tap chest:5
        tap bank:1               # dog's first jail card: Community Chest
        tap chance:8
        tap bank:1               # the second: Chance
        press menu
        key 10
        tap bank:1
        tap bank:2
        press menu
        press menu               # Cartes prison
        """
    run = play(holds_both + "tap bank:1\npress ok\npress ok\n")
    assert run.player(1)["jail_cards"] == ["chance"]
    assert run.player(2)["jail_cards"] == ["chest"]
    run = play(holds_both + "tap bank:1\ntap bank:1\npress ok\npress ok\n")
    assert run.player(1)["jail_cards"] == [] and sorted(run.player(2)["jail_cards"]) == [
        "chance",
        "chest",
    ]
    # the Chance tag moves the Chance card, again moves it back; then the Chest tag
    run = play(holds_both + "tap chance:8\ntap chance:8\ntap chest:5\npress ok\npress ok\n")
    assert run.player(1)["jail_cards"] == ["chance"]
    assert run.player(2)["jail_cards"] == ["chest"]
    counts = [s.split(" / ")[1] for s in run.screens("trade") if "Cartes prison" in s]
    assert counts[-3:] == ["chie:1 voit:0", "chie:0 voit:0", "chie:1 voit:0"]


def test_an_empty_offer_is_refused_and_the_composition_goes_on(play: Any) -> None:
    """READINGS A10: an empty offer gets the error cue; the composition goes on."""
    run = play(
        """
        tap deed:1
        tap bank:1
        press menu
        key 10
        tap bank:1
        tap bank:2
        press ok                 # nothing in the offer: refused
        tap deed:1               # the composition goes on
        press ok
        press ok
        """
    )
    assert run.errors() == 1
    assert "Échange vide" in run.screens("error")[0]
    assert run.owner(1) == 2


def test_a_trade_refused_at_acceptance_is_dropped(play: Any) -> None:
    """READINGS A10 (issue 16 item 11): a payer short of cash at acceptance: the trade is
    dropped with `Échange refusé` and the next gesture is taken as from idle."""
    run = play(
        """
        press menu
        key 10
        tap bank:1
        tap bank:2
        press menu               # Argent
        key 1
        key 6
        key 0
        key 0
        tap bank:1               # dog pays 1600 (he has 1500)
        press menu
        press menu               # Résumé
        press ok                 # the offer
        press ok                 # accepted: refused, dropped
        tap bank:2               # idle: racecar's balance
        """
    )
    assert run.balance(1) == 1500 and run.balance(2) == 1500
    refused = run.screens("trade_refused")
    assert refused and refused[-1].startswith("trade_refused")
    assert "Échange refusé" in refused[-1]
    assert run.last_screen().startswith("balance [racecar]")


def test_cash_typed_with_no_payer_card_is_ignored(play: Any) -> None:
    """READINGS A10: an amount typed on `Argent` with no payer card is left out of the offer."""
    run = play(
        """
        tap deed:1
        tap bank:1
        press menu
        key 10
        tap bank:1
        tap bank:2
        tap deed:1
        press menu               # Argent
        key 1
        key 0
        key 0                    # 100, no payer card
        press menu
        press menu               # Résumé
        press ok
        press ok
        """
    )
    assert run.owner(1) == 2
    assert run.balance(1) == 1440 and run.balance(2) == 1500
    assert "Résumé / chien>1" in run.screens("trade")[-1]


def test_during_a_debt_the_debtor_may_be_a_or_b(play: Any) -> None:
    """READINGS A10: during a debt the trade's debtor may be the first card (A) or the second
    (B); a trade between two others is refused."""
    debt = """
        tap deed:1
        tap bank:1               # dog buys Belleville: 1440
        press menu
        key 5
        tap bank:1
        key 1
        key 5
        key 0
        key 0
        press ok                 # dog must pay 1500: 1440 taken, owes the bank 60
        """
    run = play(
        debt
        + """
        press menu
        key 1
        key 0                    # item 10 of the debt menu
        tap bank:2               # racecar is A
        tap bank:1               # dog, the debtor, is B
        tap deed:1               # dog gives Belleville
        press menu
        key 1
        key 0
        key 0
        tap bank:2               # racecar pays 100
        press menu
        press menu
        press ok                 # the offer
        tap bank:1               # dog accepts
        """,
        start=P3,
    )
    assert run.owner(1) == 2
    dog = run.player(1)
    assert dog["debt"] == 0 and dog["balance"] == 40  # 60 of the 100 went to the debt
    assert run.balance(2) == 1400
    run = play(
        debt
        + """
        press menu
        key 1
        key 0
        tap bank:2               # racecar is A
        tap bank:3               # tophat as B: neither is the debtor
        """,
        start=P3,
    )
    assert run.errors() == 1
    assert run.player(1)["debt"] == 60


def test_interest_questions_after_a_trade_come_in_deed_order(play: Any) -> None:
    """READINGS C17: both parties receive mortgaged deeds: the questions come in deed order
    across both owners (here B's deed 1 before A's deed 3)."""
    run = play(
        """
        tap deed:1
        tap bank:1               # dog: Belleville (mortgage 30)
        tap deed:3
        tap bank:2               # racecar: Gare Montparnasse (mortgage 100)
        press menu
        key 9
        tap bank:1
        tap deed:1               # dog mortgages Belleville
        press ok
        press menu
        key 9
        tap bank:2
        tap deed:3               # racecar mortgages the station
        press ok
        press menu
        key 10
        tap bank:1
        tap bank:2
        tap deed:1
        tap deed:3
        press ok
        press ok                 # the swap
        press ok                 # deed 1 to racecar: keep (3)
        press ok                 # deed 3 to dog: keep (10)
        """
    )
    asked = [s.split()[1] + s.split()[2] for s in run.screens("interest") if "hypothéqué" in s]
    assert asked == ["#1[racecar]", "#3[dog]"]
    assert run.owner(1) == 2 and run.owner(3) == 1
    assert run.balance(1) == 1500 - 60 + 30 - 10
    assert run.balance(2) == 1500 - 200 + 100 - 3


# ---------------------------------------------------------------- the Argent panel (A22)


def test_the_argent_panel_digits_cards_and_the_amount_entry(play: Any) -> None:
    """READINGS A22, A10: the payer's card takes the digits typed so far, or keeps the amount
    already set when none were typed; ✓'s amount entry starts from the typed digits and its
    value waits for a payer card; digits still waiting at the offer are left out."""
    run = play(
        """
        tap deed:1
        tap bank:1
        press menu
        key 10
        tap bank:1
        tap bank:2
        tap deed:1
        press menu               # Argent
        tap bank:1               # no amount yet: refused
        key 1
        key 0
        key 0
        tap bank:1               # 100 by dog
        key 5
        key 0                    # 50, awaiting a payer card
        tap bank:2               # 50 by racecar
        tap bank:1               # no digits: keeps 50, now by dog
        key 3
        press ok                 # the amount entry, from 3
        key 0
        press ok                 # 30, awaiting a payer card
        tap bank:2               # 30 by racecar
        key 9                    # typed, no payer card: left out of the offer
        press menu
        press menu
        press ok
        press ok
        """
    )
    cash = [s.split(" / ", 1)[1] for s in run.screens("trade") if "| Argent" in s]
    assert cash == [
        "rien",
        "1 : qui paie ?",
        "10 : qui paie ?",
        "100 : qui paie ?",
        "100 par chien",
        "5 : qui paie ?",
        "50 : qui paie ?",
        "50 par voiture",
        "50 par chien",
        "3 : qui paie ?",
        "30 : qui paie ?",
        "30 par voiture",
        "9 : qui paie ?",
    ]
    entries = [s.split()[1] for s in run.screens("entry")]
    assert entries == ["3", "30"]
    assert run.errors() == 1
    assert run.owner(1) == 2
    assert run.balance(1) == 1440 + 30 and run.balance(2) == 1500 - 30


# ---------------------------------------------------------------- picks with digits (A14, A13)


UTILITY = """
    tap deed:8
    tap bank:1                   # dog buys the electricity company (150)
    tap deed:8
    tap bank:2                   # racecar lands, never rolled: the dice total?
    """


@pytest.mark.parametrize(
    ("keys", "total"),
    [
        ("key 1\nkey 2\n", 12),
        ("key 1\nkey 0\n", 10),
        ("key 1\nkey 1\nkey 5\n", 5),  # a third digit starts over
        ("key 9\n", 9),
    ],
)
def test_pick_digits_accumulate_two_at_most(play: Any, keys: str, total: int) -> None:
    """READINGS A14: digits accumulate (two at most, a third starts over), the option typed
    shows and ✓ takes it; a typed digit never selects `lancer` (issue 16: `10` rolled the
    dice, `12` became `2`)."""
    run = play(UTILITY + keys + "press ok\n")
    assert run.balance(2) == 1500 - 4 * total
    assert run.state["last_roll"] is None  # nothing was rolled
    assert pick_shown(run)[-1] == str(total)


def test_a_digit_that_starts_no_option_is_refused_and_never_rolls(play: Any) -> None:
    """READINGS A14: `0` (no dice total) gets the error cue and rolls nothing; after `1` the
    shown option stays until the second digit makes 10-12."""
    run = play(UTILITY + "key 0\nkey 1\npress ok\n")
    assert run.errors() == 1
    assert run.state["last_roll"] is None
    assert pick_shown(run) == ["7", "7"]  # `1` is no total: 7 stays shown, ✓ takes it
    assert run.balance(2) == 1500 - 28


def test_card_number_pick_takes_two_digits(play: Any) -> None:
    """READINGS A14: the card-number pick takes 16 as `1` `6`."""
    run = play("press menu\nkey 1\nkey 2\npress ok\npress ok\nkey 1\nkey 6\npress ok\ntap bank:1\n")
    assert pick_shown(run)[-2:] == ["1", "16"]
    assert run.balance(1) == 1600  # Chance 16: crossword prize, 100


def test_menu_digits_during_a_debt(play: Any) -> None:
    """READINGS A13: during a debt (items 8, 9, 10, 16) `1` is a prefix: it waits for the
    second digit and keeps the item shown; a digit that is neither an item nor a prefix gets
    the error cue."""
    run = play(
        """
        press menu
        key 5
        tap bank:1
        key 1
        key 6
        key 0
        key 0
        press ok                 # dog owes the bank 100
        press menu               # the debt menu: item 8
        key 2                    # neither an item nor a prefix: refused
        key 1                    # a prefix: waits, item 8 stays shown
        key 0                    # item 10
        tap bank:1               # dog starts a trade
        """
    )
    menus = [s.split(" ", 2)[1] for s in run.screens("menu")]
    assert menus[-3:] == ["#8", "#8", "#10"]
    assert run.errors() == 1
    assert run.last_screen().startswith("trade")


# ---------------------------------------------------------------- the dice pick (A1, A24)


OWN_ROLL = """
    tap deed:8
    tap bank:1                   # dog buys the electricity company
    roll 3 4
    press menu
    key 11
    tap bank:2                   # racecar rolls 7
    tap deed:8
    tap bank:2                   # the pick opens on `7 (dernier lancer)`
    """


def test_the_payers_last_roll_is_an_extra_first_option(play: Any) -> None:
    """READINGS A24: `(dernier lancer)` is an extra first option, then 7, 8 … 12, 2 … 6,
    `lancer`, then back to it."""
    run = play(OWN_ROLL + "press menu\n" * 13 + "press cancel\n")
    assert pick_shown(run) == [
        "7 (dernier lancer)",
        *map(str, (7, 8, 9, 10, 11, 12, 2, 3, 4, 5, 6)),
        "lancer",
        "7 (dernier lancer)",
    ]


def test_the_last_roll_is_preselected_and_typed_digits_override(play: Any) -> None:
    """READINGS A1: the pick opens with the payer's roll pre-selected (✓ takes it); typed
    digits override it."""
    run = play(OWN_ROLL + "key 9\npress ok\n")
    assert run.balance(2) == 1500 - 36
    run = play(OWN_ROLL + "press ok\n")
    assert run.balance(2) == 1500 - 28


# ---------------------------------------------------------------- cards (C20, E17, C7, C16, E7)


def test_x_at_passed_go_means_not_passed_and_x_at_a_choice_abandons(play: Any) -> None:
    """READINGS C20: X at `Passé par Départ ?` means "not passed": the card goes on (no
    salary, the landing); X at a choice card's options abandons the card."""
    run = play("tap chance:3\ntap bank:2\npress cancel\n")
    assert run.owner(17) == 2 and run.balance(2) == 1500 - 240
    assert run.player(2)["passed_go"] is False
    run = play("tap chance:6\ntap bank:1\npress cancel\ntap chance:14\ntap bank:1\n")
    assert run.balance(1) == 1550  # Chance 6 abandoned; then Chance 14 applies normally
    assert run.screens()[-2].startswith("card #14")


def test_chest_13_ok_pays_m_waits_for_a_chance_x_abandons(play: Any) -> None:
    """READINGS E17, C7: Community Chest 13 asks `✓ payer 10 · M tirer une Chance`: ✓ pays 10
    (into the pot with the variant), M shows `Tirez une Chance` and the next Chance tag applies
    to the drawer without `Qui a tiré ?`; X abandons the card; digits are refused."""
    run = play("tap chest:13\ntap bank:1\npress ok\n", "variants.free_parking=taxes_and_fines")
    assert run.balance(1) == 1490 and run.state["pot"] == 10
    run = play("tap chest:13\ntap bank:1\npress ok\n")
    assert run.balance(1) == 1490 and run.state["pot"] == 0
    run = play("tap chest:13\ntap bank:1\nkey 2\npress menu\ntap chance:14\n")
    assert run.errors() == 1
    assert "Tirez une Chance" in run.screens("card")[-1]
    assert not any("Qui a tiré" in line for line in run.after("Tirez une Chance"))
    assert run.balance(1) == 1550
    run = play("tap chest:13\ntap bank:1\npress cancel\ntap bank:1\n")
    assert run.balance(1) == 1500 and run.state["undo_available"] is False
    # M moves nothing, so it is no transaction: after X at `Tirez une Chance` an undo still
    # reaches the purchase before the card
    run = play(
        "tap deed:1\ntap bank:1\ntap chest:13\ntap bank:1\npress menu\npress cancel\n"
        "hold ok+cancel 5.5\n"
    )
    assert run.owner(1) is None and run.balance(1) == 1500


def test_tirez_une_caisse_waits_for_that_decks_tag_not_the_menu(play: Any) -> None:
    """READINGS C7, C16: Chance 6 from space 36 shows `Tirez une Caisse`: only a tag of that
    deck applies (to the drawer, without `Qui a tiré ?`); M (menu 12) and the other deck's tag
    are refused and the unit keeps waiting; X abandons."""
    back_to_chest = "tap chance:6\ntap bank:1\npress menu\npress menu\npress ok\n"
    run = play(back_to_chest + "press menu\ntap chance:14\ntap chest:2\n")
    assert run.errors() == 2
    assert run.balance(1) == 1700  # Community Chest 2: bank error, 200
    assert not any("Qui a tiré" in line for line in run.after("Tirez une Caisse"))
    run = play(back_to_chest + "press cancel\ntap chest:2\ntap bank:2\n")
    assert run.balance(1) == 1500 and run.balance(2) == 1700  # abandoned; chest 2 as a new card


def test_virtual_decks_ok_draws_the_next_card_for_the_drawer(play: Any) -> None:
    """READINGS E7, E17: with virtual decks, ✓ at `Tirez une Chance` draws that deck's next
    card and applies it to the drawer, without `Qui a tiré ?`."""
    run = play(
        "tap chest:13\ntap bank:1\npress menu\npress ok\npress ok\n",  # the card's own ✓ if any
        "variants.virtual_decks=true",
    )
    after = run.after("Tirez une Chance")
    assert not any("Qui a tiré" in line for line in after)
    done = [line for line in after if " screen card_done" in line]
    assert done and "[dog]" in done[-1]
    run = play("tap chest:13\ntap bank:1\npress menu\npress ok\n")  # without: ✓ is refused
    assert run.errors() == 1 and "Tirez une Chance" in run.screens("card")[-1]


# ---------------------------------------------------------------- a card move onto a deed (A2, E20)


def test_card_move_onto_a_deed_the_drawer_cannot_pay_leaves_it_shown(play: Any) -> None:
    """READINGS A2, E20: the card is applied and the deed stays shown (`Pas assez : M
    enchère`): M arms the auction; X leaves it unowned."""
    poor = "press menu\nkey 5\ntap bank:1\nkey 1\nkey 4\nkey 0\nkey 0\npress ok\n"  # dog: 100
    run = play(poor + "tap chance:1\ntap bank:1\npress menu\npress ok\ntap bank:2\nwait 11\n")
    assert "Pas assez: M enchère" in run.screens("error")[-1]
    assert run.owner(28) == 2 and run.balance(2) == 1490
    run = play(poor + "tap chance:1\ntap bank:1\npress cancel\ntap bank:2\n")
    assert run.owner(28) is None and run.last_screen().startswith("balance [racecar]")


def test_first_lap_variant_card_move_is_applied_and_the_deed_can_be_auctioned(play: Any) -> None:
    """READINGS E20: under the first-lap variant the card is still applied (not refused: the
    next card tapped does not replay it); the deed shows `1er tour … M enchère`, M arms the
    auction."""
    lap = "variants.no_buy_first_lap=true"
    run = play(
        """
        press menu
        tap bank:2               # racecar passes GO (may bid)
        tap chance:1
        tap bank:1               # dog to Rue de la Paix, first lap: not bought
        press menu
        press ok                 # the auction
        tap bank:2
        wait 11
        """,
        lap,
    )
    assert "1er tour: M enchère" in run.screens("error")[-1]
    assert run.owner(28) == 2 and run.balance(2) == 1700 - 10
    assert run.balance(1) == 1500
    # Chance 4 asks about GO: passing it ends the first lap, so the deed is bought
    run = play("tap chance:4\ntap bank:1\npress ok\n", lap)
    assert run.owner(7) == 1 and run.balance(1) == 1500 + 200 - 140


# ---------------------------------------------------------------- auctions (A3, C1)


def test_an_anonymous_winner_who_cannot_pay_gives_the_sale_up(play: Any) -> None:
    """READINGS A3: the ✓ winner's card refused (short): the sale is given up, the deed stays
    unowned, and another card cannot claim it."""
    run = play(
        "press menu\nkey 5\ntap bank:1\nkey 1\nkey 4\nkey 5\nkey 0\npress ok\n"  # dog keeps 50
        "tap deed:28\npress menu\npress ok\n"
        + "press ok\n" * 6  # anonymous bids up to 60
        + "wait 10.5\ntap bank:1\ntap bank:2\n"
    )
    assert run.owner(28) is None
    assert run.balance(1) == 50 and run.balance(2) == 1500
    assert run.screens("auction_cancelled")
    assert run.last_screen().startswith("balance [racecar]")
    # a card that is not in the game is refused without giving the sale up: racecar claims
    run = play("tap deed:28\npress menu\npress ok\npress ok\nwait 10.5\ntap bank:5\ntap bank:2\n")
    assert run.owner(28) == 2 and run.balance(2) == 1490


def test_auction_typed_bids_and_buttons(play: Any) -> None:
    """READINGS C1: a refused typed bid drops its digits (`501` refused, then `500` bids 500,
    not 501500); ✓ while digits are typed bids one step and drops them; X after a bid is
    refused; the leader may bid again; ⌫ restarts the countdown."""
    run = play(
        """
        press menu
        key 5
        tap bank:1
        key 1
        key 0
        key 0
        key 0
        press ok                 # dog keeps 500
        tap deed:1
        press menu
        press ok                 # the auction
        tap bank:1               # 10 by dog
        tap bank:1               # the leader again: 20
        press cancel             # after a bid: refused
        key 7
        press ok                 # +10 anonymously (30); the 7 is dropped
        key 5
        key 0
        key 1
        tap bank:1               # 501: more than dog has, refused; the digits dropped
        wait 5
        key 5
        key 0
        key 0
        tap bank:1               # 500
        wait 5
        key 9                    # a digit restarts the countdown
        wait 5
        key back                 # and so does ⌫
        wait 9.5
        """
    )
    auctions = run.screens("auction")
    prices = [int(re.search(r"Enchère (\d+)", s).group(1)) for s in auctions]  # type: ignore[union-attr]
    assert 20 in prices and 30 in prices and 500 in prices
    assert max(prices) == 500
    assert run.errors() == 2  # X after a bid, the 501
    typed = [s.split(" / ", 1)[1] for s in auctions if "> " in s]
    typed = [t for i, t in enumerate(typed) if i == 0 or t != typed[i - 1]]  # ticks repeat
    assert typed == ["> 7", "> 5", "> 50", "> 501", "> 5", "> 50", "> 500", "> 9"]
    assert run.owner(1) is None  # ⌫ restarted the countdown: 9.5 s later it still runs
    assert run.screens()[-1].startswith("auction")


# ---------------------------------------------------------------- a second deed tap (A23)


def test_a_second_deed_tapped_while_a_deed_shows_is_refused(play: Any) -> None:
    """READINGS A23: a second deed tap while a deed is shown gets the error cue and the step
    stays: the next bank card lands on the first deed."""
    run = play("tap deed:1\ntap deed:3\ntap bank:1\n")
    assert run.errors() == 1
    assert run.owner(1) == 1 and run.owner(3) is None


# ---------------------------------------------------------------- questions wait (B1)


def test_the_card_questions_wait_without_a_timeout(play: Any) -> None:
    """READINGS B1, C20, E17: `Qui a tiré ?`, `Passé par Départ ?`, Community Chest 13's
    question and `Tirez une Chance` wait however long the table takes."""
    run = play("tap chance:14\nwait 120\ntap bank:1\n")
    assert run.balance(1) == 1550
    run = play("tap chance:3\ntap bank:2\nwait 120\npress cancel\n")
    assert run.owner(17) == 2 and run.balance(2) == 1500 - 240
    run = play("tap chest:13\ntap bank:1\nwait 120\npress menu\nwait 120\ntap chance:14\n")
    assert run.balance(1) == 1550
