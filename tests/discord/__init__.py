"""Offline Discord test infrastructure: payload factories, an in-process dispatch harness and a fake Discord server."""
