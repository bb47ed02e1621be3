"""Assessment before a migration (`migrator assess SRC`): counts, constructs, what will not convert, effort."""
