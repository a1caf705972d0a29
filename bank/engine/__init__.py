"""The engine: the game (decide, commit, apply), its records and the types every ruleset
shares. Pure: no clock, thread, file or socket."""
