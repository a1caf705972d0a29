"""What every test gets, whether pytest runs in one process or in several (pytest-xdist).

``make test`` runs the suite with ``pytest -n auto --dist loadgroup``: tests are spread over
worker processes, so nothing a test uses may be shared by two workers at once. Each test
already has its own data directory (``tmp_path``), control socket (inside it), web port (0: a
free one), Xvfb display (``-displayfd``) and Chromium profile. What cannot be duplicated is
kept on one worker here, so that new tests get it without thinking about it:

- the private pcscd (one per machine: it always binds ``/run/pcscd/pcscd.comm``, and its vpcd
  readers listen on fixed ports): :func:`pcscd_daemon` starts it once per worker, and every
  test that uses it (or carries the ``pcscd`` mark) goes to the same worker (the xdist group
  ``pcscd``);
- a module-scoped (or class-scoped) fixture of a test module is set up once: that module's
  tests go to one worker (the xdist group named after the module), instead of each worker
  paying for the set-up again.

Run without ``-n`` (one process), the groups mean nothing and everything works as before.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from tests.support.pcscd import Pcscd, PcscdUnavailable, pcscd_session, skip_or_fail

#: the xdist group of the tests that drive the real pcscd
PCSCD_GROUP = "pcscd"


@pytest.fixture(scope="session")
def pcscd_daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pcscd]:
    """The worker's private pcscd with the vpcd readers, started once (only one can run per
    machine, under :func:`tests.support.pcscd.machine_lock`). A test may stop or kill it;
    the fixtures built on it start it again."""
    workdir = tmp_path_factory.mktemp("pcscd")
    with contextlib.ExitStack() as stack:
        try:
            running = stack.enter_context(pcscd_session(workdir))
        except PcscdUnavailable as err:
            skip_or_fail(str(err))
        yield running


def _group_of(item: pytest.Item) -> str | None:
    """The xdist group *item* must run in, or None (any worker)."""
    if item.get_closest_marker("pcscd") is not None or "pcscd_daemon" in getattr(
        item, "fixturenames", ()
    ):
        return PCSCD_GROUP
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    for name in item.fixturenames:
        defs = info.name2fixturedefs.get(name)
        if defs and defs[-1].scope in ("module", "class", "package"):
            return item.module.__name__ if item.module is not None else None
    return None


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue  # a test that chose its group keeps it
        group = _group_of(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.hookimpl(trylast=True)  # after xdist wrote the groups into the node ids
def pytest_collection_finish(session: pytest.Session) -> None:
    """Under ``--dist loadgroup``, refuse to run if xdist could not group the tests (it marks
    a grouped test's node id ``...@group``; under pytest 9.2 it cannot, pytest-xdist issue
    1386): two workers would each start a pcscd, and one would wait a minute and skip."""
    if not session.config.getoption("loadgroup", default=False):
        return
    for item in session.items:
        if item.get_closest_marker("xdist_group") is not None and "@" not in item.nodeid:
            raise pytest.UsageError(
                f"pytest-xdist cannot group tests under pytest {pytest.__version__}: install "
                "the dev extra's pytest (pip install -e '.[dev]'), or run with -n 0"
            )


def pytest_configure(config: pytest.Config) -> None:
    """Say it plainly, before any worker starts, when this pytest and pytest-xdist cannot
    group tests (the check above then stops the run without saying why)."""
    if hasattr(config, "workerinput") or config.getoption("dist", default="no") != "loadgroup":
        return
    from importlib.metadata import version

    def parts(name: str) -> tuple[int, ...]:
        return tuple(int(p) for p in version(name).split(".")[:2] if p.isdigit())

    if parts("pytest") >= (9, 2) and parts("pytest-xdist") <= (3, 8):
        raise pytest.UsageError(
            f"pytest-xdist {version('pytest-xdist')} cannot group tests under pytest "
            f"{version('pytest')} (pytest-xdist issue 1386): install the dev extra's pytest "
            "(pip install -e '.[dev]'), or run with -n 0"
        )
