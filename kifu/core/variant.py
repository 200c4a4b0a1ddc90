"""Rule variants as data: frozen msgspec Structs, written in a *rules spec*.

A rules spec names a game, its rules version and the variant fields that differ from the
default, in one space-free token::

    tweak/1                      the default rules
    tweak/1;rounds=1;empty_capture=true

Values: ``true``/``false`` for bools, decimal ints, bare strings (``[A-Za-z0-9_.+-]*``),
and tuples as comma-separated values. Fields are written in declaration order, so a variant
has exactly one spelling. The same token is the ``Rules`` header of a record and the first
field of a position line.
"""

from __future__ import annotations

import functools
import re
import typing
from typing import Any

import msgspec

from kifu.core.errors import VariantError

_BARE = re.compile(r"[A-Za-z0-9_.+\-]*\Z")
_INT = re.compile(r"-?[0-9]{1,18}\Z")
"""A variant integer: ASCII digits only (no Unicode digits, ``_`` or spaces), at most 18."""


def short(text: str, limit: int = 40) -> str:
    """``repr(text)`` cut to ``limit`` characters: error messages quote a bounded excerpt."""
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"


def clip(text: str, limit: int = 40) -> str:
    """``text`` as it is (no quotes) when short, else its first ``limit`` characters and
    its length: for card lists and the like, which error messages write bare."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"


class Variant(msgspec.Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """Base class of every game's rule-variant struct (all fields must have defaults).

    A subclass may define ``validate()`` (raising :class:`VariantError`); it runs whenever a
    variant is made, so a bad variant never exists."""

    def __post_init__(self) -> None:
        check = getattr(self, "validate", None)
        if check is not None:
            check()


@functools.cache
def _field_types(cls: type[msgspec.Struct]) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in msgspec.structs.fields(cls)}


def _encode_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        if not _BARE.match(value):
            raise VariantError(f"variant string {value!r} may only use letters, digits, _.+-")
        return value
    if isinstance(value, tuple):
        return ",".join(_encode_value(v) for v in value)
    raise VariantError(f"cannot write variant value {value!r}")


def _decode_value(text: str, tp: Any, name: str) -> Any:
    origin = typing.get_origin(tp)
    if origin is tuple:
        (item, _ellipsis) = typing.get_args(tp)
        if text == "":
            return ()
        return tuple(_decode_value(t, item, name) for t in text.split(","))
    if tp is bool:
        if text in ("true", "false"):
            return text == "true"
        raise VariantError(f"variant field {name}: expected true or false, got {short(text)}")
    if tp is int:
        if not _INT.match(text):
            raise VariantError(
                f"variant field {name}: expected an integer (ASCII digits, at most 18), "
                f"got {short(text)}"
            )
        return int(text)
    if tp is str:
        if not _BARE.match(text):
            raise VariantError(f"variant field {name}: bad string {short(text)}")
        return text
    raise VariantError(f"variant field {name}: unsupported type {tp!r}")


def variant_fields(variant: Variant) -> list[tuple[str, str]]:
    """The (name, value text) pairs of the fields that differ from the default."""
    names, defaults = _defaults(type(variant))
    out = []
    for name, default in zip(names, defaults, strict=True):
        value = getattr(variant, name)
        if value != default:
            out.append((name, _encode_value(value)))
    return out


@functools.cache
def _defaults(cls: type[Variant]) -> tuple[tuple[str, ...], tuple[Any, ...]]:
    """A variant class's field names and default values (``msgspec.structs.fields``
    evaluates the annotations on every call: ~0.7 ms, once per position line written)."""
    default = cls()
    names = tuple(f.name for f in msgspec.structs.fields(cls))
    return names, tuple(getattr(default, n) for n in names)


def variant_from_pairs(cls: type[Variant], pairs: list[tuple[str, str]]) -> Variant:
    types = _field_types(cls)
    kwargs: dict[str, Any] = {}
    for name, text in pairs:
        if name not in types:
            known = ", ".join(types) or "none"
            raise VariantError(f"unknown variant field {short(name)} (known: {known})")
        if name in kwargs:
            raise VariantError(f"variant field {short(name)} given twice")
        kwargs[name] = _decode_value(text, types[name], name)
    try:
        return cls(**kwargs)
    except (TypeError, msgspec.ValidationError) as e:
        raise VariantError(f"bad variant: {e}") from None


_SPECS: dict[tuple[str, int, Variant], str] = {}


def rules_spec(game_id: str, version: int, variant: Variant) -> str:
    """The canonical rules token of ``variant`` (``tweak/1;rounds=1``), remembered per
    variant (engines write it into every position line)."""
    key = (game_id, version, variant)
    s = _SPECS.get(key)
    if s is None:
        if len(_SPECS) > 4096:  # variants are few; a bound all the same
            _SPECS.clear()
        s = ";".join([f"{game_id}/{version}"] + [f"{k}={v}" for k, v in variant_fields(variant)])
        _SPECS[key] = s
    return s
