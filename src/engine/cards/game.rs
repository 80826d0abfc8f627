//! A Card Game in progress: the rows beside the scoreboard, the hands, the followers, and each
//! player's score, herds and chest. It plays moves, scores each round and the end.

use super::card::{Card, Colour, KINDS, deck};
use super::rules::{self, TEN};

/// What lies in a row, left to right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    Card {
        card: Card,
        face_down: bool,
    },
    /// A player's large follower: it secures the cards between it and the board or the
    /// follower before it.
    Follower(u8),
}

/// What a player does on a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CardMove {
    /// A card from the hand, at the end of a row. The round's first card goes face down.
    Play { card: Card, row: Colour },
    /// The large follower, at the end of a row.
    Follower { row: Colour },
    /// After a round: a wrongly placed animal or building the player took is kept (`true`)
    /// or turned in for 10 points.
    WrongRow { keep: bool },
}

/// The score categories of a breakdown, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CardCategory {
    People,
    Animals,
    CitySets,
    Jokers,
    WrongRows,
}

impl CardCategory {
    pub const ALL: [CardCategory; 5] = [
        CardCategory::People,
        CardCategory::Animals,
        CardCategory::CitySets,
        CardCategory::Jokers,
        CardCategory::WrongRows,
    ];

    pub const fn word(self) -> &'static str {
        match self {
            CardCategory::People => "people",
            CardCategory::Animals => "animals",
            CardCategory::CitySets => "city sets",
            CardCategory::Jokers => "jokers",
            CardCategory::WrongRows => "wrong rows",
        }
    }
}

/// Why a player scored, as data; `Display` puts it in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Because {
    /// People in their own row: how many of value 1, 2 and 3.
    People { by_value: [u8; 3] },
    /// A herd that grew, at its new size.
    Herd { kind: Colour, size: u8 },
    /// An Animal Joker with no herd to join.
    LoneAnimalJoker,
    /// The Dragon or the Fairy.
    Joker(Card),
    /// A person of another colour than its row.
    WrongRow { card: Card, row: Colour },
    /// A wrongly placed animal or building its owner turned in.
    TurnedIn(Card),
    /// The chest split into sets of these sizes.
    CitySets(Vec<u8>),
}

impl std::fmt::Display for Because {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Because::People { by_value } => {
                let values: Vec<String> = (1..=3u8)
                    .rev()
                    .flat_map(|v| std::iter::repeat_n(v.to_string(), by_value[usize::from(v) - 1].into()))
                    .collect();
                write!(f, "({}) × {} people", values.join(" + "), values.len())
            }
            Because::Herd { kind, size } => write!(f, "a herd of {size} {} animals", kind.colour_word()),
            Because::LoneAnimalJoker => f.write_str("an Animal Joker alone"),
            Because::Joker(card) => write!(f, "{card}"),
            Because::WrongRow { card, row } => write!(f, "{card} in the {} row", row.word()),
            Because::TurnedIn(card) => write!(f, "{card} turned in"),
            Because::CitySets(sizes) => {
                let sizes: Vec<String> = sizes.iter().map(u8::to_string).collect();
                write!(f, "city sets of {}", sizes.join(", "))
            }
        }
    }
}

/// What a move did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CardEvent {
    Dealt {
        round: u8,
        dealer: u8,
    },
    Played {
        player: u8,
        card: Card,
        row: Colour,
        face_down: bool,
    },
    FollowerPlaced {
        player: u8,
        row: Colour,
    },
    /// A player took the cards their follower secured, face-down ones revealed.
    Took {
        player: u8,
        row: Colour,
        cards: Vec<Card>,
    },
    Scored {
        player: u8,
        category: CardCategory,
        points: u32,
        why: Because,
    },
    /// A wrongly placed animal or building waits for its owner's choice.
    ChoiceDue {
        player: u8,
        card: Card,
    },
    /// Cards left by the board when no more can be dealt.
    Discarded {
        cards: Vec<Card>,
    },
}

