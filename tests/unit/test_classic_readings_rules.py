"""The project's settled readings of the classic rules (docs/readings.md), each checked through
the unit: a tap script run by ``ultibank script``, its state file and its transcript. Every
expected number is worked by hand from the classic specification (prices, rents, fees), not
read back from the code. Each test's docstring names the readings it settles."""

from __future__ import annotations

from pathlib import Path

import pytest

from board_assets import EDITIONS_DIR
from tests.support.editions import house_copy
from tests.unit.readings import P2, P3, Table, after, cues, deed, item, player, roll, screens


@pytest.fixture
def table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Table:
    return Table(tmp_path, capsys)


# ---------------------------------------------------------------- A: the state file


def test_a4_undo_replays_the_rolls_made_since_so_three_doubles_still_jail(table: Table) -> None:
    """READINGS A4: undo is a replay without the undone transaction: the purchase goes, the
    three doubles racecar rolled afterwards are re-applied with the same dice, so racecar
    stays in jail and the last roll still shows 3 doubles."""
    text = P2 + "tap deed:1\ntap bank:1\n"  # dog buys Belleville, 60
    text += "roll 1 1\nroll 2 2\nroll 3 3\n" + roll(2) * 3  # racecar: three doubles, jail
    text += "hold ok+cancel 5\n"
    transcript, state = table.play(text)
    assert screens(transcript, "undo")
    assert player(state, 1)["balance"] == 1500 and deed(state, 1)["owner"] is None
    assert player(state, 2)["jailed"] is True
    assert state["last_roll"] == {"card": 2, "dice": [3, 3], "third": None, "doubles": 3}
    assert state["undo_available"] is False


def test_a4_a_fee_charged_by_a_roll_is_not_undone_with_the_transaction_before(
    table: Table,
) -> None:
    """READINGS A4: the compulsory jail fee charged by racecar's third failed try is part of
    the roll: undoing dog's purchase (made before the tries) leaves racecar free and 50 down."""
    text = P2 + "roll 1 1\nroll 2 2\nroll 3 3\n" + roll(2) * 3  # racecar jailed by the dice
    text += "tap deed:1\ntap bank:1\n"  # dog buys Belleville: the last transaction
    text += "roll 1 2\nroll 3 4\nroll 5 6\n" + roll(2) * 3  # three failures: fee 50, free
    _, before = table.play(text)
    assert player(before, 2)["balance"] == 1450 and player(before, 2)["jailed"] is False
    transcript, state = table.play(text + "hold ok+cancel 5\n")
    assert screens(transcript, "undo")
    assert player(state, 1)["balance"] == 1500 and deed(state, 1)["owner"] is None
    assert player(state, 2)["balance"] == 1450
    assert player(state, 2)["jailed"] is False and player(state, 2)["jail_tries"] == 0


def test_a4_a_debt_opened_by_a_roll_leaves_nothing_to_undo_once_settled(table: Table) -> None:
    """READINGS A4: a fee charged by a roll that opens a debt: once the debt is settled
    nothing is undoable (the payment that caused it was not a transaction)."""
    text = P2 + "tap deed:1\ntap bank:2\n"  # racecar buys Belleville: 1440
    text += item(5, 2, 1420)  # racecar pays the bank 1420: 20 left
    text += "roll 1 1\nroll 2 2\nroll 3 3\n" + roll(2) * 3  # jailed by three doubles
    text += "roll 1 2\nroll 3 4\nroll 5 6\n" + roll(2) * 3  # fee 50: 20 taken, owes 30
    _, owing = table.play(text)
    assert player(owing, 2)["debt"] == 30 and player(owing, 2)["balance"] == 0
    text += "press menu\nkey 9\ntap bank:2\ntap deed:1\n"  # mortgage +30: the debt is paid
    text += "press ok\nhold ok+cancel 5\n"
    transcript, state = table.play(text)
    assert player(state, 2)["debt"] == 0 and player(state, 2)["balance"] == 0
    assert deed(state, 1)["mortgaged"] is True and deed(state, 1)["owner"] == 2
    assert state["undo_available"] is False
    assert not screens(transcript, "undo") and "error" in cues(after(transcript, "Dette"))


def test_a4_the_rolls_since_are_decided_again_without_the_undone_transaction(
    table: Table,
) -> None:
    """READINGS A4, C12: racecar sent to jail by the menu (the last transaction), then 1-1 (a
    double that frees him, no row), 2-2 and 3-3. Undoing the jailing replays the three rolls
    for a free racecar: three doubles in a row, so he ends in jail by the dice, 3 doubles
    shown; the same after a power cut before the undo."""
    text = P2 + item(2, 2) + "roll 1 1\nroll 2 2\nroll 3 3\n" + roll(2) * 3
    _, before = table.play(text)
    assert player(before, 2)["jailed"] is False and before["last_roll"]["doubles"] == 2
    transcript, state = table.play(text + "hold ok+cancel 5\n")
    assert screens(transcript, "undo")
    assert player(state, 2)["jailed"] is True
    assert state["last_roll"] == {"card": 2, "dice": [3, 3], "third": None, "doubles": 3}
    assert state["undo_available"] is False
    _, cycled = table.play(text + "hold ok+cancel 5\npower off\npower on\n")
    assert cycled == state  # the journal gives the same state back
    # READINGS C12 too: the rolls to replay are known again after a power cut
    _, later = table.play(text + "power off\npower on\nhold ok+cancel 5\n")
    assert later == state


