-- What changed about stored games, in order (see SQLite's 0008): every web node reads what is
-- new about once a second and forgets what it kept in memory of those games. Changes are
-- written under an advisory lock held to the commit, so that they commit in `seq` order and a
-- reader that has seen `seq` n has seen every change before it.
CREATE TABLE game_changes (
    seq  BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game TEXT NOT NULL,
    what TEXT NOT NULL CHECK (what IN ('owner', 'analysis'))
);
