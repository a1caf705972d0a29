"""The configuration file: decisions, backends and paths, each overridable on the command line.

A TOML file (``--config FILE``; default ``$XDG_CONFIG_HOME/ultibank/config.toml`` when it
exists) with the tables below; ``--set TABLE.KEY=VALUE`` overrides any value, and the common
ones have flags of their own. Unknown tables or keys are refused with a message naming them,
so a typo never passes silently. Imports the standard library and ``bank.config``.

    [game]    edition, data_dir
    [rules]   every field of RulesConfig (auction_seconds, jailed_owner_collects, ...)
    [unit]    idle_seconds, hold_seconds, language
    [reader]  paths (list), deck, rearm_seconds
    [panel]   backends (list), serial_port, gpio_* pins, lcd_*
    [control] socket
    [web]     enabled, host, port
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bank.config import RulesConfig, UnitConfig
from bank.errors import BankError

DEFAULTS: dict[str, dict[str, Any]] = {
    "game": {"edition": "ultime-fr", "data_dir": ""},
    "rules": {},
    "unit": {"idle_seconds": 10.0, "hold_seconds": 5.0, "language": ""},
    "reader": {"paths": ["sim"], "deck": "", "rearm_seconds": "auto"},
    "panel": {
        "backends": ["terminal"],
        "serial_port": "/dev/ultibank-panel",
        "gpio_ok": 17,
        "gpio_menu": 27,
        "gpio_cancel": 22,
        "gpio_buzzer": 18,
        "lcd_address": 39,
        "lcd_cols": 20,
        "lcd_rows": 4,
    },
    "control": {"socket": ""},
    "web": {"enabled": False, "host": "127.0.0.1", "port": 8080},
}


class SettingsError(BankError, ValueError):
    """The configuration file or an override is wrong."""


def default_data_dir() -> Path:
    """``$ULTIBANK_DATA_DIR``, else ``$XDG_DATA_HOME/ultibank`` (``~/.local/share/ultibank``)."""
    env = os.environ.get("ULTIBANK_DATA_DIR")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "ultibank"


def default_config_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "ultibank" / "config.toml"


@dataclass(slots=True)
class Settings:
    """The merged configuration: defaults, then the file, then the command line."""

    raw: dict[str, dict[str, Any]] = field(default_factory=dict)
    source: str = "defaults"

    def get(self, table: str, key: str) -> Any:
        return self.raw[table][key]

    @property
    def edition(self) -> str:
        return str(self.raw["game"]["edition"])

    @property
    def data_dir(self) -> Path:
        d = str(self.raw["game"]["data_dir"])
        return Path(d).expanduser() if d else default_data_dir()

    @property
    def control_socket(self) -> Path:
        s = str(self.raw["control"]["socket"])
        return Path(s).expanduser() if s else self.data_dir / "control.sock"

    @property
    def rearm_seconds(self) -> float | None:
        """``reader.rearm_seconds``; None for ``auto`` (each reader's own re-arm)."""
        value = self.raw["reader"]["rearm_seconds"]
        return None if value == "auto" else float(value)

    def rules(self) -> RulesConfig:
        return RulesConfig.from_mapping(dict(self.raw["rules"]))

    def unit(self) -> UnitConfig:
        u = self.raw["unit"]
        return UnitConfig(
            idle_seconds=float(u["idle_seconds"]),
            hold_seconds=float(u["hold_seconds"]),
            language=str(u["language"]) or None,
        )


def _check_type(where: str, default: Any, value: Any) -> Any:
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise SettingsError(f"{where}: expected true or false, got {value!r}")
    elif isinstance(default, (int, float)) and not isinstance(default, bool):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise SettingsError(f"{where}: expected a number, got {value!r}")
        return type(default)(value) if isinstance(default, float) else value
    elif isinstance(default, list):
        if isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise SettingsError(f"{where}: expected a list of strings, got {value!r}")
    elif isinstance(default, str) and not isinstance(value, str):
        raise SettingsError(f"{where}: expected text, got {value!r}")
    return value


def _check_rearm(where: str, value: Any) -> Any:
    # "auto": each reader's own re-arm (drivers.debounce.rearm_for_poll); else seconds >= 0
    if value == "auto":
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise SettingsError(f"{where}: expected auto or a number of seconds >= 0, got {value!r}")
    return float(value)


def _merge(raw: dict[str, dict[str, Any]], table: str, key: str, value: Any, where: str) -> None:
    if table not in DEFAULTS:
        raise SettingsError(f"{where}: unknown table [{table}]; known: {', '.join(DEFAULTS)}")
    if table == "rules":
        RulesConfig.from_mapping({key: value})  # validates key and type with a clear message
        raw[table][key] = value
        return
    if key not in DEFAULTS[table]:
        known = ", ".join(DEFAULTS[table])
        raise SettingsError(f"{where}: unknown key {table}.{key}; known: {known}")
    if (table, key) == ("reader", "rearm_seconds"):
        raw[table][key] = _check_rearm(f"{where}: {table}.{key}", value)
        return
    raw[table][key] = _check_type(f"{where}: {table}.{key}", DEFAULTS[table][key], value)


def _parse_override(text: str) -> tuple[str, str, Any]:
    if "=" not in text or "." not in text.split("=", 1)[0]:
        raise SettingsError(
            f"--set {text!r}: expected TABLE.KEY=VALUE, e.g. rules.auction_seconds=5"
        )
    name, value_text = text.split("=", 1)
    table, key = name.strip().split(".", 1)
    try:
        value = tomllib.loads(f"v = {value_text}")["v"]
    except tomllib.TOMLDecodeError:
        value = value_text  # a bare word is text
    return table, key, value


def load_settings(
    path: str | Path | None = None, overrides: list[str] | tuple[str, ...] = ()
) -> Settings:
    """Defaults, then the TOML file (if any), then ``TABLE.KEY=VALUE`` overrides."""
    raw = {t: dict(v) for t, v in DEFAULTS.items()}
    source = "defaults"
    file = Path(path).expanduser() if path else default_config_file()
    if path or file.exists():
        try:
            data = tomllib.loads(file.read_text(encoding="utf-8"))
        except FileNotFoundError as err:
            raise SettingsError(f"{file}: no such configuration file") from err
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
            raise SettingsError(f"{file}: not valid TOML: {err}") from err
        for table, values in data.items():
            if not isinstance(values, dict):
                raise SettingsError(f"{file.name}: {table} must be a table [{table}]")
            for key, value in values.items():
                _merge(raw, table, key, value, file.name)
        source = str(file)
    for text in overrides:
        table, key, value = _parse_override(text)
        _merge(raw, table, key, value, "--set")
    return Settings(raw, source)
