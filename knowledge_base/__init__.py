"""Domain-free, evidence-tiered experience memory. Knows nothing of Oracle or PostgreSQL."""
