"""The end-of-game picture: each player's wealth over the game, drawn with matplotlib.

:func:`wealth_series` replays a game's journal records (pure: the engine's events applied to an
empty state) and gives, after each transaction, every player's money and money plus the
purchase prices of the properties they hold, and what the chart marks: the transactions whose
journalled outcome put a player out of the game or ended it (:class:`Mark`, read from each
record's outcome: :attr:`bank.engine.ruleset.Outcome.eliminated` and ``ends_game``, never
worked out from the balances). :func:`render_wealth_png` draws that as a PNG and
:func:`write_end_chart` writes it beside the journal at game over; :class:`EndChartWriter`
does that by itself when subscribed to the daemon's outputs.

matplotlib is imported lazily (Agg backend, no pyplot, no display), so the daemon starts fast
and runs without it; drawing without it raises :class:`ChartUnavailable`, which names the extra
to install. Imports the engine (``bank.engine.events``, ``bank.engine.state``,
``bank.engine.records``), the ruleset registry, ``board_assets`` and the standard library;
matplotlib only inside :func:`render_wealth_png`.
"""

from __future__ import annotations

import io
import logging
import os
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from bank import rulesets
from bank.engine.errors import BankError
from bank.engine.events import apply
from bank.engine.records import Record, decode_all, outcome_of
from bank.engine.ruleset import Ruleset
from bank.engine.state import GameState
from bank.views.narrate import token_label
from board_assets import Edition

__all__ = [
    "PLAYER_COLOURS",
    "PLAYER_MARKERS",
    "ChartUnavailable",
    "EndChartWriter",
    "Mark",
    "PlayerSeries",
    "WealthSeries",
    "chart_path_for",
    "render_wealth_png",
    "token_label",
    "values_worth",
    "wealth_figure",
    "wealth_series",
    "write_end_chart",
]

log = logging.getLogger("ultibank.charts")

#: one colour per bank card (1..8), shared by the chart and the web view; cards 1-4 keep the
#: Ultime game's colours, 5-8 are the classic game's further players
PLAYER_COLOURS: Mapping[int, str] = {
    1: "#d62839",
    2: "#e07a00",
    3: "#1f77b4",
    4: "#2a9d55",
    5: "#7b2cbf",
    6: "#8c564b",
    7: "#e377c2",
    8: "#17becf",
}
#: one marker per bank card, so that the lines stay apart printed in black and white
PLAYER_MARKERS: Mapping[int, str] = {1: "o", 2: "s", 3: "^", 4: "D", 5: "v", 6: "P", 7: "X", 8: "*"}
_FALLBACK_COLOUR = "#555555"


_CHART_WORDS: Mapping[str, Mapping[str, str]] = {
    "fr": {
        "title": "Fortune au fil de la partie",
        "wins": "{who} gagne",
        "winner": "gagnant",
        "money": "argent",
        "total": "argent + propriétés",
        "worth": "valeur (argent, titres, bâtiments)",
        "x": "transaction",
        "eliminated": "{who} en faillite",
        "game_over": "fin de la partie",
    },
    "en": {
        "title": "Wealth over the game",
        "wins": "{who} wins",
        "winner": "winner",
        "money": "money",
        "total": "money + properties",
        "worth": "worth (cash, deeds, buildings)",
        "x": "transaction",
        "eliminated": "{who} bankrupt",
        "game_over": "game over",
    },
}


class ChartUnavailable(BankError, ImportError):
    """matplotlib is not installed, so no chart can be drawn."""


@dataclass(frozen=True, slots=True)
class PlayerSeries:
    """One player's wealth after each transaction (index 0: after the first one)."""

    card: int
    token: str
    money: tuple[int, ...]
    #: money plus the purchase prices of the properties held
    total: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Mark:
    """A happening the chart marks, as the transaction's journalled outcome says it."""

    #: the transaction (1-based, within the game)
    step: int
    #: ``eliminated`` (*card* went bankrupt and left the game) or ``game_over`` (*card*:
    #: the winner, None when there is none)
    kind: str
    card: int | None


