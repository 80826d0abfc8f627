//! The Card Game as a [`Position`]: the record walker, replay and analysis drive it like the
//! tile game.

use super::card::{Card, Colour};
use super::game::{CardCategory, CardEvent, CardGame, CardIllegal, CardMove};
use crate::engine::category::Category;
use crate::engine::position::{GameKind, Position};

/// What a player of the Card Game holds back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CardSupply {
    /// Cards left in hand.
    pub hand: u8,
    /// Whether the large follower is still to be placed this round.
    pub follower_home: bool,
}

impl Category for CardCategory {
    fn word(self) -> &'static str {
        CardCategory::word(self)
    }
}

impl Position for CardGame {
    type Move = CardMove;
    type TurnMove = CardMove;
    type Event = CardEvent;
    type Supply = CardSupply;
    type Illegal = CardIllegal;
    type Category = CardCategory;
    type Chance = Vec<Vec<Card>>;
    type Stated = Vec<(u8, Colour)>;

    fn categories(&self) -> &'static [CardCategory] {
        &CardCategory::ALL
    }

    fn kind(&self) -> GameKind {
        GameKind::CardGame
    }

    fn player_count(&self) -> usize {
        self.players().len()
    }

    fn current_player(&self) -> u8 {
        CardGame::current_player(self)
    }

    fn scores(&self) -> Vec<i32> {
        self.players().iter().map(|p| p.score).collect()
    }

    fn supply(&self) -> Vec<CardSupply> {
        self.players()
            .iter()
            .map(|p| CardSupply {
                hand: p.hand.len() as u8,
                follower_home: !p.follower_placed,
            })
            .collect()
    }

    fn legal_moves(&self, out: &mut Vec<CardMove>) {
        CardGame::legal_moves(self, out)
    }

    fn play(&mut self, mv: &CardMove, events: &mut Vec<CardEvent>) -> Result<(), CardIllegal> {
        CardGame::play(self, mv, events)
    }

    fn play_stating(
        &mut self,
        mv: &CardMove,
        herds: Vec<(u8, Colour)>,
        events: &mut Vec<CardEvent>,
    ) -> Result<(), CardIllegal> {
        CardGame::play_stating(self, mv, &herds, events)
    }

    fn ends_turn(_: &CardMove) -> bool {
        true
    }

    fn chance_due(&self) -> bool {
        self.deal_due()
    }

    fn apply_chance(&mut self, hands: Vec<Vec<Card>>, events: &mut Vec<CardEvent>) -> Result<(), CardIllegal> {
        self.deal(hands, events)
    }

    fn finish(&mut self, events: &mut Vec<CardEvent>) {
        CardGame::finish(self, events)
    }

    fn is_over(&self) -> bool {
        CardGame::is_over(self)
    }
}
