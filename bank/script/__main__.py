"""``python -m bank.script FILE``: run a tap script (see :mod:`bank.app.script`)."""

import sys

from bank.app.script import main

sys.exit(main())
