-- 3: each seat's place in a finished game, worked out once, so /stats reads rows instead of game states
CREATE TABLE standings (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    place INTEGER NOT NULL,
    won INTEGER NOT NULL,
    human INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
