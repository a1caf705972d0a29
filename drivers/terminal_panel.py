"""The unit in a terminal: for SSH sessions on the box and for laptops without a display.

Each screen is printed as a small framed block (the text a 20x4 character LCD would show, from
:mod:`drivers.charlcd`) or as one line (``style="line"``); each cue as a word, with the
terminal bell for errors. Keys are read from stdin, one at a time (cbreak mode via termios)
when stdin is a terminal, else one command per line:

=========================  =====================================================
key                        input
=========================  =====================================================
Enter, ``o``               ✓ (press and release)
``m``                      M
``x``, Esc                 X
``u``                      hold ✓ and X together (undo): released after a hold
``r``                      hold X alone (reset): released after a hold
``v``                      hold M alone (the unit's voice on/off)
``a``                      hold ✓ alone (say the last sentence again)
``1`` .. ``8``             tap bank card 1..8, as many as the edition seats (the tray)
``p16`` Enter              tap property card 16
``e7`` Enter               tap event card 7
``?``                      help
``q``                      quit (the ``on_quit`` callback)
=========================  =====================================================

In a keypad game (the ruleset's vocabulary says so: the classic games, docs/classic.md §5.6)
the digits are the keypad, and the ruleset's vocabulary gives the letters of its card kinds and
of its info screens; the classic ones:

=========================  =====================================================
key                        input
=========================  =====================================================
``0`` .. ``9``             keypad digit
Backspace, DEL             keypad ⌫ (in an entry; a number being typed loses a digit)
``b5``                     tap bank card 5 (no Enter: one digit; the panel's own letter)
``d12`` Enter              tap deed 12
``c3`` Enter               tap Chance 3 (the edition's first deck)
``k3`` Enter               tap Community Chest 3 (the second deck)
``i`` / ``s``              info screens: every player's cash / the ranking (again: next page)
``t`` ``f`` ``v`` ``w``    info: the last roller, the last deed, their deeds, the others'
Enter/``o``, ``m``, ...    ✓, M, X, ``u``, ``r``, ``q`` as above; ``?`` help (not ``h``)
=========================  =====================================================

Which card kinds, how many of each, their letters and names come from the edition and its
ruleset, so an edition with more deeds (Méga's 37) or a ruleset with other kinds needs nothing
here.

In line mode an empty line is ✓ and a line ends a ``p``/``e`` (``d``/``c``/``k``) number.
At the end of the input (a file or a pipe ran out, Ctrl-D on an empty line) the ``on_eof``
callback is called once the last line and any hold it started are done; without one, screens
go on being shown.
Which cards exist (bank cards, properties, event cards) is the edition's to say: the panel is
given its :class:`bank.unit.io.CardRanges` (default: the default edition's).
Imports ``bank.unit.io``, ``drivers.base``, ``drivers.charlcd``, ``drivers.deck`` and the
standard library.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import select
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from bank.unit.io import (
    BANK,
    Button,
    ButtonPressed,
    ButtonReleased,
    CardId,
    CardLifted,
    CardRanges,
    CardTapped,
    Cue,
    InfoAsked,
    Input,
    KeyPressed,
    KeyReleased,
    Labels,
    Screen,
)
from bank.unit.text import printable, token_name
from drivers import charlcd
from drivers.base import PanelError
from drivers.deck import default_cards

#: the terminal's own words, in the unit's languages: message id -> language -> template
WORDS: dict[str, dict[str, str]] = {
    "help": {
        "en": """\
keys: Enter/o = OK   m = M   x/Esc = X
      u = hold OK+X (undo)   r = hold X (reset)   n = voice on/off   a = say again
      1-{seats} = bank card   p16 Enter = property 16   e7 Enter = event 7
      ? = this help   q = quit""",
        "fr": """\
touches : Entrée/o = OK   m = M   x/Échap = X
      u = garder OK+X (annuler)   r = garder X (remise à zéro)   n = voix oui/non   a = répéter
      1-{seats} = carte banque   p16 Entrée = propriété 16   e7 Entrée = événement 7
      ? = cette aide   q = quitter""",
    },
    "help.keypad": {
        "en": """\
