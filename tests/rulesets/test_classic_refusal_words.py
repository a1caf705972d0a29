"""Every refusal of the classic rules reads in French on a French unit: a key without a French
wording fell back to the English key (`Refusé / Can still pay` on a classic-fr LCD)."""

from __future__ import annotations

import re
from pathlib import Path

from bank.cli import main

PACKAGE = Path(__file__).resolve().parents[2] / "bank" / "rulesets" / "classic"
#: a refusal raised in the package: the core's refusals and the classic ones (.refusals)
RAISED = re.compile(
    r"(?:RuleError|NotEnoughMoney|LateClaim|FirstLap)\(\s*f?\"[^\"]*\"\s*,\s*\"([^\"]+)\"", re.S
)


def test_every_refusal_key_of_the_classic_rules_has_a_french_wording() -> None:
    # imported here, not at collection: the classic texts join the shared catalogue when
    # imported, and tests/unit/test_text.py parametrises over the Ultime catalogue alone
    from bank.rulesets.classic.text import SHORTS_FR
    from bank.unit.text import ENGINE_SHORTS_FR

    keys = {m.group(1) for p in PACKAGE.rglob("*.py") for m in RAISED.finditer(p.read_text())}
    assert len(keys) > 40  # the pattern still finds the refusals
    words = {**ENGINE_SHORTS_FR, **SHORTS_FR}
    missing = sorted(k for k in keys if k.strip().lower().rstrip(".") not in words)
    assert not missing, missing
    for k in keys:  # a refusal's second line fits the 20 cells (a field shown as 1234)
        shown = words[k.strip().lower().rstrip(".")].format_map(_Any())
        assert len(shown) <= 20, (k, shown)


class _Any(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "1234"


def test_a_bankruptcy_the_debtor_can_still_avoid_is_refused_in_french(
    tmp_path: Path, capsys: object
) -> None:
    script = tmp_path / "s.tap"
    script.write_text(
        "tap bank:1\ntap bank:2\npress ok\ntap deed:1\ntap bank:1\n"  # dog buys Belleville
        "press menu\nkey 5\ntap bank:1\nkey 1450\npress ok\n"  # owes 10; a mortgage gives 30
        "press menu\nkey 16\n",  # bankruptcy is not offered: refused at the digits (§3.12)
        encoding="utf-8",
    )
    argv = ["script", str(script), "--edition", "classic-fr", "--data-dir", str(tmp_path / "d")]
    assert main(argv) == 0
    last = capsys.readouterr().out.strip().splitlines()[-2:]  # type: ignore[attr-defined]
    assert any("screen error" in line and "Pas de choix 16" in line for line in last), last
