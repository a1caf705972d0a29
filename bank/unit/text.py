"""The unit's LCD texts in French and English, and the helpers that fit them on 2x20 cells.

Every text the unit shows comes from :data:`MESSAGES`, keyed by a message id, with one
template per language (``str.format`` fields): the texts every ruleset shares are here, a
ruleset's own are in its package (the Ultime ones in :mod:`bank.rulesets.ultime.text`) and
registered with :func:`register_messages`. Lines are kept to :data:`LCD_WIDTH` cells so
the HD44780 panel shows them whole; :func:`fit` is the last resort for names that run long.
Imports only the standard library.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Mapping

LCD_WIDTH = 20
LCD_LINES = 2
LANGUAGES = ("fr", "en")

#: message id -> language -> template
_SHARED: dict[str, Mapping[str, str]] = {
    # idle and power
    "idle.1": {"fr": "Banque Ultime", "en": "Ultimate Bank"},
    "idle.2": {"fr": "Touchez une carte", "en": "Tap a card"},
    # registration
    "new.1": {"fr": "Nouvelle partie", "en": "New game"},
    "new.2": {"fr": "Cartes banque {lo} à {hi}", "en": "Tap {lo}-{hi} bank cards"},
    "new.joined.1": {"fr": "Joueur {n}: {token}", "en": "Player {n}: {token}"},
    "new.joined.2": {"fr": "✓ pour commencer", "en": "✓ to start"},
    "new.started.1": {"fr": "Partie lancée", "en": "Game started"},
    "new.started.2": {"fr": "{n} joueurs, {money}", "en": "{n} players, {money}"},
    "reset.1": {"fr": "Partie archivée", "en": "Game archived"},
    # balance
    "balance.1": {"fr": "{token}", "en": "{token}"},
    "balance.1.jailed": {"fr": "{token} (prison)", "en": "{token} (in jail)"},
    "balance.2": {"fr": "Solde {money}", "en": "Balance {money}"},
    # debts
    "debt.1": {"fr": "{token} doit {amount}", "en": "{token} owes {amount}"},
    "debt.2": {"fr": "Donnez propriété", "en": "Tap a property"},
    "bankrupt": {"fr": "{token} en faillite", "en": "{token} is bankrupt"},
    # end of game
    "over.rank": {"fr": "{a}  {b}", "en": "{a}  {b}"},
    # undo, devices
    "undo.1": {"fr": "Annulé", "en": "Undone"},
    "undo.2": {"fr": "Dernière opération", "en": "Last transaction"},
    "reader.lost.1": {"fr": "Lecteur perdu", "en": "Reader lost"},
    "panel.lost.1": {"fr": "Panneau perdu", "en": "Panel lost"},
    "lost.2": {"fr": "Reconnexion...", "en": "Reconnecting..."},
    # refusals (the unit's own; the rules' come with a reason key: ENGINE_SHORTS_FR)
    "err.title": {"fr": "Refusé", "en": "Refused"},
    # faults: the journal cannot be written, or lost acknowledged transactions
    "fault.title": {"fr": "Banque en panne", "en": "Bank out of order"},
    "fault.full": {"fr": "Disque plein", "en": "Disk full"},
    "fault.journal": {"fr": "Erreur du journal", "en": "Journal error"},
    "fault.damaged": {"fr": "Journal abîmé", "en": "Journal damaged"},
    "fault.lost": {"fr": "Transactions perdues", "en": "Transactions lost"},
    "fault.lost_n": {"fr": "{n} opér. perdues", "en": "{n} transactions lost"},
    "fault.check": {"fr": "Vérifiez les soldes", "en": "Check the balances"},
    "err.unknown_card": {"fr": "Carte inconnue", "en": "Unknown card"},
    "err.other_edition.1": {"fr": "Carte d'une autre", "en": "Card of another"},
    "err.other_edition.2": {"fr": "édition", "en": "edition"},
    "err.not_now": {"fr": "Pas maintenant", "en": "Not now"},
    "err.no_game": {"fr": "Pas de partie", "en": "No game yet"},
    "err.registered": {"fr": "Déjà inscrite", "en": "Already in"},
    "err.players": {"fr": "{n} joueurs minimum", "en": "{n} players minimum"},
    "err.not_player": {"fr": "Carte hors partie", "en": "Card not in game"},
    "err.game_over": {"fr": "Partie finie", "en": "Game over"},
    "err.debt": {"fr": "Réglez la dette", "en": "Settle the debt"},
    # the auction's countdown (the shell runs it)
    "err.bids": {"fr": "Enchère en cours", "en": "Auction running"},
    "err.need_bank": {"fr": "Carte banque svp", "en": "Tap a bank card"},
}
#: message id -> language -> template: the shared texts, then each ruleset's own
#: (:func:`register_messages`), looked up in that order
MESSAGES: ChainMap[str, Mapping[str, str]] = ChainMap(_SHARED)


def register_messages(messages: Mapping[str, Mapping[str, str]]) -> None:
    """Add a ruleset's texts (once); a message id already defined is refused."""
    if all(MESSAGES.get(key) == text for key, text in messages.items()):
        return  # registered already (the ruleset's module was imported again)
    clash = sorted(set(messages) & set(MESSAGES))
    if clash:
        raise ValueError(f"message ids defined twice: {', '.join(clash)}")
    MESSAGES.maps.append(dict(messages))


