"""Reader diagnostics: every explanation, from injected facts (no hardware needed)."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from drivers.__main__ import main
from drivers.diagnostics import (
    Facts,
    Finding,
    Level,
    NfcpyProbe,
    analyse,
    check_kernel_modules,
    check_serial_ports,
    check_usb_readers,
    diagnose,
    explain_nfcpy_open,
    explain_pcsc,
    find_serial_ports,
    nfcpy_probe_paths,
    read_usb_ids,
    render,
)

PROC_MODULES = """\
snd_hda_intel 57344 3 - Live 0x0000000000000000
pn533_usb 20480 0 - Live 0x0000000000000000
pn533 45056 1 pn533_usb, Live 0x0000000000000000
nfc 135168 1 pn533, Live 0x0000000000000000
"""


class EstablishContextException(Exception):
    """Shaped like pyscard's: the PC/SC code in ``hresult`` (unsigned, as pyscard gives it)."""

    def __init__(self, hresult: int) -> None:
        super().__init__("Failed to establish context")
        self.hresult = hresult


def titles(findings: list[Finding]) -> str:
    return "\n".join(f"{f.level.value} {f.title} -> {f.advice}" for f in findings)


def test_pcscd_not_running() -> None:
    facts = Facts(pcsc_error=EstablishContextException(0x8010001D))
    (finding,) = explain_pcsc(facts)
    assert "pcscd is not running" in finding.title and "0x8010001D" in finding.title
    assert "apt install pcscd" in finding.advice


def test_pcscd_not_running_from_a_negative_hresult_or_the_text() -> None:
    signed = 0x8010001D - (1 << 32)
    for err in (EstablishContextException(signed), OSError("Service not available (0x8010001D)")):
        (finding,) = explain_pcsc(Facts(pcsc_error=err))
        assert "pcscd is not running" in finding.title


def test_pcscd_lost_mid_way() -> None:
    (finding,) = explain_pcsc(Facts(pcsc_error=EstablishContextException(0x80100013)))
    assert finding.level is Level.FAIL and "restart" in finding.advice


def test_pcscd_without_readers() -> None:
    for facts in (
        Facts(pcsc_readers=[]),
        Facts(pcsc_error=EstablishContextException(0x8010002E)),
    ):
        (finding,) = explain_pcsc(facts)
        assert "sees no reader" in finding.title


def test_pcsc_readers_are_listed_with_their_path() -> None:
    facts = Facts(pcsc_readers=["ACS ACR122U PICC Interface 00 00"])
    (finding,) = explain_pcsc(facts)
    assert finding.level is Level.OK and "pcsc:ACR122U" in finding.title


def test_pyscard_missing_names_the_extra_and_skips_pcscd() -> None:
    facts = Facts(pyscard_import_error=ImportError("No module named 'smartcard'"))
    found = analyse(facts)
    assert "pyscard is not installed" in titles(found)
    assert "pip install 'ultibank[pcsc]'" in titles(found)
    assert "pcscd" not in titles(found)


def test_nfcpy_missing_names_the_extra() -> None:
    facts = Facts(nfcpy_import_error=ImportError("No module named 'nfc'"))
    assert "pip install 'ultibank[nfc]'" in titles(analyse(facts))


def test_reader_busy_because_pcscd_holds_it() -> None:
    (finding,) = explain_nfcpy_open(OSError(errno.EBUSY, "Resource busy"), None, "usb:04e6:5591")
    assert "usb:04e6:5591 is busy" in finding.title and "pcscd" in finding.advice
    assert "systemctl stop pcscd" in finding.advice


def test_missing_udev_permission() -> None:
    (finding,) = explain_nfcpy_open(OSError(errno.EACCES, "Access denied"), None, "usb:054c:06c3")
    assert "permission denied on /dev/bus/usb" in finding.title
    assert 'ATTRS{idVendor}=="054c", ATTRS{idProduct}=="06c3"' in finding.advice
    assert "udevadm control -R" in finding.advice and "plugdev" in finding.advice


def test_libusb_missing() -> None:
    err = OSError(errno.ENOENT, "cannot find a suitable libusb-1.0")
    (finding,) = explain_nfcpy_open(err, None)
    assert "libusb-1.0 is missing" in finding.title and "apt install libusb-1.0-0" in finding.advice


def test_no_usb_reader_for_nfcpy() -> None:
    (finding,) = explain_nfcpy_open(OSError(errno.ENODEV, "No such device"), None)
    assert finding.level is Level.INFO and "no reader" in finding.title


def test_acr122_opened_through_nfcpy_advises_pcsc() -> None:
    found = explain_nfcpy_open(None, "ACS ACR122U PN532v1.4 at usb:001:004")
    assert found[0].level is Level.OK
    assert "pcsc:ACR122" in found[1].advice and "215/216" in found[1].advice


def test_acr122_on_usb_advises_pcsc() -> None:
    found = check_usb_readers([("072f", "2200")], nfcpy_installed=True)
    assert "ACR122U" in found[0].title and "pcsc:ACR122" in found[0].title
    assert "best read through PC/SC" in found[1].title
    assert len(check_usb_readers([("072f", "2200")], nfcpy_installed=False)) == 1


def test_nfcpy_readers_on_usb_get_their_usb_path() -> None:
    (finding,) = check_usb_readers([("054c", "06c3"), ("1d6b", "0002")], nfcpy_installed=True)
    assert "RC-S380" in finding.title and "usb:054c:06c3" in finding.title


def test_kernel_modules_loaded() -> None:
    (finding,) = check_kernel_modules(PROC_MODULES)
    assert finding.level is Level.FAIL
    assert "pn533_usb, pn533, nfc" in finding.title
    assert "blacklist pn533_usb" in finding.advice and "modprobe -r pn533_usb" in finding.advice


