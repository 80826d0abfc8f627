//! How likely a feature left open is to be completed, judged only from the tiles still in the
//! pack (`Game::pack`), never from the order a record drew them in.
//!
//! The estimate, per feature:
//! - its **open spots** are the empty squares it reaches (a city or road: across each open edge;
//!   a cloister or garden: the empty squares around it);
//! - a spot's **fit count** is how many tiles left in the pack could go there at all: some
//!   rotation matches every edge its placed neighbours demand;
//! - its **closing count** is how many of those close the feature there: a road or city tile
//!   whose segment on the feature's side runs on to no open side (a road's dead end, a city's
//!   cap), so the feature gains no new open edge. A tile that fits a cloister's square fills
//!   it. A square no tile touches yet will face a neighbour when it is filled: a kind's copies
//!   count there by the share of the edges left (River tiles aside) it could match;
//! - the feature completes when every spot gets its own closing tile among the draws left to the
//!   feature's owner (the mover, when nobody owns it): `d` tiles drawn at random from the `n`
//!   left, so `k` spots take `k` distinct tiles. [`chance_all_closed`] computes that exactly
//!   for up to `MAX_EXACT_SPOTS` spots, counting tiles that could close either of two spots
//!   once (`chance_exact`), and past that samples up to `SAMPLES` draws (fewer for a chance
//!   near 0 or 1) and matches their tiles to the spots.
//!
//! What it leaves out: opponents' draws (they may close it too, or take a spot with a tile that
//! merely fits), features a closing tile joins through its other sides, and the edges a
//! feature's own squares will show each other once filled (a monastery's corner square then
//! faces two of them), so a feature with many squares is still judged a little kindly. Nor
//! does it know whether anyone will place the tiles there: on real games its chances of 90–100%
//! came true 43% of the time. So the chance the board and the heuristic read is the model's,
//! calibrated on played games ([`feature_outlook`], [`completion_rates`]); so is the one the
//! search's features read ([`quick_completion_chance`]).

use super::completion_rates::{self, Cell};
use crate::engine::board::FrontierSquare;
use crate::engine::bots::Rng;
use crate::engine::tile::NO_SEGMENT;
use crate::engine::tileset::is_river_tile;
use crate::engine::{Edge, FeatureKind, Game, Pos, Rotation, SegId, Side, TileCatalog, TileKind, TileKindId};
use std::sync::Arc;

/// An empty square next to the board and how many tiles left in the pack fit it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spot {
    pub pos: Pos,
    /// Copies left in the pack with some rotation that fits (0: a dead spot).
    pub fits: u32,
}

/// Every frontier square of a position with its fit count, in frontier order. Squares with
/// `fits == 0` are dead: no tile left can ever fill them.
pub fn position_spots(game: &Game) -> Vec<Spot> {
    game.board()
        .frontier()
        .iter()
        .map(|sq| Spot {
            pos: sq.pos,
            fits: fits_square(game, sq),
        })
        .collect()
}

/// The frontier squares no tile left in the pack fits.
pub fn dead_spots(game: &Game) -> Vec<Pos> {
    position_spots(game)
        .into_iter()
        .filter(|s| s.fits == 0)
        .map(|s| s.pos)
        .collect()
}

/// Copies in the pack with a rotation that `square` accepts.
fn fits_square(game: &Game, square: &FrontierSquare) -> u32 {
    fitting_tiles(game, square).map(|(_, n)| u32::from(n)).sum()
}

/// The kinds left in the pack with a rotation that `square` accepts, with their copies.
pub fn fitting_tiles<'g>(game: &'g Game, square: &'g FrontierSquare) -> impl Iterator<Item = (TileKindId, u8)> + 'g {
    (game.pack().iter().enumerate())
        .filter(|&(_, &n)| n > 0)
        .map(|(i, &n)| (TileKindId(i as u16), n))
        .filter(|&(id, _)| {
            let kind = game.tile_kind(id);
            kind.unique.iter().any(|&(_, edges)| square.accepts(edges))
        })
}

/// An empty square a feature reaches, with the tiles left that fit it and that close the
/// feature there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenSpot {
    pub pos: Pos,
    pub fits: u32,
    pub closes: u32,
}

/// The empty squares the feature containing `s` reaches, each with the sides of that square the
/// feature enters by (a side mask; 0 for a cloister's or garden's surroundings), sorted by
/// square. Fields reach no spot that matters: they never complete.
pub fn open_squares(game: &Game, s: SegId) -> Vec<(Pos, u8)> {
    let features = game.features();
    let board = game.board();
    match features.kind(s) {
        FeatureKind::City | FeatureKind::Road | FeatureKind::Town | FeatureKind::Trail => game.open_squares(s),
        FeatureKind::Cloister | FeatureKind::Garden | FeatureKind::Farm => {
            // New World's start spaces count as land already; any other square east of the
            // land is a spot no tile fills, so the farm never completes.
            let pos = board.tiles()[features.tile_of(s) as usize].pos;
            let mut out: Vec<(Pos, u8)> = (pos.ring())
                .filter(|q| board.is_empty_at(*q) && !game.is_start_space(*q))
                .map(|q| (q, 0))
                .collect();
            out.sort_unstable();
            out
        }
        FeatureKind::Field | FeatureKind::River | FeatureKind::Plains | FeatureKind::Crossing => Vec::new(),
    }
}

/// Whether a tile kind can go on `square` in a rotation where its segments on the `entries`
/// sides reach no side without a neighbour: it closes the feature there.
fn closes(kind: &TileKind, square: &FrontierSquare, entries: u8) -> bool {
    let neighbours = (0..4u8).fold(0, |m, i| m | (u8::from((square.care >> (2 * i)) & 3 != 0) << i));
    Rotation::ALL.into_iter().any(|r| {
        let o = kind.oriented(r);
        square.accepts(o.edges)
            && Side::ALL.into_iter().filter(|e| entries & e.bit() != 0).all(|e| {
                let seg = o.side_segment[e.index() as usize];
                seg != NO_SEGMENT && o.sides[seg as usize] & !neighbours == 0
            })
    })
}