#: what each kind of event card does, in the project's own words (never the publisher's card
#: titles), fitted to one LCD line
EVENT_EFFECTS: Mapping[str, Mapping[str, str]] = {
    "move": {"fr": "Aller sur un terrain", "en": "Move to a property"},
    "group_up": {"fr": "Couleur +1", "en": "Colour group +1"},
    "group_down": {"fr": "Couleur -1", "en": "Colour group -1"},
    "reset_level": {"fr": "Retour au niveau 1", "en": "Back to level 1"},
    "max_level": {"fr": "Niveau 5 d'un coup", "en": "Straight to level 5"},
    "swap": {"fr": "Échange de terrains", "en": "Swap properties"},
    "tax": {"fr": "Taxe par propriété", "en": "Tax per property"},
    "neighbours": {"fr": "+1, voisines -1", "en": "+1, neighbours -1"},
    "collect_pair": {"fr": "Gain pour deux", "en": "Two players collect"},
    "cheap_rent": {"fr": "Loyers au niveau 1", "en": "Rents at level 1"},
    "jail_other": {"fr": "Un joueur en prison", "en": "Send one to jail"},
    "side_down": {"fr": "Côté du plateau -1", "en": "Board side -1"},
    "side_up": {"fr": "Côté du plateau +1", "en": "Board side +1"},
    "gridlock": {"fr": "Tous au Parc gratuit", "en": "All to Free Parking"},
}

#: the players' tokens as shown on the LCD
TOKEN_NAMES: Mapping[str, Mapping[str, str]] = {
    "car": {"fr": "voiture", "en": "car"},
    "helicopter": {"fr": "hélico", "en": "heli"},
    "boat": {"fr": "bateau", "en": "boat"},
    "jet": {"fr": "jet", "en": "jet"},
}

#: French wording of the rules' refusals, by reason key (:attr:`bank.engine.errors.BankError.key`);
#: the English wording is the key itself, capitalised, unless :data:`ENGINE_SHORTS_EN` says
ENGINE_SHORTS_FR: Mapping[str, str] = {
    "players range": "{lo} à {hi} joueurs",
    "not enough money": "Pas assez d'argent",
    "bid too low": "Enchère trop basse",
    "settle the debt": "Réglez la dette",
    "debt first": "Dette d'abord",
    "debt settled": "Dette déjà réglée",
    "game over": "Partie finie",
    "game on": "Partie en cours",
    "no game": "Pas de partie",
    "nothing to undo": "Rien à annuler",
    "no undo": "Pas d'annulation",
    "not yours": "Pas à ce joueur",
    "not owned": "Propriété libre",
    "owned by another": "À un autre joueur",
    "already owned": "Déjà vendue",
    "same owner": "Même propriétaire",
    "in jail": "En prison",
    "not in jail": "Pas en prison",
    "already in jail": "Déjà en prison",
    "card not in game": "Carte hors partie",
    "bankrupt": "En faillite",
    "another player": "Un autre joueur",
    "card twice": "Déjà inscrite",
    "no such card": "Carte inconnue",
    "unknown card": "Carte inconnue",
    "no such property": "Propriété inconnue",
    "no debt": "Pas de dette",
    "more cards needed": "Il manque une carte",
    "too many cards": "Trop de cartes",
    "no bid": "Aucune offre",
    "bad bid": "Offre invalide",
    "bids made": "Offres déjà faites",
    "not started": "Enchère pas lancée",
    "already running": "Enchère lancée",
    "auction over": "Enchère finie",
    "tap winner's card": "Carte du gagnant",
    "not the winner": "Pas le gagnant",
    "unknown action": "Action inconnue",
    "other edition": "Autre édition",
    "no ruleset": "Règles inconnues",
    "other ruleset": "Autres règles",
}
#: English wording of the reasons whose key is not their wording
ENGINE_SHORTS_EN: Mapping[str, str] = {
    "players range": "{lo}-{hi} players",
}

