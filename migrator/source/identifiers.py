"""Oracle name semantics: the plain name the converter keeps for an identifier as written.

Internally every name is a *plain* string — the exact name of the PostgreSQL object, without
quotes — and it is quoted only when written into SQL (`harness.quoting.quote_ident`). Oracle's
rules, mapped onto PostgreSQL's lower-case folding:

* an unquoted name is case-insensitive (Oracle folds it to upper case): it becomes lower case;
* a quoted name that is all upper case and would be valid unquoted (`"EMP"`) is the same object as
  the unquoted name, so it becomes lower case too;
* any other quoted name (`"Order Lines"`, `"emp"`, `"x;y"`) keeps its exact text.

Inside a quoted identifier `""` stands for one `"` (PostgreSQL's rule). Oracle forbids `"` in
names altogether; we read the doubled quote as part of the one name rather than reject the unit,
so the name is carried whole and quoted again on output — never cut short at the inner quote.
"""

from __future__ import annotations


def unquote(quoted: str) -> str:
    """The text inside `"..."`, with each doubled `""` read as one `"`."""
    return quoted[1:-1].replace('""', '"')


def is_oracle_bare(name: str) -> bool:
    """Could Oracle read `name` unquoted? A letter first, then letters, digits, `_`, `$` or `#`.

    Reserved words are not excluded: an unquoted reserved word is never a name in Oracle, so
    `"SELECT"` can only ever be written quoted and folding it to `select` (quoted again on
    output, since it is a PostgreSQL keyword too) cannot make it meet another object."""
    return bool(name) and name[0].isalpha() and all(c.isalnum() or c in "_$#" for c in name)


def fold(text: str) -> str:
    """Plain name for one identifier token as written in Oracle source (bare word or `"quoted"`)."""
    if len(text) >= 2 and text.startswith('"') and text.endswith('"'):
        inner = unquote(text)
        return inner.lower() if inner == inner.upper() and is_oracle_bare(inner) else inner
    return text.lower()


def oracle_text(name: str) -> str:
    """Oracle source text that `fold` reads back as the plain `name`: the bare word when that folds
    back to it, else a quoted identifier (for names re-inserted into Oracle text that is then
    parsed again, e.g. by sqlglot)."""
    if is_oracle_bare(name) and name == name.lower():
        return name
    return '"' + name.replace('"', '""') + '"'
