"""A classic unit that never gets stuck: a hypothesis state machine over the whole unit.

Every edition of the classic rules (classic-fr, classic-uk, Méga fr and uk, Star Wars II, One
Piece), 2 to 8 players (One Piece: 6), a few variants (the Free Parking pot, double GO,
no purchase on the first lap, the jailed owner, the bankruptcy to the bank, virtual decks), and
random gestures, legal and illegal alike: taps of bank cards (players or not), deeds, Chance and
Community Chest cards and cards of the other ruleset, keypad keys, ✓ M X, holds, waits, rigged
rolls, info screens, power cuts anywhere (also in the middle of a gesture), and whole gestures
that take a game deep (landings, the menu's items with a card and an amount, sessions, trades,
cards, auctions, the dice). Each gesture is a line of a tap script (docs/classic.md §8.2) run by the
script runner on a real journal, so a failure prints a tap script that reproduces it.

After every input and gesture:

- a refused input (the error cue) changes no game state and leaves the unit in the step it
  was in (docs/classic.md §5: "the step stays as it was"; ``refusal_may_move`` lists the refusals
  the spec's readings let move on), and the bank card of a player not in the game, or
  eliminated, is refused wherever it is tapped, the step unchanged (§3.13: "their bank card
  is refused from then on");
- a debt is never a dead end: bankruptcy, or a sale or a mortgage of one of the debtor's
  deeds, is accepted; an interest question takes ✓ or M;
- from any step, at most three X presses bring the unit back to rest (idle, or a step the
  game state holds: a debt, an interest question, the game's end, the registration). Pressed on
  a copy of the unit, so the random game goes on where it was. What the spec itself makes
  longer is allowed on top of the three: an amount entry's X takes back one digit or note at a
  time (§5.2), an auction series' X passes one deed (§3.13), and an auction with a bid runs
  its countdown out (X is ignored after the first bid, READINGS C1);
- the journal replayed gives the live state (and the same ``undo_available``);
- a power cut restores the last committed state (the game re-opened from its journal), with
  the debt or interest question open, nothing else (§5.3);
- undo (hold ✓ + X) after the gestures from idle to idle that committed one transaction (and
  what joined it: a debt it opened and the sales that settled it, the interest answers)
  gives the state before those gestures, and the same gestures played again give the same
  state as the first time;
- money is conserved: between two journal records, the players' cash changes by what the
  bank paid out less what it took in, and the Free Parking pot by what the payments the pot
  collects (§3.5, §6.2, READINGS A6, A16) brought in, less what a collection took out (the
  pot then refilled to its seed); a bankrupt player keeps no cash (READINGS A9);
- the invariants of ``tests/rulesets/test_classic_invariants.py`` (building stock, even
  building, owners, no negative balance, debts) hold, and no LCD line is over 20 cells.

``ULTIBANK_FUZZ_EXAMPLES`` sets the number of examples (default 40) and
``ULTIBANK_FUZZ_STEPS`` the gestures per example (default 40).
"""

from __future__ import annotations

import copy
import io
import os
import shutil
import tempfile
from dataclasses import dataclass, is_dataclass, replace
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

from bank import rulesets
from bank.app.script import ScriptRunner, _ruleset_config, _with_foreign, parse_script
from bank.engine.commands import NewGame, Undo
from bank.engine.events import MoneyMoved, apply
from bank.engine.game import Game
from bank.engine.records import decode
from bank.engine.state import GameState
from bank.rulesets.classic.config import ClassicConfig
from bank.rulesets.classic.edition import classic_edition
from bank.rulesets.classic.state import classic
from bank.rulesets.classic.unit import (
    DeedCheck,
    Entry,
    Interest,
    Offer,
    Series,
    Session,
)
from bank.unit.io import (
    Button,
    ButtonPressed,
    ButtonReleased,
    CardId,
    CardLifted,
    CardRanges,
    CardTapped,
    Cue,
    Input,
    KeyPressed,
    KeyReleased,
    Output,
    PlayCue,
    ShowScreen,
    Tick,
)
from bank.unit.shell import (
    AwaitWinner,
    Bidding,
    Finished,
    Idle,
    JailChoice,
    Off,
    Registration,
    Settling,
)
from bank.unit.text import LCD_WIDTH
from board_assets import load_edition
from tests.rulesets.test_classic_invariants import check_invariants
from tests.support.fakes import MemoryJournal

