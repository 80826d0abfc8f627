-- The search's index of names (`store::players`' module doc): for each distinct match key of
-- the players table, every suffix of its folded name (the key without accents:
-- `store::players::fold`), and where in the name it starts. A query finds the names with a
-- part that starts with it, by a range scan. SQL cannot fold Unicode, so the names stored by an
-- earlier release are indexed at start (`Store::fill_name_index`); a new game's are written
-- with its seats. Rows outlive their games: every read joins them to listed games' seats.
CREATE TABLE name_parts (
    match_key TEXT NOT NULL,
    part      TEXT NOT NULL,           -- a suffix of the folded name ('' for a name of marks alone)
    at        INTEGER NOT NULL,        -- 0: the whole name, 1: a later word's start, 2: inside a word
    PRIMARY KEY (match_key, part)
) WITHOUT ROWID;
-- Three characters or more match anywhere; fewer match the start of a word only, from the
-- smaller index. Both hold what a search reads (the key comes with the primary key).
CREATE INDEX name_parts_by_part ON name_parts (part, at);
CREATE INDEX name_parts_at_words ON name_parts (part, at) WHERE at < 2;