@dataclass(frozen=True, slots=True)
class WealthSeries:
    """Every player's wealth over a game, with how the game ended."""

    edition: str
    currency: str
    #: transaction numbers (1-based, within the game) of the points
    steps: tuple[int, ...]
    players: tuple[PlayerSeries, ...]
    game_over: bool
    winner: int | None
    #: the eliminations and the end of the game, in order (from the outcomes)
    marks: tuple[Mark, ...] = ()


WorthOf = Callable[[GameState, int], int]


def values_worth(edition: Edition) -> WorthOf | None:
    """What the edition's rules say a player is worth (:class:`bank.engine.ruleset.ValuesWorth`), or
    None when they have no such notion (Ultime: money plus the properties' prices)."""
    spec = rulesets.for_edition(edition)
    hook: WorthOf | None = getattr(spec.rules(edition, None), "player_worth", None)
    return hook


def wealth_series(edition: Edition, records: Iterable[Record | Mapping[str, Any]]) -> WealthSeries:
    """Replay *records* (one game's records, decoded or as stored) and follow the wealth.

    A player's ``total`` is their money plus the purchase prices of the properties they hold,
    or, when the rules value a player (the classic ranking), that worth. The marks are read
    from each record's outcome (derived once, from the state it started from, for a record
    older than outcomes).
    """
    worth = values_worth(edition)
    state = GameState.empty(edition)
    steps: list[int] = []
    money: dict[int, list[int]] = {}
    total: dict[int, list[int]] = {}
    tokens: dict[int, str] = {}
    marks: list[Mark] = []
    rules: dict[str, Ruleset] = {}
    for index, record in enumerate(decode_all(records), start=1):
        if not record.stores_outcome and record.ruleset not in rules:
            rules[record.ruleset] = rulesets.find(record.ruleset).rules(edition, None)
        done = outcome_of(record, state, rules.get(record.ruleset), edition)
        state = apply(state, record.events)
        if done is not None and done.eliminated is not None:
            marks.append(Mark(index, "eliminated", done.eliminated))
        if done is not None and done.ends_game:
            marks.append(Mark(index, "game_over", state.winner))
        steps.append(index)
        for p in state.players:
            if p.card not in money:
                # a player who joins late is drawn from the transaction that registered them
                money[p.card] = [p.balance] * (len(steps) - 1)
                total[p.card] = list(money[p.card])
            tokens[p.card] = p.token
        present = {p.card: p for p in state.players}
        for card in money:
            player = present.get(card)
            balance = player.balance if player is not None else 0
            money[card].append(balance)
            if worth is not None:
                total[card].append(worth(state, card))
            else:
                owned = state.owned_by(card)
                total[card].append(balance + sum(edition.prop(n).price for n in owned))
    players = tuple(
        PlayerSeries(card, tokens[card], tuple(money[card]), tuple(total[card]))
        for card in sorted(money)
    )
    return WealthSeries(
        edition.id,
        edition.currency,
        tuple(steps),
        players,
        state.game_over,
        state.winner,
        tuple(marks),
    )


