"""Reader diagnostics: what each NFC stack sees here, and the usual faults in plain words.

The work is split in two so every explanation is testable without hardware:
:func:`gather_facts` looks at the machine (imports pyscard and nfcpy, asks pcscd for its
readers, opens nfcpy's ``usb`` path once, reads ``/proc/modules``, ``/sys/bus/usb/devices`` and
``/dev``), and :func:`analyse` turns those :class:`Facts` into :class:`Finding` s with pure
functions, one per fault. :func:`diagnose` does both and renders text; ``python -m drivers``
prints it.

Imports ``drivers.base`` and the standard library; pyscard and nfcpy only inside
:func:`gather_facts`.
"""

from __future__ import annotations

import errno
import glob
import importlib
import logging
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

SCARD_E_NO_SERVICE = 0x8010001D
SCARD_E_SERVICE_STOPPED = 0x8010001E
SCARD_E_NO_READERS_AVAILABLE = 0x8010002E
SCARD_F_COMM_ERROR = 0x80100013

#: the kernel's own NFC drivers; loaded, they claim the readers before nfcpy or pcscd can
NFC_KERNEL_MODULES = ("pn533_usb", "pn533", "port100", "nfc")

#: USB readers we know, by (vendor, product): (name, the reader path that drives it best)
KNOWN_READERS: dict[tuple[str, str], tuple[str, str]] = {
    ("072f", "2200"): ("ACS ACR122U", "pcsc:ACR122"),
    ("072f", "223b"): ("ACS ACR1252U", "pcsc:ACR1252"),
    ("04cc", "2533"): ("NXP PN533", "usb:04cc:2533"),
    ("04e6", "5591"): ("SCM SCL3711", "usb:04e6:5591"),
    ("04e6", "5593"): ("SCM SCL3712", "usb:04e6:5593"),
    ("054c", "06c1"): ("Sony RC-S380", "usb:054c:06c1"),
    ("054c", "06c3"): ("Sony RC-S380", "usb:054c:06c3"),
    ("054c", "02e1"): ("Sony RC-S330/360", "usb:054c:02e1"),
    ("054c", "0193"): ("Sony PN531", "usb:054c:0193"),
    ("04cc", "0531"): ("Philips PN531", "usb:04cc:0531"),
}


class Level(Enum):
    OK = "ok"
    INFO = "info"
    WARN = "warn"
    FAIL = "FAIL"


@dataclass(frozen=True, slots=True)
class Finding:
    """One line of the report, with an optional explanation of how to fix it."""

    level: Level
    title: str
    advice: str = ""


@dataclass(frozen=True, slots=True)
class NfcpyProbe:
    """One attempt to open a reader with nfcpy: the device it found, or the error it raised."""

    path: str
    device: str | None = None
    error: BaseException | None = None


@dataclass(slots=True)
class Facts:
    """What the machine showed; every field can be injected by tests.

    A ``*_error`` field holds the exception a step raised; ``None`` in ``*_import_error``
    means the library imported.
    """

    pyscard_import_error: BaseException | None = None
    nfcpy_import_error: BaseException | None = None
    pcsc_readers: list[str] | None = None
    pcsc_error: BaseException | None = None
    nfcpy_probes: list[NfcpyProbe] = field(default_factory=list)
    proc_modules: str | None = None
    usb_ids: list[tuple[str, str]] = field(default_factory=list)
    serial_ports: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- explanations (pure)


def _hresult(err: BaseException) -> int | None:
    code = getattr(err, "hresult", None)
    if isinstance(code, int):
        return code & 0xFFFFFFFF
    m = re.search(r"0x([0-9A-Fa-f]{8})", str(err))
    return int(m.group(1), 16) if m else None


def check_libraries(facts: Facts) -> list[Finding]:
    """Which reader libraries are installed, and which extra brings a missing one."""
    out = []
    for name, err, extra, readers in (
        ("pyscard", facts.pyscard_import_error, "pcsc", "ACR122U and other PC/SC readers"),
        ("nfcpy", facts.nfcpy_import_error, "nfc", "PN533, SCL3711, RC-S380, PN532 on UART"),
    ):
        if err is None:
            out.append(Finding(Level.OK, f"{name} is installed"))
        else:
            out.append(
                Finding(
                    Level.WARN,
                    f"{name} is not installed ({err})",
                    f"needed for {readers}: pip install 'ultibank[{extra}]'",
                )
            )
    return out


