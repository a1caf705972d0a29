"""The unit's behaviour is pure: no clock, randomness, threads, hardware stacks or drivers."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_unit_imports_without_hardware_stacks_and_reads_no_clock() -> None:
    code = textwrap.dedent(
        """
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split('.')[0] in {'pygame', 'nfc', 'smartcard', 'serial', 'gpiozero',
                                          'RPLCD', 'aiohttp'}:
                    raise ImportError('blocked: ' + name)
        sys.meta_path.insert(0, Block())
        import inspect
        import bank.rulesets.ultime.unit, bank.unit.screens, bank.unit.text, bank.script
        for name in ('bank.unit.shell', 'bank.rulesets.ultime.unit', 'bank.unit.screens',
                     'bank.rulesets.ultime.screens', 'bank.unit.text'):
            text = inspect.getsource(sys.modules[name])
            for banned in ('time', 'random', 'socket', 'threading', 'drivers', 'pygame'):
                assert f'import {banned}' not in text, (name, banned)
                assert f'from {banned}' not in text, (name, banned)
        print('ok')
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
