"""The bank: the rules engine, its journal, the unit's behaviour and the daemon.

The engine (``state``, ``events``, ``commands``, the ``ruleset`` protocol, ``auction``, and
each ruleset's package under ``rulesets``, found through its registry) is pure: no threads,
files, sockets, clocks or randomness. ``game`` decides, commits to the ``journal`` (the one
place this package writes) and applies. ``unit`` is the unit's behaviour and screen model,
``daemon`` its loop and ``control`` its socket; ``web`` and ``charts`` show a game. ``app``
is the wiring, above all of them and above the drivers and the emulator: the command line,
the assembly of backends, the tap scripts. Who may import whom is checked by the contracts
in ``.importlinter`` (docs/architecture.md).
"""
