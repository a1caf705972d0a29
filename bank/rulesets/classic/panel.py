"""The classic ruleset's panel vocabulary: what the panels name and draw for a classic game.

The wiring asks the ruleset (``RulesetSpec.labels``) and hands the result to every panel, so
no panel reads the edition's ``[classic]`` table, names a classic card kind or tests Méga or
Star Wars itself: the token labels and the currency as the unit writes them, the decks' names,
the keypad and the letters of the typed cards and info screens (the terminal's and the
emulator window's), a deed's 4-row layout on character LCDs, the emulator's tray (the deeds'
columns and rents, the decks and their colours), the faces of the third die as the unit says
them and the menu items the edition adds; and the classic part of the web page's board and
table, as data the page draws (its ``buildings`` layout). The variant (:mod:`.variant`) says
which rents, costs and buildings a game has.
Imports the classic edition and texts, and the unit's types.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from bank.rulesets import DeckSheet
from bank.rulesets.classic import text as _texts  # noqa: F401  (registers the classic texts)
from bank.rulesets.classic.edition import ClassicEdition, classic_edition
from bank.rulesets.classic.variant import variant_of
from bank.unit.io import Button, CardId, CardRanges, Labels, LetterKey, TitleLayout, Tray
from bank.unit.text import language_of, money, say
from board_assets import Edition


def panel_labels(edition: Edition, lang: str) -> Labels:
    """The panels' vocabulary for a game of the classic *edition* in *lang*: the keypad, the
    typed cards and info letters, a deed's 4-row layout, the tray of the emulator's window."""
    ed = classic_edition(edition)
    speak = language_of(lang, edition.language)
    words = lang if lang in ("fr", "en") else "en"  # the panels' own words' language
    tokens = dict(zip(edition.token_names, ed.token_labels, strict=False))
    decks = dict(ed.deck_names)
    cards = CardRanges.of(edition)
    typed = {"deeds": cards.count("deed")}
    labels = Labels(
        lang, tokens, ed.currency_lcd, decks,
        keypad=True,
        info=INFO_SCREENS,
        fitted_lines=True,
        title=TitleLayout("deed", "info",
                          {k: _template(words, f"title.{k}") for k in _TITLE_WORDS}),
        keys=dict(CARD_KEYS),
        nouns={"deed": _say(words, "noun.deed"),
               **{d: _say(words, "noun.deck", name=decks.get(d, d)) for d in DECKS}},
        info_keys=tuple(_key(words, k) for k in TERMINAL_KEYS),
        window_keys=tuple(_key(words, k) for k in WINDOW_KEYS),
        menu_example=(11, _say(words, "example.dice")),
        words={f"typed.{k}": _say(words, f"typed.{k}", **typed) for k in ("key", "help", "status")},
        tray=tray(edition, speak, ed),
        property_kind="deed",
        spoken=SPOKEN,
    )  # fmt: skip
    variant = variant_of(ed)
    if not (ed.third_die or variant.menu_items()):
        return labels
    faces = (
        face
        if face.isdigit()
        else say(speak, f"c.force.die.{face}" if face == "shift" else f"c.die.{face}")
        for face in ed.third_die
    )
    menu = variant.menu_words(speak)
    return replace(labels, third_die=tuple(dict.fromkeys(faces)), menu=menu)


DECKS = ("chance", "chest")
#: the classic unit's screens a player acts on, said aloud when no transaction says them
SPOKEN = frozenset({"deed", "late", "pick", "trade_offer", "interest", "info", "own", "draw"})
#: the info screens of the classic unit (docs/classic.md §5.6), as a keyboard panel asks them
INFO_SCREENS = ("table", "turn", "cash", "deed", "deeds", "others", "scores")
#: the letters a keyboard panel types a card with (``d12``, ``c3``, ``k3``; ``b5`` is the
#: panels' own for a bank card)
CARD_KEYS = (("d", "deed"), ("c", "chance"), ("k", "chest"))
#: the deck cards' backs on the emulator's table
DECK_COLOURS = {"chance": "#f58c28", "chest": "#5aaadc"}
#: a Star Wars bank card's side mark: (ring, disc) for the light and the dark side
SIDE_COLOURS = {"light": ("#aae1ff", "#3c96ff"), "dark": ("#141418", "#e12323")}
#: the screens during which the emulator's Backspace is ⌫ (an amount or a pick open on the
#: LCD, §5.6; and an auction, where digits type a bid and X would give up the sale)
ENTRY_SCREENS = frozenset({"entry", "pick", "auction"})
_TITLE_WORDS = ("house", "houses", "hotel", "skyscraper", "depot", "bare", "mortgaged",
                "for_sale", "rent", "hint.owned", "hint.unowned", "hint.check")  # fmt: skip

#: the terminal's letters (docs/classic.md §5.6, on letters no card entry takes): (words key,
#: letter, what it asks, help row)
TERMINAL_KEYS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("term.i", {"letter": "i", "info": "table"}),
    ("term.s", {"letter": "s", "info": "scores"}),
    ("term.t", {"letter": "t", "info": "turn", "row": 1}),
    ("term.f", {"letter": "f", "info": "deed", "row": 1}),
    ("term.v", {"letter": "v", "info": "deeds", "row": 1}),
    ("term.w", {"letter": "w", "info": "others", "row": 1}),
)
#: the emulator window's letters, the computer game's keys (docs/classic.md §5.6)
WINDOW_KEYS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("win.dice", {"letter": "d", "menu": 11, "early": True}),
    ("win.table", {"letter": "i", "info": "table"}),
    ("win.turn", {"letter": "t", "info": "turn"}),
    ("win.cash", {"letter": "c", "info": "cash"}),
    ("win.jail", {"letter": "p", "menu": 2}),
    ("win.jail", {"letter": "j", "menu": 2, "listed": False}),
    ("win.deed", {"letter": "f", "info": "deed"}),
    ("win.deeds", {"letter": "v", "info": "deeds"}),
    ("win.others", {"letter": "v", "info": "others", "shift": True}),
    ("win.build", {"letter": "h", "menu": 7}),
    ("win.sell", {"letter": "h", "menu": 8, "shift": True}),
    ("win.mortgage", {"letter": "k", "menu": 9}),
    ("win.mortgage", {"letter": "k", "menu": 9, "shift": True, "listed": False}),
    ("win.trade", {"letter": "e", "menu": 10}),
    ("win.accept", {"letter": "a", "button": Button.OK}),
    ("win.refuse", {"letter": "r", "button": Button.CANCEL}),
    ("win.scores", {"letter": "s", "info": "scores"}),
)


def _key(lang: str, entry: tuple[str, dict[str, Any]]) -> LetterKey:
    name, fields = entry
    label = _WORDS.get(f"{name}.label")
    shown = ""
    if label is not None:
        shown = label.get(lang, label["en"])
    elif fields.get("shift"):
        shown = _say(lang, "shift", letter=fields["letter"].upper())
    return LetterKey(words=_say(lang, name), label=shown, **fields)


_WORDS: Mapping[str, Mapping[str, str]] = {
    # a deed on a 4-row character LCD (§5.6), and its hint line: what the next gesture does
    "title.house": {"en": "1 house", "fr": "1 maison"},
    "title.houses": {"en": "{n} houses", "fr": "{n} maisons"},
    "title.hotel": {"en": "hotel", "fr": "hôtel"},
    # Méga (docs/classic.md §7.2): level 6 is a skyscraper, a depot stands on a station
    "title.skyscraper": {"en": "skyscraper", "fr": "gratte-ciel"},
    "title.depot": {"en": "depot", "fr": "dépôt"},
    "title.bare": {"en": "no building", "fr": "terrain nu"},
    "title.mortgaged": {"en": "mortgaged", "fr": "hypothéqué"},
    "title.for_sale": {"en": "for sale", "fr": "à vendre"},
    "title.rent": {"en": "Rent {money}", "fr": "Loyer {money}"},
    "title.hint.owned": {"en": "card pays the rent", "fr": "carte paie le loyer"},
    "title.hint.unowned": {"en": "card buys, M auction", "fr": "carte achat, M ench."},
    "title.hint.check": {"en": "X back", "fr": "X retour"},
    # how the terminal names a typed card's kind (its help, its refusals)
    "noun.deed": {"en": "deed", "fr": "titre"},
    "noun.deck": {"en": "{name} card", "fr": "carte {name}"},
    "example.dice": {"en": "the dice", "fr": "les dés"},
    # the terminal's info letters
    "term.i": {"en": "every player's cash", "fr": "l'argent de chacun"},
    "term.s": {"en": "the ranking (again: the next page)",
               "fr": "le classement (encore : la page suivante)"},
    "term.t": {"en": "the last roller", "fr": "le dernier lanceur"},
    "term.f": {"en": "the last deed", "fr": "le dernier titre"},
    "term.v": {"en": "their deeds", "fr": "ses titres"},
    "term.w": {"en": "the others' deeds", "fr": "ceux des autres"},
    # the emulator window's letters and typed cards
    "shift": {"en": "Shift+{letter}", "fr": "Maj+{letter}"},
    "typed.key": {"en": "/ d12 Enter", "fr": "/ d12 Entrée"},
    "typed.help": {"en": "tap a deed (d1-d{deeds}), Chance (c3), Chest (k3), bank card (b5)",
                   "fr": "poser un titre (d1-d{deeds}), Chance (c3), Caisse (k3), banque (b5)"},
    "typed.status": {"en": "card: {{digits}}_   (d12, c3, k3, b5 then Enter; Esc cancels)",
                     "fr": "carte : {{digits}}_   (d12, c3, k3, b5 puis Entrée ; Échap annule)"},
    "win.dice": {"fr": "les dés (menu 11)", "en": "the dice (menu item 11)"},
    "win.table": {"fr": "qui a quoi (soldes, prison)", "en": "who has what (balances, jail)"},
    "win.turn": {"fr": "à qui le tour (dernier lancer)", "en": "whose turn (the last roller)"},
    "win.cash": {"fr": "argent du dernier lanceur", "en": "the last roller's cash"},
    "win.jail.label": {"fr": "P / J", "en": "P / J"},
    "win.jail": {"fr": "prison (menu 2) : payer, ou carte puis M",
                 "en": "jail (menu item 2): pay, or the card then M"},
    "win.deed": {"fr": "le dernier titre posé", "en": "the last deed tapped"},
    "win.deeds": {"fr": "titres du dernier lanceur", "en": "the last roller's deeds"},
    "win.others": {"fr": "titres des autres joueurs", "en": "the other players' deeds"},
    "win.build": {"fr": "construire (menu 7)", "en": "build (menu item 7)"},
    "win.sell": {"fr": "vendre (menu 8)", "en": "sell (menu item 8)"},
    "win.mortgage.label": {"fr": "K / Maj+K", "en": "K / Shift+K"},
    "win.mortgage": {"fr": "hypothéquer ou lever (menu 9)",
                     "en": "mortgage or lift (menu item 9)"},
    "win.trade": {"fr": "échange (menu 10)", "en": "trade (menu item 10)"},
    "win.accept": {"fr": "accepter l'échange (OK)", "en": "accept the trade (OK)"},
    "win.refuse": {"fr": "refuser l'échange (X)", "en": "refuse the trade (X)"},
    "win.scores": {"fr": "classement", "en": "scores"},
    "tray.deeds": {"fr": "TITRES DE PROPRIÉTÉ", "en": "TITLE DEEDS"},
    # the hover lines of the emulator's tray
    "deed": {"fr": "titre {n} : {name} ({group}) · prix {price}",
             "en": "deed {n}: {name} ({group}) · price {price}"},
    "street": {"fr": "loyer {base} · 1-4 maisons {houses} · hôtel {hotel}",
               "en": "rent {base} · 1-4 houses {houses} · hotel {hotel}"},
    "street.mega": {"fr": "loyer {base} · maisons {houses} · hôtel {hotel} · gratte-ciel {sky}",
                    "en": "rent {base} · houses {houses} · hotel {hotel} · skyscraper {sky}"},
    "station": {"fr": "loyer selon les gares possédées : {rents}",
                "en": "rent by stations owned: {rents}"},
    "station.mega": {"fr": "loyer par gares possédées : {rents} · avec dépôt : {depot}",
                     "en": "rent by stations owned: {rents} · with a depot: {depot}"},
    "utility": {"fr": "loyer : {mults} fois les dés ({owned} compagnies)",
                "en": "rent: {mults} times the dice ({owned} utilities)"},
    "costs": {"fr": "maison {house} · hypothèque {mortgage}",
              "en": "house {house} · mortgage {mortgage}"},
    "costs.mega": {"fr": "maison, hôtel, gratte-ciel {house} · hypothèque {mortgage}",
                   "en": "house, hotel, skyscraper {house} · mortgage {mortgage}"},
    "or": {"fr": "ou", "en": "or"},
    "side": {"fr": "côté {side}", "en": "{side} side"},
    "side.light": {"fr": "clair", "en": "light"},
    "side.dark": {"fr": "obscur", "en": "dark"},
    "mortgage": {"fr": "hypothèque {mortgage}", "en": "mortgage {mortgage}"},
    "card": {"fr": "{deck} {n} : {title}", "en": "{deck} {n}: {title}"},
    "card.generic": {"fr": "{deck} {n} (effet choisi sur l'unité)",
                     "en": "{deck} {n} (its effect is chosen on the unit)"},
    "bank": {"fr": "carte banque {n} : {label}", "en": "bank card {n}: {label}"},
    "bank.side": {"fr": "carte banque {n} : {label} ({side})",
                  "en": "bank card {n}: {label} ({side})"},
}  # fmt: skip


def _template(lang: str, key: str) -> str:
    templates = _WORDS[key]
    return templates.get(lang, templates["en"])


def _say(lang: str, key: str, **fields: object) -> str:
    return _template(lang, key).format(**fields)


def tray(edition: Edition, lang: str, ed: ClassicEdition | None = None) -> Tray:
    """The classic table of the emulator's window in *lang*: the deeds in one column per group
    (stations and utilities are groups of their own), the two decks when the edition prints
    their cards, and what hovering a card says: a bank card's label (and its character's side,
    Star Wars), a deed's name and price, its rents and its costs (the Méga rents and depots),
    a printed card's title. The edition's variant says which rents and sides it has; *ed*:
    the edition's classic reading, when the caller has it."""
    ed = ed or classic_edition(edition)
    variant = variant_of(ed)
    cards = CardRanges.of(edition)
    cur = edition.currency
    tokens = edition.token_names
    labels = {
        tok: ed.token_labels[i] if i < len(ed.token_labels) else tok for i, tok in enumerate(tokens)
    }
    hover: dict[CardId, tuple[str, ...]] = {}
    names: dict[CardId, str] = {}
    marks: dict[int, str] = {}
    for seat in range(1, cards.bank + 1):
        token = cards.token(seat)
        label = labels.get(token, token)
        side = variant.side_of(seat)
        if side is not None:
            marks[seat] = side
            named = _say(lang, "side", side=_say(lang, f"side.{side}"))
            hover[CardId("bank", seat)] = (
                _say(lang, "bank.side", n=seat, label=label, side=named),
            )
        else:
            hover[CardId("bank", seat)] = (_say(lang, "bank", n=seat, label=label),)
    deeds = {d.number: d for d in ed.deeds}
    for p in edition.properties:
        group = edition.group(p.group)
        deed = deeds.get(p.number)
        kind = deed.kind if deed is not None else "street"
        first = _say(lang, "deed", n=p.number, name=p.name, group=group.name,
                     price=money(p.price, cur))  # fmt: skip
        mortgage = money(deed.mortgage if deed is not None else 0, cur)
        house = money(deed.house if deed is not None else 0, cur)
        last = (
            _say(lang, variant.costs_words(), house=house, mortgage=mortgage)
            if kind == "street"
            else _say(lang, "mortgage", mortgage=mortgage)
        )
        card = CardId("deed", p.number)
        hover[card] = (first, _rent_line(lang, variant.rent_words(kind), p.rents, cur), last)
        names[card] = p.name
    columns = tuple(members for g in edition.groups if (members := edition.group_members(g.id)))
    deck_names = dict(ed.deck_names)
    for deck in DECKS:
        for n in range(1, cards.count(deck) + 1):
            printed = ed.cards.get((deck, n))
            title = printed.title if printed is not None else ""
            card = CardId(deck, n)
            if title:
                hover[card] = (_say(lang, "card", deck=deck_names[deck], n=n, title=title),)
                names[card] = title
            else:
                hover[card] = (_say(lang, "card.generic", deck=deck_names[deck], n=n),)
    decks = DECKS if ed.card_table else ()
    title = _say(lang, "tray.deeds")
    return Tray(
        "deed", columns, decks, hover, names, marks, DECK_COLOURS, SIDE_COLOURS, title,
        ENTRY_SCREENS,
    )  # fmt: skip