def test_a5_undo_after_the_interest_answer_cancels_the_whole_trade(table: Table) -> None:
    """READINGS A5: the interest question is part of the trade's transaction: after the spec's
    second example, undo gives racecar back 100 + 9 and dog his mortgaged Avenue Mozart; the
    jail fee racecar's roll charged before the trade stays (A4)."""
    example = EXAMPLES / "02_classic_jail_trade.tap"
    text = example.read_text(encoding="utf-8") + "hold ok+cancel 5\n"
    transcript, state = table.play(text)
    assert screens(transcript, "undo")
    # dog: 1500 - 180 + 90 = 1410; racecar: 1500 - 50 (the fee) = 1450
    assert player(state, 1)["balance"] == 1410 and player(state, 2)["balance"] == 1450
    mozart = deed(state, 12)
    assert mozart["owner"] == 1 and mozart["mortgaged"] is True
    assert mozart["interest_due"] is False and state["undo_available"] is False


EXAMPLES = Path(__file__).resolve().parents[1] / "rulesets" / "classic_examples"


def test_a6_a_tax_debt_with_the_pot_variant_pays_into_the_pot(table: Table) -> None:
    """READINGS A6: a tax the payer cannot cover with ``free_parking = taxes``: the cash taken
    at once and the money raised later for that debt all go into the pot, not to the bank."""
    text = P2 + "tap deed:1\ntap bank:1\n"  # dog buys Belleville: 1440
    text += item(5, 1, 1390)  # a fine, not a tax: the pot stays 0; dog keeps 50
    text += item(3, 1)  # Impôts sur le revenu 200: 50 into the pot, 150 owed
    _, owing = table.play(text, "classic-fr", "--set", "variants.free_parking=taxes")
    assert owing["pot"] == 50
    assert player(owing, 1)["debt"] == 150 and player(owing, 1)["creditor"] is None
    text += "press menu\nkey 9\ntap bank:1\ntap deed:1\n"  # mortgage +30, toward the debt
    _, state = table.play(text, "classic-fr", "--set", "variants.free_parking=taxes")
    assert state["pot"] == 80
    assert player(state, 1)["debt"] == 120 and player(state, 1)["balance"] == 0


def test_a7_paying_the_bank_more_than_one_has_opens_a_debt(table: Table) -> None:
    """READINGS A7: item 5 `Payer la banque` is a payment the player must make, like a card
    fine: 2000 from dog's 1500 takes the 1500 and leaves a debt of 500 to the bank."""
    transcript, state = table.play(P2 + item(5, 1, 2000))
    dog = player(state, 1)
    assert dog["balance"] == 0 and dog["debt"] == 500 and dog["creditor"] is None
    assert screens(transcript, "debt")


def test_a7_item_5_counts_as_a_card_fine_for_the_pot(table: Table) -> None:
    """READINGS A7: as a card fine, item 5 goes into the pot with ``taxes_and_fines`` (and
    only then): the debt's first 1500 land in the pot."""
    args = ("--set", "variants.free_parking=taxes_and_fines")
    _, state = table.play(P2 + item(5, 1, 2000), "classic-fr", *args)
    assert state["pot"] == 1500 and player(state, 1)["debt"] == 500
    _, taxes_only = table.play(
        P2 + item(5, 1, 200), "classic-fr", "--set", "variants.free_parking=taxes"
    )
    assert taxes_only["pot"] == 0 and player(taxes_only, 1)["balance"] == 1300


# dog holds the Caisse jail card first, then the Chance one, and is sent to jail
TWO_JAIL_CARDS = P2 + "tap chest:5\ntap bank:1\ntap chance:8\ntap bank:1\n" + item(2, 1)


def test_a11_m_at_the_jail_question_uses_the_first_card_held(table: Table) -> None:
    """READINGS A11: holding both jail cards, M at the jail question uses the first one held
    (order acquired): the Caisse card goes, the Chance card stays."""
    _, jailed = table.play(TWO_JAIL_CARDS)
    assert player(jailed, 1)["jail_cards"] == ["chest", "chance"]
    assert player(jailed, 1)["jailed"] is True
    _, state = table.play(TWO_JAIL_CARDS + item(2, 1) + "press menu\n")
    dog = player(state, 1)
    assert dog["jailed"] is False and dog["jail_cards"] == ["chance"] and dog["balance"] == 1500


def test_a11_a_tapped_jail_tag_uses_that_card(table: Table) -> None:
    """READINGS A11: at the jail question, tapping the Chance jail tag uses the Chance card
    even though the Caisse card was acquired first."""
    _, state = table.play(TWO_JAIL_CARDS + item(2, 1) + "tap chance:8\n")
    dog = player(state, 1)
    assert dog["jailed"] is False and dog["jail_cards"] == ["chest"]


