"""A team's own PL/SQL tests, converted and run on PostgreSQL as evidence (issue #27).

`model` holds the contract every test style shares: a style finds `SuiteTest`s in converted test
code, the runner executes each one on the sandbox and produces a `TestResult`, and `tests.json`,
`junit.xml`, the review site and the evidence step read only `TestResult`s.
"""
