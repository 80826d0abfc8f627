//! The explore board of the tile games: the board after the line, the drawn tile to put on
//! it as a puzzle's is (a link per square it fits, the meeple steps in a form), the tiles to
//! choose from once the line has left the game, the tile tracker, and the engine's best moves
//! drawn as ghosts.

use super::{
    Asked, EngineAnswer, ExploreAnswer, ExplorePage, ExplorePart, Explored, GhostAt, LineStep, MoveAnswer,
    PositionAnswer, TileChoiceAnswer, bad_line, engine_answer, explore_problem, position_at, then,
};
use crate::analysis::{self, BoardFeature, report::ActionReport};
use crate::engine::tileset::is_river_tile;
use crate::engine::{Edge, FeatureKind, Game, GameKind, Move, Pos, Rotation, Side, TileKind, TileKindId};
use crate::record::TileLine;
use crate::record::{GameRecord, RecordedMove, move_text, recorded};
use crate::render;
use crate::replay::{ExploreError, NextDraw, TileExplore, explore_tiles_from, tiles_fitting_nowhere, tiles_to_draw};
use crate::web::AppState;
use crate::web::board_view::{self, DrawnTile, EngineGhost, PuzzleTile};
use crate::web::links;
use crate::web::loaded::Stored;
use crate::web::problem::Problem;
use crate::web::tracker_view::Tracker;
use crate::web::tracker_view::tile_turn_view;
use crate::web::view;

/// The tile games' part of the explore board ([`super::ExplorePart`]).
pub struct View {
    /// The board, inline, to point at and to put the drawn tile on.
    pub board: String,
    pub drawn: Option<DrawnView>,
    /// The tiles to choose the next draw from, once the line has left the game's moves, and
    /// the line they follow: one form holds it, where a link per tile would repeat it (a long
    /// line times hundreds of custom tiles made a page of megabytes).
    pub choices: Vec<TileGroup>,
    pub choose_after: String,
    /// Tiles left that fit nowhere, by name: drawn at a table, each is discarded.
    pub fitting_nowhere: Vec<String>,
    /// Moves in the record, discards included: a live game numbers its next one after them.
    pub moves: u32,
    pub tracker: Tracker,
}

/// The tile drawn, and the form that places it.
pub struct DrawnView {
    pub name: String,
    pub picture: String,
    /// Whether it is the game's own draw.
    pub own: bool,
    pub form: PlaceForm,
}

/// The drawn tile where the reader put it, and its meeple steps, each the line it makes.
pub struct PlaceForm {
    /// Hidden until a square is chosen (the page's script fills it in then).
    pub shown: bool,
    pub square: String,
    pub rotation: u16,
    /// The link that turns the tile to the next rotation that fits.
    pub turn_href: String,
    /// The line before the move, for the script: a step is written after it.
    pub base: String,
    pub meeples: Vec<MeepleChoice>,
}

pub struct MeepleChoice {
    /// The whole line with this move played.
    pub value: String,
    pub words: String,
    pub checked: bool,
}

/// A tile the reader may choose to draw.
pub struct TileChoice {
    pub name: String,
    /// Its name as the line notation writes it (escaped), the form's `draw`.
    pub draw: String,
    pub picture: String,
    pub copies: u8,
    /// The tile the game drew at this turn.
    pub own: bool,
}

/// Tiles to draw that look alike at a glance: a heading ("Two city sides") and its tiles.
pub struct TileGroup {
    pub heading: String,
    pub tiles: Vec<TileChoice>,
}

/// Where a tile kind sorts among the groups a player scans for the tile in their hand: the
/// river, then cloisters, then by how many sides are city, and the group's heading.
fn group_of(kind: &TileKind, city: &str) -> (u8, String) {
    if is_river_tile(kind) {
        return (0, "The river".into());
    }
    if kind.has(FeatureKind::Cloister) {
        return (1, "Cloisters".into());
    }
    let o = kind.oriented(Rotation::new(0));
    let sides = Side::ALL.into_iter().filter(|&s| o.edge(s) == Edge::City).count();
    let heading = match sides {
        0 => format!("No {city} side"),
        1 => format!("One {city} side"),
        2 => format!("Two {city} sides"),
        n => format!("{} {city} sides", if n == 3 { "Three" } else { "Four" }),
    };
    (2 + sides as u8, heading)
}

