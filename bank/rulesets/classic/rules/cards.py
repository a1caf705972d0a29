"""Chance and Community Chest (§4): the edition's card table, the generic effects of editions
without one (§4.5) and the virtual decks (READINGS D2).

Imports the core, this package's modules and the mixin below it in the engine's chain.
"""

from __future__ import annotations

import hashlib

from bank.engine.errors import RuleError
from bank.engine.ruleset import Decision
from bank.engine.state import GameState
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import mega
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic import questions as q
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.edition import GENERIC_EFFECTS
from bank.rulesets.classic.rules.core import DECKS, HOTEL
from bank.rulesets.classic.rules.dice import DiceRules
from bank.rulesets.classic.rules.tx import _Tx
from bank.rulesets.classic.state import DeckDrawn, classic


class CardRules(DiceRules):
    """Decides Chance and Community Chest cards, the generic effects and the virtual decks."""

    def is_jail_card(self, deck: str, number: int) -> bool:
        """Whether card *number* of *deck* is a "Get out of jail free" card."""
        entry = self.ed.cards.get((deck, number))
        return entry is not None and entry.effect == "jail_card"

    def _play_card(self, tx: _Tx, cfg: ClassicConfig, cmd: c.PlayCard) -> Decision:
        self._player(tx.state, cmd.card)
        card = self.ed.cards.get((cmd.deck, cmd.number))
        if card is None:
            raise RuleError(f"no {cmd.deck} card {cmd.number} in this edition", "unknown card")
        effect, args = card.effect, dict(card.args)
        if cmd.deck == "chest" and cmd.number == 14 and cfg.classic.chest14 == "nearest_station":
            effect = "nearest_station"
        spaces = self.ed.spaces(cmd.deck.upper())
        drawer = cmd.card
        cash_before = tx.balance(drawer)
        fine = self._fines_to_pot(cfg)
        amount = 0
        landing: o.ClassicOutcome | None = None
        draw: str | None = None
        if effect == "advance":
            dest = self.ed.deed(args["deed"]).position
            if args["salary"]:
                self._maybe_salary(tx, cfg, drawer, [dest < s for s in spaces], cmd.passed_go)
            landing = self._landing(tx, cfg, drawer, args["deed"], None, by_card=True)
        elif effect == "go":
            double = cfg.variants.double_go and cfg.variants.double_go_cards
            amount = self._salary(tx, drawer, double)
        elif effect in ("back", "nearest_station"):
            if effect == "back":
                targets = [(s - args["spaces"]) % len(self.ed.ring) for s in spaces]
            else:
                stations = sorted(self.ed.deed(n).position for n in self.ed.of_kind("station"))
                targets = [next((p for p in stations if p > s), stations[0]) for s in spaces]
            if cmd.choice is None or not 0 <= cmd.choice < len(targets):
                raise q.QuestionAsked(q.WhichSpace(len(targets)))
            target = targets[cmd.choice]
            space = self.ed.ring[target]
            if space == "TAX":
                amount = self._tax(tx, cfg, drawer, target)
            elif space.startswith("P"):
                landing = self._landing(tx, cfg, drawer, int(space[1:]), None, by_card=True)
            elif space in ("CHANCE", "CHEST"):
                draw = space.lower()
        elif effect == "jail":
            if not tx.state.player(drawer).jailed:  # type: ignore[union-attr]
                self._jail(tx, drawer)
        elif effect == "jail_card":
            if any(deck == cmd.deck for _, deck in tx.ext.jail_cards):
                raise RuleError(f"the {cmd.deck} jail card is held already", "card held")
            tx.set_field("jail_cards", (*tx.ext.jail_cards, (drawer, cmd.deck)))
            self._deck_out(tx, cmd.deck, cmd.number)  # kept: out of the virtual deck (E7)
        elif effect == "repairs":
            amount = self._repairs(tx.state, drawer, args)
            tx.must_pay(drawer, None, amount, "repairs", pot=fine)
        elif effect == "pay":
            amount = args["amount"]
            tx.must_pay(drawer, None, amount, "card", pot=fine)
        elif effect == "receive":
            amount = args["amount"]
            tx.move(None, drawer, amount, "card")
        elif effect == "birthday":
            amount = args["amount"]
            self._from_each(tx, drawer, amount)
        elif effect == "pay_or_draw":
            if cmd.choice not in (0, 1):
                raise q.QuestionAsked(q.PayOrChance())
            if cmd.choice == 0:
                amount = args["amount"]
                tx.must_pay(drawer, None, amount, "card", pot=fine)
            else:
                draw = "chance"
        if landing is not None:
            amount = landing.amount
        gained = tx.balance(drawer) >= cash_before
        played = o.CardPlayed(
            drawer, amount, cmd.deck, cmd.number, landing, draw, gained, tx.first_paid()
        )
        return tx.decision(played)

    def _maybe_salary(
        self, tx: _Tx, cfg: ClassicConfig, card: int, passes: list[bool], answer: bool | None
    ) -> None:
        """GO passed on the way: from the ring when it tells, else the player's answer (§4.1)."""
        if all(passes) or not any(passes):
            passed = all(passes)
        elif answer is None:
            raise q.QuestionAsked(q.PassedGo())
        else:
            passed = answer
        if passed:
            self._salary(tx, card, False)

    def _repairs(self, state: GameState, card: int, amounts: dict[str, int]) -> int:
        """So much per house and per hotel; Méga: per skyscraper (default: as a hotel) and
        per depot (default: nothing), §4.6."""
        house, hotel = amounts["house"], amounts["hotel"]
        skyscraper, depot = amounts.get("skyscraper", hotel), amounts.get("depot", 0)
        depots = classic(state).depots
        total = 0
        for n in state.owned_by(card):
            level = state.prop(n).level or 0
            if level == mega.SKYSCRAPER:
                total += skyscraper
            else:
                total += hotel if level == HOTEL else level * house
            total += depot if n in depots else 0
        return total

    def _from_each(self, tx: _Tx, drawer: int, amount: int) -> None:
        for p in tx.state.players:
            if p.card != drawer and not p.bankrupt:
                tx.must_pay(p.card, drawer, amount, "birthday")

    def _generic(self, tx: _Tx, cfg: ClassicConfig, cmd: c.GenericCard) -> Decision:
        """§4.5 G1-G8, offered by editions without a card table (A17)."""
        self._player(tx.state, cmd.card)
        if self.ed.card_table:
            raise RuleError("this edition has its card table", "unknown card")
        effect = GENERIC_EFFECTS.get(cmd.effect)
        if effect is None or effect.moves:
            raise RuleError(f"no generic effect G{cmd.effect} from the menu", "unknown card")
        if len(cmd.amounts) != effect.amounts or any(a <= 0 for a in cmd.amounts):
            raise RuleError("an amount is required", "amount required")
        fine = self._fines_to_pot(cfg)
        drawer = cmd.card
        amount = cmd.amounts[0] if cmd.amounts else 0
        if cmd.effect == 1:
            tx.move(None, drawer, amount, "card")
        elif cmd.effect == 2:
            tx.must_pay(drawer, None, amount, "card", pot=fine)
        elif cmd.effect == 3:
            amounts = {"house": cmd.amounts[0], "hotel": cmd.amounts[1]}
            amount = self._repairs(tx.state, drawer, amounts)
            tx.must_pay(drawer, None, amount, "repairs", pot=fine)
        elif cmd.effect == 4:
            self._from_each(tx, drawer, amount)
        elif cmd.effect == 5:
            for p in tx.state.players:
                if p.card != drawer and not p.bankrupt:
                    tx.must_pay(drawer, p.card, amount, "card")
        elif cmd.effect == 6:
            if not tx.state.player(drawer).jailed:  # type: ignore[union-attr]
                self._jail(tx, drawer)
        elif cmd.effect == 7:
            tx.set_field("jail_cards", (*tx.ext.jail_cards, (drawer, cmd.deck)))
        else:
            amount = self._salary(
                tx, drawer, cfg.variants.double_go and cfg.variants.double_go_cards
            )
        return tx.decision(o.GenericPlayed(drawer, amount, cmd.effect, tx.first_paid()))

    def deck_order(self, seed: int, deck: str) -> tuple[int, ...]:
        """The shuffled order of a virtual deck (docs/readings.md D2)."""
        return tuple(
            sorted(
                range(1, 17),
                key=lambda n: hashlib.sha256(f"{seed}:{deck}:{n}".encode()).digest(),
            )
        )

    def _draw(self, tx: _Tx, cfg: ClassicConfig, cmd: c.DrawCard) -> Decision:
        """The top card of a virtual deck, which goes under it at once (D2, E5); a jail card
        held is out of the deck, so it is never drawn."""
        if not cfg.variants.virtual_decks:
            raise RuleError("the unit has no virtual decks in this game", "no virtual decks")
        order = tx.ext.deck(cmd.deck)
        if cmd.deck not in DECKS or not self.ed.card_table or not order:
            raise RuleError(f"no {cmd.deck} table in this edition", "unknown card")
        tx.emit(DeckDrawn(cmd.deck))
        return tx.decision(o.Drawn(None, 0, cmd.deck, order[0]))
