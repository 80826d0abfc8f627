//! What the pages show, computed from a replay: events in words, the scoreboard, the score
//! graph, the remaining tiles and the final breakdown. Templates only lay these out.
//!
//! A turn page shows the game as of that turn and nothing later: a shared link must not give
//! the ending away. Only the end page shows final scoring.

use crate::analysis::win_chance::{MoveClass, TurnChance};
use crate::engine::Position;
use crate::engine::tileset::NEW_WORLD_SAMPLE;
use crate::engine::{Event, FeatureKind, Figure, Game, GameKind, Location, Reason, Score, TileCatalog};
use crate::record::{GameRecord, PlayerInfo};
use crate::render::PlayerColours;
use crate::replay::{Replay, Replays, Turn, TurnSnapshot, words};
use std::fmt::Write as _;

pub struct PlayerView {
    pub name: String,
    pub colour: String,
    pub score: i32,
    /// What the player holds back, in the game's terms: followers in the tile games ("6 +
    /// abbot"), the hand in the Card Game ("4 cards, follower to place").
    pub held: String,
    /// The score if the game ended now (after final scoring: the score itself).
    pub if_ended: i32,
}

/// What each game says its own way on the pages that are written once for every game: its
/// players' colours and scoreboard, its events, its breakdown, and its turns in brief. One
/// implementation per record: the tile games' here, the Card Game's in `card_view`.
pub trait GameWords: Replays {
    /// The rules in words, expansions included, as the game's pages say them under its name.
    fn rules_label(&self) -> String;
    /// The rules as the list of games says them, where no game's name is shown.
    fn listed_rules(&self) -> String {
        self.rules_label()
    }
    fn players(&self) -> &[PlayerInfo];
    fn colours(&self) -> PlayerColours;
    fn players_at(&self, game: &Self::Position, finished: bool, colours: &PlayerColours) -> Vec<PlayerView>;
    fn event_sentences(&self, events: &[<Self::Position as Position>::Event]) -> Vec<String>;
    fn breakdown_rows(&self, full: &Replay<Self::Position>, colours: &PlayerColours) -> Vec<BreakdownRow>;
    /// The move of a turn in brief, for the turn list: the tile placed, the card played.
    fn move_brief(&self, t: &Turn<Self::Position>) -> String;
    /// The move of a turn in a sentence, under its picture: who did what.
    fn move_sentence(&self, t: &Turn<Self::Position>) -> String;
    /// The start in a sentence, where no move is made yet.
    fn start(&self) -> &'static str;
    /// What is set out at the start, in words.
    fn start_sentences(&self, position: &Self::Position) -> Vec<String>;
    /// What the game's picture shows: "board", "table".
    fn picture_word(&self) -> &'static str;
    /// The points each player scored in a turn.
    fn scored(&self, t: &Turn<Self::Position>) -> Vec<(u8, u32)>;
    /// The rulebook as the API names it (`second-edition`, `card-game`), and the rules in words
    /// where the rulebook is one of several with options (the tile games).
    fn api_rules(&self) -> (&'static str, Option<String>);
    /// Who won, ties included, where the API says it (the Card Game, whose ties are common).
    fn winners(&self, full: &Replay<Self::Position>) -> Option<Vec<u8>> {
        let _ = full;
        None
    }
}

impl GameWords for GameRecord {
    fn rules_label(&self) -> String {
        crate::record::rules_spec::label(&self.resolved_rules())
    }

    fn players(&self) -> &[PlayerInfo] {
        &self.players
    }

    fn colours(&self) -> PlayerColours {
        crate::render::colours(self)
    }

    fn players_at(&self, game: &Game, finished: bool, colours: &PlayerColours) -> Vec<PlayerView> {
        players_at(self, game, finished, colours)
    }

    fn event_sentences(&self, events: &[Event]) -> Vec<String> {
        event_sentences(self, events)
    }

    fn breakdown_rows(&self, full: &Replay, colours: &PlayerColours) -> Vec<BreakdownRow> {
        breakdown_rows(self, full, colours)
    }

    fn move_brief(&self, t: &TurnSnapshot) -> String {
        self.setup.catalog.name(t.mv.tile).to_string()
    }