EDITIONS = ("classic-fr", "classic-uk", "mega-fr", "mega-uk", "starwars-ep2-fr", "one-piece-fr")
#: the steps at rest: nothing in progress but what the game state holds
REST = (Idle, Settling, Finished, Registration, Interest)
#: seconds of the unit's clock an undo check needs without the time limit striking: the 5.5 s
#: hold, then the same gestures made again
UNDO_MARGIN = 60.0
#: the payments the Free Parking pot collects (§3.5, §6.2), by the journal's reason
POT_REASONS = {
    "off": frozenset(),
    "taxes": frozenset({"tax"}),
    "taxes_and_fines": frozenset({"tax", "fine", "jail", "card", "repairs", "force"}),
}

# ------------------------------------------------------------------ the gestures
# Lines are written for an 8-player, 37-deed, third-die edition; ``Table.fit`` folds them into
# the edition drawn (bank cards and deeds modulo its own, the third die among its faces).

banks = st.integers(1, 8).map(lambda n: f"tap bank:{n}")
deeds = st.integers(1, 37).map(lambda n: f"tap deed:{n}")
decks = st.tuples(st.sampled_from(["chance", "chest"]), st.integers(1, 16)).map(
    lambda t: f"tap {t[0]}:{t[1]}"
)
digits = st.integers(0, 99).map(lambda n: f"key {n}")
amounts = st.sampled_from([1, 10, 50, 100, 200, 500, 1450, 2000, 9999]).map(lambda n: f"key {n}")
rolls = st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(0, 5)).map(
    lambda d: f"roll {d[0]} {d[1]} T{d[2]}"
)
buttons = st.sampled_from(["press ok", "press menu", "press cancel"])
single = st.one_of(
    banks,
    deeds,
    decks,
    buttons,
    digits,
    st.sampled_from(
        [
            "key back",
            "tap prop:3",  # a card of the Ultime ruleset
            "info scores",
            "info deed",
            "info table",
            "wait 1",
            "wait 10.5",
            "wait 31",
            "wait 61",
            "hold ok+cancel 5.5",
            "hold cancel 2",
            "hold cancel 5.5",  # reset: the game archived, a new one registered (rule register)
        ]
    ),
    rolls,
)


def _join(*parts: str | list[str]) -> list[str]:
    out: list[str] = []
    for p in parts:
        out.extend([p] if isinstance(p, str) else p)
    return out


item = st.integers(1, 16).map(lambda n: f"key {n}")
landing = st.tuples(deeds, banks).map(lambda t: _join(*t))
menu_item = st.tuples(item, banks, st.lists(st.one_of(buttons, amounts), max_size=2)).map(
    lambda t: _join("press menu", t[0], t[1], t[2])
)
payment = st.tuples(st.sampled_from([5, 6]), banks, amounts).map(
    lambda t: _join("press menu", f"key {t[0]}", t[1], t[2], "press ok")
)
session = st.tuples(st.sampled_from([7, 8, 9]), banks, st.lists(deeds, max_size=4), buttons).map(
    lambda t: _join("press menu", f"key {t[0]}", t[1], t[2], t[3])
)
trade = st.tuples(
    banks,
    banks,
    st.lists(deeds, max_size=3),
    st.lists(st.one_of(buttons, amounts, banks, decks), max_size=4),
    st.sampled_from(["press ok", "press cancel", "tap bank:2", "press menu"]),
).map(lambda t: _join("press menu", "key 10", t[0], t[1], t[2], t[3], "press ok", t[4]))
card = st.tuples(decks, banks, st.lists(st.one_of(buttons, digits, banks, decks), max_size=3)).map(
    lambda t: _join(*t)
)
menu_card = st.tuples(
    st.lists(st.just("press menu"), max_size=1),
    st.integers(1, 16),
    banks,
    st.lists(st.one_of(buttons, digits, amounts), max_size=3),
).map(
    lambda t: _join(
        "press menu", "key 12", "press ok", t[0], "press ok", f"key {t[1]}", "press ok", t[2], t[3]
    )
)
auction = st.tuples(
    deeds,
    st.lists(
        st.one_of(st.just("press ok"), banks, st.tuples(amounts, banks).map(list)), max_size=4
    ),
    st.sampled_from(["wait 10.5", "wait 3"]),
    st.lists(st.one_of(banks, buttons), max_size=2),
).map(lambda t: _join(t[0], "press menu", "press ok", *t[1], t[2], t[3]))
dice = st.tuples(st.lists(rolls, max_size=1), st.one_of(banks, st.just("press ok"))).map(
    lambda t: _join(t[0], "press menu", "key 11", t[1])
)
debt_menu = st.tuples(
    st.sampled_from(["key 8", "key 9", "key 10", "key 16", "press menu"]),
    st.one_of(banks, st.just("press ok")),
    st.lists(st.one_of(deeds, banks, buttons), max_size=3),
).map(lambda t: _join("press menu", t[0], t[1], t[2]))
gestures = st.one_of(
    landing, landing, menu_item, payment, session, trade, card, menu_card, auction, dice, debt_menu
)


