-- 8: with several bot processes on one database, a due timer and a channel's deliveries are claimed by one of
-- them at a time, for a lease that a process that dies lets run out
ALTER TABLE timers ADD COLUMN claimed_by TEXT;
ALTER TABLE timers ADD COLUMN claimed_until REAL;
CREATE TABLE channel_claims (
    channel_id INTEGER PRIMARY KEY,
    holder TEXT NOT NULL,
    until REAL NOT NULL
);
