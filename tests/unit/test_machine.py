"""The unit's gestures, one by one, on a virtual clock (docs/ultime.md §5)."""

from __future__ import annotations

import pytest

from bank.engine.config import UnitConfig
from bank.rulesets.ultime.config import RulesConfig
from bank.unit.io import Cue, Icon, PanelStatus, ReaderStatus

from .harness import Harness, cues_of, screens_of


@pytest.fixture
def h() -> Harness:
    h = Harness()
    h.start(1, 2, 3)
    return h


# ---------------------------------------------------------------- power and registration


def test_starts_with_registration_when_no_game() -> None:
    h = Harness()
    assert h.screen.name == "new_game"
    assert h.screen.lines == ("Nouvelle partie", "Cartes banque 2 à 4")


def test_registration_needs_two_cards_and_refuses_a_second_tap_of_one() -> None:
    h = Harness()
    h.tap("bank:2")
    out = h.press("ok")
    assert cues_of(out) == [Cue.ERROR]
    assert not h.game.state.started
    out = h.tap("bank:2")
    assert cues_of(out) == [Cue.READ, Cue.ERROR]
    assert h.screen.lines[1] == "Déjà inscrite"
    out = h.tap("prop:3")
    assert h.screen.lines[1] == "Pas de partie"
    h.tap("bank:4")
    out = h.press("ok")
    assert Cue.KACHING in cues_of(out)
    assert [p.card for p in h.game.state.players] == [2, 4]
    assert all(p.balance == 1500 for p in h.game.state.players)


def test_cancel_during_registration_clears_the_cards() -> None:
    h = Harness()
    h.tap("bank:1")
    h.tap("bank:2")
    h.press("cancel")
    h.tap("bank:3")
    h.press("ok")
    assert not h.game.state.started
    h.tap("bank:4")
    h.press("ok")
    assert [p.card for p in h.game.state.players] == [3, 4]


def test_power_off_blanks_and_ignores_taps_then_any_button_switches_on(h: Harness) -> None:
    h.tap("prop:5")
    out = h.unit.power_off(h.now)
    assert screens_of(out)[0].off
    assert h.unit.next_deadline() is None
    assert h.tap("bank:1") == []
    out = h.down("menu")
    assert screens_of(out)[-1].name == "idle"  # the property step was abandoned
    assert screens_of(h.up("menu")) == []  # the switching press does not also open the menu
    assert h.unit.is_on


# ---------------------------------------------------------------- checks and landings


def test_bank_card_shows_balance_then_idle_after_ten_seconds(h: Harness) -> None:
    h.tap("bank:2")
    assert h.screen.name == "balance"
    assert h.screen.amount == 1500
    assert h.screen.token == "helicopter"
    assert screens_of(h.wait(9.9)) == []
    assert screens_of(h.wait(0.1))[-1].name == "idle"


def test_unregistered_bank_card_is_refused(h: Harness) -> None:
    out = h.tap("bank:4")
    assert cues_of(out) == [Cue.READ, Cue.ERROR]
    assert h.screen.lines[1] == "Carte hors partie"


def test_property_check_shows_price_then_rent_level_and_owner(h: Harness) -> None:
    h.tap("prop:16")
    s = h.screen
    assert (s.name, s.number, s.token, s.level, s.amount) == ("property", 16, None, None, 260)
    assert s.lines == ("Place de la Bourse", "Prix 260 M€")
    assert s.colour == "#f2c80f"
    h.tap("bank:3")
    h.tap("prop:16")
    s = h.screen
    assert (s.token, s.level, s.amount) == ("boat", 1, 200)
    assert s.lines[1] == "Loyer 200 M€"


def test_property_check_returns_to_idle_after_ten_seconds_and_x_leaves_it(h: Harness) -> None:
    h.tap("prop:1")
    assert h.unit.next_deadline() == pytest.approx(10.0)
    h.wait(10)
    assert h.screen.name == "idle"
    h.tap("bank:1")  # now only a balance check
    assert h.game.state.prop(1).owner is None
    h.tap("prop:1")
    h.press("cancel")
    assert h.screen.name == "idle"
    h.tap("bank:1")
    assert h.game.state.prop(1).owner is None