keys: 0-9 = keypad digits   Backspace = erase a digit
      Enter/o = OK   m = M   x/Esc = X   u = hold OK+X (undo)   r = hold X (reset)
      n = voice on/off   a = say again
      bank cards: {seats}
      {kinds}
      menu: m, then an item's digits{example}{menu}{dice}{info}
      ? = this help   q = quit""",
        "fr": """\
touches : 0-9 = pavé numérique   Retour arrière = effacer un chiffre
      Entrée/o = OK   m = M   x/Échap = X   u = garder OK+X (annuler)   r = garder X (remise à zéro)
      n = voix oui/non   a = répéter
      cartes banque : {seats}
      {kinds}
      menu : m, puis les chiffres d'un article{example}{menu}{dice}{info}
      ? = cette aide   q = quitter""",
    },
    "help.example": {"en": " (m {digits} = {name})", "fr": " (m {digits} = {name})"},
    "help.info": {"en": "\n      info: ", "fr": "\n      infos : "},
    "help.deck": {
        "en": "   {p}1-{p}{count} Enter = {name}",
        "fr": "   {p}1-{p}{count} Entrée = {name}",
    },
    "help.menu": {"en": "   m {digits} = {name}", "fr": "   m {digits} = {name}"},
    "help.dice": {
        "en": "\n      the unit rolls the dice and its third die ({faces}): nothing to type",
        "fr": "\n      l'unité lance les dés et son troisième dé ({faces}) : rien à taper",
    },
    "hello": {
        "en": "ultibank terminal panel: ? for help, q to quit",
        "fr": "ultibank, vue terminal : ? pour l'aide, q pour quitter",
    },
    "holding": {"en": "holding {buttons}...", "fr": "maintien de {buttons}..."},
    "entry.cancelled": {"en": "card entry cancelled", "fr": "saisie de carte annulée"},
    "entry.empty": {
        "en": "type a number after {p}, e.g. {p}7",
        "fr": "tapez un numéro après {p}, par exemple {p}7",
    },
    "entry.range": {
        "en": "no {kind} card {digits} (1..{count})",
        "fr": "pas de carte {kind} {digits} (1..{count})",
    },
    "range.bank": {
        "en": "no bank card {digits}: b1 to b{count}",
        "fr": "pas de carte banque {digits} : b1 à b{count}",
    },
    "range.typed": {
        "en": "no {noun} {digits}: {p}1 to {p}{count}",
        "fr": "pas de {noun} {digits} : {p}1 à {p}{count}",
    },
    "noun.bank": {"en": "bank card", "fr": "carte banque"},
    "unknown": {
        "en": "unknown key {name}: ? for help",
        "fr": "touche inconnue {name} : ? pour l'aide",
    },
    "unknown.sequence": {"en": "(arrow or function key)", "fr": "(flèche ou touche de fonction)"},
    "kind.prop": {"en": "prop", "fr": "propriété"},
    "kind.event": {"en": "event", "fr": "événement"},
}


def say(lang: str, key: str, **fields: object) -> str:
    """The terminal's message *key* in *lang* (English for a language it does not know)."""
    templates = WORDS[key]
    return templates.get(lang, templates["en"]).format(**fields)


HELP = say("en", "help", seats=default_cards().bank)

#: seconds a ``u``/``r`` hold lasts: a little over the unit's 5 s, so the hold is never short
HOLD_SECONDS = 5.5


@dataclass(frozen=True, slots=True)
class Click:
    """Press and release a button."""

    button: Button


@dataclass(frozen=True, slots=True)
class Hold:
    """Press buttons together and release them after the hold time."""

    buttons: tuple[Button, ...]


@dataclass(frozen=True, slots=True)
class Tap:
    """Tap a card on the (imaginary) reader."""

    card: CardId


@dataclass(frozen=True, slots=True)
class Key:
    """Press and release a keypad key (``0``-``9``, ``back``)."""

    key: str


@dataclass(frozen=True, slots=True)
class Info:
    """Ask the unit for an info screen (the ruleset's: ``table``, ``scores`` ...)."""

    name: str


@dataclass(frozen=True, slots=True)
class Say:
    """Print a message (help, a refused entry)."""

    text: str


@dataclass(frozen=True, slots=True)
class Refuse:
    """A key that means nothing here: say so, with the error cue."""

    text: str


@dataclass(frozen=True, slots=True)
class Quit:
    """The user asked to quit."""


