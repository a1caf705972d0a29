"""An auction whose sale the rules refuse at the hammer (classic, ``variants.auction_unbought``
off: only the bankruptcy series sells): the countdown ends on the refusal and the unit is idle
again, as the Ultime unit does, instead of running the hammer forever."""

from __future__ import annotations

import io
import json
from pathlib import Path

from bank.script import run_script

BODY = (
    "tap bank:1\ntap bank:2\npress ok\n"
    "tap deed:1\npress menu\npress ok\n"  # M on a free deed, ✓ starts the countdown
    "tap bank:1\n"  # a named bid
    "wait 11\n"  # the hammer: the rules refuse the sale
    "tap bank:2\n"  # idle again: a bank card shows its balance
)


def test_a_refused_sale_ends_the_auction_and_the_unit_goes_on(tmp_path: Path) -> None:
    script = tmp_path / "t.tap"
    script.write_text(BODY, encoding="utf-8")
    out = io.StringIO()
    state_file = tmp_path / "state.json"
    sets = (("variants", "auction_unbought", False),)
    code = run_script(
        script, "classic-fr", tmp_path / "d", state_file, out, err=out, ruleset_sets=sets
    )
    transcript = out.getvalue()
    assert code == 0, transcript
    hammer, refusal, shown, tap, balance = transcript.splitlines()[-5:]
    assert hammer.endswith("10.000 cue hammer"), transcript
    assert refusal.endswith("cue error") and "screen error" in shown, transcript
    assert "cue read" in tap and "screen balance" in balance, transcript
    state = json.loads(state_file.read_text(encoding="utf-8"))
    assert state["properties"][0]["owner"] is None