def test_no_kernel_modules_and_no_proc() -> None:
    assert check_kernel_modules("snd 1 0 - Live 0x0\n")[0].level is Level.OK
    assert check_kernel_modules(None) == []


def test_serial_ports_get_tty_paths() -> None:
    found = check_serial_ports(["/dev/ttyUSB0", "/dev/serial0"])
    assert "tty:USB0:pn532" in found[0].title
    assert "tty:serial0:pn532" in found[1].title and "dialout" in found[1].advice


def test_nothing_found_says_sim_still_works() -> None:
    nothing = NfcpyProbe("usb", error=OSError(errno.ENODEV, "No such device"))
    found = analyse(Facts(pcsc_readers=[], nfcpy_probes=[nothing]))
    assert "reader path sim" in found[-1].title
    seen = analyse(Facts(pcsc_readers=["ACS ACR122U 00 00"]))
    assert "reader path sim" not in titles(seen)


def test_nfcpy_probes_use_full_paths_and_leave_pcsc_readers_alone() -> None:
    ids = [("072f", "2200"), ("054c", "06c3"), ("1d6b", "0002")]
    assert nfcpy_probe_paths(ids) == ["usb:054c:06c3"]
    assert nfcpy_probe_paths([("072f", "2200")]) == ["usb"]
    assert nfcpy_probe_paths([]) == ["usb"]


def test_every_probe_is_explained() -> None:
    probes = [
        NfcpyProbe("usb:054c:06c3", device="SONY RC-S380/P NFC Port-100 v1.11 at usb:001:005"),
        NfcpyProbe("usb:04e6:5591", error=OSError(errno.EBUSY, "busy")),
    ]
    report = titles(analyse(Facts(nfcpy_probes=probes)))
    assert "nfcpy opened SONY RC-S380" in report and "usb:04e6:5591 is busy" in report
    assert "reader path sim" not in report


def test_render_puts_advice_under_its_finding() -> None:
    text = render([Finding(Level.FAIL, "broken", "fix it"), Finding(Level.OK, "fine")])
    assert text == "[FAIL] broken\n       -> fix it\n[  ok] fine"


def test_diagnose_uses_the_facts_it_is_given() -> None:
    report = diagnose(Facts(proc_modules=PROC_MODULES, usb_ids=[("072f", "2200")]))
    assert "kernel NFC module" in report and "ACR122U" in report


def test_sysfs_and_dev_are_read(tmp_path: Path) -> None:
    dev = tmp_path / "1-1"
    dev.mkdir()
    (dev / "idVendor").write_text("072f\n")
    (dev / "idProduct").write_text("2200\n")
    (tmp_path / "usb1").mkdir()  # a hub interface without ids
    assert read_usb_ids(str(tmp_path)) == [("072f", "2200")]
    for name in ("ttyUSB0", "ttyACM1", "ttyS0", "serial0"):
        (tmp_path / name).touch()
    assert [Path(p).name for p in find_serial_ports(str(tmp_path))] == [
        "ttyUSB0",
        "ttyACM1",
        "serial0",
    ]


def test_the_command_runs_on_this_machine(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["--no-open"])
    out = capsys.readouterr().out
    assert "pyscard" in out and "nfcpy" in out
    assert status in (0, 1)
    assert (status == 1) == ("[FAIL]" in out)


def test_two_slots_of_one_reader_get_paths_that_tell_them_apart() -> None:
    """vpcd's two slots (and a dual-interface reader's two halves) share every word but the
    slot number: each must be offered a path that opens that slot and no other."""
    from drivers.pcsc import choose_reader, parse_path

    readers = [
        "Virtual PCD 00 00",
        "Virtual PCD 00 01",
        "ACS ACR122U PICC Interface 00 00",
        "OMNIKEY 5022 00 00",
    ]
    findings = explain_pcsc(Facts(pcsc_readers=readers))
    paths = [f.title.split("reader path ", 1)[1].rstrip(")").strip("'") for f in findings]
    assert len(set(paths)) == len(readers), paths
    for reader, path in zip(readers, paths, strict=True):
        assert choose_reader(readers, parse_path(path)) == reader, (reader, path)
    assert paths[2] == "pcsc:ACR122U", "a unique model word stays the short path"
    assert "reader path 'pcsc:Virtual PCD 00 01'" in findings[1].title, "quoted for the shell"


def test_pcscd_down_is_a_fault_the_command_exits_non_zero_for(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import drivers.__main__ as entry

    down = Facts(pcsc_error=EstablishContextException(0x8010001D), proc_modules="")
    monkeypatch.setattr(entry, "gather_facts", lambda open_devices: down)
    assert entry.main(["--no-open"]) == 1
    out = capsys.readouterr().out
    assert "[FAIL] pcscd is not running" in out
    assert "systemctl enable --now pcscd.socket" in out


@pytest.mark.nfcpy
def test_the_nfcpy_probe_speaks_in_our_words_only(caplog: pytest.LogCaptureFixture) -> None:
    """nfcpy logs "ERROR nfc.clf: no reader available on path usb" when it finds nothing;
    the report says it in its own words, and nfcpy's line is not shown."""
    import logging

    from drivers.diagnostics import _nfcpy_probe

    pytest.importorskip("nfc")
    with caplog.at_level(logging.DEBUG):
        probe = _nfcpy_probe("usb:ffff:fffe")  # no such device anywhere
    assert probe.device is None and probe.error is not None
    assert not [r for r in caplog.records if r.name.startswith("nfc")], caplog.text
    (finding,) = explain_nfcpy_open(probe.error, probe.device, probe.path)
    assert "nfcpy found no reader on usb:ffff:fffe" in finding.title
