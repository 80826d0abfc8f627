-- Whole-game analyses, run in the background. `result` holds the analysis as deflated JSON:
-- the game summary and every turn's alternatives.
CREATE TABLE analyses (
    game       INTEGER PRIMARY KEY REFERENCES games (seq) ON DELETE CASCADE,
    status     TEXT NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
    done       INTEGER NOT NULL DEFAULT 0,   -- turns analysed so far
    total      INTEGER NOT NULL DEFAULT 0,   -- turns to analyse
    result     BLOB,
    error      TEXT,
    updated_at TEXT NOT NULL
);
