//! Bots: players that choose moves by a [`Policy`]. They play the bench's random games, the
//! analysis's playouts, and the games `generate` writes as records.

use super::events::Event;
use super::features::Figure;
use super::game::{Action, Game, Move, Placement};
use super::river::is_river_end;
use super::tile::FeatureKind;
use super::tileset::{TileKindId, is_river_tile};

/// How a bot chooses its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// A uniformly random legal move.
    Random,
    /// Of every legal move, the one that gains the mover the most points now, with a pull
    /// towards deploying followers while more than two are left; ties broken at random. Slow:
    /// it tries every move (each placement copied once, and each deployment whose feature
    /// scores now once more). The base game's search sampled the future with it in analysis
    /// versions 12 to 15 (now `FieldShy`).
    Greedy,
    /// `Greedy`, shy of fields: its pull towards deploying leaves farmers out, so it puts one
    /// out only as it would any other move that gains nothing now. The base game's search
    /// samples the future with it (analysis version 16): the greedy bot's pull puts a farmer
    /// out on every tile that scores nothing and offers no road, city or cloister, where few
    /// strong players put one early. In the Card Game, which has no fields: the greedy bot.
    FieldShy,
    /// The best of `SAMPLED_PLACEMENTS` random placements, each tried with no meeple and with
    /// one random deployment, by the margin it gains now (the mover's gain minus the best
    /// opponent's). About twenty times slower than random, far faster than `Greedy`: the
    /// analysis plays its playouts with it. In the Card Game: the greedy action, or one time
    /// in four a random one.
    Sampled,
    /// `Sampled`, with each candidate weighed also by the margin the game would end with if
    /// it ended after the move: a follower on a city counts for the city's points, a farmer
    /// for the completed cities it supplies, and extending an opponent's feature counts
    /// against. Each candidate costs a final scoring on top of its copy. New World's search
    /// sampled the future with it until analysis version 15 (now `Thrifty`): in `match`, the
    /// search with its samples played by it beat the flat analysis more often than with
    /// `Sampled`'s (62% against 53% over 100 games on seed 11, in the base game). In the Card
    /// Game: the patient bot, the greedy action but for its follower, which waits for a row
    /// worth far more; the analysis's samples play the round with it.
    Weighed,
    /// `Weighed`, with every figure deployed counted [`THRIFTY_DEPLOY_COST`] points against
    /// its move: a follower goes out only where it gains more than that. New World's search
    /// samples the future with it (analysis version 15). In the Card Game: the patient bot, as
    /// `Weighed`.
    Thrifty,
}

/// What a figure deployed costs the `Thrifty` bot's move, in points. The weighed bot counts a
/// figure on an open feature at what the feature would score if the game ended now, so it
/// deploys nearly every turn it can, and the samples it plays run short of figures. In New World,
/// against the analysis of version 5 (`match --game new-world --a horizon --b build:PATH
/// --games 100 --seed 700`): no cost won 61.5%, 3 points 66.0%, 6 points 55.0%; 3 points won
/// 68.7% of 300 games on seeds 1100, 1300 and 1500, which chose nothing.
pub const THRIFTY_DEPLOY_COST: i32 = 3;

/// Placements the `Sampled` policy compares per turn. Small, because every candidate costs a
/// copy of the game.
pub const SAMPLED_PLACEMENTS: usize = 3;

/// Buffers a bot reuses from move to move.
#[derive(Default)]
pub struct Scratch {
    events: Vec<Event>,
    placements: Vec<Placement>,
    actions: Vec<Action>,
    pub spares: Spares,
}

/// Games given back after use, whose allocations the next copies reuse: copying a game into
/// a spare one is far cheaper than allocating a new game for every candidate move.
#[derive(Debug, Default)]
pub struct Spares(Vec<Game>);

impl Spares {
    /// A copy of `game`, made into a spare game when there is one.
    pub fn copy_of(&mut self, game: &Game) -> Game {
        match self.0.pop() {
            Some(mut copy) => {
                copy.clone_from(game);
                copy
            }
            None => game.clone(),
        }
    }