def _matplotlib() -> tuple[Any, Any, Any, Any]:
    """Figure, the Agg canvas, Line2D and MaxNLocator, imported on first use."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib.lines import Line2D
        from matplotlib.ticker import MaxNLocator
    except ImportError as err:
        raise ChartUnavailable(
            f"the wealth chart needs matplotlib ({err}): pip install 'ultibank[web]'",
            "no chart",
        ) from err
    return Figure, FigureCanvasAgg, Line2D, MaxNLocator


def wealth_figure(
    series: WealthSeries,
    *,
    lang: str = "en",
    worth: bool = False,
    width: float = 8.0,
    height: float | None = None,
) -> Any:
    """The chart as a matplotlib Figure (Agg): per player, a solid line for money and a
    dashed one for money plus properties (*worth*: the worth the rules rank by), in the
    player's colour with the player's marker, so that 8 players stay apart in print too;
    a dotted upright line with its words at each of the series' marks (a bankruptcy in the
    player's colour, the end of the game).

    Each line's gid names it: ``money-N`` and ``total-N`` for bank card N, ``mark-KIND-N``
    for a mark (its words: ``mark-KIND-N-label``; N is 0 for a game over without a winner).
    """
    words = _CHART_WORDS.get(lang, _CHART_WORDS["en"])
    figure_cls, canvas_cls, line_cls, locator_cls = _matplotlib()
    if height is None:  # more players, a taller legend
        height = 4.5 if len(series.players) <= 4 else 5.4
    fig = figure_cls(figsize=(width, height), dpi=100, layout="constrained")
    canvas_cls(fig)
    ax = fig.add_subplot()
    # each value holds from its transaction to the next; the last one gets a step of its own
    end = (series.steps[-1] + 1) if series.steps else 1
    x = [*series.steps, end]
    every = max(2, round(len(x) / 8))  # about 8 marks a line, staggered by player
    handles = []
    names = {p.card: token_label(lang, p.token) for p in series.players}
    winner = names.get(series.winner) if series.winner is not None else None
    for i, p in enumerate(series.players):
        colour = PLAYER_COLOURS.get(p.card, _FALLBACK_COLOUR)
        marker = PLAYER_MARKERS.get(p.card, "o")
        start = (i * every) // max(1, len(series.players))
        marks = {"marker": marker, "markersize": 5, "markevery": (start, every)}
        (total,) = ax.step(x, [*p.total, p.total[-1]], where="post", color=colour,
                           linewidth=1.4, linestyle="--", alpha=0.8, markerfacecolor="none",
                           **marks)  # fmt: skip
        (cash,) = ax.step(x, [*p.money, p.money[-1]], where="post", color=colour,
                          linewidth=2.2, **marks)  # fmt: skip
        total.set_gid(f"total-{p.card}")
        cash.set_gid(f"money-{p.card}")
        crown = f" ({words['winner']})" if series.game_over and p.card == series.winner else ""
        label = names[p.card] + crown
        handles.append(
            line_cls([], [], color=colour, linewidth=2.2, marker=marker, markersize=5, label=label)
        )
    handles.append(line_cls([], [], color="#333333", linewidth=2.2, label=words["money"]))
    handles.append(
        line_cls(
            [],
            [],
            color="#333333",
            linewidth=1.4,
            linestyle="--",
            label=words["worth" if worth else "total"],
        )
    )
    for mark in series.marks:  # what the outcomes said: who left the game, and its end
        who = names.get(mark.card, "") if mark.card is not None else ""
        colour = PLAYER_COLOURS.get(mark.card or 0, "#333333")
        if mark.kind == "game_over":
            colour = "#333333"
        text = words[mark.kind].format(who=who) if mark.kind in words else mark.kind
        gid = f"mark-{mark.kind}-{mark.card if mark.card is not None else 0}"
        ax.axvline(mark.step, color=colour, linestyle=":", linewidth=1.2, gid=gid)
        ax.text(mark.step, 0.98, text, transform=ax.get_xaxis_transform(), rotation=90,
                ha="right", va="top", fontsize="x-small", color=colour,
                gid=f"{gid}-label")  # fmt: skip
    ax.xaxis.set_major_locator(locator_cls(integer=True))
    ax.set_xlabel(words["x"])
    ax.set_ylabel(series.currency)
    ax.set_xlim(left=x[0] if series.steps else 0, right=end)
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    title = words["title"]
    if series.game_over and winner is not None:
        title += " — " + words["wins"].format(who=winner)
    ax.set_title(title)
    fig.legend(handles=handles, loc="outside lower center", ncols=min(len(handles), 6),
               fontsize="small", frameon=False)  # fmt: skip
    return fig


def render_wealth_png(
    series: WealthSeries,
    *,
    lang: str = "en",
    worth: bool = False,
    width: float = 8.0,
    height: float | None = None,
) -> bytes:
    """The chart of :func:`wealth_figure` as PNG bytes."""
    fig = wealth_figure(series, lang=lang, worth=worth, width=width, height=height)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def write_end_chart(
    edition: Edition,
    journal_records: Iterable[Mapping[str, Any]],
    path: str | Path,
    lang: str | None = None,
) -> Path:
    """Draw the wealth chart of one game's records and write it to *path* (a PNG).

    The words are in *lang* (``fr`` or ``en``; default: the edition's language).
    """
    target = Path(path)
    words = lang or edition.language
    series = wealth_series(edition, journal_records)
    png = render_wealth_png(series, lang=words, worth=values_worth(edition) is not None)
    tmp = target.with_name(target.name + ".tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        # O_NOFOLLOW: a link planted in the data directory must not redirect the write
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o644)
        with os.fdopen(fd, "wb") as out:
            out.write(png)
        tmp.replace(target)  # a reader never sees half a picture
    except OSError as err:
        raise BankError(f"cannot write the wealth chart to {target}: {err}") from err
    return target


def chart_path_for(data_dir: Path, game_id: int | None) -> Path:
    """Where the end-of-game chart of *game_id* goes: beside the journal."""
    return data_dir / f"wealth-game-{game_id if game_id is not None else 0}.png"


# ---------------------------------------------------------------------- the game-over hook


class _RuntimeLike(Protocol):
    """What :class:`EndChartWriter` needs of :class:`bank.app.runtime.Runtime`."""

    edition: Edition
    game: Any
    unit: Any
    journal: Any
    daemon: Any

    @property
    def settings(self) -> Any: ...


class EndChartWriter:
    """Writes the wealth chart beside the journal when a game ends.

    Subscribed to the daemon's outputs, it reacts to the game-over cue: it reads the game's
    records in the daemon's thread (where the journal lives), then draws in a thread of its
    own so the bank never waits for matplotlib.
    """

    def __init__(
        self,
        runtime: _RuntimeLike,
        on_written: Callable[[Path], None] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
    ) -> None:
        self.runtime = runtime
        self.on_written = on_written
        self.on_error = on_error
        self.written: list[Path] = []
        self._threads: list[threading.Thread] = []
        self._done_games: set[int | None] = set()

    def attach(self) -> EndChartWriter:
        """Start listening to the daemon's outputs."""
        self.runtime.daemon.listeners.append(self)
        return self

    def detach(self) -> None:
        """Stop listening (charts being drawn are still written)."""
        if self in self.runtime.daemon.listeners:
            self.runtime.daemon.listeners.remove(self)

    def __call__(self, out: object) -> None:
        # runs in the daemon's loop thread
        cue = getattr(out, "cue", None)
        if cue is None or getattr(cue, "value", None) != "game_over":
            return
        journal = self.runtime.journal
        state: GameState = self.runtime.game.state
        if journal is None or not state.game_over:
            return
        game_id = journal.current_game
        if game_id in self._done_games:
            return
        self._done_games.add(game_id)
        records = list(journal.records())
        lang = str(getattr(self.runtime.unit, "lang", "") or self.runtime.edition.language)
        path = chart_path_for(self.runtime.settings.data_dir, game_id)
        thread = threading.Thread(
            target=self._draw, args=(records, path, lang), name="ultibank-chart", daemon=True
        )
        self._threads.append(thread)
        thread.start()

    def _draw(self, records: Sequence[Mapping[str, Any]], path: Path, lang: str) -> None:
        try:
            written = write_end_chart(self.runtime.edition, records, path, lang)
        except BankError as err:
            log.warning("no end-of-game chart: %s", err)
            if self.on_error is not None:
                self.on_error(err)
            return
        self.written.append(written)
        log.info("end-of-game chart written to %s", written)
        if self.on_written is not None:
            self.on_written(written)

    def wait(self, timeout: float = 30.0) -> None:
        """Wait for the charts being drawn (used at shutdown and in tests)."""
        for thread in list(self._threads):
            thread.join(timeout)