def test_a12_another_cards_roll_breaks_a_row_of_doubles(table: Table) -> None:
    """READINGS A12: racecar's roll between dog's doubles breaks dog's row: after double,
    racecar, double, double dog has 2 doubles in a row and stays free."""
    text = P2 + "roll 1 1\nroll 1 2\nroll 2 2\nroll 3 3\n"
    text += roll(1) + roll(2) + roll(1) + roll(1)
    _, state = table.play(text)
    assert state["last_roll"] == {"card": 1, "dice": [3, 3], "third": None, "doubles": 2}
    assert player(state, 1)["jailed"] is False


def test_a12_an_anonymous_roll_does_not_break_a_row(table: Table) -> None:
    """READINGS A12: an anonymous roll (✓ instead of a card) between dog's doubles counts for
    nobody: dog's third double sends him to jail, and ``doubles`` shows 3 on that roll."""
    text = P2 + "roll 1 1\nroll 1 2\nroll 2 2\nroll 3 3\n"
    text += roll(1) + roll(None) + roll(1) + roll(1)
    transcript, state = table.play(text)
    assert player(state, 1)["jailed"] is True
    assert state["last_roll"] == {"card": 1, "dice": [3, 3], "third": None, "doubles": 3}
    assert any("3 doubles" in s for s in screens(transcript, "dice"))


def test_a12_a_double_that_frees_from_jail_starts_no_row(table: Table) -> None:
    """READINGS A12: a jailed roller's roll never counts toward a row: the double that frees
    dog shows 0 doubles, so two more doubles leave him free and only the third jails him."""
    text = P2 + item(2, 1) + "roll 4 4\nroll 5 5\nroll 6 6\nroll 1 1\n"
    _, freed = table.play(text + roll(1))
    assert player(freed, 1)["jailed"] is False
    assert freed["last_roll"] == {"card": 1, "dice": [4, 4], "third": None, "doubles": 0}
    _, two = table.play(text + roll(1) * 3)
    assert player(two, 1)["jailed"] is False and two["last_roll"]["doubles"] == 2
    _, three = table.play(text + roll(1) * 4)
    assert player(three, 1)["jailed"] is True and three["last_roll"]["doubles"] == 3


@pytest.mark.parametrize("pot", ["taxes", "taxes_and_fines"])
def test_a16_back_three_to_the_income_tax_pays_a_tax_into_the_pot(table: Table, pot: str) -> None:
    """READINGS A16: Chance 6 back three spaces onto `Impôts sur le revenu` pays the tax
    space's 200, a tax: into the pot with ``taxes`` as with ``taxes_and_fines``."""
    text = P2 + "tap chance:6\ntap bank:1\npress ok\n"  # the first option: Impôts (C7)
    _, state = table.play(text, "classic-fr", "--set", f"variants.free_parking={pot}")
    assert state["pot"] == 200 and player(state, 1)["balance"] == 1300


@pytest.mark.parametrize("edition", ["classic-fr", "mega-fr", "mega-uk", "starwars-ep2-fr"])
def test_a19_the_state_file_records_only_the_classic_and_variants_tables(
    table: Table, edition: str
) -> None:
    """READINGS A19: the state file's ``config`` holds ``classic`` and ``variants`` only, in
    Méga and Star Wars too (their ``[mega]`` / ``[starwars]`` tables are not shown)."""
    _, state = table.play(P2, edition)
    assert set(state["config"]) == {"classic", "variants"}


def test_a20_reset_starts_the_registration_of_a_new_game(table: Table) -> None:
    """READINGS A20: holding X 5 s archives the game and starts the registration: tophat and
    ship tapped then ✓ start a new game of two, with the start balance."""
    text = P2 + "tap deed:1\ntap bank:1\nhold cancel 5\ntap bank:3\ntap bank:4\npress ok\n"
    transcript, state = table.play(text)
    assert screens(transcript, "game_started")[-1].endswith("2 joueurs, 1500 €")
    assert [p["card"] for p in state["players"]] == [3, 4]
    assert [p["balance"] for p in state["players"]] == [1500, 1500]
    assert deed(state, 1)["owner"] is None


def test_a20_a_power_cut_clears_the_cards_tapped_for_registration(table: Table) -> None:
    """READINGS A20: a power cut during the registration clears the cards tapped so far: after
    it, tophat alone cannot start a game; with ship too the game is tophat and ship's."""
    text = P2 + "hold cancel 5\ntap bank:1\ntap bank:2\npower off\npower on\n"
    text += "tap bank:3\npress ok\n"  # one card: refused
    transcript, alone = table.play(text)
    assert alone["players"] == [] and cues(transcript)[-1] == "error"
    _, state = table.play(text + "tap bank:4\npress ok\n")
    assert [p["card"] for p in state["players"]] == [3, 4]


# ---------------------------------------------------------------- B: timing and steps


def test_b1_the_menu_waits_10_s_restarted_by_each_key(table: Table) -> None:
    """READINGS B1: the menu times out after 10 s, restarted by each key: 9 s, a digit, 9 s
    more, and the bank card still applies the item (the income tax, −200)."""
    _, state = table.play(P2 + "press menu\nwait 9\nkey 3\nwait 9\ntap bank:1\n")
    assert player(state, 1)["balance"] == 1300


