"""Step 5, the thin command line: `main` parses arguments, `commands` and `fix` call the library."""