    fn move_sentence(&self, t: &TurnSnapshot) -> String {
        format!(
            "{} placed {} at {} rotated {}°",
            self.players[t.player as usize].name,
            self.setup.catalog.name(t.mv.tile),
            t.mv.placement.pos,
            t.mv.placement.rotation
        )
    }

    fn start(&self) -> &'static str {
        "The start, before the first turn"
    }

    fn start_sentences(&self, game: &Game) -> Vec<String> {
        start_sentences(self, game)
    }

    fn picture_word(&self) -> &'static str {
        "board"
    }

    fn scored(&self, t: &TurnSnapshot) -> Vec<(u8, u32)> {
        tile_points(t).collect()
    }

    fn api_rules(&self) -> (&'static str, Option<String>) {
        (self.resolved_rules().preset.name(), Some(self.rules_label()))
    }
}

/// The class of turn `turn`'s move that the pages mark (an inaccuracy, a mistake, a blunder),
/// from `chances`: none for a good move or a turn without a chance.
pub fn marked_class(chances: &[TurnChance], turn: u32) -> Option<MoveClass> {
    let chance = chances.iter().find(|c| c.turn == turn)?;
    Some(chance.chance.class).filter(|&k| k != MoveClass::Good)
}

/// The turns reached (`played`), in brief for the turn list: who did what and scored what,
/// marked with the classes of `chances`.
pub fn turns_played<G: GameWords>(g: &G, played: &[Turn<G::Position>], chances: &[TurnChance]) -> Vec<TurnPlayed> {
    let names: Vec<&str> = g.players().iter().map(|p| p.name.as_str()).collect();
    (played.iter())
        .map(|t| TurnPlayed {
            player: names[t.player as usize].to_string(),
            seat: t.player,
            what: g.move_brief(t),
            points: points_text(&names, g.scored(t).into_iter()),
            class: marked_class(chances, t.turn),
        })
        .collect()
}

/// The board picture of a page.
pub struct BoardView {
    /// The board drawn inline, to point at (the tile games' turn pages); else `src` is shown.
    pub svg: Option<String>,
    pub src: String,
    pub alt: String,
    pub caption: String,
}

impl BoardView {
    /// The picture drawn for a dark page (`prefers-color-scheme: dark`).
    pub fn dark_src(&self) -> String {
        self.with("theme=dark")
    }

    /// The picture at 128 pixels a tile: the larger view a phone can zoom into without the
    /// page's script.
    pub fn large_src(&self) -> String {
        self.with("size=128")
    }

    fn with(&self, option: &str) -> String {
        let join = if self.src.contains('?') { '&' } else { '?' };
        format!("{}{join}{option}", self.src)
    }
}

/// The score graph of a page, drawn, with its heading.
pub struct GraphView {
    pub title: &'static str,
    pub svg: String,
}

/// One entry of the turn list. Turns after the one shown keep only their number.
pub struct TurnLink {
    pub n: u32,
    /// Player, colour, move and points; `None` for a turn not reached yet.
    pub played: Option<TurnPlayed>,
    pub current: bool,
    /// The round this turn opens, in games played in rounds (the Card Game).
    pub opens_round: Option<u8>,
    /// The start of the owner's comment on this turn (`annotation_view::mark`).
    pub comment: Option<String>,
}

pub struct TurnPlayed {
    pub player: String,
    /// The player's seat: the turn list colours its dot by it, from one rule per player
    /// rather than a style on each of up to a hundred turns.
    pub seat: u8,
    /// The move in brief: the tile placed, the card played.
    pub what: String,
    pub points: String,
    /// The move's class when a finished analysis found it an inaccuracy or worse.
    pub class: Option<crate::analysis::win_chance::MoveClass>,
}

pub struct BreakdownRow {
    pub name: String,
    pub colour: String,
    /// Points per category, then their sum: during play, then at the end.
    pub play: Vec<u32>,
    pub end: Vec<u32>,
    pub total: i32,
    /// The game's counts per player (tiles placed and meeples used; cards played and taken),
    /// under the page's `count_labels`.
    pub counts: [u32; 2],
}

fn names(record: &GameRecord) -> Vec<&str> {
    record.players.iter().map(|p| p.name.as_str()).collect()
}

