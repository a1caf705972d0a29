"""The classic unit's screens (docs/classic.md §5.5), through the core's screen model.

Extends :class:`bank.unit.screens.Screens`: the same two lines, ``amount``, ``number``,
``token`` (the player's script name), ``level`` and ``icons``, so that panels need not know
classic. Each method returns a screen whose lines are fitted to the 2x20 LCD, and, where
they differ, the same lines written for the emulator's 25-cell glass (``wide``: whole street
names, the long wordings); a line whose words depend on the room is a :data:`Line` function
of the width, and no width ever cuts a number (issue 19). The line helpers live in
:mod:`.screen_lines`, the screens of play (deeds, entries, menu, sessions, trade) in
:mod:`.screens_play`; this module adds the shell's, the dice's, the Force's, the cards' and the
undo's screens, and re-exports :data:`Line`.
"""

from __future__ import annotations

import re

from bank.engine.events import MoneyMoved
from bank.engine.ruleset import Undone
from bank.engine.state import GameState, PlayerState
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.config import FORCE_FACES
from bank.rulesets.classic.screen_lines import _NO_ICONS, Line
from bank.rulesets.classic.screens_play import ClassicPlayScreens
from bank.rulesets.classic.state import classic
from bank.unit.io import Icon, Screen
from bank.unit.text import LCD_WIDTH, MESSAGES

__all__ = ["ClassicScreens", "Line"]


