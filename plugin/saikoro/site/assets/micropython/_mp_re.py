"""``re`` for the lowered engine: CPython's patterns run by the browser's regular
expressions (MicroPython's own ``re`` has no named groups or counted repeats). The
pattern is translated once (``mphost.js``); matching returns code-point spans."""

import _saikoro_js as _js

IGNORECASE = I = 2
MULTILINE = M = 8
DOTALL = S = 16
VERBOSE = X = 64
ASCII = A = 256
UNICODE = U = 32


class error(Exception):
    pass


_cache = {}


def compile(pattern, flags=0):
    if type(pattern) is Pattern:
        return pattern
    key = (pattern, flags)
    found = _cache.get(key)
    if found is None:
        found = Pattern(pattern, flags)
        _cache[key] = found
    return found


class Pattern:
    def __init__(self, pattern, flags):
        answer = _js.re_compile(pattern, flags)
        if answer.startswith("!"):
            raise error(answer[1:])
        ident, groups, names = answer.split("|")
        self._id = int(ident)
        self.pattern = pattern
        self.flags = flags
        self.groups = int(groups)
        self.groupindex = {}
        if names:
            for item in names.split(","):
                name, _, index = item.partition(":")
                self.groupindex[name] = int(index)

    def _run(self, mode, string, pos, endpos):
        n = len(string)
        pos = max(0, min(pos, n))
        end = n if endpos is None else max(pos, min(endpos, n))
        spans = _js.re_exec(self._id, mode, string, pos, end)
        if spans is None:
            return None
        values = [int(v) for v in spans.split(",")]
        return Match(self, string, pos, end, values)

    def match(self, string, pos=0, endpos=None):
        return self._run("match", string, pos, endpos)

    def fullmatch(self, string, pos=0, endpos=None):
        return self._run("fullmatch", string, pos, endpos)

    def search(self, string, pos=0, endpos=None):
        return self._run("search", string, pos, endpos)

    def finditer(self, string, pos=0, endpos=None):
        end = len(string) if endpos is None else endpos
        while pos <= end:
            m = self._run("search", string, pos, end)
            if m is None:
                return
            yield m
            start, stop = m.span()
            pos = stop + 1 if stop == start else stop

    def findall(self, string, pos=0, endpos=None):
        out = []
        for m in self.finditer(string, pos, endpos):
            if self.groups == 0:
                out.append(m.group(0))
            elif self.groups == 1:
                out.append(m.group(1) or "")
            else:
                out.append(tuple(g or "" for g in m.groups()))
        return out

    def subn(self, repl, string, count=0):
        out = []
        last = 0
        done = 0
        for m in self.finditer(string):
            if count and done >= count:
                break
            start, stop = m.span()
            out.append(string[last:start])
            out.append(repl(m) if callable(repl) else m.expand(repl))
            last = stop
            done += 1
        out.append(string[last:])
        return "".join(out), done

    def sub(self, repl, string, count=0):
        return self.subn(repl, string, count)[0]

    def split(self, string, maxsplit=0):
        out = []
        last = 0
        done = 0
        for m in self.finditer(string):
            if maxsplit and done >= maxsplit:
                break
            start, stop = m.span()
            out.append(string[last:start])
            out.extend(m.groups())
            last = stop
            done += 1
        out.append(string[last:])
        return out

    def __repr__(self):
        import _mp

        return "re.compile(" + _mp.repr(self.pattern) + ")"


class Match:
    def __init__(self, pattern, string, pos, endpos, spans):
        self.re = pattern
        self.string = string
        self.pos = pos
        self.endpos = endpos
        self._spans = spans

    def _index(self, group):
        if type(group) is str:
            if group not in self.re.groupindex:
                raise IndexError("no such group")
            return self.re.groupindex[group]
        if group < 0 or group > self.re.groups:
            raise IndexError("no such group")
        return group

    def span(self, group=0):
        i = self._index(group)
        return self._spans[2 * i], self._spans[2 * i + 1]

    def start(self, group=0):
        return self.span(group)[0]

    def end(self, group=0):
        return self.span(group)[1]

    def group(self, *groups):
        if not groups:
            groups = (0,)
        values = []
        for g in groups:
            start, stop = self.span(g)
            values.append(None if start < 0 else self.string[start:stop])
        return values[0] if len(values) == 1 else tuple(values)

    def __getitem__(self, group):
        return self.group(group)

    def groups(self, default=None):
        out = []
        for i in range(1, self.re.groups + 1):
            value = self.group(i)
            out.append(default if value is None else value)
        return tuple(out)

    def groupdict(self, default=None):
        import _mp

        out = _mp.od()
        for name, index in sorted(self.re.groupindex.items(), key=lambda kv: kv[1]):
            value = self.group(index)
            out[name] = default if value is None else value
        return out

    @property
    def lastindex(self):
        last = None
        best = -1
        for i in range(1, self.re.groups + 1):
            start, stop = self.span(i)
            if start >= 0 and stop >= best:
                best = stop
                last = i
        return last

    def expand(self, template):
        out = []
        i = 0
        while i < len(template):
            c = template[i]
            if c != "\\" or i + 1 >= len(template):
                out.append(c)
                i += 1
                continue
            n = template[i + 1]
            if n.isdigit():
                j = i + 1
                while j < len(template) and template[j].isdigit() and j < i + 3:
                    j += 1
                out.append(self.group(int(template[i + 1 : j])) or "")
                i = j
            elif n == "g" and template[i + 2 : i + 3] == "<":
                close = template.index(">", i)
                name = template[i + 3 : close]
                out.append(self.group(int(name) if name.isdigit() else name) or "")
                i = close + 1
            else:
                out.append({"n": "\n", "t": "\t", "\\": "\\", "r": "\r"}.get(n, "\\" + n))
                i += 2
        return "".join(out)

    def __bool__(self):
        return True

    def __repr__(self):
        import _mp

        start, stop = self.span()
        return (
            "<re.Match object; span=("
            + str(start)
            + ", "
            + str(stop)
            + "), match="
            + _mp.repr(self.group(0))
            + ">"
        )


def match(pattern, string, flags=0):
    return compile(pattern, flags).match(string)


def fullmatch(pattern, string, flags=0):
    return compile(pattern, flags).fullmatch(string)


def search(pattern, string, flags=0):
    return compile(pattern, flags).search(string)


def findall(pattern, string, flags=0):
    return compile(pattern, flags).findall(string)


def finditer(pattern, string, flags=0):
    return compile(pattern, flags).finditer(string)


def sub(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).sub(repl, string, count)


def subn(pattern, repl, string, count=0, flags=0):
    return compile(pattern, flags).subn(repl, string, count)


def split(pattern, string, maxsplit=0, flags=0):
    return compile(pattern, flags).split(string, maxsplit)


_SPECIAL = frozenset("()[]{}?*+-|^$\\.&~# \t\n\r\x0b\x0c")


def escape(pattern):
    return "".join("\\" + c if c in _SPECIAL else c for c in pattern)
