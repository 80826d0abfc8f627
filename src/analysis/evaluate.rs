//! The immediate evaluation of one alternative: play it on a copy of the position and read what
//! changed. Every number comes from the engine (`play_listed`, `finish`, the feature
//! union-find); nothing here scores a feature itself.

use super::completion::{Chances, OpenSpot, feature_chance};
use crate::engine::bots::{Spares, margin};
use crate::engine::features::{MAX_PLAYERS, majority};
use crate::engine::rules::{Completion, completion};
use crate::engine::{Action, Event, FeatureKind, Game, GameKind, Move, SegId};
use std::collections::HashMap;

/// A follower in supply is worth this many points at the start of the game, falling linearly to
/// nothing as the pack empties: the chances to use it run out.
pub const MEEPLE_VALUE: f64 = 3.0;

/// The ranking heuristic, as the pages show it; `evaluate` computes it as `HeuristicParts`.
pub const HEURISTIC_FORMULA: &str = "value = margin + outlook − meeple cost, in points, for the mover. \
margin: change in the mover's score if the game ended now, minus the largest such change among \
the opponents (points scored this turn are part of it). \
outlook: for every open road, city, cloister or garden the move touches, completion chance × \
the points its owners would score if the game ended now, counted + when the mover owns it and − \
when an opponent does (0 for a shared one), after the move minus the same for those features \
before it. A completed city doubles and a completed road or cloister frees its meeple, so the \
points at stake are roughly what completion adds. \
meeple cost: 3 × (tiles left ÷ tiles in the game) × followers the move takes out of the \
mover's supply (negative when a completed feature sends them home).";

/// [`HEURISTIC_FORMULA`] in the game's own words: New World's trails, towns and farms, and its
/// settlers.
pub fn heuristic_formula(game: GameKind) -> String {
    match game {
        GameKind::NewWorld => HEURISTIC_FORMULA
            .replace("road, city, cloister or garden", "trail, town or farm")
            .replace(
                "A completed city doubles and a completed road or cloister frees its meeple",
                "A completed town doubles and a completed trail or farm frees its settler",
            )
            .replace("meeple cost", "settler cost")
            .replace("followers", "settlers"),
        GameKind::Carcassonne | GameKind::CardGame => HEURISTIC_FORMULA.to_string(),
    }
}

/// One feature the move extends, closes or joins (or a new one it starts).
#[derive(Clone, Debug, PartialEq)]
pub struct FeatureEffect {
    pub kind: FeatureKind,
    /// Distinct tiles (cloisters and gardens: the tile and its neighbours) after the move.
    pub tiles: u32,
    pub shields: u32,
    /// Features already on the board this tile connects: 0 starts one, 1 extends one, 2 or more
    /// joins them.
    pub joined: u8,
    /// Completed by this move (scored now).
    pub closed: bool,
    /// Meeples per player on it after the move, counted before any scoring sent them home.
    pub meeples: Vec<u8>,
    /// The players with the most meeples (all of them on a tie).
    pub owners: Vec<u8>,
    /// Points its owners score now (closed) or would score if the game ended now (open).
    pub at_stake: u32,
    /// Empty squares it reaches, with the tiles left that fit and that close it there; empty
    /// when closed or a field.
    pub open_spots: Vec<OpenSpot>,
    /// Chance of completion (see `completion`): 1 when closed, `None` for fields and plains.
    pub completion: Option<f64>,
}

/// The heuristic value split into the terms of `HEURISTIC_FORMULA`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HeuristicParts {
    pub margin: f64,
    pub outlook: f64,
    pub meeple_cost: f64,
}

impl HeuristicParts {
    pub fn value(&self) -> f64 {
        self.margin + self.outlook - self.meeple_cost
    }
}

/// What one alternative does right away.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Points each player scores this turn.
    pub immediate: Vec<i32>,
    /// Change in each player's score if the game ended now, against the position before.
    pub if_ended_change: Vec<i32>,
    pub features: Vec<FeatureEffect>,
    /// The mover's figures (followers and abbot) leaving supply, net: +1 for a deployment, −1
    /// for the abbot taken back, less any that a completed feature sends home.
    pub meeples_committed: i32,
    pub heuristic: HeuristicParts,
}

/// What the evaluations of one turn's alternatives reuse from one to the next.
#[derive(Debug, Default)]
pub struct Scratch {
    /// A buffer for feature sizes.
    segments: Vec<u16>,
    chances: Chances,
    /// Copies of the position already given back, whose memory the next copy reuses.
    spares: Spares,
}

/// The position before the move, measured once per turn and shared by every alternative.
pub struct Baseline {
    mover: u8,
    scores: Vec<i32>,
    if_ended: Vec<i32>,
    /// Outlook term (signed completion chance × points at stake) of each occupied open feature.
    outlook: HashMap<SegId, f64>,
    tiles_in_game: u32,
}