/// The kinds left in the pack, with their copies.
fn pack_kinds(game: &Game) -> impl Iterator<Item = (&TileKind, u32)> {
    (game.pack().iter().enumerate())
        .filter(|&(_, &n)| n > 0)
        .map(|(i, &n)| (game.tile_kind(TileKindId(i as u16)), u32::from(n)))
}

/// Spots beyond this many are not matched tile to spot (the masks are 16 bits): each is
/// judged on its own. No real feature comes near it.
const MAX_MATCHED_SPOTS: usize = 16;

/// A feature's completion chance: the model's, and the one pages show.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CompletionChance {
    /// The chance that closing tiles come to its owner (this module's model).
    pub model: f64,
    /// The share of features like it completed in played games ([`completion_rates`]): what
    /// the board and the heuristic read.
    pub chance: f64,
    /// What made it like them; `None` where the shipped rates hold no share for it (`chance`
    /// is then the model's).
    pub cell: Option<Cell>,
}

/// A feature's open spots with their fit and closing counts, and its completion chance for
/// `owner`'s draws, exact where [`chance_exact`] reaches and sampled past it, then calibrated
/// (the board notes and the alternatives' heuristic). `chances` remembers the chances already
/// worked out.
pub fn feature_outlook(game: &Game, s: SegId, owner: u8, chances: &mut Chances) -> (Vec<OpenSpot>, CompletionChance) {
    let Chances { answers, tallies } = chances;
    let (spots, model) = outlook(game, s, owner, Some(tallies), |kinds, spots, n, d| {
        answers.all_closed(kinds, spots, n, d)
    });
    // A spot no tile left fits makes it certain: never. Only features that may complete were
    // measured (`forecasts`).
    if spots.iter().any(|spot| spot.fits == 0) {
        let never = CompletionChance {
            model,
            chance: 0.0,
            cell: None,
        };
        return (spots, never);
    }
    let share = cell_of(game, s, spots.len(), model).and_then(|c| Some((c, completion_rates::shipped_share(c)?)));
    let chance = CompletionChance {
        model,
        chance: share.map_or(model, |(_, share)| share),
        cell: share.map(|(cell, _)| cell),
    };
    (spots, chance)
}

/// A feature's open spots and its calibrated completion chance, as [`feature_outlook`] gives
/// them, without the model's chance the board shows. The calibration reads the model's chance
/// only for its band ([`Cell::of`]): where cheap bounds on it ([`closing_bounds`]) fall in one
/// band, the exact sum is not needed. The alternatives' heuristic asks this of every move of a
/// turn, and the exact sum was half of a turn page.
pub fn feature_chance(game: &Game, s: SegId, owner: u8, chances: &mut Chances) -> (Vec<OpenSpot>, f64) {
    let mut banded = None;
    let Chances { answers, tallies } = chances;
    let (spots, model) = outlook(game, s, owner, Some(tallies), |kinds, count, n, d| {
        let (groups, left) = match closing_groups(kinds, count, n, d) {
            Err(settled) => return settled,
            Ok(grouped) => grouped,
        };
        let cell = |chance: f64| cell_of(game, s, count, chance);
        if let Some((low, high)) = closing_bounds(&groups, left, n, d)
            && let (Some(a), Some(b)) = (cell(low), cell(high))
            && a == b
        {
            banded = completion_rates::shipped_share(a);
        }
        match banded {
            Some(_) => f64::NAN,
            None => answers.grouped(groups, left, n, d),
        }
    });
    if spots.iter().any(|spot| spot.fits == 0) {
        return (spots, 0.0);
    }
    let chance = banded.unwrap_or_else(|| {
        (cell_of(game, s, spots.len(), model))
            .and_then(completion_rates::shipped_share)
            .unwrap_or(model)
    });
    (spots, chance)
}

/// Bounds on [`chance_exact`]'s chance of grouped closing tiles, from Hall's condition: every
/// spot can have a tile of its own exactly when every set of spots has at least as many drawn
/// tiles closing one of them. The chance is at most the least likely set's, and at least one
/// less every set's chance of falling short. `None` past the exact sum's spots; the bounds are
/// widened by a hair, so that rounding never moves the chance across a band's edge.
fn closing_bounds(groups: &[(u32, u16)], spots: usize, n: u32, d: u32) -> Option<(f64, f64)> {
    if spots > MAX_EXACT_SPOTS {
        return None;
    }
    let (mut high, mut short) = (1.0f64, 0.0f64);
    for set in 1u16..(1 << spots) {
        let closing: u32 = groups.iter().filter(|g| g.1 & set != 0).map(|g| g.0).sum();
        let fails: f64 = (0..set.count_ones()).map(|x| drawn_exactly(x, closing, n, d)).sum();
        high = high.min(1.0 - fails);
        short += fails;
    }
    const HAIR: f64 = 1e-9;
    Some(((1.0 - short - HAIR).max(0.0), (high + HAIR).min(1.0)))
}

/// The chance that exactly `x` of `good` tiles are among `d` drawn from `n` (hypergeometric).
fn drawn_exactly(x: u32, good: u32, n: u32, d: u32) -> f64 {
    if x > good || x > d || d - x > n - good {
        return 0.0;
    }
    let ln_choose =
        |a: u32, b: u32| log_factorial(a as usize) - log_factorial(b as usize) - log_factorial((a - b) as usize);
    (ln_choose(good, x) + ln_choose(n - good, d - x) - ln_choose(n, d)).exp()
}

/// A feature's completion chance for `owner`'s draws, each spot judged on its own past the
/// exact sum's reach (the search's evaluation asks at every sample's horizon, where sampling
/// draws made it four times dearer), then calibrated as the pages' is where the learned
/// weights were fitted on that ([`completion_rates::KindGroup::searched`]). A spot no tile
/// fits keeps the model's chance: the weights were fitted on that reading.
pub fn quick_completion_chance(game: &Game, s: SegId, owner: u8) -> f64 {
    let (spots, model) = outlook(game, s, owner, None, |kinds, spots, n, d| {
        chance_all_closed(kinds, spots, n, d, PastExact::Independent)
    });
    if spots.iter().any(|spot| spot.fits == 0) {
        return model;
    }
    (cell_of(game, s, spots.len(), model).filter(|c| c.kind.searched()))
        .and_then(completion_rates::shipped_share)
        .unwrap_or(model)
}

