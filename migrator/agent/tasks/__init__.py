"""Task adapters on the one episode loop: plsql (the product), text_to_sql (MERIT), swe (PMCoder)."""
