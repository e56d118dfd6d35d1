-- 6: a post reads its channel's parked posts and last delivered message without scanning the whole outbox
CREATE INDEX outbox_parked ON outbox(channel_id, id) WHERE parked IS NOT NULL;
CREATE INDEX outbox_delivered ON outbox(channel_id, id) WHERE delivered_at IS NOT NULL;