def test_b1_a_refused_digit_restarts_the_menu_too(table: Table) -> None:
    """READINGS B1: every key restarts the menu's 10 s, one that selects nothing too: 9 s, `0`
    (no item 0: the error cue), 9 s more, and the card still applies item 1 (+200)."""
    transcript, state = table.play(P2 + "press menu\nwait 9\nkey 0\nwait 9\ntap bank:1\n")
    assert "error" in cues(transcript)
    assert player(state, 1)["balance"] == 1700


def test_b1_an_amount_entry_waits_30_s(table: Table) -> None:
    """READINGS B1: an amount entry is abandoned after 30 s without a key, not before: 29 s
    then ✓ receives the 50 typed."""
    _, state = table.play(P2 + "press menu\nkey 6\ntap bank:1\nkey 50\nwait 29\npress ok\n")
    assert player(state, 1)["balance"] == 1550


def test_b1_picks_wait_30_s(table: Table) -> None:
    """READINGS B1: picks wait 30 s: the utility's dice-total pick after 29 s (7: dog pays
    4 × 7 = 28), Chance 6's choice after 29 s (the tax, 200), the card-number pick after 29 s
    (Chance 14, +50)."""
    text = P2 + "tap deed:8\ntap bank:2\ntap deed:8\ntap bank:1\nwait 29\nkey 7\npress ok\n"
    _, dice = table.play(text)
    assert player(dice, 1)["balance"] == 1472 and player(dice, 2)["balance"] == 1378
    _, choice = table.play(P2 + "tap chance:6\ntap bank:1\nwait 29\npress ok\n")
    assert player(choice, 1)["balance"] == 1300
    text = P2 + "press menu\nkey 12\npress ok\npress ok\nwait 29\nkey 14\nwait 29\npress ok\n"
    _, number = table.play(text + "tap bank:1\n")
    assert player(number, 1)["balance"] == 1550


def test_b1_questions_have_no_timeout(table: Table) -> None:
    """READINGS B1: the `Passé par Départ ?` question and the jail question wait as long as
    it takes: after 100 s, ✓ still answers (Chance 3: +200 then Avenue Henri-Martin bought
    for 240; the jail fee 50 paid)."""
    _, go = table.play(P2 + "tap chance:3\ntap bank:1\nwait 100\npress ok\n")
    assert player(go, 1)["balance"] == 1500 + 200 - 240 and deed(go, 17)["owner"] == 1
    _, jail = table.play(P2 + item(2, 1) + item(2, 1) + "wait 100\npress ok\n")
    assert player(jail, 1)["jailed"] is False and player(jail, 1)["balance"] == 1450


def test_b1_trade_composition_has_no_timeout(table: Table) -> None:
    """READINGS B1: a trade being composed does not time out: 100 s after a deed is added the
    panels still step on and the offer is made and accepted."""
    text = P2 + "tap deed:1\ntap bank:1\n"  # dog owns Belleville
    text += "press menu\nkey 10\ntap bank:1\ntap bank:2\ntap deed:1\nwait 100\n"
    text += "press menu\nwait 100\npress menu\npress menu\npress ok\npress ok\n"
    _, state = table.play(text)
    assert deed(state, 1)["owner"] == 2


def test_b1_tout_vendre_has_no_timeout(table: Table, tmp_path: Path) -> None:
    """READINGS B1: `tout vendre ? ✓` is a question: 100 s later ✓ still sells the whole
    brown group at half (two hotels, each 50 + 4 × 50: 125 back each), dog 160 + 250."""
    house = small_bank(tmp_path)
    _, state = table.play(P2 + SHORTAGE + "wait 100\npress ok\n", str(house))
    assert deed(state, 1)["level"] == 0 and deed(state, 2)["level"] == 0
    assert player(state, 1)["balance"] == 410


def test_b2_a_hold_does_not_let_the_clock_run(table: Table) -> None:
    """READINGS B2: holding does not advance the virtual clock: a menu opened 9 s before a
    2 s hold of ✓ and X (no undo: too short) still applies its item to the next card."""
    _, state = table.play(P2 + "press menu\nwait 9\nhold ok+cancel 2\ntap bank:1\n")
    assert player(state, 1)["balance"] == 1700  # item 1: Départ +200


def test_b2_a_hold_does_not_run_the_auction_countdown(table: Table) -> None:
    """READINGS B2: dog bids 10, 9 s pass, a 2 s hold of ✓ and X takes no time: racecar's bid
    of 20 still comes before the hammer, and racecar buys Belleville for 20."""
    text = P2 + "tap deed:1\npress menu\npress ok\ntap bank:1\nwait 9\nhold ok+cancel 2\n"
    _, state = table.play(text + "tap bank:2\nwait 10.5\n")
    assert deed(state, 1)["owner"] == 2 and player(state, 2)["balance"] == 1480
    assert player(state, 1)["balance"] == 1500


def test_b2_a_hold_is_no_x_press_on_release(table: Table) -> None:
    """READINGS B2: the buttons of a hold do not also act as presses on release: the undo
    hold (refused: nothing to undo) leaves the 25 typed in the entry, which ✓ then takes."""
    text = P2 + "press menu\nkey 6\ntap bank:1\nkey 25\nhold ok+cancel 5\npress ok\n"
    _, state = table.play(text)
    assert player(state, 1)["balance"] == 1525


