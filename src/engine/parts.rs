//! The parts of the tile game that not every game of it has: The River ([`River`]) and New
//! World's coast with its surveyors ([`Surveyors`]). The core (board, features, scoring) knows
//! none of them: `Game` calls the [`Part`] hooks at fixed points of a turn, and each part
//! answers for itself. A hook a part does not need keeps its default, which changes nothing.
//!
//! The points of a turn, in order:
//! - setup: the part's tiles join the pack, it may name the start, and it checks the start
//!   once the start tiles are down;
//! - draw: whether a tile may come next;
//! - placement check: where a tile may stand, and whether a placement suits the part;
//! - after placement: the part follows the board;
//! - scoring: the order of the features a tile completes, a bonus on a scored feature, and
//!   what follows each scored feature (a surveyor moves, settlers left behind go home).

use super::board::Board;
use super::error::IllegalMove;
use super::events::{Event, Term};
use super::features::SegId;
use super::game::{Game, Placement, SetupError, StartSquare, StartTile};
use super::geometry::Pos;
use super::position::GameKind;
use super::river::River;
use super::rules::Rules;
use super::surveyors::Surveyors;
use super::tile::TileKind;
use super::tileset::{TileCatalog, TileKindId};

/// How a game begins, as the parts see it at setup.
#[derive(Debug, Default)]
pub struct Opening {
    /// The printed tiles in the pack: the game's own, and each part's.
    pub counts: Vec<(TileKindId, u8)>,
    pub start: Vec<StartTile>,
    pub start_squares: Vec<StartSquare>,
}

impl Opening {
    /// Whether the setup names no start yet, so a part may name one.
    pub fn has_no_start(&self) -> bool {
        self.start.is_empty() && self.start_squares.is_empty()
    }
}

/// Where a drawn tile may go, as a part sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Squares {
    /// On any frontier square its edges fit.
    Frontier,
    /// On this square only (a River tile, at the river's open end).
    Only(Pos),
    /// Nowhere (a River tile once the river has ended).
    Nowhere,
}

/// A part of the tile game, asked at fixed points of a turn. Every hook has a default that
/// changes nothing.
pub trait Part {
    // ----- setup -----

    /// Setup, before the pack is filled: the part's printed tiles join `opening.counts`, it
    /// may name the start when the setup names none, and it may close part of the board.
    fn setup(&self, _catalog: &TileCatalog, _opening: &mut Opening, _board: &mut Board) {}

    /// Setup: `n` copies of `tile` joined the pack.
    fn added(&mut self, _tile: TileKindId, _n: u8) {}

    /// Setup: a start tile was placed.
    fn start_placed(&mut self, _kind: &TileKind, _p: Placement) {}

    /// Setup, once the start tiles are down: whether the start holds, and a tile the rules
    /// then return to the box.
    fn finish_setup(&self, _catalog: &TileCatalog) -> Result<Option<TileKindId>, SetupError> {
        Ok(None)
    }

    // ----- draw -----

    /// A copy of `tile` left the pack.
    fn taken(&mut self, _tile: TileKindId) {}

    /// Draw: may `tile`, which is in the pack, come next? The fast form of `check_draw`.
    fn may_draw(&self, _tile: TileKindId) -> bool {
        true
    }

    /// Draw: why `tile` (named `name`), which is in the pack, may not come next.
    fn check_draw(&self, _tile: TileKindId, _name: &str) -> Result<(), IllegalMove> {
        Ok(())
    }

    // ----- placement check -----

    /// Whether any tile may ever stand at `pos`, asked before its neighbours are.
    fn check_square(&self, _pos: Pos) -> Result<(), IllegalMove> {
        Ok(())
    }

    /// Where `tile` may go.
    fn squares(&self, _tile: TileKindId) -> Squares {
        Squares::Frontier
    }

