//! A collection's standings, from its games' stored summary rows (players and final scores,
//! read in one query): games, wins, points, average and head to head, never by replaying a
//! game. A player is a name as the records spell it. Only finished games count: an unfinished
//! one has no result. A win is the top final score, shared in a tie (each tied player wins).

use crate::store::CollectedGame;
use crate::store::match_key;
use serde::Serialize;
use std::collections::BTreeMap;

/// A player's line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Standing {
    pub name: String,
    /// Finished games played.
    pub games: u32,
    pub wins: u32,
    pub points: i64,
    /// Points per game, to 1 decimal.
    pub average: f64,
    /// The mean accuracy (percent, to 1 decimal) of the player's analysed moves in the
    /// collection's analysed games; `null` before any.
    pub accuracy: Option<f64>,
    /// How many of the player's moves the accuracy is over.
    pub analysed_moves: u32,
}

/// Head to head: `results[i][j]` is player `i`'s wins, losses and draws against player `j` in
/// the finished games both played (by final score), in the standings' order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct HeadToHead {
    pub players: Vec<String>,
    pub results: Vec<Vec<Record>>,
}

/// Wins, losses and draws of one player against another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Record {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

impl Record {
    /// "2–1", with "–1" more for draws: what a table cell shows.
    pub fn text(&self) -> String {
        match self.draws {
            0 => format!("{}–{}", self.wins, self.losses),
            d => format!("{}–{}–{d}", self.wins, self.losses),
        }
    }

    pub fn met(&self) -> bool {
        self.wins + self.losses + self.draws > 0
    }
}

/// The standings, best first (wins, then average, then name), and the head to head between
/// the same players. A player is their name as the player pages match it (`store::match_key`:
/// case and Unicode forms aside), shown as first spelled. A player's accuracy is over every move
/// of theirs the games' analyses valued, all three games alike.
pub fn standings(games: &[CollectedGame]) -> (Vec<Standing>, HeadToHead) {
    let mut by_key: BTreeMap<String, (&str, Tally)> = BTreeMap::new();
    let mut pairs: BTreeMap<(String, String), Record> = BTreeMap::new();
    let mut seats: Vec<Vec<String>> = Vec::with_capacity(games.len());
    for g in games {
        let keys = g.players.iter().map(|name| {
            let key = match_key(name);
            by_key.entry(key.clone()).or_insert((name.as_str(), Tally::default()));
            key
        });
        seats.push(keys.collect());
    }
    for (i, g) in games.iter().enumerate() {
        for a in &g.accuracy {
            if let Some((_, t)) = seats[i].get(usize::from(a.seat)).and_then(|k| by_key.get_mut(k)) {
                t.moves += a.moves;
                t.accuracy_sum += a.accuracy * f64::from(a.moves);
            }
        }
        let Some(result) = result(g) else { continue };
        let top = result.iter().map(|&(_, s)| s).max().unwrap_or(0);
        for (p, &(_, score)) in result.iter().enumerate() {
            let key = &seats[i][p];
            if let Some((_, t)) = by_key.get_mut(key) {
                t.games += 1;
                t.points += i64::from(score);
                t.wins += u32::from(score == top);
            }
            for (q, &(_, theirs)) in result.iter().enumerate().filter(|(q, _)| seats[i][*q] != *key) {
                let r = pairs.entry((key.clone(), seats[i][q].clone())).or_default();
                match score.cmp(&theirs) {
                    std::cmp::Ordering::Greater => r.wins += 1,
                    std::cmp::Ordering::Less => r.losses += 1,
                    std::cmp::Ordering::Equal => r.draws += 1,
                }
            }
        }
    }
    let mut rows: Vec<(&String, Standing)> = (by_key.iter())
        .filter(|(_, (_, t))| t.games > 0 || t.moves > 0)
        .map(|(key, (name, t))| (key, t.standing(name)))
        .collect();
    rows.sort_by(|(_, a), (_, b)| {
        (b.wins.cmp(&a.wins))
            .then(b.average.total_cmp(&a.average))
            .then(a.name.cmp(&b.name))
    });
    let results = (rows.iter())
        .map(|(a, _)| {
            (rows.iter())
                .map(|(b, _)| pairs.get(&((*a).clone(), (*b).clone())).copied().unwrap_or_default())
                .collect()
        })
        .collect();
    let players = rows.iter().map(|(_, s)| s.name.clone()).collect();
    (
        rows.into_iter().map(|(_, s)| s).collect(),
        HeadToHead { players, results },
    )
}

/// A finished game's players with their final scores; `None` for a game with no result.
fn result(g: &CollectedGame) -> Option<Vec<(&str, i32)>> {
    let complete = g.finished && g.final_scores.len() == g.players.len();
    complete.then(|| {
        g.players
            .iter()
            .map(String::as_str)
            .zip(g.final_scores.iter().copied())
            .collect()
    })
}

#[derive(Default)]
struct Tally {
    games: u32,
    wins: u32,
    points: i64,
    moves: u32,
    accuracy_sum: f64,
}

impl Tally {
    fn standing(&self, name: &str) -> Standing {
        let tenth = |x: f64| (x * 10.0).round() / 10.0;
        Standing {
            name: name.to_string(),
            games: self.games,
            wins: self.wins,
            points: self.points,
            average: if self.games == 0 {
                0.0
            } else {
                tenth(self.points as f64 / f64::from(self.games))
            },
            accuracy: (self.moves > 0).then(|| tenth(self.accuracy_sum / f64::from(self.moves))),
            analysed_moves: self.moves,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::GameKind;
    use crate::store::GameId;

    fn game(players: &[&str], scores: &[i32]) -> CollectedGame {
        CollectedGame {
            id: GameId::of(&format!("{players:?}{scores:?}")),
            kind: GameKind::Carcassonne,
            players: players.iter().map(|p| p.to_string()).collect(),
            final_scores: scores.to_vec(),
            finished: true,
            preset: "second-edition".into(),
            turns: 71,
            created_at: String::new(),
            analysis: None,
            accuracy: Vec::new(),
        }
    }

    /// A player is one whatever the case or Unicode form a record spells them in, as on the
    /// player pages: "Zoë" and "ZOË" are one row, shown as first spelled.
    #[test]
    fn names_are_matched_as_the_player_pages_match_them() {
        let games = [game(&["Zoë", "Bo"], &[80, 70]), game(&["BO", "ZOË"], &[90, 60])];
        let (rows, h2h) = standings(&games);
        let row = |name: &str| rows.iter().find(|r| r.name == name).unwrap();
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert_eq!((row("Zoë").games, row("Zoë").wins, row("Zoë").points), (2, 1, 140));
        assert_eq!((row("Bo").games, row("Bo").wins, row("Bo").points), (2, 1, 160));
        let bo = h2h.players.iter().position(|p| p == "Bo").unwrap();
        let zoe = 1 - bo;
        assert_eq!(
            h2h.results[bo][zoe],
            Record {
                wins: 1,
                losses: 1,
                draws: 0
            }
        );
    }
}