/// Why a move cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CardIllegal {
    #[error("{card} is not in the player's hand")]
    NotInHand { card: Card },
    #[error("{card} is {colour} and goes in the {row} row, not the {played} row; only the round's first card, face down, and jokers go anywhere", colour = card.colour().map_or("", Colour::colour_word), row = card.colour().map_or("", Colour::word), played = played.word())]
    WrongRow { card: Card, played: Colour },
    #[error("the player's follower is already placed this round")]
    FollowerPlaced,
    #[error("the player has cards left and may not choose a wrongly placed card now")]
    NoChoiceDue,
    #[error("a wrongly placed card waits for its owner's choice (keep it or take 10 points)")]
    ChoiceDue,
    #[error("the game is over")]
    Over,
    #[error("round {round} is not dealt yet")]
    DealDue { round: u8 },
    #[error("no deal is due: the round is under way")]
    NoDealDue,
    #[error("player {player} is dealt {cards} cards; a hand here has {size}")]
    HandSize { player: u8, cards: usize, size: u8 },
    #[error("there is no {card} left to deal: every {card} is face up or dealt already")]
    NotInDeck { card: Card },
    /// Whose Animal Joker is for the caller to name.
    #[error("it cannot join a {} herd: they hold no {} animal", kind.word(), kind.colour_word())]
    NoSuchHerd { player: u8, kind: Colour },
    #[error("the record puts it in the {} herd, but none of theirs joins a herd here", kind.word())]
    NoJokerToAssign { player: u8, kind: Colour },
}

/// Why a game cannot start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CardSetupError {
    #[error("the Card Game has 2 to 5 players, not {0}")]
    Players(u8),
    #[error("the dealer is player {0}, who does not exist")]
    Dealer(u8),
    #[error("10 cards are turned up at the start, not {0}")]
    FaceUp(usize),
    #[error("{card} is turned up beside the {row} row, but goes beside the {own} row", own = card.colour().map_or("", Colour::word), row = row.word())]
    FaceUpRow { card: Card, row: Colour },
    #[error("{0} is turned up more often than the deck holds it")]
    NotInDeck(Card),
}

/// Everything needed to begin: who deals first, and the 10 cards turned up with the rows the
/// dealer put them beside. Each round's hands come with [`CardGame::deal`].
#[derive(Clone, Debug)]
pub struct CardSetup {
    pub players: u8,
    pub dealer: u8,
    pub face_up: Vec<(Card, Colour)>,
}

/// One player's score, hand and holdings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CardPlayer {
    pub score: i32,
    pub hand: Vec<Card>,
    pub follower_placed: bool,
    /// Animals held, by kind (their colour), Animal Jokers assigned included.
    pub herds: [u8; 4],
    /// Animal Jokers taken before any animal: they join the first herd.
    pub lone_jokers: u8,
    /// Buildings under the chest, by colour.
    pub chest: [u8; 4],
    pub city_jokers: u8,
    /// Points by category, in `CardCategory::ALL` order.
    pub by_category: [u32; 5],
}

impl CardPlayer {
    /// Buildings and City Jokers: the tie-break.
    pub fn city_cards(&self) -> u32 {
        self.chest.iter().map(|&n| u32::from(n)).sum::<u32>() + u32::from(self.city_jokers)
    }
}

/// A Card Game position.
#[derive(Clone, Debug)]
pub struct CardGame {
    pub(super) players: Vec<CardPlayer>,
    pub(super) rows: [Vec<Slot>; 4],
    /// Cards neither turned up nor dealt yet, counted by kind (`Card::kind_index`).
    unseen: [u8; KINDS],
    /// Whether the round under way waits for its hands.
    deal_due: bool,
    hand_size: u8,
    rounds: u8,
    round: u8,
    dealer: u8,
    current: u8,
    /// Whether this round's first card (face down) has been played.
    first_played: bool,
    /// Who played this round's face-down card: only they know it.
    face_down_by: Option<u8>,
    /// The last player to place a follower this round: the next dealer.
    last_follower: u8,
    /// Wrongly placed cards waiting for their owners' choices, in order.
    pub(super) pending: Vec<(u8, Card)>,
    over: bool,
    /// The herds a record states for the Animal Jokers that join one in the move under way,
    /// in the order they join ([`CardGame::play_stating`]).
    pub(super) stated_herds: Vec<(u8, Colour)>,
    /// A stated herd the player does not have, found while scoring.
    pub(super) joker_error: Option<CardIllegal>,
}

