//! Card Game players for generated games, benchmarks and the analysis's samples: uniformly
//! random, and a greedy player that sheds its cheapest cards and places its follower on a row
//! worth taking, soon or (the patient one) late.

use super::card::{Card, Colour, deck};
use super::game::{CardGame, CardMove, CardSetup, CardSetupError, Slot};
use super::rules;
use crate::engine::bots::{Policy, Rng};

/// The 130 cards in a random order.
pub fn shuffled_deck(rng: &mut Rng) -> Vec<Card> {
    let mut cards = deck();
    for i in (1..cards.len()).rev() {
        cards.swap(i, rng.below(i + 1));
    }
    cards
}

/// A game about to begin, and the cards it will deal.
pub struct NewGame {
    pub game: CardGame,
    /// The ten cards turned up, each with the row it lies beside.
    pub face_up: Vec<(Card, Colour)>,
    /// The rest of the deck, in the order it deals.
    pub deck: Vec<Card>,
}

/// A new game for `players` from a deck shuffled by `rng`: the ten cards turned up (a joker
/// goes beside a random row), player 0 dealing first.
pub fn new_game(players: u8, rng: &mut Rng) -> Result<NewGame, CardSetupError> {
    let mut deck = shuffled_deck(rng);
    let rest = deck.split_off(10);
    let face_up: Vec<(Card, Colour)> = (deck.into_iter())
        .map(|c| (c, c.colour().unwrap_or(Colour::ALL[rng.below(4)])))
        .collect();
    let setup = CardSetup {
        players,
        dealer: 0,
        face_up: face_up.clone(),
    };
    Ok(NewGame {
        game: CardGame::new(setup)?,
        face_up,
        deck: rest,
    })
}

/// The next round's hands off the top of `deck`.
pub fn next_hands(game: &CardGame, deck: &mut impl Iterator<Item = Card>) -> Vec<Vec<Card>> {
    let size = usize::from(game.hand_size());
    (0..game.players().len()).map(|_| deck.take(size).collect()).collect()
}

/// What a card is worth to whoever takes it in its own row, roughly.
fn worth(card: Card) -> u32 {
    match card {
        Card::Person { value, .. } => u32::from(value) * 2,
        Card::Building(_) | Card::CityJoker | Card::Animal(_) | Card::AnimalJoker => 3,
        Card::Dragon | Card::Fairy => rules::TEN,
    }
}

/// What a follower placed at the end of `row` would take now: people by their table, the
/// rest by `worth`; a face-down card counts 2.
pub fn row_value(game: &CardGame, row: Colour) -> u32 {
    let slots = &game.rows()[row.index()];
    let from = slots
        .iter()
        .rposition(|s| matches!(s, Slot::Follower(_)))
        .map_or(0, |i| i + 1);
    let mut people = [0u8; 3];
    let mut other = 0;
    for slot in &slots[from..] {
        match *slot {
            Slot::Card { face_down: true, .. } => other += 2,
            Slot::Card {
                card: Card::Person { colour, value },
                ..
            } if colour == row => people[usize::from(value) - 1] += 1,
            Slot::Card { card, .. } => other += worth(card),
            Slot::Follower(_) => {}
        }
    }
    rules::people_points(people) + other
}

/// The `Sampled` policy plays a random action one time in this many, else the greedy one: a
/// player who errs now and then, whose games are not all alike.
const SAMPLED_RANDOM: usize = 4;

/// The move `policy` chooses; `None` when no move is due (a deal, or the end).
pub fn choose(game: &CardGame, policy: Policy, rng: &mut Rng, moves: &mut Vec<CardMove>) -> Option<CardMove> {
    game.legal_moves(moves);
    if moves.is_empty() {
        return None;
    }
    match policy {
        Policy::Random => Some(moves[rng.below(moves.len())]),
        Policy::Sampled if rng.below(SAMPLED_RANDOM) == 0 => Some(moves[rng.below(moves.len())]),
        Policy::Greedy | Policy::FieldShy | Policy::Sampled => Some(greedy(game, moves, GREEDY_ROW)),
        Policy::Weighed | Policy::Thrifty => Some(greedy(game, moves, PATIENT_ROW)),
    }
}

/// What a row must be worth before the greedy bot places its follower there.
const GREEDY_ROW: u32 = 12;

/// What a row must be worth before the patient bot (`Policy::Weighed`) places its follower
/// there. The analysis's samples play the rest of the round with it. Against the analysis of
/// version 5, whose samples the greedy bot plays, thresholds of 8, 16, 24, 32 and 40 won
/// 42%, 80%, 93%, 97% and 96% of 200 games (`match --game card-game --b build:PATH`, seed
/// 600). Never placing it before the hand is empty won 79%.
const PATIENT_ROW: u32 = 32;

