"""``contextlib`` for the lowered engine."""


class _Generated:
    def __init__(self, gen):
        self.gen = gen

    def __enter__(self):
        return next(self.gen)

    def __exit__(self, kind, value, traceback):
        if kind is None:
            try:
                next(self.gen)
            except StopIteration:
                return False
            raise RuntimeError("generator didn't stop")
        try:
            self.gen.throw(value)
        except StopIteration:
            return True
        except BaseException as error:
            if error is value:
                return False
            raise
        raise RuntimeError("generator didn't stop after throw()")


def contextmanager(fn):
    def helper(*args, **kwargs):
        return _Generated(fn(*args, **kwargs))

    return helper


class suppress:
    def __init__(self, *kinds):
        self.kinds = kinds

    def __enter__(self):
        return None

    def __exit__(self, kind, value, traceback):
        return kind is not None and issubclass(kind, self.kinds)


class nullcontext:
    def __init__(self, value=None):
        self.value = value

    def __enter__(self):
        return self.value

    def __exit__(self, *args):
        return False
