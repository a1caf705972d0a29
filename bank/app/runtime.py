"""The command line's wiring: journal, game, unit, daemon, readers, panels, control socket.

This is the one place that puts backends together (docs/architecture.md): it imports the bank,
``drivers`` (the registry opens backends lazily, so a missing stack costs only itself) and,
for ``emulate``, ``firmware_sim``.
"""

from __future__ import annotations

import argparse
import faulthandler
import logging
import os
import secrets
import signal
import sys
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import FrameType
from typing import Any

from bank import rulesets
from bank.app.client import ACK_LINE, cmd_control  # noqa: F401 - cmd_control's old place
from bank.app.panels import open_panel
from bank.app.resume import (
    choose_edition,
    new_game_line,
    other_edition,
    resumed_line,
    resumed_words,
    start_new_game,
)
from bank.app.script import Action, parse_script, run_script
from bank.engine.errors import BankError, JournalError, ScriptError
from bank.engine.game import Game
from bank.engine.ruleset import DrawsSeeds
from bank.services.control import ControlServer
from bank.services.daemon import Daemon, sd_notify
from bank.services.datadir import open_data_dir, prepare_data_dir
from bank.services.journal import Journal
from bank.services.settings import Settings, load_settings, parse_override
from bank.unit.io import (
    ButtonPressed,
    ButtonReleased,
    CardLifted,
    CardRanges,
    CardTapped,
    InfoAsked,
    KeyPressed,
    KeyReleased,
    Labels,
    MenuAsked,
    Output,
    PanelStatus,
    PlayCue,
    ReaderStatus,
    Screen,
    ShowScreen,
    Tick,
)
from bank.unit.shell import build_unit
from bank.unit.text import damage_summary, token_name
from board_assets import Edition, load_edition
from drivers.base import DriverError, Panel
from drivers.deck import Deck, DeckError, load_deck, simulated_deck, with_foreign
from drivers.enroll import DeckCards
from drivers.registry import open_reader
from drivers.supervisor import ReaderService

log = logging.getLogger("ultibank")

JOURNAL_FILE = "journal.sqlite"
DECK_FILE = "deck.toml"
#: the longest ``wait`` or ``hold`` a control line may ask for (seconds, all its actions together)
MAX_CONTROL_SECONDS = 60.0


#: the control line by which a person acknowledges damage found in the journal
def output_line(out: Output) -> str:
    """One transcript line for a screen or a cue."""
    if isinstance(out, ShowScreen):
        return f"screen {out.screen.text()}"
    if isinstance(out, PlayCue):
        return f"cue {out.cue.value}"
    return repr(out)


def deck_for(settings: Settings, real_readers: bool) -> Deck:
    """The configured deck file, else ``DATA_DIR/deck.toml``, else the simulated deck.

    The file is read with the edition's cards and the other rulesets' kinds (one file may hold
    the tags of every box one owns; the unit refuses another edition's card as such)."""
    cards = CardRanges.of(load_edition(settings.edition))
    configured = str(settings.get("reader", "deck"))
    path = Path(configured).expanduser() if configured else settings.data_dir / DECK_FILE
    if path.exists():
        try:
            return load_deck(path, with_foreign(cards))
        except DeckError as err:  # a malformed deck: the message names the file and line
            raise BankError(str(err)) from err
    if configured:
        raise BankError(f"deck file {path} not found; run `ultibank enroll` to make one")
    if real_readers:
        log.warning(
            "no deck file at %s: only cards carrying ultibank's NDEF record are known; "
            "run `ultibank enroll` to teach the bank your cards' UIDs",
            path,
        )
    return simulated_deck(cards)


def deck_cards(edition: Edition) -> DeckCards:
    """The cards enrolment walks for *edition*, named as its players see them: the deck names
    and token labels of its ruleset's panel vocabulary, when the ruleset gives one."""
    own = rulesets.for_edition(edition).labels
    if own is None:
        return DeckCards.of(edition)
    labels = own(edition, edition.language)
    assert isinstance(labels, Labels)
    tokens = tuple(labels.token(t) for t in edition.token_names)
    return DeckCards.of(
        edition, decks=labels.decks, token_labels=tokens, titled=labels.property_kind
    )