/// Takes `card` out of the counts, if one is left.
fn take_from(counts: &mut [u8; KINDS], card: Card) -> bool {
    let n = &mut counts[card.kind_index()];
    let left = *n > 0;
    *n -= u8::from(left);
    left
}

impl CardGame {
    pub fn new(setup: CardSetup) -> Result<CardGame, CardSetupError> {
        let (hand_size, rounds) = rules::hands(setup.players).ok_or(CardSetupError::Players(setup.players))?;
        if setup.dealer >= setup.players {
            return Err(CardSetupError::Dealer(setup.dealer));
        }
        if setup.face_up.len() != 10 {
            return Err(CardSetupError::FaceUp(setup.face_up.len()));
        }
        let mut unseen = [0u8; KINDS];
        deck().into_iter().for_each(|c| unseen[c.kind_index()] += 1);
        // A row seldom holds more than a round's cards and what stayed from the last.
        let mut rows: [Vec<Slot>; 4] = std::array::from_fn(|_| Vec::with_capacity(32));
        for (card, row) in setup.face_up {
            if card.colour().is_some_and(|own| own != row) {
                return Err(CardSetupError::FaceUpRow { card, row });
            }
            if !take_from(&mut unseen, card) {
                return Err(CardSetupError::NotInDeck(card));
            }
            rows[row.index()].push(Slot::Card { card, face_down: false });
        }
        Ok(CardGame {
            players: vec![CardPlayer::default(); setup.players as usize],
            rows,
            unseen,
            deal_due: true,
            hand_size,
            rounds,
            round: 0,
            dealer: setup.dealer,
            current: (setup.dealer + 1) % setup.players,
            first_played: false,
            face_down_by: None,
            last_follower: setup.dealer,
            pending: Vec::new(),
            over: false,
            stated_herds: Vec::new(),
            joker_error: None,
        })
    }

    // ----- queries -----

    pub fn players(&self) -> &[CardPlayer] {
        &self.players
    }

    pub fn rows(&self) -> &[Vec<Slot>; 4] {
        &self.rows
    }

    pub fn round(&self) -> u8 {
        self.round
    }

    pub fn rounds(&self) -> u8 {
        self.rounds
    }

    pub fn dealer(&self) -> u8 {
        self.dealer
    }

    /// Cards per hand in this game.
    pub fn hand_size(&self) -> u8 {
        self.hand_size
    }

    /// Whether the round under way waits for [`CardGame::deal`].
    pub fn deal_due(&self) -> bool {
        self.deal_due && !self.over
    }

    /// The wrongly placed card whose owner chooses next, if any.
    pub fn pending_choice(&self) -> Option<(u8, Card)> {
        self.pending.first().copied()
    }

    /// The cards nobody has seen: neither turned up nor dealt.
    pub fn unseen(&self) -> Vec<Card> {
        let mut kinds = deck();
        kinds.dedup();
        kinds
            .into_iter()
            .flat_map(|c| std::iter::repeat_n(c, self.unseen[c.kind_index()].into()))
            .collect()
    }

    /// The player to move: the owner of the next wrongly placed card, once a round is scored.
    pub fn current_player(&self) -> u8 {
        self.pending.first().map_or(self.current, |&(p, _)| p)
    }

    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The winners: the most points, then the most city cards.
    pub fn winners(&self) -> Vec<u8> {
        let key = |p: &CardPlayer| (p.score, p.city_cards());
        let best = self.players.iter().map(key).max();
        (0..self.players.len() as u8)
            .filter(|&i| Some(key(&self.players[i as usize])) == best)
            .collect()
    }

    // ----- legality -----

    pub fn check(&self, mv: &CardMove) -> Result<(), CardIllegal> {
        if self.over {
            return Err(CardIllegal::Over);
        }
        if self.deal_due {
            return Err(CardIllegal::DealDue { round: self.round + 1 });
        }
        let player = &self.players[self.current_player() as usize];
        match *mv {
            CardMove::WrongRow { .. } if self.pending.is_empty() => Err(CardIllegal::NoChoiceDue),
            CardMove::WrongRow { .. } => Ok(()),
            _ if !self.pending.is_empty() => Err(CardIllegal::ChoiceDue),
            CardMove::Follower { .. } if player.follower_placed => Err(CardIllegal::FollowerPlaced),
            CardMove::Follower { .. } => Ok(()),
            CardMove::Play { card, .. } if !player.hand.contains(&card) => Err(CardIllegal::NotInHand { card }),
            CardMove::Play { card, row } => match card.colour() {
                Some(own) if own != row && self.first_played => Err(CardIllegal::WrongRow { card, played: row }),
                _ => Ok(()),
            },
        }
    }

