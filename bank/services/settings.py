"""The configuration file: decisions, backends and paths, each overridable on the command line.

A TOML file (``--config FILE``; default ``$XDG_CONFIG_HOME/ultibank/config.toml`` when it
exists) with the tables below; ``--set TABLE.KEY=VALUE`` overrides any value, and the common
ones have flags of their own. Unknown tables or keys are refused with a message naming them,
so a typo never passes silently, and so is a value outside its range (:data:`SCHEMA`): the
one-line message names the key, the value and what is allowed, wherever the value came from
(the file, ``--set``, a flag or ``$ULTIBANK_DATA_DIR``). Imports the standard library,
``bank.engine.ranges`` and, when a value needs them, ``bank.unit.text`` (the languages),
``board_assets`` (the edition names) and ``bank.rulesets`` (the [rules] and ruleset tables).

    [game]    edition, data_dir, strict_modes
    [rules]   the ruleset's configuration (Ultime: auction_seconds, jailed_owner_collects, ...)
    [unit]    idle_seconds, hold_seconds, language, entry_seconds, trade_seconds, info_items
    [classic] [variants]  a classic game's decisions and house rules (docs/classic.md §6.1-§6.2),
              checked by the ruleset that reads them; recorded with a new game; an Ultime
              game ignores them. Every table a registered ruleset names in ``config_tables``
              is read so (``rulesets.config_tables()``)
    [reader]  paths (list), deck, rearm_seconds
    [panel]   backends (list), serial_port, gpio_* pins (and the keypad's), lcd_*
    [control] socket
    [web]     enabled, host, port
    [speech]  say (off, all, money), engine (espeak, piper), voice, model, rate, volume,
              device (ALSA), hold_seconds (hold M: speech on/off; hold ✓: say it again)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from bank.engine.errors import BankError, did_you_mean
from bank.engine.ranges import NumberRange, shown

# dataclasses and typing are not imported at start (``ultibank tap`` reads the settings);
# mypy reads this name as typing's own flag
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from bank.engine.config import UnitConfig
    from bank.rulesets import RulesetSpec

DEFAULTS: dict[str, dict[str, Any]] = {
    "game": {"edition": "ultime-fr", "data_dir": "", "strict_modes": True},
    "rules": {},
    "unit": {
        "idle_seconds": 10.0,
        "hold_seconds": 5.0,
        "language": "",
        "entry_seconds": 30.0,
        "trade_seconds": 60.0,
        "info_items": False,
    },
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
        "gpio_keypad_rows": [],
        "gpio_keypad_cols": [],
    },
    "control": {"socket": ""},
    "web": {"enabled": False, "host": "127.0.0.1", "port": 8080},
    "speech": {
        "say": "off",
        "engine": "espeak",
        "voice": "",
        "model": "",
        "rate": 160,
        "volume": 80,
        "device": "",
        "hold_seconds": 3.0,
    },
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


class Settings:
    """The merged configuration: defaults, then the file, then the command line."""

    __slots__ = ("given", "raw", "source")

    def __init__(
        self,
        raw: dict[str, dict[str, Any]] | None = None,
        source: str = "defaults",
        given: frozenset[str] = frozenset(),
    ) -> None:
        self.raw: dict[str, dict[str, Any]] = {} if raw is None else raw
        self.source = source
        #: the ``TABLE.KEY`` names set by the file, ``--set`` or a flag (the others are
        #: defaults)
        self.given = given

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Settings):
            return NotImplemented
        return (self.raw, self.source, self.given) == (other.raw, other.source, other.given)

    __hash__ = None  # type: ignore[assignment]  # mutable, as the dataclass it was

    def __repr__(self) -> str:
        return f"Settings(raw={self.raw!r}, source={self.source!r}, given={self.given!r})"

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

    def rules(self) -> object:
        """The ``[rules]`` table, with the ruleset's own tables (``[classic]``, ``[variants]``)
        as sub-tables, as the configuration of the edition's ruleset; the tables of another
        ruleset are ignored (an Ultime game ignores ``[classic]``, docs/classic.md §6)."""
        from bank import rulesets
        from board_assets import load_edition

        spec = rulesets.for_edition(load_edition(self.edition))
        raw: dict[str, Any] = dict(self.raw["rules"])
        for table in spec.config_tables:
            if self.raw.get(table):
                raw[table] = dict(self.raw[table])
        return spec.config(raw)

    def unit(self) -> UnitConfig:
        from bank.engine.config import UnitConfig

        u = self.raw["unit"]
        return UnitConfig(
            idle_seconds=float(u["idle_seconds"]),
            hold_seconds=float(u["hold_seconds"]),
            language=str(u["language"]) or None,
            entry_seconds=float(u["entry_seconds"]),
            trade_seconds=float(u["trade_seconds"]),
            info_items=bool(u["info_items"]),
            speech_hold_seconds=float(self.raw["speech"]["hold_seconds"]),
            speech=self.raw["speech"]["say"] != "off",
        )


# ---------------------------------------------------------------- ranges of the values


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError("text")
    if "\0" in value:
        raise ValueError("text without NUL characters")
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("true or false")
    return value


def _one_of(*choices: str) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if not isinstance(value, str) or value not in choices:
            raise ValueError("one of " + ", ".join(repr(c) for c in choices))
        return value

    return check


def _language(value: Any) -> str:
    """``""`` (the edition's) or one of the unit's languages (read when one is given)."""
    from bank.unit.text import LANGUAGES

    return _one_of("", *LANGUAGES)(value)


def _edition(value: Any) -> str:
    from board_assets import edition_names

    names = edition_names()
    if isinstance(value, str) and (value in names or value.endswith(".toml")) and "\0" not in value:
        return value
    hint = did_you_mean(value, names) if isinstance(value, str) else ""
    raise ValueError(f"one of {', '.join(names)}, or the path of an edition file (.toml){hint}")


def _nonempty(value: Any) -> str:
    if not _text(value).strip():
        raise ValueError("non-empty text")
    return str(value)


def _specs(schemes: Sequence[str], what: str) -> Callable[[Any], list[str]]:
    """A list (or comma-separated text) of backend paths, each starting with one of *schemes*;
    the backend checks the rest when it opens."""

    def check(value: Any) -> list[str]:
        if isinstance(value, str):
            value = [v.strip() for v in value.split(",") if v.strip()]
        allowed = f"a non-empty list of {what}: {', '.join(schemes)}"
        if not isinstance(value, list) or not value:
            raise ValueError(allowed)
        for item in value:
            if not isinstance(item, str) or "\0" in item:
                raise ValueError(allowed)
            if item.strip().split(":", 1)[0].lower() not in schemes:
                raise ValueError(allowed)
        return list(value)

    return check


_REARM = NumberRange(0, 10, unit="seconds")


def _rearm(value: Any) -> Any:
    """``"auto"``: each reader's own re-arm (drivers.debounce.rearm_for_poll); else seconds."""
    if value == "auto":
        return value
    try:
        return _REARM.check(value)
    except ValueError as err:
        raise ValueError(f"auto, or {err}") from None


_PIN = NumberRange(0, 27, whole=True, unit="(a BCM GPIO number)")


def _pins(count: int, what: str) -> Callable[[Any], list[int]]:
    """A list of *count* distinct BCM pins (the keypad's *what*), or an empty list (no
    keypad); the GPIO panel checks them against its other pins when it opens."""

    def check(value: Any) -> list[int]:
        allowed = f"[] (no keypad) or a list of {count} distinct BCM GPIO numbers 0 to 27 ({what})"
        if not isinstance(value, list) or len(value) not in (0, count):
            raise ValueError(allowed)
        for pin in value:
            if isinstance(pin, bool) or not isinstance(pin, int) or not 0 <= pin <= 27:
                raise ValueError(allowed)
        if len(set(value)) != len(value):
            raise ValueError(allowed)
        return list(value)

    return check


#: every key outside [rules] (the ruleset's configuration checks its own), with what it accepts
SCHEMA: dict[str, dict[str, Callable[[Any], Any]]] = {
    "game": {"edition": _edition, "data_dir": _text, "strict_modes": _flag},
    "unit": {
        "idle_seconds": NumberRange(1, 3600, unit="seconds").check,
        # below 0.2 s an ordinary press of X would already archive the game
        "hold_seconds": NumberRange(0.2, 60, unit="seconds").check,
        "language": _language,
        # the classic unit's entry and trade offer (docs/classic.md §6.3)
        "entry_seconds": NumberRange(1, 3600, unit="seconds").check,
        "trade_seconds": NumberRange(1, 3600, unit="seconds").check,
        "info_items": _flag,
    },
    "reader": {
        "paths": _specs(("sim", "usb", "tty", "udp", "pcsc"), "reader paths"),
        "deck": _text,
        "rearm_seconds": _rearm,
    },
    "panel": {
        "backends": _specs(("terminal", "gpio", "serial", "pygame", "sim"), "panels"),
        "serial_port": _nonempty,
        "gpio_ok": _PIN.check,
        "gpio_menu": _PIN.check,
        "gpio_cancel": _PIN.check,
        "gpio_buzzer": NumberRange(-1, 27, whole=True, unit="(-1: no buzzer)").check,
        # the 7-bit I2C addresses a device may use
        "lcd_address": NumberRange(8, 119, whole=True, unit="(0x08 to 0x77)").check,
        "lcd_cols": NumberRange(8, 40, whole=True, unit="columns").check,
        "lcd_rows": NumberRange(0, 4, whole=True, unit="rows (0: no LCD)").check,
        # the optional 3x4 keypad of a classic game (docs/classic.md §6.3)
        "gpio_keypad_rows": _pins(4, "the keypad's rows"),
        "gpio_keypad_cols": _pins(3, "the keypad's columns"),
    },
    "control": {"socket": _text},
    "speech": {
        "say": _one_of("off", "all", "money"),
        "engine": _one_of("espeak", "piper"),
        "voice": _text,
        "model": _text,
        "rate": NumberRange(80, 450, whole=True, unit="words a minute").check,
        "volume": NumberRange(0, 100, whole=True, unit="%").check,
        "device": _text,
        "hold_seconds": NumberRange(0.5, 60, unit="seconds").check,
    },
    "web": {
        "enabled": _flag,
        "host": _nonempty,
        "port": NumberRange(0, 65535, whole=True, unit="(0: any free port)").check,
    },
}


def check_value(table: str, key: str, value: Any, where: str) -> Any:
    """*value* for ``table.key`` as the program uses it; SettingsError naming *where*, the key,
    the value and what is allowed when it is unknown or out of range."""
    if table in SCHEMA:
        # the unit's own tables: no ruleset is loaded to check them (``ultibank tap`` starts
        # without one)
        if key not in DEFAULTS[table]:
            known = ", ".join(DEFAULTS[table])
            hint = did_you_mean(f"{table}.{key}", [f"{table}.{k}" for k in DEFAULTS[table]])
            raise SettingsError(f"{where}: unknown key {table}.{key}; known: {known}{hint}")
        try:
            return SCHEMA[table][key](value)
        except ValueError as err:
            raise SettingsError(f"{where}: {table}.{key} = {shown(value)}: expected {err}") from err
    from bank import rulesets
    from board_assets import DEFAULT_RULESET

    own = _ruleset_tables()
    if table in own:
        try:
            # checked by the ruleset that reads the table, as its new games will read it
            own[table].config({table: {key: value}})
        except BankError as err:
            raise SettingsError(f"{where}: {err}") from err
        return value
    if table not in DEFAULTS:
        known = ", ".join([*DEFAULTS, *own])
        hint = did_you_mean(table, [*DEFAULTS, *own])
        raise SettingsError(f"{where}: unknown table [{table}]; known: {known}{hint}")
    # [rules]: its keys are checked as the default ruleset's (Ultime) decisions
    try:
        rulesets.find(DEFAULT_RULESET).config({key: value})
    except BankError as err:
        raise SettingsError(f"{where}: {err}") from err
    return value


def _ruleset_tables() -> dict[str, RulesetSpec]:
    """The tables a ruleset reads besides ``[rules]`` (``classic``, ``variants``), with it."""
    from bank import rulesets

    return {t: spec for spec in map(rulesets.find, rulesets.names()) for t in spec.config_tables}


def _merge(raw: dict[str, dict[str, Any]], table: str, key: str, value: Any, where: str) -> None:
    raw.setdefault(table, {})[key] = check_value(table, key, value, where)


def parse_override(text: str) -> tuple[str, str, Any]:
    """``TABLE.KEY=VALUE`` as (table, key, value); the value is TOML, or a bare word."""
    return _parse_override(text)


def _parse_override(text: str) -> tuple[str, str, Any]:
    if "=" not in text or "." not in text.split("=", 1)[0]:
        raise SettingsError(
            f"--set {text!r}: expected TABLE.KEY=VALUE, e.g. rules.auction_seconds=5"
        )
    name, value_text = text.split("=", 1)
    table, key = name.strip().split(".", 1)
    import tomllib

    try:
        value = tomllib.loads(f"v = {value_text}")["v"]
    except tomllib.TOMLDecodeError:
        value = value_text  # a bare word is text
    return table, key, value


def load_settings(
    path: str | Path | None = None,
    overrides: Sequence[str] = (),
    flags: Sequence[tuple[str, str, Any]] = (),
) -> Settings:
    """Defaults, then the TOML file (if any), then ``TABLE.KEY=VALUE`` overrides, then *flags*.

    A flag is ``(flag, "table.key", value)``, e.g. ``("--data-dir", "game.data_dir", "/tmp/x")``:
    its value is used as given (never parsed as TOML, so a backslash stays a backslash) and a
    message about it names the flag.
    """
    raw = {t: dict(v) for t, v in DEFAULTS.items()}
    # a ruleset's own tables ([classic], [variants]) hold only the keys given: the rest are
    # that ruleset's defaults
    given: set[str] = set()
    source = "defaults"
    file = Path(path).expanduser() if path else default_config_file()
    if path or file.exists():
        import tomllib

        try:
            data = tomllib.loads(file.read_text(encoding="utf-8"))
        except FileNotFoundError as err:
            raise SettingsError(f"{file}: no such configuration file") from err
        except OSError as err:  # a directory, no permission: say which file, not an errno
            raise SettingsError(
                f"{file}: cannot read the configuration file: {err.strerror or err}"
            ) from err
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
            raise SettingsError(f"{file}: not valid TOML: {err}") from err
        for table, values in data.items():
            if not isinstance(values, dict):
                raise SettingsError(f"{file.name}: {table} must be a table [{table}]")
            for key, value in values.items():
                _merge(raw, table, key, value, file.name)
                given.add(f"{table}.{key}")
        source = str(file)
    for text in overrides:
        table, key, value = _parse_override(text)
        _merge(raw, table, key, value, "--set")
        given.add(f"{table}.{key}")
    for flag, name, value in flags:
        table, _, key = name.partition(".")
        _merge(raw, table, key, value, flag)
        given.add(name)
    return Settings(raw, source, frozenset(given))