def _rent_line(lang: str, words: str, rents: tuple[int, ...], cur: str) -> str:
    """A deed's rents in one line (the amounts in the edition's currency), in the variant's
    *words* (``street``, ``station.mega``...)."""
    if words == "station.mega":  # §7.2: a depot doubles its station's rent
        shown = " / ".join(str(r) for r in rents)
        depot = " / ".join(str(2 * r) for r in rents)
        return _say(lang, words, rents=shown, depot=depot)
    if words == "station":
        return _say(lang, words, rents=" / ".join(str(r) for r in rents))
    if words == "utility":
        counts = [str(n) for n in range(1, len(rents) + 1)]
        owned = f"{', '.join(counts[:-1])} {_say(lang, 'or')} {counts[-1]}"
        return _say(lang, "utility", mults=" / ".join(f"×{r}" for r in rents), owned=owned)
    amounts = rents or (0, 0)
    if words == "street.mega" and len(amounts) > 2:  # base, 1-4 houses, hotel, skyscraper
        base, *houses, hotel, sky = amounts
        return _say(
            lang, "street.mega", base=money(base, cur),
            houses=" / ".join(str(h) for h in houses), hotel=hotel, sky=money(sky, cur),
        )  # fmt: skip
    base, *houses, hotel = amounts
    return _say(
        lang, "street", base=money(base, cur), houses=" / ".join(str(h) for h in houses),
        hotel=money(hotel, cur),
    )  # fmt: skip


