"""``ultibank print-deck``: a printable sheet of every card of an edition, for a family that
tags its deck (real title deeds carry no numbers): each card's number, its name, its colour
group and whether a tag is enrolled for it in the deck file. One self-contained HTML page
(A4, two columns) that a browser prints, or saves as PDF, as it is.
"""

from __future__ import annotations

import argparse
import html
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bank.engine.errors import BankError

if TYPE_CHECKING:
    from bank.services.settings import Settings
    from board_assets import Edition
    from drivers.deck import Deck


@dataclass(frozen=True, slots=True)
class Row:
    """One card on the sheet."""

    name: str  # the card's name on the command line and in a tap script: ``deed:12``
    title: str  # what is printed on the real card: ``Avenue Mozart``, ``chien``
    detail: str  # the group and price, the card's text
    colour: str  # ``#rrggbb`` of its group, or empty
    uid: str | None  # the enrolled tag's UID (None: not enrolled)


@dataclass(frozen=True, slots=True)
class Section:
    heading: str
    rows: tuple[Row, ...]


_WORDS = {
    "fr": {
        "title": "Cartes de {name} ({id})",
        "intro": "Chaque carte, son numéro et son étiquette NFC : collez l'étiquette, puis "
        "`ultibank enroll --edition {id}` la fait connaître (ou `ultibank write-card` l'écrit). "
        "Fichier de cartes : {deck}.",
        "bank": "Cartes banque (joueurs)",
        "deed": "Titres de propriété",
        "prop": "Cartes propriété",
        "event": "Cartes événement",
        "enrolled": "étiquette {uid}",
        "missing": "pas d'étiquette",
        "count": "{done} cartes sur {total} ont une étiquette",
        "no_deck": "aucun (rien n'est encore enregistré)",
        "price": "{group} · {price}",
    },
    "en": {
        "title": "Cards of {name} ({id})",
        "intro": "Every card, its number and its NFC tag: stick a tag on, then "
        "`ultibank enroll --edition {id}` teaches the bank its UID (or `ultibank write-card` "
        "writes it). Deck file: {deck}.",
        "bank": "Bank cards (players)",
        "deed": "Title deeds",
        "prop": "Property cards",
        "event": "Event cards",
        "enrolled": "tag {uid}",
        "missing": "no tag yet",
        "count": "{done} of {total} cards have a tag",
        "no_deck": "none (nothing enrolled yet)",
        "price": "{group} · {price}",
    },
}


def sections(edition: Edition, deck: Deck | None) -> list[Section]:
    """The sheet's sections, in card order: bank cards, then deeds (or Ultime's property and
    event cards), then each deck of cards."""
    from bank import rulesets
    from bank.app.runtime import deck_cards
    from bank.unit.io import CardId
    from bank.unit.text import language_of, token_name

    cards = deck_cards(edition)
    lang = language_of(None, edition.language)
    words = _WORDS[lang]
    groups = {g.id: g for g in edition.groups}
    own = rulesets.for_edition(edition).deck_sheet
    sheet = own(edition) if own is not None else None

    def uid(card: CardId) -> str | None:
        return deck.uid_for(card) if deck is not None else None

    out: list[Section] = []
    bank = []
    for n in range(1, cards.cards.bank + 1):
        card = CardId("bank", n)
        token = cards.cards.token(n)
        title = cards.titles.get(card) or token_name(lang, token)
        bank.append(Row(f"bank:{n}", title, f"bank:{token}", "", uid(card)))
    out.append(Section(words["bank"], tuple(bank)))
    kind = sheet.property_kind if sheet is not None else "prop"
    props = []
    currency = sheet.currency if sheet is not None else edition.currency
    for p in edition.properties:
        card = CardId(kind, p.number)
        group = groups.get(p.group)
        detail = words["price"].format(
            group=group.name if group else p.group, price=f"{p.price} {currency}"
        )
        props.append(Row(str(card), p.name, detail, group.colour if group else "", uid(card)))
    out.append(Section(words.get(kind, kind), tuple(props)))
    if sheet is not None:
        for deck_kind, printed in sheet.decks.items():
            rows = []
            for n in range(1, cards.cards.count(deck_kind) + 1):
                card = CardId(deck_kind, n)
                title, text = printed.get(n, (cards.deck_name(deck_kind), ""))
                rows.append(Row(str(card), title, text, "", uid(card)))
            out.append(Section(cards.deck_name(deck_kind), tuple(rows)))
    else:
        rows = []
        for event in edition.events:
            card = CardId("event", event.id)
            rows.append(Row(str(card), event.title, event.text, "", uid(card)))
        out.append(Section(words["event"], tuple(rows)))
    return out


