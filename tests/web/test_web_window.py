"""The web view in constant memory (issue 17, point 6): it holds a window of the current
game's last transactions, numbers them as in the whole game, and reads older ones back from the
journal only when asked (the chart)."""

from __future__ import annotations

from pathlib import Path

from bank.runtime import Runtime
from bank.services.settings import load_settings
from bank.views.web import RECENT, WINDOW, _SnapshotBuilder

START = ("tap bank:1", "tap bank:2", "press ok")


def test_the_view_holds_a_window_whatever_the_length_of_the_game(tmp_path: Path) -> None:
    rt = Runtime(load_settings(None, [f'game.data_dir="{tmp_path}"']))
    rt.start(control=False)
    try:
        for line in START:
            assert rt.handle_line(line)["ok"]
        builder = _SnapshotBuilder(rt)
        total = 1
        for _ in range(WINDOW + 20):
            assert rt.handle_line("press menu")["ok"] and rt.handle_line("tap bank:1")["ok"]
            total += 1
            if total % 7 == 0:  # the view reads as it goes, as after each refresh
                rt.daemon.call(builder.snapshot)
        snap = rt.daemon.call(builder.snapshot)
        assert snap["seq"] == total
        assert len(builder._cache.records) <= WINDOW
        shown = [t["n"] for t in snap["transactions"]]
        assert shown == list(range(total, total - RECENT, -1))
        assert snap["transactions"][0]["undoable"] is True
        # the chart still gets every transaction, read back from the journal
        game_id, _, records = rt.daemon.call(builder.records)
        assert game_id is not None and [r.number for r in records] == list(range(1, total + 1))
        assert len(builder._cache.records) <= WINDOW
        # a view opened on a long game reads only its end
        fresh = _SnapshotBuilder(rt)
        again = rt.daemon.call(fresh.snapshot)
        assert again["seq"] == total and len(fresh._cache.records) == WINDOW
        assert [t["n"] for t in again["transactions"]] == shown
        assert [t["title"] for t in again["transactions"]] == [
            t["title"] for t in snap["transactions"]
        ]
    finally:
        rt.stop()
