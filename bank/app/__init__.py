"""The wiring: the command line and the assembly of backends, above the core and the drivers.

``cli`` parses the ``ultibank`` command line; ``runtime`` puts a game, its journal, the unit,
the daemon, readers, panels, the control socket and the web view together; ``script`` runs tap
scripts against the simulated reader and panel. This package is the only part of ``bank`` that
imports ``drivers`` and ``firmware_sim``; nothing in the core imports it (the contracts in
``.importlinter``, checked by ``lint-imports`` in ``make test``).
"""
