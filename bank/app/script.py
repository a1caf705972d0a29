"""Tap scripts: replay a game from a text file on a virtual clock (the docs/scripts.md contract).

A script is parsed whole before anything runs; a line that does not parse stops it with
``FILE:LINE: message`` and exit status 2. Then each line becomes the inputs a simulated reader
and panel would post to the unit (a tap is a :class:`CardTapped` then a :class:`CardLifted`, a
press a :class:`ButtonPressed` then a :class:`ButtonReleased`) and time only moves when a line
says so: ``wait``/``hold`` jump from one of the unit's deadlines to the next, so nothing sleeps.
``power off``/``power on`` is a true power cycle: the game and its journal are closed and
opened again from the data directory.

Extensions beyond docs/scripts.md: ``reader lost``/``reader back`` and ``panel lost``/``panel back``
(a device link lost and found again); and the classic lines of docs/classic.md §8.2: ``tap deed:N``,
``tap chance:N``, ``tap chest:N``, ``key DIGITS`` / ``key back`` (keypad keys), ``roll A B`` /
``roll A B T`` (fixes the unit's next roll; T the third die's face where the edition has
one) and ``info NAME`` (an info screen). A card of the other ruleset parses within that
ruleset's range and gets the error cue when it runs.

Imports the bank (game, journal, unit) and ``drivers.deck`` for the simulated deck's UIDs.
"""

from __future__ import annotations

import json
import math
import re
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from bank import rulesets
from bank.engine.config import UnitConfig
from bank.engine.errors import BankError, JournalError, ScriptError, did_you_mean
from bank.engine.game import Game
from bank.services.datadir import DataDirError, open_data_dir, write_output
from bank.services.journal import Journal
from bank.unit.io import (
    Button,
    ButtonPressed,
    ButtonReleased,
    CardId,
    CardLifted,
    CardRanges,
    CardTapped,
    InfoAsked,
    Input,
    KeyPressed,
    KeyReleased,
    Output,
    PanelStatus,
    PlayCue,
    ReaderStatus,
    ShowScreen,
    SpeechAsked,
    Tick,
)
from bank.unit.shell import build_unit
from bank.views.speech import Announcer, Voice
from board_assets import EditionError, edition_names, load_edition
from drivers.base import DriverError
from drivers.deck import Deck, normalize_uid, simulated_deck, with_foreign

__all__ = ["Action", "parse_script", "run_script"]

JOURNAL_FILE = "journal.sqlite"
DEFAULT_EDITION = "ultime-fr"
_CLOCK_GRAIN = 1e-6  # seconds: the virtual clock's resolution
_BUTTONS = {"ok": Button.OK, "menu": Button.MENU, "cancel": Button.CANCEL}
_HOLDS = {
    "cancel": (Button.CANCEL,),
    # the speech gestures: hold M (speech on/off), hold ✓ (say it again)
    "menu": (Button.MENU,),
    "ok": (Button.OK,),
    "ok+cancel": (Button.OK, Button.CANCEL),
    "cancel+ok": (Button.OK, Button.CANCEL),
    # damage found in the journal acknowledged on the unit
    "menu+ok": (Button.MENU, Button.OK),
    "ok+menu": (Button.MENU, Button.OK),
}


@dataclass(frozen=True, slots=True)
class Action:
    """One parsed script line.

    *verb* is ``tap``, ``press``, ``hold``, ``wait``, ``power``, ``reader`` or ``panel``;
    only the fields that verb uses are set.
    """

    line: int
    text: str
    verb: str
    card: CardId | None = None
    uid: str = ""
    buttons: tuple[Button, ...] = ()
    seconds: float = 0.0
    on: bool = True
    #: ``key``: the keys in order; ``roll``: the dice; ``info``: the screen's name
    keys: tuple[str, ...] = ()
    dice: tuple[int, ...] = ()
    name: str = ""
    #: ``roll A B T``: the third die's face (None: drawn from the seed)
    third: str | None = None

    def tapped(self, deck: Deck) -> tuple[CardId | None, str]:
        """The card and UID a ``tap`` line puts on the reader, the missing one from *deck*.

        A ``tap uid:HEX`` the deck does not know gives no card (the unit's error cue).
        """
        if self.card is None:
            return deck.card_for(self.uid), self.uid
        return self.card, deck.uid_for(self.card) or ""