@pytest.mark.parametrize(
    ("text", "dog"),
    [
        ("press menu\nwait 10\ntap bank:1\n", 1500),  # the menu is gone: a balance check
        ("press menu\nkey 6\ntap bank:1\nkey 50\nwait 30\npress ok\n", 1500),  # abandoned
        ("tap deed:1\nwait 10\ntap bank:1\n", 1500),  # the check screen is gone
        ("press menu\nwait 9.999\ntap bank:1\n", 1700),  # just before: item 1 applies
        # the dice pick is gone after 30 s: the 7 typed then is refused, nothing paid
        ("tap deed:8\ntap bank:2\ntap deed:8\ntap bank:1\nwait 30\nkey 7\npress ok\n", 1500),
    ],
)
def test_b3_a_timeout_fires_at_exactly_its_limit(table: Table, text: str, dog: int) -> None:
    """READINGS B3: a step times out at its limit exactly (``wait 10`` closes the menu and a
    deed's check screen, ``wait 30`` an amount entry and a pick), not a moment before."""
    _, state = table.play(P2 + text)
    assert player(state, 1)["balance"] == dog
    assert deed(state, 1)["owner"] is None


def test_b4_a_refused_tap_restarts_the_session(table: Table) -> None:
    """READINGS B4: a build session's 10 s restart at every deed tap, a refused one too: 9 s,
    a refused tap (Rue de Vaugirard is not dog's), 9 s, and the next tap still builds."""
    text = P2 + "tap deed:1\ntap bank:1\ntap deed:2\ntap bank:1\n"  # brown group: 1380
    text += "press menu\nkey 7\ntap bank:1\nwait 9\ntap deed:4\nwait 9\ntap deed:1\n"
    transcript, state = table.play(text)
    assert "error" in cues(transcript)
    assert deed(state, 1)["houses"] == 1 and player(state, 1)["balance"] == 1330


def test_b5_power_on_restores_the_unit_at_idle_and_the_next_button_acts(table: Table) -> None:
    """READINGS B5: after ``power on`` the first button is not used up to switch on: M opens
    the menu at once and the card applies item 1."""
    _, state = table.play(P2 + "power off\npower on\npress menu\ntap bank:1\n")
    assert player(state, 1)["balance"] == 1700


# ---------------------------------------------------------------- C: unspecified behaviour


def test_c2_x_at_the_jail_question_is_taken_at_its_word_with_the_units_dice(
    table: Table,
) -> None:
    """READINGS C2: even when the unit rolls the dice, X at the jail question (a double was
    rolled) frees the player: dog, jailed by three doubles of the unit, is let out for free."""
    text = P2 + "roll 1 1\nroll 2 2\nroll 3 3\n" + roll(1) * 3 + item(2, 1) + "press cancel\n"
    _, state = table.play(text)
    assert player(state, 1)["jailed"] is False and player(state, 1)["balance"] == 1500


def test_c3_a_jailed_player_collects_go_buys_and_draws_cards(table: Table) -> None:
    """READINGS C3: the GO icon, a landing and a card are accepted for a jailed player: +200,
    Belleville bought for 60, Chance 14 +50; dog is still in jail."""
    text = P2 + item(2, 1) + item(1, 1) + "tap deed:1\ntap bank:1\ntap chance:14\ntap bank:1\n"
    _, state = table.play(text)
    dog = player(state, 1)
    assert dog["balance"] == 1500 + 200 - 60 + 50 and dog["jailed"] is True
    assert deed(state, 1)["owner"] == 1


def test_c4_lifting_a_mortgage_is_refused_during_a_debt(table: Table) -> None:
    """READINGS C4: during a debt a tap on a mortgaged deed in the mortgage session does not
    lift it (that raises no money): refused, the deed stays mortgaged, the debt stays."""
    text = P2 + "tap deed:1\ntap bank:1\ntap deed:2\ntap bank:1\n"  # 1380
    text += "press menu\nkey 9\ntap bank:1\ntap deed:1\npress ok\n"  # +30: 1410
    text += item(5, 1, 1500)  # 1410 paid, 90 owed
    text += "press menu\nkey 9\ntap bank:1\ntap deed:2\n"  # +30 toward the debt: 60 owed
    text += "tap deed:1\n"  # a lift: refused
    transcript, state = table.play(text)
    assert "error" in cues(after(transcript, "Hypothèque +30"))
    assert deed(state, 1)["mortgaged"] is True and deed(state, 2)["mortgaged"] is True
    assert player(state, 1)["debt"] == 60 and player(state, 1)["balance"] == 0


def small_bank(tmp_path: Path) -> Path:
    """classic-fr with a bank of 8 houses (a house edition), so that two groups empty it."""
    text = house_copy((EDITIONS_DIR / "classic-fr.toml").read_text(encoding="utf-8"))
    assert "\nhouses = 32\n" in text
    house = tmp_path / "maison.toml"
    house.write_text(text.replace("\nhouses = 32\n", "\nhouses = 8\n", 1), encoding="utf-8")
    return house


SHORTAGE = """tap deed:1
tap bank:1
tap deed:2
tap bank:1
tap deed:4
tap bank:1
tap deed:5
tap bank:1
tap deed:6
tap bank:1
press menu
key 7
tap bank:1
tap deed:1
tap deed:2
tap deed:1
tap deed:2
tap deed:1
tap deed:2
tap deed:1
tap deed:2
tap deed:1
tap deed:2
tap deed:4
tap deed:5
tap deed:6
tap deed:4
tap deed:5
tap deed:6
tap deed:4
tap deed:5
press ok
press menu
key 8
tap bank:1
tap deed:1
"""


