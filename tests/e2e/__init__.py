"""End-to-end tests: the unmodified bot process against the fake Discord server."""
