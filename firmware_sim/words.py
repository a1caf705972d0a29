"""The emulator window's own words (tray, status line, help), in the unit's languages.

The LCD speaks the unit's language (:mod:`bank.unit.text`); the window around it speaks the
same one, so a game is in one language everywhere. :func:`say` formats a message of
:data:`WORDS` (``str.format`` fields) in ``fr`` or ``en``. The window's font has no tick, so
the ✓ button is written "OK" here.

Imports ``bank.unit.text`` and the standard library.
"""

from __future__ import annotations

from collections.abc import Mapping

from bank.unit.text import LANGUAGES

#: message id -> language -> template
WORDS: Mapping[str, Mapping[str, str]] = {
    # the tray and the unit
    "tray.bank": {"fr": "CARTES BANQUE", "en": "BANK CARDS"},
    "tray.props": {"fr": "PROPRIÉTÉS", "en": "PROPERTIES"},
    "tray.events": {"fr": "ÉVÉNEMENTS", "en": "EVENTS"},
    "reader": {"fr": "posez une carte ici", "en": "tap a card here"},
    "hint": {
        "fr": "F1 / ? aide   ·   fermez la fenêtre pour arrêter",
        "en": "F1 / ? help   ·   close the window to stop",
    },
    # the status line
    "status.help": {"fr": "F1 ou ? pour l'aide", "en": "F1 or ? for help"},
    "status.typing": {
        "fr": "carte {kind} : {digits}_   (Entrée pour la poser, Échap pour annuler)",
        "en": "{kind} card: {digits}_   (Enter to tap, Esc to cancel)",
    },
    "status.button": {
        "fr": "bouton {button}  (clic droit pour le bloquer)",
        "en": "button {button}  (right-click to latch)",
    },
    "status.on_reader": {"fr": "sur le lecteur : {card}", "en": "on the reader: {card}"},
    "status.holding": {"fr": "maintien de {buttons}...", "en": "holding {buttons} ..."},
    "status.no_card": {"fr": "pas de carte {kind} {n}", "en": "no {kind} card {n}"},
    "status.saved": {"fr": "{name} enregistrée", "en": "saved {name}"},
    "kind.prop": {"fr": "propriété", "en": "property"},
    "kind.event": {"fr": "événement", "en": "event"},
    "kind.bank": {"fr": "banque", "en": "bank"},
    "describe.bank": {"fr": "carte banque {n} : {token}", "en": "bank card {n}: {token}"},
    "describe.prop": {
        "fr": "propriété {n} : {name} ({group}, {price})",
        "en": "property {n}: {name} ({group}, {price})",
    },
    "describe.event": {"fr": "événement {n} : {effect}", "en": "event {n}: {effect}"},
    # the help overlay
    "help.title": {"fr": "Touches et souris", "en": "Keys and mouse"},
    "help.close": {
        "fr": "une touche ou un clic ferme cette aide",
        "en": "any key or click closes this help",
    },
    "key.ok": {"fr": "Entrée", "en": "Enter"},
    "help.ok": {
        "fr": "bouton OK, la coche (gardez la touche pour garder le bouton)",
        "en": "button OK, the tick (hold the key to hold the button)",
    },
    "key.menu": {"fr": "M", "en": "M"},
    "help.menu": {"fr": "bouton M (menu)", "en": "button M (menu)"},
    "key.cancel": {"fr": "Échap / Retour arrière", "en": "Esc / Backspace"},
    "help.cancel": {"fr": "bouton X (annuler)", "en": "button X (cancel)"},
    "help.bank": {"fr": "poser la carte banque {n} ({token})", "en": "tap bank card {n} ({token})"},
    "key.prop": {"fr": "P n Entrée", "en": "P n Enter"},
    "help.prop": {
        "fr": "poser la propriété n (1-{count}) ; Échap annule la saisie",
        "en": "tap property card n (1-{count}); Esc cancels the typing",
    },
    "key.event": {"fr": "E n Entrée", "en": "E n Enter"},
    "help.event": {
        "fr": "poser l'événement n (1-{count}) ; Échap annule la saisie",
        "en": "tap event card n (1-{count}); Esc cancels the typing",
    },
    "key.undo": {"fr": "U", "en": "U"},
    "help.undo": {
        "fr": "annuler : garde OK et X ensemble {seconds} s",
        "en": "undo gesture: hold OK and X together for {seconds} s",
    },
    "key.reset": {"fr": "R", "en": "R"},
    "help.reset": {
        "fr": "remise à zéro : garde X {seconds} s (archive la partie)",
        "en": "reset gesture: hold X for {seconds} s (archives the game)",
    },
    "key.help": {"fr": "F1 / ?", "en": "F1 / ?"},
    "help.help": {"fr": "afficher ou cacher cette aide", "en": "show or hide this help"},
    "key.shot": {"fr": "F12", "en": "F12"},
    "help.shot": {
        "fr": "enregistrer une capture (PNG) dans le dossier courant",
        "en": "save a screenshot (PNG) in the current directory",
    },
    "mouse.card": {"fr": "clic sur une carte", "en": "click a card"},
    "help.mouse.card": {
        "fr": "la pose sur le lecteur (tant que le bouton de la souris est enfoncé)",
        "en": "tap it on the reader (it stays on while the mouse button is down)",
    },
    "mouse.button": {"fr": "clic sur un bouton", "en": "click a button"},
    "help.mouse.button": {
        "fr": "l'appuie (tant que le bouton de la souris est enfoncé)",
        "en": "press it (held while the mouse button is down)",
    },
    "mouse.latch": {"fr": "clic droit sur un bouton", "en": "right-click a button"},
    "help.mouse.latch": {
        "fr": "le bloque enfoncé ou le relâche (pour garder OK et X ensemble)",
        "en": "latch it pressed or release it (to hold OK and X together)",
    },
    # the keypad window (the ruleset's vocabulary names its own typed cards and letters)
    "kind.card": {"fr": "à poser", "en": "to tap"},
    "status.typing.card": {
        "fr": "carte : {digits}_   (b5 ou genre:n puis Entrée ; Échap annule)",
        "en": "card: {digits}_   (b5 or kind:n then Enter; Esc cancels)",
    },
    "status.no_typed": {"fr": "pas de carte « {text} »", "en": 'no card "{text}"'},
    "status.key": {"fr": "touche {k} du clavier", "en": "keypad key {k}"},
    "key.back": {"fr": "effacer", "en": "delete"},
    "key.pad.ok": {"fr": "Entrée / Espace", "en": "Enter / Space"},
    "help.pad.ok": {
        "fr": "bouton OK (Espace : réclamer le loyer affiché)",
        "en": "button OK (Space: claim the rent shown)",
    },
    "key.pad.cancel": {"fr": "Échap", "en": "Esc"},
    "key.pad.back": {"fr": "Retour arrière", "en": "Backspace"},
    "help.pad.back": {
        "fr": "effacer un chiffre pendant une saisie, sinon X",
        "en": "delete a digit while an entry is open, else X",
    },
    "help.pad.digits": {
        "fr": "les chiffres du clavier de l'unité",
        "en": "the unit's keypad digits",
    },
    "help.pad.bank": {
        "fr": "poser la carte banque 1 à {last}",
        "en": "tap bank card 1 to {last}",
    },
    "key.typed": {"fr": "/ b5 Entrée", "en": "/ b5 Enter"},
    "help.typed": {
        "fr": "poser une carte : banque (b5) ou genre:n",
        "en": "tap a card: bank card (b5) or kind:n",
    },
    "key.pad.reset": {"fr": "Ctrl+R", "en": "Ctrl+R"},
}


def say(lang: str, key: str, **fields: object) -> str:
    """The window message *key* in *lang* (English for a language the window does not know)."""
    templates = WORDS[key]
    return templates.get(lang if lang in LANGUAGES else "en", templates["en"]).format(**fields)