def test_buy_rent_and_own_landing(h: Harness) -> None:
    h.tap("prop:16")
    out = h.tap("bank:3")
    assert cues_of(out) == [Cue.READ, Cue.KACHING]
    assert h.owner_level(16) == (3, 1)
    h.tap("prop:16")
    out = h.tap("bank:1")
    assert cues_of(out) == [Cue.READ, Cue.KACHING, Cue.LEVEL_UP]
    assert h.screen.name == "rent"
    assert h.screen.lines == ("voiture paie 200", "à bateau, niveau 2")
    assert (h.balance(1), h.balance(3)) == (1300, 1440)
    h.tap("prop:16")
    out = h.tap("bank:3")
    assert cues_of(out) == [Cue.READ, Cue.LEVEL_UP]
    assert h.owner_level(16) == (3, 3)


def test_own_landing_at_level_five_changes_nothing(h: Harness) -> None:
    h.tap("prop:1")
    h.tap("bank:1")
    for _ in range(4):
        h.tap("prop:1")
        h.tap("bank:1")
    assert h.owner_level(1) == (1, 5)
    h.tap("prop:1")
    out = h.tap("bank:1")
    assert Cue.LEVEL_UP not in cues_of(out)
    assert h.screen.lines[1] == "Niveau 5 (max)"


def test_purchase_refused_when_short_keeps_the_step_for_an_auction(h: Harness) -> None:
    for n in (22, 21, 20, 19):
        h.tap(f"prop:{n}")
        h.tap("bank:1")
    assert h.balance(1) == 1500 - 400 - 350 - 320 - 300
    h.tap("prop:17")
    out = h.tap("bank:1")
    assert cues_of(out) == [Cue.READ, Cue.ERROR]
    assert h.screen.lines[1] == "Pas assez d'argent"
    assert h.game.state.prop(17).owner is None
    h.press("menu")  # still waiting after the refusal: M offers the auction
    assert h.screen.name == "auction_offer"


def test_visitor_on_a_jailed_owners_property_pays_nothing(h: Harness) -> None:
    h.tap("prop:2")
    h.tap("bank:2")
    h.press("menu")
    h.press("menu")
    h.tap("bank:2")
    assert h.game.state.player(2).jailed  # type: ignore[union-attr]
    h.tap("prop:2")
    assert h.screen.lines[1] == "Loyer 0 (prison)"
    h.tap("bank:1")
    assert h.screen.name == "no_rent"
    assert h.balance(1) == 1500


# ---------------------------------------------------------------- menu: GO, jail, Location


def test_menu_cycles_go_jail_location_idle(h: Harness) -> None:
    icons = []
    for _ in range(4):
        h.press("menu")
        icons.append(h.screen.icons)
    assert icons[:3] == [frozenset({Icon.GO}), frozenset({Icon.JAIL}), frozenset({Icon.LOCATION})]
    assert h.screen.name == "idle"


def test_ok_before_the_card_is_accepted_and_changes_nothing(h: Harness) -> None:
    h.press("menu")
    out = h.press("ok")
    assert Cue.ERROR not in cues_of(out)
    assert h.screen.icons == frozenset({Icon.GO})
    h.tap("bank:2")
    assert h.balance(2) == 1700
    assert h.screen.name == "go"


def test_menu_times_out(h: Harness) -> None:
    h.press("menu")
    h.wait(10)
    assert h.screen.name == "idle"
    h.tap("bank:1")
    assert h.balance(1) == 1500


def test_jail_then_pay_or_double(h: Harness) -> None:
    h.press("menu")
    h.press("menu")
    out = h.tap("bank:1")
    assert Cue.JAIL in cues_of(out)
    h.press("menu")
    h.press("menu")
    h.tap("bank:1")
    assert h.screen.name == "jail_choice"
    out = h.press("ok")
    assert Cue.KACHING in cues_of(out)
    assert h.balance(1) == 1400
    assert not h.game.state.player(1).jailed  # type: ignore[union-attr]
    h.press("menu")
    h.press("menu")
    h.tap("bank:2")
    h.press("menu")
    h.press("menu")
    h.tap("bank:2")
    h.press("cancel")
    assert h.balance(2) == 1500
    assert not h.game.state.player(2).jailed  # type: ignore[union-attr]
    assert h.screen.lines[1] == "Double, gratuit"


