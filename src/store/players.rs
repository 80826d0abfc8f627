//! Players across games: one row per seat of every stored game (its name as recorded, the key
//! names are matched by, the Board Game Arena id, the score, the place), its points by scoring
//! category and what each kind of tile it placed scored, written with the game; and, once the
//! game is analysed, the seat's accuracy, mistakes by kind and own puzzles. Player pages and
//! search read these rows by index; no page replays a game. The SQL both stores run is built
//! here; each binds the parameters its own way.
//!
//! # Search by part of a name
//!
//! A player page is one player: its name matches by [`match_key`] (case and Unicode form
//! ignored, accents kept). The home page's search is looser: it compares names [`fold`]ed
//! (accents dropped too), and a query finds every player whose folded name holds it — from the
//! start of any word for one or two characters, anywhere from three — up to the first
//! [`PLAYERS_SEARCHED`] names in rank ([`names_like`]). A query that is a whole folded name
//! finds that name's players only, as a name always did (`web::search::found`).
//!
//! The index is the `name_parts` table: for each distinct match key, every suffix of its
//! folded form, with where it starts ([`At`]). "Holds `q`" is then "has a suffix that starts
//! with `q`": one range scan `q <= part < q + U+10FFFF` on a b-tree in byte order, the same SQL
//! on both stores, for anywhere, the start of a word (a partial index) and the whole name.
//! Trigram indexes need three characters and, in PostgreSQL, an extension a server may not
//! allow. A name of n characters costs n rows (at 100,000 games of 5,001 names, 54,000 rows);
//! a query costs the games of the names it matches, hence the cap.
//!
//! SQL cannot fold Unicode: the rows are written with a seat's game, and names stored before
//! the index get theirs at start ([`Store::fill_name_index`](super::Store::fill_name_index)).
//! Rows outlive their games: a query matches names with a listed game's seat.

use super::snapshot::{AnySnapshots, Notation, Snapshot};
use super::{GameId, GameRow};
use crate::engine::GameKind;
use std::collections::BTreeMap;
use unicode_normalization::UnicodeNormalization;

/// What names are matched by: NFKC (so that a composed and a decomposed accent, or a
/// full-width letter and its plain form, are one name), then lowercased and normalised again
/// (lowercasing can leave a string that is no longer in NFKC). Accents are kept: `Zoë` and
/// `Zoe` are two players.
pub fn match_key(name: &str) -> String {
    let nfkc: String = name.trim().nfkc().collect();
    nfkc.to_lowercase().nfkc().collect()
}

/// What the home page's search compares names by: the [`match_key`], without accents or other
/// combining marks (decomposed, the marks dropped, composed again), and with the few Latin
/// letters that carry a stroke or are ligatures written out (they have no decomposition, and a
/// search for `Lukasz` should find `Łukasz`). `Chloé`, `CHLOE` and `chloe` fold alike.
pub fn fold(name: &str) -> String {
    use unicode_normalization::char::is_combining_mark;
    let mut bare = String::new();
    for c in match_key(name).nfd().filter(|&c| !is_combining_mark(c)) {
        match c {
            'ł' => bare.push('l'),
            'ø' => bare.push('o'),
            'đ' => bare.push('d'),
            'ı' => bare.push('i'),
            'ß' => bare.push_str("ss"),
            'æ' => bare.push_str("ae"),
            'œ' => bare.push_str("oe"),
            c => bare.push(c),
        }
    }
    bare.nfc().collect()
}

/// Where in a folded name one of its suffixes starts: what decides which searches find it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum At {
    /// At the start: the suffix is the whole name.
    Name = 0,
    /// At the start of another word (after a character that is neither a letter nor a digit).
    Word = 1,
    /// Inside a word.
    Inside = 2,
}

/// A row of the search's index: a suffix of a match key's folded name.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct NamePart {
    pub key: String,
    pub part: String,
    pub at: At,
}

/// Every suffix of the folded name of match key `key`, each once. A name with nothing left once
/// folded gets one empty part, which no search finds: it is indexed all the same.
pub fn name_parts(key: &str) -> Vec<NamePart> {
    let folded = fold(key);
    if folded.is_empty() {
        let part = NamePart {
            key: key.to_string(),
            part: folded,
            at: At::Name,
        };
        return vec![part];
    }
    let mut previous: Option<char> = None;
    let mut parts = Vec::new();
    for (i, c) in folded.char_indices() {
        let at = match previous {
            None => At::Name,
            Some(p) if !p.is_alphanumeric() && c.is_alphanumeric() => At::Word,
            Some(_) => At::Inside,
        };
        previous = Some(c);
        parts.push(NamePart {
            key: key.to_string(),
            part: folded[i..].to_string(),
            at,
        });
    }
    parts
}