@dataclass(frozen=True)
class Done:
    """Gestures from idle to idle that committed one undo group (a transaction, and what
    joined it)."""

    lines: tuple[str, ...]
    before: GameState
    after: GameState
    seq: int
    game: int | None


def _timeless(step: object) -> object:
    """*step* without its timeout (a refused key restarts the menu's 10 s: READINGS B1) and
    without the digits typed so far (a refused digit starts them over: the menu's `9` then
    `1` (A13), a pick's digits (A14), a refused typed bid (C1))."""
    if is_dataclass(step) and not isinstance(step, type):
        if hasattr(step, "expires"):
            step = replace(step, expires=0.0)
        if hasattr(step, "typed"):
            step = replace(step, typed="")
    return step


def refusal_may_move(before: object, after: object) -> bool:
    """Whether a refusal (the error cue) may leave the unit in *after* rather than *before*:
    the step stays as it was (§5), but for what the spec and its readings say a refusal does."""
    if _timeless(before) == _timeless(after):
        return True
    moves = (
        (Session, Session),  # `tout vendre ? ✓` asked with the error cue (§3.8, C6)
        (DeedCheck, Idle),  # `Trop tard`: the claim is over (§3.4, E19)
        (JailChoice, Idle),  # ✓ without the fee: the question closes (E16)
        (AwaitWinner, Idle),  # an anonymous winner who cannot pay: the sale is given up (A3)
        (AwaitWinner, Series),  # ... and the auction series goes on
        (Offer, Idle),  # a trade refused at acceptance is dropped (A10)
    )
    if isinstance(before, Idle) and isinstance(after, Settling | Interest | Finished):
        return True  # the steps the game state holds come back at each input (§5.3)
    if isinstance(after, Settling):  # the same during a debt: back to the debt's step
        after = Idle()
    return any(isinstance(before, b) and isinstance(after, a) for b, a in moves)


