"""LibCST transformers: the fixes behind rules, and migrations to resilint.runtime."""