/// "Ada and Bruno" for a set of players.
fn who(record: &GameRecord, s: &Score) -> String {
    let n = names(record);
    let list: Vec<String> = s.players.iter().map(|p| n[p as usize].to_string()).collect();
    if list.is_empty() {
        return "nobody".into();
    }
    and_list(&list)
}

/// A scoring in words: "Ada scores 10: city of 4 tiles × 2 + 1 shield × 2".
pub fn score_sentence(record: &GameRecord, s: &Score) -> String {
    let when = match s.reason {
        Reason::Completed => "completed",
        Reason::Incomplete => "incomplete at the end",
        Reason::AbbotRecalled => "abbot taken back",
        Reason::Farm => "farmers at the end",
    };
    if s.players.len() > 1 {
        format!(
            "{} score {} each (tie): {} ({when})",
            who(record, s),
            s.points,
            words::explanation(s)
        )
    } else {
        format!(
            "{} scores {}: {} ({when})",
            who(record, s),
            s.points,
            words::explanation(s)
        )
    }
}

/// Every event of a turn in words. In New World a surveyor's move and the settlers it leaves
/// behind are one sentence: "A surveyor moves west from column 0 to column -1; Dora's robber
/// and Farid's 2 shopkeepers, east of the surveyors, go home".
pub fn event_sentences(record: &GameRecord, events: &[Event]) -> Vec<String> {
    let n = names(record);
    let cat = &record.setup.catalog;
    let mut out = Vec::new();
    let mut i = 0;
    while i < events.len() {
        let e = &events[i];
        i += 1;
        let sentence = match e {
            Event::TileDiscarded { player, tile } => {
                format!(
                    "{} draws {}, which fits nowhere: it is discarded and {0} draws again",
                    n[*player as usize],
                    cat.name(*tile)
                )
            }
            Event::TilePlaced {
                player,
                tile,
                pos,
                rotation,
            } => {
                format!(
                    "{} places {} at {pos}, rotated {rotation}°",
                    n[*player as usize],
                    cat.name(*tile)
                )
            }
            Event::MeepleDeployed {
                player,
                figure,
                feature,
                location,
                ..
            } => {
                let what = words::with_article(words::figure_on(*figure, *feature));
                let place = words::place(*feature);
                match location {
                    Location::Center => format!("{} puts {what} {place}", n[*player as usize]),
                    _ => format!("{} puts {what} {place} ({location})", n[*player as usize]),
                }
            }
            Event::Scored(s) => score_sentence(record, s),
            Event::MeepleReturned {
                player,
                figure,
                feature,
                left_behind: false,
                ..
            } => {
                let what = words::figure_on(*figure, *feature);
                format!("{}'s {what} returns to supply", n[*player as usize])
            }
            Event::MeepleReturned { left_behind: true, .. } => {
                i -= 1;
                left_behind(&n, events, &mut i).unwrap_or_default()
            }
            Event::SurveyorMoved { from, to } => {
                let moved = format!(
                    "A surveyor moves west from {} to {}",
                    words::column(*from),
                    words::column(*to)
                );
                match left_behind(&n, events, &mut i) {
                    Some(home) => format!("{moved}; {home}"),
                    None => moved,
                }
            }
        };
        out.push(sentence);
    }
    out
}

/// The settlers the surveyors leave behind, from `events[*i]` on, in words ("Dora's robber
/// and Farid's 2 shopkeepers, east of the surveyors, go home"), if any; `*i` moves past them.
fn left_behind(names: &[&str], events: &[Event], i: &mut usize) -> Option<String> {
    let mut who: Vec<(u8, FeatureKind, u32)> = Vec::new();
    while let Some(Event::MeepleReturned {
        player,
        feature,
        left_behind: true,
        ..
    }) = events.get(*i)
    {
        match who.iter_mut().find(|(p, f, _)| p == player && f == feature) {
            Some((_, _, k)) => *k += 1,
            None => who.push((*player, *feature, 1)),
        }
        *i += 1;
    }
    if who.is_empty() {
        return None;
    }
    let settlers: Vec<String> = (who.iter())
        .map(|&(p, feature, k)| {
            let word = words::figure_on(Figure::Follower, feature);
            let what = if k == 1 {
                word.to_string()
            } else {
                format!("{k} {word}s")
            };
            format!("{}'s {what}", names[p as usize])
        })
        .collect();
    let total: u32 = who.iter().map(|w| w.2).sum();
    Some(format!(
        "{}, east of the surveyors, {}",
        and_list(&settlers),
        if total == 1 { "goes home" } else { "go home" }
    ))
}