/// A line asked of a tile game: played whole, to check and write it, and to the step shown.
struct Walked {
    line: String,
    steps: Vec<LineStep>,
    /// How many of the line's first steps are the game's own moves.
    followed: usize,
    at: usize,
    /// The line to the step shown, the next draw with it.
    shown: TileExplore,
}

fn walk(g: &Stored<GameRecord>, n: u32, asked: &Asked) -> Result<Walked, Problem> {
    let record = &g.record;
    let cat = &record.setup.catalog;
    let line = TileLine::parse(&asked.line, cat).map_err(|e| bad_line(e.to_string()))?;
    let whole = explored(g, n, &line)?;
    let len = whole.line.steps.len();
    let at = position_at(asked.at, len)?;
    let steps = (whole.facts.played.iter().enumerate())
        .map(|(i, m)| LineStep {
            turn: n + i as u32,
            words: step_words(record, m),
            played: i < whole.followed,
        })
        .collect();
    let written = whole.line.write(cat);
    let followed = whole.followed;
    let shown = if at == len {
        whole
    } else {
        let prefix = TileLine {
            steps: whole.line.steps[..at].to_vec(),
            draw: whole.line.steps[at].tile,
        };
        explored(g, n, &prefix)?
    };
    Ok(Walked {
        line: written,
        steps,
        followed,
        at,
        shown,
    })
}

/// "Ada: tile U at (0,1) rotated 90 with a meeple on the road at E".
fn step_words(record: &GameRecord, m: &RecordedMove) -> String {
    let player = match m {
        RecordedMove::Place { player, .. } | RecordedMove::Discard { player, .. } => *player,
    };
    let name = player
        .and_then(|p| record.players.get(usize::from(p)))
        .map_or("?", |p| p.name.as_str());
    format!("{name}: {}", move_text(record, m))
}

/// What a move after the line shown is written after: the line before it, without the tile
/// drawn; and the tile's name to write with the step (`T@`), unless it is the game's own draw.
fn before_move(shown: &TileExplore, cat: &crate::engine::TileCatalog) -> (String, String) {
    let line = TileLine {
        steps: shown.line.steps.clone(),
        draw: None,
    };
    let drawn = TileLine {
        steps: Vec::new(),
        draw: shown.line.draw,
    };
    (line.write(cat), drawn.write(cat))
}

/// A move as a step: the drawn tile's name when written (`T@`), the square, the rotation and
/// the meeple.
fn step(tile_at: &str, pos: Pos, rotation: u16, meeple: &str) -> String {
    let mut s = format!("{tile_at}{},{},{rotation}", pos.x, pos.y);
    if !meeple.is_empty() {
        s.push(',');
        s.push_str(meeple);
    }
    s
}

/// `line` played from the game's kept position after turn `n - 1`: nothing is replayed.
pub fn explored(g: &Stored<GameRecord>, n: u32, line: &TileLine) -> Result<TileExplore, Problem> {
    let explored = match n.checked_sub(1).and_then(|before| g.after(before)) {
        Some(start) => explore_tiles_from(&g.record, start, n, line),
        None => Err(ExploreError::NoSuchTurn {
            turn: n,
            turns: g.record.turns(),
        }),
    };
    explored.map_err(|e| explore_problem(&e, &g.record.players))
}

