"""``importlib`` (and ``importlib.metadata.entry_points``) for the lowered engine.

The browser has no installed distributions: the systems registered through entry points
are those the site's build put into the engine archive, listed in ``_mp_registry``.
"""


def import_module(name, package=None):
    if name.startswith("."):
        level = len(name) - len(name.lstrip("."))
        base = package.split(".")
        if level > 1:
            base = base[: -(level - 1)]
        name = ".".join(base) + ("." + name.lstrip(".") if name.lstrip(".") else "")
    module = __import__(name)
    for part in name.split(".")[1:]:
        module = getattr(module, part)
    return module


class EntryPoint:
    def __init__(self, name, value, group):
        self.name = name
        self.value = value
        self.group = group


def entry_points(*, group=None):
    from _mp_registry import ENTRY_POINTS

    return [
        EntryPoint(name, value, g)
        for g, points in ENTRY_POINTS
        if group is None or g == group
        for name, value in points
    ]


metadata = None  # ``import importlib.metadata`` is lowered to ``_mp_importlib``
