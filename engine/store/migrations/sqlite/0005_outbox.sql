-- 5: the outbox: every announcement waits here until its channel has it; games know what is told already
ALTER TABLE games ADD COLUMN announced INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN waiting TEXT NOT NULL DEFAULT '[]';
ALTER TABLE actions ADD COLUMN by_ai INTEGER NOT NULL DEFAULT 0;
ALTER TABLE actions ADD COLUMN turns INTEGER NOT NULL DEFAULT 0;
UPDATE actions SET turns = counted.turns FROM (
    SELECT game_id, seq, SUM(opened) OVER (PARTITION BY game_id ORDER BY seq) AS turns FROM (
        SELECT game_id, seq, (SELECT COUNT(*) FROM json_each(actions.events)
                              WHERE json_extract(value, '$.type') = 'turn_started') AS opened
        FROM actions WHERE json_valid(events))) AS counted
WHERE actions.game_id = counted.game_id AND actions.seq = counted.seq;
UPDATE games SET announced = (SELECT COALESCE(MAX(seq), 0) FROM actions WHERE actions.game_id = games.id);
CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    channel_id INTEGER NOT NULL,
    payload TEXT NOT NULL,
    created_at REAL NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_try REAL NOT NULL DEFAULT 0,
    sent TEXT NOT NULL DEFAULT '[]',
    delivered_at REAL,
    parked TEXT
);
CREATE INDEX outbox_waiting ON outbox(channel_id, id) WHERE delivered_at IS NULL AND parked IS NULL;