def test_location_pays_then_lands_with_the_same_card(h: Harness) -> None:
    h.tap("prop:8")
    h.tap("bank:2")
    for _ in range(3):
        h.press("menu")
    h.tap("bank:1")
    assert h.balance(1) == 1400
    assert h.screen.lines[1] == "Carte destination"
    assert h.unit.next_deadline() is None  # the fee is paid: no timeout drops the landing
    h.tap("bank:1")
    assert h.screen.lines[1] == "Propriété svp"
    h.tap("prop:8")
    h.tap("bank:3")
    assert h.screen.lines[1] == "Pas ce joueur"
    h.tap("bank:1")
    assert h.balance(1) == 1400 - 130
    assert h.owner_level(8) == (2, 2)


# ---------------------------------------------------------------- auctions


def test_auction_countdown_screen_each_second_and_named_winner_charged(h: Harness) -> None:
    h.tap("prop:11")
    h.press("menu")
    h.press("ok")
    assert h.screen.countdown == 10
    h.tap("bank:2")
    assert (h.screen.amount, h.screen.token) == (20, "helicopter")
    out = h.wait(3)
    assert [s.countdown for s in screens_of(out)] == [9, 8, 7]
    assert cues_of(out) == [Cue.AUCTION_TICK] * 3
    h.tap("bank:3")
    assert (h.screen.amount, h.screen.countdown) == (40, 10)
    out = h.wait(10)
    assert cues_of(out)[-3:] == [Cue.AUCTION_TICK, Cue.HAMMER, Cue.KACHING]
    assert h.owner_level(11) == (3, 1)
    assert h.balance(3) == 1460


def test_auction_without_bid_is_cancelled_at_zero(h: Harness) -> None:
    h.tap("prop:11")
    h.press("menu")
    h.press("ok")
    out = h.wait(10)
    assert screens_of(out)[-1].name == "auction_cancelled"
    assert Cue.HAMMER in cues_of(out)
    assert h.game.state.prop(11).owner is None


def test_auction_x_before_any_bid_cancels_and_after_a_bid_is_refused(h: Harness) -> None:
    h.tap("prop:11")
    h.press("menu")
    h.press("ok")
    h.press("cancel")
    assert h.screen.name == "auction_cancelled"
    assert h.unit.next_deadline() is None
    h.tap("prop:11")
    h.press("menu")
    h.press("ok")
    h.press("ok")
    out = h.press("cancel")
    assert cues_of(out) == [Cue.ERROR]
    h.wait(10)
    assert h.screen.name == "auction_end"
    h.tap("prop:3")
    assert h.screen.name == "error"
    h.tap("bank:1")
    assert h.owner_level(11) == (1, 1)
    assert h.balance(1) == 1480


def test_jailed_player_cannot_bid_by_card(h: Harness) -> None:
    h.press("menu")
    h.press("menu")
    h.tap("bank:1")
    h.tap("prop:11")
    h.press("menu")
    h.press("ok")
    out = h.tap("bank:1")
    assert cues_of(out) == [Cue.READ, Cue.ERROR]
    assert h.screen.lines[1] == "En prison"


def test_m_on_an_owned_property_offers_no_auction(h: Harness) -> None:
    h.tap("prop:11")
    h.tap("bank:1")
    h.tap("prop:11")
    h.press("menu")
    assert h.screen.lines[1] == "Déjà vendue"


def test_auction_offer_toggles_back_with_m_and_times_out(h: Harness) -> None:
    h.tap("prop:11")
    h.press("menu")
    h.press("menu")
    assert h.screen.name == "property"
    h.press("menu")
    h.wait(10)
    assert h.screen.name == "idle"


# ---------------------------------------------------------------- debt and game over


def _make_debt(h: Harness) -> None:
    """Card 2 owes card 1 after a big rent (the example 03 game)."""
    h.tap("prop:14")
    h.tap("bank:1")
    for _ in range(3):
        h.tap("prop:14")
        h.tap("bank:1")
    for n in (3, 4, 21, 22, 18):
        h.tap(f"prop:{n}")
        h.tap("bank:2")
    h.tap("prop:14")
    h.tap("bank:2")


