"""Only the classic ruleset's package reads its part of an edition and knows its variants.

Outside ``bank/rulesets/classic/``, the code of ``bank/``, ``drivers/`` and ``firmware_sim/``
asks the ruleset object (its hooks: labels and tray, board, table view, deck sheet, narrator)
and never reads the edition's ``[classic]`` table, tests Méga's or Star Wars' flags (``mega``,
``sides``) or branches on the ruleset's name. Read from the syntax tree, so docstrings,
comments and help texts that merely name the classic boxes are not code and do not count.

The panels, the emulator, the unit's shell and the views (``drivers/``, ``firmware_sim/``,
``bank/unit/``, ``bank/views/`` and the web page's script) go further: they name no classic
card kind (``deed``, ``chance``, ``chest``) and no ``classic`` or ``mega`` at all, whether as
a word in the code, an attribute, a variable or a function: what they draw and how they take
keys comes from the ruleset's panel vocabulary and board view, as data.
"""

from __future__ import annotations

import ast
import re
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


#: the folders of the panels and views, that know no ruleset by name
PANELS = ("drivers", "firmware_sim", "bank/unit", "bank/views")
#: the classic card kinds, and the ruleset's and its variant's names
KINDS = frozenset({"deed", "chance", "chest"})
NAMES = frozenset({"classic", "mega"})


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = body[0] if body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def named(source: str) -> list[tuple[int, str]]:
    """(line, what) for each classic card kind or ruleset name *source*'s code names: a
    string (not a docstring), an attribute, a variable, a function or an argument."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value in KINDS | NAMES and id(node) not in docs:
                found.append((node.lineno, repr(node.value)))
        elif isinstance(node, ast.Attribute) and node.attr in NAMES:
            found.append((node.lineno, f".{node.attr}"))
        elif isinstance(node, ast.Name) and node.id in NAMES:
            found.append((node.lineno, node.id))
        elif isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name in NAMES:
            found.append((node.lineno, f"def {node.name}"))
        elif isinstance(node, ast.arg) and node.arg in NAMES:
            found.append((node.lineno, f"argument {node.arg}"))
    return found


_JS_COMMENT = re.compile(r"/\*.*?\*/|(^|\s)//[^\n]*", re.DOTALL)
_JS_KIND = re.compile(r"""(["'`])(deed|chance|chest|classic|mega)\1""")
_JS_NAME = re.compile(r"\b(classic|mega)\b")


def named_in_script(source: str) -> list[tuple[int, str]]:
    """(line, what) for each classic card kind (a string) or ruleset name (a word) in the
    code of a script (its comments do not count)."""
    code = _JS_COMMENT.sub(lambda m: " " + "\n" * m.group(0).count("\n"), source)
    found = []
    for number, line in enumerate(code.splitlines(), 1):
        found += [(number, m.group(0)) for m in _JS_KIND.finditer(line)]
        found += [(number, m.group(0)) for m in _JS_NAME.finditer(line) if not _quoted(line, m)]
    return found


def _quoted(line: str, match: re.Match[str]) -> bool:
    """Whether *match* is a whole quoted string (counted once, as a kind)."""
    return bool(_JS_KIND.search(line[max(0, match.start() - 1) : match.end() + 1]))


def test_the_panel_detector_finds_each_kind_of_naming() -> None:
    sample = (
        'if card.kind == "deed":\n    pass\n'
        'DECKS = {"chance": 1, "chest": 2}\n'
        "self.classic = labels.tray\n"
        "if labels.mega:\n    pass\n"
        "def classic(x):\n    return x\n"
        "def f(mega):\n    return mega\n"
    )
    lines = sorted({line for line, _ in named(sample)})
    assert lines == [1, 3, 4, 5, 7, 9, 10], named(sample)
    quiet = (
        '"""A classic deed, Chance and Community Chest: words, not code."""\n'
        "# if card.kind == 'deed'\n"
        'WORDS = {"deeds": "title deeds", "megastock": "deed 3"}\n'
    )
    assert named(quiet) == []
    script = (
        "const classic = () => !!board.classic;\n"
        '  if (card.kind === "chance") go();\n'
        "  // the classic board, a deed\n"
        "  const megastock = t('megastock'); /* mega */\n"
        "  const s = `chest`; const u = 'http://x'; // mega\n"
    )
    assert sorted({line for line, _ in named_in_script(script)}) == [1, 2, 5]


def test_the_panels_and_views_name_no_classic_card_kind_nor_the_ruleset() -> None:
    found = []
    for folder in PANELS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT)
            found += [f"{rel}:{line}: {what}" for line, what in named(path.read_text())]
        for path in sorted((ROOT / folder).rglob("*.js")):
            rel = path.relative_to(ROOT)
            found += [f"{rel}:{line}: {what}" for line, what in named_in_script(path.read_text())]
    assert found == [], "\n".join(found)
