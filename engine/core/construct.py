"""Building pydantic models from data the engine made itself, without re-validating it (the hot paths)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

# The slot setters of BaseModel: what pydantic's own model_construct writes, minus its per-call bookkeeping.
_new = object.__new__
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__
_TEMPLATES: dict[type[BaseModel], tuple[dict[str, Any], tuple[tuple[str, Callable[[], Any]], ...]]] = {}


def _template(cls: type[BaseModel]) -> tuple[dict[str, Any], tuple[tuple[str, Callable[[], Any]], ...]]:
    """Field defaults in declaration order, and the fields whose default comes from a factory."""
    if cls.__private_attributes__ or cls.model_config.get("extra") == "allow":
        raise TypeError(f"{cls.__name__}: trusted() supports neither private attributes nor extra fields")
    base: dict[str, Any] = {}
    factories = []
    for name, field in cls.model_fields.items():
        base[name] = field.default
        if field.default_factory is not None:
            factories.append((name, field.default_factory))
    _TEMPLATES[cls] = template = (base, tuple(factories))  # type: ignore[assignment]
    return template  # type: ignore[return-value]


def trusted(cls: type[M], /, **values: Any) -> M:
    """`cls(**values)` without validation, for values the engine built itself and knows to be valid.

    The instance equals the validated one: fields in declaration order, defaults filled in, and
    `model_fields_set` naming the given fields. The caller must pass exact types (list, not tuple)
    and containers that nothing else holds.
    """
    try:
        base, factories = _TEMPLATES[cls]
    except KeyError:
        base, factories = _template(cls)
    data = {**base, **values}
    if factories:
        for name, factory in factories:
            if name not in values:
                data[name] = factory()
    obj = _new(cls)
    _set_dict(obj, data)
    _set_fields_set(obj, set(values))
    _set_extra(obj, None)
    _set_private(obj, None)
    return obj


def copy_model(model: M, /, **changes: Any) -> M:
    """A shallow copy of `model` with `changes` (trusted, like pydantic's `model_copy(update=...)`)."""
    data = model.__dict__.copy()
    data.update(changes)
    obj = _new(type(model))
    _set_dict(obj, data)
    fields_set = set(model.__pydantic_fields_set__)
    fields_set.update(changes)
    _set_fields_set(obj, fields_set)
    _set_extra(obj, None)
    _set_private(obj, None)
    return obj
