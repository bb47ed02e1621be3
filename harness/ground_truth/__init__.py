"""What Oracle did (or a trusted PostgreSQL port in its place): scenario and transcript files, the Oracle error-code table, the trusted-port recorder."""
