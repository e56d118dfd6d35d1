-- 3: each seat's place in a finished game, worked out once, so /stats reads rows instead of game states
CREATE TABLE standings (
    game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL,
    place INTEGER NOT NULL,
    won BOOLEAN NOT NULL,
    human BOOLEAN NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
