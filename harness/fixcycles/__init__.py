"""Pre-registered fix cycles: files, freezing, arms, predicates, decisions, audit log."""
