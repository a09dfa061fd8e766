"""Independent exact oracles for small encounters of the five systems.

Each module computes a small encounter's win probability from the rule texts
(/work/shared/seeds/, summarised in each module's docstring) with its own enumeration
or Markov chain in :class:`~fractions.Fraction` -- never through :mod:`saikoro.balance`.
Where the seed leaves a point open the oracle follows the simulator's documented
ruling or tactic and says so. ``tests/test_balance_oracle.py`` runs the scenarios
through ``saikoro simulate --format json`` and checks the figures against these values.
"""
