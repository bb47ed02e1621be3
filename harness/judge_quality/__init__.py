"""Mutants of converted code that the scenarios must catch: a test of the judge itself."""
