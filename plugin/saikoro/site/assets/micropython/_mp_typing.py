"""``typing`` for the lowered engine: the names it imports, doing nothing at run time."""

TYPE_CHECKING = False
Any = object
ClassVar = object
Final = object
Self = object
Optional = object
Union = object
Literal = object
TypeAlias = object


def TypeVar(name, *args, **kwargs):
    return name


def cast(kind, value):
    return value


def overload(fn):
    return fn


def final(obj):
    return obj


class Generic:
    pass


class Protocol:
    """A protocol class: ``runtime_checkable`` makes ``isinstance`` check its methods."""


def runtime_checkable(cls):
    names = [n for n in cls.__dict__ if not n.startswith("_") and callable(cls.__dict__[n])]

    def check(obj):
        return all(callable(getattr(obj, n, None)) for n in names)

    cls.__mp_check__ = staticmethod(check)
    return cls


# only the class form ``class X(NamedTuple)`` is used (fields from the lowering)
from _mp_namedtuple import NamedTupleBase as NamedTuple  # noqa: E402, F401