class Runtime:
    """A running bank: game + unit + daemon loop, with readers, panels and the control socket."""

    def __init__(
        self,
        settings: Settings,
        clock: Callable[[], float] = time.monotonic,
        *,
        new_game: bool = False,
    ) -> None:
        """*new_game*: archive the game stored in the data directory and start a new one
        (``--new-game``)."""
        self.settings = settings
        self._new_game = new_game
        #: whether ``--new-game`` archived a stored game
        self.archived = False
        self.clock = clock
        self.edition = load_edition(settings.edition)
        prepare_data_dir(settings.data_dir, strict=bool(settings.get("game", "strict_modes")))
        self.journal: Journal | None = None
        self._journal_loss: list[str] = []
        self.game = self._open_game()
        self.unit = build_unit(self.game, settings.unit())
        self.daemon = Daemon(self.unit, clock=clock)
        self.daemon.on_idle.append(self._checkpoint)
        self.readers: list[ReaderService] = []
        self.panels: list[Panel] = []
        #: the cards this game has (from its edition)
        self.cards = CardRanges.of(self.edition)
        self.deck: Deck = simulated_deck(self.cards)
        self.control: ControlServer | None = None
        self._thread: threading.Thread | None = None
        self._control_lock = threading.Lock()  # one control line acts at a time
        self._foreign: tuple[CardRanges, CardRanges] | None = None
        self._foreign = (self.cards, with_foreign(self.cards))
        #: the edition and the info screens its ruleset's vocabulary names (None: any name)
        self._info: tuple[Edition, tuple[str, ...] | None] | None = None

    def _open_game(self) -> Game:
        self.journal = Journal(self.settings.data_dir / JOURNAL_FILE)
        for problem in self.journal.recovery:
            print(f"ultibank: journal recovery: {problem}", file=sys.stderr)
        for loss in self.journal.loss:
            print(f"ultibank: JOURNAL LOSS: {loss}", file=sys.stderr)
        if self.journal.loss:
            print(
                f"ultibank: {damage_summary(self.journal.lost)} — shown on the unit until "
                f"acknowledged (`ultibank acknowledge`, or the control line `{ACK_LINE}`)",
                file=sys.stderr,
            )
        self._journal_loss = list(self.journal.loss)
        try:
            if self._new_game:  # once: a power cycle goes on with the new game
                self._new_game = False
                self.archived = start_new_game(self.journal, self.edition.id)
            game = Game(self.edition, rules=self.settings.rules(), journal=self.journal)
        except BankError as err:
            self.journal.close()
            if err.key in ("other edition", "other ruleset"):
                raise other_edition(err, self.edition.id) from err
            raise
        except BaseException:
            self.journal.close()
            raise
        if isinstance(game.ruleset, DrawsSeeds):
            # every new game played on the box or in the emulator rolls its own dice, unless
            # the configuration sets a seed (a resumed game keeps the seed it recorded)
            game.ruleset.seed_source = _fresh_seed
        return game

    @property
    def journal_loss(self) -> list[str]:
        """Damage found in the journal and not acknowledged yet (``state``, the web view): the
        open journal's, or the last one's while powered off."""
        if self.journal is not None:
            self._journal_loss = list(self.journal.loss)
        return self._journal_loss

    # ------------------------------------------------------------------ wiring

    def add_panel(self, panel: Panel) -> None:
        panel.start(self.daemon.post)
        self.panels.append(panel)
        self.daemon.panels.append(panel)

    def add_reader(self, path: str) -> None:
        backend = open_reader(path)
        service = ReaderService(
            backend,
            self.daemon.post,
            self.deck,
            self.clock,
            rearm_s=self.settings.rearm_seconds,  # None: the reader's own re-arm
        )
        self.readers.append(service)
        self.daemon.feedback.append(service)

    def start(self, control: bool = True) -> None:
        """Power the unit on, start the loop, the readers and the control socket."""
        now = self.clock()
        self.daemon.dispatch(self.unit.power_on(now))
        if self.game.seq and not self.archived:  # a game that goes on says so, until a touch
            players = len(self.game.state.players)
            lang = self.unit.screens.lang
            title, count = resumed_words(players, lang)
            self.daemon.dispatch([ShowScreen(now, Screen("resumed", (title, count)))])
        self._report_loss()
        if self.journal is not None:
            self.journal.start_audit()
        self._thread = self.daemon.start_thread()
        for service in self.readers:
            service.start()
        if control:
            sock = self.settings.control_socket
            self.control = ControlServer(
                sock, self.handle_line, trusted_dir=sock.parent == self.settings.data_dir
            )
            self.control.start()
            log.info("control socket: %s", self.settings.control_socket)
        # systemd (Type=notify): ready only once the journal, readers and panels are up
        sd_notify(f"READY=1\nSTATUS=game in {self.settings.data_dir}")

    def _report_loss(self) -> None:
        """Loudly, on every panel, until acknowledged: damage found at open (see open)."""
        if self.journal_loss and self.journal is not None:
            self.daemon.dispatch(self.unit.show_damage(self.clock(), True, self.journal.lost))

    def acknowledge_damage(self) -> list[Output]:
        """A person saw the damage and checked the balances (the ``acknowledge damage`` line):
        stop showing it; it stays in the journal for ``history``. In the loop thread."""
        if self.journal is None or not self.journal_loss:
            return []
        count = self.journal.acknowledge_damage()
        log.warning("journal damage acknowledged (%d finding(s))", count)
        return self.unit.show_damage(self.clock(), False)

    def _checkpoint(self) -> None:
        """The daemon is idle: a snapshot of the game if it changed, the WAL folded into
        journal.sqlite, the audit's findings reported (a fault is not ours to show)."""
        if self.journal is not None and self.unit.fault is None:
            # a snapshot now, while nobody waits: a resume after a crash replays only what
            # happened since the unit was last idle
            self.game.keep_snapshot()
            try:
                self.journal.checkpoint()
            except JournalError as err:
                log.warning("idle checkpoint: %s", err)
            self._collect_audit()

    def _collect_audit(self) -> None:
        """Report what the journal's audit found (the checks a resume from a snapshot left
        for later, run in their own thread from the start), once it has finished."""
        if self.journal is not None and self.journal.audit_ready():
            found = self.journal.audit()
            for problem in found:
                print(f"ultibank: journal audit: {problem}", file=sys.stderr)
            if found:  # where the players look too, until a person acknowledges it
                self.daemon.dispatch(self.unit.show_damage(self.clock(), True, self.journal.lost))

    def stop(self) -> None:
        """Stop everything; every confirmed transaction is already in the journal."""
        if self.control is not None:
            self.control.close()
        for service in self.readers:
            service.stop()
        self.daemon.stop()
        if self._thread is not None:
            self._thread.join(10)
        for panel in self.panels:
            try:
                panel.close()
            except Exception:
                log.exception("closing panel %r failed", panel)
        if self.journal is not None:
            self.journal.close()
            self.journal = None

    # ------------------------------------------------------------------ the control socket

    def _power(self, on: bool) -> list[Output]:
        """A power cycle in the loop thread: off closes the journal, on re-opens it."""
        now = self.clock()
        if not on:
            out = self.unit.power_off(now)
            if self.journal is not None:
                self.journal.close()
                self.journal = None
            return out
        if self.unit.is_on:
            return []
        self.game = self._open_game()
        out = self.unit.power_on(now, self.game)
        if self.journal is not None and self.journal.loss:
            out += self.unit.show_damage(now, True, self.journal.lost)
        if self.journal is not None:
            self.journal.start_audit()
        return out

    def _own(self, fn: Callable[[], object], seen: list[Output]) -> None:
        """Run *fn* in the loop thread; add to *seen* the outputs it, and only it, caused."""

        def run() -> list[Output]:
            mine: list[Output] = []
            self.daemon.listeners.append(mine.append)
            try:
                fn()
            finally:
                self.daemon.listeners.remove(mine.append)
            return mine

        seen.extend(self.daemon.call(run))

    def _sleep(self, seconds: float, seen: list[Output]) -> None:
        """Let *seconds* pass; add to *seen* what the unit showed meanwhile (its timeouts).

        On a clock that moves only when told (``advance``, as :class:`drivers.sim.VirtualClock`
        in tests), nothing sleeps: the clock jumps from one of the unit's deadlines to the
        next, each with its tick, as ``ultibank script`` does.
        """
        advance = getattr(self.clock, "advance", None)
        if callable(advance):
            self._own(partial(self._advance, advance, seconds), seen)
            return
        self.daemon.listeners.append(seen.append)
        try:
            time.sleep(seconds)
        finally:
            self.daemon.listeners.remove(seen.append)

    def _advance(self, advance: Callable[[float], object], seconds: float) -> None:
        """In the loop thread: move the clock *seconds* on, ticking at each deadline on the
        way (a deadline a tick does not move is left to the loop's own retry)."""
        target = self.clock() + seconds
        while (due := self.unit.next_deadline()) is not None and due <= target:
            advance(max(0.0, due - self.clock()))
            self.daemon.feed(Tick(self.clock()))
            if self.unit.next_deadline() == due:
                break
        advance(max(0.0, target - self.clock()))

    def perform(self, action: Action) -> list[Output]:
        """Run one action in real time; returns the outputs it caused.

        A button pressed is released even if the action fails half-way. Call it under the
        control lock (:meth:`handle_line` does): a ``wait`` reports what the unit showed
        during it, which must not be another client's doing.
        """
        seen: list[Output] = []
        d = self.daemon
        if action.verb == "tap":
            card, uid = action.tapped(self.deck)
            self._own(lambda: d.feed(CardTapped(self.clock(), card, uid, "control")), seen)
            self._own(lambda: d.feed(CardLifted(self.clock(), uid, "control")), seen)
        elif action.verb in ("press", "hold"):
            pressed: list[Any] = []
            try:
                for b in action.buttons:
                    self._own(partial(d.feed, ButtonPressed(self.clock(), b)), seen)
                    pressed.append(b)
                if action.verb == "hold":
                    self._sleep(action.seconds, seen)
            finally:
                for b in reversed(pressed):
                    self._own(partial(d.feed, ButtonReleased(self.clock(), b)), seen)
        elif action.verb == "wait":
            self._sleep(action.seconds, seen)
        elif action.verb == "key":  # a classic unit's keypad (docs/classic.md §8.2)
            for key in action.keys:
                self._own(partial(d.feed, KeyPressed(self.clock(), key)), seen)
                self._own(partial(d.feed, KeyReleased(self.clock(), key)), seen)
        elif action.verb == "info":
            self._own(lambda: d.feed(InfoAsked(self.clock(), action.name)), seen)
        elif action.verb == "roll":
            self._own(lambda: self.unit.queue_roll(action.dice, action.third), seen)
        elif action.verb == "power":
            self._own(lambda: d.dispatch(self._power(action.on)), seen)
        elif action.verb == "reader":
            self._own(lambda: d.feed(ReaderStatus(self.clock(), action.on, "control")), seen)
        elif action.verb == "panel":
            self._own(lambda: d.feed(PanelStatus(self.clock(), action.on, "control")), seen)
        return seen

    def state(self) -> dict[str, Any]:
        """The state file of docs/scripts.md plus the screen on the LCD."""

        def read() -> dict[str, Any]:
            game = self.game
            # the ruleset's own state file where it has one (classic: the last roll with its
            # third die, jail cards, the pot...), as `ultibank script --state` writes it
            own = rulesets.for_edition(game.edition).state_file
            if own is not None:
                data = own(game.ruleset, game.state, game.undo_available)
            else:
                data = game.state.to_json()
            data["undo_available"] = game.undo_available
            screen = self.daemon.last_screen
            data["screen"] = screen.text() if screen is not None else None
            data["fault"] = self.unit.fault
            data["journal_loss"] = self.journal_loss
            data["journal_damage"] = (
                damage_summary(self.journal.lost, self.unit.lang)
                if self.journal_loss and self.journal is not None
                else None
            )
            return data

        result: dict[str, Any] = self.daemon.call(read)
        return result

    def takes(self) -> dict[str, Any]:
        """What the running game takes on the control socket (``ultibank tap --help``)."""
        spec = rulesets.for_edition(self.edition)
        cards = [f"{kind}:1..{self.cards.count(kind)}" for kind in self.cards.kind_names()]
        # the keypad, the info screens and the dice come with the ruleset's keypad
        labels = panel_labels(self.edition, self.unit.lang)
        return {
            "edition": self.edition.id,
            "ruleset": self.edition.ruleset,
            "cards": cards,
            "tokens": [f"bank:{t}" for t in self.cards.tokens],
            "keys": labels.keypad,
            "info": list(labels.info),
            "roll": labels.keypad,
            "third": list(spec.third_die(self.edition)) if spec.third_die is not None else [],
        }

    def _menu_line(self, line: str) -> dict[str, Any]:
        """``menu N``: a keyboard panel's shortcut to menu item N (``ultibank roll``: item 11)."""
        words = line.split()
        if len(words) != 2 or not words[1].isdigit() or not words[1].isascii():
            return {"ok": False, "error": f"{line.strip()[:40]}: expected `menu N`"}
        item = int(words[1])
        seen: list[Output] = []
        with self._control_lock:
            self._own(lambda: self.daemon.feed(MenuAsked(self.clock(), item)), seen)
        return {"ok": True, "output": [output_line(o) for o in seen]}

    def _third_die(self) -> tuple[str, ...]:
        """The faces a ``roll A B T`` line may give T (Méga's speed die): the edition's."""
        spec = rulesets.for_edition(self.edition)
        return tuple(spec.third_die(self.edition)) if spec.third_die is not None else ()

    def handle_line(self, line: str) -> dict[str, Any]:
        """Answer one control line: a tap-script line, ``state``, ``takes`` or ``menu N``."""
        word = line.strip().lower()
        if word == "state":
            return {"ok": True, "state": self.state()}
        if word == "takes":
            return {"ok": True, "takes": self.takes()}
        if word.startswith("menu "):
            return self._menu_line(word)
        if " ".join(line.lower().split()) == ACK_LINE:
            with self._control_lock:
                seen: list[Output] = []
                self._own(lambda: self.daemon.dispatch(self.acknowledge_damage()), seen)
            return {"ok": True, "output": [output_line(o) for o in seen]}
        try:
            # the game's cards, and the other ruleset's (refused by the unit as such): worked
            # out once, not per line (listing the editions needs file descriptors, and a line
            # must work while they run out)
            if self._foreign is None or self._foreign[0] is not self.cards:
                self._foreign = (self.cards, with_foreign(self.cards))
            info = None
            if word.split()[:1] == ["info"]:  # the info screens the vocabulary names
                if self._info is None or self._info[0] is not self.edition:
                    labels = panel_labels(self.edition, self.unit.lang)
                    self._info = (self.edition, labels.info or None)
                info = self._info[1]
            third = self._third_die()
            actions = parse_script(line, "control", self._foreign[1], third, info)
        except ScriptError as err:
            return {"ok": False, "error": str(err).replace("control:1: ", "")}
        seconds = sum(a.seconds for a in actions if a.verb in ("wait", "hold"))
        if seconds > MAX_CONTROL_SECONDS:  # checked before anything is pressed
            return {
                "ok": False,
                "error": f"{line.strip()[:40]}: a control line waits or holds at most "
                f"{MAX_CONTROL_SECONDS:g} s",
            }
        outputs: list[Output] = []
        with self._control_lock:
            for action in actions:
                outputs.extend(self.perform(action))
        return {"ok": True, "output": [output_line(o) for o in outputs]}