/// A stored game's seat, as the players table keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// From 0, the record's order.
    pub seat: u8,
    pub name: String,
    pub key: String,
    pub bga_id: Option<u64>,
    /// The last score the record reaches: the final score of a finished game.
    pub score: i32,
    /// 1 + the seats with more points: tied seats share a place.
    pub place: u32,
    pub finished: bool,
    /// The seat's biggest single scoring during play.
    pub best: Scoring,
    /// Points by category: the scored events of play, and `final` for what the final scoring
    /// added. Categories with no points are left out.
    pub points: BTreeMap<String, i32>,
    /// By tile name, the tiles the seat placed (tile games only).
    pub tiles: BTreeMap<String, TileScore>,
}

/// A kind of tile as one seat placed it: how often, and what those placements scored for the
/// seat at once (the features they completed during play).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TileScore {
    pub placed: u32,
    pub points: i32,
}

/// One scoring: its points, the turn it came on and the feature (or Card Game category) that
/// scored. `Scoring::default()` (0 points on turn 0, no feature) is none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scoring {
    pub points: i32,
    pub turn: u32,
    pub what: String,
}

/// What the final scoring adds to a seat's points (`Seat::points`).
pub const FINAL: &str = "final";

/// The seats of a game of any kind from its snapshots (see [`seats`]).
pub fn game_seats(g: &GameRow, turns: &AnySnapshots, bga_ids: &[Option<u64>]) -> Vec<Seat> {
    match turns {
        AnySnapshots::Tiles(s) => seats(g, s, bga_ids),
        AnySnapshots::Cards(s) => seats(g, s, bga_ids),
    }
}

/// The seats of a game from its stored rows: its players and scores, and the scorings of its
/// snapshots. `bga_ids` are by seat (empty when the record has none).
pub fn seats<N: Notation>(g: &GameRow, turns: &[Snapshot<N>], bga_ids: &[Option<u64>]) -> Vec<Seat> {
    let last_scores = turns.last().map_or(&[][..], |t| &t.scores);
    let score = |i: usize| g.final_scores.get(i).or(last_scores.get(i)).copied().unwrap_or(0);
    let scores: Vec<i32> = (0..g.players.len()).map(score).collect();
    let mut seats: Vec<Seat> = (g.players.iter().enumerate())
        .map(|(i, name)| Seat {
            seat: i as u8,
            name: name.clone(),
            key: match_key(name),
            bga_id: bga_ids.get(i).copied().flatten(),
            score: scores[i],
            place: 1 + scores.iter().filter(|&&s| s > scores[i]).count() as u32,
            finished: g.finished,
            best: Scoring::default(),
            points: BTreeMap::new(),
            tiles: BTreeMap::new(),
        })
        .collect();
    for t in turns {
        let scorings = scored(t);
        for (players, scoring) in &scorings {
            for &p in *players {
                let Some(seat) = seats.get_mut(usize::from(p)) else {
                    continue;
                };
                *seat.points.entry(scoring.what.clone()).or_default() += scoring.points;
                if scoring.points > seat.best.points {
                    seat.best = scoring.clone();
                }
            }
        }
        if let Some(tile) = N::tile(&t.mv)
            && let Some(seat) = seats.get_mut(usize::from(t.player))
        {
            let own: i32 = (scorings.iter())
                .filter(|(players, _)| players.contains(&t.player))
                .map(|(_, s)| s.points)
                .sum();
            let score = seat.tiles.entry(tile.to_string()).or_default();
            score.placed += 1;
            score.points += own;
        }
    }
    for seat in &mut seats {
        let in_play: i32 = seat.points.values().sum();
        if seat.finished && seat.score != in_play {
            seat.points.insert(FINAL.to_string(), seat.score - in_play);
        }
        seat.points.retain(|_, p| *p != 0);
    }
    seats
}

/// The scorings of a turn, each with the seats it scored for.
fn scored<N: Notation>(t: &Snapshot<N>) -> Vec<(&[u8], Scoring)> {
    (t.scorings())
        .filter_map(|(players, what, points)| {
            let scoring = Scoring {
                points: i32::try_from(points).ok()?,
                turn: t.turn,
                what: what.to_string(),
            };
            Some((players, scoring))
        })
        .collect()
}