def board(edition: Edition) -> dict[str, Any]:
    """The classic part of the web page's board, as data the page draws without knowing the
    ruleset: the ``buildings`` layout (houses, a hotel, a mortgage on a property; the players
    ranked by worth; the bank's stock, the pot and the last roll), the extra buildings of the
    variant (Méga's skyscrapers, and depots on the ``depot_groups``), the decks' names by ring
    space, the taxes by ring position, each group's kind, the token labels, the third die's
    faces and the characters' sides (Star Wars)."""
    ed = classic_edition(edition)
    variant = variant_of(ed)
    extras = variant.buildings()
    kinds = {d.group: d.kind for d in ed.deeds}
    return {
        "layout": "buildings",
        "buildings": list(extras),
        "depot_groups": sorted({g for g, k in kinds.items() if k == "station"})
        if "depot" in extras
        else [],
        "space_names": {"CHANCE": ed.deck_names["chance"], "CHEST": ed.deck_names["chest"]},
        "taxes": {str(t.position): {"name": t.name, "amount": t.amount} for t in ed.taxes},
        "group_kinds": {g: k for g, k in kinds.items() if k != "street"},
        "token_labels": list(ed.token_labels),
        "third_die": list(ed.third_die),
        "sides": list(ed.sides),
    }


def table_view(sheet: dict[str, Any], data: dict[str, Any], step: Any) -> None:
    """Add the classic part of the web page's table to the snapshot *data* from the classic
    state file *sheet*: each player's jail cards and tries, passed GO, side (Star Wars) and
    worth; each property's buildings and mortgage; the ``table`` (the bank's stock of
    buildings, the pot, the turn, the last roll, the eliminated, the configuration) and the
    unit's ``step`` as the unit shows it."""
    for p, q in zip(data["players"], sheet["players"], strict=True):
        p.update(
            jail_cards=q["jail_cards"],
            jail_tries=q["jail_tries"],
            passed_go=q["passed_go"],
            side=q["side"],
            worth=q["worth"] - p["balance"] if not p["bankrupt"] else 0,
            wealth=q["worth"],
        )
    for p, q in zip(data["properties"], sheet["properties"], strict=True):
        p.update(houses=q["houses"], hotel=q["hotel"], mortgaged=q["mortgaged"],
                 interest_due=q["interest_due"], skyscraper=q.get("skyscraper", False),
                 depot=q.get("depot", False))  # fmt: skip
    config = sheet["config"]
    data["table"] = {
        "bank": sheet["bank"],
        "pot": sheet["pot"],
        "pot_on": config["variants"]["free_parking"] != "off",
        "turn": sheet["turn"],
        "last_roll": sheet["last_roll"],
        "eliminated": sheet["eliminated"],
        "config": config,
    }
    data["step"] = step


def deck_sheet(edition: Edition) -> DeckSheet:
    """The printed deck sheet of a classic edition: title deeds priced in the unit's currency,
    then the Chance and Community Chest cards with the texts the edition prints."""
    ed = classic_edition(edition)
    decks = {
        deck: {n: (c.title, c.text) for (d, n), c in ed.cards.items() if d == deck}
        for deck in ("chance", "chest")
    }
    return DeckSheet("deed", ed.currency_lcd, decks)
