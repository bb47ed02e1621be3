"""Reviewer gates: pre-registered fix cycles (`cycle`) and the versioned active settings they are
the only way to change (`settings`)."""
