//! The game state: board, features, pack, players. It plays moves and lists legal ones.

use super::board::{Board, PlacedTile};
use super::error::IllegalMove;
use super::events::Event;
use super::features::{Features, Figure, Meeple, SegId};
use super::geometry::{Pos, Rotation, Side};
use super::parts::{Opening, Part, Parts, Squares};
use super::position::GameKind;
use super::river::River;
use super::rules::{Completion, Preset, Rules, completion};
use super::surveyors::Surveyors;
use super::tile::{Edge, FeatureKind, Location, MAX_SEGMENTS, NO_SEGMENT, Oriented, TileKind};
use super::tileset::{self, TileCatalog, TileKindId};
use std::sync::Arc;

/// Where and how a tile goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    pub pos: Pos,
    pub rotation: Rotation,
}

/// The meeple step of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    Pass,
    /// Put a figure on segment `segment` (index on the tile just placed).
    Deploy {
        segment: u8,
        figure: Figure,
    },
    /// Take the abbot back instead of deploying; it scores at once.
    RecallAbbot,
}

/// A whole turn: the drawn tile, where it goes, and the meeple step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub tile: TileKindId,
    pub placement: Placement,
    pub action: Action,
}

/// A feature named by a square and a place on its tile, as a player points at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureRef {
    pub pos: Pos,
    pub kind: FeatureKind,
    /// Where on the tile, board-oriented; none for a farm, cloister or garden.
    pub at: Option<Location>,
}

/// A tile on the board before the first turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartTile {
    pub tile: TileKindId,
    pub placement: Placement,
}

/// An empty square a first tile may take without touching a placed tile, and the edges it
/// presents to that tile, side by side (New World's coast start spaces). It stays open until
/// a tile covers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartSquare {
    pub pos: Pos,
    pub presents: Vec<(Side, Edge)>,
}

/// Everything needed to begin a game.
#[derive(Clone, Debug)]
pub struct Setup {
    pub rules: Rules,
    pub catalog: Arc<TileCatalog>,
    pub players: u8,
    /// Empty, with no start squares, means the rules' default: the start tile D, the spring
    /// with The River, or New World's coast.
    pub start: Vec<StartTile>,
    /// Squares open to a first tile before any tile is placed.
    pub start_squares: Vec<StartSquare>,
    /// Extra tiles (a record's custom kinds) added to the pack.
    pub extra_tiles: Vec<(TileKindId, u8)>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("{}", players_refused(*.preset, *.players))]
    Players { preset: Preset, players: u8 },
    #[error("start tile {0} is not in the tile set")]
    StartNotInPack(String),
    #[error("start tile {tile} at {pos}: {reason}")]
    StartPlacement {
        tile: String,
        pos: Pos,
        reason: IllegalMove,
    },
    #[error("start square {pos} is off the board")]
    StartSquareOffBoard { pos: Pos },
    #[error("The River needs a spring among the start tiles")]
    NoSpring,
}

/// Why `players` may not play under `preset`, naming the rule: "the new-world rules are for 2
/// to 5 players ("A clever tile-laying game for 2-5 players"), not 6".
fn players_refused(preset: Preset, players: u8) -> String {
    let (range, quote) = preset.players();
    let (from, to) = (range.start(), range.end());
    match quote {
        Some(quote) => format!("the {preset} rules are for {from} to {to} players (\"{quote}\"), not {players}"),
        None => format!("a game needs {from} to {to} players, not {players}"),
    }
}

/// One player's score and supply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerState {
    pub score: i32,
    pub followers: u8,
    /// The segment the abbot stands on, if it is on the board.
    pub abbot_at: Option<SegId>,
}

#[derive(Debug)]
pub struct Game {
    pub(super) rules: Rules,
    pub(super) catalog: Arc<TileCatalog>,
    pub(super) board: Board,
    pub(super) features: Features,
    pub(super) players: Vec<PlayerState>,
    current: u8,
    pack: Vec<u8>,
    /// The pack as the game began, per kind: the copies an exhausted kind had.
    copies: Arc<[u8]>,
    pack_left: u32,
    /// The River and New World's surveyors, asked at fixed points of a turn.
    pub(super) parts: Parts,
    /// The order the mover chose for the features their next tile completes (New World,
    /// where a surveyor moves between them); cleared once the tile is played.
    pub(super) score_order: Vec<FeatureRef>,
    /// The tile drawn for the turn under way, once [`Game::draw`] says so.
    drawn: Option<TileKindId>,
    pub(super) scratch: Vec<u16>,
}

