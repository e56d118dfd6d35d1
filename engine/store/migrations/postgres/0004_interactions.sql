-- 4: every command is applied once per interaction: the ids of those that changed something besides the log
CREATE TABLE interactions (
    id TEXT PRIMARY KEY,
    created_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX interactions_age ON interactions(created_at);