def explain_pcsc(facts: Facts) -> list[Finding]:
    """What pcscd reported: its readers, or why it could not be asked."""
    if facts.pyscard_import_error is not None:
        return []
    err = facts.pcsc_error
    if err is None:
        readers = facts.pcsc_readers or []
        if not readers:
            return [
                Finding(
                    Level.WARN,
                    "pcscd is running but sees no reader",
                    "plug the reader in; if it is an ACR122U and still missing, check that the "
                    "pn533 kernel modules are not holding it (see below) and that libccid is "
                    "installed (apt install libccid)",
                )
            ]
        return [
            Finding(Level.OK, f"PC/SC reader: {name}  (reader path {pcsc_path(name, readers)})")
            for name in readers
        ]
    code = _hresult(err)
    if code in (SCARD_E_NO_SERVICE, SCARD_E_SERVICE_STOPPED):
        return [
            Finding(
                Level.FAIL,
                f"pcscd is not running (Service not available, 0x{code:08X})",
                "needed for PC/SC readers such as the ACR122U; install and start it: "
                "sudo apt install pcscd && sudo systemctl enable --now "
                "pcscd.socket (or run `pcscd --foreground` to watch it)",
            )
        ]
    if code == SCARD_E_NO_READERS_AVAILABLE:
        return [Finding(Level.WARN, "pcscd is running but sees no reader", "plug the reader in")]
    if code == SCARD_F_COMM_ERROR:
        return [
            Finding(
                Level.FAIL,
                "pcscd stopped answering (RPC transport error, 0x80100013)",
                "restart it: sudo systemctl restart pcscd; the daemon reconnects by itself",
            )
        ]
    return [Finding(Level.FAIL, f"pcscd could not list readers: {err}")]


def pcsc_path(reader_name: str, readers: Sequence[str] = ()) -> str:
    """The reader path that opens *reader_name* and no other of *readers*.

    The model word (``pcsc:ACR122U``) when it picks this reader alone, else the whole name,
    quoted for the shell (``'pcsc:Virtual PCD 00 01'``): two slots of one reader differ only
    in their slot number.
    """
    others = [r for r in readers if r != reader_name]
    for part in (_name_part(reader_name), reader_name):
        if part and not any(part.lower() in r.lower() for r in others):
            return f"pcsc:{part}" if " " not in part else f"'pcsc:{part}'"
    return f"'pcsc:{reader_name}'"


def _name_part(reader_name: str) -> str:
    """A word of a PC/SC reader name that picks it out (the model, such as ``ACR122U``)."""
    words = reader_name.split()
    for word in words:
        if re.search(r"[A-Za-z]", word) and re.search(r"\d", word):
            return word
    return words[0] if words else ""


def explain_nfcpy_open(
    err: BaseException | None, device: str | None, path: str = "usb"
) -> list[Finding]:
    """Why nfcpy could (or could not) open a reader on *path*."""
    parts = path.split(":")
    vid, pid = (parts[1], parts[2]) if len(parts) == 3 else ("VVVV", "PPPP")
    if err is None:
        if device is None:
            return []
        finding = [Finding(Level.OK, f"nfcpy opened {device}")]
        if "acr122" in device.lower():
            finding.append(explain_acr122_nfcpy())
        return finding
    code = getattr(err, "errno", None)
    text = str(err)
    if "libusb" in text.lower() or (code == errno.ENOENT and "usb" in text.lower()):
        return [
            Finding(
                Level.FAIL,
                "libusb-1.0 is missing, so nfcpy cannot use USB readers",
                "sudo apt install libusb-1.0-0",
            )
        ]
    if code == errno.EACCES:
        return [
            Finding(
                Level.FAIL,
                f"permission denied on /dev/bus/usb: this user may not open {path}",
                'add a udev rule, e.g. /etc/udev/rules.d/93-nfcdev.rules with SUBSYSTEM=="usb", '
                f'ACTION=="add", ATTRS{{idVendor}}=="{vid}", ATTRS{{idProduct}}=="{pid}", '
                'GROUP="plugdev"; then sudo udevadm control -R, replug the reader, and '
                "sudo adduser $USER plugdev (log in again)",
            )
        ]
    if code == errno.EBUSY:
        return [
            Finding(
                Level.FAIL,
                f"the reader {path} is busy: another program or driver holds it",
                "usually pcscd (its libccid claims CCID readers such as the ACR122U) or a kernel "
                "NFC module. Use one stack per reader: for an ACR122U use reader path pcsc:; "
                "for nfcpy, stop pcscd (sudo systemctl stop pcscd.socket pcscd) and unload "
                "the kernel modules",
            )
        ]
    if code == errno.ENODEV:
        return [Finding(Level.INFO, f"nfcpy found no reader on {path}")]
    return [Finding(Level.FAIL, f"nfcpy could not open {path}: {err}")]