def test_c6_x_at_tout_vendre_cancels_that_tap_and_the_session_goes_on(
    table: Table, tmp_path: Path
) -> None:
    """READINGS C6: in a bank of 8 houses, brown carries two hotels and light blue the 8
    houses; breaking a hotel asks `tout vendre ? ✓`; X cancels that tap only, and the
    session goes on: the next tap sells a light blue house for 25."""
    house = small_bank(tmp_path)
    # dog: 1500 - 60 - 60 - 100 - 100 - 120 = 1060; brown 10 × 50, light blue 8 × 50: 160
    _, before = table.play(P2 + SHORTAGE, str(house))
    assert player(before, 1)["balance"] == 160 and before["bank"]["houses"] == 0
    transcript, state = table.play(P2 + SHORTAGE + "press cancel\ntap deed:4\n", str(house))
    assert screens(transcript, "sell_all")
    assert deed(state, 1)["level"] == 5 and deed(state, 2)["level"] == 5
    assert deed(state, 4)["houses"] == 2 and player(state, 1)["balance"] == 185


def test_c9_the_time_limit_waits_for_the_check_screen_and_the_card(table: Table) -> None:
    """READINGS C9: the time limit (1 min) ends the game only when nothing is in progress: a
    deed shown at 55 s still takes dog's purchase at 63 s, a card tapped at 55 s still
    applies at 90 s; the game ends right after. Ranking by worth, equal worth by cash."""
    args = ("--set", "variants.time_limit_minutes=1")
    text = P2 + "wait 55\ntap deed:1\nwait 8\ntap bank:1\n"
    _, bought = table.play(text, "classic-fr", *args)
    assert bought["game_over"] is True and deed(bought, 1)["owner"] == 1
    # both worth 1500; racecar has more cash (1500 against 1440)
    assert bought["ranking"] == [2, 1] and bought["winner"] == 2
    _, card = table.play(P2 + "wait 55\ntap chance:14\nwait 35\ntap bank:1\n", "classic-fr", *args)
    assert card["game_over"] is True and player(card, 1)["balance"] == 1550
    assert card["winner"] == 1


def test_c9_the_time_limit_waits_for_the_menu_and_a_session(table: Table) -> None:
    """READINGS C9: a menu kept open past the limit by its keys, then a session, hold the end
    of the game back; the first idle moment ends it."""
    args = ("--set", "variants.time_limit_minutes=1")
    text = P2 + "wait 55\npress menu\nwait 8\npress menu\nwait 8\ntap bank:1\n"  # item 2 at 71 s
    _, menu = table.play(text, "classic-fr", *args)
    assert menu["game_over"] is True and player(menu, 1)["jailed"] is True
    text = P2 + "tap deed:1\ntap bank:1\ntap deed:2\ntap bank:1\n"
    text += "wait 55\npress menu\nkey 7\ntap bank:1\nwait 8\ntap deed:1\nwait 8\ntap deed:2\n"
    text += "press ok\n"  # the session ends: the first idle moment after the limit
    _, built = table.play(text, "classic-fr", *args)
    assert deed(built, 1)["houses"] == 1 and deed(built, 2)["houses"] == 1
    assert built["game_over"] is True


def lancer(presses: int = 11) -> str:
    """At a dice-total pick without `(dernier lancer)`: M to `lancer` (after 7 … 12, 2 … 6)."""
    return "press menu\n" * presses + "press ok\n"


def test_c10_a_lancer_roll_is_no_jail_try(table: Table) -> None:
    """READINGS C10: `lancer` at a utility rolls for the payer, but never as a jail try: jailed
    dog's 4 + 4 pays 4 × 8 = 32 and does not free him; ``turn`` is dog."""
    text = P2 + "tap deed:8\ntap bank:2\n" + item(2, 1)  # racecar owns the Electric Company
    text += "roll 4 4\ntap deed:8\ntap bank:1\n" + lancer()
    _, state = table.play(text)
    dog = player(state, 1)
    assert dog["balance"] == 1468 and dog["jailed"] is True and dog["jail_tries"] == 0
    assert player(state, 2)["balance"] == 1500 - 150 + 32
    assert state["turn"] == 1
    assert state["last_roll"] == {"card": 1, "dice": [4, 4], "third": None, "doubles": 0}


def test_c10_a_lancer_roll_counts_for_the_claim_window(table: Table) -> None:
    """READINGS C10: tophat's `lancer` is tophat's roll for the claim deadline: after dog's
    roll, racecar's and tophat's, a claim on dog is too late."""
    text = P3 + "tap deed:1\ntap bank:2\ntap deed:8\ntap bank:2\n"  # racecar: Belleville, EDF
    text += "roll 1 2\nroll 2 3\nroll 3 4\n" + roll(1) + roll(2)
    text += "tap deed:8\ntap bank:3\n" + lancer()  # tophat pays 4 × 7 = 28
    _, ok = table.play(text)
    assert player(ok, 3)["balance"] == 1472 and ok["turn"] == 3
    transcript, state = table.play(text + "tap deed:1\ntap bank:1\n")  # dog: too late
    assert screens(transcript, "late") and player(state, 1)["balance"] == 1500


