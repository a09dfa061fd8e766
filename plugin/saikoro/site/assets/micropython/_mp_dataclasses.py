"""``dataclasses`` for the lowered engine (MicroPython has none).

MicroPython keeps no annotations, so the lowering writes each class's annotated field
names into ``__mp_fields__``; ``dataclass`` reads them (and its bases' fields) and
adds ``__init__``, ``__eq__``, ``__hash__``, ``__repr__`` and the order methods as
CPython's ``dataclass`` would for the same options.
"""

import _mp


class _Missing:
    def __repr__(self):
        return "MISSING"


MISSING = _Missing()


class FrozenInstanceError(AttributeError):
    pass


class Field:
    def __init__(self, default, default_factory, init, repr, hash, compare, kw_only):
        self.name = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare
        self.kw_only = kw_only

    def __repr__(self):
        return "Field(name=" + _mp.repr(self.name) + ")"


def field(
    *,
    default=MISSING,
    default_factory=MISSING,
    init=True,
    repr=True,
    hash=None,
    compare=True,
    kw_only=MISSING,
    metadata=None,
):
    return Field(default, default_factory, init, repr, hash, compare, kw_only)


def _fields_of(cls):
    return cls.__dict__.get("__dataclass_fields__")


def dataclass(
    cls=None,
    *,
    init=True,
    repr=True,
    eq=True,
    order=False,
    unsafe_hash=False,
    frozen=False,
    kw_only=False,
    slots=False,
    match_args=True,
    weakref_slot=False,
):
    def wrap(cls):
        return _process(cls, init, repr, eq, order, unsafe_hash, frozen, kw_only)

    return wrap if cls is None else wrap(cls)


def _collect(cls):
    fields = _mp.od()
    for base in reversed(cls.__bases__):
        for klass in _mro(base):
            found = _fields_of(klass)
            if found:
                for name, f in found.items():
                    fields[name] = f
                break
    return fields


def _mro(cls):
    out = [cls]
    for base in cls.__bases__:
        out.extend(_mro(base))
    return out


def _process(cls, init, repr_, eq, order, unsafe_hash, frozen, kw_only):
    fields = _collect(cls)
    own = cls.__dict__
    for name in own.get("__mp_fields__", ()):
        value = own.get(name, MISSING)
        if type(value) is Field:
            f = value
            if f.default is MISSING:
                _delete(cls, name)
            else:
                setattr(cls, name, f.default)
        else:
            f = Field(value, MISSING, True, True, None, True, MISSING)
        f.name = name
        if f.kw_only is MISSING:
            f.kw_only = kw_only
        fields[name] = f
    cls.__dataclass_fields__ = fields
    cls.__dataclass_params__ = (frozen, eq, order)
    names = tuple(fields)
    if init:
        _set(cls, "__init__", _make_init(fields, frozen))
    if repr_ and "__repr__" not in own:
        _set(cls, "__repr__", _make_repr(fields))
    compared = tuple(n for n, f in fields.items() if f.compare)
    if eq and "__eq__" not in own:

        def __eq__(self, other):
            if other.__class__ is not self.__class__:
                return NotImplemented
            return _values(self, compared) == _values(other, compared)

        def __ne__(self, other):
            result = __eq__(self, other)
            return result if result is NotImplemented else not result

        _set(cls, "__eq__", __eq__)
        _set(cls, "__ne__", __ne__)
    hashed = tuple(n for n, f in fields.items() if (f.compare if f.hash is None else f.hash))
    if "__hash__" not in own:
        if (eq and frozen) or unsafe_hash:

            def __hash__(self):
                return hash(_values(self, hashed))

            _set(cls, "__hash__", __hash__)
        elif eq:
            _set(cls, "__hash__", None)
    if order:
        for op in ("__lt__", "__le__", "__gt__", "__ge__"):
            _set(cls, op, _make_order(op, compared))
    if frozen:

        def __setattr__(self, name, value):
            raise FrozenInstanceError("cannot assign to field " + _mp.repr(name))

        def __delattr__(self, name):
            raise FrozenInstanceError("cannot delete field " + _mp.repr(name))

        _set(cls, "__setattr__", __setattr__)
        _set(cls, "__delattr__", __delattr__)
    del names
    return cls