/// Keeps an animal and turns a building in; places the follower on the best row once it is
/// worth `worth_placing` or the hand is empty; otherwise plays its cheapest card in its own
/// row (a joker in the row worth least, so it helps nobody much).
fn greedy(game: &CardGame, moves: &[CardMove], worth_placing: u32) -> CardMove {
    if let Some((_, card)) = game.pending_choice() {
        return CardMove::WrongRow {
            keep: matches!(card, Card::Animal(_)),
        };
    }
    let follower = moves
        .iter()
        .filter_map(|m| match *m {
            CardMove::Follower { row } => Some((row_value(game, row), row)),
            _ => None,
        })
        .max_by_key(|&(v, row)| (v, std::cmp::Reverse(row)));
    let plays = moves.iter().filter(|m| matches!(m, CardMove::Play { .. }));
    let cheapest = plays.min_by_key(|m| match **m {
        CardMove::Play { card, row } => {
            let own = card.colour().is_none_or(|c| c == row);
            (worth(card), !own, row_value(game, row), card, row)
        }
        _ => unreachable!("only plays are compared"),
    });
    match (follower, cheapest) {
        (Some((v, row)), _) if v >= worth_placing => CardMove::Follower { row },
        (_, Some(play)) => *play,
        (Some((_, row)), None) => CardMove::Follower { row },
        (None, None) => moves[0],
    }
}

/// A position `viewer` cannot tell from this one, drawn at random: the cards they cannot see
/// (other hands, a face-down card someone else played, the cards not yet dealt) shuffled and
/// dealt again, and the order of the deals to come. The analysis samples these, so it never
/// reads hidden or future cards.
pub fn sample_hidden(game: &CardGame, viewer: u8, rng: &mut Rng) -> (CardGame, Vec<Card>) {
    let mut sample = game.clone();
    let mut hidden = game.unseen();
    for (p, player) in game.players().iter().enumerate() {
        if p as u8 != viewer {
            hidden.extend_from_slice(&player.hand);
        }
    }
    let face_down = game.face_down_card().filter(|&(by, ..)| by != viewer);
    if let Some((_, _, card)) = face_down {
        hidden.push(card);
    }
    // From a fixed order, so the sample depends on what is hidden, never on where it was.
    hidden.sort_unstable();
    for i in (1..hidden.len()).rev() {
        hidden.swap(i, rng.below(i + 1));
    }
    let mut hidden = hidden.into_iter();
    if let Some((_, row, _)) = face_down {
        sample.replace_face_down(row, hidden.next().expect("the face-down card is hidden"));
    }
    for p in (0..game.players().len() as u8).filter(|&p| p != viewer) {
        let n = game.players()[p as usize].hand.len();
        sample.replace_hand(p, hidden.by_ref().take(n).collect());
    }
    (sample, hidden.collect())
}

/// Plays `game` to the end with `policy` for everyone, dealing from `deck`, and scores the end.
pub fn play_out(game: &mut CardGame, deck: &[Card], policy: Policy, rng: &mut Rng) {
    play_rounds(game, deck, game.rounds(), policy, rng);
    game.finish(&mut Vec::new());
}

/// Plays `game` with `policy` for everyone, dealing from `deck`, until `rounds` more rounds
/// have ended (the round under way counts as one) or the game is over, whichever comes first.
/// The end is not scored.
pub fn play_rounds(game: &mut CardGame, deck: &[Card], rounds: u8, policy: Policy, rng: &mut Rng) {
    let until = game.round().saturating_add(rounds);
    let mut deck = deck.iter().copied();
    let (mut moves, mut events) = (Vec::new(), Vec::new());
    while !game.is_over() && game.round() < until {
        if game.deal_due() {
            game.deal_unchecked(next_hands(game, &mut deck));
        } else if let Some(mv) = choose(game, policy, rng, &mut moves) {
            game.play(&mv, &mut events).expect("listed moves are legal");
        }
        events.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A row worth 24 at the start of a round: the greedy bot takes it with its follower, the
    /// patient one plays a card and waits for the row to grow.
    #[test]
    fn the_patient_bot_waits_for_a_row_the_greedy_one_takes() {
        let person = |colour, value| Card::Person { colour, value };
        let mut face_up = vec![(Card::Dragon, Colour::Road), (Card::Fairy, Colour::Road)];
        face_up.extend(
            Colour::ALL
                .iter()
                .flat_map(|&c| [(person(c, 1), c), (Card::Building(c), c)]),
        );
        let setup = CardSetup {
            players: 2,
            dealer: 0,
            face_up,
        };
        let mut game = CardGame::new(setup).unwrap();
        let hand = |c: Colour| {
            vec![
                person(c, 2),
                person(c, 3),
                Card::Building(c),
                Card::Animal(c),
                person(c, 1),
            ]
        };
        let hands = vec![
            [hand(Colour::Farm), vec![Card::Animal(Colour::Cloister)]].concat(),
            [hand(Colour::City), vec![Card::Animal(Colour::Road)]].concat(),
        ];
        game.deal(hands, &mut Vec::new()).unwrap();
        let best = Colour::ALL.map(|row| row_value(&game, row)).into_iter().max();
        assert_eq!(best, Some(24), "the road: the dragon, the fairy, a 1 and a building");
        let mut moves = Vec::new();
        let mut rng = Rng::new(1);
        let greedy = choose(&game, Policy::Greedy, &mut rng, &mut moves);
        assert_eq!(greedy, Some(CardMove::Follower { row: Colour::Road }));
        let patient = choose(&game, Policy::Weighed, &mut rng, &mut moves);
        assert!(matches!(patient, Some(CardMove::Play { .. })), "{patient:?}");
    }
}
