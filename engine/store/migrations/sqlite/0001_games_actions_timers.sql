-- 1: games (one live game per channel), the action log with unique interaction ids, timers
CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    channel_id INTEGER NOT NULL,
    guild_id INTEGER,
    ruleset TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
    host_id INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    lobby TEXT NOT NULL,
    state TEXT,
    version INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE UNIQUE INDEX games_one_live_per_channel ON games(channel_id) WHERE status IN ('lobby', 'running');
CREATE INDEX games_guild ON games(guild_id, status);
CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    actor INTEGER NOT NULL,
    action TEXT NOT NULL,
    events TEXT NOT NULL,
    interaction_id TEXT UNIQUE,
    created_at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE timers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    due_at REAL NOT NULL,
    payload TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX timers_due ON timers(due_at);