#: words shortened, in this order, when a property name is too long for one line
_ABBREVIATIONS = (
    ("Boulevard", "Bd"),
    ("Avenue", "Av."),
    ("Faubourg", "Fg"),
    ("Place", "Pl."),
    (" de la ", " "),
    (" des ", " "),
    (" de ", " "),
    ("Street", "St"),
    ("Square", "Sq."),
    ("Road", "Rd"),
)


def language_of(configured: str | None, edition_language: str) -> str:
    """The language to speak: the configured one, else the edition's, else English."""
    for lang in (configured, edition_language):
        if lang in LANGUAGES:
            return lang
    return "en"


def printable(text: str) -> str:
    """*text* safe for a terminal: every control or other non-printable character (an escape
    sequence a house edition's label could carry) written as its Python escape."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def damage_summary(lost: int | None, lang: str = "fr") -> str:
    """``Journal abîmé : 12 opérations perdues`` (the count unknown: check the balances)."""
    if lang == "en":
        if lost:
            return f"Journal damaged: {lost} transactions lost"
        return "Journal damaged: transactions may be lost, check the balances"
    if lost:
        return f"Journal abîmé : {lost} opérations perdues"
    return "Journal abîmé : pertes possibles, vérifiez les soldes"


def say(lang: str, key: str, **fields: object) -> str:
    """The message *key* in *lang*, formatted and fitted to one LCD line."""
    return fit(MESSAGES[key][lang].format(**fields))


def token_name(lang: str, token: str | None) -> str:
    """A token's LCD name (``voiture``, ``heli``); an unknown token is shown as it is."""
    if token is None:
        return "?"
    return TOKEN_NAMES.get(token, {}).get(lang, token)


def event_effect(lang: str, kind: str) -> str:
    """What an event card of *kind* does, in one LCD line (the kind itself if unknown)."""
    return fit(EVENT_EFFECTS.get(kind, {}).get(lang, kind))


def money(amount: int, currency: str) -> str:
    """``1500 M€``: an amount with the edition's currency sign."""
    return f"{amount} {currency}"


def fit(text: str, width: int = LCD_WIDTH) -> str:
    """*text* cut to *width* cells, with an ellipsis when something was cut."""
    if len(text) <= width:
        return text
    return text[: width - 1].rstrip() + "…"


def short_name(name: str, width: int = LCD_WIDTH) -> str:
    """A property name made to fit one line: usual abbreviations first, then a cut."""
    for long, short in _ABBREVIATIONS:
        if len(name) <= width:
            break
        name = name.replace(long, short)
    return fit(name, width)


def engine_short(lang: str, short: str, **fields: object) -> str:
    """The wording of the refusal *short* (a reason key) in *lang*, with its *fields*.

    A key without a wording in *lang* is shown in English, which is the key itself capitalised
    unless :data:`ENGINE_SHORTS_EN` words it.
    """
    key = short.strip().lower().rstrip(".")
    template = ENGINE_SHORTS_FR.get(key) if lang == "fr" else None
    if template is None:
        template = ENGINE_SHORTS_EN.get(key, short[:1].upper() + short[1:])
    return fit(template.format(**fields) if fields else template)
