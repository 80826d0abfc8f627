//! Lines: moves played on from a turn of a game, on the explore board, in a notation short
//! enough to live in an address (`/docs/pages#the-explore-board`). A line is steps joined by `~`.
//!
//! A tile-game step is `[tile@]x,y,rotation[,meeple]`:
//! - `x,y` is the square and `rotation` the tile's turn in degrees (0, 90, 180, 270);
//! - the meeple is `feature-location` (`city-N`, `field-N.w`, `cloister-center`), with
//!   `-abbot` for the abbot, or `abbot-back` to take the abbot back; none places no figure;
//! - `tile@` names the tile drawn. It is left out when the tile is the game's own draw, as it
//!   is while the line follows the game; once the line has left the game's moves, every step
//!   names its tile.
//!
//! The last step may be `tile@` alone: that tile drawn, not placed yet.
//!
//! A Card Game step is `card,row` (`red-3,road`, `animal-joker,farm`), `follower,row`, `keep`
//! or `turn-in`; the deals are the game's, so no step names one.
//!
//! This module reads and writes the notation only; whether a line's moves are legal is for the
//! engine to say when it is played (`replay::explore_tiles`). Errors never quote the address: it is
//! the reader's, not ours to echo.

use super::RecordedAction;
use crate::engine::cards::{Card, CardMove, Colour};
use crate::engine::{FeatureKind, Figure, Location, Placement, Pos, Rotation, TileCatalog, TileKindId};
use std::convert::Infallible;
use std::fmt::{self, Write as _};

/// Steps a line may have: more than any game has turns, few enough to bound a request's work.
pub const MAX_STEPS: usize = 200;

/// One placement of a tile-game line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileStep {
    /// The tile drawn, when the step names it (see the module doc).
    pub tile: Option<TileKindId>,
    pub placement: Placement,
    pub action: RecordedAction,
}

/// A line of any game: its moves, then maybe a draw not played yet. `D` is what is drawn
/// between moves: a tile in the tile games ([`TileLine`]). The Card Game's lines are
/// `Line<CardMove>`: its deals are the game's, so no line draws (`Infallible`: never a draw).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<S, D = Infallible> {
    pub steps: Vec<S>,
    pub draw: Option<D>,
}

impl<S, D> Line<S, D> {
    /// The line of these moves, drawing nothing after them.
    pub fn of(steps: Vec<S>) -> Line<S, D> {
        Line { steps, draw: None }
    }
}

impl<S, D> Default for Line<S, D> {
    fn default() -> Line<S, D> {
        Line::of(Vec::new())
    }
}

/// A tile-game line: its placements, then maybe a tile drawn and not placed yet.
pub type TileLine = Line<TileStep, TileKindId>;

/// Why a line cannot be read: the step (from 1) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("step {step} of the line: {problem}")]
pub struct LineError {
    pub step: usize,
    pub problem: LineProblem,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineProblem {
    #[error("a line has at most {MAX_STEPS} steps")]
    TooLong,
    #[error("the step is empty (two `~` in a row?)")]
    Empty,
    #[error("a step is x,y,rotation with an optional meeple (such as 0,-1,90,city-N)")]
    Shape,
    #[error("a square is two whole numbers, x,y")]
    Square,
    #[error("a rotation is 0, 90, 180 or 270 degrees")]
    Rotation,
    #[error("a meeple is feature-location (such as city-N or field-N.w), with -abbot for the abbot, or abbot-back")]
    Meeple,
    #[error("no tile of this game has that name")]
    Tile,
    #[error("only the last step may name a tile drawn without placing it")]
    DrawNotLast,
    #[error("a Card Game step is card,row (such as red-3,road), follower,row, keep or turn-in")]
    CardStep,
    #[error("no card has that name (such as red-3, blue-building, green-animal, dragon, animal-joker)")]
    Card,
    #[error("a row is cloister, road, farm or city")]
    Row,
}

/// The steps of `text`, each with its number from 1; an empty text has none.
fn steps(text: &str) -> Result<impl Iterator<Item = (usize, &str)>, LineError> {
    let text = text.trim();
    let count = if text.is_empty() { 0 } else { text.split('~').count() };
    if count > MAX_STEPS {
        return Err(LineError {
            step: MAX_STEPS + 1,
            problem: LineProblem::TooLong,
        });
    }
    Ok(text
        .split('~')
        .filter(move |_| count > 0)
        .enumerate()
        .map(|(i, s)| (i + 1, s)))
}

impl TileLine {
    /// A step's meeple as the notation writes it; empty for none.
    pub fn meeple(action: &RecordedAction) -> String {
        match action {
            RecordedAction::Pass => String::new(),
            RecordedAction::RecallAbbot => "abbot-back".into(),
            RecordedAction::Deploy { feature, at, figure } => match figure {
                Figure::Abbot => format!("{feature}-{at}-abbot"),
                Figure::Follower => format!("{feature}-{at}"),
            },
        }
    }