/// The explore board's page for a tile game.
pub fn tile_page(state: &AppState, g: &Stored<GameRecord>, n: u32, asked: &Asked) -> Result<ExplorePage, Problem> {
    let (record, id) = (&g.record, g.row.id);
    let w = walk(g, n, asked)?;
    let shown = &w.shown;
    let (before, tile_at) = before_move(shown, &record.setup.catalog);
    let at = PageAt {
        g,
        n,
        w: &w,
        features: analysis::board_features(&shown.game),
        before: &before,
        tile_at: &tile_at,
    };
    let turn = n + w.at as u32;
    let engine = match shown.facts.next {
        NextDraw::Drawn(tile) => engine_for(state, (g, n, shown), tile, asked, (&before, &tile_at))?,
        NextDraw::Choose | NextDraw::Over => None,
    };
    let colours = render::colours(record);
    let (board, drawn) = match shown.facts.next {
        NextDraw::Drawn(tile) => {
            let (board, drawn) = at.drawn_board(tile, engine.as_deref(), asked)?;
            (board, Some(drawn))
        }
        NextDraw::Choose | NextDraw::Over => {
            let colour = colours.get(shown.game.current_player());
            (
                board_view::explore_board(record, (shown.facts.replay.reached(), &at.features), None, &[], colour),
                None,
            )
        }
    };
    let choices = match shown.facts.next {
        NextDraw::Choose => tile_choices(g, &shown.game, turn),
        _ => Vec::new(),
    };
    let explored = Explored {
        line: w.line.clone(),
        at: w.at,
        steps: w.steps.iter().map(LineStep::clone).collect(),
        mover: (shown.facts.next != NextDraw::Over).then(|| shown.game.current_player()),
        players: view::players_at(record, &shown.facts.replay.game, shown.facts.replay.finished, &colours),
        over: shown.facts.next == NextDraw::Over,
        engine,
        engine_due: matches!(shown.facts.next, NextDraw::Drawn(_)),
        comment_line: shown.line.write(&record.setup.catalog),
    };
    let part = ExplorePart::Tiles(Box::new(View {
        board,
        drawn,
        choices,
        choose_after: before.clone(),
        fitting_nowhere: match shown.facts.next {
            NextDraw::Choose => (tiles_fitting_nowhere(&shown.game))
                .map(|t| record.setup.catalog.name(t).to_string())
                .collect(),
            _ => Vec::new(),
        },
        moves: record.moves.len() as u32,
        tracker: tile_turn_view(&id, record, &shown.game, &at.features),
    }));
    let context = (n, g.record.annotations.as_slice(), asked.owner);
    Ok(ExplorePage::new(g.head(state)?, context, explored, part))
}

/// A tile game's position on the explore board, being drawn: the game, the turn explored from,
/// the line walked, its replay, and what a move after it is written after (`before_move`).
struct PageAt<'a> {
    g: &'a Stored<GameRecord>,
    n: u32,
    w: &'a Walked,
    /// The position's features, for the board's notes and the tile tracker alike.
    features: Vec<BoardFeature>,
    before: &'a str,
    tile_at: &'a str,
}

/// Bytes of the board's square links a page may hold (its line times its open squares).
const SQUARE_LINKS_BYTES: usize = 1 << 20;

impl PageAt<'_> {
    /// The page of the line `line` from the same turn, at its end.
    fn after(&self, line: &str) -> String {
        links::explore(self.g.row.id, self.n, line, None)
    }

    /// The board with `tile` drawn, its squares to click and the engine's ghosts, and the
    /// form that places it where the reader put it.
    fn drawn_board(
        &self,
        tile: TileKindId,
        engine: Option<&EngineAnswer>,
        asked: &Asked,
    ) -> Result<(String, DrawnView), Problem> {
        let (record, id, w) = (&self.g.record, self.g.row.id, self.w);
        let here = links::explore(id, self.n, &w.line, (w.at < w.steps.len()).then_some(w.at));
        let join = if here.contains('?') { '&' } else { '?' };
        let mut on = w.shown.game.clone();
        on.draw(tile).map_err(Problem::internal)?;
        let moves = board_view::legal_placements(&on);
        // Each square's link holds the line whole: a long line on a board of hundreds of open
        // squares made a page of megabytes. Past the budget the squares answer the page's
        // script alone (it reads their `data-spot`), and their links go nowhere.
        let linked = here.len().saturating_mul(moves.len()) <= SQUARE_LINKS_BYTES;
        let href = |pos: Pos, r: u16| match linked {
            true => format!("{here}{join}square={},{}&rotation={r}", pos.x, pos.y),
            false => "#answer".to_string(),
        };
        let spot = |pos: Pos, r: u16, c: &board_view::Choice| {
            self.after(&then(self.before, &step(self.tile_at, pos, r, &c.token)))
        };
        let placed = placed(&moves, asked);
        let on_board = DrawnTile {
            kind: record.setup.catalog.get(tile),
            moves: &moves,
            placed: placed.map(|(pos, rotation)| PuzzleTile {
                pos,
                rotation,
                meeple: None,
            }),
            href: &href,
            spot: &spot,
        };
        let ghosts = ghosts(engine, &|line| self.after(line));
        let colour = render::colours(record).get(on.current_player());
        let svg = board_view::explore_board(
            record,
            (w.shown.facts.replay.reached(), &self.features),
            Some(on_board),
            &ghosts,
            colour,
        );
        let name = record.setup.catalog.name(tile).to_string();
        let drawn = DrawnView {
            picture: links::tile_svg(id, &name),
            name,
            own: w.shown.line.draw.is_none(),
            form: form(record, &moves, placed, (self.before, self.tile_at), &href),
        };
        Ok((svg, drawn))
    }
}

