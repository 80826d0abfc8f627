//! Scoring a round (the cards each follower secured) and the end (city sets).

use super::card::{Card, Colour};
use super::game::{Because, CardCategory, CardEvent, CardGame, CardIllegal, Slot};
use super::rules::{self, LONE_ANIMAL_JOKER, TEN};

/// The cards a follower secured in one row.
struct Take {
    player: u8,
    row: Colour,
    cards: Vec<Card>,
}

/// Takes out of a row what each follower secured. The cards after the last follower stay,
/// face up from now on.
fn clear_row(row: Colour, slots: &mut Vec<Slot>) -> Vec<Take> {
    let mut takes = Vec::new();
    if let Some(last) = slots.iter().rposition(|s| matches!(s, Slot::Follower(_))) {
        let mut since = Vec::new();
        for slot in slots.drain(..=last) {
            match slot {
                Slot::Card { card, .. } => since.push(card),
                Slot::Follower(player) => takes.push(Take {
                    player,
                    row,
                    cards: std::mem::take(&mut since),
                }),
            }
        }
    }
    for slot in slots.iter_mut() {
        if let Slot::Card { face_down, .. } = slot {
            *face_down = false;
        }
    }
    takes
}

impl CardGame {
    /// Every player takes what their follower secured, the rows bottom to top, and scores it.
    /// Wrongly placed animals and buildings wait for their owners' choices.
    pub(super) fn score_round(&mut self, events: &mut Vec<CardEvent>) {
        for row in Colour::ALL.into_iter().rev() {
            for take in clear_row(row, &mut self.rows[row.index()]) {
                // The take comes first in the events, though it is scored before it is moved there.
                let at = events.len();
                self.score_take(&take, events);
                let Take { player, row, cards } = take;
                events.insert(at, CardEvent::Took { player, row, cards });
            }
        }
    }

    fn score_take(&mut self, take: &Take, events: &mut Vec<CardEvent>) {
        let &Take { player, row, .. } = take;
        let in_row = |c: &&Card| c.colour().is_none_or(|own| own == row);
        let right = take.cards.iter().filter(in_row).copied();
        let wrong = take.cards.iter().filter(|c| !in_row(c)).copied();
        let mut by_value = [0u8; 3];
        for card in right.clone() {
            if let Card::Person { value, .. } = card {
                by_value[usize::from(value) - 1] += 1;
            }
        }
        if by_value != [0; 3] {
            let points = rules::people_points(by_value);
            self.award(
                player,
                CardCategory::People,
                points,
                Because::People { by_value },
                events,
            );
        }
        let mut animals = Vec::new();
        let mut animal_jokers = 0;
        for card in right {
            match card {
                Card::Animal(kind) => animals.push(kind),
                Card::AnimalJoker => animal_jokers += 1,
                Card::Building(colour) => self.players[player as usize].chest[colour.index()] += 1,
                Card::CityJoker => self.players[player as usize].city_jokers += 1,
                Card::Dragon | Card::Fairy => {
                    self.award(player, CardCategory::Jokers, TEN, Because::Joker(card), events);
                }
                Card::Person { .. } => {}
            }
        }
        self.take_animals(player, &animals, animal_jokers, events);
        for card in wrong {
            match card {
                Card::Person { .. } => {
                    let why = Because::WrongRow { card, row };
                    self.award(player, CardCategory::WrongRows, TEN, why, events);
                }
                _ => {
                    self.pending.push((player, card));
                    events.push(CardEvent::ChoiceDue { player, card });
                }
            }
        }
    }