/// "A", "A and B", "A, B and C".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// What a New World page says of its tiles: the printed tile list is not public, so a game
/// is played on tiles its record brings, and ours (`our-…`) are a sample set made for this
/// project. Other games: nothing.
pub fn tiles_notice(record: &GameRecord) -> Option<&'static str> {
    if record.setup.game != GameKind::NewWorld {
        return None;
    }
    let ours = (record.setup.custom_tiles.iter()).any(|t| NEW_WORLD_SAMPLE.iter().any(|(name, ..)| *name == t.name));
    Some(if ours {
        "The our-… tiles are a sample set made for this project, not the printed New World tiles (their list is not public)."
    } else {
        "This game is played on the tiles its record brings: the printed New World tile list is not public."
    })
}

/// The settlers turn `events` sends home as the surveyors move on, each with the surveyor's
/// move that left them behind, in words; empty when none.
pub fn left_behind_sentences(record: &GameRecord, events: &[Event]) -> Vec<String> {
    let left_behind = |e: Option<&Event>| matches!(e, Some(Event::MeepleReturned { left_behind: true, .. }));
    let kept: Vec<Event> = (events.iter().enumerate())
        .filter(|&(i, e)| match e {
            Event::SurveyorMoved { .. } => left_behind(events.get(i + 1)),
            _ => left_behind(Some(e)),
        })
        .map(|(_, e)| e.clone())
        .collect();
    event_sentences(record, &kept)
}

/// The start position in words: which tiles lie on the table before the first turn.
pub fn start_sentences(record: &GameRecord, game: &Game) -> Vec<String> {
    game.board()
        .tiles()
        .iter()
        .map(|t| {
            format!(
                "The game starts with {} at {}, rotated {}°",
                record.setup.catalog.name(t.kind),
                t.pos,
                t.rotation
            )
        })
        .collect()
}

/// "Ada +4, Bruno +4": who scored what in a turn.
pub fn points_text(names: &[&str], scored: impl Iterator<Item = (u8, u32)>) -> String {
    scored
        .map(|(p, points)| format!("{} +{points}", names[p as usize]))
        .collect::<Vec<_>>()
        .join(", ")
}

fn tile_points(t: &TurnSnapshot) -> impl Iterator<Item = (u8, u32)> + '_ {
    t.events.iter().flat_map(|e| match e {
        Event::Scored(s) => s.players.iter().map(|p| (p, s.points)).collect(),
        _ => Vec::new(),
    })
}

/// Every turn of the game by number; `played` (the turns reached) also say who played what.
pub fn turn_links(played: Vec<TurnPlayed>, turns: u32, current: Option<u32>) -> Vec<TurnLink> {
    let mut played = played.into_iter();
    (1..=turns)
        .map(|turn| TurnLink {
            n: turn,
            played: played.next(),
            current: current == Some(turn),
            opens_round: None,
            comment: None,
        })
        .collect()
}

/// The scoreboard of a position: each player's score, what they hold back (`held`), and what
/// they would have if the game ended there (`finished`: final scoring has run, so that is the
/// score itself).
pub fn scoreboard<P: Position>(
    players: &[PlayerInfo],
    game: &P,
    finished: bool,
    colours: &PlayerColours,
    held: impl Fn(usize) -> String,
) -> Vec<PlayerView> {
    let mut ended = game.clone();
    if !finished {
        ended.finish(&mut Vec::new());
    }
    let (now, then) = (game.scores(), ended.scores());
    (players.iter().enumerate())
        .map(|(i, p)| PlayerView {
            name: p.name.clone(),
            colour: colours.get(i as u8).hex(),
            score: now[i],
            held: held(i),
            if_ended: then[i],
        })
        .collect()
}