# ---------------------------------------------------------------------- commands


#: how long stopping may take before the process ends itself (every confirmed transaction is
#: on disk already): a stuck thread must never keep a stopped box from restarting
STOP_GRACE_SECONDS = 15.0


def stop_watchdog(seconds: float = STOP_GRACE_SECONDS) -> threading.Thread:
    """Start a watchdog for the stop a signal asked for: if the process is still alive after
    *seconds* (a thread that does not end, an exit that waits for one), it writes every
    thread's stack to stderr, so the log says what hung, and ends the process with status 1.
    Nothing is lost: every transaction the unit confirmed is in the journal."""

    def bite() -> None:
        time.sleep(seconds)
        try:
            print(
                f"ultibank: stopping took more than {seconds:g} s; ending now. The threads:",
                file=sys.stderr,
                flush=True,
            )
            faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
        finally:
            os._exit(1)

    watchdog = threading.Thread(target=bite, name="ultibank stop watchdog", daemon=True)
    watchdog.start()
    return watchdog


def _stop_on_signals(stop: Callable[[], None]) -> None:
    armed: list[threading.Thread] = []

    def handler(signum: int, frame: FrameType | None) -> None:
        log.info("signal %d: stopping", signum)
        if not armed:  # asked to stop from outside (systemd, Ctrl-C): it must end, whatever hangs
            armed.append(stop_watchdog())
        stop()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    if _has_controlling_terminal():
        signal.signal(signal.SIGHUP, handler)  # the terminal went away: stop cleanly
    else:
        # A service has no terminal, so the first tty it opens without O_NOCTTY (nfcpy opens
        # a PN532's serial port that way) becomes its controlling terminal, and unplugging
        # that reader would send SIGHUP and kill the bank. The reader's loss is handled by the
        # supervisor instead.
        signal.signal(signal.SIGHUP, signal.SIG_IGN)