/// The engine's best moves as ghosts, one a square (the best there: ghosts on one square
/// would hide each other), each a link that plays it.
fn ghosts(engine: Option<&EngineAnswer>, after: &dyn Fn(&str) -> String) -> Vec<EngineGhost> {
    let mut out: Vec<EngineGhost> = Vec::new();
    for (i, b) in engine.iter().flat_map(|e| e.best.iter().enumerate()) {
        let Some(g) = b.ghost.clone().filter(|g| out.iter().all(|o| o.pos != g.pos)) else {
            continue;
        };
        out.push(EngineGhost {
            pos: g.pos,
            rotation: g.rotation,
            action: g.action,
            label: format!("#{} {}", i + 1, view::points(b.value)),
            title: format!("The engine's move #{}: {}. Play it.", i + 1, b.words),
            href: after(&b.line),
        });
    }
    out
}

/// Where the reader put the tile: a square it fits, turned as asked if that fits, else its
/// first rotation that does.
fn placed(moves: &board_view::PlacementMoves, asked: &Asked) -> Option<(Pos, u16)> {
    let pos = asked.square?;
    let turns = moves.get(&pos)?;
    let r = asked
        .rotation
        .filter(|r| turns.contains_key(r))
        .or(turns.keys().next().copied())?;
    Some((pos, r))
}

fn form(
    record: &GameRecord,
    moves: &board_view::PlacementMoves,
    placed: Option<(Pos, u16)>,
    (before, tile_at): (&str, &str),
    href: &dyn Fn(Pos, u16) -> String,
) -> PlaceForm {
    // What the page's script writes a step after: the line, `~`, the tile's name if written.
    let base = then(before, tile_at);
    let Some((pos, r)) = placed else {
        return PlaceForm {
            shown: false,
            square: String::new(),
            rotation: 0,
            turn_href: String::new(),
            base,
            meeples: Vec::new(),
        };
    };
    let turns = &moves[&pos];
    PlaceForm {
        shown: true,
        square: format!("{},{}", pos.x, pos.y),
        rotation: r,
        turn_href: href(pos, board_view::next_rotation(turns, Some(r))),
        base,
        meeples: (turns.get(&r).into_iter().flatten().enumerate())
            .map(|(i, c)| MeepleChoice {
                value: then(before, &step(tile_at, pos, r, &c.token)),
                words: c.action.words(record.setup.game),
                checked: i == 0,
            })
            .collect(),
    }
}

/// The tiles the reader may draw next, each a link to the line with it drawn, in groups that
/// look alike ([`group_of`]).
fn tile_choices(g: &Stored<GameRecord>, game: &Game, turn: u32) -> Vec<TileGroup> {
    let cat = &g.record.setup.catalog;
    let own = (g.record.moves.iter())
        .filter(|m| matches!(m, RecordedMove::Place { .. }))
        .nth(turn as usize - 1)
        .map(RecordedMove::tile);
    let city = match g.record.setup.game {
        GameKind::NewWorld => "town",
        _ => "city",
    };
    let mut groups: Vec<((u8, String), Vec<TileChoice>)> = Vec::new();
    for (tile, copies) in tiles_to_draw(game) {
        let name = cat.name(tile).to_string();
        let step = TileLine {
            steps: Vec::new(),
            draw: Some(tile),
        }
        .write(cat);
        let choice = TileChoice {
            draw: step.trim_end_matches('@').to_string(),
            picture: links::tile_svg(g.row.id, &name),
            own: own == Some(tile),
            name,
            copies,
        };
        let key = group_of(cat.get(tile), city);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, tiles)) => tiles.push(choice),
            None => groups.push((key, vec![choice])),
        }
    }
    groups.sort_by_key(|((order, _), _)| *order);
    (groups.into_iter())
        .map(|((_, heading), tiles)| TileGroup { heading, tiles })
        .collect()
}

/// The engine's answer for `shown`, a line from turn `n` of `g` with `tile` drawn, kept or
/// thought now; its moves are written after `before` (`before_move`).
fn engine_for(
    state: &AppState,
    (g, n, shown): (&Stored<GameRecord>, u32, &TileExplore),
    tile: TileKindId,
    asked: &Asked,
    before: (&str, &str),
) -> Result<Option<std::sync::Arc<EngineAnswer>>, Problem> {
    let key = shown.line.write(&g.record.setup.catalog);
    let turn = n + shown.line.steps.len() as u32;
    let think = || think(&g.record, &shown.game, tile, turn, before);
    engine_answer(state, (&g.row, n, &key), asked, think)
}