    /// Takes back a copy from [`Spares::copy_of`] for the next one.
    pub fn give_back(&mut self, game: Game) {
        self.0.push(game);
    }
}

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
        let list = match (is_river_tile(kind), is_river_end(kind)) {
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

/// The move a bot playing `policy` makes with `tile`, or `None` when the tile has no legal
/// placement (it must be discarded).
pub fn choose(game: &Game, tile: TileKindId, policy: Policy, rng: &mut Rng, scratch: &mut Scratch) -> Option<Move> {
    match policy {
        Policy::Random => random_move(game, tile, rng, scratch),
        Policy::Greedy => greedy_move(game, tile, Pull::Followers, rng, scratch),
        Policy::FieldShy => greedy_move(game, tile, Pull::NoFarmers, rng, scratch),
        Policy::Sampled => sampled_move(game, tile, rng, scratch, Weigh::Now),
        Policy::Weighed => sampled_move(game, tile, rng, scratch, Weigh::Ended { deploy_cost: 0 }),
        Policy::Thrifty => sampled_move(
            game,
            tile,
            rng,
            scratch,
            Weigh::Ended {
                deploy_cost: THRIFTY_DEPLOY_COST,
            },
        ),
    }
}

/// Draws the rest of the pack in a random order and lets every player play `policy` until it
/// is empty, then scores the end.
pub fn play_out(game: &mut Game, policy: Policy, rng: &mut Rng, scratch: &mut Scratch) {
    let bag = shuffled_bag(game, rng);
    play_tiles(game, &bag, |_| policy, rng, scratch);
    game.finish(&mut scratch.events);
}

/// Plays the tiles of `bag` in order, the k-th by `policy(k)`, and stops there: the game is
/// not scored as ended.
pub fn play_tiles(
    game: &mut Game,
    bag: &[TileKindId],
    policy: impl Fn(usize) -> Policy,
    rng: &mut Rng,
    scratch: &mut Scratch,
) {
    for (k, &tile) in bag.iter().enumerate() {
        let chosen = choose(game, tile, policy(k), rng, scratch);
        scratch.events.clear();
        match chosen {
            Some(mv) => game.play_listed(&mv, &mut scratch.events),
            None => game
                .discard(tile, &mut scratch.events)
                .expect("a tile with no placement may be discarded"),
        }
    }
    scratch.events.clear();
}

/// Plays uniformly random legal moves until the pack is empty, then scores the end.
pub fn play_random(game: &mut Game, rng: &mut Rng, scratch: &mut Scratch) {
    play_out(game, Policy::Random, rng, scratch);
}

fn random_move(game: &Game, tile: TileKindId, rng: &mut Rng, scratch: &mut Scratch) -> Option<Move> {
    let placement = random_placement(game, tile, rng, &mut scratch.placements)?;
    game.actions(tile, placement, &mut scratch.actions);
    let action = scratch.actions[rng.below(scratch.actions.len())];
    Some(Move {
        tile,
        placement,
        action,
    })
}

/// Which deployments pull a bot, beyond the points they gain now.
#[derive(Clone, Copy)]
enum Pull {
    /// Every follower's.
    Followers,
    /// A follower's anywhere but on a field (`FieldShy`).
    NoFarmers,
}

/// A follower deployed while more than two are in supply, where `pull` says: the bots like
/// those, or they would never place any.
fn keen(game: &Game, mv: &Move, pull: Pull) -> bool {
    let Action::Deploy {
        figure: Figure::Follower,
        ..
    } = mv.action
    else {
        return false;
    };
    game.players()[game.current_player() as usize].followers > 2
        && match pull {
            Pull::Followers => true,
            Pull::NoFarmers => deployed_on(game, mv) != Some(FeatureKind::Field),
        }
}

/// The kind of feature `mv` deploys a figure on, if it deploys one.
fn deployed_on(game: &Game, mv: &Move) -> Option<FeatureKind> {
    match mv.action {
        Action::Deploy { segment, .. } => Some(game.tile_kind(mv.tile).segments[usize::from(segment)].kind),
        _ => None,
    }
}

/// Tries every action of every placement. A placement that may complete a feature is played
/// once with no meeple: a deployment gains the mover other points only when its feature
/// scores this turn, and only then is it played on a copy of its own. A placement that cannot
/// complete one gains nothing with any meeple. That saves most of the copies.
fn greedy_move(game: &Game, tile: TileKindId, pull: Pull, rng: &mut Rng, scratch: &mut Scratch) -> Option<Move> {
    let me = game.current_player() as usize;
    let gained = |after: &Game| i64::from(after.players()[me].score - game.players()[me].score);
    game.placements(tile, true, &mut scratch.placements);
    let mut best: Option<(i64, Move)> = None;
    for &placement in &scratch.placements {
        game.actions(tile, placement, &mut scratch.actions);
        let pass = Move {
            tile,
            placement,
            action: Action::Pass,
        };
        let passed = game
            .may_complete(tile, placement)
            .then(|| played_copy(game, &pass, &mut scratch.spares, &mut scratch.events));
        for &action in &scratch.actions {
            let mv = Move { action, ..pass };
            let as_passed = match (action, &passed) {
                (Action::RecallAbbot, _) => None,
                (_, None) => Some(0),
                (Action::Pass, Some(passed)) => Some(gained(passed)),
                (Action::Deploy { segment, .. }, Some(passed)) => {
                    let tile_index = passed.board().tiles().len() - 1;
                    (!passed.scores_this_turn(tile_index, segment)).then(|| gained(passed))
                }
            };
            let points = as_passed.unwrap_or_else(|| {
                let after = played_copy(game, &mv, &mut scratch.spares, &mut scratch.events);
                let points = gained(&after);
                scratch.spares.give_back(after);
                points
            });
            let value = points * 100 + if keen(game, &mv, pull) { 150 } else { 0 } + rng.below(50) as i64;
            if best.as_ref().is_none_or(|(v, _)| value > *v) {
                best = Some((value, mv));
            }
        }
        if let Some(passed) = passed {
            scratch.spares.give_back(passed);
        }
    }
    best.map(|(_, mv)| mv)
}

/// A copy of `game` with `mv` played; give it back to `spares` after use.
fn played_copy(game: &Game, mv: &Move, spares: &mut Spares, events: &mut Vec<Event>) -> Game {
    let mut after = spares.copy_of(game);
    events.clear();
    after.play_listed(mv, events);
    after
}

/// What the sampled bots weigh their candidates by.
#[derive(Clone, Copy)]
enum Weigh {
    /// The margin gained now (`Sampled`).
    Now,
    /// Also the margin if the game ended after the move, less `deploy_cost` points for a
    /// figure deployed (`Weighed`, `Thrifty`).
    Ended { deploy_cost: i32 },
}

/// `Sampled`, `Weighed` or `Thrifty`, as `weigh` says.
fn sampled_move(game: &Game, tile: TileKindId, rng: &mut Rng, scratch: &mut Scratch, weigh: Weigh) -> Option<Move> {
    let me = game.current_player();
    let now = |g: &Game| margin(g.players().iter().map(|p| p.score), me);
    let before = now(game);
    let before_ended = match weigh {
        Weigh::Now => None,
        Weigh::Ended { deploy_cost } => Some((ended_margin(game, me), deploy_cost)),
    };
    let mut best: Option<(i32, Move)> = None;
    for _ in 0..SAMPLED_PLACEMENTS {
        let placement = random_placement(game, tile, rng, &mut scratch.placements)?;
        game.actions(tile, placement, &mut scratch.actions);
        let deploy = match scratch.actions.len() {
            1 => None,
            n => Some(scratch.actions[1 + rng.below(n - 1)]),
        };
        for action in std::iter::once(Action::Pass).chain(deploy) {
            let mv = Move {
                tile,
                placement,
                action,
            };
            let mut after = scratch.spares.copy_of(game);
            scratch.events.clear();
            after.play_listed(&mv, &mut scratch.events);
            let gained = now(&after) - before;
            let keen = i32::from(keen(game, &mv, Pull::Followers));
            let value = match before_ended {
                // Twice the margin gained, plus one for a keen deployment.
                None => 2 * gained + keen,
                // Points scored now count twice: they are in the margin if it ended, too. The
                // lowest bit breaks ties at random.
                Some((ended, deploy_cost)) => {
                    let if_ended = ended_margin(&after, me) - ended;
                    let cost = if matches!(action, Action::Deploy { .. }) {
                        deploy_cost
                    } else {
                        0
                    };
                    2 * (gained + if_ended + keen - cost) + rng.below(2) as i32
                }
            };
            scratch.spares.give_back(after);
            if best.as_ref().is_none_or(|(v, _)| value > *v) {
                best = Some((value, mv));
            }
        }
    }
    best.map(|(_, mv)| mv)
}

/// `me`'s margin if the game ended now.
pub fn ended_margin(game: &Game, me: u8) -> i32 {
    margin(game.end_scores(), me)
}

/// The mover's score minus the best opponent's (just the score in a solitaire game).
pub fn margin(scores: impl IntoIterator<Item = i32>, mover: u8) -> i32 {
    let (mut own, mut best_other) = (0, None::<i32>);
    for (p, v) in scores.into_iter().enumerate() {
        if p == mover as usize {
            own = v;
        } else {
            best_other = Some(best_other.map_or(v, |b| b.max(v)));
        }
    }
    own - best_other.unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Preset, Rotation, Setup, TileCatalog};

    fn game(preset: Preset, river: bool, abbot: bool) -> Game {
        let mut rules = preset.rules();
        rules.river = river;
        rules.abbot = abbot;
        Game::new(Setup {
            rules,
            catalog: TileCatalog::builtin(),
            players: 3,
            start: Vec::new(),
            start_squares: Vec::new(),
            extra_tiles: Vec::new(),
        })
        .unwrap()
    }

    /// New World on our sample tile set.
    fn new_world_game() -> Game {
        let mut catalog = (*TileCatalog::builtin()).clone();
        let extra_tiles = crate::engine::tileset::NEW_WORLD_SAMPLE
            .iter()
            .map(|(name, count, spec)| {
                let kind = crate::engine::tileset::parse_spec(name, spec).unwrap();
                (catalog.add(kind).unwrap(), *count)
            })
            .collect();
        Game::new(Setup {
            rules: Preset::NewWorld.rules(),
            catalog: std::sync::Arc::new(catalog),
            players: 3,
            start: Vec::new(),
            start_squares: Vec::new(),
            extra_tiles,
        })
        .unwrap()
    }

    /// The thrifty bot weighs the same candidates as the weighed one (the same draws of the
    /// same generator), each deployment `THRIFTY_DEPLOY_COST` points dearer. So where the two
    /// choose differently, the weighed bot deployed a figure and the thrifty one kept it; and
    /// in New World they often do.
    #[test]
    fn the_thrifty_bot_keeps_the_figures_the_weighed_one_spends() {
        let (mut differ, mut scratch) = (0, Scratch::default());
        for seed in 0..4 {
            let mut g = new_world_game();
            let mut rng = Rng::new(seed);
            for (k, tile) in shuffled_bag(&g, &mut rng).into_iter().enumerate() {
                let by = |policy| {
                    choose(
                        &g,
                        tile,
                        policy,
                        &mut Rng::new(seed * 1000 + k as u64),
                        &mut Scratch::default(),
                    )
                };
                let (weighed, thrifty) = (by(Policy::Weighed), by(Policy::Thrifty));
                if weighed != thrifty {
                    differ += 1;
                    let (w, t) = (weighed.unwrap().action, thrifty.unwrap().action);
                    assert!(
                        matches!(w, Action::Deploy { .. }) && t == Action::Pass,
                        "{w:?} against {t:?}"
                    );
                }
                play_tiles(&mut g, &[tile], |_| Policy::Weighed, &mut rng, &mut scratch);
            }
        }
        assert!(differ > 10, "the thrifty bot kept a figure only {differ} times");
    }

    /// The field-shy bot values every move as the greedy one does (the same draws of the same
    /// generator), but for a farmer's pull. So where the two choose differently, the greedy
    /// bot put a farmer out; and in a base game they often do.
    #[test]
    fn the_field_shy_bot_keeps_the_farmers_the_greedy_one_puts_out() {
        let (mut differ, mut scratch) = (0, Scratch::default());
        for seed in 0..3 {
            let mut g = game(Preset::SecondEdition, false, false);
            let mut rng = Rng::new(seed);
            for (k, tile) in shuffled_bag(&g, &mut rng).into_iter().enumerate() {
                let by = |policy| {
                    let mut rng = Rng::new(seed * 1000 + k as u64);
                    choose(&g, tile, policy, &mut rng, &mut Scratch::default())
                };
                let (greedy, shy) = (by(Policy::Greedy), by(Policy::FieldShy));
                if greedy != shy {
                    differ += 1;
                    let (greedy, shy) = (greedy.unwrap(), shy.unwrap());
                    assert_eq!(
                        deployed_on(&g, &greedy),
                        Some(FeatureKind::Field),
                        "{greedy:?} against {shy:?}"
                    );
                }
                play_tiles(&mut g, &[tile], |_| Policy::Greedy, &mut rng, &mut scratch);
            }
        }
        assert!(differ > 10, "the field-shy bot kept a farmer only {differ} times");
    }

    /// The fast listings agree with the checks a record's moves go through.
    #[test]
    fn listed_moves_are_exactly_the_legal_ones() {
        let games = [
            game(Preset::SecondEdition, true, true),
            game(Preset::Classic2000, true, false),
            new_world_game(),
            new_world_game(),
        ];
        for (seed, mut g) in games.into_iter().enumerate() {
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

    /// Calls `f` with the game, every placement of the drawn tile as a move with no meeple,
    /// the game after it and its events, turn by turn, in the base game with the river and
    /// abbot, in the 2000 rules and in New World, over three tile orders each; between turns
    /// the greedy bot plays the tile. `f` is told whether the game is New World.
    fn each_placement(mut f: impl FnMut(&Game, Move, &Game, &[Event], bool)) {
        let games = || {
            [
                (game(Preset::SecondEdition, true, true), false),
                (game(Preset::Classic2000, false, false), false),
                (new_world_game(), true),
            ]
        };
        for seed in 0..3 {
            for (mut g, new_world) in games() {
                let mut rng = Rng::new(seed + 40);
                let (mut ps, mut events, mut scratch) = (Vec::new(), Vec::new(), Scratch::default());
                for tile in shuffled_bag(&g, &mut rng) {
                    g.placements(tile, true, &mut ps);
                    for &placement in &ps {
                        let pass = Move {
                            tile,
                            placement,
                            action: Action::Pass,
                        };
                        let passed = played(&g, &pass, &mut events);
                        f(&g, pass, &passed, &events, new_world);
                    }
                    match greedy_move(&g, tile, Pull::Followers, &mut rng, &mut scratch) {
                        Some(mv) => g.play_listed(&mv, &mut events),
                        None => g.discard(tile, &mut events).unwrap(),
                    }
                }
            }
        }
    }

    fn played(g: &Game, mv: &Move, events: &mut Vec<Event>) -> Game {
        let mut after = g.clone();
        events.clear();
        after.play_listed(mv, events);
        after
    }

    fn scores(g: &Game) -> Vec<i32> {
        g.players().iter().map(|p| p.score).collect()
    }

    /// The greedy bot's first shortcut: a deployment whose feature does not score this turn
    /// leaves every score as the same placement with no meeple does.
    #[test]
    fn a_deployment_changes_the_turns_points_only_where_its_feature_scores() {
        let (mut shortcuts, mut acts, mut events) = (0, Vec::new(), Vec::new());
        each_placement(|g, pass, passed, _, _| {
            let (tile, placement) = (pass.tile, pass.placement);
            let tile_index = passed.board().tiles().len() - 1;
            g.actions(tile, placement, &mut acts);
            for &action in &acts {
                let Action::Deploy { segment, .. } = action else {
                    continue;
                };
                if !passed.scores_this_turn(tile_index, segment) {
                    shortcuts += 1;
                    let deployed = played(g, &Move { action, ..pass }, &mut events);
                    assert_eq!(scores(&deployed), scores(passed), "{action:?} at {placement:?}");
                }
            }
        });
        assert!(shortcuts > 3_000, "{shortcuts} deployments checked");
    }

    /// The second: a placement that `may_complete` says completes nothing scores nothing with
    /// any meeple (bar recalling the abbot). In the base games it says so exactly when
    /// nothing completes: none of the tile's own features, and no occupied cloister beside it.
    #[test]
    fn a_placement_scores_only_where_it_may_complete_a_feature() {
        let (mut quiet, mut beside, mut acts, mut events) = (0, 0, Vec::new(), Vec::new());
        each_placement(|g, pass, passed, passed_events, new_world| {
            let (tile, placement) = (pass.tile, pass.placement);
            let tile_index = passed.board().tiles().len() - 1;
            let segments = g.catalog().get(tile).segments.len() as u8;
            let neighbour_scored = (passed_events.iter()).any(|e| matches!(e, Event::MeepleReturned { .. }));
            let completes = neighbour_scored || (0..segments).any(|s| passed.scores_this_turn(tile_index, s));
            beside += usize::from(neighbour_scored);
            let may = g.may_complete(tile, placement);
            if !new_world {
                assert_eq!(may, completes, "{tile:?} at {placement:?}");
            }
            if may {
                assert!(new_world || completes);
                return;
            }
            assert!(!completes, "{tile:?} at {placement:?} completes a feature");
            quiet += 1;
            g.actions(tile, placement, &mut acts);
            for &action in acts.iter().filter(|a| **a != Action::RecallAbbot) {
                let after = played(g, &Move { action, ..pass }, &mut events);
                assert_eq!(scores(&after), scores(g), "{action:?} at {placement:?}");
            }
        });
        assert!(quiet > 3_000, "{quiet} placements that complete nothing");
        assert!(
            beside > 20,
            "{beside} placements that complete an occupied cloister beside them"
        );
    }

    /// Judging a follower by what its feature would score beats placing it at random: the
    /// weighed bot against two sampled bots, in each seat, on the same tile orders.
    #[test]
    fn the_weighed_bot_beats_the_sampled_bot() {
        let (mut wins, mut margins) = (0, Vec::new());
        for seed in 0..10 {
            for weighed in 0..3u8 {
                let mut g = game(Preset::SecondEdition, false, false);
                let mut rng = Rng::new(seed);
                let mut scratch = Scratch::default();
                for tile in shuffled_bag(&g, &mut rng) {
                    let policy = if g.current_player() == weighed {
                        Policy::Weighed
                    } else {
                        Policy::Sampled
                    };
                    play_tiles(&mut g, &[tile], |_| policy, &mut rng, &mut scratch);
                }
                g.finish(&mut Vec::new());
                let m = margin(g.players().iter().map(|p| p.score), weighed);
                wins += i32::from(m > 0);
                margins.push(m);
            }
        }
        // Against two equal bots a seat wins a third of the games and averages a margin below 0.
        let mean = f64::from(margins.iter().sum::<i32>()) / margins.len() as f64;
        assert!(wins >= 20 && mean > 5.0, "won {wins} of 30, margins {margins:?}");
    }

    #[test]
    fn margin_is_against_the_best_opponent() {
        assert_eq!(margin([5, 2, 7], 0), -2);
        assert_eq!(margin([5, 2, 7], 2), 2);
        assert_eq!(margin([4], 0), 4, "solitaire: the score itself");
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
