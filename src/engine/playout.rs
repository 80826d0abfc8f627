//! Random games: the bench's workload and, later, the analysis's playouts.

use super::events::Event;
use super::game::{Action, Game, Move, Placement};
use super::tileset::TileKindId;

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
        ((self.next_u64() >> 32) * n as u64 >> 32) as usize
    }
}

/// Draws a random tile from the pack, River tiles first and the river's end last.
pub fn draw(game: &Game, rng: &mut Rng) -> Option<TileKindId> {
    let pack = game.pack();
    let drawable = |i: usize| pack[i] > 0 && game.check_draw(TileKindId(i as u16)).is_ok();
    let total: usize = (0..pack.len()).filter(|&i| drawable(i)).map(|i| pack[i] as usize).sum();
    if total == 0 {
        return None;
    }
    let mut k = rng.below(total);
    for i in (0..pack.len()).filter(|&i| drawable(i)) {
        if k < pack[i] as usize {
            return Some(TileKindId(i as u16));
        }
        k -= pack[i] as usize;
    }
    None
}

/// Plays uniformly random legal moves until the pack is empty, then scores the end.
pub fn play_random(game: &mut Game, rng: &mut Rng, events: &mut Vec<Event>) {
    let mut placements: Vec<Placement> = Vec::with_capacity(256);
    let mut actions: Vec<Action> = Vec::with_capacity(16);
    while let Some(tile) = draw(game, rng) {
        events.clear();
        game.placements(tile, true, &mut placements);
        if placements.is_empty() {
            game.discard(tile, events).expect("a tile with no placement may be discarded");
            continue;
        }
        let placement = placements[rng.below(placements.len())];
        game.actions(tile, placement, &mut actions);
        let action = actions[rng.below(actions.len())];
        game.play(&Move { tile, placement, action }, events)
            .expect("listed moves are legal");
    }
    events.clear();
    game.finish(events);
}
