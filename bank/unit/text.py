"""The unit's LCD texts in French and English, and the helpers that fit them on 2x20 cells.

Every text the unit shows comes from :data:`MESSAGES`, keyed by a message id, with one
template per language (``str.format`` fields). Lines are kept to :data:`LCD_WIDTH` cells so
the HD44780 panel shows them whole; :func:`fit` is the last resort for names that run long.
Imports only the standard library.
"""

from __future__ import annotations

from collections.abc import Mapping

LCD_WIDTH = 20
LCD_LINES = 2
LANGUAGES = ("fr", "en")

#: message id -> language -> template
MESSAGES: Mapping[str, Mapping[str, str]] = {
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
    # property check
    "prop.price": {"fr": "Prix {money}", "en": "Price {money}"},
    "prop.rent": {"fr": "Loyer {money}", "en": "Rent {money}"},
    "prop.rent.jailed": {"fr": "Loyer 0 (prison)", "en": "Rent 0 (jail)"},
    "prop.mover": {"fr": "Carte de {token}", "en": "{token}'s card"},
    # landing results
    "land.bought": {"fr": "Achat {money}", "en": "Bought {money}"},
    "land.rent.1": {"fr": "{payer} paie {amount}", "en": "{payer} pays {amount}"},
    "land.rent.2": {"fr": "à {owner}, niveau {level}", "en": "to {owner}, level {level}"},
    "land.level": {"fr": "Niveau {level}", "en": "Level {level}"},
    "land.level.max": {"fr": "Niveau 5 (max)", "en": "Level 5 (top)"},
    "land.jailed": {"fr": "Proprio en prison", "en": "Owner in jail"},
    "land.set": {"fr": "Couleur complète !", "en": "Colour set done!"},
    # menu
    "menu.go": {"fr": "Départ +{amount}", "en": "GO +{amount}"},
    "menu.jail": {"fr": "Prison", "en": "Jail"},
    "menu.location": {"fr": "Location -{amount}", "en": "Location -{amount}"},
    "menu.tap": {"fr": "Touchez une carte", "en": "Tap a bank card"},
    "go.1": {"fr": "{token} +{amount}", "en": "{token} +{amount}"},
    "jail.in": {"fr": "{token} en prison", "en": "{token} to jail"},
    "jail.choice.1": {"fr": "✓ payer {amount}", "en": "✓ pay {amount}"},
    "jail.choice.2": {"fr": "X double: libre", "en": "X double: free"},
    "jail.out.1": {"fr": "{token} libéré", "en": "{token} is free"},
    "jail.out.free": {"fr": "Double, gratuit", "en": "Double, no fee"},
    "location.1": {"fr": "{token} -{amount}", "en": "{token} -{amount}"},
    "location.2": {"fr": "Carte destination", "en": "Tap destination"},
    # auctions
    "auction.offer": {"fr": "✓ lancer l'enchère", "en": "✓ start auction"},
    "auction.price": {"fr": "Enchère {money}", "en": "Bid {money}"},
    "auction.how": {"fr": "✓ ou carte: +{step}", "en": "✓ or card: +{step}"},
    "auction.won.1": {"fr": "Adjugé {money}", "en": "Sold for {money}"},
    "auction.won.2": {"fr": "Gagnant: sa carte", "en": "Winner: tap card"},
    "auction.sold": {"fr": "{token} paie {amount}", "en": "{token} pays {amount}"},
    "auction.none.1": {"fr": "Enchère annulée", "en": "Auction cancelled"},
    "auction.none.2": {"fr": "Aucune offre", "en": "No bid"},
    "auction.cancel.2": {"fr": "Propriété libre", "en": "Still unowned"},
    # events
    "event.ask.prop": {"fr": "Touchez propriété", "en": "Tap a property"},
    "event.ask.own_prop": {"fr": "Votre propriété", "en": "Your property"},
    "event.ask.owned_prop": {"fr": "Propriété possédée", "en": "An owned property"},
    "event.ask.other_prop": {"fr": "Propriété d'un autre", "en": "Another's property"},
    "event.ask.bank": {"fr": "Votre carte banque", "en": "Your bank card"},
    "event.ask.bank.move": {"fr": "Carte du joueur", "en": "Mover's bank card"},
    "event.ask.bank.jail": {"fr": "Qui va en prison ?", "en": "Who goes to jail?"},
    "event.ask.other_bank": {"fr": "Carte d'un autre", "en": "Another bank card"},
    "event.done": {"fr": "Fait", "en": "Done"},
    "event.none": {"fr": "Sans effet", "en": "No effect"},
    "event.group_up": {"fr": "Couleur +1", "en": "Colour +1"},
    "event.group_down": {"fr": "Couleur -1", "en": "Colour -1"},
    "event.side_up": {"fr": "Côté du plateau +1", "en": "Board side +1"},
    "event.side_down": {"fr": "Côté du plateau -1", "en": "Board side -1"},
    "event.neighbours": {"fr": "+1, voisines -1", "en": "+1, neighbours -1"},
    "event.swap": {"fr": "Échange fait", "en": "Swapped"},
    "event.tax": {"fr": "Taxe {money}", "en": "Tax {money}"},
    "event.collect": {"fr": "+{amount} chacun", "en": "+{amount} each"},
    "event.cheap": {"fr": "{n} loyers niveau 1", "en": "{n} rents at level 1"},
    "event.gridlock": {"fr": "Tous au Parc gratuit", "en": "All to Free Parking"},
    "event.move.short": {"fr": "Pas assez: M enchère", "en": "Short: M = auction"},
    # debts
    "debt.1": {"fr": "{token} doit {amount}", "en": "{token} owes {amount}"},
    "debt.2": {"fr": "Donnez propriété", "en": "Tap a property"},
    "debt.done.1": {"fr": "Dette réglée", "en": "Debt settled"},
    "debt.change": {"fr": "Rendu {money}", "en": "Change {money}"},
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
    "err.unknown_card": {"fr": "Carte inconnue", "en": "Unknown card"},
    "err.need_bank": {"fr": "Carte banque svp", "en": "Tap a bank card"},
    "err.need_prop": {"fr": "Propriété svp", "en": "Tap a property"},
    "err.not_now": {"fr": "Pas maintenant", "en": "Not now"},
    "err.no_game": {"fr": "Pas de partie", "en": "No game yet"},
    "err.registered": {"fr": "Déjà inscrite", "en": "Already in"},
    "err.players": {"fr": "{n} joueurs minimum", "en": "{n} players minimum"},
    "err.not_player": {"fr": "Carte hors partie", "en": "Card not in game"},
    "err.owned": {"fr": "Déjà vendue", "en": "Already owned"},
    "err.bids": {"fr": "Enchère en cours", "en": "Auction running"},
    "err.mover": {"fr": "Pas ce joueur", "en": "Wrong player"},
    "err.game_over": {"fr": "Partie finie", "en": "Game over"},
    "err.debt": {"fr": "Réglez la dette", "en": "Settle the debt"},
}

#: the players' tokens as shown on the LCD
TOKEN_NAMES: Mapping[str, Mapping[str, str]] = {
    "car": {"fr": "voiture", "en": "car"},
    "helicopter": {"fr": "hélico", "en": "heli"},
    "boat": {"fr": "bateau", "en": "boat"},
    "jet": {"fr": "jet", "en": "jet"},
}

#: French wording of the rules' refusals, by reason key (:attr:`bank.errors.BankError.key`);
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


def say(lang: str, key: str, **fields: object) -> str:
    """The message *key* in *lang*, formatted and fitted to one LCD line."""
    return fit(MESSAGES[key][lang].format(**fields))


def token_name(lang: str, token: str | None) -> str:
    """A token's LCD name (``voiture``, ``heli``); an unknown token is shown as it is."""
    if token is None:
        return "?"
    return TOKEN_NAMES.get(token, {}).get(lang, token)


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