/// The calibration cell of feature `s` with `spots` open spots and the model's chance `model`.
fn cell_of(game: &Game, s: SegId, spots: usize, model: f64) -> Option<Cell> {
    let features = game.features();
    let held = features.count_meeples(s).iter().any(|&n| n > 0);
    Cell::of(features.kind(s), held, game.pack_left(), spots, model)
}

/// Completion chances already worked out, by what decides them (the closing tiles left, the
/// spots, the pack and the draws). The alternatives of a turn often leave a feature alike (the
/// same tile with the meeple elsewhere), and the exact sum over a large feature is the dearest
/// part of a turn page.
///
/// Keyed by a fast hash (`rustc_hash`): hashing the questions with the standard library's
/// SipHash, and growing the map, took a tenth of a turn page.
#[derive(Debug, Default)]
pub struct Chances {
    answers: Answers,
    tallies: Tallies,
}

/// The chances worked out, by question.
#[derive(Debug, Default)]
struct Answers(rustc_hash::FxHashMap<Question, f64>);

/// What decides a completion chance: the closing tiles left grouped by the spots they close
/// (copies, spot mask), the spots, the tiles left and the owner's draws.
type Question = (Vec<(u32, u16)>, usize, u32, u32);

impl Answers {
    /// [`chance_all_closed`] with [`PastExact::Sampled`], remembered.
    fn all_closed(&mut self, kinds: &[(u32, u16)], spots: usize, n: u32, d: u32) -> f64 {
        match closing_groups(kinds, spots, n, d) {
            Err(settled) => settled,
            Ok((groups, spots)) => self.grouped(groups, spots, n, d),
        }
    }

    /// [`Answers::all_closed`] of closing tiles already grouped ([`closing_groups`]).
    fn grouped(&mut self, groups: Vec<(u32, u16)>, spots: usize, n: u32, d: u32) -> f64 {
        *(self.0.entry((groups, spots, n, d))).or_insert_with_key(shared_chance)
    }
}

/// Chances any thread has worked out, for every page and analysis of the process: the same
/// questions come back turn after turn and game after game (a city of two spots, 40 tiles
/// left), and a cold turn page spent a fifth of its time on them. The answers depend on the
/// question alone (the sampling past the exact sum is seeded), so sharing them changes no
/// number. Emptied when full, which keeps it to a few megabytes.
static SHARED: std::sync::LazyLock<std::sync::Mutex<rustc_hash::FxHashMap<Question, f64>>> =
    std::sync::LazyLock::new(Default::default);
const SHARED_CAPACITY: usize = 1 << 15;

fn shared_chance(question: &Question) -> f64 {
    if let Some(chance) = SHARED.lock().ok().and_then(|m| m.get(question).copied()) {
        return chance;
    }
    let (groups, spots, n, d) = question;
    let chance = grouped_chance(groups, *spots, *n, *d, PastExact::Sampled);
    if let Ok(mut shared) = SHARED.lock() {
        if shared.len() >= SHARED_CAPACITY {
            shared.clear();
        }
        shared.insert(question.clone(), chance);
    }
    chance
}

/// A feature's open spots, and its chance from `chance(kinds, spots, n, d)` (see
/// [`chance_all_closed`]). With `tallies`, the closing tiles counted for squares like these
/// are read back rather than counted again.
fn outlook(
    game: &Game,
    s: SegId,
    owner: u8,
    tallies: Option<&mut Tallies>,
    chance: impl FnOnce(&[(u32, u16)], usize, u32, u32) -> f64,
) -> (Vec<OpenSpot>, f64) {
    let squares = open_squares(game, s);
    let looks: Vec<SquareLook> = (squares.iter().enumerate())
        .map(|(j, &(pos, entries))| {
            let front = game.board().frontier_at(pos).map(|f| (f.required, f.care));
            // A square nothing touches yet (on land): a tile goes there only once a neighbour
            // is placed.
            let untouched = j < MAX_MATCHED_SPOTS && front.is_none() && game.on_land(pos);
            (front, entries, untouched)
        })
        .collect();
    let counted;
    let tally = match tallies {
        Some(tallies) => tallies.of(game, looks),
        None => {
            counted = Tally::count(game, &looks);
            &counted
        }
    };
    let spots: Vec<OpenSpot> = (squares.iter().zip(&tally.counts))
        .map(|(&(pos, _), &(fits, closes))| OpenSpot { pos, fits, closes })
        .collect();
    let (n, d) = (game.pack_left(), draws_for(game, owner));
    let chance = if spots.len() > MAX_MATCHED_SPOTS {
        spots.iter().map(|sp| chance_any(sp.closes, n, d)).product()
    } else {
        chance(&tally.kinds, spots.len(), n, d)
    };
    (spots, chance)
}

/// What decides an open square's closing tiles, the pack aside: what its neighbours demand
/// (required edges, sides with a neighbour; `None` for a square nothing touches), the sides
/// the feature enters it by, and whether it is an untouched square on land.
type SquareLook = (Option<(u8, u8)>, u8, bool);

/// The tiles left counted for a feature's open squares: per square, the copies that fit it
/// and that close the feature there; and per kind left, its copies and the mask of the squares
/// they close (a kind whose copies only partly fit the untouched squares listed twice).
#[derive(Debug)]
struct Tally {
    counts: Vec<(u32, u32)>,
    kinds: Vec<(u32, u16)>,
}

