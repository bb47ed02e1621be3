"""Step 2: convert each unit deterministically. `dispatch` picks the converter for a unit's kind;
`sql/` rewrites Oracle SQL through sqlglot, `ddl/` reads DDL from tokens, `plsql/` parses PL/SQL
into a tree and emits PL/pgSQL, `oracompat/` is the support library converted code calls, and
`registry` lists every rule id with the construct it handles."""
