-- 1: games (one live game per channel), the action log with unique interaction ids, timers
-- Discord ids (channels, guilds, members, seats) are 64-bit: BIGINT. Times are epoch seconds: DOUBLE PRECISION.
-- JSON stays TEXT, as in SQLite, so the same strings go in and come out.
CREATE TABLE games (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel_id BIGINT NOT NULL,
    guild_id BIGINT,
    ruleset TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('lobby', 'running', 'finished', 'abandoned')),
    host_id BIGINT NOT NULL,
    seed BIGINT NOT NULL,
    lobby TEXT NOT NULL,
    state TEXT,
    version INTEGER NOT NULL DEFAULT 0,
    created_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);
CREATE UNIQUE INDEX games_one_live_per_channel ON games(channel_id) WHERE status IN ('lobby', 'running');
CREATE INDEX games_guild ON games(guild_id, status);
CREATE TABLE actions (
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    actor BIGINT NOT NULL,
    action TEXT NOT NULL,
    events TEXT NOT NULL,
    interaction_id TEXT UNIQUE,
    created_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE timers (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    due_at DOUBLE PRECISION NOT NULL,
    payload TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX timers_due ON timers(due_at);
