"""Star Wars Episode II's Force (docs/classic.md §7.1): the sides and the Force battle.

Each bank card is a character with its side, read from the edition's ``sides`` (§1.5):
registration asks nothing more. The Force battle (menu item 14, then the lander's card) is
judged, under ``starwars.force_rule = "die"`` (the default), on the face of the Force die of
the lander's roll: the square of the character's side wins, the other square or the Force
shift loses. The unit knows that face when the lander's roll is the latest it made, otherwise
it asks. Under ``"symbol"`` the symbol met is asked: one's own side's symbol wins. A won
battle moves no money (the player moves the symbol on the board: the bank does not follow
the symbols, **decision** of §7.1); a lost one charges ``starwars.force_penalty`` (200) as a
payment the player must make (debt rules; a fine for the Free Parking pot under
``variants.free_parking = "taxes_and_fines"``). A battle is a transaction: undo cancels it.

Imports the core's errors and state, and this package's state, commands and outcomes.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from bank.engine.errors import RuleError
from bank.engine.ruleset import Decision
from bank.engine.state import GameState
from bank.rulesets.classic import commands as c
from bank.rulesets.classic import outcomes as o
from bank.rulesets.classic.config import FORCE_FACES, ClassicConfig
from bank.rulesets.classic.edition import ClassicEdition
from bank.rulesets.classic.questions import ForceFace, QuestionAsked
from bank.rulesets.classic.state import classic

if TYPE_CHECKING:  # the engine imports this module
    from bank.rulesets.classic.rules import ClassicRulesEngine
    from bank.rulesets.classic.rules.tx import _Tx

#: what may be asked, by reading: the Force die's faces, or the symbols
ASKED = {"die": ("light", "dark", "shift"), "symbol": ("light", "dark")}
#: the Force die of §6.3 (**decision**, **L**: the sticker sheet is not in the rule book)
DEFAULT_FACES = ("shift", "shift", "light", "light", "dark", "dark")


def side_of(engine: ClassicRulesEngine, card: int) -> str | None:
    """Bank card *card*'s side (``light`` or ``dark``), None in an edition without sides."""
    return engine.variant.side_of(card)


def rolled_face(state: GameState, card: int) -> str | None:
    """The Force die's face of *card*'s roll when it is the latest the unit made, else None
    (another card's roll, an anonymous one, a ``lancer`` pick, which rolls two dice)."""
    ext = classic(state)
    last = ext.last_roll
    if last is None or last[0] != card or ext.third not in FORCE_FACES:
        return None
    return ext.third


def is_force_die(faces: tuple[str, ...]) -> bool:
    """Whether an edition's third die is a Force die (every face ``light``, ``dark``,
    ``shift``)."""
    return bool(faces) and all(f in FORCE_FACES for f in faces)


def with_faces(cfg: ClassicConfig, ed: ClassicEdition) -> ClassicConfig:
    """*cfg* with ``starwars.force_faces`` resolved for recording: the configured faces, else
    the edition's Force die, else the §6.3 default."""
    if cfg.starwars.force_faces is not None:
        return cfg
    faces = ed.third_die if is_force_die(ed.third_die) else DEFAULT_FACES
    return replace(cfg, starwars=replace(cfg.starwars, force_faces=faces))


def die_faces(cfg: ClassicConfig, ed: ClassicEdition) -> tuple[str, ...]:
    """The faces of the unit's Force die in this game: ``starwars.force_faces`` replaces the
    edition's when the edition rolls a Force die."""
    if is_force_die(ed.third_die) and cfg.starwars.force_faces is not None:
        return cfg.starwars.force_faces
    return ed.third_die


def battle(engine: ClassicRulesEngine, tx: _Tx, cfg: ClassicConfig, cmd: c.ForceBattle) -> Decision:
    """Decide *cmd*: won (nothing moves) or lost (the penalty, a due payment)."""
    engine._player(tx.state, cmd.card)
    side = side_of(engine, cmd.card)
    if side is None:
        raise RuleError("this edition has no Force", "no force")
    rule = cfg.starwars.force_rule
    known = rolled_face(tx.state, cmd.card) if rule == "die" else None
    face = known or cmd.face
    if face is None:
        raise QuestionAsked(ForceFace(rule))
    if face not in ASKED[rule]:
        raise RuleError(f"no {face!r} in the {rule} reading", "force face?", reading=rule)
    if known is not None and cmd.face not in (None, known):
        raise RuleError(f"the unit rolled {known}", "force known", face=known)
    if face == side:
        return tx.decision(o.ForceFought(cmd.card, 0, True, face, 0, known is not None))
    penalty = cfg.starwars.force_penalty
    owed = tx.must_pay(cmd.card, None, penalty, "force", pot=engine._fines_to_pot(cfg))
    return tx.decision(o.ForceFought(cmd.card, penalty, False, face, owed, known is not None))
