"""Names that mislead a reader: a package docstring naming a module that is not there, two
unrelated classes with one name, a method named after a builtin type (it hides the type for
the rest of the class body: a later ``@property`` would call the method)."""

from __future__ import annotations

import ast
import builtins
import collections
import importlib.util
import re
from pathlib import Path

import bank

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bank", "drivers", "firmware_sim", "board_assets")
#: one package per ruleset, each with its own rules, state, screens... by design
PARALLEL = ROOT / "bank" / "rulesets"


def _classes() -> list[tuple[Path, ast.ClassDef]]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            found += [(path, n) for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    return found


def test_the_bank_docstring_names_only_modules_that_exist() -> None:
    named = re.findall(r"``([a-z_]+)``", bank.__doc__ or "")
    assert named, "the docstring names the package's modules"
    folders = [p.name for p in (ROOT / "bank").iterdir() if (p / "__init__.py").exists()]
    missing = [
        n
        for n in named
        if importlib.util.find_spec(f"bank.{n}") is None
        and not any((ROOT / "bank" / f / f"{n}.py").exists() for f in folders)
    ]
    assert missing == []


def test_no_two_classes_share_a_name() -> None:
    where: dict[str, list[str]] = collections.defaultdict(list)
    for path, node in _classes():
        if not path.is_relative_to(PARALLEL):
            where[node.name].append(str(path.relative_to(ROOT)))
    assert {name: paths for name, paths in where.items() if len(paths) > 1} == {}


def test_no_method_is_named_after_a_builtin_type() -> None:
    types = {n for n in dir(builtins) if isinstance(getattr(builtins, n), type)}
    shadowing = [
        f"{path.relative_to(ROOT)}: {node.name}.{item.name}"
        for path, node in _classes()
        for item in node.body
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name in types
    ]
    assert shadowing == []
