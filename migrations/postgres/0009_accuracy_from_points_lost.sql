-- A seat's accuracy from the points it lost a move (see SQLite's 0015). The analysis rows written
-- before are made again at the next start.
DELETE FROM player_puzzles;
DELETE FROM player_mistakes;
DELETE FROM player_analyses;
