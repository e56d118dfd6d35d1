-- 8: with several bot processes on one database, a due timer and a channel's deliveries are claimed by one of
-- them at a time, for a lease that a process that dies lets run out
ALTER TABLE timers ADD COLUMN claimed_by TEXT;
ALTER TABLE timers ADD COLUMN claimed_until DOUBLE PRECISION;
CREATE TABLE channel_claims (
    channel_id BIGINT PRIMARY KEY,
    holder TEXT NOT NULL,
    until DOUBLE PRECISION NOT NULL
);
