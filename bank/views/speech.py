"""What the unit says aloud: a short sentence for each transaction and for the screens a
player acts on, in the edition's language, with amounts and numbers in words.

The sentences are the history's: a transaction is said with the words ``ultibank history``
writes for it, by its ruleset's spoken narrator (:func:`bank.views.narrate.narrator_for`), which
names a deed by its name and an amount in words (``600 €`` is "six cents euros", ``£400``
"four hundred pounds").
The screens a player acts on (a refusal's reason, an auction's bid and its last seconds, the
jail question, a player's balance, the winner) are said from the screen model itself, so the
words are the LCD's, expanded for the ear (``Av.`` is "avenue", ``✓`` is "OK"); the narrator
names the tokens and says the ruleset's own screens its way (a classic balance with its
deeds, a classic landing that moves nothing): this module knows no ruleset.

This module is text only (no clock, no thread, no sound): :class:`Announcer` turns what the
unit produced into sentences; an engine (``drivers.speech``) turns a sentence into sound.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from bank import rulesets
from bank.engine.events import DebtChanged, GameEnded, MoneyMoved, PlayerBankrupt
from bank.engine.records import Record, StoredEntry, decode_entries
from bank.engine.state import GameState
from bank.unit.io import Cue, Output, PlayCue, Screen, ShowScreen, SpeechAsked
from bank.views.narrate import Narrator, narrator_for, states_before
from board_assets import Edition

__all__ = [
    "MODES",
    "Announcer",
    "Voice",
    "number_words",
    "spoken",
]

#: what is said: everything, only money and refusals, nothing
MODES: Final = ("all", "money", "off")

# ---------------------------------------------------------------------- numbers in words

_FR_UNITS: Final = [
    "zéro",
    "un",
    "deux",
    "trois",
    "quatre",
    "cinq",
    "six",
    "sept",
    "huit",
    "neuf",
    "dix",
    "onze",
    "douze",
    "treize",
    "quatorze",
    "quinze",
    "seize",
    "dix-sept",
    "dix-huit",
    "dix-neuf",
]
_FR_TENS: Final = {2: "vingt", 3: "trente", 4: "quarante", 5: "cinquante", 6: "soixante"}
_EN_UNITS: Final = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_EN_TENS: Final = {
    2: "twenty", 3: "thirty", 4: "forty", 5: "fifty", 6: "sixty", 7: "seventy", 8: "eighty",
    9: "ninety",
}  # fmt: skip


def _fr_below_100(n: int) -> str:
    if n < 20:
        return _FR_UNITS[n]
    tens, unit = divmod(n, 10)
    if tens in (7, 9):  # soixante-dix, quatre-vingt-dix: 60 or 80 plus 10-19
        base = "soixante" if tens == 7 else "quatre-vingt"
        rest = _FR_UNITS[10 + unit]
        return f"{base} et {rest}" if n == 71 else f"{base}-{rest}"
    if tens == 8:
        return "quatre-vingts" if unit == 0 else f"quatre-vingt-{_FR_UNITS[unit]}"
    word = _FR_TENS[tens]
    if unit == 0:
        return word
    if unit == 1:
        return f"{word} et un"
    return f"{word}-{_FR_UNITS[unit]}"


def _fr_below_1000(n: int, before_mille: bool = False) -> str:
    hundreds, rest = divmod(n, 100)
    if hundreds == 0:
        text = _fr_below_100(rest)
        # "quatre-vingts" loses its s before "mille"
        return text.removesuffix("s") if before_mille and text == "quatre-vingts" else text
    head = "cent" if hundreds == 1 else f"{_FR_UNITS[hundreds]} cent"
    if rest == 0:
        return head if hundreds == 1 or before_mille else head + "s"
    return f"{head} {_fr_below_100(rest)}"


def _fr(n: int) -> str:
    if n < 1000:
        return _fr_below_1000(n)
    parts = []
    for size, one, many in ((10**9, "un milliard", "milliards"), (10**6, "un million", "millions")):
        big, n = divmod(n, size)
        if big:
            parts.append(one if big == 1 else f"{_fr(big)} {many}")
    thousands, n = divmod(n, 1000)
    if thousands:
        parts.append("mille" if thousands == 1 else f"{_fr_below_1000(thousands, True)} mille")
    if n:
        parts.append(_fr_below_1000(n))
    return " ".join(parts)


def _en_below_1000(n: int) -> str:
    hundreds, rest = divmod(n, 100)
    if rest < 20:
        tail = _EN_UNITS[rest]
    else:
        tens, unit = divmod(rest, 10)
        tail = _EN_TENS[tens] + (f"-{_EN_UNITS[unit]}" if unit else "")
    if hundreds == 0:
        return tail
    head = f"{_EN_UNITS[hundreds]} hundred"
    return head if rest == 0 else f"{head} and {tail}"


def _en(n: int) -> str:
    if n < 1000:
        return _en_below_1000(n)
    parts = []
    for size, name in ((10**9, "billion"), (10**6, "million"), (1000, "thousand")):
        big, n = divmod(n, size)
        if big:
            parts.append(f"{_en(big)} {name}")
    if n:
        parts.append(("and " if n < 100 else "") + _en_below_1000(n))
    return " ".join(parts)


def number_words(n: int, lang: str) -> str:
    """*n* in words, in French (``quatre-vingt-dix``) or English (``four hundred and twenty``)."""
    if n < 0:
        return ("moins " if lang == "fr" else "minus ") + number_words(-n, lang)
    return _fr(n) if lang == "fr" else _en(n)


# ---------------------------------------------------------------------- currencies and symbols

#: how each currency sign is said: (singular, plural) by language
_CURRENCIES: Final[Mapping[str, Mapping[str, tuple[str, str]]]] = {
    "€": {"fr": ("euro", "euros"), "en": ("euro", "euros")},
    "M€": {"fr": ("million d'euros", "millions d'euros"), "en": ("million", "million")},
    "£": {"fr": ("livre", "livres"), "en": ("pound", "pounds")},
    "$": {"fr": ("dollar", "dollars"), "en": ("dollar", "dollars")},
    "₥": {"fr": ("million", "millions"), "en": ("million", "million")},
    "k": {"fr": ("mille", "mille"), "en": ("thousand", "thousand")},
    "฿": {"fr": ("berry", "berrys"), "en": ("berry", "berries")},
    "B": {"fr": ("berry", "berrys"), "en": ("berry", "berries")},
    "cr": {"fr": ("crédit", "crédits"), "en": ("credit", "credits")},
}


def money_words(amount: int, currency: str, lang: str) -> str:
    """``600 €`` as it is said: ``six cents euros``; ``£1`` ``one pound``."""
    one, many = _CURRENCIES.get(currency, {}).get(lang, (currency, currency))
    # French says "zéro euro", "un euro"; English "zero pounds", "one pound"
    single = abs(amount) == 1 or (lang == "fr" and amount == 0)
    unit = one if single else many
    if lang == "fr" and amount >= 10**6 and amount % 10**6 == 0 and unit in ("euros", "livres"):
        unit = "d'" + unit if unit == "euros" else "de " + unit  # un million d'euros
    return f"{number_words(amount, lang)} {unit}".strip()


#: abbreviations of the LCD and of street names, as said (whole words only)
_ABBREVIATIONS: Final[Mapping[str, Sequence[tuple[str, str]]]] = {
    "fr": (
        (r"\bAv\.", "avenue"), (r"\bBd\.?", "boulevard"), (r"\bFbg\.?", "faubourg"),
        (r"\bFg\.?", "faubourg"), (r"\bPl\.", "place"), (r"\bSt\b-?", "saint "),
        (r"\bSte\b-?", "sainte "), (r"\bR\.", "rue"), (r"\bM\.", "monsieur"),
        (r"\bcomp\.", "compagnie"), (r"\bhyp\.", "hypothèque"), (r"\bmais\.", "maisons"),
        (r"\bsvp\b", "s'il vous plaît"), (r"\bdistrib\.", "de distribution"),
        (r"\b1 (?=(?:maison|carte|gare|compagnie|case|fois|pénalité|enchère)\b)", "une "),
    ),
    "en": (
        (r"\bAve?\.", "avenue"), (r"\bSt\.(?= Station)", "street"), (r"\bSt\.", "street"),
        (r"\bRd\.?\b", "road"), (r"\bSq\.?\b", "square"), (r"\bMr\.?\b", "mister"),
        (r"\bStn\.?\b", "station"),
    ),
}  # fmt: skip

#: signs of the LCD and of the history's sentences, as said
_SIGNS: Final[Mapping[str, Sequence[tuple[str, str]]]] = {
    "fr": (("✓", " OK "), ("×", " fois "), ("+", " plus "), ("−", " moins "), ("→", " à "),
           ("=", " font "), ("·", ", "), ("/", ", "), ("…", ""), ("#", " numéro "),
           ("%", " pour cent")),
    "en": (("✓", " OK "), ("×", " times "), ("+", " plus "), ("−", " minus "), ("→", " to "),
           ("=", " makes "), ("·", ", "), ("/", ", "), ("…", ""), ("#", " number "),
           ("%", " percent")),
}  # fmt: skip

_AMOUNT_AFTER = re.compile(r"(?<![\w])(-?\d+)\s?(M€|₥|€|£|\$|฿|cr\b|k\b)")
_AMOUNT_BEFORE = re.compile(r"(M€|₥|€|£|\$|฿)\s?(\d+)")
_NUMBER = re.compile(r"\d+")
_ORDINAL = {
    "fr": re.compile(r"\b(\d+)(?:e|ème|er|re)\b"),
    "en": re.compile(r"\b(\d+)(?:st|nd|rd|th)\b"),
}
_EN_ORDINALS: Final = {
    1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh",
    8: "eighth", 9: "ninth", 10: "tenth", 11: "eleventh", 12: "twelfth",
}  # fmt: skip


def ordinal_words(n: int, lang: str) -> str:
    """*n*-th in words: ``troisième``, ``premier``; ``third``, ``first``."""
    if lang == "fr":
        if n == 1:
            return "premier"
        word = number_words(n, "fr")
        if word.endswith("cinq"):
            return word + "uième"
        if word.endswith("neuf"):
            return word[:-1] + "vième"
        if word.endswith(("vingts", "cents")):
            word = word[:-1]
        return word.removesuffix("e") + "ième"
    return _EN_ORDINALS.get(n) or number_words(n, "en") + "th"


def spoken(text: str, lang: str) -> str:
    """*text* (a sentence of the history, a line of the LCD) as it is said aloud: amounts with
    their currency in words, every number in words, abbreviations and signs spelt out."""
    lang = "fr" if lang == "fr" else "en"
    text = _AMOUNT_AFTER.sub(lambda m: money_words(int(m[1]), m[2], lang), text)
    text = _AMOUNT_BEFORE.sub(lambda m: money_words(int(m[2]), m[1], lang), text)
    text = text.replace("(s)", "")  # "1 carte(s)": the plural marker is not said
    for pattern, word in _ABBREVIATIONS[lang]:
        text = re.sub(pattern, word, text)
    for sign, word in _SIGNS[lang]:
        text = text.replace(sign, word)
    text = _ORDINAL[lang].sub(lambda m: ordinal_words(int(m[1]), lang), text)
    text = _NUMBER.sub(lambda m: number_words(int(m[0]), lang), text)
    text = text.replace("(", ", ").replace(")", ",").replace(";", ",").replace(" :", ",")
    text = re.sub(r"\s+", " ", text)
    text = re.sub(r"\s+([,.])", r"\1", text)
    text = re.sub(r",(\s*,)+", ",", text)
    return text.strip(" ,")


def _joined(lines: Sequence[str]) -> str:
    """The LCD's lines as one sentence: a line ending in ``?``, ``!`` or ``.`` keeps its own
    stop, the others are closed by a full stop."""
    out = ""
    for line in lines:
        line = line.strip()
        if not line:
            continue
        if out and out[-1] not in "?!.:":
            out += "."
        out += (" " if out else "") + line
    return out


# ---------------------------------------------------------------------- the announcer

#: the screens a player acts on, said when the input committed no transaction (a
#: transaction's own sentence says what its screen shows), besides the ruleset's own (its
#: panel vocabulary's ``spoken``); ``error`` and ``game_over`` are said in any case
_ACTED_ON: Final = frozenset(
    {"error", "game_over", "jail_choice", "auction", "auction_offer", "auction_end",
     "balance", "debt", "card", "menu", "no_rent", "speech"}
)  # fmt: skip
_ALWAYS: Final = frozenset({"error", "game_over", "speech"})
#: what the ``money`` mode says besides transactions that moved money
_MONEY_SCREENS: Final = frozenset({"error", "game_over", "debt", "balance", "speech"})

_PHRASES: Final[Mapping[str, Mapping[str, str]]] = {
    "fr": {
        "balance": "{who} : {money}",
        "bid": "Enchère : {money}, {who}",
        "bid_open": "Enchère : {money}",
        "winner": "Partie terminée. {who} gagne",
        "speech_on": "Voix activée",
        "speech_off": "Voix coupée",
    },
    "en": {
        "balance": "{who}: {money}",
        "bid": "Auction: {money}, {who}",
        "bid_open": "Auction: {money}",
        "winner": "Game over. {who} wins",
        "speech_on": "Speech on",
        "speech_off": "Speech off",
    },
}

#: the last seconds of an auction's countdown that are said
LAST_SECONDS: Final = 3


@dataclass(frozen=True, slots=True)
class Sentence:
    """One thing to say; *money* marks what the ``money`` mode says too (a transaction that
    moved money, a refusal, a debt, a balance, the winner)."""

    text: str
    money: bool = False


class Announcer:
    """Turns what the unit produced for one input (its screens and cues, the records it
    committed) into sentences in the edition's language. Keeps the last sentence said, for
    "say it again"."""

    def __init__(self, edition: Edition, lang: str | None = None, mode: str = "all") -> None:
        if mode not in MODES:
            raise ValueError(f"speech mode {mode!r}: one of {', '.join(MODES)}")
        self.edition = edition
        self.lang = "fr" if (lang or edition.language) == "fr" else "en"
        self.mode = mode
        currency, lang = edition.currency, self.lang
        self.narrator: Narrator = narrator_for(
            edition, lang, lambda amount: money_words(amount, currency, lang)
        )
        self.last: str | None = None
        self.words = _PHRASES[self.lang]
        own = rulesets.for_edition(edition).labels
        spoken = own(edition, lang).spoken if own is not None else frozenset()
        #: the screens said when the input committed no transaction
        self.acted_on: frozenset[str] = _ACTED_ON | spoken
        #: the auction's (deed, bid, leader) last said, so a tick says only its last seconds
        self._bid: tuple[int | None, int | None, str | None] | None = None

    # ------------------------------------------------------------------ transactions

    def transaction(self, record: Record, before: GameState) -> Sentence | None:
        """The record's sentence (the history's words, spoken); None for a record without
        words (a command the narration does not know)."""
        title = self.narrator.title(record, before)
        if not title or title == record.name:
            return None
        moved = any(
            isinstance(e, MoneyMoved | DebtChanged | PlayerBankrupt | GameEnded)
            for e in record.events
        )
        parts = self.narrator.aloud(record, before, title)
        text = ". ".join(dict.fromkeys(spoken(part, self.lang) for part in parts))
        return Sentence(text, moved)

    # ------------------------------------------------------------------ screens

    def screen(self, screen: Screen, state: GameState | None = None) -> Sentence | None:
        """The sentence of a screen a player acts on, or None."""
        name = screen.name
        w = self.words
        if name not in self.acted_on:
            return None
        if name == "speech":
            return Sentence(w["speech_on"] if screen.level else w["speech_off"], True)
        if name != "auction":
            self._bid = None
        if name == "auction":
            bid = (screen.number, screen.amount, screen.token)
            if bid == self._bid:  # a tick of the countdown: its last seconds only
                n = screen.countdown
                if n is not None and 0 < n <= LAST_SECONDS:
                    return Sentence(number_words(n, self.lang))
                return None
            self._bid = bid
            money = self.narrator.money(screen.amount or 0)
            if screen.token:
                return Sentence(w["bid"].format(money=money, who=self.token(screen.token)))
            return Sentence(w["bid_open"].format(money=money))
        if name == "balance" and screen.amount is not None and screen.token:
            text = w["balance"].format(
                who=self.token(screen.token), money=self.narrator.money(screen.amount)
            )
            more = None if state is None else self.narrator.balance_more(screen.token, state)
            if more:
                text += ", " + spoken(more, self.lang)
            return Sentence(text, True)
        own = self.narrator.screen_words(name, screen.number)
        if own is not None:  # a screen the ruleset says its own way
            return Sentence(own)
        if name == "game_over" and screen.token:
            return Sentence(w["winner"].format(who=self.token(screen.token)), True)
        # the glass's lines where a screen has them: whole token and street names, never an
        # abbreviation made for a narrow LCD
        shown = screen.wide or screen.lines
        if not shown:
            return None
        # a menu item is its first line (the second is the buttons' hint)
        lines = shown[:1] if name == "menu" else shown
        return Sentence(spoken(_joined(lines), self.lang), name in _MONEY_SCREENS)

    def token(self, token: str) -> str:
        """A token as the players call it: the edition's label (``chien``, ``Obi-Wan``)."""
        return self.narrator.token_name(token)

    # ------------------------------------------------------------------ one input

    def announce(
        self,
        outputs: Sequence[Output],
        records: Sequence[Record] = (),
        state: GameState | None = None,
    ) -> list[str]:
        """The sentences for one input: the transactions it committed (*records*, with the
        game *state* after them), then the screens a player acts on. The ``money`` mode keeps
        what moved money and the refusals; ``off`` says nothing (the last sentence is kept
        all the same, for "say it again")."""
        said: list[Sentence] = []
        if records and state is not None:
            befores = list(states_before(state, records))[::-1]
            for record, before in zip(records, befores, strict=True):
                sentence = self.transaction(record, before)
                if sentence is not None:
                    said.append(sentence)
        transaction = bool(said)
        refused = any(isinstance(o, PlayCue) and o.cue is Cue.ERROR for o in outputs)
        for out in outputs:
            if not isinstance(out, ShowScreen):
                continue
            name = out.screen.name
            if (transaction or refused) and name not in _ALWAYS:
                continue  # said by the transaction, or the step shown again after a refusal
            sentence = self.screen(out.screen, state)
            if sentence is not None:
                said.append(sentence)
        texts = list(dict.fromkeys(s.text for s in said if s.text and self._wanted(s)))
        if texts:
            self.last = ". ".join(texts)
        return texts

    def _wanted(self, sentence: Sentence) -> bool:
        return self.mode == "all" or (self.mode == "money" and sentence.money)