impl Tally {
    fn count(game: &Game, looks: &[SquareLook]) -> Tally {
        let mut counts = vec![(0u32, 0u32); looks.len()];
        let untouched: u16 = (looks.iter().enumerate())
            .filter(|(_, look)| look.2)
            .fold(0, |m, (j, _)| m | 1 << j);
        let shares = edge_shares(game);
        let mut kinds: Vec<(u32, u16)> = Vec::new();
        for (kind, copies) in pack_kinds(game) {
            let mut mask = 0u16;
            for (j, &(front, entries, _)) in looks.iter().enumerate() {
                let Some((required, care)) = front else { continue };
                let square = FrontierSquare {
                    pos: Pos::new(0, 0),
                    required,
                    care,
                };
                let fits = kind.unique.iter().any(|&(_, edges)| square.accepts(edges));
                let closing = fits && closes(kind, &square, entries);
                counts[j].0 += copies * u32::from(fits);
                counts[j].1 += copies * u32::from(closing);
                if closing && j < MAX_MATCHED_SPOTS {
                    mask |= 1 << j;
                }
            }
            let fitting = (f64::from(copies) * untouched_share(kind, &shares)).round() as u32;
            for (count, _) in counts.iter_mut().zip(looks).filter(|(_, look)| look.2) {
                count.0 += fitting;
                count.1 += fitting;
            }
            kinds.push((fitting, mask | untouched));
            kinds.push((copies - fitting, mask));
        }
        Tally { counts, kinds }
    }
}

/// Tallies already counted, for one pack: the alternatives of a turn leave the pack alike and
/// most features' squares alike, and counting every kind left against every square was a
/// tenth of a turn page. A position with another pack (or another game's tiles) empties them.
#[derive(Debug, Default)]
struct Tallies {
    pack: Vec<u8>,
    catalog: Option<Arc<TileCatalog>>,
    by_looks: rustc_hash::FxHashMap<Vec<SquareLook>, Tally>,
}

impl Tallies {
    fn of(&mut self, game: &Game, looks: Vec<SquareLook>) -> &Tally {
        let same_tiles = self.catalog.as_ref().is_some_and(|c| Arc::ptr_eq(c, game.catalog()));
        if !same_tiles || self.pack != game.pack() {
            self.pack.clear();
            self.pack.extend_from_slice(game.pack());
            self.catalog = Some(Arc::clone(game.catalog()));
            self.by_looks.clear();
        }
        self.by_looks
            .entry(looks)
            .or_insert_with_key(|looks| Tally::count(game, looks))
    }
}

/// Each edge type's share of the edges of the tiles left but River tiles (indexed by
/// `Edge`): what a square nothing touches yet is likeliest to face once a neighbour is placed.
fn edge_shares(game: &Game) -> [f64; 4] {
    let mut counts = [0u32; 4];
    for (kind, copies) in pack_kinds(game).filter(|(k, _)| !is_river_tile(k)) {
        for side in Side::ALL {
            counts[kind.oriented(Rotation::ALL[0]).edge(side) as usize] += copies;
        }
    }
    let total: u32 = counts.iter().sum();
    counts.map(|c| {
        if total == 0 {
            0.0
        } else {
            f64::from(c) / f64::from(total)
        }
    })
}

/// The chance that a copy of `kind` fits a square nothing touches yet, once one neighbour is
/// placed there: the share of the edges left it has a matching edge for (any rotation turns
/// that edge to face the neighbour). River tiles never go there.
fn untouched_share(kind: &TileKind, shares: &[f64; 4]) -> f64 {
    if is_river_tile(kind) {
        return 0.0;
    }
    let o = kind.oriented(Rotation::ALL[0]);
    [Edge::Field, Edge::City, Edge::Road]
        .into_iter()
        .filter(|&e| Side::ALL.into_iter().any(|side| o.edge(side) == e))
        .map(|e| shares[e as usize])
        .sum()
}

/// How many of the draws left in the game fall to `player`; the player whose turn it is draws
/// first. Discards are ignored: they are rare.
pub fn draws_for(game: &Game, player: u8) -> u32 {
    let players = game.players().len() as u32;
    let n = game.pack_left();
    let offset = (u32::from(player) + players - u32::from(game.current_player())) % players;
    if n > offset { (n - offset - 1) / players + 1 } else { 0 }
}

/// Enumeration size past which the search's quick chance ([`PastExact::Independent`]) stops
/// summing exactly: it asks at every sample's horizon, so it must stay cheap.
const MAX_EXACT_TERMS: usize = 1_000;

/// How [`chance_all_closed`] answers past the exact sum's reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PastExact {
    /// Exact up to `MAX_EXACT_SPOTS` spots, then up to `SAMPLES` draws matched to the spots one
    /// tile each: about a point from the exact chance.
    Sampled,
    /// Exact up to `MAX_EXACT_TERMS` outcomes, then each spot's chance of a closing tile on its
    /// own, multiplied: no cost, but blind to two spots wanting the same tile.
    Independent,
}

/// The chance that `d` tiles drawn at random from the `n` left close each of `spots` spots with
/// a tile of its own. `kinds` lists tiles by (copies, mask of the spots a copy can close).
///
/// Tiles that close the same spots are grouped. A spot no tile closes makes it 0 at once, and a
/// spot every tile left closes needs no care: any draw beyond those the other spots take fills
/// it. The rest is [`chance_exact`], or past its reach as `past` says.
pub fn chance_all_closed(kinds: &[(u32, u16)], spots: usize, n: u32, d: u32, past: PastExact) -> f64 {
    match closing_groups(kinds, spots, n, d) {
        Err(settled) => settled,
        Ok((groups, spots)) => grouped_chance(&groups, spots, n, d, past),
    }
}

/// The closing tiles of [`chance_all_closed`] grouped by the spots they close, with the spots
/// left to match; or the chance when it is settled without matching (0 or 1).
fn closing_groups(kinds: &[(u32, u16)], spots: usize, n: u32, d: u32) -> Result<(Vec<(u32, u16)>, usize), f64> {
    if spots == 0 {
        return Err(1.0);
    }
    if d < spots as u32 {
        return Err(0.0);
    }
    let full = u16::MAX >> (16 - spots.min(16));
    let mut groups: Vec<(u32, u16)> = Vec::new();
    for &(copies, mask) in kinds.iter().filter(|(c, m)| *c > 0 && m & full != 0) {
        match groups.iter_mut().find(|(_, m)| *m == mask) {
            Some(g) => g.0 += copies,
            None => groups.push((copies, mask)),
        }
    }
    // A spot no tile left closes: no draw completes the feature (a turn page asks this of
    // every open feature that has one).
    if groups.iter().fold(0, |m, g| m | g.1) & full != full {
        return Err(0.0);
    }
    let closing: u32 = groups.iter().map(|g| g.0).sum();
    let universal = if n <= closing {
        groups.iter().fold(full, |u, g| u & g.1)
    } else {
        0
    };
    let spots = spots - universal.count_ones() as usize;
    if spots == 0 {
        return Err(1.0);
    }
    Ok((
        groups.into_iter().map(|(c, m)| (c, without(m, universal))).collect(),
        spots,
    ))
}