def _has_controlling_terminal() -> bool:
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return False
    os.close(fd)
    return True


def _start_extras(runtime: Runtime, args: argparse.Namespace) -> tuple[Any, Any]:
    """The end-of-game chart writer, always; the web view with --web. After runtime.start()."""
    from bank.views.charts import EndChartWriter

    charts = EndChartWriter(
        runtime,
        on_written=lambda p: print(f"ultibank: wealth chart written to {p}", file=sys.stderr),
    ).attach()
    web = None
    settings = runtime.settings
    if getattr(args, "web", False) or bool(settings.get("web", "enabled")):
        host = args.web_host if args.web_host is not None else str(settings.get("web", "host"))
        port = args.web_port if args.web_port is not None else int(settings.get("web", "port"))
        try:
            from bank.views.web import attach_web
        except ImportError as err:
            raise BankError(str(err)) from err
        web = attach_web(runtime, host=host, port=port)
        if not web.exposed:  # exposed: attach_web has already printed its warning line
            print(web.startup_line, file=sys.stderr, flush=True)
    return charts, web


def _stop_extras(charts: Any, web: Any) -> None:
    """Before runtime.stop(): close the web view, let a chart being drawn finish."""
    if web is not None:
        web.close()
    if charts is not None:
        charts.detach()
        charts.wait(10)


