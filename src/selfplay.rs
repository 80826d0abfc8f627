//! Games the engine plays with itself (`engine::bots`), written as records: the shipped demo
//! game, bench inputs, test material and the `generate` command. Downstream of `record`,
//! which holds formats only.

use crate::engine::bots::{self, Rng, Scratch, shuffled_bag};
use crate::engine::cards::bots as card_bots;
use crate::engine::cards::{CardGame, CardMove};
use crate::engine::tileset::{NEW_WORLD_SAMPLE, parse_spec};
use crate::engine::{Game, GameKind, Move, Setup, TileCatalog, TileKindId};
use crate::record::cards::{CardRecord, RecordedCardMove};
use crate::record::{CustomTile, GameRecord, PlayerInfo, RecordedMove, RulesSpec, recorded};
use std::sync::Arc;

pub use crate::engine::bots::Policy;

/// Our New World sample tile set (`tileset::NEW_WORLD_SAMPLE`) as a record's own tiles.
pub fn new_world_sample() -> (Arc<TileCatalog>, Vec<CustomTile>) {
    let mut catalog = (*TileCatalog::builtin()).clone();
    let mut tiles = Vec::new();
    for (name, count, spec) in NEW_WORLD_SAMPLE {
        let kind = parse_spec(name, spec).expect("the sample tiles parse");
        catalog.add(kind).expect("sample names are new");
        tiles.push(CustomTile {
            name: name.into(),
            count,
            segments: spec.into(),
        });
    }
    (Arc::new(catalog), tiles)
}

/// A game of `players` under `rules` from the rules' default start, before its first draw: the
/// game, its kind, and the record's own tiles (New World is played on our sample tile set).
pub fn fresh_game(rules: &RulesSpec, players: u8) -> Result<(Game, GameKind, Vec<CustomTile>), String> {
    let (game_kind, catalog, custom_tiles) = if rules.preset.is_new_world() {
        let (catalog, tiles) = new_world_sample();
        (GameKind::NewWorld, catalog, tiles)
    } else {
        (GameKind::Carcassonne, TileCatalog::builtin(), Vec::new())
    };
    let extra_tiles = custom_tiles
        .iter()
        .filter_map(|t| catalog.by_name(&t.name).map(|id| (id, t.count)))
        .collect();
    let game = Game::new(Setup {
        rules: rules.resolve(),
        catalog,
        players,
        start: Vec::new(),
        start_squares: Vec::new(),
        extra_tiles,
    })
    .map_err(|e| e.to_string())?;
    Ok((game, game_kind, custom_tiles))
}

/// Plays one game with `players` bots under `rules`, starting from the rules' default start.
/// New World is played on our sample tile set.
pub fn generate(rules: RulesSpec, players: u8, policy: Policy, seed: u64) -> Result<GameRecord, String> {
    let mut scratch = Scratch::default();
    generate_with(rules, players, seed, |game, tile, rng| {
        bots::choose(game, tile, policy, rng, &mut scratch)
    })
}

/// Like [`generate`], with `choose` picking every move (`None`: the tile fits nowhere and is
/// discarded); it is handed the random numbers the tile order was shuffled with.
pub fn generate_with(
    rules: RulesSpec,
    players: u8,
    seed: u64,
    mut choose: impl FnMut(&Game, TileKindId, &mut Rng) -> Option<Move>,
) -> Result<GameRecord, String> {
    let (mut game, game_kind, custom_tiles) = fresh_game(&rules, players)?;
    let catalog = game.catalog().clone();
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    let mut events = Vec::new();
    for tile in shuffled_bag(&game, &mut rng) {
        let Some(mv) = choose(&game, tile, &mut rng) else {
            game.discard(tile, &mut events).map_err(|e| e.to_string())?;
            moves.push(RecordedMove::Discard { player: None, tile });
            continue;
        };
        moves.push(recorded(&game, &mv));
        game.play(&mv, &mut events).map_err(|e| e.to_string())?;
    }
    Ok(GameRecord {
        game: game_kind,
        players: (1..=players).map(|i| PlayerInfo::named(format!("Bot {i}"))).collect(),
        rules,
        custom_tiles,
        catalog,
        start: Vec::new(),
        moves,
        score_orders: Default::default(),
        final_scoring: None,
        recorded_scores: None,
        annotations: Vec::new(),
    })
}

/// Plays one Card Game with `players` bots, dealt from a deck shuffled by `seed`; player 0
/// deals first. A joker turned up goes beside a random row.
pub fn card_game(players: u8, policy: Policy, seed: u64) -> Result<CardRecord, String> {
    let mut scratch = Vec::new();
    card_game_with(players, seed, |game, rng| {
        card_bots::choose(game, policy, rng, &mut scratch).ok_or_else(|| "no move is due".into())
    })
}

/// Like [`card_game`], with `choose` picking every action; it is handed the random numbers the
/// deck was shuffled with.
pub fn card_game_with(
    players: u8,
    seed: u64,
    mut choose: impl FnMut(&CardGame, &mut Rng) -> Result<CardMove, String>,
) -> Result<CardRecord, String> {
    let mut rng = Rng::new(seed);
    let new = card_bots::new_game(players, &mut rng).map_err(|e| e.to_string())?;
    let (mut game, face_up, mut deck) = (new.game, new.face_up, new.deck.into_iter());
    let (mut moves, mut events) = (Vec::new(), Vec::new());
    while !game.is_over() {
        if game.deal_due() {
            let hands = card_bots::next_hands(&game, &mut deck);
            game.deal(hands, &mut events).map_err(|e| e.to_string())?;
            continue;
        }
        let player = game.current_player();
        let mv = choose(&game, &mut rng)?;
        game.play(&mv, &mut events).map_err(|e| e.to_string())?;
        moves.push(RecordedCardMove {
            player: Some(player),
            mv,
            joker_herds: Vec::new(),
        });
    }
    Ok(CardRecord {
        players: (1..=players).map(|i| PlayerInfo::named(format!("Bot {i}"))).collect(),
        dealer: 0,
        face_up,
        moves,
        annotations: Vec::new(),
    })
}