def _seconds(word: str, what: str, *, positive: bool) -> float:
    try:
        value = float(word)
    except ValueError:
        raise ValueError(f"{what}: not a number of seconds: {word!r}") from None
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        raise ValueError(
            f"{what}: expected a {'positive' if positive else 'non-negative'} "
            f"number of seconds, got {word!r}"
        )
    return value


def _uid(text: str) -> str:
    """A UID as the deck writes it; any hex string is taken (a wrong length is just unknown)."""
    try:
        return normalize_uid(text)
    except ValueError:
        uid = re.sub(r"[:\s-]", "", text).upper()
        if not uid or not re.fullmatch(r"[0-9A-F]+", uid):
            raise ValueError(f"not a hex UID: {text!r}") from None
        return uid


def _parse_line(
    number: int,
    text: str,
    cards: CardRanges,
    third: tuple[str, ...] = (),
    info: tuple[str, ...] | None = None,
) -> Action | None:
    words = text.split("#", 1)[0].split()
    if not words:
        return None
    verb, args = words[0].lower(), [w.lower() for w in words[1:]]

    def arity(n: int, usage: str) -> None:
        if len(args) != n:
            raise ValueError(f"expected `{usage}`")

    if verb == "tap":
        arity(1, "tap bank:N|prop:N|event:N|deed:N|chance:N|chest:N|uid:HEX")
        if args[0].startswith("uid:"):
            uid = _uid(words[1][4:])
            return Action(number, text, verb, uid=uid)
        return Action(number, text, verb, card=CardId.parse(args[0], cards))
    if verb == "press":
        arity(1, "press ok|menu|cancel")
        if args[0] not in _BUTTONS:
            hint = did_you_mean(args[0], _BUTTONS)
            raise ValueError(f"no button {words[1]!r}{hint}: press ok, menu or cancel")
        return Action(number, text, verb, buttons=(_BUTTONS[args[0]],))
    if verb == "hold":
        arity(2, "hold cancel S | hold ok+cancel S | hold menu S | hold ok S | hold menu+ok S")
        if args[0] not in _HOLDS:
            raise ValueError(
                f"cannot hold {words[1]!r}: hold cancel S, ok+cancel S, menu S, ok S or menu+ok S"
            )
        seconds = _seconds(args[1], "hold", positive=True)
        return Action(number, text, verb, buttons=_HOLDS[args[0]], seconds=seconds)
    if verb == "wait":
        arity(1, "wait S")
        return Action(number, text, verb, seconds=_seconds(args[0], "wait", positive=False))
    if verb == "power":
        arity(1, "power off|on")
        if args[0] not in ("on", "off"):
            raise ValueError(f"power {words[1]!r}? use power off or power on")
        return Action(number, text, verb, on=args[0] == "on")
    if verb in ("reader", "panel"):
        arity(1, f"{verb} lost|back")
        if args[0] not in ("lost", "back"):
            raise ValueError(f"{verb} {words[1]!r}? use {verb} lost or {verb} back")
        return Action(number, text, verb, on=args[0] == "back")
    if verb == "key":
        arity(1, "key DIGITS | key back")
        if args[0] == "back":
            return Action(number, text, verb, keys=("back",))
        if not args[0].isdigit() or not args[0].isascii():
            raise ValueError(f"key {words[1]!r}? use key DIGITS (e.g. key 150) or key back")
        return Action(number, text, verb, keys=tuple(args[0]))
    if verb == "roll":
        if len(args) == 3:
            if not third:
                raise ValueError(f"roll: this edition has no third die ({words[3]!r})")
            if args[2] not in third:
                raise ValueError(
                    f"roll: the third die has no face {words[3]!r}; its faces: {', '.join(third)}"
                )
        else:
            arity(2, "roll A B T` or `roll A B" if third else "roll A B")
        if not all(a.isdigit() and 1 <= int(a) <= 6 for a in args[:2]):
            raise ValueError(f"roll {' '.join(words[1:3])!r}? each die is 1 to 6")
        face = args[2] if len(args) == 3 else None
        return Action(number, text, verb, dice=tuple(int(a) for a in args[:2]), third=face)
    if verb == "info":
        arity(1, "info NAME")
        if info is not None and args[0] not in info:
            hint = did_you_mean(args[0], info)
            known = ", ".join(info) or "none"
            raise ValueError(f"no info screen {words[1]!r}; known: {known}{hint}")
        return Action(number, text, verb, name=args[0])
    verbs = ("tap", "press", "hold", "wait", "power", "reader", "panel", "key", "roll", "info")
    raise ValueError(
        f"unknown action {words[0]!r}{did_you_mean(verb, verbs)} "
        "(tap, press, hold, wait, power, key, roll or info)"
    )


