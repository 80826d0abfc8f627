-- Games recorded at the table, live until their last move (see SQLite's 0016).
ALTER TABLE games ADD COLUMN live BOOLEAN NOT NULL DEFAULT FALSE;

-- A move recorded on a live game is a change the other nodes hear of.
ALTER TABLE game_changes DROP CONSTRAINT game_changes_what_check;
ALTER TABLE game_changes ADD CONSTRAINT game_changes_what_check
    CHECK (what IN ('owner', 'analysis', 'annotations', 'moves'));