    /// Animals join their herds and every herd that grew scores by its new size. Animal Jokers
    /// join the herd the record states, or else the biggest; with no animal at all, each scores
    /// 3 alone and waits.
    fn take_animals(&mut self, player: u8, animals: &[Colour], jokers: u8, events: &mut Vec<CardEvent>) {
        let mut grown = [false; 4];
        for kind in animals {
            self.players[player as usize].herds[kind.index()] += 1;
            grown[kind.index()] = true;
        }
        let (herds, waiting) = {
            let p = &self.players[player as usize];
            (p.herds, p.lone_jokers + jokers)
        };
        let biggest = Colour::ALL
            .into_iter()
            .max_by_key(|c| (herds[c.index()], std::cmp::Reverse(*c)))
            .filter(|c| herds[c.index()] > 0);
        match biggest {
            Some(biggest) if waiting > 0 => {
                let kind = match self.stated_herd(player) {
                    Some(kind) if herds[kind.index()] > 0 => kind,
                    Some(kind) => {
                        self.joker_error = Some(CardIllegal::NoSuchHerd { player, kind });
                        biggest
                    }
                    None => biggest,
                };
                let p = &mut self.players[player as usize];
                p.herds[kind.index()] += waiting;
                p.lone_jokers = 0;
                grown[kind.index()] = true;
            }
            None if jokers > 0 => {
                self.players[player as usize].lone_jokers += jokers;
                for _ in 0..jokers {
                    let why = Because::LoneAnimalJoker;
                    self.award(player, CardCategory::Animals, LONE_ANIMAL_JOKER, why, events);
                }
            }
            _ => {}
        }
        for kind in Colour::ALL.into_iter().filter(|k| grown[k.index()]) {
            let n = self.players()[player as usize].herds[kind.index()];
            let why = Because::Herd { kind, size: n };
            self.award(
                player,
                CardCategory::Animals,
                rules::animal_points(u32::from(n)),
                why,
                events,
            );
        }
    }

    /// A wrongly placed animal or building its owner keeps: it joins the herds or the chest.
    pub(super) fn keep(&mut self, player: u8, card: Card, events: &mut Vec<CardEvent>) {
        match card {
            Card::Animal(kind) => self.take_animals(player, &[kind], 0, events),
            Card::Building(colour) => self.players[player as usize].chest[colour.index()] += 1,
            _ => {}
        }
    }