/// The tile game's scoreboard: followers in supply, and the abbot when it is home.
pub fn players_at(record: &GameRecord, game: &Game, finished: bool, colours: &PlayerColours) -> Vec<PlayerView> {
    scoreboard(&record.players, game, finished, colours, |i| {
        let p = &game.players()[i];
        if game.rules().abbot && p.abbot_at.is_none() {
            format!("{} + abbot", p.followers)
        } else {
            p.followers.to_string()
        }
    })
}

/// Tiles still in the pack, as (name, count), in catalogue order.
pub fn remaining_tiles(cat: &TileCatalog, game: &Game) -> Vec<(String, u8)> {
    game.pack()
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(i, n)| (cat.name(crate::engine::TileKindId(i as u16)).to_string(), *n))
        .collect()
}

/// Points by category for each player, play and end each with their sum, and the game's two
/// counts per player (`counts`).
pub fn breakdown<P: Position>(
    players: &[PlayerInfo],
    full: &Replay<P>,
    colours: &PlayerColours,
    counts: impl Fn(usize) -> [u32; 2],
) -> Vec<BreakdownRow> {
    let row = |c: &crate::replay::Categories<P::Category>| c.iter().map(|(_, p)| p).chain([c.total()]).collect();
    (full.breakdown.iter().enumerate())
        .map(|(i, b)| BreakdownRow {
            name: players[i].name.clone(),
            colour: colours.get(i as u8).hex(),
            play: row(&b.play),
            end: row(&b.end),
            total: full.final_scores[i],
            counts: counts(i),
        })
        .collect()
}

/// The tile game's breakdown, with the tiles each player placed and the meeples they used.
pub fn breakdown_rows(record: &GameRecord, full: &Replay, colours: &PlayerColours) -> Vec<BreakdownRow> {
    breakdown(&record.players, full, colours, |i| {
        let mine = || full.turns.iter().filter(move |t| t.player as usize == i);
        let deployed = mine().filter(|t| matches!(t.mv.action, crate::engine::Action::Deploy { .. }));
        [mine().count() as u32, deployed.count() as u32]
    })
}

/// What the score graph draws.
pub struct GraphInput<'a, P: Position = Game> {
    pub id: &'a crate::store::GameId,
    /// The turns to draw, from the first: up to the turn shown, never beyond.
    pub turns: &'a [Turn<P>],
    /// All turns of the game, which sets the width of the x axis.
    pub total_turns: u32,
    /// Scores after final scoring, drawn as a last step on the end page.
    pub final_scores: Option<&'a [i32]>,
    /// The turn marked with a line.
    pub current: u32,
}

/// The score-over-time graph as inline SVG: a line per player up to the turn shown, a marker
/// per scoring turn that links to that turn, and on the end page a last step for final scoring.
pub fn score_graph<P: Position>(players: &[PlayerInfo], g: &GraphInput<P>, colours: &PlayerColours) -> String {
    let (w, h, pad) = (640.0, 220.0, 28.0);
    let turns = g.total_turns.max(1) as f64;
    let shown = g
        .turns
        .iter()
        .flat_map(|t| t.scores.iter())
        .chain(g.final_scores.into_iter().flatten());
    let top = shown.copied().max().unwrap_or(0).max(10) as f64;
    let x = |t: f64| Tenths::of(pad + (w - 2.0 * pad) * t / (turns + 1.0));
    let y = |s: i32| Tenths::of(h - pad - (h - 2.0 * pad) * s as f64 / top);
    let mut svg = format!(
        r#"<svg class="graph" viewBox="0 0 {w} {h}" role="img" aria-label="Scores over the game"><rect x="{pad}" y="{pad}" width="{}" height="{}" class="frame"/>"#,
        w - 2.0 * pad,
        h - 2.0 * pad
    );
    let _ = write!(
        svg,
        r#"<line x1="{0}" x2="{0}" y1="{pad}" y2="{1}" class="now"/><text x="{pad}" y="{2}" class="axis">{3}</text><text x="{4}" y="{5}" class="axis">end</text>"#,
        x(g.current as f64),
        h - pad,
        pad - 8.0,
        top as i32,
        Tenths::of(f64::from(x(turns + 1.0)) - 10.0),
        h - 8.0
    );
    for (p, player) in players.iter().enumerate() {
        let colour = colours.get(p as u8).hex();
        let name = escape_html(&player.name);
        let mut line = vec![(x(0.0), y(0))];
        let mut last = 0;
        let mut markers = String::new();
        for t in g.turns {
            let s = t.scores[p];
            let (tx, ty) = (x(t.turn as f64), y(s));
            line.push((tx, ty));
            if s != last {
                let _ = write!(
                    markers,
                    r#"<a href="{href}"><circle cx="{tx}" cy="{ty}" r="3.5" fill="{colour}"><title>{name}: {s} after turn {n}</title></circle></a>"#,
                    href = super::links::turn(g.id, t.turn),
                    n = t.turn,
                );
            }
            last = s;
        }
        if let Some(end) = g.final_scores {
            line.push((x(turns + 1.0), y(end[p])));
        }
        let points = polyline_points(&line);
        let _ = write!(
            svg,
            r#"<polyline class="casing" points="{points}"/><polyline class="line" stroke="{colour}" points="{points}"/>{markers}"#
        );
    }
    svg + "</svg>"
}

