"""The lint engine: discovery, configuration, semantic model, rules, suppressions, runner."""
