"""The test cable itself: both implementations carry bytes both ways and pull like a real cable."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import serial

from tests.support.pty_pair import PtyPair, RelayPair, SocatPair, have_socat

KINDS = ["relay", "socat"]


def _pair(kind: str, directory: Path) -> PtyPair:
    if kind == "socat":
        if not have_socat():
            if os.environ.get("CI"):
                pytest.fail("socat is required under CI")
            pytest.skip("no socat binary")
        return SocatPair(directory)
    return RelayPair(directory)


@pytest.mark.parametrize("kind", KINDS)
def test_bytes_cross_and_pulling_the_cable_is_an_error(kind: str, tmp_path: Path) -> None:
    pair = _pair(kind, tmp_path)
    pair.start()
    try:
        host = serial.Serial(pair.host_path, 115200, timeout=2)
        panel = serial.Serial(pair.panel_path, 115200, timeout=2)
        assert os.isatty(host.fileno()) and os.isatty(panel.fileno())
        host.write(b"\x00ping\x00")
        assert panel.read(6) == b"\x00ping\x00"
        panel.write(bytes(range(1, 256)))  # raw: no byte is translated
        assert host.read(255) == bytes(range(1, 256))
        pair.kill()
        with pytest.raises(serial.SerialException):
            host.read(1)
        host.close()
        panel.close()
        pair.restart()  # plugged back in on the same paths
        host = serial.Serial(pair.host_path, 115200, timeout=2)
        panel = serial.Serial(pair.panel_path, 115200, timeout=2)
        panel.write(b"back")
        assert host.read(4) == b"back"
        host.close()
        panel.close()
    finally:
        pair.close()
    assert not Path(pair.host_path).exists() and not Path(pair.panel_path).exists()