/// [`chance_all_closed`] of grouped closing tiles: exact within reach, else as `past` says.
fn grouped_chance(groups: &[(u32, u16)], spots: usize, n: u32, d: u32, past: PastExact) -> f64 {
    let exact = match past {
        PastExact::Sampled => chance_exact(groups, spots, n, d),
        PastExact::Independent => {
            let terms = (2 * spots + 1).checked_pow(groups.len() as u32).unwrap_or(usize::MAX);
            if terms <= MAX_EXACT_TERMS {
                chance_exact(groups, spots, n, d)
            } else {
                None
            }
        }
    };
    exact.unwrap_or_else(|| match past {
        PastExact::Sampled => chance_sampled(groups, spots, n, d),
        PastExact::Independent => chance_independent(groups, spots, n, d),
    })
}

/// Spots past this many are not summed exactly: a [`Closable`] has a bit per set of spots.
const MAX_EXACT_SPOTS: usize = 8;
/// States of the exact sum past which it gives up for sampling: a monastery with seven or
/// eight empty squares and a dozen kinds of tile left can reach it.
const MAX_STATES: usize = 256;

/// The sets of spots the closing tiles drawn so far can close one tile each: bit `s` is set
/// when every spot of the set `s` (a spot mask) can have a tile of its own. The empty set is
/// always closable, and the sets only grow as tiles are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Closable([u64; 4]);

/// Per spot below 6, the bits of the sets without it, within a word of 64 sets.
const WITHOUT_SPOT: [u64; 6] = [
    0x5555_5555_5555_5555,
    0x3333_3333_3333_3333,
    0x0f0f_0f0f_0f0f_0f0f,
    0x00ff_00ff_00ff_00ff,
    0x0000_ffff_0000_ffff,
    0x0000_0000_ffff_ffff,
];

impl Closable {
    const NOTHING: Closable = Closable([1, 0, 0, 0]);
    /// Once every spot can be closed, what else can is of no interest: one state stands for it.
    const ALL: Closable = Closable([u64::MAX; 4]);

    fn has(&self, set: usize) -> bool {
        (self.0[set / 64] >> (set % 64)) & 1 != 0
    }

    /// After drawing one more tile, which closes the spots of `mask`: each closable set without
    /// one of those spots becomes closable with it. The tile serves one spot, so each new set
    /// comes from a set closable before it.
    fn with_tile(self, mask: u16) -> Closable {
        let before = self.0;
        let mut after = before;
        for spot in (0..MAX_EXACT_SPOTS).filter(|j| mask & (1 << j) != 0) {
            if spot < 6 {
                for (word, &b) in after.iter_mut().zip(&before) {
                    *word |= (b & WITHOUT_SPOT[spot]) << (1 << spot);
                }
            } else {
                // Spots 6 and 7 select words: sets without spot 6 are in words 0 and 2.
                let apart = 1 << (spot - 6);
                for w in (0..4).filter(|w| w & apart == 0) {
                    after[w + apart] |= before[w];
                }
            }
        }
        Closable(after)
    }
}

/// [`chance_all_closed`] summed exactly over the draws, for up to `MAX_EXACT_SPOTS` spots;
/// `None` past its reach.
///
/// It goes through the groups of alike tiles one at a time, keeping for each set of closable
/// spot sets the draws can have reached so far the number of draws that reach it, by how many
/// closing tiles they hold: `x` tiles of a group of `copies` come `C(copies, x)` ways. At the end
/// the tiles that close nothing fill each draw up, and the draws in which every spot can be
/// closed, over all draws, are the chance.
fn chance_exact(groups: &[(u32, u16)], spots: usize, n: u32, d: u32) -> Option<f64> {
    if spots > MAX_EXACT_SPOTS {
        return None;
    }
    if spots == 1 {
        // Any closing tile will do: the common case, and the search asks it at every horizon.
        // A group may close nothing left to match (only a spot every tile closes, taken out).
        let closing = groups.iter().filter(|g| g.1 & 1 != 0).map(|g| g.0).sum();
        return Some(chance_any(closing, n, d));
    }
    let all = (1usize << spots) - 1;
    let width = d as usize + 1;
    let others = n.saturating_sub(groups.iter().map(|g| g.0).sum());
    // Per state, draws by closing tiles held (0 to `d`), a row of `width` in one flat buffer
    // (a vector per state was a tenth of a turn page in allocations); states in the order
    // first reached, so the sum (and the chance shown) is the same every time.
    let mut states = vec![Closable::NOTHING];
    let mut ways = vec![0.0; width];
    ways[0] = 1.0;
    let (mut next_states, mut next_ways) = (Vec::new(), Vec::new());
    // Where each state reached is in `next_states`: a fast hash, as a scan over hundreds of
    // states was a tenth of a turn page.
    let mut at_state: rustc_hash::FxHashMap<Closable, usize> = rustc_hash::FxHashMap::default();
    // The most closing tiles a draw can hold so far: past it every count is 0, and adding
    // those zeros would change nothing, so they are skipped.
    let mut most = 0usize;
    for &(copies, mask) in groups {
        let taken: Vec<f64> = (0..=copies.min(d)).map(|x| binomial(copies, x)).collect();
        next_states.clear();
        next_ways.clear();
        at_state.clear();
        let held = most + 1;
        most = (most + copies as usize).min(width - 1);
        for (closable, by_drawn) in states.iter().zip(ways.chunks_exact(width)) {
            let by_drawn = &by_drawn[..held];
            let mut now = *closable;
            for (x, &choose) in taken.iter().enumerate() {
                let at = *at_state.entry(now).or_insert_with(|| {
                    next_states.push(now);
                    next_ways.resize(next_ways.len() + width, 0.0);
                    next_states.len() - 1
                });
                let row = &mut next_ways[at * width..(at + 1) * width];
                for (into, from) in row[x..].iter_mut().zip(by_drawn) {
                    *into += from * choose;
                }
                if now != Closable::ALL {
                    now = now.with_tile(mask);
                    if now.has(all) {
                        now = Closable::ALL;
                    }
                }
            }
        }
        if next_states.len() > MAX_STATES {
            return None;
        }
        std::mem::swap(&mut states, &mut next_states);
        std::mem::swap(&mut ways, &mut next_ways);
    }
    let closed: f64 = (states.iter().zip(ways.chunks_exact(width)))
        .filter(|(state, _)| **state == Closable::ALL)
        .flat_map(|(_, by_drawn)| by_drawn.iter().enumerate())
        .map(|(drawn, count)| count * binomial(others, d - drawn as u32))
        .sum();
    Some((closed / binomial(n, d)).clamp(0.0, 1.0))
}

