//! Games played by simple bots, written as records: the shipped demo game, bench inputs and
//! test material.

use super::{GameRecord, PlayerInfo, RecordedAction, RecordedMove, RulesSpec};
use crate::engine::playout::{Rng, random_placement, shuffled_bag};
use crate::engine::{Action, Event, Figure, Game, Move, Placement, Setup, TileCatalog};

/// How the bots choose their moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Uniformly random legal moves.
    Random,
    /// The move that gains the most points for the mover now, with a small pull towards
    /// deploying followers while some are left. Ties are broken at random.
    Greedy,
}

/// Plays one game with `players` bots under `rules`, starting from the rules' default start.
pub fn generate(rules: RulesSpec, players: u8, policy: Policy, seed: u64) -> Result<GameRecord, String> {
    let catalog = TileCatalog::builtin();
    let mut game = Game::new(Setup {
        rules: rules.resolve(),
        catalog: catalog.clone(),
        players,
        start: Vec::new(),
        extra_tiles: Vec::new(),
    })
    .map_err(|e| e.to_string())?;
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    let mut events = Vec::new();
    for tile in shuffled_bag(&game, &mut rng) {
        let chosen = match policy {
            Policy::Random => random_move(&game, tile, &mut rng),
            Policy::Greedy => greedy_move(&game, tile, &mut rng),
        };
        let Some(mv) = chosen else {
            game.discard(tile, &mut events).map_err(|e| e.to_string())?;
            moves.push(RecordedMove::Discard { player: None, tile });
            continue;
        };
        moves.push(recorded(&game, &mv));
        game.play(&mv, &mut events).map_err(|e| e.to_string())?;
    }
    Ok(GameRecord {
        players: (1..=players).map(|i| PlayerInfo::named(format!("Bot {i}"))).collect(),
        rules,
        custom_tiles: Vec::new(),
        catalog,
        start: Vec::new(),
        moves,
        final_scoring: None,
        recorded_scores: None,
    })
}

fn random_move(game: &Game, tile: crate::engine::TileKindId, rng: &mut Rng) -> Option<Move> {
    let mut scratch = Vec::new();
    let placement = random_placement(game, tile, rng, &mut scratch)?;
    let mut actions = Vec::new();
    game.actions(tile, placement, &mut actions);
    let action = actions[rng.below(actions.len())];
    Some(Move {
        tile,
        placement,
        action,
    })
}

fn greedy_move(game: &Game, tile: crate::engine::TileKindId, rng: &mut Rng) -> Option<Move> {
    let me = game.current_player() as usize;
    let mut placements: Vec<Placement> = Vec::new();
    game.placements(tile, true, &mut placements);
    let mut actions = Vec::new();
    let mut events: Vec<Event> = Vec::new();
    let mut best: Option<(i64, Move)> = None;
    for &placement in &placements {
        game.actions(tile, placement, &mut actions);
        for &action in &actions {
            let mv = Move {
                tile,
                placement,
                action,
            };
            let mut after = game.clone();
            after.play_listed(&mv, &mut events);
            events.clear();
            let gained = (after.players()[me].score - game.players()[me].score) as i64 * 100;
            let deploys = matches!(
                action,
                Action::Deploy {
                    figure: Figure::Follower,
                    ..
                }
            );
            let keen = deploys && game.players()[me].followers > 2;
            let value = gained + if keen { 150 } else { 0 } + rng.below(50) as i64;
            if best.as_ref().is_none_or(|(v, _)| value > *v) {
                best = Some((value, mv));
            }
        }
    }
    best.map(|(_, mv)| mv)
}

/// The record's form of a move about to be played on `game`.
pub fn recorded(game: &Game, mv: &Move) -> RecordedMove {
    let action = match mv.action {
        Action::Pass => RecordedAction::Pass,
        Action::RecallAbbot => RecordedAction::RecallAbbot,
        Action::Deploy { segment, figure } => {
            let kind = game.tile_kind(mv.tile);
            RecordedAction::Deploy {
                feature: kind.segments[segment as usize].kind,
                at: kind.location_of(mv.placement.rotation, segment),
                figure,
            }
        }
    };
    RecordedMove::Place {
        player: Some(game.current_player()),
        tile: mv.tile,
        placement: mv.placement,
        action,
    }
}