    /// Every legal move, each distinct card once per row it may go to.
    pub fn legal_moves(&self, out: &mut Vec<CardMove>) {
        out.clear();
        if self.over || self.deal_due {
            return;
        }
        if !self.pending.is_empty() {
            out.extend([CardMove::WrongRow { keep: true }, CardMove::WrongRow { keep: false }]);
            return;
        }
        let player = &self.players[self.current as usize];
        // `check` over every card and row, written out: bots and playouts list moves often.
        for (i, &card) in player.hand.iter().enumerate() {
            if player.hand[..i].contains(&card) {
                continue;
            }
            match card.colour().filter(|_| self.first_played) {
                Some(row) => out.push(CardMove::Play { card, row }),
                None => out.extend(Colour::ALL.map(|row| CardMove::Play { card, row })),
            }
        }
        if !player.follower_placed {
            out.extend(Colour::ALL.map(|row| CardMove::Follower { row }));
        }
    }

    // ----- playing -----

    /// Plays a move after checking it. On error nothing changes.
    pub fn play(&mut self, mv: &CardMove, events: &mut Vec<CardEvent>) -> Result<(), CardIllegal> {
        self.check(mv)?;
        let p = self.current_player();
        match *mv {
            CardMove::Play { card, row } => {
                let hand = &mut self.players[p as usize].hand;
                let at = hand.iter().position(|c| *c == card).expect("checked");
                hand.remove(at);
                let face_down = !self.first_played;
                self.first_played = true;
                if face_down {
                    self.face_down_by = Some(p);
                }
                self.rows[row.index()].push(Slot::Card { card, face_down });
                events.push(CardEvent::Played {
                    player: p,
                    card,
                    row,
                    face_down,
                });
            }
            CardMove::Follower { row } => {
                self.players[p as usize].follower_placed = true;
                self.last_follower = p;
                self.rows[row.index()].push(Slot::Follower(p));
                events.push(CardEvent::FollowerPlaced { player: p, row });
            }
            CardMove::WrongRow { keep } => {
                let (player, card) = self.pending.remove(0);
                if keep {
                    self.keep(player, card, events);
                } else {
                    self.award(player, CardCategory::WrongRows, TEN, Because::TurnedIn(card), events);
                }
                if self.pending.is_empty() {
                    self.next_round(events);
                }
                return Ok(());
            }
        }
        self.current = (self.current + 1) % self.players.len() as u8;
        let done = self.players.iter().all(|pl| pl.hand.is_empty() && pl.follower_placed);
        if done {
            self.score_round(events);
            if self.pending.is_empty() {
                self.next_round(events);
            }
        }
        Ok(())
    }

    /// Plays a move whose scoring puts Animal Jokers in the herds a record states: `herds`
    /// lists, in the order jokers join herds, whose they are and which herd (all of a player's
    /// waiting jokers join one herd at once). Without it they join the biggest herd. On error
    /// nothing changes.
    pub fn play_stating(
        &mut self,
        mv: &CardMove,
        herds: &[(u8, Colour)],
        events: &mut Vec<CardEvent>,
    ) -> Result<(), CardIllegal> {
        if herds.is_empty() {
            return self.play(mv, events);
        }
        // Played on a copy: a stated herd is checked only as the scoring reaches it.
        let mut trial = self.clone();
        trial.stated_herds = herds.to_vec();
        let mut more = Vec::new();
        trial.play(mv, &mut more)?;
        if let Some(e) = trial.joker_error.take() {
            return Err(e);
        }
        if let Some(&(player, kind)) = trial.stated_herds.first() {
            return Err(CardIllegal::NoJokerToAssign { player, kind });
        }
        *self = trial;
        events.append(&mut more);
        Ok(())
    }

    /// The herd a record states for `player`'s joining jokers, taken off the list.
    pub(super) fn stated_herd(&mut self, player: u8) -> Option<Colour> {
        let at = self.stated_herds.iter().position(|(p, _)| *p == player)?;
        Some(self.stated_herds.remove(at).1)
    }

