"""Differential testing against the real BCDice (npm ``bcdice``, run by Node.js)."""