/// A seat's play as its game's finished analysis judged it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SeatAnalysis {
    pub seat: u8,
    /// Moves valued by playouts: the ones with an accuracy.
    pub moves: u32,
    /// Their mean accuracy, in percent.
    pub accuracy: f64,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
    /// Mistakes and blunders by kind of move (`meeple on a city`, `tile only`…).
    pub by_kind: BTreeMap<String, u32>,
    /// The seat's own puzzles: its turns with one clearly best placement.
    pub puzzles: Vec<SeatPuzzle>,
}

/// A turn of a seat's with one clearly best placement (`analysis::puzzles`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatPuzzle {
    pub turn: u32,
    /// The seat played the best placement.
    pub found: bool,
    /// Points the best placement leads the second best by.
    pub lead: f64,
}

/// One analysed game of a player, for the accuracy over time.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysedGame {
    pub id: super::GameId,
    pub kind: GameKind,
    pub created_at: String,
    pub moves: u32,
    pub accuracy: f64,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

/// Who a player page is about: a name (matched by [`match_key`]) or a Board Game Arena id.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Who {
    Name(String),
    Bga(u64),
}

impl Who {
    /// `bga:ID` is a Board Game Arena player id; anything else is a name.
    pub fn parse(s: &str) -> Who {
        match s.strip_prefix("bga:").and_then(|n| n.parse().ok()) {
            Some(id) => Who::Bga(id),
            None => Who::Name(match_key(s)),
        }
    }

    /// The condition on players row `p`, with placeholder `?n`, and its parameter.
    fn condition(&self, p: &str, n: usize) -> (String, Param) {
        let (column, param) = match self {
            Who::Name(key) => ("match_key", Param::Text(key.clone())),
            Who::Bga(id) => ("bga_id", Param::Int(*id as i64)),
        };
        (format!("{p}.{column} = ?{n}"), param)
    }
}

/// A name typed in the home page's search, [`fold`]ed: never empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Typed(String);

impl Typed {
    /// `None` when nothing is left once folded (blanks, or marks alone).
    pub fn new(q: &str) -> Option<Typed> {
        Some(Typed(fold(q))).filter(|t| !t.0.is_empty())
    }

    /// Whether it matches inside words too: from three characters. Shorter, it matches the
    /// start of a word only: one letter inside words would be most of the index.
    pub fn anywhere(&self) -> bool {
        self.0.chars().count() >= 3
    }

    /// The names this matches, ranked: those it is the whole of first, then those with a
    /// word that starts with it, then the others, each in the order of what follows it; the
    /// first `limit` of them, as a query of `match_key`, `whole` (1 or 0), `at` and `part`,
    /// from placeholder `?n` on, and its parameters.
    fn ranked(&self, n: usize, limit: u32) -> (String, Vec<Param>) {
        // Every string that starts with the query sorts from it to it followed by the last
        // code point (byte order is code point order in UTF-8).
        let end = format!("{}{}", self.0, char::MAX);
        let mut cond = format!("n.part >= ?{n} AND n.part < ?{}", n + 1);
        if !self.anywhere() {
            cond += &format!(" AND n.at < {}", At::Inside as u8);
        }
        let whole = At::Name as u8;
        // Only names with a listed game: a name of unlisted or deleted games alone is neither
        // shown nor given one of the places.
        let sql = format!(
            "SELECT n.match_key, max(CASE WHEN n.at = {whole} AND n.part = ?{n} THEN 1 ELSE 0 END) AS whole,
                    min(n.at) AS at, min(n.part) AS part
             FROM name_parts n WHERE {cond}
               AND EXISTS (SELECT 1 FROM players p JOIN games g ON g.seq = p.game
                           WHERE p.match_key = n.match_key AND g.listed)
             GROUP BY n.match_key ORDER BY whole DESC, at, part, n.match_key LIMIT {limit}"
        );
        (sql, vec![Param::Text(self.0.clone()), Param::Text(end)])
    }
}

/// The players a search by part of a name takes the games of, at most: the first so many of
/// the names it matches, ranked ([`Typed`]). A query that matches every name (one letter, or
/// what every name holds) then costs what 100 players' games cost, not the whole table's.
pub const PLAYERS_SEARCHED: u32 = 100;

/// A name a typed one matches, as [`names_like`] ranks them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matched {
    pub key: String,
    /// The typed name is this whole name (folded).
    pub whole: bool,
    /// The name its newest listed game recorded; `None` when it has no listed game left.
    pub listed_as: Option<String>,
}

