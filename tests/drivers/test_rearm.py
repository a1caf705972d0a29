"""Each reader's re-arm time: the one its stack needs, unless ``reader.rearm_seconds`` says.

A polling stack sees any lift for whole poll periods (pcscd: 0.4 s, sometimes 0.8 s, for a
0.1 s lift), so the re-arm that turns a flicker into one tap depends on the reader. The
behaviour on the real pcscd stack is tested in test_pcsc.py (the flicker tests); here, which
re-arm each reader gets.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bank.runtime import Runtime
from bank.services.settings import SettingsError, load_settings
from drivers.debounce import DEFAULT_REARM_S, backend_rearm, rearm_for_poll
from drivers.sim import SimReader


def test_a_polling_stack_needs_two_polls_and_a_half_never_less_than_a_hand() -> None:
    assert rearm_for_poll(0.4) == 1.0  # pcscd's poll
    assert rearm_for_poll(0.1) == DEFAULT_REARM_S  # nfcpy's presence check
    assert rearm_for_poll(0.0) == DEFAULT_REARM_S
    assert backend_rearm(SimReader()) == DEFAULT_REARM_S  # no poll: a hand's flicker


def test_the_backends_declare_their_own() -> None:
    pcsc = pytest.importorskip("drivers.pcsc")
    assert pcsc.PcscBackend.rearm_s == rearm_for_poll(pcsc.PCSCD_POLL_S) == 1.0
    nfcpy = pytest.importorskip("drivers.nfcpy_reader")
    assert nfcpy.NfcpyBackend.rearm_s == rearm_for_poll(nfcpy.PRESENCE_CHECK_S)


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[Callable[..., Runtime]]:
    made: list[Runtime] = []

    def make(*overrides: str) -> Runtime:
        rt = Runtime(load_settings(None, [f'game.data_dir="{tmp_path}"', *overrides]))
        made.append(rt)
        return rt

    yield make
    for rt in made:
        rt.stop()


def test_run_gives_each_reader_its_own_rearm_by_default(runtime: Callable[..., Runtime]) -> None:
    pytest.importorskip("smartcard")
    rt = runtime()
    rt.add_reader("pcsc")
    rt.add_reader("sim")
    assert [s.debouncer.rearm_s for s in rt.readers] == [1.0, DEFAULT_REARM_S]


@pytest.mark.parametrize("value", ["0.9", "auto"])
def test_the_setting_overrides_every_reader(runtime: Callable[..., Runtime], value: str) -> None:
    pytest.importorskip("smartcard")
    rt = runtime(f"reader.rearm_seconds={value}")
    rt.add_reader("pcsc")
    rt.add_reader("sim")
    expected = [0.9, 0.9] if value == "0.9" else [1.0, DEFAULT_REARM_S]
    assert [s.debouncer.rearm_s for s in rt.readers] == expected


@pytest.mark.parametrize("value", ["-1", "soon", "true"])
def test_a_bad_rearm_setting_is_refused_with_its_name(value: str) -> None:
    with pytest.raises(
        SettingsError, match=r"reader\.rearm_seconds = .*: expected auto, or a number from 0 to 10"
    ):
        load_settings(None, [f"reader.rearm_seconds={value}"])
