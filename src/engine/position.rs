//! What every game of the family has in common, in the spirit of `shakmaty`'s `Position`: whose
//! turn it is, the scores, the legal moves, playing one, and the end.
//!
//! The tile game implements it today ([`Game`]); the Card Game will implement it beside it. The
//! record walker plays every move through it, and the perft test counts moves with it; code
//! that needs no more than this should be written against the trait, so a new game gets it.

use super::category::{Category, TileCategory};
use super::error::IllegalMove;
use super::events::Event;
use super::game::FeatureRef;
use super::game::{Game, Move};
use super::rules::Preset;
use super::tile::FeatureKind;
use super::tileset::TileKindId;

/// The games a record can hold. Records name them (`"game": "carcassonne"`); a record that
/// names none is the tile game, so every file written before there were several still reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GameKind {
    /// The tile game: base game, The River, The Abbot, under every rulebook we know.
    #[default]
    Carcassonne,
    /// Carcassonne: The New World : towns, trails, plains and
    /// farms on the record's own tiles, west from the coast, with surveyors.
    NewWorld,
    /// The Carcassonne Card Game (`engine::cards`). Its engine plays; records of it are not
    /// read yet.
    CardGame,
}

impl GameKind {
    pub const ALL: [GameKind; 3] = [GameKind::Carcassonne, GameKind::NewWorld, GameKind::CardGame];

    /// The name records and the store use.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Carcassonne => "carcassonne",
            GameKind::NewWorld => "new-world",
            GameKind::CardGame => "card-game",
        }
    }

    /// The game's name for people.
    pub fn title(self) -> &'static str {
        match self {
            GameKind::Carcassonne => "Carcassonne",
            GameKind::NewWorld => "Carcassonne: The New World",
            GameKind::CardGame => "The Carcassonne Card Game",
        }
    }

    /// Whether a rulebook preset (of the tile games) is one of this game's.
    pub fn plays(self, preset: Preset) -> bool {
        match self {
            GameKind::Carcassonne => !preset.is_new_world(),
            GameKind::NewWorld => preset.is_new_world(),
            GameKind::CardGame => false,
        }
    }

    /// Whether the game places tiles on a board (the tile game, New World): its analyses value
    /// placements, with accuracies per seat and puzzles; the Card Game's do not.
    pub fn places_tiles(self) -> bool {
        !matches!(self, GameKind::CardGame)
    }

    /// The rules a tile record of this game follows when it names none.
    pub fn default_preset(self) -> Preset {
        match self {
            GameKind::NewWorld => Preset::NewWorld,
            GameKind::Carcassonne | GameKind::CardGame => Preset::SecondEdition,
        }
    }

    pub fn from_name(name: &str) -> Option<GameKind> {
        GameKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The kinds of feature this game's tiles are made of. A record's own tiles may use these
    /// and no others: the game has no rule for the rest (a cloister in New World, a town in
    /// the tile game, where it would join cities as a city).
    pub fn feature_kinds(self) -> &'static [FeatureKind] {
        use FeatureKind::*;
        match self {
            GameKind::Carcassonne => &[City, Road, Field, River, Cloister, Garden],
            GameKind::NewWorld => &[Town, Trail, Plains, Farm, Crossing],
            GameKind::CardGame => &[],
        }
    }
}

/// A name that is none of our games'.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownGame(pub String);