/// Written out for `clone_from`, which the derive leaves as a fresh copy: the bots and the
/// search copy a game into one they keep for every candidate move and every sample, and
/// reusing its allocations makes the copy a few `memcpy`s.
impl Clone for Game {
    fn clone(&self) -> Game {
        Game {
            rules: self.rules,
            catalog: Arc::clone(&self.catalog),
            board: self.board.clone(),
            features: self.features.clone(),
            players: self.players.clone(),
            current: self.current,
            pack: self.pack.clone(),
            copies: Arc::clone(&self.copies),
            pack_left: self.pack_left,
            parts: self.parts.clone(),
            score_order: self.score_order.clone(),
            drawn: self.drawn,
            scratch: self.scratch.clone(),
        }
    }

    fn clone_from(&mut self, source: &Game) {
        // Destructured, so that a new field cannot be forgotten here.
        let Game {
            rules,
            catalog,
            board,
            features,
            players,
            current,
            pack,
            copies,
            pack_left,
            parts,
            score_order,
            drawn,
            // A buffer: its contents never outlive a call.
            scratch: _,
        } = source;
        self.rules = *rules;
        self.catalog.clone_from(catalog);
        self.board.clone_from(board);
        self.features.clone_from(features);
        self.players.clone_from(players);
        self.current = *current;
        self.pack.clone_from(pack);
        self.copies.clone_from(copies);
        self.pack_left = *pack_left;
        self.parts.clone_from(parts);
        self.score_order.clone_from(score_order);
        self.drawn = *drawn;
    }
}

impl Game {
    pub fn new(setup: Setup) -> Result<Game, SetupError> {
        let Setup {
            rules,
            catalog,
            players,
            start,
            start_squares,
            extra_tiles,
        } = setup;
        if !rules.preset.players().0.contains(&players) {
            return Err(SetupError::Players {
                preset: rules.preset,
                players,
            });
        }
        let mut game = Game {
            rules,
            pack: vec![0; catalog.len()],
            copies: Arc::from([]),
            catalog: Arc::clone(&catalog),
            board: Board::new(),
            features: Features::with_capacity(1024),
            players: vec![
                PlayerState {
                    score: 0,
                    followers: rules.followers,
                    abbot_at: None,
                };
                players as usize
            ],
            current: 0,
            pack_left: 0,
            parts: Parts::new(&rules, &catalog),
            score_order: Vec::new(),
            drawn: None,
            scratch: Vec::with_capacity(128),
        };
        let mut opening = Opening {
            counts: game.printed_counts(),
            start,
            start_squares,
        };
        game.parts.setup(&catalog, &mut opening, &mut game.board);
        opening.counts.extend_from_slice(&extra_tiles);
        game.fill_pack(&opening.counts);
        if opening.has_no_start() {
            opening.start.push(game.default_start());
        }
        for s in &opening.start_squares {
            game.open_start_square(s)?;
        }
        for s in &opening.start {
            game.place_start(*s)?;
        }
        if let Some(boxed) = game.parts.finish_setup(&catalog)? {
            game.take_from_pack(boxed);
        }
        Ok(game)
    }

    fn fill_pack(&mut self, counts: &[(TileKindId, u8)]) {
        for &(id, n) in counts {
            self.pack[id.0 as usize] += n;
            self.pack_left += n as u32;
            self.parts.added(id, n);
        }
        self.copies = Arc::from(self.pack.as_slice());
    }

    /// The start tile D at the origin, when neither the setup nor a part names a start.
    fn default_start(&self) -> StartTile {
        StartTile {
            tile: (self.catalog.by_name(tileset::START_TILE)).expect("start tiles are built in"),
            placement: Placement {
                pos: Pos::ORIGIN,
                rotation: Rotation::new(0),
            },
        }
    }

    fn open_start_square(&mut self, s: &StartSquare) -> Result<(), SetupError> {
        if !s.pos.in_bounds() {
            return Err(SetupError::StartSquareOffBoard { pos: s.pos });
        }
        let presents: Vec<(Side, u8)> = s.presents.iter().map(|&(side, edge)| (side, edge as u8)).collect();
        self.board.open_square(s.pos, &presents);
        Ok(())
    }

    fn place_start(&mut self, s: StartTile) -> Result<(), SetupError> {
        let name = self.catalog.name(s.tile).to_string();
        let pos = s.placement.pos;
        let misplaced = if pos.in_bounds() {
            self.parts.check_square(pos).err()
        } else {
            Some(IllegalMove::OffBoard { pos })
        };
        if let Some(reason) = misplaced {
            return Err(SetupError::StartPlacement {
                tile: name,
                pos,
                reason,
            });
        }
        if self.pack[s.tile.0 as usize] == 0 {
            return Err(SetupError::StartNotInPack(name));
        }
        if !self.board.tiles().is_empty() {
            self.check_geometry(s.tile, s.placement)
                .map_err(|reason| SetupError::StartPlacement {
                    tile: name.clone(),
                    pos: s.placement.pos,
                    reason,
                })?;
        }
        self.take_from_pack(s.tile);
        self.put_tile(s.tile, s.placement);
        self.parts.start_placed(self.catalog.get(s.tile), s.placement);
        Ok(())
    }

