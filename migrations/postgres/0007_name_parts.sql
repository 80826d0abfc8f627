-- The search's index of names (see SQLite's 0013). `part` compares byte by byte (`COLLATE "C"`),
-- whatever the database's collation: a prefix is then a range of the index, as on SQLite.
CREATE TABLE name_parts (
    match_key TEXT NOT NULL,
    part      TEXT COLLATE "C" NOT NULL,  -- a suffix of the folded name ('' for a name of marks alone)
    at        SMALLINT NOT NULL,          -- 0: the whole name, 1: a later word's start, 2: inside a word
    PRIMARY KEY (match_key, part)
);
CREATE INDEX name_parts_by_part ON name_parts (part, at, match_key);
CREATE INDEX name_parts_at_words ON name_parts (part, at, match_key) WHERE at < 2;
