"""DDL and top-level data statements, read from tokens (`tokens`): one module per statement family;
`dispatch` picks the converter for a unit."""