    /// Deals the round's hands, in seat order. Each must have the hand size, from cards nobody
    /// has seen. On error nothing changes.
    pub fn deal(&mut self, hands: Vec<Vec<Card>>, events: &mut Vec<CardEvent>) -> Result<(), CardIllegal> {
        if !self.deal_due() {
            return Err(if self.over {
                CardIllegal::Over
            } else {
                CardIllegal::NoDealDue
            });
        }
        let size = self.hand_size;
        if let Some(player) = (0..self.players.len()).find(|&p| hands.get(p).is_none_or(|h| h.len() != size as usize)) {
            let cards = hands.get(player).map_or(0, Vec::len);
            return Err(CardIllegal::HandSize {
                player: player as u8,
                cards,
                size,
            });
        }
        let mut unseen = self.unseen;
        if let Some(&card) = hands.iter().flatten().find(|&&c| !take_from(&mut unseen, c)) {
            return Err(CardIllegal::NotInDeck { card });
        }
        self.unseen = unseen;
        self.deal_unchecked(hands);
        events.push(CardEvent::Dealt {
            round: self.round,
            dealer: self.dealer,
        });
        Ok(())
    }

    /// This round's face-down card, if it is still in a row: who played it, the row and the card.
    pub fn face_down_card(&self) -> Option<(u8, Colour, Card)> {
        let by = self.face_down_by?;
        Colour::ALL.into_iter().find_map(|row| {
            self.rows[row.index()].iter().find_map(|s| match *s {
                Slot::Card { card, face_down: true } => Some((by, row, card)),
                _ => None,
            })
        })
    }

    /// A sampled position's hidden cards: another player's hand, or the face-down card. The
    /// cards come from a sample of what was hidden, so the deck's count is not checked.
    pub(super) fn replace_hand(&mut self, player: u8, hand: Vec<Card>) {
        self.players[player as usize].hand = hand;
    }

    pub(super) fn replace_face_down(&mut self, row: Colour, card: Card) {
        for slot in &mut self.rows[row.index()] {
            if let Slot::Card {
                card: c,
                face_down: true,
            } = slot
            {
                *c = card;
            }
        }
    }

    /// Hands out a round's hands. `deal` checks them first; a sampled future deals its own
    /// cards, already out of the unseen count.
    pub(super) fn deal_unchecked(&mut self, hands: Vec<Vec<Card>>) {
        for (p, hand) in self.players.iter_mut().zip(hands) {
            p.hand = hand;
            p.follower_placed = false;
        }
        self.deal_due = false;
    }

    fn next_round(&mut self, events: &mut Vec<CardEvent>) {
        self.round += 1;
        self.dealer = self.last_follower;
        self.current = (self.dealer + 1) % self.players.len() as u8;
        self.first_played = false;
        self.face_down_by = None;
        if self.round < self.rounds {
            self.deal_due = true;
            return;
        }
        // "The game ends if no more cards can be drawn. Any remaining cards by the scoreboard
        // are removed from play."
        let cards: Vec<Card> = self
            .rows
            .iter_mut()
            .flat_map(std::mem::take)
            .filter_map(|s| match s {
                Slot::Card { card, .. } => Some(card),
                Slot::Follower(_) => None,
            })
            .collect();
        events.push(CardEvent::Discarded { cards });
        self.over = true;
    }

