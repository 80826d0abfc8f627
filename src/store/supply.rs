//! One player's supply as a snapshot row keeps it.

use crate::engine::Supply;
use crate::engine::cards::position::CardSupply;
use serde::{Deserialize, Serialize};

/// What a player holds back after a turn: a count, and whether their one special figure is
/// at home. The tile game: followers in supply, and the abbot; the Card Game: cards in hand,
/// and the large follower still to place this round.
///
/// Stored as the pair `[held, home]`, `home` 0 or 1: the form every release has written, so
/// older databases read the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "[u8; 2]", into = "[u8; 2]")]
pub struct StoredSupply {
    pub held: u8,
    pub home: bool,
}

impl From<[u8; 2]> for StoredSupply {
    fn from([held, home]: [u8; 2]) -> StoredSupply {
        StoredSupply { held, home: home == 1 }
    }
}

impl From<StoredSupply> for [u8; 2] {
    fn from(s: StoredSupply) -> [u8; 2] {
        [s.held, u8::from(s.home)]
    }
}

impl From<Supply> for StoredSupply {
    fn from(s: Supply) -> StoredSupply {
        StoredSupply {
            held: s.followers,
            home: s.abbot_home,
        }
    }
}

impl From<CardSupply> for StoredSupply {
    fn from(s: CardSupply) -> StoredSupply {
        StoredSupply {
            held: s.hand,
            home: s.follower_home,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stored text is the pair every release has written, and reads back the same.
    #[test]
    fn a_supply_is_stored_as_the_pair_older_databases_hold() {
        let s = StoredSupply::from(Supply {
            followers: 6,
            abbot_home: true,
        });
        let text = serde_json::to_string(&[s, StoredSupply { held: 0, home: false }]).unwrap();
        assert_eq!(text, "[[6,1],[0,0]]");
        let back: Vec<StoredSupply> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, [s, StoredSupply { held: 0, home: false }]);
    }
}
