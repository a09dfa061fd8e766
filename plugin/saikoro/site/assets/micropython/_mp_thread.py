"""``_thread.allocate_lock`` for the lowered engine: the worker runs one roll at a time."""


class _Lock:
    def __enter__(self):
        return True

    def __exit__(self, *args):
        return False

    def acquire(self, *args):
        return True

    def release(self):
        return None


def allocate_lock():
    return _Lock()