    pub(super) fn award(
        &mut self,
        player: u8,
        category: CardCategory,
        points: u32,
        why: Because,
        events: &mut Vec<CardEvent>,
    ) {
        let p = &mut self.players[player as usize];
        p.score += points as i32;
        p.by_category[category as usize] += points;
        events.push(CardEvent::Scored {
            player,
            category,
            points,
            why,
        });
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A game whose first hands, in seat order, start with `hands` and are filled up from the
    /// deck; the 10 cards turned up are 9 yellow animals and the Fairy, all beside the cloister
    /// row.
    pub(in crate::engine::cards) fn arranged(players: u8, dealer: u8, hands: &[Vec<Card>]) -> CardGame {
        let mut face_up = vec![(Card::Animal(Colour::Cloister), Colour::Cloister); 9];
        face_up.push((Card::Fairy, Colour::Cloister));
        let mut g = CardGame::new(CardSetup {
            players,
            dealer,
            face_up,
        })
        .unwrap();
        deal_filled(&mut g, hands);
        g
    }

    /// Deals hands that start with `given` and are filled up from the unseen cards in order.
    pub(in crate::engine::cards) fn deal_filled(g: &mut CardGame, given: &[Vec<Card>]) {
        let mut pool = g.unseen();
        given.iter().flatten().for_each(|&c| {
            let at = pool.iter().position(|p| *p == c).unwrap();
            pool.remove(at);
        });
        let hands = (0..g.players().len())
            .map(|p| {
                let mut hand = given.get(p).cloned().unwrap_or_default();
                let more = g.hand_size() as usize - hand.len();
                hand.extend(pool.drain(..more));
                hand
            })
            .collect();
        g.deal(hands, &mut Vec::new()).unwrap();
    }

    pub(in crate::engine::cards) fn person(colour: Colour, value: u8) -> Card {
        Card::Person { colour, value }
    }

    fn play(g: &mut CardGame, moves: &[CardMove]) -> Vec<CardEvent> {
        let mut events = Vec::new();
        for mv in moves {
            g.play(mv, &mut events).unwrap_or_else(|e| panic!("{mv:?}: {e}"));
        }
        events
    }

    /// (player, category, points) of each score among `events`.
    pub(in crate::engine::cards) fn scored(events: &[CardEvent]) -> Vec<(u8, CardCategory, u32)> {
        events
            .iter()
            .filter_map(|e| match e {
                CardEvent::Scored {
                    player,
                    category,
                    points,
                    ..
                } => Some((*player, *category, *points)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_round_scores_what_each_follower_secured() {
        use Colour::{City, Farm, Road};
        let red = vec![
            person(Road, 3),
            person(Road, 1),
            person(Road, 1),
            person(Farm, 1),
            person(Farm, 1),
            person(Farm, 1),
        ];
        let blue = [1, 1, 1, 2, 2, 2].map(|v| person(City, v)).to_vec();
        let mut g = arranged(2, 1, &[red, blue]);
        assert_eq!(g.current_player(), 0, "play starts left of the dealer");
        let p = |card, row| CardMove::Play { card, row };
        let events = play(
            &mut g,
            &[
                p(person(Road, 3), Road),
                p(person(City, 1), City),
                p(person(Road, 1), Road),
                p(person(City, 1), City),
                p(person(Road, 1), Road),
                p(person(City, 1), City),
                CardMove::Follower { row: Road },
                p(person(City, 2), City),
                p(person(Farm, 1), Farm),
                p(person(City, 2), City),
                p(person(Farm, 1), Farm),
                p(person(City, 2), City),
                p(person(Farm, 1), Farm),
                CardMove::Follower { row: City },
            ],
        );
        // "$3+1+1 = 5$ Red has 3 person cards, so $5 \times 3 = 15$ points"
        assert_eq!(
            scored(&events),
            vec![(1, CardCategory::People, 54), (0, CardCategory::People, 15)],
            "rows clear bottom to top: the city row first"
        );
        assert!(
            matches!(events[0], CardEvent::Played { face_down: true, .. }),
            "the round's first card is face down"
        );
        assert!(g.rows()[Farm.index()].len() == 3, "unsecured cards stay");
        assert_eq!(g.round(), 1);
        assert_eq!(g.dealer(), 1, "the last to place a follower deals");
        assert_eq!(g.current_player(), 0);
        assert!(g.deal_due() && g.check(&CardMove::Follower { row: Road }).is_err());
        // A hand of the wrong size, or with a card the deck no longer holds, is refused.
        let short = vec![vec![person(Road, 1); 5], vec![person(Road, 1); 6]];
        assert_eq!(
            g.deal(short, &mut Vec::new()),
            Err(CardIllegal::HandSize {
                player: 0,
                cards: 5,
                size: 6
            })
        );
        let dragons = vec![vec![Card::Dragon; 6], vec![person(Road, 1); 6]];
        assert_eq!(
            g.deal(dragons, &mut Vec::new()),
            Err(CardIllegal::NotInDeck { card: Card::Dragon })
        );
        deal_filled(&mut g, &[]);
        assert!(g.players().iter().all(|p| p.hand.len() == 6 && !p.follower_placed));
    }

    #[test]
    fn only_the_rounds_first_card_and_jokers_go_in_another_colours_row() {
        use Colour::{City, Road};
        let red = vec![
            person(Road, 1),
            person(Road, 2),
            Card::Dragon,
            person(Road, 1),
            person(Road, 1),
            person(Road, 1),
        ];
        let mut g = arranged(2, 1, &[red, vec![person(City, 1); 6]]);
        let p = |card, row| CardMove::Play { card, row };
        // The first card, face down, goes anywhere.
        play(&mut g, &[p(person(Road, 1), City), p(person(City, 1), City)]);
        let wrong = CardMove::Play {
            card: person(Road, 2),
            row: City,
        };
        assert_eq!(
            g.check(&wrong),
            Err(CardIllegal::WrongRow {
                card: person(Road, 2),
                played: City
            })
        );
        assert!(
            g.check(&CardMove::Play {
                card: Card::Dragon,
                row: City
            })
            .is_ok(),
            "a joker goes anywhere"
        );
        assert_eq!(
            g.check(&CardMove::Play {
                card: Card::Fairy,
                row: City
            }),
            Err(CardIllegal::NotInHand { card: Card::Fairy })
        );
        play(&mut g, &[CardMove::Follower { row: Road }, p(person(City, 1), City)]);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        assert!(moves.iter().all(|m| g.check(m).is_ok()));
    }

    #[test]
    fn scores_say_why_in_words() {
        let people = Because::People { by_value: [2, 0, 1] };
        assert_eq!(people.to_string(), "(3 + 1 + 1) × 3 people");
        assert_eq!(
            Because::CitySets(vec![4, 4, 2, 1]).to_string(),
            "city sets of 4, 4, 2, 1"
        );
    }

    #[test]
    fn a_second_follower_in_one_round_is_refused() {
        let mut g = arranged(2, 1, &[]);
        let mut events = Vec::new();
        g.play(&CardMove::Follower { row: Colour::Road }, &mut events).unwrap();
        let card = g.players()[1].hand[0];
        let row = card.colour().unwrap_or(Colour::Road);
        g.play(&CardMove::Play { card, row }, &mut events).unwrap();
        assert_eq!(
            g.check(&CardMove::Follower { row: Colour::City }),
            Err(CardIllegal::FollowerPlaced)
        );
    }

    /// Random legal moves to the end: every round dealt, and every card taken by a follower or
    /// left by the board at the end.
    #[test]
    fn whole_games_account_for_every_card() {
        for players in 2..=5u8 {
            let mut g = arranged(players, 0, &[]);
            let mut events = Vec::new();
            let mut moves = Vec::new();
            let mut seed = 7u64 * u64::from(players);
            while !g.is_over() {
                if g.deal_due() {
                    deal_filled(&mut g, &[]);
                    continue;
                }
                g.legal_moves(&mut moves);
                // The fast listing is exactly the checked rules, each move once.
                let mut kinds = deck();
                kinds.dedup();
                let candidates: Vec<CardMove> = kinds
                    .into_iter()
                    .flat_map(|card| Colour::ALL.map(|row| CardMove::Play { card, row }))
                    .chain(Colour::ALL.map(|row| CardMove::Follower { row }))
                    .chain([true, false].map(|keep| CardMove::WrongRow { keep }))
                    .filter(|m| g.check(m).is_ok())
                    .collect();
                assert_eq!(candidates.len(), moves.len());
                assert!(candidates.iter().all(|m| moves.contains(m)));
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let mv = moves[(seed >> 33) as usize % moves.len()];
                g.play(&mv, &mut events).unwrap();
            }
            g.finish(&mut events);
            assert_eq!(g.round(), rules::hands(players).unwrap().1, "{players} players");
            assert!(g.unseen().is_empty(), "all 120 cards dealt");
            let taken: usize = events
                .iter()
                .map(|e| match e {
                    CardEvent::Took { cards, .. } | CardEvent::Discarded { cards } => cards.len(),
                    _ => 0,
                })
                .sum();
            assert_eq!(taken, 130, "{players} players");
            let total: i32 = g.players().iter().map(|p| p.score).sum();
            let by_category: u32 = g.players().iter().flat_map(|p| p.by_category).sum();
            assert_eq!(total as u32, by_category);
            assert!(!g.winners().is_empty());
        }
    }
}
