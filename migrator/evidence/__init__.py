"""Evidence without hand-written scenarios: steps synthesized from the Oracle source and kept by the\nstatements and branches of the converted code they execute (`synth`)."""
