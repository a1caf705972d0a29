"""A child interpreter that runs one of the ``ultibank`` entry points and reports the modules
it loaded, for the start-up tests: the probe's last stderr line is ``MODULES [...]`` (``json``
is imported only after the command ran, so it does not count)."""

from __future__ import annotations

#: ``PROBE.format(module="quick")``: run ``bank.app.quick.main`` with the child's arguments
PROBE = """
import sys
from bank.app.{module} import main
try:
    status = main(sys.argv[1:])
finally:
    loaded = sorted(sys.modules)
    import json
    sys.stdout.flush()
    sys.stderr.write("\\nMODULES " + json.dumps(loaded) + "\\n")
sys.exit(status)
"""