impl std::fmt::Display for UnknownGame {
    /// The name, and the names that are games.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<_> = GameKind::ALL.iter().map(|k| k.name()).collect();
        write!(f, "unknown game {:?}; the games are {}", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownGame {}

impl std::str::FromStr for GameKind {
    type Err = UnknownGame;

    /// A game by the name records and the command line use.
    fn from_str(name: &str) -> Result<GameKind, UnknownGame> {
        GameKind::from_name(name).ok_or_else(|| UnknownGame(name.to_string()))
    }
}

/// A game position: everything needed to go on playing.
///
/// Chance (the tile drawn, the cards dealt) is part of the position: `legal_moves` lists what
/// the player to move may do with what they hold. The tile game learns its drawn tile from
/// [`Game::draw`].
pub trait Position: Clone + std::fmt::Debug {
    /// What a player does on a turn.
    type Move: Copy + Eq + std::fmt::Debug;
    /// The move that ends a player's turn: what a replay shows as one turn. (A tile that fits
    /// nowhere is set aside and the same player draws again, so in the tile game only a
    /// placement ends a turn.)
    type TurnMove: Copy + Eq + std::fmt::Debug;
    /// What a move did: placements, scores with their terms, returns.
    type Event: Clone + std::fmt::Debug;
    /// What one player holds back for later turns.
    type Supply: Clone + std::fmt::Debug;
    /// Why a move cannot be played, as data.
    type Illegal: std::error::Error;
    /// What a score breakdown of this game splits points into: the game's enum of them.
    type Category: Category;
    /// What chance decides between moves: the tile drawn, the hands dealt.
    type Chance: Clone + std::fmt::Debug;
    /// What a player states with a move that the move alone does not say (the order New
    /// World's features score in, the herds the Card Game's Animal Jokers join). The default,
    /// empty, leaves it to the game's own rule.
    type Stated: Clone + std::fmt::Debug + Default;

    /// The categories a score breakdown of this game has, in order.
    fn categories(&self) -> &'static [Self::Category];

    fn kind(&self) -> GameKind;
    fn player_count(&self) -> usize;
    /// The player to move, from 0.
    fn current_player(&self) -> u8;
    /// Every player's score now, in seat order.
    fn scores(&self) -> Vec<i32>;
    /// Every player's supply now, in seat order.
    fn supply(&self) -> Vec<Self::Supply>;
    /// The moves the player to move may make, written to `out`. Moves that leave the same
    /// position (a symmetric tile turned half round) are listed once.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    /// Plays a move after checking it. On error nothing changes.
    fn play(&mut self, mv: &Self::Move, events: &mut Vec<Self::Event>) -> Result<(), Self::Illegal>;
    /// Plays a move with what its player states about it.
    fn play_stating(
        &mut self,
        mv: &Self::Move,
        stated: Self::Stated,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), Self::Illegal>;
    /// Whether a move ends its player's turn (a tile set aside does not: they draw again).
    fn ends_turn(mv: &Self::Move) -> bool;
    /// Whether chance acts before the next move: a tile to draw, a round to deal.
    fn chance_due(&self) -> bool;
    /// Chance acts. On error nothing changes.
    fn apply_chance(&mut self, chance: Self::Chance, events: &mut Vec<Self::Event>) -> Result<(), Self::Illegal>;
    /// The scoring at the end of the game.
    fn finish(&mut self, events: &mut Vec<Self::Event>);
    /// Whether no move is left to make.
    fn is_over(&self) -> bool;
}

/// A move of the tile game as played: a tile placed with its meeple step, or a drawn tile that
/// fits nowhere, set aside.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Played {
    /// A drawn tile with no legal placement, set aside; the same player draws again.
    Discard(TileKindId),
    /// A placed tile and its meeple step.
    Place(Move),
}

impl Played {
    pub fn tile(&self) -> TileKindId {
        match self {
            Played::Discard(tile) => *tile,
            Played::Place(mv) => mv.tile,
        }
    }
}

/// What a player of the tile game holds back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Supply {
    pub followers: u8,
    /// Whether the abbot is in supply (not on the board).
    pub abbot_home: bool,
}

impl Position for Game {
    type Move = Played;
    type TurnMove = Move;
    type Event = Event;
    type Supply = Supply;
    type Illegal = IllegalMove;
    type Category = TileCategory;
    type Chance = TileKindId;
    type Stated = Vec<FeatureRef>;