    /// Whether the placement suits the part, once its edges fit.
    fn check_placement(
        &self,
        _tile: TileKindId,
        _kind: &TileKind,
        _p: Placement,
        _board: &Board,
    ) -> Result<(), IllegalMove> {
        Ok(())
    }

    // ----- after placement -----

    /// A tile of the game (not a start tile) was placed.
    fn placed(&mut self, _kind: &TileKind, _p: Placement) {}

    // ----- scoring -----

    /// Whether the empty square `pos` counts as land around a farm or cloister.
    fn is_start_space(&self, _pos: Pos) -> bool {
        false
    }

    /// Orders the features a tile completed (board order by default) before they score.
    fn order_scoring(&self, _game: &Game, _completed: &mut [SegId]) {}

    /// A term the part adds to `player`'s score for the feature of `s`.
    fn bonus(&self, _game: &Game, _s: SegId, _player: u8) -> Option<Term> {
        None
    }

    /// What follows each feature scored during play. Returns whether a meeple may have
    /// been left behind (see `left_behind`).
    fn after_scored(&mut self, _board: &Board, _events: &mut Vec<Event>) -> bool {
        false
    }

    /// Whether a standing meeple on a tile at `pos` has been left behind and goes home.
    fn left_behind(&self, _pos: Pos) -> bool {
        false
    }
}

/// An absent part changes nothing.
impl<P: Part> Part for Option<P> {
    fn setup(&self, catalog: &TileCatalog, opening: &mut Opening, board: &mut Board) {
        if let Some(p) = self {
            p.setup(catalog, opening, board);
        }
    }

    fn added(&mut self, tile: TileKindId, n: u8) {
        if let Some(p) = self {
            p.added(tile, n);
        }
    }

    fn start_placed(&mut self, kind: &TileKind, placement: Placement) {
        if let Some(p) = self {
            p.start_placed(kind, placement);
        }
    }

    fn finish_setup(&self, catalog: &TileCatalog) -> Result<Option<TileKindId>, SetupError> {
        self.as_ref().map_or(Ok(None), |p| p.finish_setup(catalog))
    }

    fn taken(&mut self, tile: TileKindId) {
        if let Some(p) = self {
            p.taken(tile);
        }
    }

    #[inline]
    fn may_draw(&self, tile: TileKindId) -> bool {
        self.as_ref().is_none_or(|p| p.may_draw(tile))
    }

    fn check_draw(&self, tile: TileKindId, name: &str) -> Result<(), IllegalMove> {
        self.as_ref().map_or(Ok(()), |p| p.check_draw(tile, name))
    }

    #[inline]
    fn check_square(&self, pos: Pos) -> Result<(), IllegalMove> {
        self.as_ref().map_or(Ok(()), |p| p.check_square(pos))
    }

    #[inline]
    fn squares(&self, tile: TileKindId) -> Squares {
        self.as_ref().map_or(Squares::Frontier, |p| p.squares(tile))
    }

    fn check_placement(
        &self,
        tile: TileKindId,
        kind: &TileKind,
        placement: Placement,
        board: &Board,
    ) -> Result<(), IllegalMove> {
        self.as_ref()
            .map_or(Ok(()), |p| p.check_placement(tile, kind, placement, board))
    }

    fn placed(&mut self, kind: &TileKind, placement: Placement) {
        if let Some(p) = self {
            p.placed(kind, placement);
        }
    }

    #[inline]
    fn is_start_space(&self, pos: Pos) -> bool {
        self.as_ref().is_some_and(|p| p.is_start_space(pos))
    }

    fn order_scoring(&self, game: &Game, completed: &mut [SegId]) {
        if let Some(p) = self {
            p.order_scoring(game, completed);
        }
    }

    #[inline]
    fn bonus(&self, game: &Game, s: SegId, player: u8) -> Option<Term> {
        self.as_ref().and_then(|p| p.bonus(game, s, player))
    }

    fn after_scored(&mut self, board: &Board, events: &mut Vec<Event>) -> bool {
        self.as_mut().is_some_and(|p| p.after_scored(board, events))
    }