/// A polyline's points, `x,y` apart by spaces, without the points inside a level run: a score
/// stays level over most turns, and each point kept is a turn page's bytes.
fn polyline_points(line: &[(Tenths, Tenths)]) -> String {
    let mut points = String::new();
    for (i, (x, y)) in line.iter().enumerate() {
        let level = |j: Option<usize>| j.and_then(|j| line.get(j)).is_some_and(|(_, other)| other.0 == y.0);
        if level(i.checked_sub(1)) && level(Some(i + 1)) {
            continue;
        }
        let space = if points.is_empty() { "" } else { " " };
        let _ = write!(points, "{space}{x},{y}");
    }
    points
}

/// A coordinate rounded to tenths, written as `12.3`. Formatting floats with `{:.1}` is
/// slow, and a score graph writes hundreds of them on every turn page.
#[derive(Clone, Copy)]
struct Tenths(i64);

impl Tenths {
    fn of(v: f64) -> Tenths {
        Tenths((v * 10.0).round() as i64)
    }
}

impl From<Tenths> for f64 {
    fn from(t: Tenths) -> f64 {
        t.0 as f64 / 10.0
    }
}

impl std::fmt::Display for Tenths {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        write!(f, "{sign}{}.{}", self.0.abs() / 10, self.0.abs() % 10)
    }
}

/// Player names go into the hand-built SVG, so they are escaped here; templates escape the rest.
fn escape_html(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// Points as the pages show them: estimates with one decimal, always.
pub fn points(x: f64) -> String {
    format!("{x:.1}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::win_chance::MoveChance;

    /// The turn list says who placed which tile and what it scored, and marks a turn with its
    /// move's class once the analysis gives it one; a good move, or a turn with no chance,
    /// carries none.
    #[test]
    fn the_turn_list_marks_each_turn_with_its_class() {
        let text = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/static/games/demo-second-edition.json"
        ))
        .unwrap();
        let record = crate::record::parse(&text).unwrap().0;
        // As a loaded game replays it (`web::loaded`): once, its positions kept.
        let (full, _) = crate::replay::Replays::replay_keeping(&record).unwrap();
        let chance = |turn: u32, class: MoveClass| TurnChance {
            turn,
            player: full.turns[turn as usize - 1].player,
            chance: MoveChance {
                after: 0.5,
                lost: 0.1,
                class,
                points_lost: 5.0,
            },
        };
        let chances = [
            chance(1, MoveClass::Good),
            chance(2, MoveClass::Blunder),
            chance(4, MoveClass::Mistake),
        ];
        let played = turns_played(&record, &full.turns[..5], &chances);
        let classes: Vec<Option<MoveClass>> = played.iter().map(|p| p.class).collect();
        assert_eq!(
            classes,
            [None, Some(MoveClass::Blunder), None, Some(MoveClass::Mistake), None]
        );
        let first = &played[0];
        assert_eq!(first.player, record.players[usize::from(full.turns[0].player)].name);
        assert_eq!(first.what, record.setup.catalog.name(full.turns[0].mv.tile));
    }
}
