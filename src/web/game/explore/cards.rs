//! The explore board of the Card Game: the table after the line, the mover's hand, and each
//! legal action a link that plays it.

use super::{
    Asked, EngineAnswer, ExploreAnswer, ExplorePage, ExplorePart, Explored, LineStep, MoveAnswer, PositionAnswer,
    bad_line, engine_answer, explore_problem, position_at, then,
};
use crate::engine::Position;
use crate::engine::cards::{CardGame, CardMove};
use crate::record::Record;
use crate::record::{Line, LineError};
use crate::render::Theme;
use crate::render::cards::{colours, table_svg};
use crate::replay::cards::move_text;
use crate::replay::{Explore, ExploreError, explore_cards_from};

/// A Card Game line played from a turn, with who made each of its moves.
type LinePlayed = Explore<Line<CardMove>, CardGame, Vec<u8>>;
use crate::web::AppState;
use crate::web::card_view;
use crate::web::links;
use crate::web::loaded::Stored;
use crate::web::problem::Problem;

/// The Card Game's part of the explore board ([`super::ExplorePart`]).
pub struct View {
    /// The table, with the mover's hand.
    pub table: String,
    /// Every legal action, each a link to the line with it played, grouped by what is played.
    pub moves: Vec<MoveGroup>,
    /// The mover's hand in words.
    pub hand: String,
    /// "Round 2 of 4".
    pub round: String,
}

/// The actions that play one card (or the follower): a link for each row it may go to.
pub struct MoveGroup {
    /// "green 1", "follower", or the whole action when it goes to no row.
    pub what: String,
    pub moves: Vec<MoveLink>,
}

pub struct MoveLink {
    /// The row, or the whole action.
    pub words: String,
    /// The row's colour, for the link's swatch.
    pub row: Option<&'static str>,
    pub href: String,
}

/// The legal actions grouped by what they play, each a link `after(action)`.
pub(crate) fn grouped(moves: &[CardMove], after: &dyn Fn(&CardMove) -> String) -> Vec<MoveGroup> {
    let mut out: Vec<MoveGroup> = Vec::new();
    for mv in moves {
        let (what, row) = match mv {
            CardMove::Play { card, row } => (card.to_string(), Some(*row)),
            CardMove::Follower { row } => ("follower".to_string(), Some(*row)),
            CardMove::WrongRow { .. } => (move_text(mv), None),
        };
        let link = MoveLink {
            words: row.map_or_else(|| move_text(mv), |r| format!("{} row", r.word())),
            row: row.map(|r| r.colour_word()),
            href: after(mv),
        };
        match out.last_mut().filter(|g| g.what == what && row.is_some()) {
            Some(group) => group.moves.push(link),
            None => out.push(MoveGroup {
                what,
                moves: vec![link],
            }),
        }
    }
    out
}

struct Walked {
    line: String,
    steps: Vec<LineStep>,
    followed: usize,
    at: usize,
    /// The line shown, with who made each of its moves.
    shown: LinePlayed,
    /// The line before the move due, in notation.
    base: String,
}

/// `line` played from the game's kept position of turn `n`: nothing is replayed.
fn explore(g: &Stored<Record<CardGame>>, n: u32, line: &Line<CardMove>) -> Result<LinePlayed, Problem> {
    let explored = match g.positions.before(n) {
        Some(start) => explore_cards_from(&g.record, start, n, line),
        None => Err(ExploreError::NoSuchTurn {
            turn: n,
            turns: g.record.moves.len() as u32,
        }),
    };
    explored.map_err(|e| explore_problem(&e, &g.record.players))
}

fn walk(g: &Stored<Record<CardGame>>, n: u32, asked: &Asked) -> Result<Walked, Problem> {
    let record = &g.record;
    let line: Line<CardMove> = asked.line.parse().map_err(|e: LineError| bad_line(e.to_string()))?;
    let whole = explore(g, n, &line)?;
    let len = whole.line.steps.len();
    let at = position_at(asked.at, len)?;
    let name = |p: u8| record.players.get(usize::from(p)).map_or("?", |p| p.name.as_str());
    let steps = (whole.line.steps.iter().zip(&whole.facts).enumerate())
        .map(|(i, (mv, &p))| LineStep {
            turn: n + i as u32,
            words: format!("{}: {}", name(p), move_text(mv)),
            played: i < whole.followed,
        })
        .collect();
    let prefix = Line::of(whole.line.steps[..at].to_vec());
    let (line, base, followed) = (whole.line.to_string(), prefix.to_string(), whole.followed);
    let shown = if at == len { whole } else { explore(g, n, &prefix)? };
    Ok(Walked {
        line,
        steps,
        followed,
        at,
        shown,
        base,
    })
}