class ClassicScreens(ClassicPlayScreens):
    """The classic screens for one edition in one language."""

    # ------------------------------------------------------------ the shell's screens

    def idle(self) -> Screen:
        return self.screen("idle", self.words("c.idle.1"), self.words("c.idle.2"))

    def balance(self, state: GameState, player: PlayerState) -> Screen:
        held = len(classic(state).cards_of(player.card))
        key = "balance.1.jailed" if player.jailed else "balance.1"
        second = (
            self.words("c.balance.2", money=self.money(player.balance), cards=held)
            if held
            else self.words("balance.2", money=self.money(player.balance))
        )
        return self.screen(
            "balance",
            self.words(key, token=self.token(state, player.card)),
            second,
            amount=player.balance,
            token=player.token,
            icons=frozenset({Icon.JAIL}) if player.jailed else _NO_ICONS,
        )

    def final(self, state: GameState, player: PlayerState, worth: int) -> Screen:
        """After the game: a bank card's final balance and worth (§5.3)."""
        return self.screen(
            "balance",
            f"{self.token(state, player.card)} {self.money(player.balance)}",
            self.words("c.worth", money=self.money(worth)),
            amount=player.balance,
            token=player.token,
        )

    def game_started(self, state: GameState) -> Screen:
        start = self.ed.start_balance
        return self.screen(
            "game_started",
            self.words("new.started.1"),
            self.words("new.started.2", n=len(state.players), money=self.money(start)),
            amount=start,
        )

    def game_over(self, state: GameState) -> Screen:
        """The first four places, two a line, each name whole (issue 19: `2.Mace Win…`): two
        spaces between places, one where two do not fit, the names shortened before a line
        would be cut; the whole ranking is the `scores` info screen's."""
        ranked = list(state.ranking) or [p.card for p in state.players]
        names = [self.token(state, card) for card in ranked][:4]

        def line(row: int) -> Line:
            def at(width: int) -> str:
                for cut in (None, 8, 6, 5, 4, 3):
                    for gap in ("  ", " "):
                        text = gap.join(
                            f"{i}.{names[i - 1][:cut]}"
                            for i in range(2 * row + 1, min(len(names), 2 * row + 2) + 1)
                        )
                        if len(text) <= width:
                            return text
                return text

            return at

        winner = state.player(state.winner) if state.winner is not None else None
        return self.screen(
            "game_over",
            line(0),
            line(1) if len(names) > 2 else "",
            amount=winner.balance if winner else None,
            token=winner.token if winner else None,
            icons=frozenset({Icon.TROPHY}),
        )

    def debt(self, state: GameState, debtor: PlayerState, can: int | None = None) -> Screen:
        """`voiture doit 360 à chien` / `Encore possible 180` (what selling and mortgaging can
        still raise); the creditor is left out when the line would not fit."""
        token, creditor = self.token(state, debtor.card), self.token(state, debtor.creditor)
        to = MESSAGES["c.debt.to"][self.lang].format(
            token=token, amount=debtor.debt, creditor=creditor
        )
        owes = MESSAGES["c.debt.1"][self.lang].format(token=token, amount=debtor.debt)

        def first(width: int) -> str:
            return to if len(to) <= width else owes

        second = (
            self.words("c.debt.2", creditor=creditor)
            if can is None
            else self.words("c.debt.can", can=can)
        )
        return self.screen(
            "debt",
            first,
            second,
            amount=debtor.debt,
            token=debtor.token,
            icons=frozenset({Icon.DEBT}),
        )

    # ------------------------------------------------------------ dice, cards, bankruptcy

    def dice(
        self,
        state: GameState,
        card: int | None,
        dice: tuple[int, int],
        second: str,
        third: str | None = None,
    ) -> Screen:
        """`chien : 3 + 4 = 7` / `double`: the text carries the dice (§8.3's transcript line).

        The Force shift (the symbols move) lights the Force icon. A third die showing a number
        is added on line 1 (`chien : 3+4+2=9`, written tight to
        fit 20 cells); a symbol face (`M. Monopoly`, `Bus`, ...) is named on line 2, after
        what the white dice did (`double · Bus`). The text carries every die, so a panel
        shows the third die without knowing it.
        """
        a, b = dice
        token = self.token(state, card) if card is not None else None
        first: Line
        shown: Line = second
        if third is not None and third.isdigit():
            n = int(third)
            key = "c.dice.anon3" if card is None else "c.dice.3"
            first = self.tight(key, token=token, a=a, b=b, c=n, total=a + b + n)
        else:
            key = "c.dice.anon" if card is None else "c.dice.1"
            first = self.tight(key, token=token, a=a, b=b, total=a + b)
            if third in FORCE_FACES:
                done, face = second, third

                def shown(width: int) -> str:
                    return self.force_face(done, face, dice, width)

            elif third is not None:
                face = self.face(third)
                shown = f"{second} · {face}" if second else face
        return self.screen(
            "dice",
            first,
            shown,
            token=self.card_token(card) if card is not None else None,
            icons=frozenset({Icon.FORCE}) if third == "shift" else _NO_ICONS,
        )

    def force(self, state: GameState, done: o.ForceFought) -> Screen:
        """The Force battle's result (§7.1): `Force vaincue` / `déplacez le symbole`, or
        `Vaincu par la Force` / `Dooku −200` and the balance left."""
        card = done.card or 0
        if done.won:
            first, second = self.words("c.force.won.1"), self.words("c.force.won.2")
        else:
            first = self.words("c.force.lost.1")
            second = self.words("c.force.lost.2", token=self.token(state, card), amount=done.amount)
        return self.screen(
            "force",
            first,
            second,
            amount=done.amount or None,
            token=self.card_token(card),
            icons=frozenset({Icon.FORCE}),
        )

    def tight(self, key: str, token: str | None, **dice: int) -> Line:
        """A dice line, for each width: as worded, else written tight (`Mace Windu : 5+6=11`),
        else with the token shortened: the dice and their total are never cut (issue 19)."""
        text = MESSAGES[key][self.lang]

        def at(width: int) -> str:
            for cut in (None, 8, 6, 4):
                line = text.format(token=(token or "")[:cut], **dice)
                squeezed = re.sub(r" ([+=]) ", r"\1", line)
                if len(line) <= width or len(squeezed) <= width:
                    break
            return line if len(line) <= width else squeezed

        return at

    def face(self, third: str) -> str:
        """The LCD name of a third die's face (``c.die.<face>``; the face itself without one)."""
        key = f"c.die.{third}"
        return self.say(key) if key in MESSAGES else third

    def force_face(
        self, second: str, third: str, dice: tuple[int, int], width: int = LCD_WIDTH
    ) -> str:
        """Line 2 of a roll with the Force die (§7.1): what the dice did, then the face. The
        Force shift says how far each symbol moves, by the white (light symbol) and the black
        die (dark symbol): `clair +3 · obscur +4`, on a double `double · bascule +3`; a square
        is `carré clair` (`double · clair`). Beside a jail effect that leaves no room, the
        face is left out (the state file and the transcript's state keep it); the glass's
        *width* of 25 cells takes the long wording where the 20 cells cannot."""
        a, b = dice
        if third == "shift":
            long = short = (
                self.say("c.die.shift.same", n=a)
                if a == b
                else self.say("c.die.shift", light=a, dark=b)
            )
        else:
            long, short = self.face(third), self.say(f"c.die.{third}.short")
        if not second:
            return long
        for face in (long, short):
            if len(f"{second} · {face}") <= width:
                return f"{second} · {face}"
        return second

    def no_free_deed(self) -> Screen:
        """Méga's Auction space when every deed is owned: the auction icon says so (§7.2)."""
        return self.screen(
            "error",
            self.words("c.err.no_free_deed"),
            icons=frozenset({Icon.AUCTION, Icon.ERROR}),
        )

    def card(self, deck: str, number: int) -> Screen:
        """A Chance or Community Chest card tapped: its title, and who drew it?"""
        entry = self.ed.cards.get((deck, number))
        title = entry.title if entry is not None else f"{self.ed.deck_names[deck]} {number}"
        return self.screen(
            "card", title, self.words("c.card.who"), number=number, icons=frozenset({Icon.CARD})
        )

    def card_done(
        self, state: GameState, deck: str, number: int, card: int, text: Line, amount: int
    ) -> Screen:
        entry = self.ed.cards.get((deck, number))
        title = entry.title if entry is not None else f"{self.ed.deck_names[deck]} {number}"
        return self.screen(
            "card_done",
            title,
            text,
            number=number,
            amount=amount,
            token=self.card_token(card),
            icons=frozenset({Icon.CARD}),
        )

    def bankrupt(self, state: GameState, card: int, ask: bool = False) -> Screen:
        """`Faillite : voiture`; *ask*: the debtor's card confirms it."""
        return self.screen(
            "bankrupt",
            self.words("c.bankrupt", token=self.token(state, card)),
            self.words("c.bankrupt.ask") if ask else "",
            token=self.card_token(card),
            icons=frozenset({Icon.DEBT}),
        )

    def info(
        self, title: Line, second: Line, token: str | None = None, amount: int | None = None
    ) -> Screen:
        """An info screen (§5.6): it changes nothing and goes back to idle after 10 s."""
        return self.screen("info", title, second, token=token, amount=amount)

    def undone(self, state: GameState | None = None, done: Undone | None = None) -> Screen:
        """What an undo undid, as its journalled outcome says (*done*: the undone
        transactions' outcomes), in *state* (after the undo): ``Annulé : achat`` / ``28 Rue
        de la Paix``, ``Annulé : loyer`` / ``dé → chien 250 €``; ``Annulé / Dernière
        opération`` when nothing says."""
        told = undone_words(done) if state is not None and done is not None else None
        if told is None:
            return super().undone()
        say = self.say
        key, number, paid = told
        second: Line
        if number is not None:
            what, second = say(f"c.undone.{key}"), self.deed_line(number)
        else:
            assert paid is not None
            what = _REASON_WORDS.get(self.lang, {}).get(paid.reason, "") or paid.reason
            if not what:
                what = say("c.undone.money")
            assert state is not None
            second = self.money_line(state, paid)
        return self.screen("undo", say("c.undone", what=what), second, icons=frozenset({Icon.UNDO}))

    def deed_line(self, number: int) -> Line:
        """``28 Rue de la Paix`` in each width (the number always whole)."""
        return self.deed_title(number)

    def money_line(self, state: GameState, move: MoneyMoved) -> Line:
        """``dé → chien 250 €``, ``voiture +150 €`` (from the bank), ``chien −200 €`` (to the
        bank), in each width: the tokens shortened before the amount is ever cut."""
        return lambda width: self._money_line(state, move, width)

    def _money_line(self, state: GameState, move: MoneyMoved, width: int) -> str:
        money = self.money(move.amount)
        for cut in (width, 6, 4, 3):
            if move.payer is None:
                line = f"{self.token(state, move.payee)[:cut]} +{money}"
            elif move.payee is None:
                line = f"{self.token(state, move.payer)[:cut]} −{money}"
            else:
                payer = self.token(state, move.payer)[:cut]
                line = f"{payer} → {self.token(state, move.payee)[:cut]} {money}"
            if len(line) <= width:
                return line
        return line


