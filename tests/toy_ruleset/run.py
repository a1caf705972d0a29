"""``python -m tests.toy_ruleset.run ARGS``: the ``ultibank`` command with the coins ruleset
registered first (how the tests run it in a process of its own, on a pseudo-terminal)."""

from __future__ import annotations

import sys

from bank.cli import main
from tests.toy_ruleset import install

if __name__ == "__main__":
    install()
    sys.exit(main(sys.argv[1:]))