impl Baseline {
    /// The drawn tile is still in the pack here, so it counts as the mover's next draw: the
    /// mover does hold it.
    pub fn new(before: &Game, scratch: &mut Scratch) -> Baseline {
        let mover = before.current_player();
        let (if_ended, stakes) = ended_now(before);
        let mut outlook = HashMap::new();
        let features = before.features();
        for s in 0..features.len() as SegId {
            let kind = features.kind(s);
            let root = features.root(s);
            // Occupied cloisters and gardens are always open: surrounding one scores it and
            // sends its figure home. (Their union-find nodes have no edges, so never "open".)
            let open = kind.is_inner() || !features.is_complete(s);
            if root != s || !has_outlook(kind) || !open || !features.is_occupied(s) {
                continue;
            }
            let owners = owners_of(&features.count_meeples(s), before.players().len());
            let stake = stakes.get(&root).copied().unwrap_or(0);
            outlook.insert(
                root,
                outlook_term(before, s, mover, &owners, stake, &mut scratch.chances),
            );
        }
        Baseline {
            mover,
            scores: before.scores(),
            if_ended,
            outlook,
            tiles_in_game: before.pack_left() + before.board().tiles().len() as u32,
        }
    }

    pub fn if_ended(&self) -> &[i32] {
        &self.if_ended
    }
}

fn has_outlook(kind: FeatureKind) -> bool {
    matches!(
        kind,
        FeatureKind::City
            | FeatureKind::Road
            | FeatureKind::Cloister
            | FeatureKind::Garden
            | FeatureKind::Town
            | FeatureKind::Trail
            | FeatureKind::Farm
    )
}

/// Scores if the game ended now, and the points each scored feature (by root) would pay.
fn ended_now(game: &Game) -> (Vec<i32>, HashMap<SegId, u32>) {
    let mut g = game.clone();
    let mut events = Vec::new();
    g.finish(&mut events);
    let mut stakes = HashMap::new();
    add_stakes(&g, &events, &mut stakes);
    (g.scores(), stakes)
}

/// Records the points of every `Scored` event against its feature's root.
fn add_stakes(game: &Game, events: &[Event], stakes: &mut HashMap<SegId, u32>) {
    for e in events {
        if let Event::Scored(s) = e
            && let Some(root) = scored_root(game, s)
        {
            *stakes.entry(root).or_insert(0) += s.points;
        }
    }
}

/// The feature a score event names, found from its position and location.
fn scored_root(game: &Game, s: &crate::engine::Score) -> Option<SegId> {
    let i = game.board().tile_index_at(s.pos)?;
    let t = game.board().tiles()[i];
    let seg = game
        .tile_kind(t.kind)
        .segment_at(t.rotation, s.feature, Some(s.location))?;
    Some(game.features().root(game.segment_id(i, seg)))
}

fn owners_of(counts: &[u8; MAX_PLAYERS], players: usize) -> Vec<u8> {
    majority(counts).iter().filter(|&p| (p as usize) < players).collect()
}

/// + when the mover owns the feature, − when an opponent does, 0 when they share it.
fn owner_sign(mover: u8, owners: &[u8]) -> f64 {
    let mine = owners.contains(&mover);
    let theirs = owners.iter().any(|&p| p != mover);
    f64::from(i8::from(mine) - i8::from(theirs))
}

/// The player whose draws decide a feature's completion: the mover unless only others own it.
fn draws_owner(mover: u8, owners: &[u8]) -> u8 {
    if owners.is_empty() || owners.contains(&mover) {
        mover
    } else {
        owners[0]
    }
}

fn outlook_term(game: &Game, s: SegId, mover: u8, owners: &[u8], stake: u32, chances: &mut Chances) -> f64 {
    let sign = owner_sign(mover, owners);
    if sign == 0.0 || stake == 0 {
        return 0.0;
    }
    let (_, chance) = feature_chance(game, s, draws_owner(mover, owners), chances);
    sign * chance * f64::from(stake)
}

/// A touched feature before its stake is known, with the features it came from.
struct Touched {
    /// A segment of the feature in the position after the move.
    seg: SegId,
    before_roots: Vec<SegId>,
    effect: FeatureEffect,
}

