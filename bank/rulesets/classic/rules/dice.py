"""The unit's dice (READINGS D1): seeded rolls, the third die, doubles and the jail tries.

Imports the core, this package's modules and the mixin below it in the engine's chain.
"""

from __future__ import annotations

import hashlib

from bank.engine.errors import RuleError
from bank.engine.ruleset import Decision
from bank.engine.state import GameState
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.rules.trades import TradeRules
from bank.rulesets.classic.rules.tx import _Tx
from bank.rulesets.classic.state import classic, push_roller


def die(seed: int, k: int, i: int) -> int:
    """Die *i* of roll *k* of a game seeded *seed* (docs/readings.md D1)."""
    digest = hashlib.sha256(f"{seed}:{k}:{i}".encode()).digest()
    return 1 + int.from_bytes(digest[:8], "big") % 6


class DiceRules(TradeRules):
    """Decides the unit's rolls."""

    def third_faces(self, cfg: ClassicConfig) -> tuple[str, ...]:
        """The faces of the unit's third die in this game (empty: two dice only)."""
        return self.variant.third_faces(cfg)

    def _third(self, state: GameState, cfg: ClassicConfig, cmd: c.RollDice, k: int) -> str | None:
        """The third die of roll *k*: the fixed face, else drawn (READINGS D1, die 2); None
        without one, for a ``lancer`` pick, and for a jailed roller where the edition rolls
        only the white dice in jail (E1: a fixed face is then dropped)."""
        faces = self.third_faces(cfg)
        if not faces or cmd.pick:
            return None
        player = state.player(cmd.card) if cmd.card is not None else None
        if player is not None and player.jailed and not self.ed.third_die_in_jail:
            return None
        if cmd.third is not None:
            if cmd.third not in faces:
                raise RuleError(f"the third die has no face {cmd.third!r}", "bad roll")
            return cmd.third
        return faces[die(classic(state).seed, k, 2) - 1]

    def _roll(self, tx: _Tx, cfg: ClassicConfig, cmd: c.RollDice) -> Decision:
        ext = tx.ext
        if cmd.card is not None:
            self._player(tx.state, cmd.card)
        k = ext.rolls + 1
        if cmd.fixed:
            if len(cmd.fixed) != 2 or not all(1 <= d <= 6 for d in cmd.fixed):
                raise RuleError("a roll is two dice of 1..6", "bad roll")
            d1, d2 = cmd.fixed
        else:
            d1, d2 = die(ext.seed, k, 0), die(ext.seed, k, 1)
        third = self._third(tx.state, cfg, cmd, k)
        number = int(third) if third is not None and third.isdigit() else 0
        tx.emit(push_roller(ext.rollers, cmd.card))  # the roll counted (k), its roller kept
        card = cmd.card
        # §7.2: a triple (the speed die's number on a double) is not a double (E2)
        triple = d1 == d2 == number
        double = d1 == d2 and not triple
        doubles = 0
        effect = o.RollEffect.NONE
        jail_try = 0
        if card is None:
            pass
        elif cmd.pick:
            tx.set_field("row", None)
        else:
            player = tx.state.player(card)
            assert player is not None
            if player.jailed:
                tx.set_field("row", None)
                if double:
                    self._free(tx, card)
                    effect = o.RollEffect.FREED
                else:
                    tries = ext.tries(card) + 1
                    if tries >= self.ed.jail_tries:
                        self._free(tx, card)
                        tx.must_pay(card, None, self.ed.jail_fee, "jail", self._fines_to_pot(cfg))
                        effect = o.RollEffect.FEE
                    else:
                        others = tuple(t for t in ext.jail_tries if t[0] != card)
                        tx.set_field("jail_tries", (*others, (card, tries)))
                        effect, jail_try = o.RollEffect.TRY, tries
            else:
                row = ext.row
                doubles = (row[1] + 1 if row and row[0] == card else 1) if double else 0
                if doubles >= 3:
                    self._jail(tx, card)
                    tx.set_field("row", None)
                    effect = o.RollEffect.THREE_DOUBLES
                else:
                    tx.set_field("row", (card, doubles) if doubles else None)
        if triple and effect is o.RollEffect.NONE:
            effect = o.RollEffect.TRIPLE
        tx.set_field("last_roll", (card, d1, d2, doubles))
        tx.set_field("third", third)
        rolled = o.Rolled(card, d1 + d2 + number, (d1, d2), doubles, effect, third, jail_try)
        return tx.decision(rolled)
