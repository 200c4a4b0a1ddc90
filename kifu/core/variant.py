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
import itertools
import re
import sys
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


# --- describing the fields -------------------------------------------------------------------


class FieldInfo(msgspec.Struct, frozen=True):
    """One variant field for people: its name, its type, its default as a rules spec writes
    it (``""`` for empty) and a one-line meaning."""

    name: str
    type: str
    default: str
    meaning: str


def _type_name(tp: Any) -> str:
    if typing.get_origin(tp) is tuple:
        return f"list of {_type_name(typing.get_args(tp)[0])}"
    return {bool: "true/false", int: "integer", str: "text"}.get(tp, str(tp))


def _first_sentence(doc: str) -> str:
    """The first sentence of a docstring, on one line, without reST markup."""
    text = " ".join(doc.split()).replace("``", "")
    m = re.search(r"(?<!e\.g)(?<!i\.e)\.(\s|$)", text)
    return text[: m.start()] if m else text


@functools.cache
def _field_docs(cls: type) -> dict[str, str]:
    """Each field's docstring (the string right after its annotation in the class body),
    read from the source as documentation tools do; empty when the source is missing."""
    import ast

    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if not (isinstance(klass, type) and issubclass(klass, Variant)) or klass is Variant:
            continue
        # the module's source through its loader, parsed once: inspect.getsource would
        # parse it as well to find the class, and cost ``kifu games`` a tenth of a second
        module = sys.modules.get(klass.__module__)
        loader = getattr(module, "__loader__", None)
        try:
            source = loader.get_source(klass.__module__) if loader else None
            tree = ast.parse(source) if source else None
        except (ImportError, OSError, SyntaxError, ValueError):
            tree = None
        if tree is None:  # no source (a frozen build)
            continue
        body = next((node.body for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
                     and node.name == klass.__name__), [])
        for node, after in itertools.pairwise(body):
            if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                    and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)):
                docs[node.target.id] = after.value.value
    return docs


def describe_fields(cls: type[Variant]) -> list[FieldInfo]:
    """Every field of a variant class, in order, with its default and a one-line meaning
    (the first sentence of the field's docstring). What ``kifu games`` lists.

    >>> from kifu.games import get
    >>> describe_fields(get("tweak").Variant)[-1]  # doctest: +NORMALIZE_WHITESPACE
    FieldInfo(name='rounds', type='integer', default='0',
              meaning='Stop after this many rounds whatever the totals; 0 = play to the threshold')
    """
    names, defaults = _defaults(cls)
    types = _field_types(cls)
    docs = _field_docs(cls)
    return [FieldInfo(name, _type_name(types[name]), _encode_value(default),
                      _first_sentence(docs.get(name, "")))
            for name, default in zip(names, defaults, strict=True)]