/// The engine's answer on drawing `tile` on `game`, its moves written after `before` (with
/// `tile_at`, [`before_move`]).
fn think(
    record: &GameRecord,
    game: &Game,
    tile: TileKindId,
    turn: u32,
    (before, tile_at): (&str, &str),
) -> Result<EngineAnswer, Problem> {
    let opinion =
        crate::analysis::tile_opinion(game, tile, turn, crate::analysis::ENGINE_BUDGET).map_err(Problem::internal)?;
    let mut on = game.clone();
    on.draw(tile).map_err(Problem::internal)?;
    let written = |mv: &Move| recorded(&on, mv);
    let mut answer = EngineAnswer::of(
        &opinion,
        before,
        |mv| step_of(tile_at, mv, &written(mv)),
        |mv| move_text(record, &written(mv)),
    );
    for (b, r) in answer.best.iter_mut().zip(&opinion.best) {
        if let RecordedMove::Place { action, .. } = written(&r.mv) {
            b.ghost = Some(GhostAt {
                pos: r.mv.placement.pos,
                rotation: r.mv.placement.rotation.degrees(),
                action: ActionReport::from(&action),
            });
        }
    }
    Ok(answer)
}

fn step_of(tile_at: &str, mv: &Move, written: &RecordedMove) -> String {
    let token = match written {
        RecordedMove::Place { action, .. } => TileLine::meeple(action),
        RecordedMove::Discard { .. } => String::new(),
    };
    let p = mv.placement;
    step(tile_at, p.pos, p.rotation.degrees(), &token)
}

/// The explore board's answer in JSON for a tile game; the engine thinks if it has not.
pub fn tile_answer(state: &AppState, g: &Stored<GameRecord>, n: u32, asked: &Asked) -> Result<ExploreAnswer, Problem> {
    let (record, id) = (&g.record, g.row.id);
    let w = walk(g, n, asked)?;
    let shown = &w.shown;
    let (before, tile_at) = before_move(shown, &record.setup.catalog);
    let turn = n + w.at as u32;
    let over = shown.facts.next == NextDraw::Over;
    let mut game = shown.game.clone();
    if over {
        game.finish(&mut Vec::new());
    }
    let scoreboard = view::players_at(record, &game, over, &render::colours(record));
    let (mut moves, mut choices, mut engine, mut drawn) = (Vec::new(), Vec::new(), None, None);
    match shown.facts.next {
        NextDraw::Drawn(tile) => {
            let mut on = shown.game.clone();
            on.draw(tile).map_err(Problem::internal)?;
            for (pos, turns) in board_view::legal_placements(&on) {
                for (r, cs) in turns {
                    let steps = cs.iter().map(|c| step(&tile_at, pos, r, &c.token));
                    moves.extend(steps.map(|step| MoveAnswer { step }));
                }
            }
            let answer = engine_for(state, (g, n, shown), tile, asked, (&before, &tile_at))?;
            engine = answer.map(|a| (*a).clone());
            drawn = Some(record.setup.catalog.name(tile).to_string());
        }
        NextDraw::Choose => {
            choices = tiles_to_draw(&shown.game)
                .map(|(t, copies)| TileChoiceAnswer {
                    tile: record.setup.catalog.name(t).to_string(),
                    copies,
                    step: TileLine {
                        steps: Vec::new(),
                        draw: Some(t),
                    }
                    .write(&record.setup.catalog),
                })
                .collect()
        }
        NextDraw::Over => {}
    }
    let mover = (!over).then(|| shown.game.current_player());
    Ok(ExploreAnswer {
        game: id.to_string(),
        turn: n,
        url: links::explore(id, n, &w.line, (w.at < w.steps.len()).then_some(w.at)),
        line: w.line,
        at: w.at,
        before,
        followed: w.followed,
        position: PositionAnswer {
            turn,
            player: mover,
            player_name: mover.map(|p| g.player_name(p)),
            scores: scoreboard.iter().map(|p| p.score).collect(),
            if_ended: scoreboard.iter().map(|p| p.if_ended).collect(),
            over,
            drawn,
            tiles_left: Some(shown.game.pack_left()),
        },
        moves,
        choices,
        engine,
    })
}