    fn categories(&self) -> &'static [TileCategory] {
        Game::categories(self)
    }

    fn kind(&self) -> GameKind {
        Game::kind(self)
    }

    fn player_count(&self) -> usize {
        self.players().len()
    }

    fn current_player(&self) -> u8 {
        Game::current_player(self)
    }

    fn scores(&self) -> Vec<i32> {
        Game::scores(self)
    }

    fn supply(&self) -> Vec<Supply> {
        (self.players().iter())
            .map(|p| Supply {
                followers: p.followers,
                abbot_home: p.abbot_at.is_none(),
            })
            .collect()
    }

    /// Nothing until a tile is drawn; then every distinct placement with each of its meeple
    /// steps, or the discard when the tile fits nowhere.
    fn legal_moves(&self, out: &mut Vec<Played>) {
        out.clear();
        let Some(tile) = self.drawn() else { return };
        let mut placements = Vec::new();
        self.placements(tile, true, &mut placements);
        if placements.is_empty() {
            out.push(Played::Discard(tile));
            return;
        }
        let mut actions = Vec::new();
        for placement in placements {
            self.actions(tile, placement, &mut actions);
            out.extend(actions.iter().map(|&action| {
                Played::Place(Move {
                    tile,
                    placement,
                    action,
                })
            }));
        }
    }

    fn play(&mut self, mv: &Played, events: &mut Vec<Event>) -> Result<(), IllegalMove> {
        if let Some(drawn) = self.drawn().filter(|d| *d != mv.tile()) {
            return Err(IllegalMove::NotDrawn {
                drawn: self.tile_kind(drawn).name.clone(),
                played: self.tile_kind(mv.tile()).name.clone(),
            });
        }
        match mv {
            Played::Discard(tile) => self.discard(*tile, events),
            Played::Place(mv) => Game::play(self, mv, events),
        }
    }

    /// A stated scoring order is chosen before the tile is placed; none leaves the default.
    fn play_stating(
        &mut self,
        mv: &Played,
        order: Vec<FeatureRef>,
        events: &mut Vec<Event>,
    ) -> Result<(), IllegalMove> {
        if !order.is_empty() {
            self.choose_score_order(order);
        }
        Position::play(self, mv, events)
    }

    fn ends_turn(mv: &Played) -> bool {
        matches!(mv, Played::Place(_))
    }

    fn chance_due(&self) -> bool {
        self.drawn().is_none()
    }

    fn apply_chance(&mut self, tile: TileKindId, _: &mut Vec<Event>) -> Result<(), IllegalMove> {
        self.draw(tile)
    }

    fn finish(&mut self, events: &mut Vec<Event>) {
        Game::finish(self, events)
    }

    fn is_over(&self) -> bool {
        self.pack_left() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bots::{Rng, shuffled_bag};
    use crate::engine::{Preset, Setup, TileCatalog};

    fn new_game() -> Game {
        Game::new(Setup {
            rules: Preset::SecondEdition.rules(),
            catalog: TileCatalog::builtin(),
            players: 2,
            start: Vec::new(),
            start_squares: Vec::new(),
            extra_tiles: Vec::new(),
        })
        .unwrap()
    }

    /// A whole game played through the trait alone: every listed move is legal, the turn
    /// passes, and the game ends with the pack.
    #[test]
    fn a_game_plays_through_the_trait() {
        let mut game = new_game();
        let mut rng = Rng::new(7);
        let (mut moves, mut events) = (Vec::new(), Vec::new());
        for tile in shuffled_bag(&game, &mut rng) {
            assert!(!Position::is_over(&game));
            game.draw(tile).unwrap();
            game.legal_moves(&mut moves);
            assert!(!moves.is_empty(), "a drawn tile can always be placed or set aside");
            let mv = moves[rng.below(moves.len())];
            let before = Position::current_player(&game);
            Position::play(&mut game, &mv, &mut events).unwrap();
            let expected = match mv {
                Played::Discard(_) => before,
                Played::Place(_) => (before + 1) % 2,
            };
            assert_eq!(Position::current_player(&game), expected);
        }
        assert!(Position::is_over(&game));
        Position::finish(&mut game, &mut events);
        assert_eq!(Position::scores(&game).len(), Position::player_count(&game));
    }

    #[test]
    fn only_the_drawn_tile_may_be_played() {
        let mut game = new_game();
        let catalog = game.catalog().clone();
        let (a, b) = (catalog.by_name("A").unwrap(), catalog.by_name("V").unwrap());
        game.draw(a).unwrap();
        let mut moves = Vec::new();
        let mut other = new_game();
        other.draw(b).unwrap();
        other.legal_moves(&mut moves);
        let err = Position::play(&mut game, &moves[0], &mut Vec::new()).unwrap_err();
        assert!(matches!(err, IllegalMove::NotDrawn { .. }), "{err}");
    }

    #[test]
    fn game_kinds_read_back_by_name() {
        for kind in GameKind::ALL {
            assert_eq!(GameKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(GameKind::from_name("chess"), None);
    }
}
