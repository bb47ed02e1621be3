"""Review site: static pages a reviewer works from (`migrator review OUT`), for runs and fix cycles."""