/// Plays `mv` on a copy of `before` and measures it.
pub fn evaluate(before: &Game, base: &Baseline, mv: &Move, scratch: &mut Scratch) -> Evaluation {
    let mut after = scratch.spares.copy_of(before);
    let mut events = Vec::new();
    after.play_listed(mv, &mut events);
    let immediate = per_player(&after, &base.scores);
    let mut touched = touched_features(before, &after, mv, &mut scratch.segments);
    let meeples_committed = figures_out(&after, base.mover) - figures_out(before, base.mover);
    let followers_out = follower_delta(before, &after, base.mover);
    let stakes = finish_with_stakes(&mut after, &events);
    let outlook = outlook_change(&after, base, &stakes, &mut touched, &mut scratch.chances);
    let if_ended_change = per_player(&after, &base.if_ended);
    let game_left = f64::from(after.pack_left()) / f64::from(base.tiles_in_game.max(1));
    let heuristic = HeuristicParts {
        margin: f64::from(margin(if_ended_change.iter().copied(), base.mover)),
        outlook,
        meeple_cost: MEEPLE_VALUE * game_left * f64::from(followers_out),
    };
    scratch.spares.give_back(after);
    Evaluation {
        immediate,
        if_ended_change,
        features: touched.into_iter().map(|t| t.effect).collect(),
        meeples_committed,
        heuristic,
    }
}

/// Each player's score in `game` minus `reference`.
fn per_player(game: &Game, reference: &[i32]) -> Vec<i32> {
    (game.players().iter().zip(reference))
        .map(|(p, r)| p.score - r)
        .collect()
}

/// Runs final scoring on the position after a move and returns the points each feature paid,
/// during the move (`play_events`) or at the end. Final scoring changes scores only: board,
/// features and pack stay as the move left them, so the copy still describes the open position.
fn finish_with_stakes(after: &mut Game, play_events: &[Event]) -> HashMap<SegId, u32> {
    let mut stakes = HashMap::new();
    add_stakes(after, play_events, &mut stakes);
    let mut end_events = Vec::new();
    after.finish(&mut end_events);
    add_stakes(after, &end_events, &mut stakes);
    stakes
}

/// Fills in each touched feature's stake, spots and chance; returns the outlook term after the
/// move minus the one its features had before.
fn outlook_change(
    after: &Game,
    base: &Baseline,
    stakes: &HashMap<SegId, u32>,
    touched: &mut [Touched],
    chances: &mut Chances,
) -> f64 {
    let before: f64 = (touched.iter())
        .flat_map(|t| &t.before_roots)
        .filter_map(|r| base.outlook.get(r))
        .sum();
    let mut now = 0.0;
    for t in touched.iter_mut() {
        let root = after.features().root(t.seg);
        t.effect.at_stake = stakes.get(&root).copied().unwrap_or(0);
        now += fill_outlook(after, base.mover, t, chances);
    }
    now - before
}

/// Figures of `player` on the board: followers out of supply, plus the abbot.
fn figures_out(game: &Game, player: u8) -> i32 {
    let p = game.players()[player as usize];
    -i32::from(p.followers) + i32::from(p.abbot_at.is_some())
}

fn follower_delta(before: &Game, after: &Game, player: u8) -> i32 {
    i32::from(before.players()[player as usize].followers) - i32::from(after.players()[player as usize].followers)
}

/// Sets the open spots and completion chance of an open feature; returns its outlook term.
fn fill_outlook(after: &Game, mover: u8, t: &mut Touched, chances: &mut Chances) -> f64 {
    let e = &mut t.effect;
    if completion(e.kind) == Completion::Never {
        // Fields and New World's plains are never completed: no chance to weigh.
        return 0.0;
    }
    if e.closed {
        e.completion = Some(1.0);
        return 0.0;
    }
    let (spots, chance) = feature_chance(after, t.seg, draws_owner(mover, &e.owners), chances);
    e.open_spots = spots;
    e.completion = Some(chance);
    owner_sign(mover, &e.owners) * chance * f64::from(e.at_stake)
}

/// Every feature of the placed tile, plus the occupied cloisters and gardens around it.
fn touched_features(before: &Game, after: &Game, mv: &Move, scratch: &mut Vec<u16>) -> Vec<Touched> {
    let index = after.board().tiles().len() - 1;
    let placed = after.board().tiles()[index];
    let kind = after.tile_kind(placed.kind);
    let mut out: Vec<Touched> = Vec::new();
    for seg in 0..kind.segments.len() as u8 {
        let s = after.segment_id(index, seg);
        let fk = kind.segments[seg as usize].kind;
        let root = after.features().root(s);
        let seen = out
            .iter()
            .any(|t| !fk.is_inner() && after.features().root(t.seg) == root);
        if fk == FeatureKind::River || seen {
            continue;
        }
        let deployed = deployed_on(mv, seg, |d| after.features().root(after.segment_id(index, d)) == root);
        out.push(if fk.is_inner() {
            own_inner(after, s, fk, deployed, before.current_player())
        } else {
            edge_feature(before, after, s, placed.first_segment, deployed, scratch)
        });
    }
    out.extend(inner_neighbours(before, after, placed.pos));
    out
}

/// Whether the move's deployment lands on this feature (`same` says if a segment is in it).
fn deployed_on(mv: &Move, seg: u8, same: impl Fn(u8) -> bool) -> bool {
    match mv.action {
        Action::Deploy { segment, .. } => segment == seg || same(segment),
        _ => false,
    }
}