def parse_script(
    text: str,
    filename: str = "<script>",
    cards: CardRanges | None = None,
    third: tuple[str, ...] = (),
    info: tuple[str, ...] | None = None,
) -> list[Action]:
    """Parse every line; ScriptError ``FILE:LINE: message`` at the first bad one.

    Card names are those of *cards* (the edition's; default: the default edition's); *third*
    the faces ``roll A B T`` may give (the edition's third die; empty: T is an error); *info*
    the names ``info NAME`` may give (the info screens of the ruleset's panel vocabulary;
    None: any, as a unit without info screens ignores the line).
    """
    cards = cards or CardRanges.of(load_edition(DEFAULT_EDITION))
    actions: list[Action] = []
    for number, line in enumerate(text.splitlines(), 1):
        try:
            action = _parse_line(number, line, cards, third, info)
        except ValueError as err:
            raise ScriptError(f"{filename}:{number}: {err}") from err
        if action is not None:
            actions.append(action)
    return actions


class ScriptRunner:
    """Runs parsed actions against a unit on a virtual clock, printing the transcript."""

    def __init__(
        self,
        edition: str,
        data_dir: Path,
        out: TextIO,
        *,
        rules: object | None = None,
        config: UnitConfig | None = None,
        deck: Deck | None = None,
        echo: bool = False,
        say: str | None = None,
        record: Path | None = None,
    ) -> None:
        self.edition = load_edition(edition)
        self.data_dir = data_dir
        self.out = out
        self.rules = rules
        self.deck = deck or simulated_deck(CardRanges.of(self.edition))
        self.echo = echo
        self.now = 0.0
        self.journal: Journal | None = None
        self.game = self._open()
        self.unit = build_unit(self.game, config)
        #: with ``--say``: the unit's voice, each sentence a ``say`` line of the transcript
        self.voice: Voice | None = None
        if say is not None:
            lang = config.language if config is not None else None
            self.voice = Voice(Announcer(self.edition, lang, say), on=say != "off")
            self.unit.speech_on = self.voice.on
        #: with ``--record DIR``: each spoken input's sentences said by espeak-ng into a WAV
        self._recorder: tuple[Any, Any] | None = None
        if record is not None:
            from drivers.speech import EspeakEngine, SpeechSettings, WavDirPlayer

            lang = self.voice.announcer.lang if self.voice is not None else "fr"
            self._recorder = (EspeakEngine(SpeechSettings(), lang), WavDirPlayer(record))
        self._emit(self.unit.power_on(self.now))
        self._show_damage()

    def _show_damage(self) -> None:
        """Damage found in the journal and not acknowledged: shown as on every panel."""
        journal = self.journal
        if journal is not None and journal.loss:
            self._emit(self.unit.show_damage(self.now, True, journal.lost))

    def _open(self) -> Game:
        self.journal = Journal(self.data_dir / JOURNAL_FILE)
        try:
            return Game(self.edition, rules=self.rules, journal=self.journal)
        except BaseException:
            self.journal.close()
            self.journal = None
            raise

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()
            self.journal = None

    def _emit(self, outputs: list[Output]) -> None:
        for o in outputs:
            if isinstance(o, ShowScreen):
                self.out.write(f"{o.at:8.3f} screen {o.screen.text()}\n")
            elif isinstance(o, PlayCue):
                self.out.write(f"{o.at:8.3f} cue {o.cue.value}\n")
            elif isinstance(o, SpeechAsked):
                self.out.write(f"{o.at:8.3f} speech {o.what}\n")
        if self.voice is not None:
            state = self.game.state if self.journal is not None else None
            texts = self.voice.hear(outputs, self.journal, state)
            for text in texts:
                self.out.write(f"{self.now:8.3f} say {text}\n")
            if texts and self._recorder is not None:
                engine, player = self._recorder
                sentence = ". ".join(texts)
                player.play(engine.synthesize(sentence), sentence)

    def _feed(self, inp: Input) -> None:
        self._emit(self.unit.handle(inp))
        if self.unit.fault is not None:  # a script stops where its journal failed
            raise JournalError(self.unit.fault)

    def _advance(self, seconds: float) -> None:
        """Let time pass, stopping at each deadline of the unit on the way."""
        # the virtual clock keeps to whole microseconds, and a deadline less than one
        # microsecond past the target is due: ten `wait 0.1` are exactly `wait 1`, not a
        # float sum a hair short of it that would leave a 10 s check alive
        target = round(self.now + seconds, 6)
        while True:
            due = self.unit.next_deadline()
            if due is None or due > target + _CLOCK_GRAIN:
                break
            self.now = max(self.now, due)
            self._feed(Tick(self.now))
        self.now = max(self.now, target)

    def _power_on(self) -> None:
        self.game = self._open()
        self._emit(self.unit.power_on(self.now, self.game))
        self._show_damage()

    def _power_off(self) -> None:
        self._emit(self.unit.power_off(self.now))
        self.close()

    def run(self, actions: list[Action]) -> None:
        for action in actions:
            if self.echo:
                self.out.write(f"{self.now:8.3f} > {action.text.strip()}\n")
            self.step(action)

    def step(self, action: Action) -> None:
        """Run one action."""
        now = self.now
        if action.verb == "power":
            if action.on and not self.unit.is_on:
                self._power_on()
            elif not action.on and self.unit.is_on:
                self._power_off()
            return
        if action.verb in ("reader", "panel"):
            if action.verb == "reader":
                self._feed(ReaderStatus(now, action.on, "sim"))
            else:
                self._feed(PanelStatus(now, action.on, "sim"))
            return
        if action.verb == "wait":
            self._advance(action.seconds)
            return
        if action.verb == "roll":
            self.unit.queue_roll(action.dice, action.third)
            return
        if action.verb in ("key", "info"):
            if not self.unit.is_on:
                return  # no power, no keypad
            if action.verb == "info":
                self._feed(InfoAsked(now, action.name))
            for key in action.keys:
                self._feed(KeyPressed(now, key))
                self._feed(KeyReleased(now, key))
            return
        if action.verb == "tap":
            if not self.unit.is_on:
                return  # no power, no reader
            card, uid = action.tapped(self.deck)
            self._feed(CardTapped(now, card, uid, "sim"))
            self._feed(CardLifted(now, uid, "sim"))
            return
        # press and hold: a button while off only switches the unit on; a unit whose holds
        # take no time (classic, READINGS B2) is told how long the buttons were held instead
        timeless = self.unit.TIMELESS_HOLDS
        if not self.unit.is_on:
            self._power_on()
            if action.verb == "hold" and not timeless:
                self._advance(action.seconds)
            return
        for button in action.buttons:
            self._feed(ButtonPressed(now, button))
        if action.verb == "hold" and timeless:
            self._emit(self.unit.held(action.seconds))
            if self.unit.fault is not None:
                raise JournalError(self.unit.fault)
        elif action.verb == "hold":
            self._advance(action.seconds)
        for button in reversed(action.buttons):
            self._feed(ButtonReleased(self.now, button))

    def state_json(self) -> dict[str, Any]:
        """The state file: the game state plus ``undo_available``."""
        game = self.game
        if self.journal is None:
            # powered off at the end: read the stored game, as the next power-on would
            game = self._open()
            self.close()
        own = rulesets.for_edition(game.edition).state_file
        if own is not None:
            return own(game.ruleset, game.state, game.undo_available)
        data = game.state.to_json()
        data["undo_available"] = game.undo_available
        return data


