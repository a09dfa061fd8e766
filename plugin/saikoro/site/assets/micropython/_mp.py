"""CPython's behaviour where MicroPython's differs, for the lowered engine.

MicroPython only (shipped with the browser's engine): the lowering
(``saikoro.site._lowering``) sends these calls here. ``_saikoro_js`` is the worker's
JavaScript helper module (Unicode tables and regular expressions from the browser).
"""

from collections import OrderedDict

import _saikoro_js as _js

_DictTypes = (dict, OrderedDict)


# ---- ordered dicts -------------------------------------------------------------------------
def od(pairs=()):
    """An insertion-ordered dict from pairs or a mapping (CPython's ``dict``)."""
    out = OrderedDict()
    if hasattr(pairs, "items"):
        for key, value in pairs.items():
            out[key] = value
    else:
        for key, value in pairs:
            out[key] = value
    return out


def od_merge(*parts):
    """``{**a, k: v, **b}`` / ``dict(a, k=v)`` in order."""
    out = OrderedDict()
    for part in parts:
        if hasattr(part, "items"):
            for key, value in part.items():
                out[key] = value
        else:
            for key, value in part:
                out[key] = value
    return out


# ---- types ---------------------------------------------------------------------------------
def _one_isinstance(obj, cls):
    check = getattr(cls, "__mp_check__", None)
    if check is not None:
        return check(obj)
    if cls is int and type(obj) is bool:
        return True
    try:
        return __builtins__isinstance(obj, cls)
    except TypeError:
        return False


__builtins__isinstance = isinstance
__builtins__issubclass = issubclass
__builtins__repr = repr
__builtins__zip = zip
__builtins__float = float


def isinstance(obj, classes):
    if type(classes) is tuple:
        return any(_one_isinstance(obj, c) for c in classes)
    return _one_isinstance(obj, classes)


def issubclass(cls, classes):
    if type(classes) is not tuple:
        classes = (classes,)
    for c in classes:
        check = getattr(c, "__mp_subclass__", None)
        if check is not None:
            if check(cls):
                return True
        elif (c is int and cls is bool) or __builtins__issubclass(cls, c):
            return True
    return False


def vars(obj):
    return obj.__dict__


def zip(*iterables, strict=False):
    if not strict:
        return __builtins__zip(*iterables)
    return _zip_strict(iterables)


def _zip_strict(iterables):
    iterators = [iter(i) for i in iterables]
    while True:
        items = []
        stopped = 0
        for it in iterators:
            try:
                items.append(next(it))
            except StopIteration:
                stopped += 1
        if stopped == len(iterators):
            return
        if stopped:
            raise ValueError("zip() arguments have different lengths")
        yield tuple(items)


def format(value, spec=""):
    if not spec:
        return str(value)
    return ("{:" + spec + "}").format(value)


# ---- numbers -------------------------------------------------------------------------------
_EXACT = 1 << 53


def _int_ratio_float(a, b):
    """``a / b`` for integers, correctly rounded (CPython's int true division)."""
    if b == 0:
        raise ZeroDivisionError("division by zero")
    negative = (a < 0) != (b < 0)
    a, b = abs(a), abs(b)
    if a == 0:
        return -0.0 if negative else 0.0
    shift = _bit_length(b) - _bit_length(a) + 55
    q, r = divmod(a << shift, b) if shift >= 0 else divmod(a, b << -shift)
    # q has 55 or 56 bits; keep 53 with round-half-even on the dropped bits and the rest
    extra = _bit_length(q) - 53
    low = q & ((1 << extra) - 1)
    q >>= extra
    half = 1 << (extra - 1)
    if low > half or (low == half and (r or q & 1)):
        q += 1
    exponent = extra - shift
    value = _ldexp(q, exponent)
    return -value if negative else value


def _ldexp(mantissa, exponent):
    import math

    if exponent > 971 + 53:
        raise OverflowError("integer division result too large for a float")
    return math.ldexp(__builtins__float(mantissa), exponent)