/// The first `limit` names `typed` matches, ranked ([`Typed`]), each with the name its newest
/// listed game recorded: what the home page searches and names. Bounded: the index finds and
/// ranks the names, and `limit` of them are looked up.
pub fn names_like(typed: &Typed, limit: u32) -> Query {
    let (ranked, params) = typed.ranked(1, limit);
    let sql = format!(
        "SELECT k.match_key, k.whole,
                (SELECT p.name FROM players p JOIN games g ON g.seq = p.game
                 WHERE p.match_key = k.match_key AND g.listed ORDER BY p.game DESC LIMIT 1)
         FROM ({ranked}) k ORDER BY k.whole DESC, k.at, k.part, k.match_key"
    );
    Query { sql, params }
}

/// Whose games a search asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Whose {
    /// One player, as a player page names them.
    One(Who),
    /// The players of these match keys: those a name typed in the home page's search finds
    /// ([`names_like`]). Keys, not a subquery: the planners then see how few they are
    /// (PostgreSQL ran a subquery's ranking again for each game it walked newest first, 750 to
    /// 900 ms for one letter at 100,000 games).
    Keys(Vec<String>),
}

impl Whose {
    /// The condition on players row `p`, from placeholder `?n` on, and its parameters.
    fn condition(&self, p: &str, n: usize) -> (String, Vec<Param>) {
        match self {
            Whose::One(who) => {
                let (cond, param) = who.condition(p, n);
                (cond, vec![param])
            }
            Whose::Keys(keys) if keys.is_empty() => ("1 = 0".to_string(), vec![]),
            Whose::Keys(keys) => {
                let marks: Vec<String> = (n..n + keys.len()).map(|i| format!("?{i}")).collect();
                let params = keys.iter().map(|k| Param::Text(k.clone())).collect();
                (format!("{p}.match_key IN ({})", marks.join(", ")), params)
            }
        }
    }
}

/// What the home page's search asks: every filter is optional, and all must hold.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Search {
    /// A player of the game.
    pub player: Option<Whose>,
    /// Another player of the same game (head to head).
    pub opponent: Option<Who>,
    pub kind: Option<GameKind>,
    /// The rulebook's name (`GameRow::preset`).
    pub rules: Option<String>,
    /// Uploaded on or after this day (UTC).
    pub from: Option<chrono::NaiveDate>,
    /// Uploaded on or before this day (UTC).
    pub until: Option<chrono::NaiveDate>,
}

/// A query parameter, bound by each store its own way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Param {
    Text(String),
    Int(i64),
}

/// SQL with `?N` placeholders (PostgreSQL's store makes them `$N`) and its parameters.
#[derive(Clone, Debug)]
pub struct Query {
    pub sql: String,
    pub params: Vec<Param>,
}

impl Search {
    /// The condition on listed games `g` this search asks, and its parameters.
    pub fn condition(&self) -> Query {
        let mut params = Vec::new();
        let mut clauses = vec!["g.listed".to_string()];
        let opponent = self.opponent.clone().map(Whose::One);
        for whose in [&self.player, &opponent].into_iter().flatten() {
            let (cond, more) = whose.condition("p", params.len() + 1);
            params.extend(more);
            clauses.push(format!("g.seq IN (SELECT p.game FROM players p WHERE {cond})"));
        }
        let mut add = |sql: &dyn Fn(usize) -> String, param: Param| {
            params.push(param);
            clauses.push(sql(params.len()));
        };
        if let Some(kind) = self.kind {
            add(&|n| format!("g.kind = ?{n}"), Param::Text(kind.name().to_string()));
        }
        if let Some(rules) = &self.rules {
            add(&|n| format!("g.preset = ?{n}"), Param::Text(rules.clone()));
        }
        if let Some(from) = self.from {
            add(&|n| format!("g.created_at >= ?{n}"), Param::Text(from.to_string()));
        }
        if let Some(next) = self.until.and_then(|d| d.succ_opt()) {
            add(&|n| format!("g.created_at < ?{n}"), Param::Text(next.to_string()));
        }
        Query {
            sql: clauses.join(" AND "),
            params,
        }
    }
}

/// Match keys of stored seats after `?1` whose names the search's index lacks, in order, `?2`
/// of them: what the start indexes.
pub const UNINDEXED_NAMES: &str =
    "SELECT k.match_key FROM (SELECT DISTINCT match_key FROM players WHERE match_key > ?1) k
     WHERE NOT EXISTS (SELECT 1 FROM name_parts n WHERE n.match_key = k.match_key)
     ORDER BY k.match_key LIMIT ?2";