Action = Click | Hold | Key | Tap | Info | Say | Refuse | Quit

_SIMPLE: dict[str, Action] = {
    "o": Click(Button.OK),
    "m": Click(Button.MENU),
    "x": Click(Button.CANCEL),
    "\x1b": Click(Button.CANCEL),
    "u": Hold((Button.OK, Button.CANCEL)),
    "r": Hold((Button.CANCEL,)),
    # the speech gestures (held longer than the unit's 3 s): voice on/off, say it again
    "n": Hold((Button.MENU,)),
    "a": Hold((Button.OK,)),
    "q": Quit(),
    "\x04": Quit(),  # Ctrl-D: cbreak mode does not turn it into end of file
}
_PREFIX = {"p": "prop", "e": "event"}
#: a keypad game's bank cards: the digits are the keypad's, so ``b`` and one digit (no Enter)
_KEYPAD_PREFIX = {"b": BANK}
_ERASE = ("\x7f", "\b")
#: the buttons as the help names them, in every language
_KEY_NAMES = {Button.OK: "OK", Button.MENU: "M", Button.CANCEL: "X"}


class KeyReader:
    """Turns keys into actions; pure (no I/O), so it is tested on its own.

    A game whose ruleset's vocabulary (*labels*, from the wiring) says it is played with the
    keypad has digits as keypad keys and its cards typed with a letter (``b5`` for a bank
    card, the ruleset's letters for its own kinds) and the ruleset's info letters; *labels*
    also name the tokens and the card kinds in the help."""

    def __init__(
        self, lang: str = "en", cards: CardRanges | None = None, labels: Labels | None = None
    ) -> None:
        self.lang = lang
        self._cards = cards or default_cards()
        self._labels = labels or Labels(lang)
        #: the keypad (the ruleset's vocabulary says so): digits are its keys, cards are typed
        self.keypad = self._labels.keypad
        prefixes = _KEYPAD_PREFIX if self.keypad else _PREFIX
        self._prefix = {p: kind for p, kind in prefixes.items() if self._cards.count(kind)}
        # the ruleset's own card kinds, on the letters its panel vocabulary gives them
        for letter, kind in self._labels.keys.items():
            if self._cards.count(kind) and letter not in self._prefix:
                self._prefix[letter] = kind
        #: the ruleset's info screens, on letters no card entry takes
        self._info = {
            k.letter: k.info
            for k in self._labels.info_keys
            if k.info and k.letter not in self._prefix
        }
        #: the keys that tap a bank card at once (one digit per seat, at most 9)
        self._seats = "" if self.keypad else "123456789"[: min(self._cards.bank, 9)]
        self._kind: str | None = None
        self._digits = ""

    @property
    def entering(self) -> str:
        """The card number being typed (``p16``), or empty."""
        return f"{self._letter(self._kind)}{self._digits}" if self._kind else ""

    def _letter(self, kind: str) -> str:
        return next(p for p, k in self._prefix.items() if k == kind)

    def help(self) -> str:
        """The keys, in the terminal's language (the keypad: the edition's tokens and cards)."""
        if not self.keypad:
            return say(self.lang, "help", seats=len(self._seats)) + self._ruleset_help()
        seats = "  ".join(
            f"b{n} {self._labels.token(self._cards.token(n))}"
            for n in range(1, self._cards.bank + 1)
        )
        kinds = "".join(
            say(self.lang, "help.deck", p=letter, count=self._cards.count(kind),
                name=self._name(kind))
            for letter, kind in self._labels.keys.items()
            if self._prefix.get(letter) == kind
        ).lstrip()  # fmt: skip
        menu = "".join(
            say(self.lang, "help.menu", digits=" ".join(str(item)), name=name)
            for item, name in sorted(self._labels.menu.items())
        )
        shown = self._labels.menu_example
        example = (
            say(self.lang, "help.example", digits=" ".join(str(shown[0])), name=shown[1])
            if shown
            else ""
        )
        faces = self._labels.third_die
        dice = say(self.lang, "help.dice", faces=", ".join(faces)) if faces else ""
        return say(
            self.lang, "help.keypad", seats=seats, kinds=kinds, example=example, menu=menu,
            dice=dice, info=self._info_help(),
        )  # fmt: skip

    def _info_help(self) -> str:
        """The help's lines for the info letters, a row of the vocabulary's a line."""
        listed = [k for k in self._labels.info_keys if self._info.get(k.letter) == k.info]
        if not listed:
            return ""
        head = say(self.lang, "help.info")
        indent = "\n" + " " * (len(head) - 1)
        rows = sorted({k.row for k in listed})
        lines = ("   ".join(f"{k.letter} = {k.words}" for k in listed if k.row == r) for r in rows)
        return head + indent.join(lines)

    def _ruleset_help(self) -> str:
        """The help's lines for what the ruleset's vocabulary adds: its card kinds' letters
        and its menu items (nothing for a ruleset that adds none)."""
        own = [
            say(
                self.lang,
                "help.deck",
                p=letter,
                count=self._cards.count(kind),
                name=self._name(kind),
            )
            for letter, kind in self._labels.keys.items()
            if self._prefix.get(letter) == kind
        ]
        own += [
            say(self.lang, "help.menu", digits=" ".join(str(item)), name=name)
            for item, name in sorted(self._labels.menu.items())
        ]
        return "\n" + "\n".join(line.strip() for line in own) if own else ""

    def _name(self, kind: str) -> str:
        """What the game calls cards of *kind* (its vocabulary's, else the panel's word)."""
        named = self._labels.decks.get(kind) or self._labels.nouns.get(kind)
        if named:
            return named
        return say(self.lang, f"kind.{kind}") if f"kind.{kind}" in WORDS else kind

    def _noun(self, kind: str) -> str:
        """How a refusal names a card of *kind* (``deed``, ``Chance card``, ``bank card``)."""
        if kind == BANK:
            return say(self.lang, "noun.bank")
        return self._labels.nouns.get(kind) or self._name(kind)

    def keys(self, chunk: str) -> list[Action]:
        """Actions for a chunk of keys read at once (cbreak mode)."""
        out: list[Action] = []
        i = 0
        while i < len(chunk):
            ch = chunk[i]
            if ch == "\x1b" and chunk[i + 1 : i + 2] in ("[", "O"):
                # An arrow or function key: one refusal for the whole escape sequence.
                i += 2
                while i < len(chunk) and not (chunk[i].isalpha() or chunk[i] == "~"):
                    i += 1
                i += 1
                what = say(self.lang, "unknown.sequence")
                out.append(Refuse(say(self.lang, "unknown", name=what)))
                continue
            out += self.key(ch)
            i += 1
        return out

    def key(self, ch: str) -> list[Action]:
        """Actions for one key."""
        if self._kind is not None:
            if ch.isdigit():
                self._digits += ch
                return self._finish() if self._kind == BANK else []
            if ch in _ERASE:
                self._digits = self._digits[:-1]
                return []
            if ch in ("\r", "\n"):
                return self._finish()
            self._kind, self._digits = None, ""
            return [Say(say(self.lang, "entry.cancelled")), *self.key(ch)]
        if ch in ("\r", "\n"):
            return [Click(Button.OK)]
        low = ch.lower()
        if low in self._prefix:
            self._kind, self._digits = self._prefix[low], ""
            return []
        if self.keypad and ch.isdigit():
            return [Key(ch)]
        if self.keypad and ch in _ERASE:
            return [Key("back")]
        if low in self._info:
            return [Info(self._info[low])]
        if ch and ch in self._seats:
            return [Tap(CardId("bank", int(ch)))]
        if ch == "?" or (low == "h" and not self.keypad):
            return [Say(self.help())]
        action = _SIMPLE.get(low)
        if action is not None:
            return [action]
        name = repr(ch) if ch.isprintable() else f"0x{ord(ch):02x}"
        return [Refuse(say(self.lang, "unknown", name=name))]

    def line(self, text: str) -> list[Action]:
        """Actions for one line (line mode): an empty line is ✓, the end finishes a number."""
        text = text.strip()
        if not text:
            return [Click(Button.OK)]
        out: list[Action] = []
        for ch in text:
            out += self.key(ch)
        if self._kind is not None:
            out += self._finish()
        return out

    def _finish(self) -> list[Action]:
        kind, digits = self._kind, self._digits
        self._kind, self._digits = None, ""
        assert kind is not None
        if not digits:
            return [Say(say(self.lang, "entry.empty", p=self._letter(kind)))]
        count = self._cards.count(kind)
        try:
            return [Tap(self._cards.check(CardId(kind, int(digits))))]
        except ValueError:
            if not self.keypad:
                name = self._name(kind)
                return [Say(say(self.lang, "entry.range", kind=name, digits=digits, count=count))]
            noun, p = self._noun(kind), self._letter(kind)
            return [
                Refuse(say(self.lang, "range.typed", noun=noun, digits=digits, count=count, p=p))
            ]