    /// The end: each chest is split into the best city sets.
    pub fn finish(&mut self, events: &mut Vec<CardEvent>) {
        for player in 0..self.players().len() as u8 {
            let p = &self.players()[player as usize];
            let (points, sets) = rules::city_sets(p.chest, p.city_jokers);
            if sets.is_empty() {
                continue;
            }
            self.award(player, CardCategory::CitySets, points, Because::CitySets(sets), events);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::game::CardMove;
    use super::super::game::tests::{arranged, person, scored as points};
    use super::*;

    fn take(g: &mut CardGame, player: u8, row: Colour, cards: Vec<Card>) -> Vec<CardEvent> {
        let mut events = Vec::new();
        g.score_take(&Take { player, row, cards }, &mut events);
        events
    }

    #[test]
    fn herds_score_by_their_size_each_time_they_grow() {
        let mut g = arranged(2, 0, &[]);
        let sheep = Card::Animal(Colour::Farm);
        // "1) Red clears 2 sheep cards. … immediately scored 6 points"
        let first = take(&mut g, 0, Colour::Farm, vec![sheep, sheep]);
        assert_eq!(points(&first), vec![(0, CardCategory::Animals, 6)]);
        // "2) At the end of a later round red clears 2 sheep cards and 1 Animal Joker. … Red
        // now has 5 sheep cards. They immediately score 14 points"
        let later = take(&mut g, 0, Colour::Farm, vec![sheep, Card::AnimalJoker, sheep]);
        assert_eq!(points(&later), vec![(0, CardCategory::Animals, 14)]);
        assert_eq!(g.players()[0].herds[Colour::Farm.index()], 5);
    }

    #[test]
    fn a_record_may_say_which_herd_an_animal_joker_joins() {
        // "As soon as he gains any animal cards, he must assign the Animal Joker." The player
        // chooses; a record may state the choice, and without one it joins the biggest herd.
        let (sheep, horse) = (Card::Animal(Colour::Farm), Card::Animal(Colour::Road));
        let mut by_default = arranged(2, 0, &[]);
        take(&mut by_default, 0, Colour::Farm, vec![sheep, sheep]);
        take(&mut by_default, 0, Colour::Road, vec![horse]);
        let mut stated = by_default.clone();
        let joker = take(&mut by_default, 0, Colour::City, vec![Card::AnimalJoker]);
        assert_eq!(points(&joker), vec![(0, CardCategory::Animals, 9)], "3 sheep");
        stated.stated_herds = vec![(0, Colour::Road)];
        let joker = take(&mut stated, 0, Colour::City, vec![Card::AnimalJoker]);
        assert_eq!(points(&joker), vec![(0, CardCategory::Animals, 6)], "2 horses");
        assert!(stated.stated_herds.is_empty() && stated.joker_error.is_none());
        // A herd the player does not have is refused.
        let mut wrong = stated.clone();
        wrong.stated_herds = vec![(0, Colour::City)];
        take(&mut wrong, 0, Colour::City, vec![Card::AnimalJoker]);
        assert_eq!(
            wrong.joker_error,
            Some(CardIllegal::NoSuchHerd {
                player: 0,
                kind: Colour::City
            })
        );
    }

    #[test]
    fn a_lone_animal_joker_scores_3_and_joins_the_first_herd() {
        let mut g = arranged(2, 0, &[]);
        // "If the player gets an Animal Joker, but doesn't have any animal cards in front of
        // them he immediately scores 3 points."
        let alone = take(&mut g, 1, Colour::City, vec![Card::AnimalJoker]);
        assert_eq!(points(&alone), vec![(1, CardCategory::Animals, 3)]);
        // "As soon as he gains any animal cards, he must assign the Animal Joker."
        let herd = take(&mut g, 1, Colour::Road, vec![Card::Animal(Colour::Road)]);
        assert_eq!(points(&herd), vec![(1, CardCategory::Animals, 6)], "a herd of 2");
        assert_eq!(g.players()[1].lone_jokers, 0);
    }

    #[test]
    fn dragon_and_fairy_score_10_each_and_buildings_go_under_the_chest() {
        let mut g = arranged(2, 0, &[]);
        // "The Dragon and Fairy immediately score 10 points each"; "Red keeps 1 City Joker and
        // 2 building cards. It puts them under its chest."
        let cards = vec![
            Card::Dragon,
            Card::CityJoker,
            Card::Building(Colour::Road),
            Card::Fairy,
            Card::Building(Colour::Road),
        ];
        let events = take(&mut g, 0, Colour::Road, cards);
        assert_eq!(
            points(&events),
            vec![(0, CardCategory::Jokers, 10), (0, CardCategory::Jokers, 10)]
        );
        assert_eq!((g.players()[0].chest, g.players()[0].city_jokers), ([0, 2, 0, 0], 1));
    }

    #[test]
    fn wrongly_placed_cards_score_10_or_are_kept() {
        let mut g = arranged(2, 0, &[]);
        // "For each person card of the wrong colour, they immediately score 10 points"
        let cards = vec![
            person(Colour::City, 3),
            Card::Animal(Colour::City),
            Card::Building(Colour::Farm),
        ];
        let events = take(&mut g, 0, Colour::Road, cards);
        assert_eq!(points(&events), vec![(0, CardCategory::WrongRows, 10)]);
        assert_eq!(g.pending.len(), 2, "the animal and the building wait for a choice");
        assert_eq!(g.current_player(), 0, "their owner chooses");
        let mut events = Vec::new();
        g.play(&CardMove::WrongRow { keep: true }, &mut events).unwrap();
        assert_eq!(
            points(&events),
            vec![(0, CardCategory::Animals, 3)],
            "kept: a herd of 1"
        );
        g.play(&CardMove::WrongRow { keep: false }, &mut events).unwrap();
        assert_eq!(points(&events)[1], (0, CardCategory::WrongRows, 10), "turned in");
        assert_eq!(g.players()[0].chest, [0; 4]);
    }

    /// Reading: "They puts the animal card in front of them (and note the appropriate points
    /// on the scoreboard)". A kept wrongly placed animal joins its herd when its owner chooses,
    /// after the round's scoring, and the herd scores its new size then, as a step of its own:
    /// a herd that grew in the round scores twice (6 for 2 sheep, then 9 for 3), not once for
    /// all three (9).
    #[test]
    fn a_kept_wrongly_placed_animal_scores_as_its_own_step_after_the_round() {
        let mut g = arranged(2, 0, &[]);
        let sheep = Card::Animal(Colour::Farm);
        let round = [
            take(&mut g, 0, Colour::Farm, vec![sheep, sheep]),
            take(&mut g, 0, Colour::Road, vec![sheep]),
        ]
        .concat();
        assert_eq!(points(&round), vec![(0, CardCategory::Animals, 6)], "2 sheep");
        assert_eq!(g.pending, vec![(0, sheep)], "the sheep in the road row waits");
        let mut kept = Vec::new();
        g.play(&CardMove::WrongRow { keep: true }, &mut kept).unwrap();
        assert_eq!(points(&kept), vec![(0, CardCategory::Animals, 9)], "then 3 sheep");
        assert_eq!(g.players()[0].score, 15);
    }

    /// Reading: "As soon as he gains any animal cards, he must assign the Animal Joker." Unstated,
    /// the joker joins its owner's biggest herd, the choice that scores most at once; between
    /// herds of one size, the first row from the top (cloister, road, farm, city).
    #[test]
    fn an_unstated_animal_joker_joins_the_biggest_herd_and_ties_go_to_the_top_row() {
        let mut g = arranged(2, 0, &[]);
        take(&mut g, 0, Colour::City, vec![Card::Animal(Colour::City)]);
        take(&mut g, 0, Colour::Road, vec![Card::Animal(Colour::Road)]);
        let joker = take(&mut g, 0, Colour::Farm, vec![Card::AnimalJoker]);
        assert_eq!(points(&joker), vec![(0, CardCategory::Animals, 6)], "a herd of 2");
        assert_eq!(g.players()[0].herds, [0, 2, 0, 1], "the road herd, above the city's");
        take(
            &mut g,
            0,
            Colour::City,
            vec![Card::Animal(Colour::City), Card::Animal(Colour::City)],
        );
        let joker = take(&mut g, 0, Colour::Cloister, vec![Card::AnimalJoker]);
        assert_eq!(
            points(&joker),
            vec![(0, CardCategory::Animals, 12)],
            "4 in the city herd"
        );
        assert_eq!(g.players()[0].herds, [0, 2, 0, 4], "the biggest herd, whatever its row");
    }

    #[test]
    fn the_end_scores_city_sets_and_ties_go_to_the_most_city_cards() {
        let mut g = arranged(2, 0, &[]);
        g.players[0].chest = [4, 3, 2, 1];
        g.players[0].city_jokers = 1;
        g.players[1].chest = [1, 1, 1, 0];
        let mut events = Vec::new();
        g.finish(&mut events);
        // "Red receives a total of **65 points** for his City cards."
        assert_eq!(
            points(&events),
            vec![(0, CardCategory::CitySets, 65), (1, CardCategory::CitySets, 15)]
        );
        // "In the case of a draw, the player with the most city cards wins."
        g.players[1].score = 65;
        assert_eq!(g.winners(), vec![0]);
        g.players[1].chest = [4, 4, 4, 0];
        assert_eq!(g.winners(), vec![1]);
    }

    #[test]
    fn followers_secure_the_cards_to_their_left_back_to_the_previous_follower() {
        // "Green secures the 4 cards in the city row. After further cards are played, **Red**
        // also goes for the City row and secures the 3 cards which are to the right of the
        // **Green** follower."
        let card = |value| Slot::Card {
            card: Card::Person {
                colour: Colour::City,
                value,
            },
            face_down: false,
        };
        let (green, red, left) = (2, 0, 3);
        let row = vec![
            card(1),
            card(2),
            card(3),
            card(1),
            Slot::Follower(green),
            card(2),
            card(2),
            card(1),
            Slot::Follower(red),
            card(3),
        ];
        let mut rest = row;
        let takes = clear_row(Colour::City, &mut rest);
        assert_eq!(takes.len(), 2);
        assert_eq!((takes[0].player, takes[0].cards.len()), (green, 4));
        assert_eq!((takes[1].player, takes[1].cards.len()), (red, 3));
        assert_eq!(rest, vec![card(left)], "unsecured cards stay");
    }
}
