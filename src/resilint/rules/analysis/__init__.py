"""RES0xx: problems with the analysis itself (files that cannot be read, stale suppressions)."""
