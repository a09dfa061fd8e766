"""``itertools`` for the lowered engine: CPython's functions MicroPython lacks or limits."""


def islice(iterable, *args):
    if len(args) == 1:
        start, stop, step = 0, args[0], 1
    else:
        start, stop = args[0] or 0, args[1]
        step = (args[2] if len(args) > 2 else None) or 1
    it = iter(iterable)
    index = 0
    wanted = start
    for item in it:
        if stop is not None and index >= stop:
            return
        if index == wanted:
            yield item
            wanted += step
        index += 1


class chain:
    def __init__(self, *iterables):
        self._items = _from_iterable(iterables)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._items)

    @staticmethod
    def from_iterable(iterables):
        return _from_iterable(iterables)


def _from_iterable(iterables):
    for iterable in iterables:
        yield from iterable


def cycle(iterable):
    saved = list(iterable)
    while saved:
        yield from saved


def repeat(item, times=None):
    if times is None:
        while True:
            yield item
    for _ in range(times):
        yield item


def starmap(function, iterable):
    for args in iterable:
        yield function(*args)


def accumulate(iterable, func=None, *, initial=None):
    it = iter(iterable)
    total = initial
    if initial is None:
        try:
            total = next(it)
        except StopIteration:
            return
    yield total
    for element in it:
        total = total + element if func is None else func(total, element)
        yield total


def count(start=0, step=1):
    n = start
    while True:
        yield n
        n += step


def product(*iterables, repeat=1):
    pools = [tuple(p) for p in iterables] * repeat
    result = [()]
    for pool in pools:
        result = [x + (y,) for x in result for y in pool]
    yield from result


def permutations(iterable, r=None):
    pool = tuple(iterable)
    n = len(pool)
    r = n if r is None else r
    if r > n:
        return
    indices = list(range(n))
    cycles = list(range(n, n - r, -1))
    yield tuple(pool[i] for i in indices[:r])
    while n:
        for i in reversed(range(r)):
            cycles[i] -= 1
            if cycles[i] == 0:
                indices[i:] = indices[i + 1 :] + indices[i : i + 1]
                cycles[i] = n - i
            else:
                j = cycles[i]
                indices[i], indices[-j] = indices[-j], indices[i]
                yield tuple(pool[i] for i in indices[:r])
                break
        else:
            return


def combinations(iterable, r):
    pool = tuple(iterable)
    n = len(pool)
    if r > n:
        return
    indices = list(range(r))
    yield tuple(pool[i] for i in indices)
    while True:
        for i in reversed(range(r)):
            if indices[i] != i + n - r:
                break
        else:
            return
        indices[i] += 1
        for j in range(i + 1, r):
            indices[j] = indices[j - 1] + 1
        yield tuple(pool[i] for i in indices)


def combinations_with_replacement(iterable, r):
    pool = tuple(iterable)
    n = len(pool)
    if not n and r:
        return
    indices = [0] * r
    yield tuple(pool[i] for i in indices)
    while True:
        for i in reversed(range(r)):
            if indices[i] != n - 1:
                break
        else:
            return
        indices[i:] = [indices[i] + 1] * (r - i)
        yield tuple(pool[i] for i in indices)


def pairwise(iterable):
    it = iter(iterable)
    try:
        a = next(it)
    except StopIteration:
        return
    for b in it:
        yield a, b
        a = b


def groupby(iterable, key=None):
    it = iter(iterable)
    sentinel = object()
    current = sentinel
    group = []
    current_key = None
    for item in it:
        k = item if key is None else key(item)
        if current is sentinel or k != current_key:
            if current is not sentinel:
                yield current_key, iter(group)
            group = []
            current_key = k
            current = item
        group.append(item)
    if current is not sentinel:
        yield current_key, iter(group)


def zip_longest(*iterables, fillvalue=None):
    iterators = [iter(i) for i in iterables]
    while True:
        done = 0
        items = []
        for it in iterators:
            try:
                items.append(next(it))
            except StopIteration:
                done += 1
                items.append(fillvalue)
        if done == len(iterators):
            return
        yield tuple(items)


def takewhile(predicate, iterable):
    for x in iterable:
        if not predicate(x):
            return
        yield x


def dropwhile(predicate, iterable):
    it = iter(iterable)
    for x in it:
        if not predicate(x):
            yield x
            break
    yield from it


def filterfalse(predicate, iterable):
    for x in iterable:
        if not (bool(x) if predicate is None else predicate(x)):
            yield x


def compress(data, selectors):
    return (d for d, s in zip(data, selectors) if s)


def tee(iterable, n=2):
    items = list(iterable)
    return tuple(iter(items) for _ in range(n))
