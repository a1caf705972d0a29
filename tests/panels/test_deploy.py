"""The box's deployment files: the systemd unit, udev rules, module blacklist, example config and
the installer (syntax, refusal next to vsmartcard-vpcd, and a dry run)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from bank.cli import build_parser
from bank.services.settings import load_settings
from drivers.gpio_panel import GpioPins, LcdConfig

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
UNIT = DEPLOY / "ultibank.service"


def unit_sections(text: str) -> dict[str, dict[str, list[str]]]:
    """A systemd unit as {section: {key: [values]}} (keys may repeat)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


def test_unit_has_the_required_keys() -> None:
    unit = unit_sections(UNIT.read_text())
    svc = unit["Service"]
    assert svc["Type"] == ["notify"] and svc["NotifyAccess"] == ["main"]
    assert svc["Restart"] == ["always"]  # any exit systemd did not ask for is restarted
    assert svc["WatchdogSec"] == ["30"]
    assert svc["User"] == ["ultibank"]
    assert set(svc["SupplementaryGroups"][0].split()) == {
        "plugdev",
        "dialout",
        "gpio",
        "i2c",
        "audio",
    }
    assert svc["StateDirectory"] == ["ultibank"]
    (exec_start,) = svc["ExecStart"]
    program, *argv = shlex.split(exec_start)
    assert program == "/opt/ultibank/venv/bin/ultibank"
    # The command line must be one the real CLI accepts.
    args = build_parser().parse_args(argv)
    assert args.command == "run" and str(args.config) == "/etc/ultibank/config.toml"
    for key, value in {
        "NoNewPrivileges": "yes",
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
    }.items():
        assert svc[key] == [value], key
    # The readers, the panel's tty, GPIO and I2C are devices: no private /dev.
    assert "PrivateDevices" not in svc and "DevicePolicy" not in svc
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_analyze_verify(tmp_path: Path) -> None:
    # verify insists that ExecStart exists: point it at a stand-in executable.
    exe = tmp_path / "ultibank"
    exe.write_text("#!/bin/sh\nexit 0\n")
    exe.chmod(0o755)
    unit = tmp_path / "ultibank.service"
    unit.write_text(UNIT.read_text().replace("/opt/ultibank/venv/bin/ultibank", str(exe)))
    proc = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60
    )
    # verify exits 0 even when it ignores a bad line, so read what it says about the unit.
    problems = [line for line in proc.stderr.splitlines() if "ultibank.service" in line]
    assert proc.returncode == 0 and not problems, proc.stderr


def test_udev_rules_come_after_libccid_and_cover_the_devices() -> None:
    (rules,) = DEPLOY.glob("*-ultibank.rules")
    assert int(rules.name.split("-")[0]) >= 93  # 92-libccid.rules would override GROUP
    lines = [x for x in rules.read_text().splitlines() if x and not x.startswith("#")]
    ids = {
        (m.group(1), m.group(2))
        for x in lines
        if (m := re.search(r'idVendor}=="(\w+)".*idProduct}=="(\w+)"', x))
    }
    assert {("072f", "2200"), ("054c", "06c1"), ("054c", "06c3")} <= ids
    (panel,) = [x for x in lines if 'SUBSYSTEM=="tty"' in x]
    assert 'SYMLINK+="ultibank-panel"' in panel and 'ENV{ID_MM_DEVICE_IGNORE}="1"' in panel
    for x in lines:
        assert x.count('"') % 2 == 0 and ("GROUP=" in x and "MODE=" in x), x


def test_kernel_nfc_drivers_are_blacklisted() -> None:
    text = (DEPLOY / "blacklist-ultibank-nfc.conf").read_text()
    listed = {x.split()[1] for x in text.splitlines() if x.startswith("blacklist ")}
    assert listed == {"pn533_usb", "pn533", "port100", "nfc_digital", "nfc"}


def test_example_config_loads_and_matches_the_driver_defaults() -> None:
    settings = load_settings(DEPLOY / "config.example.toml")
    panel = settings.raw["panel"]
    pins, lcd = GpioPins(), LcdConfig()
    assert (panel["gpio_ok"], panel["gpio_menu"], panel["gpio_cancel"], panel["gpio_buzzer"]) == (
        pins.ok,
        pins.menu,
        pins.cancel,
        pins.buzzer,
    )
    assert (panel["lcd_address"], panel["lcd_cols"], panel["lcd_rows"]) == (
        lcd.address,
        lcd.cols,
        lcd.rows,
    )
    assert str(settings.data_dir) == "/var/lib/ultibank"


def test_installer_syntax() -> None:
    subprocess.run(["bash", "-n", str(DEPLOY / "install-pi.sh")], check=True, timeout=30)


def _shim(tmp_path: Path, vpcd_installed: bool) -> dict[str, str]:
    """A PATH whose dpkg-query says whether vsmartcard-vpcd (and only it) is installed."""
    shim = tmp_path / "bin"
    shim.mkdir()
    status = "install ok installed" if vpcd_installed else "unknown ok not-installed"
    (shim / "dpkg-query").write_text(
        f'#!/bin/sh\nfor a; do last=$a; done\n[ "$last" = vsmartcard-vpcd ] && '
        f'printf "{status}" || printf "unknown ok not-installed"\n'
    )
    (shim / "dpkg-query").chmod(0o755)
    return {**os.environ, "PATH": f"{shim}:{os.environ['PATH']}"}


def test_installer_refuses_next_to_vpcd(tmp_path: Path) -> None:
    proc = subprocess.run(
        ["bash", str(DEPLOY / "install-pi.sh"), "--dry-run"],
        capture_output=True,
        text=True,
        env=_shim(tmp_path, vpcd_installed=True),
        timeout=60,
    )
    assert proc.returncode == 1
    assert "vsmartcard-vpcd is installed" in proc.stderr
    assert "+ " not in proc.stdout  # refused before doing anything


def test_installer_dry_run_lists_every_step(tmp_path: Path) -> None:
    existed = Path("/opt/ultibank").exists()
    proc = subprocess.run(
        ["bash", str(DEPLOY / "install-pi.sh"), "--dry-run"],
        capture_output=True,
        text=True,
        env=_shim(tmp_path, vpcd_installed=False),
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    for step in (
        "system-deps.sh box",
        "usermod -a -G plugdev,dialout,gpio,i2c,audio ultibank",
        "/opt/ultibank/src[pi,pcsc,nfc]",
        "/etc/systemd/system/ultibank.service",
        "/etc/udev/rules.d/93-ultibank.rules",
        "/etc/modprobe.d/blacklist-ultibank-nfc.conf",
        "systemctl daemon-reload",
    ):
        assert step in out, step
    reload = out.index("systemctl daemon-reload")
    assert re.search(r"systemctl enable (--now )?ultibank.service", out[reload:])
    assert Path("/opt/ultibank").exists() == existed  # a dry run changes nothing