/// A player's results over their listed games (with `against`: only the games they played
/// against that player), as the player pages show them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerStats {
    /// The names the player's seats were recorded with, most used first (a few of them).
    pub names: Vec<String>,
    pub games: u64,
    /// Games played to their final scoring: what places, wins, scores and points count.
    pub finished: u64,
    pub wins: u64,
    /// Finished games by place, first place first.
    pub places: Vec<(u32, u64)>,
    pub average_score: Option<f64>,
    /// Seats of opponents in the finished games: what the opponents' points are averaged by.
    pub opponent_seats: u64,
    /// Points by category in the finished games, most first: the player's and their opponents'.
    pub categories: Vec<CategoryPoints>,
    /// The player's biggest single scorings, biggest first.
    pub best: Vec<(super::GameId, Scoring)>,
    /// The player's analysed games with a valued move, oldest first.
    pub analysed: Vec<AnalysedGame>,
    /// The player's mistakes and blunders by kind of move, most first.
    pub mistakes: Vec<(String, u64)>,
    /// The player's own puzzles: how many, and how many of them the player found in play.
    pub puzzle_count: u64,
    pub puzzles_found: u64,
    /// A few of them: those missed first, then the newest.
    pub puzzles: Vec<GamePuzzle>,
    /// The kinds of tile that scored most for the player when they placed them, most first.
    pub tiles: Vec<TileRecord>,
}

/// One of a player's own puzzles, with its game and the game's players.
#[derive(Clone, Debug, PartialEq)]
pub struct GamePuzzle {
    pub game: GameId,
    pub players: Vec<String>,
    pub puzzle: SeatPuzzle,
}

/// A kind of tile over a player's games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TileRecord {
    pub kind: GameKind,
    pub tile: String,
    /// A game of the player's with this tile, to draw it from (tile names are their game's).
    pub example: GameId,
    pub score: TileScore,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CategoryPoints {
    pub category: String,
    pub points: i64,
    pub opponents: i64,
}

/// The player's seats in listed games: `FROM` and `WHERE` of the statistics' queries (players
/// `p` joined to games `g`), and their parameters.
fn seats_of(who: &Who, against: Option<&Who>) -> Query {
    let (cond, param) = who.condition("p", 1);
    let mut sql = format!("FROM players p JOIN games g ON g.seq = p.game WHERE g.listed AND {cond}");
    let mut params = vec![param];
    if let Some(other) = against {
        let (cond, param) = other.condition("o", 2);
        sql += &format!(" AND p.game IN (SELECT o.game FROM players o WHERE {cond} AND o.seat <> p.seat)");
        params.push(param);
    }
    Query { sql, params }
}

/// The queries of a player's statistics, each over their seats ([`seats_of`]'s `FROM` and
/// parameters): what [`PlayerStats`] is read from.
pub struct StatsQueries {
    /// Games, finished, wins, the average score, the opponents' seats.
    pub totals: Query,
    pub places: Query,
    pub categories: Query,
    pub best: Query,
    pub names: Query,
    pub analysed: Query,
    pub mistakes: Query,
    /// How many puzzles, and how many found.
    pub puzzle_count: Query,
    pub puzzles: Query,
    pub tiles: Query,
}

