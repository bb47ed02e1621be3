"""What conditional compilation is evaluated for: the Oracle release and PLSQL_CCFLAGS of a run
(`CompileTarget`), and with it the static package constants of the schema being converted
(`Compilation`). Both are frozen: they travel in the conversion context
(`ConversionContext.compilation`) and are part of the key of every parse they select code for.
The evaluation itself is `migrator.convert.plsql.conditional`."""

from __future__ import annotations

from dataclasses import dataclass

# (package, constant), upper case → value: TRUE / FALSE / NULL / an integer
Constants = tuple[tuple[tuple[str, str], object], ...]


@dataclass(frozen=True)
class CompileTarget:
    version: tuple[int, int] = (19, 0)  # DBMS_DB_VERSION.VERSION, RELEASE
    ccflags: tuple[tuple[str, object], ...] = ()  # PLSQL_CCFLAGS: (lower-case name, value)


@dataclass(frozen=True)
class Compilation:
    """The target, and the BOOLEAN / integer constants the schema's package specifications declare
    with a literal (Oracle's static constants), sorted so that equal sets compare equal."""

    target: CompileTarget = CompileTarget()
    constants: Constants = ()

    def constant(self, package: str, name: str) -> tuple[bool, object]:
        """(found, value) of `package.name` (upper case)."""
        for key, value in self.constants:
            if key == (package, name):
                return True, value
        return False, None
