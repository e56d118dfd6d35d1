-- 5: the outbox: every announcement waits here until its channel has it, games know what is told already
ALTER TABLE games ADD COLUMN announced INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN waiting TEXT NOT NULL DEFAULT '[]';
ALTER TABLE actions ADD COLUMN by_ai BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE actions ADD COLUMN turns INTEGER NOT NULL DEFAULT 0;
-- The back-fill of the logs written before this migration, as in SQLite: the turns each action opened, summed.
-- No PostgreSQL database predates these migrations, so its tables are empty here and this changes nothing. It
-- reads every log as a JSON array of events, where SQLite's json_valid would pass over an unreadable one.
UPDATE actions SET turns = counted.turns FROM (
    SELECT game_id, seq, SUM(opened) OVER (PARTITION BY game_id ORDER BY seq) AS turns FROM (
        SELECT game_id, seq, (SELECT COUNT(*) FROM json_array_elements(actions.events::json) AS event
                              WHERE event->>'type' = 'turn_started') AS opened
        FROM actions) AS per_action) AS counted
WHERE actions.game_id = counted.game_id AND actions.seq = counted.seq;
UPDATE games SET announced = (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE actions.game_id = games.id);
CREATE TABLE outbox (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    channel_id BIGINT NOT NULL,
    payload TEXT NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_try DOUBLE PRECISION NOT NULL DEFAULT 0,
    sent TEXT NOT NULL DEFAULT '[]',
    delivered_at DOUBLE PRECISION,
    parked TEXT
);
CREATE INDEX outbox_waiting ON outbox(channel_id, id) WHERE delivered_at IS NULL AND parked IS NULL;
