"""Auctions, the auction series and bankruptcy (docs/classic.md §3.2, §3.12, §3.13, §5.5): the offer
of an unbought deed (✓ starts the auction), typed bids, the screens the shell's auction shows,
the series that auctions a bankrupt's deeds one by one, item 16's bankruptcy, the debt being
settled and the game's end.

Imports the unit's families, steps and the classic commands and outcomes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bank.engine.auction import Auction
from bank.engine.commands import AuctionSale, Command
from bank.engine.game import Transaction
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.unit.family import MAX_DIGITS, Family, Gestures
from bank.rulesets.classic.unit.menu import DEBT_ITEMS
from bank.rulesets.classic.unit.steps import (
    AuctionOffer,
    Bankruptcy,
    DeedCheck,
    Interest,
    Series,
)
from bank.unit.io import Button, CardId, Icon, Screen
from bank.unit.shell import Bidding, Finished, Idle, Settling

if TYPE_CHECKING:
    from bank.rulesets.classic.unit.core import ClassicUnit


class AuctionGestures(Family):
    """The auction offer, typed bids and the auction series."""

    def __init__(self, unit: ClassicUnit) -> None:
        super().__init__(unit)
        #: the auction series running: its deeds and the one being auctioned
        self.series: Series | None = None

    def gestures(self) -> dict[type, Gestures]:
        return {
            AuctionOffer: Gestures(tap=self.not_now, button=self._offer_button),
            Series: Gestures(tap=self.not_now, button=self._series_button),
            Bidding: Gestures(key=self._bid_key),
        }

    def _bid_key(self, step: Bidding, key: str) -> None:
        if key != "back" and len(step.typed) >= MAX_DIGITS:
            self._refuse("c.err.digits")  # refused, never cut: ⌫ takes the digits back
            return
        typed = step.typed[:-1] if key == "back" else step.typed + key
        step.auction.deadline = self._now + step.auction.seconds  # typing never loses it
        self.u._show_bidding(step.auction, typed)

    def _series_button(self, step: Series, button: Button) -> None:
        if button is Button.OK:
            self.series = step
            self.u._start_auction(step.deeds[step.at])
        elif button is Button.CANCEL:
            self.next_in_series(step)
        else:
            self._refuse("err.not_now")

    def sale_command(self, sale: AuctionSale) -> Command:
        if self.series is not None:  # a sale of the series is part of the bankruptcy (C13)
            return c.SeriesSale(sale.card, sale.number, sale.price)
        return sale

    def closed(self) -> None:
        if self.series is not None:
            self.next_in_series()

    def anonymous_winner_refused(self, auction: Auction) -> None:
        """An anonymous winner's card refused: the sale is given up, the deed stays unowned
        (§3.2, READINGS A3)."""
        self.step = Idle()
        scr = self.screens
        self._show(
            scr.screen(
                "auction_cancelled",
                scr.say("c.auction.none.1"),
                scr.say("c.auction.given_up"),
                number=auction.number,
            )
        )
        self.closed()

    def bankrupt_screen(self, tx: Transaction) -> Screen:
        done = tx.outcome
        card = done.card if isinstance(done, o.ClassicOutcome) and done.card else 0
        return self.screens.bankrupt(self._state, card)

    def offer_screen(self, number: int) -> Screen:
        scr = self.screens
        return scr.screen(
            "auction_offer",
            scr.deed_name(number),
            scr.say("c.auction.offer"),
            number=number,
            icons=frozenset({Icon.AUCTION}),
        )

    def _offer_button(self, step: AuctionOffer, button: Button) -> None:
        if button is Button.OK:
            self.u._start_auction(step.number)
        elif button is Button.MENU:
            self.step = DeedCheck(step.number, self._idle_expiry())
            self._show(self.u.landing.deed_screen(step.number))
        else:
            self._to_idle()

    def offer_series(self, series: Series) -> None:
        """Offer the next deed of the auction series: `Enchère 1/4 : titre 12`."""
        self.step = series
        scr = self.screens
        number = series.deeds[series.at]
        self._show(
            scr.screen(
                "auction_offer",
                scr.say("c.series.1", at=series.at + 1, of=len(series.deeds), n=number),
                scr.say("c.series.2"),
                number=number,
                icons=frozenset({Icon.AUCTION}),
            )
        )

    def next_in_series(self, series: Series | None = None) -> None:
        """After a series auction (sold, cancelled, passed): the next deed, or idle."""
        series = series or self.series
        self.series = None
        if series is not None and series.at + 1 < len(series.deeds):
            self.offer_series(Series(series.deeds, series.at + 1))
        elif series is not None and not isinstance(self.step, Finished | Settling | Interest):
            self._to_idle()

    def auction_screen(self, auction: Auction, shown: int, typed: str = "") -> Screen:
        scr = self.screens
        second = f"> {typed}" if typed else scr.say("c.auction.how", step=auction.step)
        return scr.screen(
            "auction",
            scr.say("c.auction.price", money=scr.money(auction.price)),
            second,
            amount=auction.price,
            number=auction.number,
            countdown=shown,
            token=scr.card_token(auction.bidder) if auction.bidder else None,
            # a typed bid is an entry open (§5.2, §5.5): the keypad icon while it stands
            icons=frozenset({Icon.AUCTION, Icon.KEYPAD}) if typed else frozenset({Icon.AUCTION}),
        )

    def won_screen(self, auction: Auction) -> Screen:
        scr = self.screens
        return scr.screen(
            "auction_end",
            scr.say("c.auction.won.1", money=scr.money(auction.price)),
            scr.say("c.auction.won.2"),
            amount=auction.price,
            number=auction.number,
        )

    def sold_screen(self, sale: AuctionSale) -> Screen:
        scr, card = self.screens, sale.card
        return scr.screen(
            "sold",
            scr.deed_name(sale.number),
            scr.say("c.auction.sold", token=scr.token(self._state, card), amount=sale.price),
            amount=sale.price,
            number=sale.number,
            token=scr.card_token(card),
            level=self._state.prop(sale.number).level,
        )

    def cancelled_screen(self, auction: Auction, no_bid: bool) -> Screen:
        scr = self.screens
        return scr.screen(
            "auction_cancelled", scr.say("c.auction.none.1"), scr.say("c.auction.none.2")
        )


class DebtGestures(Family):
    """Bankruptcy (item 16), the debt being settled and the game's end."""

    def gestures(self) -> dict[type, Gestures]:
        return {
            Bankruptcy: Gestures(tap=self._bankruptcy_tap, button=self._bankruptcy_button),
            Settling: Gestures(tap=self._settling_tap, button=self._settling_button),
            Finished: Gestures(tap=self._finished_tap),
        }

    def _bankruptcy_tap(self, step: Bankruptcy, card: CardId) -> None:
        debtor = self._state.debtor()
        if card.kind == "bank" and debtor is not None and card.number == debtor.card:
            tx = self._run(c.DeclareBankruptcy(card.number), self.u.auctions.bankrupt_screen)
            done = tx.outcome if tx is not None else None
            if isinstance(done, o.Bankrupt) and done.auction:
                self.u.auctions.offer_series(Series(done.auction, 0))
        else:
            self._refuse("err.not_now")

    def _bankruptcy_button(self, step: Bankruptcy, button: Button) -> None:
        if button is Button.CANCEL:
            self._back_to_idle()
        else:
            self._refuse("c.err.need_bank")

    def _settling_tap(self, step: Settling, card: CardId) -> None:
        if card.kind != "bank":
            self.u.shell_tap(card)
            return
        player = self._state.player(card.number)
        if self._playing(card.number) and player is not None:
            self._show(self.screens.balance(self._state, player))

    def _settling_button(self, step: Settling, button: Button) -> None:
        if button is Button.MENU:
            self.u.menu.open(DEBT_ITEMS[0])
        else:
            self.u.shell_button(button)

    def _finished_tap(self, step: Finished, card: CardId) -> None:
        if card.kind != "bank":
            self.u.shell_tap(card)
            return
        player = self._state.player(card.number)
        if player is None:
            self._refuse("err.not_player")
            return
        worth = self._rules.worth(self._state, card.number, self._rules.settings(self._state))
        self._show(self.screens.final(self._state, player, worth))
