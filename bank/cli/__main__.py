"""``python -m bank.cli``: the ``ultibank`` command (see :mod:`bank.app.cli`)."""

import sys

from bank.app.cli import main

sys.exit(main())
