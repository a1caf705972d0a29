"""The unit's behaviour: taps, buttons and clock ticks in; screens and sound cues out.

It imports the engine; it knows screens as a model (:mod:`bank.unit.io`), never pygame.
"""
