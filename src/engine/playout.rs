//! Random games: the bench's workload and, later, the analysis's playouts.

use super::events::Event;
use super::game::{Action, Game, Move, Placement};
use super::river::RiverState;
use super::tileset::{TileKindId, is_river_tile};

/// SplitMix64: small, fast and deterministic for a seed; not for anything secret.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

/// The tiles left in the pack in a random draw order: River tiles first with the river's end
/// last among them, then the rest.
pub fn shuffled_bag(game: &Game, rng: &mut Rng) -> Vec<TileKindId> {
    let mut river = Vec::new();
    let mut ends = Vec::new();
    let mut rest = Vec::new();
    for (i, &n) in game.pack().iter().enumerate() {
        let id = TileKindId(i as u16);
        let kind = game.tile_kind(id);
        let list = match (is_river_tile(kind), RiverState::is_river_end(kind)) {
            (true, true) => &mut ends,
            (true, false) => &mut river,
            _ => &mut rest,
        };
        list.extend(std::iter::repeat_n(id, n as usize));
    }
    shuffle(&mut river, rng);
    shuffle(&mut rest, rng);
    river.extend(ends);
    river.extend(rest);
    river
}

fn shuffle<T>(v: &mut [T], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i + 1));
    }
}

/// A uniformly random legal placement (distinct rotations), or `None` when there is none.
///
/// Most candidates do not fit, but testing random candidates until one does is still far
/// cheaper than listing them all; after a few misses it lists them, which also settles
/// whether any exists. Either way each legal placement is equally likely.
pub fn random_placement(
    game: &Game,
    tile: TileKindId,
    rng: &mut Rng,
    scratch: &mut Vec<Placement>,
) -> Option<Placement> {
    let kind = game.tile_kind(tile);
    let frontier = game.board().frontier();
    if !is_river_tile(kind) && !frontier.is_empty() {
        let per_square = kind.unique.len();
        for _ in 0..24 {
            let k = rng.below(frontier.len() * per_square);
            let square = &frontier[k / per_square];
            let (rotation, edges) = kind.unique[k % per_square];
            if square.accepts(edges) {
                return Some(Placement {
                    pos: square.pos,
                    rotation,
                });
            }
        }
    }
    game.placements(tile, true, scratch);
    (!scratch.is_empty()).then(|| scratch[rng.below(scratch.len())])
}

/// Plays uniformly random legal moves until the pack is empty, then scores the end.
pub fn play_random(game: &mut Game, rng: &mut Rng, events: &mut Vec<Event>) {
    let mut placements: Vec<Placement> = Vec::with_capacity(256);
    let mut actions: Vec<Action> = Vec::with_capacity(16);
    for tile in shuffled_bag(game, rng) {
        events.clear();
        let Some(placement) = random_placement(game, tile, rng, &mut placements) else {
            game.discard(tile, events)
                .expect("a tile with no placement may be discarded");
            continue;
        };
        game.actions(tile, placement, &mut actions);
        let action = actions[rng.below(actions.len())];
        game.play_listed(
            &Move {
                tile,
                placement,
                action,
            },
            events,
        );
    }
    events.clear();
    game.finish(events);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Figure, Preset, Rotation, Setup, TileCatalog};

    fn game(preset: Preset, river: bool, abbot: bool) -> Game {
        let mut rules = preset.rules();
        rules.river = river;
        rules.abbot = abbot;
        Game::new(Setup {
            rules,
            catalog: TileCatalog::builtin(),
            players: 3,
            start: Vec::new(),
            extra_tiles: Vec::new(),
        })
        .unwrap()
    }

    /// The fast listings agree with the checks a record's moves go through.
    #[test]
    fn listed_moves_are_exactly_the_legal_ones() {
        for (seed, (preset, river, abbot)) in [(Preset::SecondEdition, true, true), (Preset::Classic2000, true, false)]
            .into_iter()
            .enumerate()
        {
            let mut g = game(preset, river, abbot);
            let mut rng = Rng::new(seed as u64);
            let (mut ps, mut acts, mut events) = (Vec::new(), Vec::new(), Vec::new());
            for tile in shuffled_bag(&g, &mut rng) {
                g.placements(tile, false, &mut ps);
                let squares: Vec<_> = g.board().frontier().iter().map(|f| f.pos).collect();
                for pos in squares {
                    for rotation in Rotation::ALL {
                        let p = Placement { pos, rotation };
                        assert_eq!(g.check_geometry(tile, p).is_ok(), ps.contains(&p), "{p:?}");
                    }
                }
                let Some(&p) = ps.get(rng.below(ps.len().max(1))) else {
                    g.discard(tile, &mut events).unwrap();
                    continue;
                };
                g.actions(tile, p, &mut acts);
                let segments = g.tile_kind(tile).segments.len() as u8;
                let candidates = (0..segments)
                    .flat_map(|segment| {
                        [Figure::Follower, Figure::Abbot].map(|figure| Action::Deploy { segment, figure })
                    })
                    .chain([Action::Pass, Action::RecallAbbot]);
                for a in candidates {
                    assert_eq!(g.check_action(tile, p, a).is_ok(), acts.contains(&a), "{a:?}");
                }
                let a = acts[rng.below(acts.len())];
                g.play(
                    &Move {
                        tile,
                        placement: p,
                        action: a,
                    },
                    &mut events,
                )
                .unwrap();
            }
        }
    }

    #[test]
    fn random_placement_only_returns_legal_placements() {
        let mut g = game(Preset::SecondEdition, false, false);
        let mut rng = Rng::new(11);
        let (mut scratch, mut events) = (Vec::new(), Vec::new());
        for tile in shuffled_bag(&g, &mut rng) {
            match random_placement(&g, tile, &mut rng, &mut scratch) {
                Some(p) => {
                    assert!(g.check_geometry(tile, p).is_ok());
                    g.play(
                        &Move {
                            tile,
                            placement: p,
                            action: Action::Pass,
                        },
                        &mut events,
                    )
                    .unwrap();
                }
                None => g.discard(tile, &mut events).unwrap(),
            }
        }
        assert_eq!(g.pack_left(), 0);
    }
}
