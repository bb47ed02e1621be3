"""Step 1 of a unit's journey: read an export folder into units (SQL*Plus scripts, encodings,
directives, one Oracle lexer, Oracle name rules) and order them by dependency."""
