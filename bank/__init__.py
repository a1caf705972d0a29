"""The bank: the rules engine, its journal, the unit's behaviour and the daemon.

The engine (``state``, ``events``, ``commands``, ``rules``) is pure: no threads, files,
sockets, clocks or randomness. The journal is the one place this package writes.
"""