class Runner(ScriptRunner):
    """The script runner, keeping what the unit showed and checking every refused input."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.shown: list[Output] = []
        self.script: list[str] = []
        super().__init__(*args, **kwargs)

    def _emit(self, outputs: list[Output]) -> None:
        self.shown.extend(outputs)
        super()._emit(outputs)

    def _feed(self, inp: Input) -> None:
        state, seq, step = self.game.state, self.game.seq, self.unit.step
        first = len(self.shown)
        super()._feed(inp)
        new = self.shown[first:]
        refused = any(isinstance(o, PlayCue) and o.cue is Cue.ERROR for o in new)
        if refused and (self.game.state != state or self.game.seq != seq):
            raise AssertionError(
                f"a refused {type(inp).__name__} changed the game state\n{self.tail()}"
            )
        if refused and not refusal_may_move(step, self.unit.step):
            raise AssertionError(
                f"a refused {type(inp).__name__} moved the unit from {step!r} to "
                f"{self.unit.step!r}\n{self.tail()}"
            )
        if self.outsider(inp, state, step) and (
            not refused or _timeless(self.unit.step) != _timeless(step)
        ):
            raise AssertionError(
                f"the card of a player not in the game was taken in {step!r} (§3.13: "
                f"refused from then on)\n{self.tail()}"
            )
        for o in new:
            if isinstance(o, ShowScreen):
                assert all(len(line) <= LCD_WIDTH for line in o.screen.lines), o.screen

    @staticmethod
    def outsider(inp: Input, state: GameState, step: object) -> bool:
        """A bank card of no player, or of an eliminated one, tapped while a game runs."""
        if not isinstance(inp, CardTapped) or inp.card is None or inp.card.kind != "bank":
            return False
        if not state.started or state.game_over or isinstance(step, Off | Registration):
            return False
        player = state.player(inp.card.number)
        return player is None or player.bankrupt

    def tail(self) -> str:
        text = self.out.getvalue() if isinstance(self.out, io.StringIO) else ""
        return (
            "--- tap script ---\n"
            + "\n".join(self.script)
            + "\n--- transcript (end) ---\n"
            + "\n".join(text.splitlines()[-25:])
        )


def clone_unit(unit: Any, game: Game) -> Any:
    """A copy of *unit* over *game* (a game equal to the unit's, on a journal of its own)."""
    memo: dict[int, Any] = {
        id(unit.game): game,
        id(unit.game.ruleset): game.ruleset,
        id(unit.game.edition): unit.game.edition,
        id(unit.screens): unit.screens,
        id(unit.config): unit.config,
        id(unit._cards): unit._cards,
        id(unit.game.state): game.state,
    }
    return copy.deepcopy(unit, memo)


def press(unit: Any, button: Button = Button.CANCEL) -> None:
    now = unit._now
    unit.handle(ButtonPressed(now, button))
    unit.handle(ButtonReleased(now, button))


def feed(unit: Any, lines: list[str]) -> None:
    """Taps, keys and presses (script lines) straight to *unit*."""
    now = unit._now
    for line in lines:
        verb, arg = line.split()
        if verb == "tap":
            unit.handle(CardTapped(now, CardId.parse(arg), "UID"))
            unit.handle(CardLifted(now, "UID"))
        elif verb == "key":
            for key in [arg] if arg == "back" else list(arg):
                unit.handle(KeyPressed(now, key))
                unit.handle(KeyReleased(now, key))
        else:
            press(unit, Button(arg))


def run_out_auction(unit: Any) -> None:
    """Let an auction with a bid run its countdown out (X cannot end it, READINGS C1)."""
    for _ in range(1000):
        step = unit.step
        if not (isinstance(step, Bidding) and step.auction.bids):
            return
        due = unit.next_deadline()
        assert due is not None, "an auction with no deadline"
        unit.handle(Tick(due))
    raise AssertionError("an auction's countdown never ended")


def never_undone(state: GameState) -> tuple[Any, ...]:
    """What an undo leaves as it is: the rolls made (READINGS D1, A4) and the virtual decks'
    order (E6)."""
    x = classic(state)
    return x.rolls, getattr(x, "draws", None), getattr(x, "decks", None)


def copy_of(game: Game) -> MemoryJournal:
    """A journal of *game*'s records, of its own."""
    assert isinstance(game.journal, MemoryJournal)
    memory = MemoryJournal()
    memory.rows = list(game.journal.rows)
    return memory


class ClassicUnitMachine(RuleBasedStateMachine):
    """Random gestures on a classic unit, checked after each one (see the module's doc)."""

    def __init__(self) -> None:
        super().__init__()
        base = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
        self.tmp = Path(tempfile.mkdtemp(prefix="ultibank-machine-", dir=base))
        self.runner: Runner | None = None
        self.done: Done | None = None
        self.since: list[str] = []
        self.since_state: GameState | None = None
        self.since_seq = 0
        self.ledger: GameState | None = None
        self.ledger_at = 0
        self.ledger_game: int | None = None

    # ------------------------------------------------------------ set-up

    @initialize(
        edition=st.sampled_from(EDITIONS),
        players=st.integers(2, 8),
        sets=st.lists(
            st.sampled_from(
                [
                    ("variants", "free_parking", "taxes"),
                    ("variants", "free_parking", "taxes_and_fines"),
                    ("variants", "free_parking_seed", 500),
                    ("variants", "double_go", True),
                    ("variants", "no_buy_first_lap", True),
                    ("variants", "jailed_owner_no_rent", True),
                    ("variants", "virtual_decks", True),
                    ("variants", "fast_game", True),
                    ("classic", "bankrupt_to_bank", "return"),
                    ("variants", "time_limit_minutes", 3),
                ]
            ),
            max_size=3,
            unique_by=lambda s: s[1],
        ),
        seed=st.integers(0, 1000),
    )
    def start(
        self, edition: str, players: int, sets: list[tuple[str, str, Any]], seed: int
    ) -> None:
        ed = load_edition(edition)
        self.edition = ed
        self.cards = _with_foreign(CardRanges.of(ed))
        spec = rulesets.for_edition(ed)
        self.third = spec.third_die(ed) if spec.third_die is not None else ()
        config = _ruleset_config(ed, None, None, seed, sets)
        assert isinstance(config, ClassicConfig)
        self.pot_reasons = POT_REASONS[config.variants.free_parking]
        self.seed_pot = config.variants.free_parking_seed
        self.runner = Runner(edition, self.tmp / "d", io.StringIO(), rules=config)
        self.runner.script.append(
            f"# --edition {edition} --seed {seed} "
            + " ".join(f"--set {t}.{k}={v}" for t, k, v in sets)
        )
        n = min(players, ed.constants.max_players)
        self.players = n
        ced = classic_edition(ed)
        self.groups = [ced.group(g) for g in sorted({d.group for d in ced.deeds})]
        self.utilities = [d.number for d in ced.deeds if d.kind == "utility"]
        self.run([f"tap bank:{c}" for c in range(1, n + 1)] + ["press ok"])
        assert self.game.state.started, self.runner.tail()

    def teardown(self) -> None:
        if self.runner is not None:
            self.runner.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    @property
    def game(self) -> Game:
        assert self.runner is not None
        return self.runner.game

    @property
    def unit(self) -> Any:
        assert self.runner is not None
        return self.runner.unit

    # ------------------------------------------------------------ running lines

    def fit(self, line: str) -> str:
        """A generated line in the terms of the edition drawn."""
        words = line.split()
        if words[0] == "tap" and ":" in words[1]:
            kind, n = words[1].split(":")
            # mostly the players' cards, now and then one that is not in the game
            limit = {
                "bank": min(self.players + 1, self.cards.bank),
                "deed": self.cards.count("deed"),
            }
            if kind in limit:
                return f"tap {kind}:{(int(n) - 1) % limit[kind] + 1}"
        if words[0] == "roll":
            face = int(words[3][1:])
            if not self.third or not face:
                return " ".join(words[:3])
            return " ".join([*words[:3], self.third[(face - 1) % len(self.third)]])
        return line

    def run(self, lines: list[str] | tuple[str, ...], track: bool = True) -> None:
        runner = self.runner
        assert runner is not None
        for line in lines:
            fitted = self.fit(line)
            runner.script.append(fitted)
            actions = parse_script(fitted, "machine", self.cards, self.third)
            runner._advance(0)  # what is due now runs before the gesture
            runner.run(actions)
            if track:
                self.track(fitted)

    def track(self, line: str) -> None:
        """Keep the gestures since the unit was last at rest, for the undo check."""
        game, unit = self.game, self.unit
        if self.since_state is None:
            self.since_state, self.since_seq = game.state, game.seq
        self.since.append(line)
        if not isinstance(unit.step, Idle):
            return
        plain = not any(w.split()[0] in ("roll", "power", "hold") for w in self.since)
        if (
            plain
            # the undo group is the gestures' first transaction, with what joined it (a debt
            # settled, the interest answers: §3.16), and no roll or draw came between
            and game._undo_group == self.since_seq + 1
            and game.undo_available
            and never_undone(game.state) == never_undone(self.since_state)
        ):
            self.done = Done(
                tuple(self.since),
                self.since_state,
                game.state,
                game.seq,
                self.runner.journal.current_game if self.runner and self.runner.journal else None,
            )
        elif game.seq != self.since_seq:
            self.done = None
        self.since, self.since_state, self.since_seq = [], game.state, game.seq

    def time_limit_far(self) -> bool:
        """Whether the time limit (READINGS C9) stays away for the undo's hold and the gestures
        made again after it: it may end the game in the middle of a hold (the unit is idle while
        ✓+X are held), and the undo is then refused because the game is over, as it should be."""
        assert self.runner is not None
        over = self.unit.clock.over_at()
        return over is None or over > self.runner.now + UNDO_MARGIN

    def fail(self, message: str) -> None:
        assert self.runner is not None
        raise AssertionError(f"{message}\n{self.runner.tail()}")

    # ------------------------------------------------------------ rules

    @rule(line=single)
    def one_input(self, line: str) -> None:
        self.run([line])

    @rule(lines=gestures)
    def one_gesture(self, lines: list[str]) -> None:
        self.run(lines)

    @rule(group=st.integers(0, 20), who=st.integers(1, 8), build=st.integers(0, 14))
    def whole_group(self, group: int, who: int, build: int) -> None:
        """A player lands on every deed of a group (buying what is free), then builds."""
        lots = self.groups[group % len(self.groups)]
        card = (who - 1) % self.players + 1
        lines = [line for n in lots for line in (f"tap deed:{n}", f"tap bank:{card}")]
        if build:
            taps = [f"tap deed:{lots[i % len(lots)]}" for i in range(build)]
            lines += ["press menu", "key 7", f"tap bank:{card}", *taps, "press ok"]
        self.run(lines)

    def card_of(self, who: int) -> int:
        return (who - 1) % self.players + 1

    def deeds_of(self, card: int) -> list[int]:
        return [p.number for p in self.game.state.properties if p.owner == card]

    @rule(
        a=st.integers(1, 8),
        b=st.integers(1, 8),
        picks=st.lists(st.integers(0, 36), max_size=3),
        cash=st.sampled_from([0, 0, 10, 150, 5000]),
        payer=st.booleans(),
        jail_cards=st.integers(0, 2),
        answer=st.sampled_from(["press ok", "tap bank:B", "press cancel", "wait 61", "press menu"]),
    )
    def trade_deeds(
        self, a: int, b: int, picks: list[int], cash: int, payer: bool, jail_cards: int, answer: str
    ) -> None:
        """A trade of the two players' own deeds, cash and jail cards, then the answer."""
        first, second = self.card_of(a), self.card_of(b)
        owned = self.deeds_of(first) + self.deeds_of(second)
        lines = ["press menu", "key 10", f"tap bank:{first}", f"tap bank:{second}"]
        lines += [f"tap deed:{owned[i % len(owned)]}" for i in picks] if owned else []
        lines.append("press menu")
        if cash:
            lines += [f"key {cash}", f"tap bank:{second if payer else first}"]
        lines.append("press menu")
        lines += [f"tap bank:{first}"] * jail_cards
        lines += ["press menu", "press ok", answer.replace("B", str(second))]
        self.run(lines)

    @rule(who=st.integers(1, 8), picks=st.lists(st.integers(0, 36), min_size=1, max_size=3))
    def mortgage(self, who: int, picks: list[int]) -> None:
        """A mortgage session on the player's own deeds (mortgaged deeds then change hands)."""
        card = self.card_of(who)
        mine = self.deeds_of(card)
        taps = [f"tap deed:{mine[i % len(mine)]}" for i in picks] if mine else []
        self.run(["press menu", "key 9", f"tap bank:{card}", *taps, "press ok"])

    @rule(
        who=st.integers(1, 8),
        answer=st.sampled_from(["press ok", "press menu", "press cancel", "tap chance:7",
                                "tap chest:5", "wait 31"]),
    )  # fmt: skip
    def jail(self, who: int, answer: str) -> None:
        """To jail (item 2), or, for a jailed player, the way out (§3.6)."""
        card = self.card_of(who)
        self.run(["press menu", "key 2", f"tap bank:{card}", answer])

    @rule(
        visitor=st.integers(1, 8),
        rollers=st.lists(st.one_of(st.integers(1, 8), st.none()), max_size=3),
        utility=st.integers(0, 3),
        keys=st.lists(st.sampled_from(["press menu", "key 1", "key 12", "key 0", "key 7"]),
                      max_size=3),
        last=st.sampled_from(["press ok", "press cancel", "wait 31"]),
    )  # fmt: skip
    def utility_claim(
        self, visitor: int, rollers: list[int | None], utility: int, keys: list[str], last: str
    ) -> None:
        """Rolls on the unit, then a landing on a utility and its dice-total pick (§3.3, §3.4)."""
        lines: list[str] = []
        for r in rollers:
            lines += [
                "press menu",
                "key 11",
                "press ok" if r is None else f"tap bank:{self.card_of(r)}",
            ]
        util = self.utilities[utility % len(self.utilities)]
        self.run([*lines, f"tap deed:{util}", f"tap bank:{self.card_of(visitor)}", *keys, last])

    @rule(
        who=st.integers(1, 8),
        what=st.lists(st.sampled_from(["key 3", "key 4", "key 13", "key 5"]), min_size=1,
                      max_size=3),
    )  # fmt: skip
    def taxes(self, who: int, what: list[str]) -> None:
        """Taxes, a payment to the bank and the Free Parking pot (§3.5, item 13)."""
        card = self.card_of(who)
        lines: list[str] = []
        for key in what:
            lines += ["press menu", key, f"tap bank:{card}"]
            if key == "key 5":
                lines += ["key 60", "press ok"]
        self.run(lines)

    @rule(
        a=st.integers(1, 8),
        b=st.integers(1, 8),
        deed=st.integers(1, 37),
        answers=st.lists(st.sampled_from(["press ok", "press menu", "press cancel"]), max_size=2),
    )
    def mortgaged_trade(self, a: int, b: int, deed: int, answers: list[str]) -> None:
        """A deed bought, mortgaged, traded: the interest question (§3.10), maybe answered."""
        first, second = self.card_of(a), self.card_of(b)
        lines = [f"tap deed:{deed}", f"tap bank:{first}"]
        lines += ["press menu", "key 9", f"tap bank:{first}", f"tap deed:{deed}", "press ok"]
        lines += ["press menu", "key 10", f"tap bank:{first}", f"tap bank:{second}"]
        self.run([*lines, f"tap deed:{deed}", "press ok", "press ok", *answers])

    @rule(who=st.integers(1, 8), creditor=st.integers(0, 8), then=st.lists(buttons, max_size=3))
    def ruin(self, who: int, creditor: int, then: list[str]) -> None:
        """A debt beyond all the player has, then the bankruptcy (§3.12, §3.13): to the bank
        (the auction series follows) or to another player (the interest questions)."""
        card = self.card_of(who)
        if creditor:
            owner = self.card_of(creditor)
            mine = self.deeds_of(owner)
            if not mine:
                return
            lines = [f"tap deed:{mine[0]}", f"tap bank:{card}"]  # the rent: maybe a debt
        else:
            lines = ["press menu", "key 5", f"tap bank:{card}", "key 999999", "press ok"]
        self.run([*lines, "press menu", "key 16", "press ok", f"tap bank:{card}", *then])

    @precondition(lambda self: self.runner is not None and self.game.state.debtor() is not None)
    @rule(
        how=st.sampled_from(["key 8", "key 9", "key 16"]),
        taps=st.lists(st.integers(0, 36), max_size=4),
    )
    def settle(self, how: str, taps: list[int]) -> None:
        """The debtor sells, mortgages (their own deeds) or goes bankrupt (§3.12)."""
        debtor = self.game.state.debtor()
        assert debtor is not None
        card = debtor.card
        mine = [p.number for p in self.game.state.properties if p.owner == card]
        if how == "key 16":
            lines = ["press menu", "key 16", "press ok", f"tap bank:{card}"]
        else:
            picks = [f"tap deed:{mine[t % len(mine)]}" for t in taps] if mine else []
            lines = ["press menu", how, f"tap bank:{card}", *picks, "press ok"]
        self.run(lines)

    @rule(lines=gestures, at=st.integers(0, 20), back=st.sampled_from(["power on", "press ok",
          "press cancel", "press menu", "hold ok+cancel 5.5"]))  # fmt: skip
    def gesture_cut(self, lines: list[str], at: int, back: str) -> None:
        """A power cut in the middle of a gesture; the rest of it then runs."""
        at = at % (len(lines) + 1)
        self.run(lines[:at])
        self.power_cut(back)
        self.run(lines[at:])

    @rule(
        back=st.sampled_from(["power on", "press ok", "press cancel", "press menu"]),
        off=st.lists(st.one_of(banks, deeds, digits, st.just("wait 12")), max_size=2),
    )
    def power_cut(self, back: str, off: list[str] | None = None) -> None:
        """A power cut, maybe taps and keys while off, then power on (or a button)."""
        game, unit = self.game, self.unit
        if not unit.is_on:
            self.run([back])
            return
        state, undo = game.state, game.undo_available
        self.run(["power off", *(off or []), back])
        game, unit = self.game, self.unit
        if game.state != state:
            self.fail("a power cut did not restore the last committed state")
        if game.undo_available != undo:
            self.fail("a power cut changed whether undo is available (READINGS C12)")
        if not isinstance(unit.step, REST):
            self.fail(f"back from a power cut in step {unit.step!r}, not at rest")
        if classic(state).interest_due and state.started and not state.game_over:
            assert isinstance(unit.step, Interest), unit.step

    @precondition(lambda self: not self.game.state.started or self.game.state.game_over)
    @rule(players=st.integers(2, 8))
    def register(self, players: int) -> None:
        """After a reset or the game's end: a new game (a reset first, hold X)."""
        reset = ["hold cancel 5.5"] if self.game.state.started else []
        taps = [f"tap bank:{c}" for c in range(1, min(players, self.cards.bank) + 1)]
        self.players = len(taps)
        self.run([*reset, "press cancel", *taps, "press ok"])

    @precondition(
        lambda self: (
            self.done is not None
            and self.done.seq == self.game.seq
            and self.runner is not None
            and self.runner.journal is not None
            and self.done.game == self.runner.journal.current_game
            and isinstance(self.unit.step, Idle)
            and self.game.undo_available
            and self.time_limit_far()
        )
    )
    @rule()
    def undo_then_again(self) -> None:
        """Undo the last gesture's transaction, then make the same gestures again."""
        done = self.done
        assert done is not None
        self.run(["hold ok+cancel 5.5"], track=False)
        if self.game.state != done.before:
            self.fail("undo did not bring back the state before the last gesture")
        self.since, self.since_state, self.since_seq = [], self.game.state, self.game.seq
        self.done = None
        self.run(list(done.lines))
        if self.game.state != done.after:
            self.fail("undo then the same gestures gave another state")

    # ------------------------------------------------------------ checks after every rule

    @invariant()
    def checks(self) -> None:
        if self.runner is None:
            return
        runner = self.runner
        journal = runner.journal
        if journal is None:  # powered off: nothing runs until the power comes back
            return
        game = self.game
        rows = list(journal.records())
        memory = MemoryJournal()
        memory.rows = rows
        replayed = Game(game.edition, game.rules, journal=memory)
        if replayed.state != game.state:
            self.fail("the journal replayed does not give the live state")
        if replayed.undo_available != game.undo_available:
            self.fail("the journal replayed does not give the live undo_available")
        self.money(rows, journal.current_game)
        if game.state.started:
            try:
                check_invariants(game)
            except AssertionError as err:
                self.fail(f"an invariant broke: {err}")
        self.x_to_rest(replayed)

    def money(self, rows: list[dict[str, Any]], current: int | None) -> None:
        """Cash and the pot change only by what the journal says moved (READINGS A6, A9)."""
        if current != self.ledger_game or len(rows) < self.ledger_at or self.ledger is None:
            self.ledger, self.ledger_at, self.ledger_game = (
                GameState.empty(self.edition),
                0,
                current,
            )
        state = self.ledger
        for number, raw in enumerate(rows[self.ledger_at :], self.ledger_at + 1):
            record = decode(raw, number=number)
            after = apply(state, record.events)
            if not isinstance(record.command, NewGame):
                self.money_moved(state, after, record.events, isinstance(record.command, Undo))
            state = after
        self.ledger, self.ledger_at = state, len(rows)
        for p in state.players:
            if p.bankrupt and p.balance:
                self.fail(f"bankrupt player {p.card} keeps {p.balance} (READINGS A9)")

    def money_moved(
        self, before: GameState, after: GameState, events: tuple[Any, ...], undo: bool
    ) -> None:
        moved = [e for e in events if isinstance(e, MoneyMoved)]
        if undo:  # an undo's events are the inverse of the transaction's, read them forward
            moved = [replace(e, payer=e.payee, payee=e.payer) for e in reversed(moved)]
        cash = sum(p.balance for p in after.players) - sum(p.balance for p in before.players)
        bank = sum(e.amount for e in moved if e.payer is None) - sum(
            e.amount for e in moved if e.payee is None
        )
        if cash != (-bank if undo else bank):
            self.fail(f"cash changed by {cash}, the bank paid out {bank}")
        x0, x1 = classic(before), classic(after)
        debtors = set(x0.pot_debts) | set(x1.pot_debts)
        pot = 0
        for e in moved:
            if e.payee is None and e.payer is not None:
                if e.reason in self.pot_reasons or (e.reason == "debt" and e.payer in debtors):
                    pot += e.amount
            elif e.payer is None and e.reason == "pot":
                pot += self.seed_pot - e.amount
        if undo:
            pot = -pot
        if x1.pot - x0.pot != pot:
            self.fail(
                f"the pot went from {x0.pot} to {x1.pot}; the payments say {pot:+} "
                f"({[(e.payer, e.payee, e.amount, e.reason) for e in moved]})"
            )

    def interest_answers(self, unit: Any, game: Game) -> None:
        """An interest question (X refused there) takes ✓ or M: it is never a dead end."""
        for button in (Button.OK, Button.MENU):
            twin = clone_unit(unit, Game(game.edition, game.rules, journal=copy_of(game)))
            press(twin, button)
            if twin.step != unit.step or twin.game.state != unit.game.state:
                return
        self.fail(f"neither ✓ nor M answers the interest question {unit.step!r}")

    def debt_way_out(self, unit: Any, game: Game) -> None:
        """A debt is never a dead end (§3.12): the debtor can go bankrupt (item 16), or sell
        or mortgage one of their deeds (items 8, 9; the whole group where the stock asks)."""
        debtor = game.state.debtor()
        assert debtor is not None
        card = f"tap bank:{debtor.card}"
        tries = [["press menu", "key 16", "press ok", card]]
        for n in (p.number for p in game.state.properties if p.owner == debtor.card):
            tries += [
                ["press menu", "key 9", card, f"tap deed:{n}"],
                ["press menu", "key 8", card, f"tap deed:{n}", "press ok"],
            ]
        for lines in tries:
            twin = clone_unit(unit, Game(game.edition, game.rules, journal=copy_of(game)))
            feed(twin, lines)
            if twin.game.state != game.state:
                return
        self.fail(f"player {debtor.card} owes {debtor.debt} and no gesture raises or ends it")

    def x_to_rest(self, game: Game) -> None:
        """At most three X presses bring a copy of the unit to rest (see the module's doc)."""
        unit = self.unit
        if isinstance(unit.step, Off):
            return
        twin = clone_unit(unit, game)
        free = 0
        for _ in range(200):
            run_out_auction(twin)
            before = twin.step
            if isinstance(before, Interest):
                self.interest_answers(twin, game)
            if isinstance(before, Settling):
                self.debt_way_out(twin, game)
            if isinstance(before, REST):
                return
            press(twin)
            after = twin.step
            progress = (
                isinstance(before, Entry)
                and before.ops
                and isinstance(after, Entry)
                and len(after.ops) < len(before.ops)
            ) or (
                isinstance(before, Series) and not (isinstance(after, Series) and after == before)
            )
            if not progress:
                free += 1
            if free > 3:
                self.fail(f"three X presses left the unit in {after!r} (from {unit.step!r})")
        self.fail(f"X never brought the unit to rest (from {unit.step!r})")


ClassicUnitMachine.TestCase.settings = settings(
    max_examples=int(os.environ.get("ULTIBANK_FUZZ_EXAMPLES", "40")),
    stateful_step_count=int(os.environ.get("ULTIBANK_FUZZ_STEPS", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TestClassicUnitMachine = ClassicUnitMachine.TestCase
