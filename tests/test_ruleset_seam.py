"""Only the classic ruleset's package reads its part of an edition and knows its variants.

Outside ``bank/rulesets/classic/``, the code of ``bank/``, ``drivers/`` and ``firmware_sim/``
asks the ruleset object (its hooks: labels and tray, board, table view, deck sheet, narrator)
and never reads the edition's ``[classic]`` table, tests Méga's or Star Wars' flags (``mega``,
``sides``) or branches on the ruleset's name. Read from the syntax tree, so docstrings,
comments and help texts that merely name the classic boxes are not code and do not count.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("bank", "drivers", "firmware_sim")
OWNER = ROOT / "bank" / "rulesets" / "classic"
#: the words only the classic package may use as a key, an attribute or a compared value
TABLE = "classic"
FLAGS = frozenset({"mega", "sides"})


def _key(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def offences(source: str) -> list[tuple[int, str]]:
    """(line, what) for each read of the classic table, test of a classic flag or comparison
    with the ruleset's name in *source*."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Subscript) and _key(node.slice) in FLAGS | {TABLE}:
            found.append((node.lineno, f"[{_key(node.slice)!r}]"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ("get", "pop", "setdefault") and node.args:
                key = _key(node.args[0])
                if key in FLAGS | {TABLE}:
                    found.append((node.lineno, f".{node.func.attr}({key!r})"))
        elif isinstance(node, ast.Attribute) and node.attr in FLAGS:
            found.append((node.lineno, f".{node.attr}"))
        elif isinstance(node, ast.Compare):
            for part in (node.left, *node.comparators):
                if _key(part) == TABLE:
                    found.append((node.lineno, f"compared with {TABLE!r}"))
    return found


def test_the_detector_finds_each_kind_of_read() -> None:
    sample = (
        'table = edition.raw.get("classic") or {}\n'
        'decks = raw["classic"]["chance_name"]\n'
        "if ed.mega:\n    pass\n"
        'sides = table.get("sides")\n'
        'if edition.ruleset == "classic":\n    pass\n'
    )
    assert sorted(line for line, _ in offences(sample)) == [1, 2, 3, 5, 6]
    quiet = '"""A classic edition, its [classic] table, Méga and sides."""\n# ed.mega\nx = 1\n'
    assert offences(quiet) == []


def test_no_code_outside_the_classic_package_reads_the_classic_table_or_flags() -> None:
    found = []
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if OWNER in path.parents:
                continue
            rel = path.relative_to(ROOT)
            found += [f"{rel}:{line}: {what}" for line, what in offences(path.read_text())]
    assert found == [], "\n".join(found)
