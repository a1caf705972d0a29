"""The core imports with pygame, nfcpy, pyscard and pyserial blocked: it is pure."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def test_core_imports_without_hardware_stacks() -> None:
    code = textwrap.dedent(
        """
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split('.')[0] in {'pygame', 'nfc', 'smartcard', 'serial', 'gpiozero',
                                          'RPLCD', 'aiohttp', 'threading_blocked'}:
                    raise ImportError('blocked: ' + name)
        sys.meta_path.insert(0, Block())
        import bank.rulesets.ultime.rules, bank.game, bank.auction, bank.events, bank.unit.io
        import board_assets
        from bank.game import Game
        from board_assets import load_edition
        g = Game(load_edition())
        g.start([1, 2])
        banned = {'time', 'random', 'socket', 'threading'}
        src = ['bank.rulesets.ultime.rules', 'bank.rulesets.ultime.events', 'bank.ruleset',
               'bank.rulesets', 'bank.events', 'bank.state', 'bank.auction']
        import inspect
        for m in src:
            text = inspect.getsource(sys.modules[m])
            for b in banned:
                assert f'import {b}' not in text, (m, b)
        print('ok')
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
