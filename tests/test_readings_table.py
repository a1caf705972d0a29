"""docs/readings.md cannot rot: it lists every settled reading (A1-A24, B1-B5, C1-C22, D1-D2,
E1-E20) once, sorted by id; every test it names exists and names that reading as
``READINGS <id>`` in its docstring; and every reading is named by some test's docstring. A row
whose test column is a dash is pending (its test is not merged yet): it is reported as skipped
while no test names the id, and fails once one does, so that the row gets filled in."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "docs" / "readings.md"
#: every reading's id, in order
IDS = (
    [f"A{n}" for n in range(1, 25)]
    + [f"B{n}" for n in range(1, 6)]
    + [f"C{n}" for n in range(1, 23)]
    + ["D1", "D2"]
    + [f"E{n}" for n in range(1, 21)]
)
#: `READINGS A4`, `READINGS E10, E13`, `READINGS A1 and A24`: the ids a docstring names
NAMED = re.compile(r"READINGS\s+([A-E]\d+(?:(?:\s*,\s*|\s+and\s+)[A-E]\d+)*)")
#: a test: `tests/unit/test_x.py::test_name` (or `::Class::test_name`), or the short
#: `decks_debts::test_name` for tests/unit/test_classic_readings_decks_debts.py
TEST_REF = re.compile(r"`([\w/.]+)::([\w:]+)`")


def file_of(ref: str) -> str:
    """The file a test reference names (the short form is a readings file of tests/unit)."""
    return ref if ref.endswith(".py") else f"tests/unit/test_classic_readings_{ref}.py"


def ids_named(docstring: str | None) -> set[str]:
    found: set[str] = set()
    for match in NAMED.finditer(docstring or ""):
        found |= set(re.findall(r"[A-E]\d+", match.group(1)))
    return found


def rows() -> dict[str, list[tuple[str, str]]]:
    """id -> the tests its row names, as (file, test) pairs (empty: pending)."""
    table: dict[str, list[tuple[str, str]]] = {}
    order = []
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not re.fullmatch(r"[A-E]\d+", cells[0]):
            continue
        ident, tests, text = cells
        assert ident not in table, f"{ident} has two rows"
        assert text, f"{ident} has no one-line reading"
        refs = [(file_of(f), name) for f, name in TEST_REF.findall(tests)]
        assert refs or tests == "—", f"{ident}: test column {tests!r}"
        table[ident] = refs
        order.append(ident)
    assert order == IDS, "the table lists every reading once, sorted by id"
    return table


@cache
def docstrings(path: str) -> dict[str, str | None]:
    """The test functions of *path* (``name`` or ``Class::name``) and their docstrings."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    found: dict[str, str | None] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
            found[node.name] = ast.get_docstring(node)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for sub in node.body:
                if isinstance(sub, ast.FunctionDef) and sub.name.startswith("test"):
                    found[f"{node.name}::{sub.name}"] = ast.get_docstring(sub)
    return found


@cache
def named_anywhere() -> dict[str, list[str]]:
    """id -> the tests (``file::name``) whose docstring names it, over the whole test tree."""
    where: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        rel = path.relative_to(ROOT).as_posix()
        for name, doc in docstrings(rel).items():
            for ident in ids_named(doc):
                where.setdefault(ident, []).append(f"{rel}::{name}")
    return where


def test_the_table_lists_every_reading_once_in_order() -> None:
    assert set(rows()) == set(IDS)


@pytest.mark.parametrize("ident", IDS)
def test_each_named_test_exists_and_names_its_reading(ident: str) -> None:
    for path, name in rows()[ident]:
        assert (ROOT / path).is_file(), f"{ident}: no file {path}"
        tests = docstrings(path)
        assert name in tests, f"{ident}: no test {name} in {path}"
        assert ident in ids_named(tests[name]), f"{ident}: {name}'s docstring does not name it"


@pytest.mark.parametrize("ident", IDS)
def test_each_reading_is_named_by_a_test_docstring(ident: str) -> None:
    named = named_anywhere().get(ident, [])
    if not rows()[ident]:
        assert not named, f"{ident} is named by {named}: fill in its row of docs/readings.md"
        pytest.skip(f"{ident}: pending (no test merged yet)")
    assert named, f"no test docstring names READINGS {ident}"


def test_a_short_reference_names_a_readings_file() -> None:
    assert file_of("decks_debts") == "tests/unit/test_classic_readings_decks_debts.py"
    assert file_of("tests/unit/test_x.py") == "tests/unit/test_x.py"


def test_the_docstring_parser_reads_lists_of_ids() -> None:
    assert ids_named("READINGS E10, E13: a skyscraper") == {"E10", "E13"}
    assert ids_named("READINGS A1 and A24: the pick") == {"A1", "A24"}
    assert ids_named("READINGS C10 (and E3): lancer") == {"C10"}
    assert ids_named("no reading here, READINGSX A1") == set()