_STYLE = """
@page { size: A4; margin: 12mm; }
body { font: 10pt/1.3 "DejaVu Sans", Arial, sans-serif; color: #111; margin: 0; }
h1 { font-size: 15pt; margin: 0 0 4pt; }
h2 { font-size: 12pt; margin: 10pt 0 4pt; break-after: avoid; }
p { margin: 0 0 6pt; }
.cards { display: grid; grid-template-columns: 1fr 1fr; gap: 3pt 8pt; }
.card { display: grid; grid-template-columns: 12pt 58pt 1fr; gap: 4pt; align-items: start;
        border: 0.5pt solid #999; border-radius: 3pt; padding: 3pt 4pt; break-inside: avoid; }
.swatch { width: 10pt; height: 10pt; border: 0.5pt solid #555; margin-top: 1pt; }
.name { font: bold 10pt monospace; }
.title { font-weight: bold; }
.detail { color: #444; font-size: 8.5pt; }
.tag { font-size: 8.5pt; }
.card.missing .tag { color: #a00; }
.card.enrolled .tag { color: #060; }
"""


def render_html(edition: Edition, parts: list[Section], deck_path: Path, has_deck: bool) -> str:
    from bank.unit.text import language_of

    words = _WORDS[language_of(None, edition.language)]
    esc = html.escape
    total = sum(len(s.rows) for s in parts)
    done = sum(1 for s in parts for r in s.rows if r.uid)
    body = [
        f"<h1>{esc(words['title'].format(name=edition.name, id=edition.id))}</h1>",
        "<p>"
        + esc(
            words["intro"].format(
                id=edition.id, deck=str(deck_path) if has_deck else words["no_deck"]
            )
        )
        + "</p>",
        f'<p class="count">{esc(words["count"].format(done=done, total=total))}</p>',
    ]
    for section in parts:
        body.append(f"<h2>{esc(section.heading)}</h2>")
        body.append('<div class="cards">')
        for row in section.rows:
            status = "enrolled" if row.uid else "missing"
            tag = words["enrolled"].format(uid=row.uid) if row.uid else words["missing"]
            swatch = (
                f'<div class="swatch" style="background:{esc(row.colour)}"></div>'
                if row.colour
                else "<div></div>"
            )
            body.append(
                f'<div class="card {status}" data-card="{esc(row.name)}" '
                f'data-status="{status}">{swatch}'
                f'<div class="name">{esc(row.name)}</div><div>'
                f'<div class="title">{esc(row.title)}</div>'
                + (f'<div class="detail">{esc(row.detail)}</div>' if row.detail else "")
                + f'<div class="tag">{esc(tag)}</div></div></div>'
            )
        body.append("</div>")
    return (
        '<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        "<title>{title}</title><style>{style}</style></head><body>\n{body}\n</body></html>\n"
    ).format(
        lang=language_of(None, edition.language),
        title=esc(words["title"].format(name=edition.name, id=edition.id)),
        style=_STYLE,
        body="\n".join(body),
    )


def cmd_print_deck(args: argparse.Namespace, settings: Settings) -> int:
    """``ultibank print-deck``: the sheet of the edition's cards and their tags."""
    from bank.app.resume import choose_edition
    from bank.app.runtime import DECK_FILE
    from bank.services.datadir import open_data_dir, write_output
    from board_assets import load_edition
    from drivers.deck import DeckError, load_deck, with_foreign

    data_dir = settings.data_dir
    if data_dir.exists() and not data_dir.is_dir():
        raise BankError(f"--data-dir {data_dir}: not a directory")
    if data_dir.parent.exists() and not data_dir.parent.is_dir():
        raise BankError(f"--data-dir {data_dir}: {data_dir.parent} is a file, not a directory")
    # the data directory's door: read only, never made here
    open_data_dir(data_dir, bool(settings.get("game", "strict_modes")), create=False)
    if getattr(args, "edition", None) is None:
        choose_edition(args, settings)  # the stored game's edition, else the configured one
    edition = load_edition(settings.edition)
    configured = str(settings.get("reader", "deck"))
    deck_path = Path(configured).expanduser() if configured else settings.data_dir / DECK_FILE
    deck = None
    if deck_path.exists():
        from bank.unit.io import CardRanges

        try:
            deck = load_deck(deck_path, with_foreign(CardRanges.of(edition)))
        except DeckError as err:
            raise BankError(str(err)) from err
    elif configured:
        raise BankError(f"deck file {deck_path} not found; run `ultibank enroll` to make one")
    page = render_html(edition, sections(edition, deck), deck_path, deck is not None)
    output = args.output or Path(f"deck-{edition.id}.html")
    if str(output) == "-":
        sys.stdout.write(page)
        return 0
    try:
        write_output(Path(output), page)
    except OSError as err:
        raise BankError(f"{output}: cannot write the sheet: {err.strerror or err}") from err
    done = page.count('data-status="enrolled"')
    total = page.count("data-status=")
    print(
        f"wrote {output}: {total} cards of {edition.id}, {done} with a tag; print it from a browser"
    )
    return 0
