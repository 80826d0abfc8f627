//! Scores in words for people: the arithmetic behind the points. The engine deals in terms
//! (count × rate); the words are here, outside it.

use crate::engine::{FeatureKind, Note, Score, Term};

/// "3 tiles × 2", "1 shield × 2".
fn term(t: &Term) -> String {
    let (one, many) = t.unit.words();
    let unit = if t.count == 1 { one } else { many };
    format!("{} {unit} × {}", t.count, t.rate)
}

/// The arithmetic behind a score: "city of 4 tiles × 2 + 1 shield × 2", "cloister and its
/// neighbours: 9 tiles × 1", "farm supplying 2 completed cities × 3".
pub fn explanation(s: &Score) -> String {
    let terms: Vec<String> = s.terms.iter().map(term).collect();
    let terms = terms.join(" + ");
    let mut out = match s.feature {
        FeatureKind::Field => format!("farm supplying {terms}"),
        FeatureKind::Cloister | FeatureKind::Garden => format!("{} and its neighbours: {terms}", s.feature),
        kind => format!("{kind} of {terms}"),
    };
    if s.note == Some(Note::TwoTileCity) {
        out += " (two-tile city)";
    }
    out
}