/// The statistics' queries for `who` (against `against`).
pub fn stats_queries(who: &Who, against: Option<&Who>) -> StatsQueries {
    let Query { sql: from, params } = seats_of(who, against);
    let q = |sql: String| Query {
        sql,
        params: params.clone(),
    };
    StatsQueries {
        totals: q(format!(
            "SELECT count(*), count(*) FILTER (WHERE p.finished), count(*) FILTER (WHERE p.finished AND p.place = 1),
                    CAST(avg(p.score) FILTER (WHERE p.finished) AS DOUBLE PRECISION),
                    CAST(coalesce(sum((SELECT count(*) - 1 FROM players s WHERE s.game = p.game)) FILTER (WHERE p.finished), 0) AS BIGINT)
             {from}"
        )),
        places: q(format!(
            "SELECT CAST(p.place AS BIGINT), count(*) {from} AND p.finished GROUP BY p.place ORDER BY p.place"
        )),
        categories: q(format!(
            "SELECT c.category, CAST(sum(CASE WHEN c.seat = p.seat THEN c.points ELSE 0 END) AS BIGINT),
                    CAST(sum(CASE WHEN c.seat <> p.seat THEN c.points ELSE 0 END) AS BIGINT)
             {from} AND p.finished AND c.game = p.game GROUP BY c.category ORDER BY 2 DESC, 1"
        ))
        .joined("player_points c"),
        best: q(format!(
            "SELECT g.id, CAST(p.best_points AS BIGINT), CAST(p.best_turn AS BIGINT), p.best_what
             {from} AND p.best_points > 0 ORDER BY p.best_points DESC, g.created_at DESC, g.seq DESC LIMIT 5"
        )),
        names: q(format!(
            "SELECT p.name {from} GROUP BY p.name ORDER BY count(*) DESC, p.name LIMIT 5"
        )),
        analysed: q(format!(
            "SELECT g.id, g.kind, g.created_at, CAST(a.moves AS BIGINT), a.accuracy, CAST(a.inaccuracies AS BIGINT),
                    CAST(a.mistakes AS BIGINT), CAST(a.blunders AS BIGINT)
             {from} AND a.game = p.game AND a.seat = p.seat AND a.moves > 0 ORDER BY g.created_at, g.seq"
        ))
        .joined("player_analyses a"),
        mistakes: q(format!(
            "SELECT m.kind, CAST(sum(m.count) AS BIGINT)
             {from} AND m.game = p.game AND m.seat = p.seat GROUP BY m.kind ORDER BY 2 DESC, 1"
        ))
        .joined("player_mistakes m"),
        puzzle_count: q(format!(
            "SELECT count(*), count(*) FILTER (WHERE z.found)
             {from} AND z.game = p.game AND z.seat = p.seat"
        ))
        .joined("player_puzzles z"),
        puzzles: q(format!(
            "SELECT g.id, CAST(z.turn AS BIGINT), z.found, z.lead, g.players
             {from} AND z.game = p.game AND z.seat = p.seat
             ORDER BY z.found, g.created_at DESC, g.seq DESC, z.turn LIMIT {PUZZLES_SHOWN}"
        ))
        .joined("player_puzzles z"),
        tiles: q(format!(
            "SELECT g.kind, t.tile, min(g.id), CAST(sum(t.placed) AS BIGINT), CAST(sum(t.points) AS BIGINT)
             {from} AND t.game = p.game AND t.seat = p.seat
             GROUP BY g.kind, t.tile HAVING sum(t.points) > 0 ORDER BY 5 DESC, 4, 2 LIMIT {TILES_SHOWN}"
        ))
        .joined("player_tiles t"),
    }
}

/// How many of a player's puzzles and tiles the statistics list.
const PUZZLES_SHOWN: u32 = 12;
const TILES_SHOWN: u32 = 6;

impl Query {
    /// The query with another table in its `FROM`.
    fn joined(mut self, table: &str) -> Query {
        self.sql = self
            .sql
            .replacen("FROM players p", &format!("FROM {table}, players p"), 1);
        self
    }
}

/// Finished analyses whose seats have no analysis rows, after `seq`, oldest first: what the
/// start fills (`web::startup`).
pub const ANALYSED_WITHOUT_SEATS: &str = "SELECT g.seq, g.id FROM games g JOIN analyses a ON a.game = g.seq
     WHERE g.seq > ?1 AND a.status = 'done'
       AND EXISTS (SELECT 1 FROM players p WHERE p.game = g.seq)
       AND NOT EXISTS (SELECT 1 FROM player_analyses s WHERE s.game = g.seq)
     ORDER BY g.seq LIMIT ?2";

/// What a stored game's seats can miss, having been stored by an earlier release: what the
/// start fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Missing {
    /// Every row: the game was stored before the players table.
    Seats,
    /// The tile rows: the game was stored before them.
    Tiles,
}

impl Missing {
    /// The games after `?1` missing this, oldest first, `?2` of them (the walk goes on from
    /// the last one read, so a game whose rows cannot be made is not read again).
    pub fn sql(self) -> String {
        match self {
            Missing::Seats => WITHOUT_PLAYERS.to_string(),
            Missing::Tiles => without_tiles(),
        }
    }
}

/// Tile games whose seats have no tile rows, after `seq`, oldest first. A game with no turn
/// has none to fill.
fn without_tiles() -> String {
    let kinds: Vec<String> = (GameKind::ALL.into_iter())
        .filter(|k| k.places_tiles())
        .map(|k| format!("'{}'", k.name()))
        .collect();
    let kinds = kinds.join(", ");
    format!(
        "SELECT seq, id FROM games g WHERE seq > ?1 AND g.turns > 0 AND g.kind IN ({kinds})
           AND EXISTS (SELECT 1 FROM players p WHERE p.game = g.seq)
           AND NOT EXISTS (SELECT 1 FROM player_tiles t WHERE t.game = g.seq)
         ORDER BY seq LIMIT ?2"
    )
}

