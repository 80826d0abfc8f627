//! A collection's standings, from its games' stored summary rows (players and final scores,
//! read in one query): games, wins, points, point difference, average and head to head, never
//! by replaying a game. A player is a name as the records spell it. Only finished games count:
//! an unfinished one has no result. A win is the top final score, shared in a tie (each tied
//! player wins).
//!
//! Every answer shows a page of the standings ([`PER_PAGE`] players) and the head to head of
//! that page's players only, as the pairs that met: a collection of thousands of players would
//! otherwise answer a table of millions of cells.

use crate::store::CollectedGame;
use crate::store::match_key;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// Players a page of the standings shows, and games a page of the game list.
pub const PER_PAGE: usize = 100;

/// A player's line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Standing {
    /// The player's place, from 1: shared by players level on wins, point difference and
    /// average alike.
    pub rank: u32,
    pub name: String,
    /// Finished games played.
    pub games: u32,
    pub wins: u32,
    /// Each finished game's score minus the best other score in it, summed: a two-player
    /// game's margin.
    pub point_difference: i64,
    pub points: i64,
    /// Points per game, to 1 decimal.
    pub average: f64,
    /// The mean accuracy (percent, to 1 decimal) of the player's analysed moves in the
    /// collection's analysed games; `null` before any.
    pub accuracy: Option<f64>,
    /// How many of the player's moves the accuracy is over.
    pub analysed_moves: u32,
}

/// Two players of a page of the standings who met: the first's wins, losses and draws against
/// the second in the finished games both played (by final score). The first ranks higher.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Meeting {
    pub player: String,
    pub opponent: String,
    #[serde(flatten)]
    pub record: Record,
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

    /// The same games seen from the other side.
    pub fn reversed(self) -> Record {
        Record {
            wins: self.losses,
            losses: self.wins,
            draws: self.draws,
        }
    }
}

/// The standings, best first, with the head to head of every pair that met.
pub struct Table {
    pub standings: Vec<Standing>,
    /// Keyed by places in `standings`, the lower first.
    pairs: HashMap<(usize, usize), Record>,
}

impl Table {
    /// Players' places `range` of the standings, with the pairs among them that met, in the
    /// standings' order.
    pub fn page(&self, range: std::ops::Range<usize>) -> (&[Standing], Vec<Meeting>) {
        let range = range.start.min(self.standings.len())..range.end.min(self.standings.len());
        let mut met: Vec<((usize, usize), Record)> = (self.pairs.iter())
            .filter(|((a, b), _)| range.contains(a) && range.contains(b))
            .map(|(k, r)| (*k, *r))
            .collect();
        met.sort_by_key(|(k, _)| *k);
        let meetings = (met.into_iter())
            .map(|((a, b), record)| Meeting {
                player: self.standings[a].name.clone(),
                opponent: self.standings[b].name.clone(),
                record,
            })
            .collect();
        (&self.standings[range], meetings)
    }
}

/// The standings, best first: by wins, then point difference, then average (players level on
/// all three share a place, and go by name), and the head to head between them. A player is
/// their name as the player pages match it (`store::match_key`: case and Unicode forms
/// aside), shown as first spelled. A player's accuracy is over every move of theirs the games'
/// analyses valued, all three games alike.
pub fn standings(games: &[CollectedGame]) -> Table {
    let mut by_key: BTreeMap<String, (&str, Tally)> = BTreeMap::new();
    let mut pairs: HashMap<(&str, &str), Record> = HashMap::new();
    let seats: Vec<Vec<String>> = (games.iter())
        .map(|g| g.players.iter().map(|name| match_key(name)).collect())
        .collect();
    for (g, keys) in games.iter().zip(&seats) {
        for (name, key) in g.players.iter().zip(keys) {
            by_key.entry(key.clone()).or_insert((name.as_str(), Tally::default()));
        }
    }
    for (g, keys) in games.iter().zip(&seats) {
        for a in &g.accuracy {
            if let Some((_, t)) = keys.get(usize::from(a.seat)).and_then(|k| by_key.get_mut(k)) {
                t.moves += a.moves;
                t.accuracy_sum += a.accuracy * f64::from(a.moves);
            }
        }
        let Some(scores) = result(g) else { continue };
        for (p, &score) in scores.iter().enumerate() {
            let others = (scores.iter().enumerate()).filter(|&(q, _)| keys[q] != keys[p]);
            let best_other = others.clone().map(|(_, &s)| s).max();
            if let Some((_, t)) = by_key.get_mut(&keys[p]) {
                t.games += 1;
                t.points += i64::from(score);
                t.wins += u32::from(best_other.is_none_or(|b| score >= b));
                t.difference += i64::from(score - best_other.unwrap_or(score));
            }
            for (q, &theirs) in others {
                let r = pairs.entry((&keys[p], &keys[q])).or_default();
                match score.cmp(&theirs) {
                    std::cmp::Ordering::Greater => r.wins += 1,
                    std::cmp::Ordering::Less => r.losses += 1,
                    std::cmp::Ordering::Equal => r.draws += 1,
                }
            }
        }
    }
    let mut rows: Vec<(&str, Standing)> = (by_key.iter())
        .filter(|(_, (_, t))| t.games > 0 || t.moves > 0)
        .map(|(key, (name, t))| (key.as_str(), t.standing(name)))
        .collect();
    rows.sort_by(|(_, a), (_, b)| order(a, b).then(a.name.cmp(&b.name)));
    for i in 0..rows.len() {
        rows[i].1.rank = match i {
            0 => 1,
            _ if order(&rows[i - 1].1, &rows[i].1).is_eq() => rows[i - 1].1.rank,
            _ => i as u32 + 1,
        };
    }
    let place: HashMap<&str, usize> = rows.iter().enumerate().map(|(i, (k, _))| (*k, i)).collect();
    let pairs = (pairs.into_iter())
        .filter_map(|((a, b), r)| Some(((*place.get(a)?, *place.get(b)?), r)))
        .filter(|((a, b), _)| a < b)
        .collect();
    Table {
        standings: rows.into_iter().map(|(_, s)| s).collect(),
        pairs,
    }
}

