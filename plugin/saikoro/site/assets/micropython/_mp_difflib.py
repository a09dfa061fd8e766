"""``difflib.get_close_matches`` for the lowered engine (the "did you mean" of unknown
names): CPython's ratio of matching blocks, for the short strings it is used on (no
junk heuristics: CPython applies them only from 200 characters on)."""


def _longest(a, b, alo, ahi, blo, bhi, b2j):
    besti, bestj, bestsize = alo, blo, 0
    j2len = {}
    for i in range(alo, ahi):
        newj2len = {}
        for j in b2j.get(a[i], ()):
            if j < blo:
                continue
            if j >= bhi:
                break
            k = newj2len[j] = j2len.get(j - 1, 0) + 1
            if k > bestsize:
                besti, bestj, bestsize = i - k + 1, j - k + 1, k
        j2len = newj2len
    return besti, bestj, bestsize


def _matches(a, b):
    b2j = {}
    for j, c in enumerate(b):
        b2j.setdefault(c, []).append(j)
    queue = [(0, len(a), 0, len(b))]
    total = 0
    while queue:
        alo, ahi, blo, bhi = queue.pop()
        i, j, k = _longest(a, b, alo, ahi, blo, bhi, b2j)
        if k:
            total += k
            if alo < i and blo < j:
                queue.append((alo, i, blo, j))
            if i + k < ahi and j + k < bhi:
                queue.append((i + k, ahi, j + k, bhi))
    return total


def _ratio(a, b):
    length = len(a) + len(b)
    return 2.0 * _matches(a, b) / length if length else 1.0


def get_close_matches(word, possibilities, n=3, cutoff=0.6):
    scored = []
    for x in possibilities:
        # CPython's SequenceMatcher(None, x, word): x is a, word is b
        score = _ratio(x, word)
        if score >= cutoff:
            scored.append((score, x))
    scored.sort(reverse=True)
    return [x for _, x in scored[:n]]
