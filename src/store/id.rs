//! A game's id: the first 8 bytes of the SHA-256 of its canonical record, written as 16 hex
//! digits. Parsed once, where it comes in (a URL, a database row); typed everywhere after.

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;
use std::str::FromStr;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct GameId([u8; 8]);

impl GameId {
    /// The id of a record's canonical text.
    pub fn of(canonical: &str) -> GameId {
        let digest = Sha256::digest(canonical.as_bytes());
        let mut id = [0; 8];
        id.copy_from_slice(&digest[..8]);
        GameId(id)
    }

    /// An id of bytes drawn elsewhere (a collection's, at random).
    pub(super) fn from_bytes(bytes: [u8; 8]) -> GameId {
        GameId(bytes)
    }
}

impl fmt::Display for GameId {
    /// 16 hex digits, written in one piece: pages write an id into every link.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut digits = [0u8; 16];
        for (pair, b) in digits.chunks_exact_mut(2).zip(self.0) {
            pair[0] = HEX[usize::from(b >> 4)];
            pair[1] = HEX[usize::from(b & 15)];
        }
        f.write_str(std::str::from_utf8(&digits).expect("hex digits are ASCII"))
    }
}

/// Why text is not a game id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a game id (16 hex digits, such as 0123456789abcdef)")]
pub struct NotAGameId(String);

impl FromStr for GameId {
    type Err = NotAGameId;
    fn from_str(s: &str) -> Result<GameId, NotAGameId> {
        let bad = || NotAGameId(s.chars().take(40).collect());
        if s.len() != 16 || !s.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
            return Err(bad());
        }
        let mut id = [0; 8];
        for (i, byte) in id.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
        }
        Ok(GameId(id))
    }
}

impl TryFrom<String> for GameId {
    type Error = NotAGameId;
    fn try_from(s: String) -> Result<GameId, NotAGameId> {
        s.parse()
    }
}

impl From<GameId> for String {
    fn from(id: GameId) -> String {
        id.to_string()
    }
}

impl ToSql for GameId {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::from(self.to_string()))
    }
}

impl FromSql for GameId {
    fn column_result(value: ValueRef<'_>) -> FromSqlResult<GameId> {
        value.as_str()?.parse().map_err(|e| FromSqlError::Other(Box::new(e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_read_back_as_written() {
        let id = GameId::of("{}");
        let text = id.to_string();
        assert_eq!(text.len(), 16);
        assert_eq!(text.parse::<GameId>().unwrap(), id);
        for bad in ["", "0123", "0123456789ABCDEF", "0123456789abcdeg", "0123456789abcdef0"] {
            assert!(bad.parse::<GameId>().is_err(), "{bad:?}");
        }
    }
}
