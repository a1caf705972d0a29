"""The Ultime unit's own LCD texts in French and English: landings, the M menu, jail, the
Location, auctions and event cards.

Registered with the shared catalogue (:func:`bank.unit.text.register_messages`) when the Ultime
ruleset is imported; lines are kept to the LCD's 20 cells like the shared ones. Imports
:mod:`bank.unit.text` and the standard library.
"""

from __future__ import annotations

from collections.abc import Mapping

from bank.unit.text import register_messages

#: message id -> language -> template
MESSAGES: Mapping[str, Mapping[str, str]] = {
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
    "debt.done.1": {"fr": "Dette réglée", "en": "Debt settled"},
    "debt.change": {"fr": "Rendu {money}", "en": "Change {money}"},
    "err.need_prop": {"fr": "Propriété svp", "en": "Tap a property"},
    "err.owned": {"fr": "Déjà vendue", "en": "Already owned"},
    "err.mover": {"fr": "Pas ce joueur", "en": "Wrong player"},
}

register_messages(MESSAGES)
