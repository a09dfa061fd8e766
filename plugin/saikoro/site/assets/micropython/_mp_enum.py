"""``enum`` for the lowered engine (MicroPython has none).

The lowering marks each ``Enum`` subclass with its member names (``__mp_members__``) and
decorates it with :func:`setup`, which turns those class attributes into members; the
class stays a class (``isinstance`` and methods work), and iterating, calling and indexing
it go through ``_mp.enum_members`` / ``enum_lookup`` / ``enum_named``.
"""

_next_auto = [0]


class auto:
    def __init__(self):
        _next_auto[0] += 1
        self.order = _next_auto[0]


class Enum:
    """Members have ``name`` and ``value``; equality is identity."""

    @property
    def name(self):
        return self._name_

    @property
    def value(self):
        return self._value_

    def __repr__(self):
        import _mp

        return "<" + type(self).__name__ + "." + self._name_ + ": " + _mp.repr(self._value_) + ">"

    def __str__(self):
        return type(self).__name__ + "." + self._name_

    def __hash__(self):
        return hash(self._name_)

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return self is not other


IntEnum = Enum
StrEnum = Enum


def unique(cls):
    return cls


def setup(cls):
    members = []
    by_name = {}
    count = 0
    own_init = None
    for klass in _mro(cls):
        if klass is Enum:
            break
        if "__init__" in klass.__dict__:
            own_init = klass.__dict__["__init__"]
            break
    for name in cls.__mp_members__:
        value = cls.__dict__[name]
        if type(value) is auto:
            count += 1
            value = count
        member = object.__new__(cls)
        member._value_ = value
        member._name_ = name
        if own_init is not None:
            if type(value) is tuple:
                own_init(member, *value)
            else:
                own_init(member, value)
        setattr(cls, name, member)
        members.append(member)
        by_name[name] = member
    cls._mp_member_list = tuple(members)
    cls._mp_by_name = by_name
    cls._mp_by_value = True
    return cls


def _mro(cls):
    out = [cls]
    for base in cls.__bases__:
        out.extend(_mro(base))
    return out
