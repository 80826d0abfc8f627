//! Members of a foreign format read the way its own program reads them: a member of the wrong
//! type counts as missing, a `null` is there, and members we do not read are skipped.
//!
//! The `.jcz` and Board Game Arena importers describe what they read as structs of these, read
//! from the `serde_json::Value` the format was detected in. The importer, not serde, then
//! says what is missing or wrong, in the format's words and with the turn it is in.

use serde::de::value::{
    BoolDeserializer, BorrowedStrDeserializer, Error as PlainError, F64Deserializer, I64Deserializer,
    MapAccessDeserializer, SeqAccessDeserializer, StrDeserializer, StringDeserializer, U64Deserializer,
};
use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::marker::PhantomData;

/// `Some` when the member is there and reads as a `T`; `None` when it is missing, `null` or of
/// another type (`Value::as_str` and its kind, for any `T`). Read it with `#[serde(default)]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loose<T>(pub Option<T>);

impl<T> Default for Loose<T> {
    fn default() -> Self {
        Loose(None)
    }
}

impl<T> Loose<T> {
    pub fn get(self) -> Option<T> {
        self.0
    }
}

impl<T: Default> Loose<T> {
    /// A member that must be an object, or else counts as an empty one (`Value::get` on it).
    pub fn or_empty(self) -> T {
        self.0.unwrap_or_default()
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Loose<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(LooseVisitor(PhantomData)).map(Loose)
    }
}

struct LooseVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for LooseVisitor<T> {
    type Value = Option<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Option<T>, E> {
        Ok(T::deserialize(BoolDeserializer::<PlainError>::new(v)).ok())
    }

    fn visit_i64<E>(self, v: i64) -> Result<Option<T>, E> {
        Ok(T::deserialize(I64Deserializer::<PlainError>::new(v)).ok())
    }

    fn visit_u64<E>(self, v: u64) -> Result<Option<T>, E> {
        Ok(T::deserialize(U64Deserializer::<PlainError>::new(v)).ok())
    }

    fn visit_f64<E>(self, v: f64) -> Result<Option<T>, E> {
        Ok(T::deserialize(F64Deserializer::<PlainError>::new(v)).ok())
    }

    fn visit_str<E>(self, v: &str) -> Result<Option<T>, E> {
        Ok(T::deserialize(StrDeserializer::<PlainError>::new(v)).ok())
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Option<T>, E> {
        Ok(T::deserialize(BorrowedStrDeserializer::<PlainError>::new(v)).ok())
    }

    fn visit_string<E>(self, v: String) -> Result<Option<T>, E> {
        Ok(T::deserialize(StringDeserializer::<PlainError>::new(v)).ok())
    }

    fn visit_unit<E>(self) -> Result<Option<T>, E> {
        Ok(None)
    }

    fn visit_none<E>(self) -> Result<Option<T>, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<T>, D::Error> {
        d.deserialize_any(self)
    }

    /// What `T` leaves of the array (past an element it could not read, or past the length of
    /// a tuple) is skipped, and the array is then not a `T`.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Option<T>, A::Error> {
        let t = T::deserialize(SeqAccessDeserializer::new(&mut seq)).ok();
        let mut more = false;
        while seq.next_element::<IgnoredAny>()?.is_some() {
            more = true;
        }
        Ok(t.filter(|_| !more))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<T>, A::Error> {
        let t = T::deserialize(MapAccessDeserializer::new(&mut map)).ok();
        let mut more = false;
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {
            more = true;
        }
        Ok(t.filter(|_| !more))
    }
}

/// `Some` whenever the member is there, `null` included; `None` only when it is missing
/// (`Value::get(…).is_some()`). Read it with `#[serde(default)]`, around a `T` that reads
/// anything ([`Loose`], `IgnoredAny`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Present<T>(pub Option<T>);

impl<T> Default for Present<T> {
    fn default() -> Self {
        Present(None)
    }
}

impl<T> Present<T> {
    pub fn is_there(&self) -> bool {
        self.0.is_some()
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Present<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(|t| Present(Some(t)))
    }
}

/// The members of an object, in the order written: for objects whose keys are data (JCZ's
/// tile sets, Board Game Arena's players by id).
#[derive(Clone, Debug, PartialEq)]
pub struct Entries<K, T>(pub Vec<(K, T)>);

impl<K, T> Default for Entries<K, T> {
    fn default() -> Self {
        Entries(Vec::new())
    }
}

impl<'de, K: Deserialize<'de>, T: Deserialize<'de>> Deserialize<'de> for Entries<K, T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(EntriesVisitor(PhantomData))
    }
}

struct EntriesVisitor<K, T>(PhantomData<(K, T)>);

impl<'de, K: Deserialize<'de>, T: Deserialize<'de>> Visitor<'de> for EntriesVisitor<K, T> {
    type Value = Entries<K, T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::with_capacity(map.size_hint().unwrap_or(0));
        while let Some(entry) = map.next_entry()? {
            out.push(entry);
        }
        Ok(Entries(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn loose<'a, T: Deserialize<'a>>(v: &'a Value) -> Option<T> {
        Loose::<T>::deserialize(v).unwrap().0
    }

    #[derive(serde::Deserialize, Default, Debug, PartialEq)]
    #[serde(default)]
    struct Point {
        x: Loose<i64>,
        y: Loose<i64>,
        tag: Present<IgnoredAny>,
    }

    /// Read as `Value::as_u64`, `as_str`, `as_array` and `get` read: the wrong type is absent.
    #[test]
    fn a_member_of_another_type_reads_as_missing() {
        assert_eq!(loose::<u64>(&json!(7)), Some(7));
        assert_eq!(loose::<u64>(&json!(-7)), None);
        assert_eq!(loose::<u64>(&json!(7.0)), None);
        assert_eq!(loose::<u64>(&json!("7")), None);
        assert_eq!(loose::<i64>(&json!(u64::MAX)), None);
        assert_eq!(loose::<&str>(&json!("R90")), Some("R90"));
        assert_eq!(loose::<&str>(&json!(null)), None);
        assert_eq!(
            loose::<(Loose<i64>, Loose<i64>)>(&json!([1, 2])),
            Some((Loose(Some(1)), Loose(Some(2))))
        );
        assert_eq!(loose::<(Loose<i64>, Loose<i64>)>(&json!([1, 2, 3])), None, "not a pair");
        assert_eq!(loose::<(Loose<i64>, Loose<i64>)>(&json!([1])), None, "not a pair");
        assert_eq!(
            loose::<(Loose<i64>, Loose<i64>)>(&json!([1, "y"])),
            Some((Loose(Some(1)), Loose(None)))
        );
        assert_eq!(loose::<Vec<u64>>(&json!([1, "2", 3])), None, "one element is not a u64");
        assert_eq!(loose::<Point>(&json!("a point")), None);
        let p = loose::<Point>(&json!({"x": 1, "y": [2], "tag": null, "more": {"z": 3}})).unwrap();
        assert_eq!((p.x.0, p.y.0, p.tag.is_there()), (Some(1), None, true));
        assert!(!loose::<Point>(&json!({})).unwrap().tag.is_there());
    }

    #[test]
    fn entries_keep_their_order() {
        let v = json!({"b": 1, "a": 2, "c": "x"});
        let Entries(e) = Entries::<&str, Loose<u64>>::deserialize(&v).unwrap();
        assert_eq!(
            e,
            vec![("b", Loose(Some(1))), ("a", Loose(Some(2))), ("c", Loose(None))]
        );
    }
}
