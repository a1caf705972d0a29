"""Every file the code, tests and docs point a reader to is in the repository.

A citation such as ``docs/classic.md §5.4`` must name a doc that exists and a section that doc
has (the rules docs keep numbered headings: ``#### 5.4 The menu``); a Markdown link must lead to
a file of the repository, and to a heading of it when it names one; a path written in a
docstring or a comment (``bank/unit/shell.py``) must exist; and nothing may send the reader to a
document that the repository does not hold (the team's references outside it, ``../shared``).
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENDINGS = (".py", ".md", ".toml", ".cfg", ".html", ".js", ".tap", ".ini")
NAMES = (".importlinter", "Makefile")

#: an upper-case Markdown file name (README.md, BENCHMARKS.md): it must be a file of the tree
UPPER_DOC = re.compile(r"(?<![\w/.-])([A-Z][A-Z0-9_]*(?:-[A-Z0-9_]+)*\.md)\b")
#: the names of the references kept outside the repository, as they were cited without ".md"
OUTSIDE = re.compile(
    r"(?<![\w/.-])(?:"
    + "|".join(["CLASSIC" + "-" + tail for tail in ("READINGS", "DATA", "OPEN")])
    + "|NFC"
    + "-NOTES|PYGAME"
    + r"-NOTES)\b|\.\./shared/|/work/shared"
)
#: a doc cited with its sections: ``docs/classic.md §3.4``, ``classic.md §3, §4``, ``§1-§4``
SECTION_NUMBER = r"§\s?(\d+(?:\.\d+)*)"
CITED_SECTIONS = re.compile(
    r"(?<![\w/.-])((?:docs/)?[a-z][\w-]*\.md)\)?\s*"
    + SECTION_NUMBER
    + r"((?:\s*(?:,|-|–|/|and)\s*"
    + SECTION_NUMBER
    + r")*)"
)
#: a Markdown link: [text](target)
LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)")
#: a path of the tree written out in prose, a docstring or a comment
TREE_PATH = re.compile(
    r"(?<![\w/.~-])((?:bank|drivers|firmware_sim|board_assets|bench|tests|docs|deploy)"
    r"/[\w./-]*[\w/])"
)
#: paths that name what is no longer there on purpose: the wiring's old files, where the
#: move to bank/app/ is explained, and an example of a test path in a test's message
GONE_ON_PURPOSE = {"bank/runtime.py", "bank/cli.py", "bank/script.py", "tests/unit/test_x.py"}
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*$", re.MULTILINE)
NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)\.?\s")


#: what a walk of the tree skips when git cannot list it (an unpacked archive)
NOT_SOURCE = {
    ".git",
    ".venv",
    "venv",
    "__pycache__",
    "build",
    "dist",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
}


def listed_names() -> list[str]:
    """The files git knows (tracked, or untracked and not ignored), else every file of the tree."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return [
            str(path.relative_to(ROOT))
            for path in ROOT.rglob("*")
            if not NOT_SOURCE & set(path.relative_to(ROOT).parts)
            and not any(part.endswith(".egg-info") for part in path.parts)
        ]
    return [name for name in out.split("\0") if name]


def tree_files() -> list[Path]:
    """The files that may cite a document."""
    names = sorted(set(listed_names()))
    here = Path(__file__).resolve()
    return [
        ROOT / name
        for name in names
        if (name.endswith(ENDINGS) or Path(name).name in NAMES)
        and (ROOT / name).is_file()
        and (ROOT / name).resolve() != here
    ]


