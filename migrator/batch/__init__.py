"""Step 3: the batch job over a whole schema: convert on every core, static check, write OUT (files,
preamble, deploy.sql, manifest), deploy in the sandbox, verify, and report (JSON, Markdown, HTML,
JUnit)."""