def _bit_length(n):
    n = abs(n)
    length = 0
    while n >= 1 << 64:
        n >>= 64
        length += 64
    while n:
        n >>= 1
        length += 1
    return length


def truediv(a, b):
    if type(a) is int and type(b) is int and (abs(a) >= _EXACT or abs(b) >= _EXACT):
        return _int_ratio_float(a, b)
    if type(a) is bool:
        a = int(a)
    if type(b) is bool:
        b = int(b)
    return a / b


def float(value=0.0):
    if type(value) is int and abs(value) >= _EXACT:
        return _int_ratio_float(value, 1)
    if type(value) is str:
        return __builtins__float(m_strip(value))
    return __builtins__float(value)


def m_bit_length(n):
    if type(n) is int or type(n) is bool:
        return _bit_length(int(n))
    return n.bit_length()


def m_as_integer_ratio(x):
    if type(x) is int:
        return (x, 1)
    if type(x) is not __builtins__float:
        return x.as_integer_ratio()
    import math

    if x != x or x in (__builtins__float("inf"), -__builtins__float("inf")):
        raise ValueError("cannot convert to integer ratio")
    mantissa, exponent = math.frexp(x)
    numerator = int(mantissa * (1 << 53))
    exponent -= 53
    denominator = 1
    if exponent >= 0:
        numerator <<= exponent
    else:
        denominator <<= -exponent
    from _mp_math import gcd

    g = gcd(numerator, denominator)
    return (numerator // g, denominator // g)


def m_is_integer(x):
    if type(x) is int:
        return True
    if type(x) is __builtins__float:
        return (
            x == x
            and x not in (__builtins__float("inf"), -__builtins__float("inf"))
            and (x == int(x))
        )
    return x.is_integer()


# ---- text ----------------------------------------------------------------------------------
_SPACES = frozenset(
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


def _ascii(s):
    return all(ord(c) < 128 for c in s)


def m_isspace(s):
    if type(s) is not str:
        return s.isspace()
    return bool(s) and all(c in _SPACES for c in s)


def _stripped(s, chars, left, right):
    """``s`` without the leading/trailing characters of ``chars`` (None: whitespace)."""
    if type(s) is not str or (chars is not None and _ascii(chars) and _ascii(s)):
        method = s.strip if left and right else s.lstrip if left else s.rstrip
        return method() if chars is None else method(chars)
    strip = _SPACES if chars is None else chars
    start, end = 0, len(s)
    if left:
        while start < end and s[start] in strip:
            start += 1
    if right:
        while end > start and s[end - 1] in strip:
            end -= 1
    return s[start:end]


def m_strip(s, chars=None):
    return _stripped(s, chars, True, True)


def m_lstrip(s, chars=None):
    return _stripped(s, chars, True, False)


def m_rstrip(s, chars=None):
    return _stripped(s, chars, False, True)


def m_split(s, sep=None, maxsplit=-1):
    if type(s) is not str or sep is not None:
        return s.split(sep, maxsplit) if sep is not None else s.split(None, maxsplit)
    out = []
    i, n = 0, len(s)
    while True:
        while i < n and s[i] in _SPACES:
            i += 1
        if i >= n:
            return out
        if maxsplit >= 0 and len(out) == maxsplit:
            out.append(m_rstrip(s[i:]))
            return out
        j = i
        while j < n and s[j] not in _SPACES:
            j += 1
        out.append(s[i:j])
        i = j


def m_splitlines(s, keepends=False):
    if type(s) is not str:
        return s.splitlines(keepends)
    out = []
    start = i = 0
    n = len(s)
    breaks = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
    while i < n:
        c = s[i]
        if c in breaks:
            end = i + 1
            if c == "\r" and end < n and s[end] == "\n":
                end += 1
            out.append(s[start:end] if keepends else s[start:i])
            start = i = end
        else:
            i += 1
    if start < n:
        out.append(s[start:])
    return out


def _category(s, prop):
    return bool(s) and bool(_js.test(prop, s))


def m_isdigit(s):
    if type(s) is not str:
        return s.isdigit()
    if _ascii(s):
        return bool(s) and all("0" <= c <= "9" for c in s)
    return _category(s, "digit")


def m_isdecimal(s):
    if type(s) is not str:
        return s.isdecimal()
    if _ascii(s):
        return bool(s) and all("0" <= c <= "9" for c in s)
    return _category(s, "decimal")


def m_isnumeric(s):
    if type(s) is not str:
        return s.isnumeric()
    if _ascii(s):
        return bool(s) and all("0" <= c <= "9" for c in s)
    return _category(s, "numeric")


def m_isalnum(s):
    if type(s) is not str:
        return s.isalnum()
    return _category(s, "alnum")


def m_isascii(s):
    if type(s) is not str:
        return s.isascii()
    return _ascii(s)


def m_isprintable(s):
    if type(s) is not str:
        return s.isprintable()
    return not s or bool(_js.test("printable", s))


def m_upper(s):
    if type(s) is not str or _ascii(s):
        return s.upper()
    return _js.upper(s)


def m_lower(s):
    if type(s) is not str or _ascii(s):
        return s.lower()
    return _js.lower(s)


def m_casefold(s):
    if type(s) is not str:
        return s.casefold()
    if _ascii(s):
        return s.lower()
    return _js.casefold(s)


def m_title(s):
    if type(s) is not str:
        return s.title()
    out = []
    previous = False
    for c in s:
        cased = m_upper(c) != c or m_lower(c) != c
        out.append(m_lower(c) if previous else m_upper(c))
        previous = cased
    return "".join(out)


def m_capitalize(s):
    if type(s) is not str:
        return s.capitalize()
    return m_upper(s[:1]) + m_lower(s[1:]) if s else s


def m_swapcase(s):
    if type(s) is not str:
        return s.swapcase()
    return "".join(m_lower(c) if m_upper(c) == c else m_upper(c) for c in s)


def m_zfill(s, width):
    if type(s) is not str:
        return s.zfill(width)
    if len(s) >= width:
        return s
    sign = s[:1] if s[:1] in "+-" else ""
    return sign + "0" * (width - len(s)) + s[len(sign) :]


def m_center(s, width, fill=" "):
    if type(s) is not str:
        return s.center(width, fill)
    pad = width - len(s)
    if pad <= 0:
        return s
    left = pad // 2 + (pad & width & 1)
    return fill * left + s + fill * (pad - left)


def m_ljust(s, width, fill=" "):
    if type(s) is not str:
        return s.ljust(width, fill)
    return s + fill * max(0, width - len(s))


def m_rjust(s, width, fill=" "):
    if type(s) is not str:
        return s.rjust(width, fill)
    return fill * max(0, width - len(s)) + s


def m_removeprefix(s, prefix):
    if type(s) is not str:
        return s.removeprefix(prefix)
    return s[len(prefix) :] if prefix and s.startswith(prefix) else s


def m_removesuffix(s, suffix):
    if type(s) is not str:
        return s.removesuffix(suffix)
    return s[: -len(suffix)] if suffix and s.endswith(suffix) else s


def m_expandtabs(s, tabsize=8):
    if type(s) is not str:
        return s.expandtabs(tabsize)
    out = []
    column = 0
    for c in s:
        if c == "\t":
            spaces = tabsize - column % tabsize if tabsize > 0 else 0
            out.append(" " * spaces)
            column += spaces
        elif c in "\n\r":
            out.append(c)
            column = 0
        else:
            out.append(c)
            column += 1
    return "".join(out)


def m_translate(s, table):
    if type(s) is not str:
        return s.translate(table)
    out = []
    for c in s:
        try:
            mapped = table[ord(c)]
        except (KeyError, IndexError, LookupError):
            out.append(c)
            continue
        if mapped is None:
            continue
        out.append(chr(mapped) if type(mapped) is int else mapped)
    return "".join(out)


# ---- repr, as CPython writes it --------------------------------------------------------------
_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _str_repr(s):
    quote = '"' if "'" in s and '"' not in s else "'"
    out = [quote]
    plain = _ascii(s) or bool(_js.test("printable", s))
    for c in s:
        code = ord(c)
        if c == quote:
            out.append("\\" + c)
        elif c in _ESCAPES:
            out.append(_ESCAPES[c])
        elif code < 32 or code == 127:
            out.append("\\x%02x" % code)
        elif code < 128 or plain or _js.test("printable", c):
            out.append(c)
        elif code < 0x100:
            out.append("\\x%02x" % code)
        elif code < 0x10000:
            out.append("\\u%04x" % code)
        else:
            out.append("\\U%08x" % code)
    out.append(quote)
    return "".join(out)


def repr(obj):
    kind = type(obj)
    if kind is str:
        return _str_repr(obj)
    if kind is list:
        return "[" + ", ".join(repr(x) for x in obj) + "]"
    if kind is tuple:
        if len(obj) == 1:
            return "(" + repr(obj[0]) + ",)"
        return "(" + ", ".join(repr(x) for x in obj) + ")"
    if kind is dict or kind is OrderedDict:
        return "{" + ", ".join(repr(k) + ": " + repr(v) for k, v in obj.items()) + "}"
    if kind is set or kind is frozenset:
        if not obj:
            return kind.__name__ + "()"
        inner = "{" + ", ".join(repr(x) for x in obj) + "}"
        return inner if kind is set else "frozenset(" + inner + ")"
    return __builtins__repr(obj)


# ---- enums -----------------------------------------------------------------------------------
def enum_class(cls):
    """Make the members of an ``Enum`` subclass (names in ``__mp_members__``)."""
    from _mp_enum import setup

    return setup(cls)


def enum_members(cls):
    members = getattr(cls, "_mp_member_list", None)
    if members is None:
        return cls  # not an enum after all: iterate it as it is
    return list(members)


def enum_lookup(cls, *args):
    by_value = getattr(cls, "_mp_by_value", None)
    if by_value is None or len(args) != 1:
        return cls(*args)
    value = args[0]
    if isinstance(value, cls):
        return value
    for member in cls._mp_member_list:
        if member._value_ == value:
            return member
    raise ValueError(repr(value) + " is not a valid " + cls.__name__)


def enum_named(cls, name):
    by_name = getattr(cls, "_mp_by_name", None)
    if by_name is None:
        return cls[name]
    return by_name[name]


def m_isalpha(s):
    if type(s) is not str:
        return s.isalpha()
    if _ascii(s):
        return s.isalpha()
    return _category(s, "alpha")


def m_isupper(s):
    if type(s) is not str:
        return s.isupper()
    if _ascii(s):
        return s.isupper()
    return m_upper(s) == s and m_lower(s) != s


def m_islower(s):
    if type(s) is not str:
        return s.islower()
    if _ascii(s):
        return s.islower()
    return m_lower(s) == s and m_upper(s) != s


RecursionError = RuntimeError  # MicroPython's "maximum recursion depth exceeded"
ModuleNotFoundError = ImportError  # MicroPython raises ImportError for a missing module


# ---- sorting: MicroPython's sort is not stable ------------------------------------------------
__builtins__sorted = sorted


def sorted(iterable, *, key=None, reverse=False):
    items = list(iterable)
    m_sort(items, key=key, reverse=reverse)
    return items


def m_sort(items, *, key=None, reverse=False):
    if type(items) is not list:
        return items.sort(key=key, reverse=reverse)
    n = len(items)
    if n < 2:
        return None
    keys = items if key is None else [key(x) for x in items]
    # (key, position) pairs are all different: any sort gives CPython's stable order
    order = list(range(n))
    if reverse:
        order.sort(key=lambda i: (keys[i], -i), reverse=True)
    else:
        order.sort(key=lambda i: (keys[i], i))
    items[:] = [items[i] for i in order]
    return None