def panel_labels(edition: Edition, lang: str) -> Labels:
    """What a panel names and draws from *edition* in *lang*: its ruleset's panel vocabulary
    (the ruleset's ``labels`` hook), else the tokens' names and the currency."""
    own = rulesets.for_edition(edition).labels
    if own is not None:
        labels = own(edition, lang)
        assert isinstance(labels, Labels)
        return labels
    tokens = {t: token_name(lang, t) for t in edition.token_names}
    return Labels(lang, tokens, edition.currency)


def make_panel(
    spec: str,
    settings: Settings,
    clock: Callable[[], float],
    on_quit: Callable[[], None],
    language: str = "en",
    cards: CardRanges | None = None,
    labels: Labels | None = None,
) -> Panel:
    """One panel, with the daemon's clock, its settings from ``[panel]`` and the game's
    *language* for a panel's own words (the terminal's hello, help and refusals), *cards*
    (the edition's: the terminal's keys and typed numbers) and *labels* (the edition's names
    and classic mode: the terminal's and the character LCD's layout)."""
    return open_panel(
        spec,
        settings=settings.raw["panel"],
        clock=clock,
        on_quit=on_quit,
        language=language,
        cards=cards,
        labels=labels,
    )


def _open_panels(runtime: Runtime, specs: list[str], on_quit: Callable[[], None]) -> None:
    language = runtime.unit.screens.lang
    labels = panel_labels(runtime.edition, language)
    for spec in specs:
        runtime.add_panel(
            make_panel(
                spec, runtime.settings, runtime.clock, on_quit, language, runtime.cards, labels
            )
        )