def test_debt_asks_for_properties_until_covered(h: Harness) -> None:
    _make_debt(h)
    assert h.screen.name == "debt"
    assert h.screen.amount == 360
    out = h.tap("bank:2")
    assert cues_of(out)[-1] is Cue.ERROR
    h.press("cancel")
    assert h.game.state.debtor() is not None
    h.tap("prop:14")  # not card 2's
    assert h.screen.name == "error"
    h.tap("prop:18")
    assert h.screen.amount == 60
    h.tap("prop:3")
    assert h.screen.name == "debt_settled"
    assert h.screen.amount == 40
    assert h.game.state.debtor() is None


def test_debt_survives_a_power_cycle(h: Harness) -> None:
    _make_debt(h)
    h.unit.power_off(h.now)
    out = h.unit.power_on(h.now)
    assert screens_of(out)[-1].name == "debt"
    h.tap("prop:18")
    h.tap("prop:3")
    assert h.game.state.debtor() is None


def test_undo_refused_during_debt_then_undoes_the_whole_settled_debt(h: Harness) -> None:
    _make_debt(h)
    before_rent = (1260, 250)
    out = h.hold("ok", "cancel")
    assert cues_of(out) == [Cue.ERROR]
    h.tap("prop:18")
    h.tap("prop:3")
    out = h.hold("ok", "cancel")
    assert cues_of(out) == [Cue.UNDO]
    assert (h.balance(1), h.balance(2)) == before_rent
    assert h.owner_level(18)[0] == 2
    assert h.owner_level(14) == (1, 4)


def test_bankruptcy_ends_the_game_with_ranking_trophy_and_fanfare() -> None:
    h = Harness()
    h.start(1, 2)
    h.tap("prop:22")
    h.tap("bank:1")
    for _ in range(4):
        h.tap("prop:22")
        h.tap("bank:1")
    # card 2 has 1500 and no property: rent 1600 at level 5 bankrupts it
    h.tap("prop:22")
    out = h.tap("bank:2")
    assert Cue.GAME_OVER in cues_of(out)
    s = h.screen
    assert s.name == "game_over"
    assert Icon.TROPHY in s.icons
    assert s.token == "car"
    assert s.lines == ("1.voiture  2.hélico",)
    assert h.game.state.winner == 1
    out = h.tap("prop:1")
    assert cues_of(out) == [Cue.READ, Cue.ERROR]
    h.press("ok")
    assert h.screen.name == "game_over"
    h.hold("cancel")
    assert h.screen.name == "new_game"
    assert not h.game.state.started


# ---------------------------------------------------------------- holds


def test_undo_hold_fires_at_five_seconds_and_release_does_not_act(h: Harness) -> None:
    h.tap("prop:1")
    h.tap("bank:1")
    h.down("ok")
    h.down("cancel")
    assert h.unit.next_deadline() == pytest.approx(5.0)
    assert cues_of(h.wait(4.9)) == []
    out = h.wait(0.1)
    assert cues_of(out) == [Cue.UNDO]
    assert Icon.UNDO in h.screen.icons
    assert h.game.state.prop(1).owner is None
    assert h.up("cancel") == []
    assert h.up("ok") == []
    out = h.hold("ok", "cancel")
    assert h.screen.lines[1] == "Rien à annuler"


def test_undo_never_cancels_an_event_card(h: Harness) -> None:
    h.tap("event:11")
    h.tap("bank:1")
    h.tap("bank:2")
    h.hold("ok", "cancel")
    assert h.screen.name == "error"
    assert h.balance(1) == 1700


def test_short_ok_cancel_chord_does_nothing(h: Harness) -> None:
    h.tap("prop:1")
    h.down("ok")
    h.down("cancel")
    h.wait(1)
    h.up("cancel")
    h.up("ok")
    assert h.screen.name == "property"  # neither ✓ nor X acted
    h.tap("bank:1")
    assert h.owner_level(1) == (1, 1)


def test_reset_hold_archives_the_game_and_registration_follows(h: Harness) -> None:
    h.tap("prop:1")
    h.tap("bank:1")
    h.down("cancel")
    assert h.wait(4.99) == []
    out = h.wait(0.01)
    assert screens_of(out)[-1].lines[0] == "Partie archivée"
    assert h.up("cancel") == []
    assert not h.game.state.started
    h.start(2, 4)
    assert h.game.state.prop(1).owner is None