pub(crate) fn legal(game: &CardGame) -> Vec<CardMove> {
    let mut moves = Vec::new();
    if !game.is_over() {
        game.legal_moves(&mut moves);
    }
    moves
}

/// A move as the notation writes it.
pub(crate) fn step(mv: &CardMove) -> String {
    Line::<CardMove>::of(vec![*mv]).to_string()
}

fn think(game: &CardGame, turn: u32, before: &str) -> EngineAnswer {
    let opinion = crate::analysis::card_opinion(game, turn, crate::analysis::ENGINE_BUDGET);
    EngineAnswer::of(&opinion, before, step, move_text)
}

/// The engine's answer for the position shown, kept or thought now.
fn engine(
    state: &AppState,
    g: &Stored<Record<CardGame>>,
    n: u32,
    w: &Walked,
    asked: &Asked,
) -> Result<Option<std::sync::Arc<EngineAnswer>>, Problem> {
    if w.shown.game.is_over() {
        return Ok(None);
    }
    let turn = n + w.at as u32;
    engine_answer(state, (&g.row, n, &w.base), asked, || {
        Ok(think(&w.shown.game, turn, &w.base))
    })
}

/// The explore board's page for a Card Game.
pub fn card_page(
    state: &AppState,
    g: &Stored<Record<CardGame>>,
    n: u32,
    asked: &Asked,
) -> Result<ExplorePage, Problem> {
    let (record, id) = (&g.record, g.row.id);
    let w = walk(g, n, asked)?;
    let game = &w.shown.game;
    let over = game.is_over();
    let mover = (!over).then(|| Position::current_player(game));
    let engine = engine(state, g, n, &w, asked)?;
    let after = |mv: &CardMove| links::explore(id, n, &then(&w.base, &step(mv)), None);
    let part = ExplorePart::Cards(View {
        table: table_svg(record, game, Theme::Light, &|p| Some(p) == mover),
        moves: grouped(&legal(game), &after),
        hand: mover
            .map(|p| card_view::list(&game.players()[usize::from(p)].hand))
            .unwrap_or_default(),
        round: format!("Round {} of {}", (game.round() + 1).min(game.rounds()), game.rounds()),
    });
    let explored = Explored {
        line: w.line,
        at: w.at,
        steps: w.steps,
        mover,
        players: card_view::players_at(record, game, over, &colours(record)),
        over,
        engine,
        engine_due: !over,
        comment_line: w.base.clone(),
    };
    let context = (n, g.record.annotations.as_slice(), asked.owner);
    Ok(ExplorePage::new(g.head(state)?, context, explored, part))
}

/// The explore board's answer in JSON for a Card Game; the engine thinks if it has not.
pub fn card_answer(
    state: &AppState,
    g: &Stored<Record<CardGame>>,
    n: u32,
    asked: &Asked,
) -> Result<ExploreAnswer, Problem> {
    let (record, id) = (&g.record, g.row.id);
    let w = walk(g, n, asked)?;
    let game = &w.shown.game;
    let over = game.is_over();
    let mover = (!over).then(|| Position::current_player(game));
    let engine = engine(state, g, n, &w, asked)?;
    let scoreboard = card_view::players_at(record, game, over, &colours(record));
    Ok(ExploreAnswer {
        game: id.to_string(),
        turn: n,
        url: links::explore(id, n, &w.line, (w.at < w.steps.len()).then_some(w.at)),
        position: PositionAnswer {
            turn: n + w.at as u32,
            player: mover,
            player_name: mover.map(|p| g.player_name(p)),
            scores: scoreboard.iter().map(|p| p.score).collect(),
            if_ended: scoreboard.iter().map(|p| p.if_ended).collect(),
            over,
            drawn: None,
            tiles_left: None,
        },
        moves: (legal(game).iter()).map(|mv| MoveAnswer { step: step(mv) }).collect(),
        choices: Vec::new(),
        engine: engine.map(|a| (*a).clone()),
        line: w.line,
        at: w.at,
        before: w.base,
        followed: w.followed,
    })
}
