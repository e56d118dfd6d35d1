"""Fixtures for tests under tests/discord (import `fake_discord` from tests.discord.fakediscord elsewhere)."""

from tests.discord.fakediscord import fake_discord

__all__ = ["fake_discord"]