def test_x_released_early_is_a_plain_cancel(h: Harness) -> None:
    h.tap("prop:1")
    h.hold("cancel", seconds=3)
    assert h.screen.name == "idle"
    assert h.game.state.started


def test_pressing_ok_during_an_x_hold_turns_it_into_undo(h: Harness) -> None:
    h.tap("prop:1")
    h.tap("bank:1")
    h.down("cancel")
    h.wait(3)
    h.down("ok")
    h.wait(2)
    assert h.game.state.started  # no reset at 5 s from the X press
    h.wait(3)
    assert h.game.state.prop(1).owner is None  # undo 5 s after the chord began
    h.up("ok")
    h.up("cancel")


def test_hold_timing_follows_the_config() -> None:
    h = Harness(config=UnitConfig(hold_seconds=2.0, idle_seconds=3.0))
    h.start(1, 2)
    h.tap("prop:1")
    h.wait(3)
    assert h.screen.name == "idle"
    h.hold("cancel", seconds=2)
    assert not h.game.state.started


# ---------------------------------------------------------------- devices, errors, language


def test_reader_lost_and_back(h: Harness) -> None:
    h.tap("bank:1")
    before = h.screen
    out = h.feed(ReaderStatus(h.now, False, "usb"))
    assert screens_of(out)[0].icons == frozenset({Icon.READER_LOST})
    assert screens_of(out)[0].lines[0] == "Lecteur perdu"
    out = h.feed(ReaderStatus(h.now, True, "usb"))
    assert screens_of(out) == [before]


def test_panel_lost_marks_the_following_screens(h: Harness) -> None:
    h.feed(PanelStatus(h.now, False, "serial"))
    h.press("menu")
    assert Icon.READER_LOST in h.screen.icons
    h.feed(PanelStatus(h.now, True, "serial"))
    assert h.screen.icons == frozenset({Icon.GO})


def test_unknown_card_gets_the_error_cue_and_the_step_stays(h: Harness) -> None:
    h.tap("prop:4")
    out = h.tap(None)
    assert cues_of(out) == [Cue.ERROR]
    assert h.screen.lines == ("Refusé", "Carte inconnue")
    h.tap("bank:1")
    assert h.owner_level(4) == (1, 1)


def test_english_texts_for_the_uk_edition() -> None:
    h = Harness(edition="ultimate-uk")
    h.start(1, 2)
    h.tap("prop:22")
    assert h.screen.lines == ("Mayfair", "Price 400 ₥")
    h.tap("bank:1")
    h.tap("prop:22")
    h.tap("bank:2")
    assert h.screen.lines == ("heli pays 300", "to car, level 2")


def test_language_setting_overrides_the_edition() -> None:
    h = Harness(config=UnitConfig(language="en"))
    assert h.screen.lines == ("New game", "Tap 2-4 bank cards")


def test_auction_seconds_follow_the_rules() -> None:
    h = Harness(rules=RulesConfig(auction_seconds=3.0))
    h.start(1, 2)
    h.tap("prop:5")
    h.press("menu")
    h.press("ok")
    assert h.screen.countdown == 3
    h.press("ok")
    out = h.wait(3)
    assert [s.countdown for s in screens_of(out)] == [2, 1, 0]
    h.tap("bank:2")
    assert h.owner_level(5) == (2, 1)


def test_every_confirmed_action_is_committed_before_it_is_shown() -> None:
    """The journal already holds the transaction when the unit returns its screen."""

    class Spy:
        def __init__(self) -> None:
            self.rows: list[dict[str, object]] = []

        def append(self, record: dict[str, object]) -> int:
            self.rows.append(record)
            return len(self.rows)

        def records(self):  # type: ignore[no-untyped-def]
            return iter(self.rows)

        def new_game(self, meta: dict[str, object]) -> int:
            return 1

    from bank.engine.game import Game
    from board_assets import load_edition

    spy = Spy()
    h = Harness(game=Game(load_edition("ultime-fr"), journal=spy))
    h.start(1, 2)
    h.tap("prop:1")
    n = len(spy.rows)
    out = h.tap("bank:1")
    assert len(spy.rows) == n + 1
    assert screens_of(out)[-1].name == "bought"