/// Draws sampled when the exact sum is too large, at most: the standard error of the chance
/// is then at most 0.5/√SAMPLES, about 1.1 points.
const SAMPLES: u32 = 2_000;
/// Draws are sampled in batches of this many, and stop once the chance's estimated standard
/// error is [`SAMPLED_STD_ERROR`] or less: a chance near 0 or 1 needs far fewer draws than
/// one near ½, and a turn page asks for dozens of them.
const SAMPLES_BATCH: u32 = 250;
const SAMPLED_STD_ERROR: f64 = 0.011;

/// [`chance_all_closed`] estimated from up to `SAMPLES` draws of `d` tiles out of `n` (a fixed seed:
/// the same position always gets the same chance). Each draw counts when its closing tiles can
/// be matched to the spots one tile each, so needing many spots takes as many distinct tiles.
fn chance_sampled(groups: &[(u32, u16)], spots: usize, n: u32, d: u32) -> f64 {
    // The pool holds each tile's group: copies of a group close the same spots, so a draw is
    // only how many of each group it holds.
    let mut pool: Vec<u16> = (groups.iter().enumerate())
        .flat_map(|(g, &(copies, _))| std::iter::repeat_n(g as u16, copies as usize))
        .collect();
    pool.resize((n as usize).max(pool.len()), CLOSES_NOTHING);
    let d = (d as usize).min(pool.len());
    let masks: Vec<u16> = groups.iter().map(|g| g.1).collect();
    let mut counts = vec![0u32; groups.len()];
    let mut rng = Rng::new(0x00c0_ffee);
    let (mut hits, mut drawn) = (0u32, 0u32);
    while drawn < SAMPLES {
        for _ in 0..SAMPLES_BATCH {
            for i in 0..d {
                let j = i + rng.below(pool.len() - i);
                pool.swap(i, j);
            }
            counts.fill(0);
            for &g in pool[..d].iter().filter(|&&g| g != CLOSES_NOTHING) {
                counts[usize::from(g)] += 1;
            }
            hits += u32::from(all_matched(&masks, &counts, spots));
        }
        drawn += SAMPLES_BATCH;
        let p = f64::from(hits) / f64::from(drawn);
        if (p * (1.0 - p) / f64::from(drawn)).sqrt() <= SAMPLED_STD_ERROR {
            break;
        }
    }
    f64::from(hits) / f64::from(drawn)
}

/// A tile of the pool that closes no spot (the groups are numbered from 0).
const CLOSES_NOTHING: u16 = u16::MAX;

/// [`chance_all_closed`] as if each spot's closing tiles arrived apart from the others'.
fn chance_independent(groups: &[(u32, u16)], spots: usize, n: u32, d: u32) -> f64 {
    (0..spots)
        .map(|j| {
            let closing = groups.iter().filter(|g| g.1 & (1 << j) != 0).map(|g| g.0).sum();
            chance_any(closing, n, d)
        })
        .product()
}

/// Whether `counts[g]` drawn tiles of each group `g`, each closing the spots of `masks[g]`,
/// close all `spots` spots with a tile each: a maximum bipartite matching by augmenting paths,
/// the copies of a group standing in for one another.
fn all_matched(masks: &[u16], counts: &[u32], spots: usize) -> bool {
    if spots == 0 {
        return true;
    }
    // Most draws fail for want of a tile for some spot, or of as many tiles as spots: both are
    // seen without matching (this runs thousands of times per feature on a turn page).
    let full = u16::MAX >> (16 - spots.min(16));
    let drawn = || masks.iter().zip(counts).filter(|(_, c)| **c > 0);
    let covered = drawn().fold(0u16, |m, (mask, _)| m | mask);
    let tiles: u32 = drawn().map(|(_, c)| c).sum();
    if covered & full != full || (tiles as usize) < spots {
        return false;
    }
    let mut holder = [None; MAX_MATCHED_SPOTS];
    let holder = &mut holder[..spots.min(MAX_MATCHED_SPOTS)];
    let mut matched = 0;
    for (g, &copies) in counts.iter().enumerate() {
        for _ in 0..copies {
            // A copy that finds no spot leaves the matching as it was: so would the next.
            if !augment(g, masks, holder, &mut 0) {
                break;
            }
            matched += 1;
            if matched == spots {
                return true;
            }
        }
    }
    false
}

/// Finds a spot for a tile of group `g`, moving the tiles already placed along an augmenting
/// path.
fn augment(g: usize, masks: &[u16], holder: &mut [Option<usize>], seen: &mut u16) -> bool {
    for j in 0..holder.len() {
        if masks[g] & (1 << j) == 0 || *seen & (1 << j) != 0 {
            continue;
        }
        *seen |= 1 << j;
        if holder[j].is_none_or(|other| augment(other, masks, holder, seen)) {
            holder[j] = Some(g);
            return true;
        }
    }
    false
}