def explain_acr122_nfcpy() -> Finding:
    """An ACR122U seen through nfcpy: advise PC/SC, since current firmware fails under nfcpy."""
    return Finding(
        Level.WARN,
        "an ACR122U (072f:2200) is best read through PC/SC, not nfcpy",
        "nfcpy's acr122 driver cannot drive the firmware sold today (ACR122U215/216): it times "
        "out. Use reader path pcsc:ACR122 with pcscd running (pip install 'ultibank[pcsc]')",
    )


def check_kernel_modules(proc_modules: str | None) -> list[Finding]:
    """Kernel NFC modules loaded (from /proc/modules text) that steal readers from user space."""
    if proc_modules is None:
        return []
    loaded = {line.split()[0] for line in proc_modules.splitlines() if line.strip()}
    found = [m for m in NFC_KERNEL_MODULES if m in loaded]
    if not found:
        return [Finding(Level.OK, "no kernel NFC module is loaded")]
    blacklist = "\\n".join(f"blacklist {m}" for m in found)
    return [
        Finding(
            Level.FAIL,
            f"kernel NFC module(s) loaded: {', '.join(found)}",
            "they claim PN533/RC-S380/ACR122U readers before nfcpy or pcscd can. Blacklist "
            f"them: printf '{blacklist}\\n' | sudo tee /etc/modprobe.d/blacklist-nfc.conf; "
            f"then sudo modprobe -r {' '.join(found)} (or reboot)",
        )
    ]


def check_usb_readers(usb_ids: Sequence[tuple[str, str]], nfcpy_installed: bool) -> list[Finding]:
    """Name the known USB readers plugged in, and the stack each one wants."""
    out = []
    for vid, pid in usb_ids:
        known = KNOWN_READERS.get((vid.lower(), pid.lower()))
        if known is None:
            continue
        name, path = known
        out.append(Finding(Level.INFO, f"USB reader {vid}:{pid} {name}: use reader path {path}"))
        if (vid.lower(), pid.lower()) == ("072f", "2200") and nfcpy_installed:
            out.append(explain_acr122_nfcpy())
    return out


def check_serial_ports(ports: Sequence[str]) -> list[Finding]:
    """Serial ports where a PN532 may sit, with the path nfcpy takes for each."""
    out = []
    for port in ports:
        name = Path(port).name
        short = name[3:] if name.startswith("tty") else name
        out.append(
            Finding(
                Level.INFO,
                f"serial port {port}: a PN532 there is reader path tty:{short}:pn532",
                "the user needs the dialout group; on serial0 disable the serial console "
                "(raspi-config) first",
            )
        )
    return out


def analyse(facts: Facts) -> list[Finding]:
    """Every finding for these facts, most basic first."""
    findings = check_libraries(facts)
    findings += explain_pcsc(facts)
    if facts.nfcpy_import_error is None:
        for probe in facts.nfcpy_probes:
            findings += explain_nfcpy_open(probe.error, probe.device, probe.path)
    findings += check_kernel_modules(facts.proc_modules)
    findings += check_usb_readers(facts.usb_ids, facts.nfcpy_import_error is None)
    findings += check_serial_ports(facts.serial_ports)
    seen_any = (
        bool(facts.pcsc_readers or facts.serial_ports)
        or any(probe.device for probe in facts.nfcpy_probes)
        or any(ids in KNOWN_READERS for ids in facts.usb_ids)
    )
    if not seen_any:
        findings.append(
            Finding(
                Level.INFO,
                "no reader found; the unit can still run with reader path sim",
            )
        )
    return _dedupe(findings)


def _dedupe(findings: list[Finding]) -> list[Finding]:
    seen: set[Finding] = set()
    out = []
    for f in findings:
        if f not in seen:
            seen.add(f)
            out.append(f)
    return out