    fn left_behind(&self, pos: Pos) -> bool {
        self.as_ref().is_some_and(|p| p.left_behind(pos))
    }
}

/// The parts a game has, chosen by its rules: The River in the tile game (inert without
/// River tiles in the pack), the coast and surveyors in New World. This is the one place that
/// names them; each hook asks every part in turn.
#[derive(Clone, Debug)]
pub(super) struct Parts {
    pub(super) river: Option<River>,
    pub(super) surveyors: Option<Surveyors>,
}

impl Parts {
    pub(super) fn new(rules: &Rules, catalog: &TileCatalog) -> Parts {
        let new_world = rules.preset.kind() == GameKind::NewWorld;
        Parts {
            river: (!new_world).then(|| River::new(catalog, rules)),
            surveyors: new_world.then(Surveyors::default),
        }
    }
}

impl Part for Parts {
    fn setup(&self, catalog: &TileCatalog, opening: &mut Opening, board: &mut Board) {
        self.surveyors.setup(catalog, opening, board);
        self.river.setup(catalog, opening, board);
    }

    fn added(&mut self, tile: TileKindId, n: u8) {
        self.river.added(tile, n);
        self.surveyors.added(tile, n);
    }

    fn start_placed(&mut self, kind: &TileKind, p: Placement) {
        self.river.start_placed(kind, p);
        self.surveyors.start_placed(kind, p);
    }

    fn finish_setup(&self, catalog: &TileCatalog) -> Result<Option<TileKindId>, SetupError> {
        let river = self.river.finish_setup(catalog)?;
        Ok(river.or(self.surveyors.finish_setup(catalog)?))
    }

    fn taken(&mut self, tile: TileKindId) {
        self.river.taken(tile);
        self.surveyors.taken(tile);
    }

    #[inline]
    fn may_draw(&self, tile: TileKindId) -> bool {
        self.river.may_draw(tile) && self.surveyors.may_draw(tile)
    }

    fn check_draw(&self, tile: TileKindId, name: &str) -> Result<(), IllegalMove> {
        self.river.check_draw(tile, name)?;
        self.surveyors.check_draw(tile, name)
    }

    #[inline]
    fn check_square(&self, pos: Pos) -> Result<(), IllegalMove> {
        self.river.check_square(pos)?;
        self.surveyors.check_square(pos)
    }

    #[inline]
    fn squares(&self, tile: TileKindId) -> Squares {
        match self.river.squares(tile) {
            Squares::Frontier => self.surveyors.squares(tile),
            only => only,
        }
    }

    fn check_placement(
        &self,
        tile: TileKindId,
        kind: &TileKind,
        p: Placement,
        board: &Board,
    ) -> Result<(), IllegalMove> {
        self.river.check_placement(tile, kind, p, board)?;
        self.surveyors.check_placement(tile, kind, p, board)
    }

    fn placed(&mut self, kind: &TileKind, p: Placement) {
        self.river.placed(kind, p);
        self.surveyors.placed(kind, p);
    }

    #[inline]
    fn is_start_space(&self, pos: Pos) -> bool {
        self.river.is_start_space(pos) || self.surveyors.is_start_space(pos)
    }

    fn order_scoring(&self, game: &Game, completed: &mut [SegId]) {
        self.river.order_scoring(game, completed);
        self.surveyors.order_scoring(game, completed);
    }

    #[inline]
    fn bonus(&self, game: &Game, s: SegId, player: u8) -> Option<Term> {
        (self.river.bonus(game, s, player)).or_else(|| self.surveyors.bonus(game, s, player))
    }

    fn after_scored(&mut self, board: &Board, events: &mut Vec<Event>) -> bool {
        let river = self.river.after_scored(board, events);
        self.surveyors.after_scored(board, events) || river
    }

    fn left_behind(&self, pos: Pos) -> bool {
        self.river.left_behind(pos) || self.surveyors.left_behind(pos)
    }
}