/// `mask` with the bits of `removed` taken out and the higher bits moved down into their place.
fn without(mask: u16, removed: u16) -> u16 {
    (0..16)
        .filter(|b| removed & (1 << b) == 0)
        .enumerate()
        .fold(0, |out, (at, bit)| out | (((mask >> bit) & 1) << at))
}

/// `C(n, k)` as a float, from a table of log-factorials.
fn binomial(n: u32, k: u32) -> f64 {
    if k > n {
        return 0.0;
    }
    let lf = |i: u32| log_factorial(i as usize);
    (lf(n) - lf(k) - lf(n - k)).exp().round()
}

fn log_factorial(i: usize) -> f64 {
    static TABLE: std::sync::LazyLock<Vec<f64>> = std::sync::LazyLock::new(|| {
        let mut t = vec![0.0f64; 4097];
        for i in 1..t.len() {
            t[i] = t[i - 1] + (i as f64).ln();
        }
        t
    });
    TABLE
        .get(i)
        .copied()
        .unwrap_or_else(|| (1..=i).map(|x| (x as f64).ln()).sum())
}

/// The chance that at least one of `fits` good tiles is among `draws` drawn from `pack`.
pub fn chance_any(fits: u32, pack: u32, draws: u32) -> f64 {
    if fits == 0 || draws == 0 {
        return 0.0;
    }
    let bad = pack.saturating_sub(fits);
    if draws > bad {
        return 1.0;
    }
    // C(bad, d) / C(pack, d) = Π_{i<d} (bad − i) / (pack − i)
    let none: f64 = (0..draws).map(|i| f64::from(bad - i) / f64::from(pack - i)).product();
    1.0 - none
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kinds by copies and mask, spots, tiles in the pack, draws.
    type Case<'a> = (&'a [(u32, u16)], usize, u32, u32);

    /// Whether the drawn tiles (each a mask of spots it closes) close every spot with a tile
    /// of its own: tried by brute force, spot by spot.
    fn can_match(drawn: &[u16], spots: usize, used: &mut Vec<bool>, spot: usize) -> bool {
        if spot == spots {
            return true;
        }
        for i in 0..drawn.len() {
            if !used[i] && drawn[i] & (1 << spot) != 0 {
                used[i] = true;
                let ok = can_match(drawn, spots, used, spot + 1);
                used[i] = false;
                if ok {
                    return true;
                }
            }
        }
        false
    }

    /// The matching of the sampled chance, which counts the drawn tiles of each group, against
    /// trying every assignment of the drawn tiles one by one, on random draws.
    #[test]
    fn the_grouped_matching_agrees_with_trying_every_assignment() {
        let masks = [0b0001, 0b0011, 0b0110, 0b1100, 0b1000, 0b1111, 0b0101];
        let mut rng = Rng::new(7);
        let (mut matched, mut tried) = (0, 0);
        for _ in 0..3_000 {
            let spots = 1 + rng.below(4);
            let mut counts = vec![0u32; masks.len()];
            let drawn: Vec<u16> = (0..rng.below(7))
                .map(|_| {
                    let g = rng.below(masks.len());
                    counts[g] += 1;
                    masks[g] & (u16::MAX >> (16 - spots))
                })
                .collect();
            let masks: Vec<u16> = masks.iter().map(|m| m & (u16::MAX >> (16 - spots))).collect();
            let brute = can_match(&drawn, spots, &mut vec![false; drawn.len()], 0);
            assert_eq!(all_matched(&masks, &counts, spots), brute, "{drawn:?}, {spots} spots");
            (matched, tried) = (matched + usize::from(brute), tried + 1);
        }
        assert!(
            matched > 300 && tried - matched > 300,
            "both answers were tried: {matched} of {tried}"
        );
    }

    /// The exact sum against counting every draw of small packs one by one.
    #[test]
    fn the_exact_chance_agrees_with_counting_every_draw() {
        let cases: [Case; 12] = [
            (&[(9, 0b11)], 2, 9, 3),
            // Every tile left closes the first spot; only four close the second.
            (&[(4, 0b11), (4, 0b01), (1, 0b01), (2, 0b01)], 2, 11, 4),
            (&[(3, 0b111), (4, 0b101), (2, 0b100)], 3, 9, 4),
            (&[(3, 0b111), (4, 0b101), (2, 0b100)], 3, 9, 2),
            (&[(3, 0b1)], 1, 9, 3),
            (&[(3, 0b11)], 2, 10, 4),
            (&[(2, 0b01), (2, 0b10), (1, 0b11)], 2, 10, 5),
            (&[(1, 0b001), (2, 0b011), (2, 0b110)], 3, 11, 6),
            (&[(4, 0b111)], 3, 9, 5),
            (&[(1, 0b01), (1, 0b10)], 2, 6, 2),
            // A monastery's seven squares and a city's eight spots, with many kinds of tile:
            // past what summing every outcome could reach.
            (&[(2, 0x7f), (2, 0x3f), (2, 0x7e), (1, 0x5f), (2, 0x01)], 7, 14, 9),
            (&[(3, 0xff), (2, 0x0f), (2, 0xf0), (1, 0x81), (1, 0x18)], 8, 15, 10),
        ];
        for (kinds, spots, n, d) in cases {
            let mut pack: Vec<u16> = kinds
                .iter()
                .flat_map(|&(c, m)| std::iter::repeat_n(m, c as usize))
                .collect();
            pack.resize(n as usize, 0);
            let (mut good, mut all) = (0u64, 0u64);
            for subset in 0u32..1 << n {
                if subset.count_ones() != d {
                    continue;
                }
                let drawn: Vec<u16> = (0..n)
                    .filter(|i| subset & (1 << i) != 0)
                    .map(|i| pack[i as usize])
                    .collect();
                all += 1;
                good += u64::from(can_match(&drawn, spots, &mut vec![false; drawn.len()], 0));
            }
            let counted = good as f64 / all as f64;
            let computed = chance_all_closed(kinds, spots, n, d, PastExact::Sampled);
            assert!(
                (computed - counted).abs() < 1e-9,
                "{kinds:?}: {computed} against {counted}"
            );
        }
    }

    /// Hall's bounds hold the exact chance, on small packs and on many random ones, and meet it
    /// where one set of spots decides (a single group of tiles): the board's band is read off
    /// them only when both fall in it.
    #[test]
    fn the_bounds_hold_the_exact_chance() {
        let mut rng = crate::engine::Rng::new(7);
        let mut below = |n: u32| rng.below(n as usize) as u32;
        let mut checked = 0;
        for _ in 0..3_000 {
            let spots = 2 + below(5) as usize;
            let kinds: Vec<(u32, u16)> = (0..1 + below(5))
                .map(|_| (1 + below(4), 1 + below((1 << spots) - 1) as u16))
                .collect();
            let closing: u32 = kinds.iter().map(|k| k.0).sum();
            let n = closing + below(30);
            let d = below(n + 1);
            let Ok((groups, left)) = closing_groups(&kinds, spots, n, d) else {
                continue;
            };
            let Some(exact) = chance_exact(&groups, left, n, d) else {
                continue;
            };
            let (low, high) = closing_bounds(&groups, left, n, d).unwrap();
            assert!(low <= exact && exact <= high, "{kinds:?} {n} {d}: {low} {exact} {high}");
            checked += 1;
        }
        assert!(checked > 1_000, "{checked} cases summed exactly");
        let (low, high) = closing_bounds(&[(10, 0x7f)], 7, 40, 12).unwrap();
        let exact = chance_all_closed(&[(10, 0x7f)], 7, 40, 12, PastExact::Sampled);
        assert!((high - exact).abs() < 1e-6 && low <= exact, "{low} {exact} {high}");
    }

    /// The chance of exactly `j` of `good` tiles among `d` drawn from `n`, multiplied out.
    fn exactly(j: u32, good: u32, n: u32, d: u32) -> f64 {
        let choose = |n: u32, k: u32| (0..k).map(|i| f64::from(n - i) / f64::from(i + 1)).product::<f64>();
        choose(good, j) * choose(n - good, d - j) / choose(n, d)
    }

    /// Seven squares (a monastery with one neighbour) need seven distinct tiles: with 10 of
    /// the 40 tiles left fitting them and 12 draws, that takes 7 or more of the 10 among the
    /// 12, a small chance, though each square alone would very likely get one.
    #[test]
    fn many_squares_need_as_many_distinct_tiles() {
        let tail: f64 = (7..=10).map(|j| exactly(j, 10, 40, 12)).sum();
        let exact = chance_all_closed(&[(10, 0x7f)], 7, 40, 12, PastExact::Sampled);
        assert!((exact - tail).abs() < 1e-9, "{exact} against {tail}");
        assert!(exact < 0.01, "{exact}");
        // Ten fitting tiles of four kinds, each fitting most squares: still never more than
        // the chance of drawing seven of the ten.
        let kinds = [(3, 0x7f), (3, 0x3f), (2, 0x7e), (2, 0x5f)];
        let matched = chance_all_closed(&kinds, 7, 40, 12, PastExact::Sampled);
        assert!(matched <= tail + 1e-9, "{matched} against at most {tail}");
        let one_square = chance_any(8, 40, 12);
        assert!(one_square > 0.9, "each square alone: {one_square}");
    }

    /// The search's quick estimate: the exact sum where it is within reach, and past it each
    /// spot's chance of a closing tile on its own, multiplied. That is blind to seven squares
    /// wanting seven distinct tiles among ten, so it is far above the matched chance there.
    #[test]
    fn the_quick_chance_is_exact_within_reach_and_spot_by_spot_past_it() {
        let small: Case = (&[(3, 0b111), (4, 0b101), (2, 0b100)], 3, 9, 4);
        let (kinds, spots, n, d) = small;
        assert_eq!(
            chance_all_closed(kinds, spots, n, d, PastExact::Independent),
            chance_all_closed(kinds, spots, n, d, PastExact::Sampled)
        );
        let kinds = [(3, 0x7f), (3, 0x3f), (2, 0x7e), (2, 0x5f)];
        let quick = chance_all_closed(&kinds, 7, 40, 12, PastExact::Independent);
        let by_hand: f64 = (0..7)
            .map(|j| {
                let closing = kinds.iter().filter(|k| k.1 & (1 << j) != 0).map(|k| k.0).sum();
                chance_any(closing, 40, 12)
            })
            .product();
        assert!((quick - by_hand).abs() < 1e-12, "{quick} against {by_hand}");
        let matched = chance_all_closed(&kinds, 7, 40, 12, PastExact::Sampled);
        assert!(quick > matched + 0.2, "{quick} against the matched {matched}");
    }

    /// The sampled chance against the exact sum where both are possible.
    #[test]
    fn the_sampled_chance_agrees_with_the_exact_sum() {
        let cases: [Case; 4] = [
            (&[(3, 0b111), (4, 0b101), (2, 0b100)], 3, 9, 4),
            (&[(2, 0b01), (2, 0b10), (1, 0b11)], 2, 10, 5),
            (&[(10, 0x7f)], 7, 40, 20),
            (&[(20, 0b1111), (5, 0b0001), (5, 0b0010)], 4, 60, 10),
        ];
        for (kinds, spots, n, d) in cases {
            let exact = chance_all_closed(kinds, spots, n, d, PastExact::Sampled);
            let sampled = chance_sampled(kinds, spots, n, d);
            // Four standard errors of SAMPLES draws at most.
            assert!((exact - sampled).abs() < 0.045, "{kinds:?}: {sampled} against {exact}");
        }
    }

    #[test]
    fn hypergeometric_edges() {
        assert_eq!(chance_any(0, 50, 10), 0.0);
        assert_eq!(chance_any(5, 50, 0), 0.0);
        assert_eq!(chance_any(45, 50, 6), 1.0, "more draws than non-fitting tiles");
        // One fitting tile among 10, one draw: 1/10.
        assert!((chance_any(1, 10, 1) - 0.1).abs() < 1e-12);
        // Two draws: 1 − (9/10)(8/9) = 0.2.
        assert!((chance_any(1, 10, 2) - 0.2).abs() < 1e-12);
    }
}