def test_c10_a_lancer_roll_never_counts_toward_three_doubles(table: Table) -> None:
    """READINGS C10 (and E3): dog's two doubles, then a double rolled by `lancer`, then a
    double: dog is not jailed, the row restarted after the `lancer` roll."""
    text = P2 + "tap deed:8\ntap bank:2\n"
    text += "roll 1 1\nroll 2 2\nroll 5 6\nroll 3 3\nroll 4 4\n" + roll(1) + roll(1)
    # an anonymous roll (no row broken, A12): dog's roll is not the latest, so the pick has
    # no `(dernier lancer)` and `lancer` is the 12th option
    text += roll(None) + "tap deed:8\ntap bank:1\n" + lancer() + roll(1)
    _, state = table.play(text)
    assert player(state, 1)["jailed"] is False
    assert state["last_roll"] == {"card": 1, "dice": [4, 4], "third": None, "doubles": 1}
    assert player(state, 1)["balance"] == 1500 - 24  # 4 × (3 + 3)


def test_c11_undo_closes_an_open_session_and_applies(table: Table) -> None:
    """READINGS C11: undo while a build session is open closes the session and undoes the
    purchase; the next deed tap is a check again (a landing buys Rue Lecourbe)."""
    text = P2 + "tap deed:1\ntap bank:1\npress menu\nkey 7\ntap bank:1\nhold ok+cancel 5\n"
    text += "tap deed:2\ntap bank:1\n"
    _, state = table.play(text)
    assert deed(state, 1)["owner"] is None and deed(state, 2)["owner"] == 1
    assert player(state, 1)["balance"] == 1440


def test_c11_undo_closes_an_open_menu(table: Table) -> None:
    """READINGS C11: undo while the menu shows closes it: the card tapped next checks the
    balance instead of applying item 1."""
    text = P2 + "tap deed:1\ntap bank:1\npress menu\nhold ok+cancel 5\ntap bank:1\n"
    _, state = table.play(text)
    assert deed(state, 1)["owner"] is None and player(state, 1)["balance"] == 1500


def test_c12_undo_survives_a_power_cut(table: Table, tmp_path: Path) -> None:
    """READINGS C12: the last transaction stays undoable across a power cut, and across a
    second script run on the same data directory (a power cycle)."""
    text = P2 + "tap deed:1\ntap bank:1\npower off\npower on\n"
    _, live = table.play(text)
    assert live["undo_available"] is True
    _, state = table.play(text + "hold ok+cancel 5\n")
    assert deed(state, 1)["owner"] is None and player(state, 1)["balance"] == 1500
    data = tmp_path / "kept"
    table.play(P2 + "tap deed:2\ntap bank:2\n", data=data)
    _, later = table.play("hold ok+cancel 5\n", data=data)
    assert deed(later, 2)["owner"] is None and player(later, 2)["balance"] == 1500


def test_c21_a_short_hold_of_x_does_nothing(table: Table) -> None:
    """READINGS C21: a hold of X shorter than the reset's 5 s is no X press on release: the
    25 typed stay and ✓ receives them."""
    text = P2 + "press menu\nkey 6\ntap bank:1\nkey 25\nhold cancel 2\npress ok\n"
    _, state = table.play(text)
    assert player(state, 1)["balance"] == 1525
    _, kept = table.play(P2 + "tap deed:1\ntap bank:1\nhold cancel 2\n")
    assert kept["players"] and deed(kept, 1)["owner"] == 1  # no reset either


# ---------------------------------------------------------------- E: dice and the jail question


def test_e3_a_lancer_roll_breaks_the_other_cards_rows(table: Table) -> None:
    """READINGS E3: a `lancer` roll is the payer's roll: it breaks racecar's row of doubles
    (racecar's next double is his first) and its own ``doubles`` is 0."""
    text = P2 + "tap deed:8\ntap bank:2\n"
    text += "roll 1 1\nroll 3 3\nroll 2 2\n" + roll(2)
    text += "tap deed:8\ntap bank:1\n" + lancer()
    _, paid = table.play(text)
    assert paid["last_roll"] == {"card": 1, "dice": [3, 3], "third": None, "doubles": 0}
    _, state = table.play(text + roll(2))
    assert state["last_roll"] == {"card": 2, "dice": [2, 2], "third": None, "doubles": 1}