/// A rulebook's name (`GameRow::preset`) for people: "2nd edition rules".
pub fn rules_name(preset: &str) -> String {
    match crate::engine::Preset::parse(preset) {
        Some(p) => crate::record::rules_spec::label(&p.rules()),
        None if preset == crate::engine::GameKind::CardGame.name() => "Card Game rules".into(),
        None => preset.to_string(),
    }
}

/// A stored time (RFC 3339) as its day: "28 November 2026" (UTC).
pub fn day(stored: &str) -> String {
    chrono::DateTime::parse_from_rfc3339(stored)
        .map_or_else(|_| stored.to_string(), |t| t.format("%-d %B %Y").to_string())
}

/// Which of two lines ranks first: more wins, then more point difference, then the better
/// average.
fn order(a: &Standing, b: &Standing) -> std::cmp::Ordering {
    (b.wins.cmp(&a.wins))
        .then(b.point_difference.cmp(&a.point_difference))
        .then(b.average.total_cmp(&a.average))
}

/// A finished game's final scores by seat; `None` for a game with no result.
fn result(g: &CollectedGame) -> Option<&[i32]> {
    let complete = g.finished && g.final_scores.len() == g.players.len();
    complete.then_some(&g.final_scores[..])
}

#[derive(Default)]
struct Tally {
    games: u32,
    wins: u32,
    points: i64,
    difference: i64,
    moves: u32,
    accuracy_sum: f64,
}

impl Tally {
    fn standing(&self, name: &str) -> Standing {
        let tenth = |x: f64| (x * 10.0).round() / 10.0;
        Standing {
            rank: 0,
            name: name.to_string(),
            games: self.games,
            wins: self.wins,
            point_difference: self.difference,
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
        let table = standings(&games);
        let (rows, met) = table.page(0..PER_PAGE);
        let row = |name: &str| rows.iter().find(|r| r.name == name).unwrap();
        assert_eq!(rows.len(), 2, "{rows:?}");
        assert_eq!((row("Zoë").games, row("Zoë").wins, row("Zoë").points), (2, 1, 140));
        assert_eq!((row("Bo").games, row("Bo").wins, row("Bo").points), (2, 1, 160));
        // Level on wins, Bo is ahead on point difference: +30 − 10 against −30 + 10.
        assert_eq!((row("Bo").point_difference, row("Bo").rank), (20, 1));
        assert_eq!((row("Zoë").point_difference, row("Zoë").rank), (-20, 2));
        let record = Record {
            wins: 1,
            losses: 1,
            draws: 0,
        };
        let bo_zoe = Meeting {
            player: "Bo".into(),
            opponent: "Zoë".into(),
            record,
        };
        assert_eq!(met, [bo_zoe]);
    }

    /// Players level on wins, point difference and average share a place; the next place
    /// counts them all.
    #[test]
    fn players_level_on_every_tie_break_share_a_place() {
        let games = [
            game(&["Ann", "Bob"], &[30, 20]),
            game(&["Cy", "Di"], &[30, 20]),
            game(&["Ed", "Fay"], &[10, 20]),
        ];
        let table = standings(&games);
        let ranks: Vec<(&str, u32)> = (table.standings.iter()).map(|s| (s.name.as_str(), s.rank)).collect();
        assert_eq!(
            ranks,
            [("Ann", 1), ("Cy", 1), ("Fay", 3), ("Bob", 4), ("Di", 4), ("Ed", 6)]
        );
    }

    /// 800 games among 4,800 players, each met by five others: a page holds the pairs that met
    /// among its own 100 players, never the 23 million cells of every pair. (Each game's six
    /// tie, at a score of the game's own, so they stand together.)
    #[test]
    fn a_page_holds_only_the_pairs_of_its_players_that_met() {
        let names: Vec<String> = (0..4800).map(|i| format!("p{i:04}")).collect();
        let games: Vec<CollectedGame> = (names.chunks(6))
            .enumerate()
            .map(|(i, six)| {
                let seats: Vec<&str> = six.iter().map(String::as_str).collect();
                game(&seats, &[i as i32; 6])
            })
            .collect();
        let table = standings(&games);
        assert_eq!(table.standings.len(), 4800);
        let (rows, met) = table.page(PER_PAGE..2 * PER_PAGE);
        assert_eq!(rows.len(), PER_PAGE);
        // 16 whole games (15 pairs each) and two parts of games: at most 100 × 5 / 2.
        assert!(met.len() >= 16 * 15 && met.len() <= PER_PAGE * 5 / 2, "{}", met.len());
        let on_page = |n: &str| rows.iter().any(|r| r.name == n);
        assert!(met.iter().all(|m| on_page(&m.player) && on_page(&m.opponent)));
        assert_eq!(table.page(5000..5100).0.len(), 0);
    }
}
