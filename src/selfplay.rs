//! Games the engine plays with itself (`engine::bots`), written as records: the shipped demo
//! game, bench inputs, test material and the `generate` command. Downstream of `record`,
//! which holds formats only.

use crate::engine::bots::{self, Rng, Scratch, shuffled_bag};
use crate::engine::cards::bots as card_bots;
use crate::engine::cards::{CardGame, CardIllegal, CardMove, CardSetupError};
use crate::engine::tileset::{NEW_WORLD_SAMPLE, parse_spec};
use crate::engine::{Game, GameKind, IllegalMove, Move, Setup, SetupError, TileCatalog, TileKindId};
use crate::record::Record;
use crate::record::cards::{Deal, RecordedCardMove};
use crate::record::{CustomTile, GameRecord, PlayerInfo, RecordedMove, RulesSpec, TileSetup, recorded};
use std::sync::Arc;

pub use crate::engine::bots::Policy;

/// Why a bot game stopped: the engine refused its setup or a move (a bug of the bot's), or a
/// chooser had no move to give.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SelfPlayError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    CardSetup(#[from] CardSetupError),
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
    #[error("turn {turn}: {why}")]
    CardIllegal { turn: u32, why: CardIllegal },
    #[error("turn {0}: no action is due")]
    NoMove(u32),
    /// A chooser that plays another game than the one asked for, named.
    #[error("{0} plays the tile games only")]
    TilesOnly(&'static str),
    /// Another build asked for a move (`match --b build:PATH`) gave none, and why.
    #[error("move {turn}, the other build: {why}")]
    Outside { turn: u32, why: String },
}

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
pub fn fresh_game(rules: &RulesSpec, players: u8) -> Result<(Game, GameKind, Vec<CustomTile>), SelfPlayError> {
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
    })?;
    Ok((game, game_kind, custom_tiles))
}

/// Plays one game with `players` bots under `rules`, starting from the rules' default start.
/// New World is played on our sample tile set.
pub fn generate(rules: RulesSpec, players: u8, policy: Policy, seed: u64) -> Result<GameRecord, SelfPlayError> {
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
) -> Result<GameRecord, SelfPlayError> {
    let (mut game, mut record) = fresh_record(&rules, players)?;
    let mut rng = Rng::new(seed);
    let mut events = Vec::new();
    for tile in shuffled_bag(&game, &mut rng) {
        let Some(mv) = choose(&game, tile, &mut rng) else {
            game.discard(tile, &mut events)?;
            record.moves.push(RecordedMove::Discard { player: None, tile });
            continue;
        };
        record.moves.push(recorded(&game, &mv));
        game.play(&mv, &mut events)?;
    }
    Ok(record)
}

/// A tile game's opening under `rules` for `players` bots, with its record as yet without
/// moves.
pub fn fresh_record(rules: &RulesSpec, players: u8) -> Result<(Game, GameRecord), SelfPlayError> {
    let (game, kind, custom_tiles) = fresh_game(rules, players)?;
    let record = GameRecord {
        players: bots_named(players),
        setup: TileSetup {
            game: kind,
            rules: rules.clone(),
            custom_tiles,
            catalog: game.catalog().clone(),
            start: Vec::new(),
            score_orders: Default::default(),
            final_scoring: None,
            recorded_scores: None,
        },
        moves: Vec::new(),
        annotations: Vec::new(),
    };
    Ok((game, record))
}

/// "Bot 1", "Bot 2", …: the players of the bots' records.
pub fn bots_named(players: u8) -> Vec<PlayerInfo> {
    (1..=players).map(|i| PlayerInfo::named(format!("Bot {i}"))).collect()
}

/// Plays one Card Game with `players` bots, dealt from a deck shuffled by `seed`; player 0
/// deals first. A joker turned up goes beside a random row.
pub fn card_game(players: u8, policy: Policy, seed: u64) -> Result<Record<CardGame>, SelfPlayError> {
    let (mut scratch, mut turn) = (Vec::new(), 0);
    card_game_with(players, seed, |game, rng| {
        turn += 1;
        card_bots::choose(game, policy, rng, &mut scratch).ok_or(SelfPlayError::NoMove(turn))
    })
}