def test_e15_an_unpaid_interest_adds_a_debt_and_the_next_question_comes_first(
    table: Table,
) -> None:
    """READINGS E15: racecar (2 left) receives two mortgaged browns: the first interest (3)
    takes the 2 and owes 1, the second question is still asked (owing 4 in all), then the
    debt is settled: Gare Montparnasse mortgaged +100 pays the 4, 96 stay."""
    text = P2 + "tap deed:1\ntap bank:1\ntap deed:2\ntap bank:1\n"  # dog 1380
    text += "press menu\nkey 9\ntap bank:1\ntap deed:1\ntap deed:2\npress ok\n"  # dog 1440
    text += "tap deed:3\ntap bank:2\n" + item(5, 2, 1298)  # racecar: the station, 2 left
    text += "press menu\nkey 10\ntap bank:1\ntap bank:2\ntap deed:1\ntap deed:2\n"
    text += "press menu\npress menu\npress menu\npress ok\npress ok\n"  # offered, accepted
    _, asked = table.play(text)
    assert deed(asked, 1)["interest_due"] and deed(asked, 2)["interest_due"]
    text += "press ok\n"  # keep Belleville: 3 due, 2 paid
    transcript, first = table.play(text)
    assert player(first, 2)["debt"] == 1 and player(first, 2)["balance"] == 0
    assert deed(first, 2)["interest_due"] is True
    assert screens(transcript)[-1].startswith("interest")  # the second question, not the debt
    text += "press ok\n"
    _, second = table.play(text)
    assert player(second, 2)["debt"] == 4 and deed(second, 2)["interest_due"] is False
    text += "press menu\nkey 9\ntap bank:2\ntap deed:3\n"
    _, state = table.play(text)
    racecar = player(state, 2)
    assert racecar["debt"] == 0 and racecar["balance"] == 96
    assert [deed(state, n)["owner"] for n in (1, 2, 3)] == [2, 2, 2]
    assert player(state, 1)["balance"] == 1440


def test_e15_debts_to_two_creditors_are_settled_in_the_order_they_arose(table: Table) -> None:
    """READINGS E15: racecar (0 cash) owes dog 25 of station rent, then, trading during the
    debt, receives tophat's mortgaged Rue de la Paix and keeps it: the interest (20) is a
    second debt, to the bank. Mortgaging Belleville (+30) pays dog's 25 first, then 5 of the
    bank's 20: racecar still owes the bank 15, dog is paid in full."""
    text = P3 + "tap deed:3\ntap bank:1\n"  # dog: Gare Montparnasse, 1300
    text += "tap deed:28\ntap bank:3\npress menu\nkey 9\ntap bank:3\ntap deed:28\npress ok\n"
    text += "tap deed:1\ntap bank:2\n" + item(5, 2, 1440)  # racecar: Belleville, 0 cash
    text += "tap deed:3\ntap bank:2\n"  # one station: 25 owed to dog
    text += "press menu\nkey 10\ntap bank:2\ntap bank:3\ntap deed:28\n"
    text += "press menu\npress menu\npress menu\npress ok\npress ok\n"  # offered, accepted
    text += "press ok\n"  # keep the mortgage: 20 owed to the bank
    _, owing = table.play(text)
    # the debt being settled is dog's; the bank's 20 waits behind it
    assert player(owing, 2)["debt"] == 25 and player(owing, 2)["creditor"] == 1
    text += "press menu\nkey 9\ntap bank:2\ntap deed:1\n"
    _, state = table.play(text)
    assert player(state, 1)["balance"] == 1325
    racecar = player(state, 2)
    assert racecar["debt"] == 15 and racecar["creditor"] is None and racecar["balance"] == 0
    assert deed(state, 28)["owner"] == 2 and state["pot"] == 0


def test_e16_ok_at_the_jail_question_without_the_fee_closes_the_question(table: Table) -> None:
    """READINGS E16: dog (20) cannot pay the 50: ✓ gets the error cue and `Pas assez`, the
    question closes and dog stays in jail (a later X is no longer an answer)."""
    text = P2 + item(5, 1, 1480) + item(2, 1) + item(2, 1) + "press ok\npress cancel\n"
    transcript, state = table.play(text)
    dog = player(state, 1)
    assert dog["jailed"] is True and dog["balance"] == 20
    tail = after(transcript, "cue error")
    assert any("Pas assez" in s for s in screens(transcript)), transcript
    assert not screens(tail, "jail_choice") and not screens(tail, "jail_out")


def test_c18_after_a_bankruptcy_the_creditors_questions_come_in_deed_order(
    table: Table,
) -> None:
    """READINGS C18: racecar bought Gare Montparnasse (D3) before Belleville (D1), both
    mortgaged; bankrupt to dog, he hands both over and dog is asked about D1 first, then D3:
    ✓ keeps D1 (3), M lifts D3 (100 + 10)."""
    text = P3 + "tap deed:3\ntap bank:2\ntap deed:1\ntap bank:2\n"  # racecar 1240
    text += "press menu\nkey 9\ntap bank:2\ntap deed:3\ntap deed:1\npress ok\n"  # 1370
    text += item(5, 2, 1370) + "tap deed:2\ntap bank:1\n"  # racecar 0; dog 1440
    text += "tap deed:2\ntap bank:2\n"  # rent 4 owed to dog, nothing left to raise
    text += "press menu\nkey 16\npress ok\ntap bank:2\n"
    transcript, asked = table.play(text)
    assert player(asked, 2)["bankrupt"] is True
    questions = [s.split()[1] for s in screens(transcript, "interest")]
    assert questions[0] == "#1"
    transcript, state = table.play(text + "press ok\npress menu\n")
    assert [s.split()[1] for s in screens(transcript, "interest")][-1] == "#3"
    assert deed(state, 1)["mortgaged"] is True and deed(state, 3)["mortgaged"] is False
    assert deed(state, 1)["owner"] == 1 and deed(state, 3)["owner"] == 1
    assert player(state, 1)["balance"] == 1440 - 3 - 110