#: what the refusal of :func:`_on_panels` calls each panel kind (and the readers)
_PANEL_NAMES = {
    "pygame": "the emulator window",
    "terminal": "the terminal view",
    "serial": "the serial front panel",
    "gpio": "the box's buttons",
    "reader": "the card readers",
}


def _on_panels(settings: Settings, kinds: list[str]) -> None:
    """Refuse, in one line, an edition whose ruleset one of the panel *kinds* (``pygame``,
    ``terminal``, ``serial``, ``gpio``; ``reader`` for card readers) cannot play yet."""
    edition = load_edition(settings.edition)
    spec = rulesets.for_edition(edition)
    playable = spec.on_panels
    if playable is True:
        return
    missing = [k for k in dict.fromkeys(kinds) if playable is False or k not in playable]
    if not missing:
        return
    names = ", ".join(_PANEL_NAMES.get(k, k) for k in missing)
    ways = f"tap scripts (`ultibank script FILE --edition {edition.id}`)"
    if playable is not False and "pygame" in playable:
        ways = f"the emulator window (`ultibank emulate --edition {edition.id}`) or {ways}"
    raise BankError(
        f"{edition.id}: the {spec.name} rules cannot be played with {names} yet; "
        f"play them with {ways}"
    )


def _kind(spec: str) -> str:
    """A panel spec's kind: ``serial:/dev/ttyACM0`` -> ``serial``."""
    return spec.strip().lower().split(":", 1)[0]


def _fresh_seed() -> int:
    """A new game's dice seed from the operating system's randomness (READINGS D1)."""
    return secrets.randbits(63)


def _strict(settings: Settings) -> bool:
    """``game.strict_modes``: refuse a data directory other users could tamper with."""
    return bool(settings.get("game", "strict_modes"))


def cmd_run(args: argparse.Namespace, settings: Settings) -> int:
    """``ultibank run``: the daemon with the configured readers and panels."""
    readers = args.reader or list(settings.get("reader", "paths"))
    panels = args.panel or list(settings.get("panel", "backends"))
    has_reader = any(r.strip().lower() != "sim" for r in readers)
    choose_edition(args, settings)  # the stored game's edition, unless the command names one
    _on_panels(settings, [_kind(p) for p in panels] + (["reader"] if has_reader else []))
    runtime = Runtime(settings, new_game=args.new_game)
    real = [r for r in readers if r.strip().lower() != "sim"]
    runtime.deck = deck_for(settings, bool(real))
    stop = threading.Event()
    charts: Any = None
    web: Any = None
    voice: Any = None
    try:
        for path in real:
            runtime.add_reader(path)
        if any(p.strip().lower() == "pygame" for p in panels):
            raise BankError("the pygame panel runs with `ultibank emulate`, not `ultibank run`")
        _open_panels(runtime, panels, stop.set)
        _stop_on_signals(stop.set)
        voice = _start_speech(runtime, args)  # before the loop: it hears the first input
        runtime.start()
        say_how_it_goes_on(runtime)
        charts, web = _start_extras(runtime, args)
        where = ", ".join(real) if real else "none (tap with `ultibank tap CARD`)"
        print(
            f"ultibank running: game in {settings.data_dir}; readers: {where}; "
            f"panels: {', '.join(panels)}; control socket {settings.control_socket}",
            file=sys.stderr,
        )
        while not stop.wait(1.0) and not runtime.daemon.stopping:
            pass
    except DriverError as err:
        raise BankError(str(err)) from err
    finally:
        if voice is not None:
            voice.close()
        _stop_extras(charts, web)
        runtime.stop()
    return _loop_status(runtime)


def say_how_it_goes_on(runtime: Runtime) -> None:
    """One line on stderr: the stored game resumed (``Partie reprise · classic-fr · 3
    joueurs``), or the one ``--new-game`` archived."""
    lang = runtime.unit.screens.lang
    if runtime.archived:
        print(f"ultibank: {new_game_line(runtime.edition.id, lang)}", file=sys.stderr)
    elif runtime.game.seq:
        players = len(runtime.game.state.players)
        print(f"ultibank: {resumed_line(runtime.edition.id, players, lang)}", file=sys.stderr)


