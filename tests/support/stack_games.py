"""Whole tap scripts replayed through a real reader stack, end to end (reader to state file).

A :class:`StackGame` runs what ``ultibank run --reader PATH`` runs (journal on disk, game,
unit, daemon loop, supervised and debounced reader). Each ``tap`` line lays a tag carrying the
card's NDEF record (as ``ultibank write-card`` writes it) on the reader through the caller's
*place* hand, waits until the tap reached the unit, lifts it and waits for the lift; the other
lines go to the daemon as the control socket sends them. The unit runs on a virtual clock, as
``ultibank script`` does: the reader's own polling is real, but what the bank waits for (the
reader's settle time, a lift's re-arm time, ``wait`` and ``hold``) moves the clock instead of
sleeping. Imports the bank, ``drivers`` and the standard library.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bank import rulesets
from bank.runtime import Runtime
from bank.script import parse_script
from bank.services.settings import load_settings
from bank.unit.io import CardId, CardLifted, CardTapped, Input, Output, PlayCue, ShowScreen
from drivers.deck import simulated_uid, with_foreign
from drivers.registry import open_reader
from drivers.sim import VirtualClock
from drivers.supervisor import ReaderService

#: lay a tag (uid, NDEF message) on the reader / take it off
Place = Callable[[str, bytes], None]
Lift = Callable[[], None]


class StackGame:
    """A unit reading a real stack, driven by tap-script lines."""

    def __init__(
        self, data_dir: Path, reader: str, place: Place, lift: Lift, edition: str = "ultime-fr"
    ) -> None:
        # the seed a script rolls with: a new classic game on the box draws a random one (D1),
        # and the stack's state file is compared with the script's (an Ultime game ignores it)
        settings = [
            f'game.data_dir="{data_dir}"',
            f'game.edition="{edition}"',
            "classic.dice_seed=0",
        ]
        self.clock = VirtualClock(1000.0)
        self.rt = Runtime(load_settings(None, settings), clock=self.clock)
        self.place, self.lift = place, lift
        self.seen: queue.Queue[Input] = queue.Queue()
        #: every screen and cue the unit gave, in order (the daemon's loop appends them)
        self.outputs: list[Output] = []
        self.rt.daemon.listeners.append(self.outputs.append)
        self.rt.start(control=False)
        self.service = ReaderService(open_reader(reader), self._post, self.rt.deck, self.rt.clock)
        self.service.start()
        # open and quiet for its settle time (virtual): the reader is connected
        deadline = time.monotonic() + 10
        while not self.service.wait_connected(0.02):
            if time.monotonic() > deadline:
                self.close()
                raise RuntimeError(f"reader {reader} did not open")
            self.clock.advance(0.1)

    def _post(self, inp: Input) -> None:
        self.rt.daemon.post(inp)
        if isinstance(inp, CardTapped | CardLifted):
            self.seen.put(inp)

    def _wait(self, kind: type, uid: str, timeout: float = 5.0) -> Any:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                item = self.seen.get(timeout=left)
            except queue.Empty:
                break
            if isinstance(item, kind) and item.uid == uid:
                return item
        raise AssertionError(f"no {kind.__name__} for {uid} within {timeout} s")

    def tap(self, card: CardId) -> CardTapped:
        """Lay the card's tag, wait for the tap to reach the unit, take it off again."""
        from drivers.identity import encode_card_record

        uid = simulated_uid(card)
        self.place(uid, encode_card_record(card))
        tapped: CardTapped = self._wait(CardTapped, uid)
        self.lift()
        # the stack sees the field empty in real time; the re-arm that confirms the lift
        # passes on the virtual clock
        debouncer = self.service.debouncer
        deadline = time.monotonic() + 5.0
        while not debouncer.leaving and debouncer.current == uid:
            if time.monotonic() > deadline:
                raise AssertionError(f"the reader did not see {uid} leave within 5 s")
            time.sleep(0.002)
        self.clock.advance(debouncer.rearm_s + 0.001)  # a millisecond over: no float rounding
        debouncer.poll()
        self._wait(CardLifted, uid)
        self.rt.daemon.call(lambda: None)  # the tap has been handled
        return tapped

    def play(self, script: str) -> None:
        """Run every line of *script* (tap lines through the reader; ``key``, ``roll`` and
        ``info`` as the control socket sends them). A card of the other ruleset is a tag
        carrying its record, which the unit refuses as one of another edition."""
        for action in parse_script(script, "stack-game", with_foreign(self.rt.cards)):
            if action.verb == "tap":
                assert action.card is not None, "stack games tap cards by name"
                tapped = self.tap(action.card)
                assert tapped.card == action.card, f"{action.text}: read as {tapped.card}"
            else:
                self.rt.perform(action)

    def state(self) -> dict[str, Any]:
        return self.rt.state()

    def state_file(self) -> dict[str, Any]:
        """The state file `ultibank script --state` writes: the ruleset's own (docs/classic.md
        §8.4 for a classic game), else docs/scripts.md's."""

        def read() -> dict[str, Any]:
            game = self.rt.game
            own = rulesets.for_edition(game.edition).state_file
            if own is not None:
                return own(game.ruleset, game.state, game.undo_available)
            data: dict[str, Any] = game.state.to_json()
            data["undo_available"] = game.undo_available
            return data

        result: dict[str, Any] = self.rt.daemon.call(read)
        return result

    def screens(self) -> list[str]:
        """The screens the unit showed, as transcript lines."""
        return [f"screen {o.screen.text()}" for o in self.outputs if isinstance(o, ShowScreen)]

    def cues(self) -> list[str]:
        return [o.cue.value for o in self.outputs if isinstance(o, PlayCue)]

    def close(self) -> None:
        self.service.stop()
        self.rt.stop()