def undone_words(done: Undone) -> tuple[str, int | None, MoneyMoved | None] | None:
    """What an undo's screen names, from the undone transactions' outcomes (first one first):
    a deed bought (``bought``), traded, built on or sold off, with its number; else the
    first money the transactions moved (who paid whom, what was paid, and why); None when
    they did neither."""
    outs = [x for x in done.outcomes if isinstance(x, o.ClassicOutcome)]
    for x in outs:
        landing = x.landing if isinstance(x, o.CardPlayed) else x
        if isinstance(landing, o.Bought | o.AuctionWon):
            return "bought", landing.number, None
    for x in outs:
        if isinstance(x, o.Traded) and x.deeds:
            return "traded", x.deeds[0], None
    for x in outs:
        if isinstance(x, o.Built | o.BuildingSold) and x.amount:
            return ("built" if isinstance(x, o.Built) else "sold"), x.number, None
    for x in outs:
        paid = _money_of(x)
        if paid is not None and paid.amount > 0:
            return "money", None, paid
    return None


def _money_of(x: o.ClassicOutcome) -> MoneyMoved | None:
    """The money transaction *x* moved first: payer, payee (None: the bank), the cash paid
    (a charge less what it left owed) and why."""
    card = x.card
    if isinstance(x, o.RentPaid):
        return MoneyMoved(card, x.owner, x.amount - x.owed, "rent")
    if isinstance(x, o.TaxPaid | o.PaidBank | o.InterestAnswered | o.ForceFought):
        reason = _CHARGES[type(x)]
        return MoneyMoved(card, None, x.amount - x.owed, reason)
    if isinstance(x, o.LeftJail) and x.how == "fee":
        return MoneyMoved(card, None, x.amount, "jail")
    if isinstance(x, o.Lifted):
        return MoneyMoved(card, None, x.amount, "lift")
    if isinstance(x, o.Salary | o.Received | o.PotCollected | o.Gift | o.Mortgaged):
        return MoneyMoved(None, card, x.amount, _GAINS[type(x)])
    if isinstance(x, o.Traded):
        payer = x.cash_from if x.cash_from is not None else card
        return MoneyMoved(payer, x.partner if payer == card else card, x.amount, "trade")
    if isinstance(x, o.CardPlayed | o.GenericPlayed) and x.paid is not None:
        paid = x.paid
        return MoneyMoved(paid.payer, paid.payee, paid.amount, paid.reason)
    return None


