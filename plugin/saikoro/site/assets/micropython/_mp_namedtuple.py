"""``class X(NamedTuple)`` for the lowered engine: a small immutable record that behaves
as the tuple of its fields (MicroPython cannot subclass ``tuple`` with ``__new__``)."""


class NamedTupleBase:
    """Fields from the lowering's ``__mp_fields__``; defaults from the class attributes."""

    def __init__(self, *args, **kwargs):
        fields = type(self).__mp_fields__
        if len(args) > len(fields):
            raise TypeError(type(self).__name__ + " takes " + str(len(fields)) + " arguments")
        values = list(args)
        for name in fields[len(args) :]:
            if name in kwargs:
                values.append(kwargs.pop(name))
            else:
                default = _default(type(self), name)
                if default is _MISSING:
                    raise TypeError("missing argument " + repr(name))
                values.append(default)
        if kwargs:
            raise TypeError("unexpected argument " + repr(next(iter(kwargs))))
        object.__setattr__(self, "_mp_values", tuple(values))
        for name, value in zip(fields, values):
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError("can't set attribute")

    _fields = property(lambda self: type(self).__mp_fields__)

    def __iter__(self):
        return iter(self._mp_values)

    def __len__(self):
        return len(self._mp_values)

    def __getitem__(self, index):
        return self._mp_values[index]

    def __eq__(self, other):
        if isinstance(other, NamedTupleBase):
            other = other._mp_values
        return self._mp_values == other

    def __ne__(self, other):
        return not self.__eq__(other)

    def __lt__(self, other):
        return self._mp_values < tuple(other)

    def __le__(self, other):
        return self._mp_values <= tuple(other)

    def __gt__(self, other):
        return self._mp_values > tuple(other)

    def __ge__(self, other):
        return self._mp_values >= tuple(other)

    def __hash__(self):
        return hash(self._mp_values)

    def __add__(self, other):
        return self._mp_values + tuple(other)

    def __repr__(self):
        import _mp

        fields = type(self).__mp_fields__
        inner = ", ".join(n + "=" + _mp.repr(v) for n, v in zip(fields, self._mp_values))
        return type(self).__name__ + "(" + inner + ")"

    def _replace(self, **changes):
        values = [changes.pop(n, v) for n, v in zip(type(self).__mp_fields__, self._mp_values)]
        if changes:
            raise ValueError("unexpected field " + repr(next(iter(changes))))
        return type(self)(*values)

    def _asdict(self):
        import _mp

        return _mp.od(zip(type(self).__mp_fields__, self._mp_values))

    def count(self, value):
        return self._mp_values.count(value)

    def index(self, value):
        return self._mp_values.index(value)


_MISSING = object()


def _default(cls, name):
    for klass in [cls] + list(cls.__bases__):
        if name in klass.__dict__:
            return klass.__dict__[name]
    return _MISSING