def _with_foreign(cards: CardRanges) -> CardRanges:
    """*cards* with the kinds of the other shipped editions' rulesets, so that a script naming
    one parses and is refused when it runs ("card of another edition", docs/classic.md §8.2)."""
    return with_foreign(cards)


def _ruleset_config(
    edition: Any,
    given: object | None,
    table: Mapping[str, Any] | None,
    seed: int | None,
    sets: Sequence[tuple[str, str, Any]],
) -> object:
    """The edition's ruleset configuration from the ``[rules]`` table (with the configuration
    file's ``[classic]``/``[variants]`` as sub-tables), ``--set`` of the ruleset's own tables
    (which win over the file's) and ``--seed``."""
    spec = rulesets.for_edition(edition)
    tables = rulesets.config_tables()
    raw: dict[str, Any] = {k: v for k, v in (table or {}).items() if k not in tables}
    for name in spec.config_tables:  # a table of another ruleset's is ignored (docs/classic.md §6)
        raw_table = (table or {}).get(name)
        if isinstance(raw_table, Mapping):
            raw[name] = dict(raw_table)
    if seed is not None:  # over the file's seed; a --set of the seed's key wins (E14)
        if spec.seed_key is None:
            raise BankError(f"--seed: the {spec.name} rules of {edition.id!r} roll no dice")
        raw.setdefault(spec.seed_key[0], {})[spec.seed_key[1]] = seed
    for sub, key, value in sets:
        raw.setdefault(sub, {})[key] = value
    if given is not None and not raw:
        return given
    foreign = sorted(t for t in tables if t in raw and t not in spec.config_tables)
    if foreign:
        raise BankError(
            f"--set {foreign[0]}.KEY=VALUE is for another ruleset's editions, not {edition.id!r} "
            f"({spec.name} rules)"
        )
    return spec.config(raw)


