"""Small helpers for the engine's frozen dataclasses. Imports only the standard library."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, fields
from typing import Any, ParamSpec, TypeVar, cast

T = TypeVar("T")
P = ParamSpec("P")

_FIELDS: dict[type, tuple[str, ...]] = {}


def field_names(cls: type) -> tuple[str, ...]:
    """The dataclass field names of *cls*, cached: cheaper than ``dataclasses.asdict``."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(f.name for f in fields(cls))
    return names


def register_once(table: dict[str, type[T]], name: str, cls: type[T], what: str) -> None:
    """Add *cls* under *name*; ValueError when another class already holds the name."""
    known = table.get(name)
    if known is not None and known is not cls:
        raise ValueError(f"{what} {name!r} is already {known.__qualname__}")
    table[name] = cls


_DICT_MAKERS: dict[tuple[type, str], Callable[[Any], dict[str, Any]]] = {}


def dict_maker(cls: type, last: str, lists: bool = False) -> Callable[[Any], dict[str, Any]]:
    """A function giving an instance of the dataclass *cls* as a dict: its fields in order,
    then the key *last* with the class's attribute of that name (an event's ``kind``, a
    command's ``name``); with *lists*, a tuple field is given as a list.

    Made once per class from its field names, as :mod:`dataclasses` makes ``__init__``: one
    dict display instead of a loop of ``getattr`` (every journalled transaction writes its
    command and events so).
    """
    maker = _DICT_MAKERS.get((cls, last))
    if maker is not None:
        return maker
    names = field_names(cls)
    if not all(name.isidentifier() for name in (*names, last)):
        raise ValueError(f"{cls.__name__} has a field that is not an identifier")
    if lists:
        items = [f"{n!r}: listed(self.{n})" for n in names]
    else:
        items = [f"{n!r}: self.{n}" for n in names]
    items.append(f"{last!r}: tail")
    source = f"def as_dict(self):\n    return {{{', '.join(items)}}}\n"
    scope: dict[str, Any] = {"tail": getattr(cls, last), "listed": _listed}
    exec(source, scope)  # the source is made above from the dataclass's field names
    maker = _DICT_MAKERS[(cls, last)] = cast("Callable[[Any], dict[str, Any]]", scope["as_dict"])
    return maker


def _listed(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


def frozen_maker(cls: Callable[P, T]) -> Callable[P, T]:
    """A constructor of the frozen dataclass *cls* that takes the same arguments as ``cls(...)``
    and gives an equal instance of *cls*, about four times cheaper.

    A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__`` (its own
    ``__setattr__`` refuses): most of a transaction's Python time went there. This one sets
    the fields on an instance of a private subclass that adds no slot and leaves
    ``__setattr__`` to ``object`` (plain attribute stores), then makes the instance a *cls*
    (``__class__`` set, which Python allows between classes of one layout): from then on it is
    an ordinary frozen *cls*, equal, hashed and printed as ``cls(...)`` would have made it.

    Made once per class from its fields, as :mod:`dataclasses` makes ``__init__``. A class
    this cannot build the same way (a field outside ``__init__``, a default factory, a
    ``__post_init__``) is given back as it is: ``cls(...)``.
    """
    klass = cast("type", cls)
    made = _FROZEN_MAKERS.get(klass)
    if made is not None:
        return cast("Callable[P, T]", made)
    draft = _draft(klass)
    if draft is None:
        _FROZEN_MAKERS[klass] = klass
        return cls
    scope: dict[str, Any] = {"_fm_new": object.__new__, "_fm_draft": draft, "_fm_cls": klass}
    params: list[str] = []
    keywords: list[str] = []
    every = fields(klass)
    for i, f in enumerate(every):
        param = f.name
        if f.default is not MISSING:
            scope[f"_fm_default_{i}"] = f.default
            param += f"=_fm_default_{i}"
        (keywords if f.kw_only else params).append(param)
    if keywords:
        params += ["*", *keywords]
    body = "".join(f"    _fm_value.{f.name} = {f.name}\n" for f in every)
    made = _FROZEN_MAKERS[klass] = _made("make", params, body, scope)
    return cast("Callable[P, T]", made)


def frozen_replacer(cls: type[T], name: str) -> Callable[[T, Any], T]:
    """A function ``(value, new)`` giving the frozen dataclass *value* (a *cls*) with its field
    *name* set to *new*: ``dataclasses.replace(value, name=new)`` without its checks, built as
    :func:`frozen_maker` builds (the other fields copied in one straight line of code).

    For the few changes made by every transaction (a balance, the players of a state)."""
    draft = _draft(cls)
    if draft is None or name not in field_names(cls):
        raise TypeError(f"{cls.__name__} has no field {name!r} a replacer can set")
    scope: dict[str, Any] = {"_fm_new": object.__new__, "_fm_draft": draft, "_fm_cls": cls}
    body = "".join(
        f"    _fm_value.{n} = _fm_with\n" if n == name else f"    _fm_value.{n} = _fm_old.{n}\n"
        for n in field_names(cls)
    )
    return cast("Callable[[T, Any], T]", _made("replace", ["_fm_old", "_fm_with"], body, scope))


def _made(name: str, params: list[str], body: str, scope: dict[str, Any]) -> Callable[..., Any]:
    """The function *name* of :func:`frozen_maker` and :func:`frozen_replacer`: a new draft,
    *body* (the stores of its fields), the draft made a ``_fm_cls``."""
    source = (
        f"def {name}({', '.join(params)}):\n    _fm_value = _fm_new(_fm_draft)\n{body}"
        "    _fm_value.__class__ = _fm_cls\n    return _fm_value\n"
    )
    exec(source, scope)  # the source is made from the dataclass's field names (_draft checks)
    return cast("Callable[..., Any]", scope[name])


def _draft(cls: type) -> type | None:
    """The private subclass :func:`frozen_maker` builds a *cls* on (None: *cls* cannot be
    built so: a field outside ``__init__``, a default factory, a ``__post_init__``, a field
    name that is no identifier or that the made code uses)."""
    if cls in _DRAFTS:
        return _DRAFTS[cls]
    every = fields(cls)
    if (
        any(not f.init or f.default_factory is not MISSING for f in every)
        or hasattr(cls, "__post_init__")
        or not all(f.name.isidentifier() and not f.name.startswith("_fm_") for f in every)
    ):
        _DRAFTS[cls] = None
        return None
    made = _DRAFTS[cls] = type(
        f"{cls.__name__}Draft",
        (cls,),
        {"__slots__": (), "__setattr__": object.__setattr__, "__delattr__": object.__delattr__},
    )
    return made


_FROZEN_MAKERS: dict[type, Callable[..., Any]] = {}
_DRAFTS: dict[type, type | None] = {}
