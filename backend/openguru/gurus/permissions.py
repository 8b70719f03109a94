"""The permissions a guru's doors ask Django for, `user.has_perm(name, guru)`. The rule that
answers is `accounts/access.py`, installed as an authentication backend (`accounts/backends.py`),
so the layers below it ask without importing it."""

READ_GURU = "gurus.read_guru"  # see the guru and ask it
MANAGE_GURU = "gurus.manage_guru"  # its settings, sources, widget ids, bots, golden sets, analytics