    /// Reads a line of a game whose tiles are `catalog`'s.
    pub fn parse(text: &str, catalog: &TileCatalog) -> Result<TileLine, LineError> {
        let mut line = TileLine::default();
        let mut all = steps(text)?.peekable();
        while let Some((step, s)) = all.next() {
            let err = |problem| LineError { step, problem };
            let (tile, rest) = match s.rsplit_once('@') {
                Some((name, rest)) => {
                    let name = unescape(name).ok_or(err(LineProblem::Tile))?;
                    (Some(catalog.by_name(&name).ok_or(err(LineProblem::Tile))?), rest)
                }
                None => (None, s),
            };
            if rest.is_empty() && tile.is_some() {
                if all.peek().is_some() {
                    return Err(err(LineProblem::DrawNotLast));
                }
                line.draw = tile;
                break;
            }
            let (placement, action) = parse_placement(rest).map_err(err)?;
            line.steps.push(TileStep {
                tile,
                placement,
                action,
            });
        }
        Ok(line)
    }

    /// The line as the notation writes it, tile names from `catalog`.
    pub fn write(&self, catalog: &TileCatalog) -> String {
        let mut out = String::new();
        for s in &self.steps {
            if !out.is_empty() {
                out.push('~');
            }
            if let Some(tile) = s.tile {
                let _ = write!(out, "{}@", escape(catalog.name(tile)));
            }
            let p = s.placement;
            let _ = write!(out, "{},{},{}", p.pos.x, p.pos.y, p.rotation.degrees());
            if s.action != RecordedAction::Pass {
                let _ = write!(out, ",{}", TileLine::meeple(&s.action));
            }
        }
        if let Some(tile) = self.draw {
            if !out.is_empty() {
                out.push('~');
            }
            let _ = write!(out, "{}@", escape(catalog.name(tile)));
        }
        out
    }
}

/// `x,y,rotation[,meeple]`.
fn parse_placement(s: &str) -> Result<(Placement, RecordedAction), LineProblem> {
    let parts: Vec<&str> = s.split(',').collect();
    let (x, y, rotation, meeple) = match parts.as_slice() {
        [x, y, r] => (x, y, r, None),
        [x, y, r, m] => (x, y, r, Some(*m)),
        _ => return Err(LineProblem::Shape),
    };
    let pos = match (x.parse::<i32>(), y.parse::<i32>()) {
        (Ok(x), Ok(y)) => Pos::new(x, y),
        _ => return Err(LineProblem::Square),
    };
    let rotation = match rotation.parse::<u16>() {
        Ok(d @ (0 | 90 | 180 | 270)) => Rotation::from_degrees(i64::from(d)).ok_or(LineProblem::Rotation)?,
        _ => return Err(LineProblem::Rotation),
    };
    let action = meeple.map_or(Ok(RecordedAction::Pass), parse_meeple)?;
    Ok((Placement { pos, rotation }, action))
}

fn parse_meeple(m: &str) -> Result<RecordedAction, LineProblem> {
    if m == "abbot-back" {
        return Ok(RecordedAction::RecallAbbot);
    }
    let (figure, m) = match m.strip_suffix("-abbot") {
        Some(m) => (Figure::Abbot, m),
        None => (Figure::Follower, m),
    };
    let (feature, at) = m.split_once('-').ok_or(LineProblem::Meeple)?;
    match (FeatureKind::parse(feature), Location::parse(at)) {
        (Some(feature), Some(at)) => Ok(RecordedAction::Deploy { feature, at, figure }),
        _ => Err(LineProblem::Meeple),
    }
}

/// The characters the notation gives a meaning, written `%XX` in a tile's name; so are spaces
/// and controls, which an address would mangle.
fn escape(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if matches!(c, '%' | '@' | '~' | ',') || c.is_whitespace() || c.is_control() {
            for b in c.to_string().bytes() {
                let _ = write!(out, "%{b:02X}");
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn unescape(name: &str) -> Option<String> {
    let mut bytes = Vec::with_capacity(name.len());
    let mut rest = name.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        if b == b'%' {
            let hex = std::str::from_utf8(tail.get(..2)?).ok()?;
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
            rest = &tail[2..];
        } else {
            bytes.push(b);
            rest = tail;
        }
    }
    String::from_utf8(bytes).ok()
}

impl std::str::FromStr for Line<CardMove> {
    type Err = LineError;

    fn from_str(text: &str) -> Result<Line<CardMove>, LineError> {
        let mut moves = Vec::new();
        for (step, s) in steps(text)? {
            moves.push(parse_card_step(s).map_err(|problem| LineError { step, problem })?);
        }
        Ok(Line::of(moves))
    }
}

fn parse_card_step(s: &str) -> Result<CardMove, LineProblem> {
    match s {
        "" => return Err(LineProblem::Empty),
        "keep" => return Ok(CardMove::WrongRow { keep: true }),
        "turn-in" => return Ok(CardMove::WrongRow { keep: false }),
        _ => {}
    }
    let (what, row) = s.split_once(',').ok_or(LineProblem::CardStep)?;
    let row = Colour::ALL
        .into_iter()
        .find(|c| c.word() == row)
        .ok_or(LineProblem::Row)?;
    if what == "follower" {
        return Ok(CardMove::Follower { row });
    }
    let card = Card::parse(&what.replace('-', " ")).ok_or(LineProblem::Card)?;
    Ok(CardMove::Play { card, row })
}

impl fmt::Display for Line<CardMove> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, mv) in self.steps.iter().enumerate() {
            if i > 0 {
                f.write_char('~')?;
            }
            match mv {
                CardMove::Play { card, row } => write!(f, "{},{}", card.to_string().replace(' ', "-"), row.word())?,
                CardMove::Follower { row } => write!(f, "follower,{}", row.word())?,
                CardMove::WrongRow { keep: true } => f.write_str("keep")?,
                CardMove::WrongRow { keep: false } => f.write_str("turn-in")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalog() -> std::sync::Arc<TileCatalog> {
        TileCatalog::builtin()
    }

    #[test]
    fn a_tile_line_reads_and_writes_the_same() {
        let cat = catalog();
        for text in [
            "",
            "0,-1,90",
            "0,-1,90,city-N~1,0,0,field-N.w",
            "2,0,270,cloister-center-abbot~E@-3,4,180,abbot-back~V@",
            "D@",
        ] {
            let line = TileLine::parse(text, &cat).unwrap();
            assert_eq!(line.write(&cat), text);
        }
        let line = TileLine::parse("E@1,2,90,road-W~U@", &cat).unwrap();
        assert_eq!(line.steps[0].tile, cat.by_name("E"));
        assert_eq!(line.steps[0].placement.pos, Pos::new(1, 2));
        assert_eq!(line.draw, cat.by_name("U"));
    }

    #[test]
    fn a_bad_step_is_named_by_its_number_and_never_quoted() {
        let cat = catalog();
        for (text, step, problem) in [
            ("0,0,90~1,1", 2, LineProblem::Shape),
            ("0,x,90", 1, LineProblem::Square),
            ("0,0,45", 1, LineProblem::Rotation),
            ("0,0,90,city", 1, LineProblem::Meeple),
            ("0,0,90,<script>-N", 1, LineProblem::Meeple),
            ("NOPE@0,0,90", 1, LineProblem::Tile),
            ("E@~0,0,0", 1, LineProblem::DrawNotLast),
            ("0,0,0~~0,1,0", 2, LineProblem::Shape),
        ] {
            let err = TileLine::parse(text, &cat).unwrap_err();
            assert_eq!((err.step, err.problem), (step, problem), "{text}");
            assert!(!err.to_string().contains("script"));
        }
        let long = vec!["0,0,0"; MAX_STEPS + 1].join("~");
        assert_eq!(TileLine::parse(&long, &cat).unwrap_err().problem, LineProblem::TooLong);
    }

    #[test]
    fn tile_names_with_the_notations_characters_are_escaped() {
        for name in ["our-farm", "a@b~c,d", "50% off", "é"] {
            assert_eq!(unescape(&escape(name)).as_deref(), Some(name));
            assert!(!escape(name).contains(['@', '~', ',', ' ']));
        }
        assert_eq!(unescape("%4"), None);
    }

    #[test]
    fn a_card_line_reads_and_writes_the_same() {
        let text = "red-3,road~follower,city~animal-joker,farm~blue-building,cloister~keep~turn-in~dragon,road";
        let line: Line<CardMove> = text.parse().unwrap();
        assert_eq!(
            line.steps[0],
            CardMove::Play {
                card: Card::Person {
                    colour: Colour::Road,
                    value: 3
                },
                row: Colour::Road
            }
        );
        assert_eq!(line.to_string(), text);
        for (text, problem) in [
            ("red-4,road", LineProblem::Card),
            ("red-3,sky", LineProblem::Row),
            ("red-3", LineProblem::CardStep),
        ] {
            assert_eq!(text.parse::<Line<CardMove>>().unwrap_err().problem, problem, "{text}");
        }
    }
}