@cache
def text_of(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def lines(path: Path) -> Iterator[tuple[int, str]]:
    yield from enumerate(text_of(path).splitlines(), 1)


@cache
def headings(doc: Path) -> tuple[set[str], set[str]]:
    """The section numbers of a Markdown file, and the anchors of its headings."""
    numbers: set[str] = set()
    anchors: set[str] = set()
    text = re.sub(r"^(```|    ).*?$", "", text_of(doc), flags=re.MULTILINE)
    for match in HEADING.finditer(text):
        title = match.group(1)
        number = NUMBERED.match(title)
        if number:
            numbers.add(number.group(1))
        anchor = re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
        base, n = anchor, 1
        while anchor in anchors:
            anchor, n = f"{base}-{n}", n + 1
        anchors.add(anchor)
    return numbers, anchors


def doc_path(name: str, citing: Path) -> Path:
    """``docs/x.md`` from the root; a bare ``x.md`` beside the citing file, else in docs/."""
    if "/" in name:
        return ROOT / name
    beside = citing.parent / name
    return beside if beside.exists() else ROOT / "docs" / name


def problems() -> list[str]:
    found = []
    for path in tree_files():
        rel = path.relative_to(ROOT)
        for n, line in lines(path):
            where = f"{rel}:{n}"
            for match in UPPER_DOC.finditer(line):
                name = match.group(1)
                if not list(ROOT.glob(f"**/{name}")):
                    found.append(f"{where}: cites {name}, which is not in the repository")
            for match in OUTSIDE.finditer(line):
                found.append(f"{where}: cites {match.group(0)}, which is outside the repository")
            for match in CITED_SECTIONS.finditer(line):
                doc = doc_path(match.group(1), path)
                if not doc.exists():
                    found.append(f"{where}: cites {match.group(1)}, which does not exist")
                    continue
                numbers, _ = headings(doc)
                cited = [match.group(2), *re.findall(SECTION_NUMBER, match.group(3))]
                for number in cited:
                    if number not in numbers:
                        found.append(f"{where}: {match.group(1)} has no section §{number}")
            for match in TREE_PATH.finditer(line):
                name = match.group(1).rstrip(".")
                if name.endswith("_") or name in GONE_ON_PURPOSE:
                    continue  # a prefix (``bench/bench_*.py``) or a path gone on purpose
                if not (ROOT / name).exists():
                    found.append(f"{where}: names {name}, which is not in the tree")
            if path.suffix != ".md":
                continue
            for match in LINK.finditer(line):
                target = match.group(1)
                if re.match(r"^[a-z]+:", target):
                    continue  # https:, mailto:
                file_part, _, anchor = target.partition("#")
                doc = (path.parent / file_part).resolve() if file_part else path
                if not doc.exists():
                    found.append(f"{where}: links to {target}, which is not in the repository")
                elif not doc.is_relative_to(ROOT):
                    found.append(f"{where}: links to {target}, outside the repository")
                elif anchor and doc.suffix == ".md" and anchor not in headings(doc)[1]:
                    found.append(f"{where}: links to {target}, a heading {doc.name} lacks")
    return found


def test_every_citation_and_link_leads_into_the_repository() -> None:
    found = problems()
    assert not found, "\n".join(found)


def test_the_rules_docs_keep_the_numbering_citations_use() -> None:
    """The numbered sections the code and tests cite most are there, under those numbers."""
    ultime, _ = headings(ROOT / "docs" / "ultime.md")
    classic, _ = headings(ROOT / "docs" / "classic.md")
    assert {"1", "2", "3", "4", "5"} <= ultime
    wanted = {"1.3", "2.1", "3.3", "3.15", "4.5", "5.2", "5.4", "5.5", "5.6", "6.1", "7.1", "8.4"}
    assert wanted <= classic


@pytest.mark.parametrize(
    ("line", "complaint"),
    [
        # (the names of the outside references are cut in two here, so that the script that
        # rewrites citations into docs/ leaves these probes alone)
        ("# see ARCHI" + "TECTURE.md for the layers", "TECTURE.md, which is not in"),
        ("# the dice of CLASSIC" + "-READINGS D1", "outside the repository"),
        ("# the menu (docs/classic.md §5.9)", "has no section §5.9"),
        ("# rent (docs/classic.md §3.3, §12)", "has no section §12"),
        ("# the unit (docs/nowhere.md §1)", "docs/nowhere.md, which does not exist"),
        ("# the shell is bank/unit/nowhere.py", "bank/unit/nowhere.py, which is not in the tree"),
        ("[the rules](../../shared/reference/ULTI" + "ME.md)", "outside the repository"),
        ("[the menu](classic.md#no-such-heading)", "a heading classic.md lacks"),
        ("[gone](missing.md)", "links to missing.md, which is not in the repository"),
    ],
)
def test_a_citation_of_what_is_not_there_is_reported(
    line: str, complaint: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check itself can fail: a file holding one bad citation is reported for it."""
    probe = ROOT / "docs" / "probe.md"
    monkeypatch.setattr(
        "tests.test_docs_links.tree_files", lambda: [probe, ROOT / "docs" / "classic.md"]
    )
    real = text_of.__wrapped__
    monkeypatch.setattr(
        "tests.test_docs_links.text_of", lambda path: line if path == probe else real(path)
    )
    found = problems()
    assert any(complaint in problem and "probe.md:1" in problem for problem in found), found
    assert not [problem for problem in found if "probe.md" not in problem], found
