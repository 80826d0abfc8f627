-- A seat's accuracy is now measured from the points it lost a move (`win_chance::accuracy`),
-- no longer from each move's chance of winning lost, so that of two players of a game the more
-- accurate lost fewer points a move. The analysis rows written before are dropped here: they are
-- made again from the stored analyses at the next start (`queue::seats::fill`).
DELETE FROM player_puzzles;
DELETE FROM player_mistakes;
DELETE FROM player_analyses;