class RecordSource(Protocol):
    @property
    def last_seq(self) -> int: ...

    def entries(self, game_id: int | None = None, after: int = 0) -> Iterable[StoredEntry]: ...


class Voice:
    """The unit's voice, following it input by input: what to say now.

    Keeps up with the journal (the records each input committed), the unit's speech switch
    (hold M) and "say it again" (hold ✓). Text only: a :class:`drivers.speech.Speaker` or a
    transcript says the sentences."""

    def __init__(self, announcer: Announcer, on: bool = True) -> None:
        self.announcer = announcer
        self.on = on
        self._seq: int | None = None

    def hear(
        self, outputs: Sequence[Output], journal: RecordSource | None, state: GameState | None
    ) -> list[str]:
        """The sentences to say for one input's *outputs* (empty while speech is off, but for
        the speech gestures themselves)."""
        records = self._new_records(journal)
        texts = self.announcer.announce(outputs, records, state)
        words = self.announcer.words
        for out in outputs:
            if not isinstance(out, SpeechAsked):
                continue
            if out.what == "on":
                self.on = True
                texts = [words["speech_on"]]
            elif out.what == "off":
                self.on = False
                return [words["speech_off"]]
            elif out.what == "again":
                return [self.announcer.last] if self.announcer.last else []
        return texts if self.on else []

    def _new_records(self, journal: RecordSource | None) -> list[Record]:
        if journal is None:
            return []
        last = journal.last_seq
        if self._seq is None or last < self._seq:
            self._seq = last
            return []
        if last == self._seq:
            return []
        entries = list(journal.entries(after=self._seq))
        self._seq = last
        return decode_entries(entries)