/// Games with no players rows, after `seq`, oldest first. A live game has none until it is
/// over (`Backend::write_live`).
const WITHOUT_PLAYERS: &str = "SELECT seq, id FROM games g WHERE seq > ?1 AND NOT g.live
       AND NOT EXISTS (SELECT 1 FROM players p WHERE p.game = g.seq)
     ORDER BY seq LIMIT ?2";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cards::CardGame;
    use crate::record::GameRecord;
    use crate::record::Record;
    use crate::replay::cards::{EventJson, MoveJson};
    use crate::store::snapshot::StoredEvent;
    use crate::store::snapshot::tiles::StoredMove;

    #[test]
    fn names_match_across_case_and_unicode_forms() {
        assert_eq!(match_key("Zoë"), match_key("ZOË"));
        // A decomposed ë (e + combining diaeresis) is the composed one.
        assert_eq!(match_key("Zoe\u{308}"), match_key("Zoë"));
        // Full-width letters are their plain forms under NFKC.
        assert_eq!(match_key("ＡＮＮＡ"), "anna");
        assert_ne!(match_key("Zoë"), match_key("Zoe"));
    }

    #[test]
    fn folding_drops_case_accents_and_unicode_forms() {
        for name in ["Chloé", "CHLOE", "chloe", "Chloe\u{301}", "ＣＨＬＯＥ", " Chlöe "] {
            assert_eq!(fold(name), "chloe", "{name:?}");
        }
        assert_eq!(fold("Łukasz Ørsted"), "lukasz orsted");
        assert_eq!(fold("Straße"), "strasse");
        // Letters without accents stay as they are, whatever their script.
        assert_eq!(fold("Ζωή"), "ζωη");
        assert_eq!(fold("김민수"), "김민수");
        assert_eq!(fold("\u{301}"), "");
    }

    /// Every suffix of the folded name, each once, and where it starts.
    #[test]
    fn a_name_is_indexed_by_its_suffixes() {
        let parts = name_parts("ann-kith b");
        let at = |part: &str| parts.iter().find(|p| p.part == part).map(|p| p.at);
        assert_eq!(parts.len(), "ann-kith b".len());
        assert_eq!(at("ann-kith b"), Some(At::Name));
        assert_eq!(at("kith b"), Some(At::Word));
        assert_eq!(at("b"), Some(At::Word));
        assert_eq!(at("ith b"), Some(At::Inside));
        assert_eq!(at("-kith b"), Some(At::Inside));
        assert!(parts.iter().all(|p| p.key == "ann-kith b"));
        // Folded: an accented name is found without its accents.
        assert_eq!(name_parts("zoé")[0].part, "zoe");
        // Nothing left once folded: one empty part, which counts the name as indexed.
        assert_eq!(
            name_parts("\u{301}").iter().map(|p| &p.part[..]).collect::<Vec<_>>(),
            [""]
        );
    }

    /// One or two characters match the start of a word; three or more, anywhere. The range of
    /// a part ends past every string that starts with it.
    #[test]
    fn short_queries_match_the_start_of_a_word() {
        let (short, _) = Typed::new("Ki").unwrap().ranked(1, 5);
        let (long, params) = Typed::new("KITH").unwrap().ranked(1, 5);
        assert!(short.contains("AND n.at < 2\n"), "{short}");
        assert!(!long.contains("AND n.at"), "{long}");
        assert_eq!(params[0], Param::Text("kith".into()));
        let Param::Text(end) = &params[1] else { panic!() };
        assert!(end.as_str() > "kith\u{10fffe}" && end.as_str() > "kithara" && end.as_str() < "kiti");
        assert_eq!(Typed::new(" \u{301} "), None);
    }

    /// The players of no key match nothing (`IN ()` is no SQL).
    #[test]
    fn no_keys_match_no_game() {
        let none = Search {
            player: Some(Whose::Keys(vec![])),
            ..Search::default()
        };
        assert_eq!(
            none.condition().sql,
            "g.listed AND g.seq IN (SELECT p.game FROM players p WHERE 1 = 0)"
        );
        let two = Whose::Keys(vec!["a".into(), "b".into()]).condition("p", 3);
        assert_eq!(two.0, "p.match_key IN (?3, ?4)");
    }

    fn game(scores: Vec<i32>, finished: bool) -> GameRow {
        GameRow {
            id: super::super::GameId::of("a game"),
            kind: GameKind::Carcassonne,
            record: String::new(),
            source_format: String::new(),
            players: vec!["Ann".into(), "Bob".into(), "Cy".into()],
            preset: "second-edition".into(),
            turns: 1,
            finished,
            final_scores: scores,
            created_at: String::new(),
            listed: true,
            owner: None,
            live: false,
        }
    }

    /// Turn 4, Ann's: she placed `tile`, and `events` followed.
    fn turn(tile: &str, events: &[StoredEvent], scores: &[i32]) -> Snapshot<GameRecord> {
        Snapshot {
            turn: 4,
            player: 0,
            mv: StoredMove(tile.into(), 0, 1, 90, None),
            events: events.to_vec(),
            scores: scores.to_vec(),
            supply: Vec::new(),
            ownership: Vec::new(),
        }
    }

    /// A city of Ann's and Bob's scored, `points` each.
    fn shared_city(points: u32) -> StoredEvent {
        let text = format!(
            r#"{{"type": "scored", "feature": "city", "reason": "completed", "location": "N", "players": [0, 1],
                 "points": {points}, "meeples": [1, 1, 0], "tiles": 3, "shields": 0, "cities": 0, "position": [0, 1]}}"#
        );
        serde_json::from_str(&text).unwrap()
    }

    /// Tied players share a place, and the next one down counts the players above: 10, 10, 5
    /// is first, first, third.
    #[test]
    fn ties_share_a_place() {
        let seats = seats::<GameRecord>(&game(vec![10, 10, 5], true), &[], &[]);
        let places: Vec<u32> = seats.iter().map(|s| s.place).collect();
        assert_eq!(places, [1, 1, 3]);
    }

    /// A city shared by two players scores for both; what the final scoring added is `final`.
    #[test]
    fn points_by_category_come_from_the_scored_events_and_the_final_scores() {
        let returned: StoredEvent = serde_json::from_str(
            r#"{"type": "meeple_returned", "player": 0, "figure": "follower", "position": [0, 1], "location": "N"}"#,
        )
        .unwrap();
        let shared = turn("D", &[shared_city(8), returned], &[8, 8, 0]);
        let seats = seats(
            &game(vec![12, 8, 0], true),
            std::slice::from_ref(&shared),
            &[Some(7), None],
        );
        assert_eq!(seats[0].points, BTreeMap::from([("city".into(), 8), (FINAL.into(), 4)]));
        assert_eq!(seats[1].points, BTreeMap::from([("city".into(), 8)]));
        assert!(seats[2].points.is_empty());
        assert_eq!(
            seats[0].best,
            Scoring {
                points: 8,
                turn: 4,
                what: "city".into()
            }
        );
        assert_eq!((seats[0].bga_id, seats[1].bga_id), (Some(7), None));
        // Unfinished, the last scores are the scores, and nothing is final scoring.
        let open = super::seats(&game(vec![], false), &[shared], &[]);
        assert_eq!(open.iter().map(|s| s.score).collect::<Vec<_>>(), [8, 8, 0]);
        assert!(!open[0].points.contains_key(FINAL));
    }

    /// A tile counts for whoever placed it, with what its placement scored for them: a shared
    /// city closed by Ann's tile counts for Ann's tile, not for Bob's.
    #[test]
    fn tiles_count_what_their_placement_scored_for_who_placed_them() {
        let closing = turn("D", &[shared_city(8)], &[8, 8, 0]);
        let quiet = Snapshot {
            player: 1,
            ..turn("E", &[], &[8, 8, 0])
        };
        let seats = seats(
            &game(vec![8, 8, 0], true),
            &[closing.clone(), quiet.clone(), closing],
            &[],
        );
        let d = TileScore { placed: 2, points: 16 };
        assert_eq!(seats[0].tiles, BTreeMap::from([("D".into(), d)]));
        let e = TileScore { placed: 1, points: 0 };
        assert_eq!(seats[1].tiles, BTreeMap::from([("E".into(), e)]));
        assert!(seats[2].tiles.is_empty());
        // The Card Game places no tile: its seats count none.
        let scored: EventJson = serde_json::from_str(
            r#"{"type": "scored", "players": [1], "category": "road", "points": 5, "explanation": "5 road"}"#,
        )
        .unwrap();
        let action = MoveJson::Follower { row: "road".into() };
        let cards = Snapshot::<Record<CardGame>> {
            turn: 4,
            player: 1,
            mv: action,
            events: vec![scored],
            scores: vec![0, 5],
            supply: Vec::new(),
            ownership: Vec::new(),
        };
        let cards = super::seats(
            &GameRow {
                kind: GameKind::CardGame,
                ..game(vec![0, 5], true)
            },
            &[cards],
            &[],
        );
        assert!(cards.iter().all(|s| s.tiles.is_empty()));
        assert_eq!(cards[1].points, BTreeMap::from([("road".into(), 5)]));
    }

    #[test]
    fn bga_ids_are_told_from_names() {
        assert_eq!(Who::parse("bga:8412"), Who::Bga(8412));
        assert_eq!(Who::parse("bga:x"), Who::Name("bga:x".into()));
        assert_eq!(Who::parse("Anna"), Who::Name("anna".into()));
    }
}