fn own_inner(after: &Game, s: SegId, kind: FeatureKind, deployed: bool, mover: u8) -> Touched {
    let pos = after.board().tiles()[after.features().tile_of(s) as usize].pos;
    let around = after.surrounding(pos);
    let mut meeples = vec![0; after.players().len()];
    if deployed {
        meeples[mover as usize] = 1;
    }
    let owners = if deployed { vec![mover] } else { Vec::new() };
    Touched {
        seg: s,
        before_roots: Vec::new(),
        effect: effect(kind, 1 + around, 0, 0, around == 8, meeples, owners),
    }
}

/// A road, city or field of the placed tile: its size after, the features it came from and the
/// meeples they carried.
fn edge_feature(
    before: &Game,
    after: &Game,
    s: SegId,
    first_new: SegId,
    deployed: bool,
    scratch: &mut Vec<u16>,
) -> Touched {
    let f = after.features();
    let kind = f.kind(s);
    let mut before_roots: Vec<SegId> = f
        .members(s)
        .filter(|&m| m < first_new)
        .map(|m| before.features().root(m))
        .collect();
    before_roots.sort_unstable();
    before_roots.dedup();
    let players = after.players().len();
    let mut counts = [0u8; MAX_PLAYERS];
    for &r in &before_roots {
        let c = before.features().count_meeples(r);
        counts.iter_mut().zip(c).for_each(|(a, b)| *a += b);
    }
    if deployed {
        counts[before.current_player() as usize] += 1;
    }
    let size = f.size(s, scratch);
    let (tiles, shields) = (size.tiles, size.marks);
    let closed = completion(kind) == Completion::ClosedEdges && f.is_complete(s);
    let owners = owners_of(&counts, players);
    let joined = before_roots.len().min(u8::MAX as usize) as u8;
    Touched {
        seg: s,
        before_roots,
        effect: effect(kind, tiles, shields, joined, closed, counts[..players].to_vec(), owners),
    }
}

/// Occupied cloisters and gardens next to the placed tile: the tile brings them closer.
fn inner_neighbours(before: &Game, after: &Game, pos: crate::engine::Pos) -> Vec<Touched> {
    let mut out = Vec::new();
    for q in pos.ring() {
        let Some(i) = before.board().tile_index_at(q) else {
            continue;
        };
        let t = before.board().tiles()[i];
        for seg in 0..before.tile_kind(t.kind).segments.len() as u8 {
            let s = before.segment_id(i, seg);
            let kind = before.features().kind(s);
            let Some(m) = before.features().meeple_on(s).filter(|_| kind.is_inner()) else {
                continue;
            };
            let around = after.surrounding(q);
            let mut meeples = vec![0; before.players().len()];
            meeples[m.player as usize] = 1;
            out.push(Touched {
                seg: s,
                before_roots: vec![s],
                effect: effect(kind, 1 + around, 0, 1, around == 8, meeples, vec![m.player]),
            });
        }
    }
    out
}

fn effect(
    kind: FeatureKind,
    tiles: u32,
    shields: u32,
    joined: u8,
    closed: bool,
    meeples: Vec<u8>,
    owners: Vec<u8>,
) -> FeatureEffect {
    FeatureEffect {
        kind,
        tiles,
        shields,
        joined,
        closed,
        meeples,
        owners,
        at_stake: 0,
        open_spots: Vec::new(),
        completion: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_formula_text_states_the_meeple_value() {
        assert!(HEURISTIC_FORMULA.contains(&format!("meeple cost: {MEEPLE_VALUE} ×")));
        let new_world = heuristic_formula(GameKind::NewWorld);
        assert!(
            new_world.contains(&format!("settler cost: {MEEPLE_VALUE} ×")),
            "{new_world}"
        );
    }

    /// New World's formula names its own features and figures, and none of the tile game's.
    #[test]
    fn new_worlds_formula_speaks_new_world() {
        let text = heuristic_formula(GameKind::NewWorld);
        for said in [
            "open trail, town or farm",
            "A completed town doubles",
            "frees its settler",
        ] {
            assert!(text.contains(said), "{said:?} missing: {text}");
        }
        for word in ["road", "city", "cloister", "garden", "meeple", "follower"] {
            assert!(!text.contains(word), "{word:?} in {text}");
        }
        assert_eq!(heuristic_formula(GameKind::Carcassonne), HEURISTIC_FORMULA);
    }

    #[test]
    fn shared_features_count_for_nobody() {
        assert_eq!(owner_sign(0, &[0]), 1.0);
        assert_eq!(owner_sign(0, &[1]), -1.0);
        assert_eq!(owner_sign(0, &[0, 1]), 0.0);
        assert_eq!(owner_sign(0, &[]), 0.0);
    }
}
