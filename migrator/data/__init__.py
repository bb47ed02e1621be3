"""Table data: INSERT exports and SQL*Loader files streamed into PostgreSQL with COPY (see README.md)."""
