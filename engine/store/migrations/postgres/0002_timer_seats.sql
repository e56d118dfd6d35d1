-- 2: a timer belongs to one seat's clock (deadline and reminders), so each clock is re-armed on its own
ALTER TABLE timers ADD COLUMN player BIGINT NOT NULL DEFAULT 0;
CREATE INDEX timers_game ON timers(game_id, player);
