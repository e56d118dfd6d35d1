-- 7: the message that shows a game's board, edited in place after every change (a pinned board)
CREATE TABLE boards (
    game_id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    message_id BIGINT NOT NULL
);
