"""Readers and panels: the hardware edges of the unit.

Imports the unit's input and output types (:mod:`bank.unit.io`), never the rules.
Third-party stacks (nfcpy, pyscard, pyserial, gpiozero, RPLCD) are imported inside their
backend module only, so a missing library costs only that backend, with a clear message.
"""