def stored_edition(data_dir: Path) -> str | None:
    """The edition of the game stored in *data_dir*'s journal, or None when there is none."""
    path = data_dir / JOURNAL_FILE
    if not path.is_file():
        return None
    with Journal(path) as journal:
        game = journal.current_game
        if game is None:
            return None
        edition = journal.game(game).meta.get("edition")
        if isinstance(edition, str):
            return edition
        for record in journal.records():
            stored = record.get("edition")
            return stored if isinstance(stored, str) else None
    return None


def format_state(state: dict[str, Any]) -> str:
    """The state file as JSON, one player and one property a line (as in docs/scripts.md)."""
    lines = []
    for key, value in state.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            items = ",\n".join(f"    {json.dumps(v, ensure_ascii=False)}" for v in value)
            lines.append(f"  {json.dumps(key)}: [\n{items}\n  ]")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def run_script(
    path: str | Path,
    edition: str | None = None,
    data_dir: str | Path | None = None,
    state_out: str | Path | None = None,
    out: TextIO | None = None,
    *,
    echo: bool = False,
    config: UnitConfig | None = None,
    rules: object | None = None,
    err: TextIO | None = None,
    seed: int | None = None,
    ruleset_sets: Sequence[tuple[str, str, Any]] = (),
    rules_table: Mapping[str, Any] | None = None,
    strict: bool = True,
    say: str | None = None,
    record: str | Path | None = None,
) -> int:
    """Run a tap script; 0 when every line ran, 2 when a line (or the file) is unusable.

    Without *edition*, a game stored in *data_dir* goes on in its own edition (a second script
    continues it as a power cycle does); otherwise the default edition, ``ultime-fr``.
    The transcript goes to *out*; with ``state_out="-"`` the state goes there instead and the
    transcript to *err* (stderr), so that standard output is the state file alone.
    *seed* (``--seed``), *ruleset_sets* (``--set classic.KEY=V``, ``--set variants.KEY=V``) and
    *rules_table* (the ``[rules]`` table) make the configuration of the edition's ruleset when
    given (docs/classic.md §8.1); a classic script without ``--seed`` rolls with seed 0.
    A *data_dir* goes through the data directory's checks
    (:func:`bank.services.datadir.open_data_dir`; *strict* is ``game.strict_modes``) before
    anything in it is read or written.
    """
    # sys.stdout looked up now, not when this module was imported (it may have been replaced)
    out = out if out is not None else sys.stdout
    path = Path(path)
    try:
        # utf-8-sig: a script saved by an editor that writes a byte-order mark reads the same
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as err:
        print(f"{path}: cannot read the script: {err}", file=sys.stderr)
        return 2
    if data_dir is not None:
        try:
            open_data_dir(Path(data_dir), strict)
        except DataDirError as err:
            print(f"ultibank: {err}", file=sys.stderr)
            return 2
    if edition is None:
        stored = stored_edition(Path(data_dir)) if data_dir is not None else None
        edition = stored if stored in edition_names() else DEFAULT_EDITION
    try:
        loaded = load_edition(edition)
        cards = _with_foreign(CardRanges.of(loaded))
        spec = rulesets.for_edition(loaded)
        third = spec.third_die(loaded) if spec.third_die is not None else ()
        # the info screens an `info NAME` line may name (the vocabulary is only built for one)
        asks = any(line.split()[:1] == ["info"] for line in text.lower().splitlines())
        info = spec.labels(loaded, loaded.language).info or None if asks and spec.labels else None
        if seed is not None or ruleset_sets or rules_table is not None:
            rules = _ruleset_config(loaded, rules, rules_table, seed, ruleset_sets)
    except EditionError as err:  # the edition's fault, not a line of the script's
        print(f"ultibank: {err}", file=sys.stderr)
        return 2
    except BankError as err:
        print(f"ultibank: {err}", file=sys.stderr)
        return 2
    try:
        actions = parse_script(text, str(path), cards, third, info)
    except ScriptError as err:
        print(err, file=sys.stderr)
        return 2
    if state_out is not None and str(state_out) != "-" and not Path(state_out).parent.is_dir():
        # said before the script runs, not after (a traceback once the game was played)
        print(f"--state {state_out}: no directory {Path(state_out).parent}", file=sys.stderr)
        return 2
    if record is not None:
        try:
            Path(record).mkdir(parents=True, exist_ok=True)
        except OSError as err:
            print(f"--record {record}: cannot make the directory: {err}", file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory(prefix="ultibank-script-") as tmp:
        directory = Path(data_dir) if data_dir is not None else Path(tmp)
        transcript = out
        if str(state_out) == "-":
            transcript = err if err is not None else sys.stderr
        try:
            runner = ScriptRunner(
                edition,
                directory,
                transcript,
                rules=rules,
                config=config,
                echo=echo,
                say=say if say is not None or record is None else "all",
                record=Path(record) if record is not None else None,
            )
        except DriverError as err:  # --record without espeak-ng
            print(f"ultibank: {err}", file=sys.stderr)
            return 2
        if (seed is not None or ruleset_sets) and runner.game.state.started:
            # §6: the values recorded with a stored game win; say so rather than ignore them
            print(
                "ultibank: the stored game keeps the classic and variants values recorded at its "
                "start; --seed and --set classic./variants. apply to a new game",
                file=err if err is not None else sys.stderr,
            )
        try:
            runner.run(actions)
            state = runner.state_json()
        finally:
            runner.close()
    if state_out is not None:
        text = format_state(state)
        if str(state_out) == "-":
            out.write(text)
        else:
            try:
                write_output(Path(state_out), text)
            except OSError as err:
                print(f"--state {state_out}: cannot write the state: {err}", file=sys.stderr)
                return 2
    out.flush()
    transcript.flush()
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m bank.script FILE [--edition E] [--data-dir DIR] [--state OUT]``."""
    import argparse

    p = argparse.ArgumentParser(prog="python -m bank.script", description=__doc__)
    p.add_argument("file", type=Path)
    p.add_argument(
        "--edition", help="ultime-fr or ultimate-uk (default: the stored game's, else ultime-fr)"
    )
    p.add_argument("--data-dir", type=Path)
    p.add_argument("--state")
    p.add_argument("--echo", action="store_true", help="print each script line as it runs")
    a = p.parse_args(argv)
    try:
        return run_script(a.file, a.edition, a.data_dir, a.state, echo=a.echo)
    except BankError as err:
        print(f"ultibank: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
