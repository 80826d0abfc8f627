//! Scores and pieces in words for people: the arithmetic behind the points, and what each
//! game calls its figures and places. The engine deals in terms (count × rate) and kinds; the
//! words are here, outside it.

use crate::engine::surveyors::COAST_X;
use crate::engine::{FeatureKind, Figure, GameKind, Note, Score, Term};

/// "3 tiles × 2", "1 shield × 2".
fn term(t: &Term) -> String {
    let (one, many) = t.unit.words();
    format!("{} × {}", count(t.count, one, many), t.rate)
}

/// "1 tile", "3 tiles": a count with its noun in the right number.
pub fn count(n: u32, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The arithmetic behind a score: "city of 4 tiles × 2 + 1 shield × 2", "cloister and its
/// neighbours: 9 tiles × 1", "farm supplying 2 completed cities × 3".
pub fn explanation(s: &Score) -> String {
    let terms: Vec<String> = s.terms.iter().map(term).collect();
    let terms = terms.join(" + ");
    let mut out = match s.feature {
        FeatureKind::Field => format!("farm supplying {terms}"),
        FeatureKind::Cloister | FeatureKind::Garden | FeatureKind::Farm => {
            format!("{} and its neighbours: {terms}", s.feature)
        }
        kind => format!("{kind} of {terms}"),
    };
    if s.note == Some(Note::TwoTileCity) {
        out += " (two-tile city)";
    }
    out
}

/// What a game calls its figures in general, singular and plural: New World's settlers, the
/// tile game's meeples.
pub fn figures(game: GameKind) -> (&'static str, &'static str) {
    match game {
        GameKind::NewWorld => ("settler", "settlers"),
        GameKind::Carcassonne | GameKind::CardGame => ("meeple", "meeples"),
    }
}

/// What a figure on a kind of feature is called. New World's rulebook names a settler by
/// where it stands: "a shopkeeper in a town segment", "a robber on a trail segment", "a
/// trapper in a plains segment", "a farmer in a farm". The tile game says meeple, or abbot.
pub fn figure_on(figure: Figure, feature: FeatureKind) -> &'static str {
    match (figure, feature) {
        (Figure::Abbot, _) => "abbot",
        (_, FeatureKind::Town) => "shopkeeper",
        (_, FeatureKind::Trail) => "robber",
        (_, FeatureKind::Plains) => "trapper",
        (_, FeatureKind::Farm) => "farmer",
        _ => "meeple",
    }
}

/// "in the town", "on the trail", "on the road": where a figure stands, as the rulebooks say.
pub fn place(feature: FeatureKind) -> String {
    let preposition = match feature {
        FeatureKind::Town | FeatureKind::Plains | FeatureKind::Farm => "in",
        _ => "on",
    };
    format!("{preposition} the {feature}")
}

/// "Town" for "town".
pub fn capitalised(word: &str) -> String {
    let mut c = word.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// "a robber", "an abbot".
pub fn with_article(word: &str) -> String {
    let article = if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {word}")
}

/// A column of New World's board: "the coast", or "column -2" (the board's `x`, as in
/// the squares' coordinates).
pub fn column(x: i32) -> String {
    if x == COAST_X {
        "the coast".into()
    } else {
        format!("column {x}")
    }
}

/// The places a reader may point at on a game's board: "a city, road, field or cloister".
pub fn features_to_point_at(game: GameKind) -> &'static str {
    match game {
        GameKind::NewWorld => "a town, trail, plains or farm",
        GameKind::Carcassonne | GameKind::CardGame => "a city, road, field or cloister",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_world_settlers_are_named_for_where_they_stand() {
        let on = |kind| format!("{} {}", with_article(figure_on(Figure::Follower, kind)), place(kind));
        assert_eq!(on(FeatureKind::Town), "a shopkeeper in the town");
        assert_eq!(on(FeatureKind::Trail), "a robber on the trail");
        assert_eq!(on(FeatureKind::Plains), "a trapper in the plains");
        assert_eq!(on(FeatureKind::Farm), "a farmer in the farm");
        assert_eq!(on(FeatureKind::Road), "a meeple on the road");
        assert_eq!(with_article(figure_on(Figure::Abbot, FeatureKind::Garden)), "an abbot");
    }

    #[test]
    fn counts_take_the_number_of_their_noun() {
        assert_eq!(count(1, "tile", "tiles"), "1 tile");
        assert_eq!(count(0, "tile", "tiles"), "0 tiles");
        assert_eq!(count(2, "action", "actions"), "2 actions");
    }

    #[test]
    fn columns_are_the_boards_x_and_the_coast() {
        assert_eq!(column(COAST_X), "the coast");
        assert_eq!(column(0), "column 0");
        assert_eq!(column(-3), "column -3");
    }
}
