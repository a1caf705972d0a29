"""The bank: the rules engine, its journal, the unit's behaviour and the daemon, one folder a
layer, each importing only the folders below it.

``engine`` (the game that decides, commits and applies; ``state``, ``events``, ``commands``,
the ``ruleset`` protocol, ``records``, ``snapshot``, ``auction``) is pure: no threads, files,
sockets, clocks or randomness. ``unit`` is the unit's behaviour and screen model, over the
engine. ``rulesets`` holds the registry and one package per ruleset, built on the unit shell
and the engine. ``services`` is the bank at work: the ``daemon``'s loop, the ``control``
socket, the ``settings``, the ``journal`` (the one place the bank writes) and the data
directory. ``views`` tells a game: the ``web`` view, the ``history``, the ``charts``, the
``speech``. ``app`` is the wiring, above all of them and above the drivers and the emulator:
the command line, the assembly of backends, the tap scripts. Who may import whom is checked
by the contracts in ``.importlinter`` (docs/architecture.md).
"""
