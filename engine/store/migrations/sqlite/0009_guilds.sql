-- 9: a server's own settings (the language its new games speak, when the server chose one)
CREATE TABLE guilds (
    guild_id INTEGER PRIMARY KEY,
    language TEXT NOT NULL
);