def render(findings: Sequence[Finding]) -> str:
    """The report as plain text, one finding per line with its advice indented below."""
    lines = []
    for f in findings:
        lines.append(f"[{f.level.value:>4}] {f.title}")
        if f.advice:
            lines.append(f"       -> {f.advice}")
    return "\n".join(lines)


# ---------------------------------------------------------------- looking at the machine


def read_usb_ids(root: str = "/sys/bus/usb/devices") -> list[tuple[str, str]]:
    """(vendor, product) hex pairs of the USB devices sysfs lists (empty without sysfs)."""
    out = []
    for dev in sorted(glob.glob(os.path.join(root, "*"))):
        try:
            vid = Path(dev, "idVendor").read_text().strip()
            pid = Path(dev, "idProduct").read_text().strip()
        except OSError:
            continue
        out.append((vid.lower(), pid.lower()))
    return out


def find_serial_ports(dev: str = "/dev") -> list[str]:
    """Serial devices a PN532 may hang on: ttyUSB*, ttyACM*, ttyAMA*, serial0."""
    ports: list[str] = []
    for pattern in ("ttyUSB*", "ttyACM*", "ttyAMA*", "serial0"):
        ports += sorted(glob.glob(os.path.join(dev, pattern)))
    return ports


def gather_facts(*, open_devices: bool = True) -> Facts:
    """Look at this machine; with *open_devices*, ask pcscd and try nfcpy's usb readers."""
    facts = Facts()
    try:
        importlib.import_module("smartcard.System")
    except ImportError as err:
        facts.pyscard_import_error = err
    try:
        importlib.import_module("nfc")
    except ImportError as err:
        facts.nfcpy_import_error = err
    if facts.pyscard_import_error is None:
        facts.pcsc_readers, facts.pcsc_error = _pcsc_readers()
    facts.usb_ids = read_usb_ids()
    if facts.nfcpy_import_error is None and open_devices:
        facts.nfcpy_probes = [_nfcpy_probe(path) for path in nfcpy_probe_paths(facts.usb_ids)]
    try:
        facts.proc_modules = Path("/proc/modules").read_text()
    except OSError:
        facts.proc_modules = None
    facts.serial_ports = find_serial_ports()
    return facts


def _pcsc_readers() -> tuple[list[str] | None, BaseException | None]:
    try:
        system = importlib.import_module("smartcard.System")
        return [str(r) for r in system.readers()], None
    except Exception as err:  # every pcscd failure is something to explain, not to crash on
        return None, err


def nfcpy_probe_paths(usb_ids: Sequence[tuple[str, str]]) -> list[str]:
    """The nfcpy paths to try: each known nfcpy reader by VID:PID, else plain ``usb``.

    Full ``usb:VID:PID`` paths make nfcpy raise EBUSY/EACCES instead of silently skipping the
    device. PC/SC readers (ACS) are not opened: an ACR122U may need a replug after nfcpy
    closes it.
    """
    paths = [
        f"usb:{vid}:{pid}"
        for vid, pid in usb_ids
        if KNOWN_READERS.get((vid, pid), ("", "pcsc"))[1].startswith("usb:")
    ]
    return paths or ["usb"]


def _nfcpy_probe(path: str) -> NfcpyProbe:
    try:
        nfc = importlib.import_module("nfc")
    except Exception as err:  # as below: the exception is the diagnosis
        return NfcpyProbe(path, error=err)
    # nfcpy logs its own lines ("ERROR nfc.clf: no reader available on path usb"); the report
    # says what they mean in its own words, so they are kept out of the user's terminal
    nfc_log = logging.getLogger("nfc")  # nfc.clf and the drivers log through it
    was = nfc_log.level
    nfc_log.setLevel(logging.CRITICAL + 1)
    try:
        try:
            clf = nfc.ContactlessFrontend(path)
        except Exception as err:  # the exception is the diagnosis
            return NfcpyProbe(path, error=err)
        try:
            return NfcpyProbe(path, device=str(clf.device))
        finally:
            clf.close()
    finally:
        nfc_log.setLevel(was)


def diagnose(facts: Facts | None = None, *, gather: Callable[[], Facts] = gather_facts) -> str:
    """The diagnostic report for this machine (or for the given facts)."""
    return render(analyse(facts if facts is not None else gather()))
