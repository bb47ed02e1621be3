"""Deploy, run, compare, decide: the per-unit categories and evidence tiers, from execution only."""
