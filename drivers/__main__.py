"""``python -m drivers``: list the NFC readers each stack sees and explain the usual faults.

The command line exposes the same report as ``ultibank readers`` through :func:`main`.
Imports ``drivers.diagnostics`` and the standard library only.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from drivers.diagnostics import Level, analyse, gather_facts, render


def main(argv: Sequence[str] | None = None) -> int:
    """Print the reader report; exit status 1 when a fault was found, else 0."""
    parser = argparse.ArgumentParser(
        prog="python -m drivers",
        description="List the NFC readers pyscard/pcscd and nfcpy see, and explain faults.",
    )
    parser.add_argument(
        "--no-open",
        action="store_true",
        help="do not open readers (skip nfcpy's usb probe, which claims the device briefly)",
    )
    args = parser.parse_args(argv)
    findings = analyse(gather_facts(open_devices=not args.no_open))
    print(render(findings))
    return 1 if any(f.level is Level.FAIL for f in findings) else 0


if __name__ == "__main__":
    sys.exit(main())