def _start_speech(runtime: Runtime, args: argparse.Namespace, panel: Any = None) -> Any:
    """The unit's voice, as ``[speech]`` and ``--speak`` say (None: never asked for). The
    engine opens at the first sentence, so an unused voice costs nothing."""
    from bank.app.voice import SpeechService, speech_settings

    table = runtime.settings.raw["speech"]
    mode = str(table["say"])
    if getattr(args, "speak", False) and mode == "off":
        mode = "all"
    player: Any = None
    cue_busy: Any = None
    if panel is not None:
        # the emulator's mixer opens in its own thread: looked up at the first sentence
        from drivers.speech import AplayPlayer
        from firmware_sim.sounds import MixerPlayer, MixerSpeechPlayer

        def player() -> Any:
            mixer = getattr(panel, "player", None)
            if isinstance(mixer, MixerPlayer):
                return MixerSpeechPlayer(mixer)
            return AplayPlayer(str(table["device"]))

        def cue_busy() -> bool:
            mixer = getattr(panel, "player", None)
            return isinstance(mixer, MixerPlayer) and mixer.busy()

    service = SpeechService(runtime, speech_settings(table), mode, player=player, cue_busy=cue_busy)
    return service.start()


def _loop_status(runtime: Runtime) -> int:
    """0 after a clean stop; 1 if the daemon loop gave up (systemd then restarts the box)."""
    failure = runtime.daemon.failure
    if failure is None:
        return 0
    print(f"ultibank: the daemon loop stopped: {failure}; exiting with status 1", file=sys.stderr)
    return 1


def cmd_emulate(args: argparse.Namespace, settings: Settings) -> int:
    """``ultibank emulate``: the pygame unit, or the terminal view where there is no display."""
    readers = args.reader or []
    use_window = not args.terminal
    if use_window:
        try:
            from firmware_sim.emulator import PygamePanel, display_available
        except ImportError as err:
            print(
                f"ultibank: the pygame emulator needs pygame-ce ({err}); "
                "pip install 'ultibank[emu]'. Using the terminal view.",
                file=sys.stderr,
            )
            use_window = False
        else:
            if not display_available():
                print(
                    "ultibank: no display found (DISPLAY and WAYLAND_DISPLAY unset, or no "
                    "server answering): "
                    "using the terminal view. Type ? for the keys.",
                    file=sys.stderr,
                )
                use_window = False
    choose_edition(args, settings)  # the stored game's edition, unless the command names one
    _on_panels(settings, ["pygame" if use_window else "terminal"] + (["reader"] if readers else []))
    runtime = Runtime(settings, new_game=args.new_game)
    runtime.deck = deck_for(settings, bool(readers))
    stop = threading.Event()
    charts: Any = None
    web: Any = None
    voice: Any = None
    try:
        for path in readers:
            runtime.add_reader(path)
        if use_window:
            panel = PygamePanel(
                runtime.edition,
                clock=runtime.clock,
                on_quit=stop.set,
                language=runtime.unit.screens.lang,
                labels=panel_labels(runtime.edition, runtime.unit.screens.lang),
            )
            runtime.add_panel(panel)
            _stop_on_signals(stop.set)
            voice = _start_speech(runtime, args, panel)
            runtime.start()
            say_how_it_goes_on(runtime)
            charts, web = _start_extras(runtime, args)
            shot: list[BaseException] = []
            if args.screenshot:
                threading.Thread(
                    target=_screenshot_later,
                    args=(panel, args.screenshot, stop, shot),
                    daemon=True,
                ).start()
            panel.run_ui(stop)
            if shot:
                raise BankError(f"the screenshot {args.screenshot} failed: {shot[0]}")
        else:
            if args.screenshot:
                raise BankError(
                    "--screenshot needs the window: run with a display, or with "
                    "SDL_VIDEODRIVER=dummy where there is none"
                )
            from drivers.terminal_panel import TerminalPanel

            # the end of piped input ends the game view, as q does
            terminal = TerminalPanel(
                clock=runtime.clock,
                on_quit=stop.set,
                on_eof=stop.set,
                language=runtime.unit.screens.lang,
                cards=runtime.cards,
                labels=panel_labels(runtime.edition, runtime.unit.screens.lang),
            )
            runtime.add_panel(terminal)
            _stop_on_signals(stop.set)
            voice = _start_speech(runtime, args)
            runtime.start()
            say_how_it_goes_on(runtime)
            charts, web = _start_extras(runtime, args)
            while not stop.wait(0.5) and not runtime.daemon.stopping:
                pass
    except DriverError as err:
        raise BankError(str(err)) from err
    finally:
        if voice is not None:
            voice.close()
        _stop_extras(charts, web)
        runtime.stop()
    return _loop_status(runtime)