def _set(cls, name, value):
    setattr(cls, name, value)


def _delete(cls, name):
    try:
        delattr(cls, name)
    except (AttributeError, TypeError):
        setattr(cls, name, None)


def _values(obj, names):
    return tuple(getattr(obj, n) for n in names)


def _make_init(fields, frozen):
    positional = [f for f in fields.values() if f.init and not f.kw_only]
    keyword = [f for f in fields.values() if f.init and f.kw_only]
    hidden = [f for f in fields.values() if not f.init]
    setter = object.__setattr__

    def __init__(self, *args, **kwargs):
        if len(args) > len(positional):
            raise TypeError(
                "__init__() takes "
                + str(len(positional) + 1)
                + " positional arguments but "
                + str(len(args) + 1)
                + " were given"
            )
        for i, f in enumerate(positional):
            if i < len(args):
                if f.name in kwargs:
                    raise TypeError(
                        "__init__() got multiple values for argument " + _mp.repr(f.name)
                    )
                value = args[i]
            elif f.name in kwargs:
                value = kwargs.pop(f.name)
            else:
                value = _default(f)
            setter(self, f.name, value)
        for f in keyword:
            setter(self, f.name, kwargs.pop(f.name) if f.name in kwargs else _default(f))
        if kwargs:
            raise TypeError(
                "__init__() got an unexpected keyword argument " + _mp.repr(next(iter(kwargs)))
            )
        for f in hidden:
            if f.default is not MISSING or f.default_factory is not MISSING:
                setter(self, f.name, _default(f))
        post = getattr(self, "__post_init__", None)
        if post is not None:
            post()

    return __init__


def _default(f):
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return f.default_factory()
    raise TypeError("__init__() missing 1 required argument: " + _mp.repr(f.name))


def _make_repr(fields):
    shown = [n for n, f in fields.items() if f.repr]

    def __repr__(self):
        inner = ", ".join(n + "=" + _mp.repr(getattr(self, n)) for n in shown)
        return type(self).__name__ + "(" + inner + ")"

    return __repr__


def _make_order(op, names):
    def compare(self, other):
        if other.__class__ is not self.__class__:
            return NotImplemented
        a, b = _values(self, names), _values(other, names)
        if op == "__lt__":
            return a < b
        if op == "__le__":
            return a <= b
        if op == "__gt__":
            return a > b
        return a >= b

    return compare


def fields(obj):
    cls = obj if isinstance(obj, type) else type(obj)
    return tuple(_all_fields(cls).values())


def _all_fields(cls):
    for klass in _mro(cls):
        found = _fields_of(klass)
        if found is not None:
            return found
    raise TypeError("must be called with a dataclass type or instance")


def is_dataclass(obj):
    cls = obj if isinstance(obj, type) else type(obj)
    return any(_fields_of(k) is not None for k in _mro(cls))


def replace(obj, **changes):
    values = {}
    for name, f in _all_fields(type(obj)).items():
        if not f.init:
            continue
        values[name] = changes.pop(name) if name in changes else getattr(obj, name)
    if changes:
        raise TypeError("unexpected field " + _mp.repr(next(iter(changes))))
    return type(obj)(**values)


def asdict(obj):
    out = _mp.od()
    for name in _all_fields(type(obj)):
        out[name] = _copy(getattr(obj, name))
    return out


def _copy(value):
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    if type(value) in (list, tuple):
        return type(value)(_copy(v) for v in value)
    if hasattr(value, "items"):
        return _mp.od((_copy(k), _copy(v)) for k, v in value.items())
    return value


def astuple(obj):
    return tuple(getattr(obj, n) for n in _all_fields(type(obj)))