/// Like [`card_game`], with `choose` picking every action; it is handed the random numbers the
/// deck was shuffled with.
pub fn card_game_with(
    players: u8,
    seed: u64,
    mut choose: impl FnMut(&CardGame, &mut Rng) -> Result<CardMove, SelfPlayError>,
) -> Result<Record<CardGame>, SelfPlayError> {
    let mut rng = Rng::new(seed);
    let new = card_bots::new_game(players, &mut rng)?;
    let (mut game, face_up, mut deck) = (new.game, new.face_up, new.deck.into_iter());
    let (mut moves, mut events) = (Vec::new(), Vec::new());
    while !game.is_over() {
        if game.deal_due() {
            let hands = card_bots::next_hands(&game, &mut deck);
            let turn = moves.len() as u32;
            game.deal(hands, &mut events)
                .map_err(|why| SelfPlayError::CardIllegal { turn, why })?;
            continue;
        }
        let player = game.current_player();
        let mv = choose(&game, &mut rng)?;
        let turn = moves.len() as u32 + 1;
        game.play(&mv, &mut events)
            .map_err(|why| SelfPlayError::CardIllegal { turn, why })?;
        moves.push(RecordedCardMove {
            player: Some(player),
            mv,
            joker_herds: Vec::new(),
            face_down: Default::default(),
        });
    }
    Ok(Record::<CardGame> {
        players: bots_named(players),
        setup: Deal { dealer: 0, face_up },
        moves,
        annotations: Vec::new(),
    })
}

#[cfg(test)]
/// The engine's end scoring checked on self-play games: here, as the engine may not use them.
mod tests {
    use super::*;
    use crate::engine::{Preset, SegId};

    /// The scores a copy of the game finished would have.
    fn finished_copy(game: &Game) -> Vec<i32> {
        let mut ended = game.clone();
        ended.finish(&mut Vec::new());
        ended.scores()
    }

    /// The segments the features list as occupied, sorted.
    fn occupied_listed(game: &Game) -> Vec<SegId> {
        let mut listed = game.features().occupied().to_vec();
        listed.sort_unstable();
        listed
    }

    /// The segments with a figure on them, found by walking every segment.
    fn occupied_walked(game: &Game) -> Vec<SegId> {
        let features = game.features();
        (0..features.len() as SegId)
            .filter(|&s| features.meeple_on(s).is_some())
            .collect()
    }

    /// `end_scores` reads what `finish` scores, at every position of bot games under every
    /// preset (farms scored per field and per city, New World's towns, trails and plains),
    /// with two to five players; the random bot leaves figures everywhere, the weighed one
    /// where a player would. The features' list of occupied segments, which both read, is
    /// checked against every segment too.
    #[test]
    fn the_end_scores_are_what_finishing_a_copy_scores() {
        let mut scratch = Scratch::default();
        let (mut positions, mut scoring_ends) = (0, 0);
        for preset in Preset::ALL {
            for (players, seed) in [(2, 1), (3, 2), (5, 3), (2, 4)] {
                let (mut game, ..) = fresh_game(&RulesSpec::new(preset), players).unwrap();
                let mut rng = Rng::new(seed);
                let policy = if seed % 2 == 0 { Policy::Weighed } else { Policy::Random };
                for tile in shuffled_bag(&game, &mut rng) {
                    bots::play_tiles(&mut game, &[tile], |_| policy, &mut rng, &mut scratch);
                    assert_eq!(occupied_listed(&game), occupied_walked(&game));
                    let read: Vec<i32> = game.end_scores().collect();
                    assert_eq!(read, finished_copy(&game), "{preset:?}, {players} players, seed {seed}");
                    positions += 1;
                    scoring_ends += usize::from(read != game.scores());
                }
            }
        }
        assert!(
            positions > 1000 && scoring_ends > positions / 2,
            "{scoring_ends} of {positions} positions score at the end"
        );
    }
}