class TerminalPanel:
    """A panel on a terminal's stdin and stdout; its own words (help, refusals) in *language*
    (the unit's: ``en`` or ``fr``), the screens' text in what the terminal can show."""

    def __init__(
        self,
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        on_quit: Callable[[], None] | None = None,
        on_eof: Callable[[], None] | None = None,
        style: str = "block",
        bell: bool = True,
        hold_seconds: float = HOLD_SECONDS,
        cols: int = 20,
        rows: int = 4,
        name: str = "terminal",
        timer: Callable[[float, Callable[[], None]], Any] | None = None,
        language: str = "en",
        cards: CardRanges | None = None,
        labels: Labels | None = None,
    ) -> None:
        if style not in ("block", "line"):
            raise PanelError(f"terminal style must be 'block' or 'line', not {style!r}")
        charlcd.LcdGeometry(cols, rows)
        self._in = stdin if stdin is not None else sys.stdin
        self._out = stdout if stdout is not None else sys.stdout
        self._clock = clock
        self.on_quit = on_quit
        self.on_eof = on_eof
        self._style = style
        self._bell = bell
        self._hold = hold_seconds
        self._cols = cols
        self._rows = rows
        self.name = name
        self._timer = timer or _start_timer
        self.language = language
        self._keys = KeyReader(language, cards, labels)
        if labels is None:
            tokens = {t: token_name(language, t) for t in (cards or default_cards()).tokens}
            labels = Labels(language, tokens, keypad=self._keys.keypad)
        self._labels = labels
        self._post: Callable[[Input], None] | None = None
        self._write_lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop_r, self._stop_w = -1, -1
        self._saved: Any = None
        self._timers: list[Any] = []
        self._encoding = _encoding_of(self._out)

    # ------------------------------------------------------------ Panel protocol

    def start(self, post: Callable[[Input], None]) -> None:
        """Start reading keys; cbreak mode when stdin is a terminal."""
        self._post = post
        try:
            fd = self._in.fileno()
        except (AttributeError, OSError, ValueError) as err:
            raise PanelError(f"the terminal panel needs a real stdin: {err}") from err
        raw = os.isatty(fd)
        if raw:
            import termios
            import tty

            self._saved = termios.tcgetattr(fd)
            tty.setcbreak(fd)
        self._stop_r, self._stop_w = os.pipe()
        self._thread = threading.Thread(
            target=self._read_loop, args=(fd, raw), name=self.name, daemon=True
        )
        self._thread.start()
        self._print(say(self.language, "hello"))

    def _shows(self, ch: str) -> bool:
        """Whether the terminal's encoding can show *ch* (UTF-8: all; ASCII: A00's part)."""
        try:
            ch.encode(self._encoding)
        except UnicodeEncodeError:
            return False
        return True

    def show(self, screen: Screen) -> None:
        """Print *screen*, with the accents and symbols the terminal's encoding can show."""
        if self._style == "line":
            # escaped: a name from an edition file never drives the terminal
            self._print(printable(charlcd.fold_unless(screen.text(), self._shows, glyphs=False)))
            return
        rows = charlcd.layout(
            screen,
            self._cols,
            self._rows,
            glyphs=False,
            shows=self._shows,
            labels=self._labels,
        )
        top = "+" + "-" * self._cols + "+"  # no internal screen name: one language on screen
        body = [f"|{row}|" for row in rows]
        body = [printable(line) for line in body]  # escaped, as above
        self._print("\n".join([top, *body, "+" + "-" * self._cols + "+"]))

    def play(self, cue: Cue) -> None:
        """Print *cue* as a word; ring the bell for an error."""
        bell = "\a" if self._bell and cue is Cue.ERROR else ""
        self._print(f"~ {cue.value}{bell}")

    def close(self) -> None:
        """Stop reading keys and give the terminal back as it was."""
        for t in self._timers:
            with contextlib.suppress(Exception):
                t.cancel()
        self._timers = []
        if self._thread is not None:
            os.write(self._stop_w, b"x")
            self._thread.join(timeout=5)
            self._thread = None
            for fd in (self._stop_r, self._stop_w):
                os.close(fd)
        if self._saved is not None:
            import termios

            with contextlib.suppress(termios.error, OSError, ValueError):
                termios.tcsetattr(self._in.fileno(), termios.TCSADRAIN, self._saved)
            self._saved = None

    # ------------------------------------------------------------ internals

    def _print(self, text: str) -> None:
        # The terminal may be gone (SSH closed): the bank carries on without it.
        with self._write_lock, contextlib.suppress(OSError, ValueError):
            self._out.write(text + "\n")
            self._out.flush()

    def _read_loop(self, fd: int, raw: bool) -> None:
        pending = b""
        while True:
            try:
                ready, _, _ = select.select([fd, self._stop_r], [], [])
            except (OSError, ValueError):
                return
            if self._stop_r in ready:
                return
            try:
                data = os.read(fd, 1024)
            except OSError:
                return
            if not data:
                self._end_of_input(pending)
                return
            if raw:
                self._run(self._keys.keys(data.decode("utf-8", errors="replace")))
                continue
            pending += data
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                self._run(self._keys.line(line.decode("utf-8", errors="replace")))

    def _end_of_input(self, pending: bytes) -> None:
        """Run a last line without its newline, let holds finish, then call ``on_eof``."""
        if pending.strip():
            self._run(self._keys.line(pending.decode("utf-8", errors="replace")))
        if self.on_eof is None:
            return  # keep showing screens, stop reading
        for timer in list(self._timers):
            join = getattr(timer, "join", None)
            if join is not None:
                join()
        self.on_eof()

    def _emit(self, item: Input) -> None:
        if self._post is not None:
            self._post(item)

    def _run(self, actions: list[Action]) -> None:
        for action in actions:
            if isinstance(action, Click):
                now = self._clock()
                self._emit(ButtonPressed(now, action.button))
                self._emit(ButtonReleased(self._clock(), action.button))
            elif isinstance(action, Hold):
                now = self._clock()
                for b in action.buttons:
                    self._emit(ButtonPressed(now, b))
                held = "+".join(_KEY_NAMES[b] for b in action.buttons)
                self._print(say(self.language, "holding", buttons=held))
                timer = self._timer(self._hold, self._releaser(action.buttons))
                self._timers.append(timer)
                # keys typed during the hold come after it, as on the unit (no key can be
                # pressed while a hand holds the buttons): the hold ends before the next one
                join = getattr(timer, "join", None)
                if join is not None:
                    join()
            elif isinstance(action, Key):
                self._emit(KeyPressed(self._clock(), action.key))
                self._emit(KeyReleased(self._clock(), action.key))
            elif isinstance(action, Info):
                self._emit(InfoAsked(self._clock(), action.name))
            elif isinstance(action, Tap):
                uid = f"TERM-{action.card.kind}-{action.card.number}"
                self._emit(CardTapped(self._clock(), action.card, uid, self.name))
                self._emit(CardLifted(self._clock(), uid, self.name))
            elif isinstance(action, Say):
                self._print(action.text)
            elif isinstance(action, Refuse):
                self._print(action.text)
                self.play(Cue.ERROR)
            elif self.on_quit is not None:
                self.on_quit()

    def _releaser(self, buttons: tuple[Button, ...]) -> Callable[[], None]:
        def release() -> None:
            for b in reversed(buttons):
                self._emit(ButtonReleased(self._clock(), b))

        return release


def _encoding_of(stream: TextIO) -> str:
    """The stream's encoding (a terminal's, from the locale); ASCII when it says none."""
    name = getattr(stream, "encoding", None) or "ascii"
    try:
        return codecs.lookup(name).name
    except LookupError:
        return "ascii"


def _start_timer(seconds: float, fn: Callable[[], None]) -> threading.Timer:
    t = threading.Timer(seconds, fn)
    t.daemon = True
    t.start()
    return t