def _screenshot_later(
    panel: Any, path: Path, stop: threading.Event, failed: list[BaseException]
) -> None:
    """Save the window once drawn, then stop the emulator (``--screenshot`` is for scripts)."""
    time.sleep(0.5)
    try:
        panel.save_screenshot(path)
        print(f"ultibank: screenshot saved to {path}", file=sys.stderr)
    except Exception as err:
        failed.append(err)
    finally:
        stop.set()
        panel.close()  # wakes a window loop that sleeps until its next event


def cmd_script(args: argparse.Namespace, settings: Settings | None) -> int:
    """``ultibank script FILE``: the docs/scripts.md contract (and docs/classic.md §8.1)."""
    # --set TABLE.KEY=V for a ruleset's own tables (classic., variants.) is that ruleset's,
    # checked by it; the rest is the settings'
    sets: list[tuple[str, str, Any]] = []
    overrides: list[str] = []
    own_tables = rulesets.config_tables()
    for text in args.overrides:
        table, key, value = parse_override(text)
        if table in own_tables:
            sets.append((table, key, value))
        else:
            overrides.append(text)
    extra = load_settings(args.config, overrides) if (args.config or overrides) else None
    edition = args.edition
    if edition is None and extra is not None and "game.edition" in extra.given:
        edition = extra.edition  # --set game.edition=... or the config file's [game] edition
    # the [rules] table, with the file's ruleset tables ([classic], [variants]) as its
    # sub-tables, is read by the ruleset of the edition the script runs (known there)
    rules_table: dict[str, Any] | None = None
    if extra is not None:
        rules_table = dict(extra.raw["rules"])
        rules_table.update({t: dict(extra.raw[t]) for t in own_tables if extra.raw.get(t)})
    return run_script(
        args.file,
        edition=edition,
        data_dir=args.data_dir,
        state_out=args.state,
        config=extra.unit() if extra else None,
        seed=getattr(args, "seed", None),
        say=getattr(args, "say", None),
        record=getattr(args, "record", None),
        ruleset_sets=sets,
        rules_table=rules_table,
        strict=_strict(extra) if extra is not None else True,
    )


def cmd_readers(args: argparse.Namespace, settings: Settings) -> int:
    """``ultibank readers``: what each NFC stack sees, and why not."""
    from drivers.__main__ import main as diagnose

    return int(diagnose([]))


def cmd_enroll(args: argparse.Namespace, settings: Settings) -> int:
    """``ultibank enroll``: tap every card of the deck to record its UID."""
    from drivers.enroll import enroll

    cards = deck_cards(load_edition(settings.edition))
    for name in args.only or ():
        cards.parse(name)  # the edition's ranges, said before anything else is asked
    if args.deck is None:  # the deck goes in the data directory: through its door first
        open_data_dir(settings.data_dir, _strict(settings))

    reader = args.reader or next(
        (p for p in settings.get("reader", "paths") if p.strip().lower() != "sim"), None
    )
    if reader is None or reader.strip().lower() == "sim":  # no one can lay a tag on it
        raise BankError("enroll needs a real reader: --reader pcsc (or usb, tty:..., udp)")
    deck_path = args.deck or settings.data_dir / DECK_FILE
    specs = args.panel or [
        p for p in settings.get("panel", "backends") if p.strip().lower() != "terminal"
    ]
    panels: list[Panel] = []
    try:
        for spec in specs:  # the prompts also show on the unit's LCD (a box's GPIO or serial panel)
            panel = make_panel(spec, settings, time.monotonic, lambda: None)
            panel.start(lambda inp: None)
            panels.append(panel)
        if args.deck is None:
            open_data_dir(settings.data_dir, _strict(settings))
        return int(
            enroll(
                reader,
                Path(deck_path),
                only=args.only,
                panels=panels,
                rearm_s=settings.rearm_seconds,
                cards=cards,
            )
        )
    except DriverError as err:
        raise BankError(str(err)) from err
    finally:
        for panel in panels:
            panel.close()


def cmd_write_card(args: argparse.Namespace, settings: Settings) -> int:
    """``ultibank write-card CARD``: write the card's NDEF record onto a blank tag."""
    from drivers.enroll import write_card

    reader = args.reader or next(
        (p for p in settings.get("reader", "paths") if p.strip().lower() != "sim"), None
    )
    if reader is None or reader.strip().lower() == "sim":  # no one can lay a tag on it
        raise BankError("write-card needs a real reader: --reader pcsc (or usb, tty:..., udp)")
    # an edition given (flag or configuration) is checked; else any edition's card is written
    chosen = "game.edition" in settings.given
    cards = deck_cards(load_edition(settings.edition)) if chosen else None
    return int(write_card(reader, args.card, overwrite=args.overwrite, cards=cards))
