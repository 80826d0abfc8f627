//! The cards of the Card Game: four colours of people, buildings and animals, and the jokers.

use std::fmt;

/// A card colour, and the row of that colour beside the scoreboard. Rows are listed from the
/// top of the board down, as the rulebook's picture shows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// Yellow.
    Cloister,
    /// Red.
    Road,
    /// Green.
    Farm,
    /// Blue.
    City,
}

impl Colour {
    pub const ALL: [Colour; 4] = [Colour::Cloister, Colour::Road, Colour::Farm, Colour::City];

    pub fn index(self) -> usize {
        self as usize
    }

    /// The row's name.
    pub fn word(self) -> &'static str {
        match self {
            Colour::Cloister => "cloister",
            Colour::Road => "road",
            Colour::Farm => "farm",
            Colour::City => "city",
        }
    }

    /// The cards' colour.
    pub fn colour_word(self) -> &'static str {
        match self {
            Colour::Cloister => "yellow",
            Colour::Road => "red",
            Colour::Farm => "green",
            Colour::City => "blue",
        }
    }

    /// A row by its name or its cards' colour.
    pub fn parse(s: &str) -> Option<Colour> {
        Colour::ALL.into_iter().find(|c| c.word() == s || c.colour_word() == s)
    }
}

/// One card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Card {
    /// A person worth 1, 2 or 3.
    Person {
        colour: Colour,
        value: u8,
    },
    /// A building: kept under the chest for the city sets at the end.
    Building(Colour),
    /// An animal: each colour has its own kind.
    Animal(Colour),
    Dragon,
    Fairy,
    AnimalJoker,
    CityJoker,
}

/// People per colour: (value, copies).
pub const PEOPLE: [(u8, u8); 3] = [(1, 8), (2, 5), (3, 3)];
pub const BUILDINGS_PER_COLOUR: u8 = 5;
pub const ANIMALS_PER_COLOUR: u8 = 9;
pub const ANIMAL_JOKERS: u8 = 4;
pub const CITY_JOKERS: u8 = 4;

impl Card {
    /// The card's colour; jokers have none and go in any row.
    pub fn colour(self) -> Option<Colour> {
        match self {
            Card::Person { colour, .. } | Card::Building(colour) | Card::Animal(colour) => Some(colour),
            Card::Dragon | Card::Fairy | Card::AnimalJoker | Card::CityJoker => None,
        }
    }

    /// Parses the names `Display` writes: "red 3", "blue building", "green animal",
    /// "dragon", "fairy", "animal joker", "city joker".
    pub fn parse(s: &str) -> Option<Card> {
        Some(match s {
            "dragon" => Card::Dragon,
            "fairy" => Card::Fairy,
            "animal joker" => Card::AnimalJoker,
            "city joker" => Card::CityJoker,
            _ => {
                let (colour, kind) = s.split_once(' ')?;
                let colour = Colour::ALL.into_iter().find(|c| c.colour_word() == colour)?;
                match kind {
                    "building" => Card::Building(colour),
                    "animal" => Card::Animal(colour),
                    "1" | "2" | "3" => Card::Person {
                        colour,
                        value: kind.parse().ok()?,
                    },
                    _ => return None,
                }
            }
        })
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Card::Person { colour, value } => write!(f, "{} {value}", colour.colour_word()),
            Card::Building(c) => write!(f, "{} building", c.colour_word()),
            Card::Animal(c) => write!(f, "{} animal", c.colour_word()),
            Card::Dragon => f.write_str("dragon"),
            Card::Fairy => f.write_str("fairy"),
            Card::AnimalJoker => f.write_str("animal joker"),
            Card::CityJoker => f.write_str("city joker"),
        }
    }
}

/// How many different cards there are: 5 per colour (three people, a building, an animal) and
/// the four jokers.
pub const KINDS: usize = 24;

impl Card {
    /// The card's place among the `KINDS`, for counting by kind.
    pub fn kind_index(self) -> usize {
        match self {
            Card::Person { colour, value } => colour.index() * 5 + usize::from(value) - 1,
            Card::Building(c) => c.index() * 5 + 3,
            Card::Animal(c) => c.index() * 5 + 4,
            Card::Dragon => 20,
            Card::Fairy => 21,
            Card::AnimalJoker => 22,
            Card::CityJoker => 23,
        }
    }
}

/// The 130 playable cards, in a fixed order: 30 of each colour, then the 10 jokers.
pub fn deck() -> Vec<Card> {
    let mut out = Vec::with_capacity(130);
    for colour in Colour::ALL {
        for (value, copies) in PEOPLE {
            out.extend(std::iter::repeat_n(Card::Person { colour, value }, copies.into()));
        }
        out.extend(std::iter::repeat_n(Card::Building(colour), BUILDINGS_PER_COLOUR.into()));
        out.extend(std::iter::repeat_n(Card::Animal(colour), ANIMALS_PER_COLOUR.into()));
    }
    out.extend([Card::Dragon, Card::Fairy]);
    out.extend(std::iter::repeat_n(Card::AnimalJoker, ANIMAL_JOKERS.into()));
    out.extend(std::iter::repeat_n(Card::CityJoker, CITY_JOKERS.into()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deck_has_130_cards_30_per_colour_and_10_jokers() {
        let d = deck();
        assert_eq!(d.len(), 130);
        for c in Colour::ALL {
            assert_eq!(d.iter().filter(|k| k.colour() == Some(c)).count(), 30, "{}", c.word());
            let people: Vec<u8> = d
                .iter()
                .filter_map(|k| match k {
                    Card::Person { colour, value } if *colour == c => Some(*value),
                    _ => None,
                })
                .collect();
            assert_eq!(people.len(), 16);
            assert_eq!(people.iter().filter(|v| **v == 3).count(), 3);
        }
        assert_eq!(d.iter().filter(|k| k.colour().is_none()).count(), 10);
    }

    #[test]
    fn every_kind_has_its_own_index() {
        let mut kinds: Vec<usize> = deck().into_iter().map(Card::kind_index).collect();
        kinds.dedup();
        assert_eq!(kinds, (0..KINDS).collect::<Vec<_>>());
    }

    #[test]
    fn card_names_read_back() {
        for card in deck() {
            assert_eq!(Card::parse(&card.to_string()), Some(card), "{card}");
        }
        assert_eq!(Card::parse("purple 2"), None);
        assert_eq!(Card::parse("red 4"), None);
    }
}
