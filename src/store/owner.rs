//! A game's owner token: 32 random bytes, written as 64 hex digits, returned once to whoever
//! uploaded the game. The store keeps only its SHA-256, so a copy of the database gives no one
//! the power to delete a game or change its listing.

use sha2::{Digest, Sha256};
use std::fmt;

/// The token an upload returns. Parsed where it comes in (a bearer header, a cookie); its text
/// is only ever written back to its uploader.
#[derive(Clone, PartialEq, Eq)]
pub struct OwnerToken([u8; 32]);

/// What the store keeps of a token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwnerHash(pub [u8; 32]);

impl OwnerHash {
    /// From a stored column: a hash of any other length is no owner.
    pub(super) fn from_column(bytes: Option<Vec<u8>>) -> Option<OwnerHash> {
        bytes.and_then(|h| <[u8; 32]>::try_from(h).ok()).map(OwnerHash)
    }
}

impl OwnerToken {
    /// A fresh token from the operating system's random source.
    ///
    /// Read from `/dev/urandom` (every Unix the service runs on has it) rather than through a
    /// crate: the `getrandom` crate would be the portable choice.
    pub fn new() -> std::io::Result<OwnerToken> {
        random_bytes().map(OwnerToken)
    }

    /// Reads a token's 64 hex digits; anything else is no token.
    pub fn parse(text: &str) -> Option<OwnerToken> {
        let text = text.trim();
        if text.len() != 64 {
            return None;
        }
        let mut bytes = [0u8; 32];
        for (i, b) in bytes.iter_mut().enumerate() {
            *b = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
        }
        Some(OwnerToken(bytes))
    }

    pub fn hash(&self) -> OwnerHash {
        OwnerHash(Sha256::digest(self.0).into())
    }
}

/// `N` bytes from the operating system's random source.
pub(crate) fn random_bytes<const N: usize>() -> std::io::Result<[u8; N]> {
    use std::io::Read;
    let mut bytes = [0u8; N];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bytes)?;
    Ok(bytes)
}

impl fmt::Display for OwnerToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

/// Never in a log line by accident.
impl fmt::Debug for OwnerToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("OwnerToken(…)")
    }
}

/// What a presented token is worth for a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ownership {
    /// The token is the game's.
    Owner,
    /// The game has another owner.
    NotOwner,
    /// The game was stored before owners existed (or is a demo): nobody owns it.
    Unowned,
}

impl Ownership {
    /// How `token` stands against a game whose owner hash is `stored`. Both sides are hashes
    /// of 256 random bits, so comparing them leaks nothing a timing could use.
    pub fn of(stored: Option<OwnerHash>, token: &OwnerToken) -> Ownership {
        match stored {
            None => Ownership::Unowned,
            Some(h) if h == token.hash() => Ownership::Owner,
            Some(_) => Ownership::NotOwner,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_reads_back_and_only_its_hash_matches() {
        let token = OwnerToken::new().unwrap();
        let text = token.to_string();
        assert_eq!(text.len(), 64);
        assert_eq!(OwnerToken::parse(&text), Some(token.clone()));
        assert_ne!(OwnerToken::new().unwrap(), token, "each upload gets its own");
        assert_eq!(Ownership::of(Some(token.hash()), &token), Ownership::Owner);
        let other = OwnerToken::new().unwrap();
        assert_eq!(Ownership::of(Some(other.hash()), &token), Ownership::NotOwner);
        assert_eq!(Ownership::of(None, &token), Ownership::Unowned);
        for bad in [
            "",
            "abc",
            &text[1..],
            &format!("{}g", &text[1..]),
            "é".repeat(32).as_str(),
        ] {
            assert!(OwnerToken::parse(bad).is_none(), "{bad:?}");
        }
        assert!(
            !format!("{token:?}").contains(&text[..8]),
            "a token stays out of debug output"
        );
    }
}