#: the reason of what a charge paid the bank
_CHARGES: dict[type, str] = {
    o.TaxPaid: "tax",
    o.PaidBank: "fine",
    o.InterestAnswered: "interest",
    o.ForceFought: "force",
}
#: the reason of what the bank paid
_GAINS: dict[type, str] = {
    o.Salary: "go",
    o.Received: "bank",
    o.PotCollected: "pot",
    o.Gift: "gift",
    o.Mortgaged: "mortgage",
}


#: a money move's reason as an undo names it
_REASON_WORDS: dict[str, dict[str, str]] = {
    "fr": {
        "rent": "loyer",
        "purchase": "achat",
        "auction": "enchère",
        "go": "départ",
        "jail": "prison",
        "tax": "taxe",
        "fine": "amende",
        "bank": "banque",
        "pot": "parc gratuit",
        "lift": "levée",
        "mortgage": "hypothèque",
        "interest": "intérêts",
        "repairs": "réparations",
        "card": "carte",
        "birthday": "anniversaire",
        "gift": "cadeau",
        "force": "Force",
        "debt": "dette",
        "trade": "échange",
    },
    "en": {
        "rent": "rent",
        "purchase": "purchase",
        "auction": "auction",
        "go": "GO",
        "jail": "jail",
        "tax": "tax",
        "fine": "fine",
        "bank": "bank",
        "pot": "Free Parking",
        "lift": "lift",
        "mortgage": "mortgage",
        "interest": "interest",
        "repairs": "repairs",
        "card": "card",
        "birthday": "birthday",
        "gift": "gift",
        "force": "Force",
        "debt": "debt",
        "trade": "trade",
    },
}