    fn take_from_pack(&mut self, tile: TileKindId) {
        let n = &mut self.pack[tile.0 as usize];
        if *n > 0 {
            *n -= 1;
            self.pack_left -= 1;
            self.parts.taken(tile);
        }
    }

    // ----- queries -----

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The game these rules play: the tile game or New World.
    pub fn kind(&self) -> GameKind {
        self.rules.preset.kind()
    }

    pub fn catalog(&self) -> &Arc<TileCatalog> {
        &self.catalog
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn features(&self) -> &Features {
        &self.features
    }

    pub fn players(&self) -> &[PlayerState] {
        &self.players
    }

    pub fn scores(&self) -> Vec<i32> {
        self.players.iter().map(|p| p.score).collect()
    }

    /// The player whose turn it is.
    pub fn current_player(&self) -> u8 {
        self.current
    }

    /// Tiles left to draw, per kind (indexed by `TileKindId`).
    pub fn pack(&self) -> &[u8] {
        &self.pack
    }

    pub fn pack_left(&self) -> u32 {
        self.pack_left
    }

    /// River tiles left in the pack.
    pub fn river_left(&self) -> u32 {
        self.river().map_or(0, River::left)
    }

    /// Whether a tile may ever stand at `pos`: anywhere but on or east of New World's coast.
    pub fn on_land(&self, pos: Pos) -> bool {
        self.parts.check_square(pos).is_ok()
    }

    /// How many of the eight squares around `pos` hold tiles. New World's start spaces count
    /// as land here: they close the farms beside them (the rulebook's example B2 scores a
    /// farm in the first column as surrounded). The rest of the coast's column never does,
    /// so a farm beside it never completes.
    pub fn surrounding(&self, pos: Pos) -> u32 {
        let coast = pos.ring().filter(|q| self.is_start_space(*q)).count() as u32;
        self.board.neighbours_around(pos) + coast
    }

    /// Whether `pos` is one of New World's start spaces, which count as land around a farm.
    pub fn is_start_space(&self, pos: Pos) -> bool {
        self.parts.is_start_space(pos)
    }

    /// Chooses the order in which the features the next tile completes score: those named
    /// first, in this order, then the rest in the default order. Only New World asks, since
    /// only its surveyors make the order matter.
    pub fn choose_score_order(&mut self, order: Vec<FeatureRef>) {
        self.score_order = order;
    }

    /// The feature a player points at, if a tile with it is there.
    pub fn feature_at(&self, r: &FeatureRef) -> Option<SegId> {
        let t = self.board.tile_at(r.pos)?;
        let seg = self.catalog.get(t.kind).segment_at(t.rotation, r.kind, r.at)?;
        Some(self.features.root(t.first_segment + seg as SegId))
    }

    /// New World's surveyors, in a game that has them.
    pub fn surveyors(&self) -> Option<&Surveyors> {
        self.parts.surveyors.as_ref()
    }

    /// The River part, in a tile game (it has one whether or not The River is played).
    pub fn river(&self) -> Option<&River> {
        self.parts.river.as_ref()
    }

    pub fn tile_kind(&self, id: TileKindId) -> &TileKind {
        self.catalog.get(id)
    }

    /// The global segment id of segment `seg` of the tile at board index `tile`.
    pub fn segment_id(&self, tile: usize, seg: u8) -> SegId {
        self.board.tiles()[tile].first_segment + seg as SegId
    }

    /// Where a placed segment is: its tile's position and a board-oriented location.
    pub fn segment_place(&self, s: SegId) -> (Pos, Location) {
        let t = &self.board.tiles()[self.features.tile_of(s) as usize];
        let kind = self.catalog.get(t.kind);
        (t.pos, kind.location_of(t.rotation, (s - t.first_segment) as u8))
    }

    // ----- legality -----

    /// May `tile` be the next tile drawn? (It is in the pack, and River tiles come first.)
    pub fn check_draw(&self, tile: TileKindId) -> Result<(), IllegalMove> {
        if self.may_draw(tile) {
            return Ok(());
        }
        let kind = self.catalog.get(tile);
        if self.pack_left == 0 {
            return Err(IllegalMove::PackEmpty);
        }
        if self.pack[tile.0 as usize] == 0 {
            return Err(IllegalMove::NotInPack {
                tile: kind.name.clone(),
                copies: self.total_copies(tile),
            });
        }
        self.parts.check_draw(tile, &kind.name)
    }

    /// The fast form of `check_draw`, for drawing at random.
    pub fn may_draw(&self, tile: TileKindId) -> bool {
        self.pack[tile.0 as usize] > 0 && self.parts.may_draw(tile)
    }

    /// The printed tiles of the game itself: the base game's. New World brings every tile in
    /// the record. The parts add theirs (The River's) at setup.
    fn printed_counts(&self) -> Vec<(TileKindId, u8)> {
        match self.kind() {
            GameKind::Carcassonne => tileset::base_counts(&self.catalog, self.rules.edition),
            GameKind::NewWorld | GameKind::CardGame => Vec::new(),
        }
    }

    fn total_copies(&self, tile: TileKindId) -> u32 {
        u32::from(self.copies[tile.0 as usize])
    }

    /// Checks that the tile fits at the placement: a free square next to the landscape where
    /// the parts allow a tile, every edge matching, and the placement suiting the parts (the
    /// river continued).
    pub fn check_geometry(&self, tile: TileKindId, p: Placement) -> Result<(), IllegalMove> {
        if !p.pos.in_bounds() {
            return Err(IllegalMove::OffBoard { pos: p.pos });
        }
        if self.board.tile_at(p.pos).is_some() {
            return Err(IllegalMove::Occupied { pos: p.pos });
        }
        self.parts.check_square(p.pos)?;
        let Some(square) = self.board.frontier_at(p.pos) else {
            return Err(IllegalMove::NotAdjacent { pos: p.pos });
        };
        let kind = self.catalog.get(tile);
        let o = kind.oriented(p.rotation);
        if !square.accepts(o.edges) {
            return Err(self.edge_mismatch(o.edges, p.pos));
        }
        self.parts.check_placement(tile, kind, p, &self.board)
    }

    fn edge_mismatch(&self, edges: u8, pos: Pos) -> IllegalMove {
        for side in Side::ALL {
            let neighbour = pos.step(side);
            let Some(t) = self.board.tile_at(neighbour) else {
                continue;
            };
            let ours = edge_of(edges, side);
            let theirs = edge_of(t.edges, side.opposite());
            if ours != theirs {
                return IllegalMove::EdgeMismatch {
                    side,
                    ours,
                    theirs,
                    neighbour,
                };
            }
        }
        // No placed neighbour disagrees, so the start square's own edges do.
        let square = self.board.frontier_at(pos).expect("a mismatch is on a frontier square");
        let side = Side::ALL
            .into_iter()
            .find(|s| (square.care >> (2 * s.index())) & 3 != 0 && edge_of(edges, *s) != edge_of(square.required, *s))
            .expect("edge_mismatch is called only when an edge differs");
        IllegalMove::StartSquareEdge {
            side,
            ours: edge_of(edges, side),
            presented: edge_of(square.required, side),
        }
    }

    /// Every legal placement of `tile`, written to `out`. With `distinct`, rotations that give
    /// the same board are listed once.
    pub fn placements(&self, tile: TileKindId, distinct: bool, out: &mut Vec<Placement>) {
        out.clear();
        let kind = self.catalog.get(tile);
        match self.parts.squares(tile) {
            Squares::Frontier => {}
            Squares::Nowhere => return,
            Squares::Only(pos) => {
                for rotation in Rotation::ALL {
                    let p = Placement { pos, rotation };
                    let wanted = !distinct || kind.distinct[rotation.quarter_turns() as usize];
                    if wanted && self.check_geometry(tile, p).is_ok() {
                        out.push(p);
                    }
                }
                return;
            }
        }
        if distinct {
            // Branch-free: write every candidate, keep it only if it fits. Whether a rotation
            // fits is close to random, so a branch per candidate would mispredict often.
            let frontier = self.board.frontier();
            let unused = Placement {
                pos: Pos::ORIGIN,
                rotation: Rotation::new(0),
            };
            out.resize(frontier.len() * kind.unique.len() + 1, unused);
            let mut n = 0;
            for square in frontier {
                for &(rotation, edges) in &kind.unique {
                    out[n] = Placement {
                        pos: square.pos,
                        rotation,
                    };
                    n += usize::from(square.accepts(edges));
                }
            }
            out.truncate(n);
            return;
        }
        for square in self.board.frontier() {
            for rotation in Rotation::ALL {
                if square.accepts(kind.oriented(rotation).edges) {
                    out.push(Placement {
                        pos: square.pos,
                        rotation,
                    });
                }
            }
        }
    }

    /// Draws `tile` for the turn under way: [`Position::legal_moves`](super::Position) lists
    /// its moves, and only it may be played until the turn ends.
    pub fn draw(&mut self, tile: TileKindId) -> Result<(), IllegalMove> {
        self.check_draw(tile)?;
        self.drawn = Some(tile);
        Ok(())
    }

    /// The tile drawn for the turn under way, if [`Game::draw`] named one.
    pub fn drawn(&self) -> Option<TileKindId> {
        self.drawn
    }

    /// Whether `tile` has any legal placement.
    pub fn can_place(&self, tile: TileKindId) -> Option<Placement> {
        let mut out = Vec::new();
        self.placements(tile, true, &mut out);
        out.first().copied()
    }

    /// The segments of `kind`, placed as `p` says, whose features would be occupied once it is
    /// placed, a bit per segment. A segment joins every feature it touches, and through each of
    /// them every other segment of the tile touching it: a curve's two fields that both touch
    /// the field beside it are one field, held if either touches a held one.
    fn held_once_placed(&self, kind: &TileKind, p: Placement) -> u16 {
        let mut contacts = [Contact::default(); MAX_CONTACTS];
        let mut roots = [0; MAX_CONTACTS];
        let mut n = 0;
        let mut held = 0u16;
        each_contact(&self.board, &self.catalog, kind.oriented(p.rotation), p.pos, |c| {
            let root = self.features.root(c.theirs);
            if self.features.is_occupied(root) {
                held |= 1 << c.ours;
            }
            (contacts[n], roots[n]) = (c, root);
            n += 1;
        });
        if held == 0 {
            return 0;
        }
        let (contacts, roots) = (&contacts[..n], &roots[..n]);
        // Spread the hold along the shared features until it stops growing.
        loop {
            let before = held;
            for (a, root) in contacts.iter().zip(roots) {
                if held & (1 << a.ours) != 0 {
                    for (b, _) in contacts.iter().zip(roots).filter(|(_, r)| *r == root) {
                        held |= 1 << b.ours;
                    }
                }
            }
            if held == before {
                return held;
            }
        }
    }

    /// Whether placing `tile` as `p` may complete a feature, whatever meeple goes with it: an
    /// edge feature of the tile closes, an occupied feature beside it that scores surrounded
    /// (a cloister) is surrounded, or the tile's own is. When it may not, nothing scores this
    /// turn unless the abbot is recalled, so the bots skip playing the placement out. Where
    /// unsure (New World's start spaces) it answers that it may.
    pub fn may_complete(&self, tile: TileKindId, p: Placement) -> bool {
        let kind = self.catalog.get(tile);
        let surrounded = |segment: SegId| completion(self.features.kind(segment)) == Completion::Surrounded;
        let own = kind
            .segments
            .iter()
            .any(|s| completion(s.kind) == Completion::Surrounded);
        if own && self.surrounding(p.pos) >= 8 {
            return true;
        }
        // The occupied features beside it that score surrounded: read from the few meeples
        // standing, not the eight squares around.
        for &s in self.features.occupied() {
            let at = self.board.tiles()[self.features.tile_of(s) as usize].pos;
            let beside = at != p.pos && (at.x - p.pos.x).abs() <= 1 && (at.y - p.pos.y).abs() <= 1;
            if beside && surrounded(s) && self.surrounding(at) + 1 >= 8 {
                return true;
            }
        }
        self.closes_an_edge_feature(kind, p)
    }

    /// Whether one of the features `kind` touches along its sides, placed as `p`, is left
    /// with no open edge: the tile's own open sides and every feature it joins, less the two
    /// edges each join closes.
    fn closes_an_edge_feature(&self, kind: &TileKind, p: Placement) -> bool {
        let o = kind.oriented(p.rotation);
        let mut joins = [(0u8, 0 as SegId); MAX_CONTACTS];
        let mut n = 0;
        each_contact(&self.board, &self.catalog, o, p.pos, |c| {
            if c.closes {
                joins[n] = (c.ours, self.features.root(c.theirs));
                n += 1;
            }
        });
        let joins = &joins[..n];
        let mut seen = 0u16;
        for (i, s) in kind.segments.iter().enumerate() {
            if seen & (1 << i) != 0 || completion(s.kind) != Completion::ClosedEdges {
                continue;
            }
            // The tile's segments that share a feature with segment i, through the features
            // they join.
            let in_group = |group: u16, a: u8| group & (1 << a) != 0;
            let mut group = 1u16 << i;
            loop {
                let before = group;
                for &(a, root) in joins {
                    if in_group(group, a) {
                        for &(b, _) in joins.iter().filter(|(_, r)| *r == root) {
                            group |= 1 << b;
                        }
                    }
                }
                if group == before {
                    break;
                }
            }
            seen |= group;
            let own: u32 = (0..kind.segments.len() as u8)
                .filter(|&k| in_group(group, k) && kind.segments[k as usize].kind.occupies_sides())
                .map(|k| o.sides[k as usize].count_ones())
                .sum();
            let mut open = own as i32;
            for (j, &(a, root)) in joins.iter().enumerate() {
                if !in_group(group, a) {
                    continue;
                }
                // Each join closes an edge on both sides; a feature joined twice counts once.
                open -= 2;
                if !joins[..j].iter().any(|(b, r)| *r == root && in_group(group, *b)) {
                    open += i32::from(self.features.open_edges(root));
                }
            }
            if open == 0 {
                return true;
            }
        }
        false
    }

    /// Checks the meeple step for a tile about to be placed.
    pub fn check_action(&self, tile: TileKindId, p: Placement, action: Action) -> Result<(), IllegalMove> {
        let player = self.players[self.current as usize];
        let kind = self.catalog.get(tile);
        match action {
            Action::Pass => Ok(()),
            Action::RecallAbbot => {
                let s = player.abbot_at.ok_or(IllegalMove::NoAbbotToRecall)?;
                if self.inner_complete_after(s, p.pos) {
                    return Err(IllegalMove::AbbotFeatureComplete {
                        kind: self.features.kind(s),
                    });
                }
                Ok(())
            }
            Action::Deploy { segment, figure } => {
                let seg = kind
                    .segments
                    .get(segment as usize)
                    .ok_or_else(|| IllegalMove::NoSuchSegment {
                        kind: FeatureKind::City,
                        at: format!("segment {segment}"),
                    })?;
                match (seg.kind, figure) {
                    (FeatureKind::River, _) => return Err(IllegalMove::MeepleOnRiver),
                    (FeatureKind::Crossing, _) => return Err(IllegalMove::SettlerOnCrossing),
                    (FeatureKind::Garden, Figure::Follower) => {
                        return Err(IllegalMove::GardenNeedsAbbot);
                    }
                    (FeatureKind::Field, _) if !self.rules.farmers => {
                        return Err(IllegalMove::FarmersDisabled);
                    }
                    (k, Figure::Abbot) if !k.is_inner() => {
                        return Err(IllegalMove::AbbotNotOnCloister);
                    }
                    _ => {}
                }
                match figure {
                    Figure::Abbot if !self.rules.abbot => return Err(IllegalMove::AbbotDisabled),
                    Figure::Abbot if player.abbot_at.is_some() => {
                        return Err(IllegalMove::AbbotInUse);
                    }
                    Figure::Follower if player.followers == 0 => {
                        return Err(IllegalMove::NoFollowerLeft {
                            followers: self.rules.followers,
                        });
                    }
                    _ => {}
                }
                if self.held_once_placed(kind, p) & (1 << segment) != 0 {
                    return Err(IllegalMove::FeatureOccupied { kind: seg.kind });
                }
                Ok(())
            }
        }
    }

    /// Whether the cloister or garden at segment `s` is surrounded once a tile lands at `new`.
    fn inner_complete_after(&self, s: SegId, new: Pos) -> bool {
        let pos = self.board.tiles()[self.features.tile_of(s) as usize].pos;
        let around = self.surrounding(pos) + u32::from(pos.ring().any(|q| q == new));
        around == 8
    }

    /// Every legal meeple step for a tile about to be placed (always starting with `Pass`).
    /// This is `check_action` over every candidate, written out because analysis calls it for
    /// every placement.
    pub fn actions(&self, tile: TileKindId, p: Placement, out: &mut Vec<Action>) {
        out.clear();
        out.push(Action::Pass);
        let player = self.players[self.current as usize];
        let kind = self.catalog.get(tile);
        let follower = player.followers > 0;
        let abbot = self.rules.abbot && player.abbot_at.is_none();
        let held = if follower { self.held_once_placed(kind, p) } else { 0 };
        for (i, seg) in kind.segments.iter().enumerate() {
            let segment = i as u8;
            let (follower_ok, abbot_ok) = match seg.kind {
                FeatureKind::River | FeatureKind::Crossing => (false, false),
                FeatureKind::Cloister => (follower, abbot),
                FeatureKind::Farm => (follower, false),
                FeatureKind::Garden => (false, abbot),
                FeatureKind::Field if !self.rules.farmers => (false, false),
                _ => (follower && held & (1 << segment) == 0, false),
            };
            if follower_ok {
                out.push(Action::Deploy {
                    segment,
                    figure: Figure::Follower,
                });
            }
            if abbot_ok {
                out.push(Action::Deploy {
                    segment,
                    figure: Figure::Abbot,
                });
            }
        }
        if let Some(s) = player.abbot_at
            && !self.inner_complete_after(s, p.pos)
        {
            out.push(Action::RecallAbbot);
        }
    }

    // ----- playing -----

    /// Plays a whole turn. On error nothing changes.
    pub fn play(&mut self, mv: &Move, events: &mut Vec<Event>) -> Result<(), IllegalMove> {
        self.check_draw(mv.tile)?;
        self.check_geometry(mv.tile, mv.placement)?;
        self.check_action(mv.tile, mv.placement, mv.action)?;
        self.check_score_order(mv)?;
        self.apply(mv, events);
        Ok(())
    }

    /// Checks that every feature of the chosen scoring order ([`Game::choose_score_order`])
    /// is on the board once `mv`'s tile is placed: a tile stands on its square, with that
    /// feature where the entry says.
    fn check_score_order(&self, mv: &Move) -> Result<(), IllegalMove> {
        for (i, r) in self.score_order.iter().enumerate() {
            let entry = i + 1;
            let (kind, rotation) = if r.pos == mv.placement.pos {
                (self.catalog.get(mv.tile), mv.placement.rotation)
            } else {
                let t = (self.board.tile_at(r.pos)).ok_or(IllegalMove::ScoreOrderEmptySquare { entry, pos: r.pos })?;
                (self.catalog.get(t.kind), t.rotation)
            };
            if kind.segment_at(rotation, r.kind, r.at).is_none() {
                return Err(IllegalMove::ScoreOrderNoSuchFeature {
                    entry,
                    kind: r.kind,
                    pos: r.pos,
                    at: r.at.map_or_else(String::new, |at| format!(" at {at}")),
                });
            }
        }
        Ok(())
    }

    /// Plays a move taken from `placements` and `actions` on this very state, skipping the
    /// checks `play` makes. Playouts use it; anything read from outside goes through `play`.
    pub fn play_listed(&mut self, mv: &Move, events: &mut Vec<Event>) {
        debug_assert!(self.check_draw(mv.tile).is_ok());
        debug_assert!(self.check_geometry(mv.tile, mv.placement).is_ok());
        debug_assert!(self.check_action(mv.tile, mv.placement, mv.action).is_ok());
        self.apply(mv, events);
    }

    fn apply(&mut self, mv: &Move, events: &mut Vec<Event>) {
        let player = self.current;
        self.drawn = None;
        self.take_from_pack(mv.tile);
        let tile_index = self.put_tile(mv.tile, mv.placement);
        self.parts.placed(self.catalog.get(mv.tile), mv.placement);
        events.push(Event::TilePlaced {
            player,
            tile: mv.tile,
            pos: mv.placement.pos,
            rotation: mv.placement.rotation,
        });
        match mv.action {
            Action::Pass => {}
            Action::Deploy { segment, figure } => self.deploy(tile_index, segment, figure, events),
            Action::RecallAbbot => self.recall_abbot(events),
        }
        self.score_completed(tile_index, events);
        self.score_order.clear();
        self.current = (self.current + 1) % self.players.len() as u8;
    }

    /// Sets aside a drawn tile that has no legal placement; the same player draws again.
    pub fn discard(&mut self, tile: TileKindId, events: &mut Vec<Event>) -> Result<(), IllegalMove> {
        self.check_draw(tile)?;
        if let Some(p) = self.can_place(tile) {
            return Err(IllegalMove::DiscardPlaceable {
                pos: p.pos,
                rotation: p.rotation,
            });
        }
        self.take_from_pack(tile);
        self.drawn = None;
        events.push(Event::TileDiscarded {
            player: self.current,
            tile,
        });
        Ok(())
    }

    /// Puts the tile on the board and joins its segments to their neighbours.
    fn put_tile(&mut self, tile: TileKindId, p: Placement) -> usize {
        let cat = &self.catalog;
        let kind = cat.get(tile);
        let o = kind.oriented(p.rotation);
        let index = self.board.tiles().len();
        let first = self.features.len() as SegId;
        for (i, s) in kind.segments.iter().enumerate() {
            let open = if s.kind.occupies_sides() {
                o.sides[i].count_ones() as u16
            } else {
                0
            };
            self.features.add(s.kind, index as u16, s.marks, open);
        }
        self.board.place(PlacedTile {
            kind: tile,
            pos: p.pos,
            rotation: p.rotation,
            edges: o.edges,
            first_segment: first,
        });
        each_contact(&self.board, cat, o, p.pos, |c| {
            self.features.join(first + c.ours as SegId, c.theirs, c.closes);
        });
        index
    }

    /// Puts `tile` on the board and joins its features, and nothing more: no draw, no meeple,
    /// no scoring, the turn not passed. Tests check the rules' look-ahead against it.
    #[doc(hidden)]
    pub fn place_tile_only(&mut self, tile: TileKindId, p: Placement) -> usize {
        self.put_tile(tile, p)
    }

    fn deploy(&mut self, tile: usize, segment: u8, figure: Figure, events: &mut Vec<Event>) {
        let player = self.current;
        let s = self.segment_id(tile, segment);
        self.features.put(s, Meeple { player, figure });
        let ps = &mut self.players[player as usize];
        match figure {
            Figure::Follower => ps.followers -= 1,
            Figure::Abbot => ps.abbot_at = Some(s),
        }
        let (pos, location) = self.segment_place(s);
        events.push(Event::MeepleDeployed {
            player,
            figure,
            feature: self.features.kind(s),
            pos,
            location,
        });
    }

    /// Takes a meeple off segment `s` back to its owner's supply: its feature scored, or
    /// (`left_behind`) the surveyors left it behind.
    pub(super) fn return_meeple(&mut self, s: SegId, left_behind: bool, events: &mut Vec<Event>) {
        let Some(m) = self.features.take(s) else {
            return;
        };
        let ps = &mut self.players[m.player as usize];
        match m.figure {
            Figure::Follower => ps.followers += 1,
            Figure::Abbot => ps.abbot_at = None,
        }
        let (pos, location) = self.segment_place(s);
        events.push(Event::MeepleReturned {
            player: m.player,
            figure: m.figure,
            feature: self.features.kind(s),
            pos,
            location,
            left_behind,
        });
    }
}

/// Where a tile being placed meets a neighbour: its segment `ours` against the neighbour's
/// segment `theirs` (a global id), across a side (a city, road or river edge, which the join
/// `closes`) or a half-edge (a field's).
#[derive(Clone, Copy, Default)]
struct Contact {
    ours: u8,
    theirs: SegId,
    closes: bool,
}

/// A tile meets its neighbours at most three times a side: a side segment and two half-edges.
const MAX_CONTACTS: usize = 12;

// `Game::held_once_placed` keeps a tile's segments as bits of a `u16`.
const _: () = assert!(MAX_SEGMENTS <= 16);

/// Calls `f` with every contact of a tile at `pos` in orientation `o` with the tiles beside it:
/// placing the tile joins along them, and the look-ahead for meeples reads them.
fn each_contact(board: &Board, catalog: &TileCatalog, o: &Oriented, pos: Pos, mut f: impl FnMut(Contact)) {
    for side in Side::ALL {
        let Some(nb) = board.tile_at(pos.step(side)) else {
            continue;
        };
        let no = catalog.get(nb.kind).oriented(nb.rotation);
        let ours = o.side_segment[side.index() as usize];
        if ours != NO_SEGMENT {
            let theirs = no.side_segment[side.opposite().index() as usize];
            f(Contact {
                ours,
                theirs: nb.first_segment + theirs as SegId,
                closes: true,
            });
        }
        for h in side.halves() {
            let ours = o.half_segment[h.index() as usize];
            let theirs = no.half_segment[h.facing().index() as usize];
            if ours != NO_SEGMENT && theirs != NO_SEGMENT {
                f(Contact {
                    ours,
                    theirs: nb.first_segment + theirs as SegId,
                    closes: false,
                });
            }
        }
    }
}

fn edge_of(edges: u8, side: Side) -> Edge {
    Edge::from_bits(edges >> (2 * side.index()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Preset;

    /// A game that begins on one open square instead of a start tile.
    fn on_a_start_square(presents: Vec<(Side, Edge)>) -> Game {
        Game::new(Setup {
            rules: Preset::SecondEdition.rules(),
            catalog: TileCatalog::builtin(),
            players: 2,
            start: Vec::new(),
            start_squares: vec![StartSquare {
                pos: Pos::ORIGIN,
                presents,
            }],
            extra_tiles: Vec::new(),
        })
        .unwrap()
    }

    fn at(x: i32, y: i32, degrees: i64) -> Placement {
        Placement {
            pos: Pos::new(x, y),
            rotation: Rotation::from_degrees(degrees).unwrap(),
        }
    }

    /// New World begins on coast start spaces, not a tile: the first tile goes on the square
    /// with no neighbour to touch, and after it the board grows as usual.
    #[test]
    fn a_start_square_takes_the_first_tile_without_a_neighbour() {
        let mut game = on_a_start_square(Vec::new());
        assert!(game.board().tiles().is_empty());
        let u = game.catalog().by_name("U").unwrap();
        let mut placements = Vec::new();
        game.placements(u, false, &mut placements);
        assert_eq!(
            placements.len(),
            4,
            "any rotation on the one open square: {placements:?}"
        );
        assert!(placements.iter().all(|p| p.pos == Pos::ORIGIN));
        assert_eq!(
            game.check_geometry(u, at(3, 0, 0)),
            Err(IllegalMove::NotAdjacent { pos: Pos::new(3, 0) })
        );
        let mv = Move {
            tile: u,
            placement: at(0, 0, 0),
            action: Action::Pass,
        };
        game.play(&mv, &mut Vec::new()).unwrap();
        assert!(game.board().frontier_at(Pos::new(0, -1)).is_some());
        assert!(game.board().frontier_at(Pos::ORIGIN).is_none());
    }

    /// A start square may present edges of its own, matched like a placed neighbour's.
    #[test]
    fn a_start_square_holds_the_first_tile_to_the_edges_it_presents() {
        let game = on_a_start_square(vec![(Side::E, Edge::Road)]);
        let u = game.catalog().by_name("U").unwrap();
        let mut placements = Vec::new();
        game.placements(u, false, &mut placements);
        let mut degrees: Vec<u16> = placements.iter().map(|p| p.rotation.degrees()).collect();
        degrees.sort_unstable();
        assert_eq!(degrees, [90, 270], "only with its road running east");
        assert_eq!(
            game.check_geometry(u, at(0, 0, 0)),
            Err(IllegalMove::StartSquareEdge {
                side: Side::E,
                ours: Edge::Field,
                presented: Edge::Road
            })
        );
    }
}
