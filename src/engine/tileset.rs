//! The tile tables: the base game (24 kinds, 72 tiles), its 2nd-edition garden copies, and The
//! River, under our own names. Facts from `reference/tiles.md`. Other programs' names for them
//! live with their formats (`record::tile_names`).
//!
//! Each kind is written in a small spec language, which records also use for custom tiles:
//! segments separated by `;`, each a kind and its places:
//! `city NE shield` (sides), `road S`, `river EW`, `field S.e S.w > 0` (half-edges, then the
//! indices of the city segments it borders), `cloister`, `garden`. New World's tiles add
//! `town NE flag` (sides, a flag per `flag`), `trail EW post` (a trading post per `post`),
//! `plains N.w N.e animal animal` (half-edges, an animal per `animal`), `farm` and `crossing`.

use super::geometry::{HalfEdge, Side};
use super::tile::{FeatureKind, Segment, SegmentError, TileDefError, TileKind};
use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

/// Index of a tile kind in a `TileCatalog`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TileKindId(pub u16);

/// Which printing of a tile set: the 2nd edition adds gardens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Edition {
    First,
    Second,
}

struct BaseRow {
    letter: &'static str,
    copies: u8,
    garden: bool,
    spec: &'static str,
}

#[rustfmt::skip]
const BASE: [BaseRow; 24] = [
    BaseRow { letter: "A", copies: 2, garden: false, spec: "cloister; road S; field N.w N.e E.n E.s S.e S.w W.s W.n" },
    BaseRow { letter: "B", copies: 4, garden: false, spec: "cloister; field N.w N.e E.n E.s S.e S.w W.s W.n" },
    BaseRow { letter: "C", copies: 1, garden: false, spec: "city NESW shield" },
    BaseRow { letter: "D", copies: 4, garden: false, spec: "city N; road EW; field E.n W.n > 0; field E.s S.e S.w W.s" },
    BaseRow { letter: "E", copies: 5, garden: true, spec: "city N; field E.n E.s S.e S.w W.s W.n > 0" },
    BaseRow { letter: "F", copies: 2, garden: false, spec: "city EW shield; field N.w N.e > 0; field S.e S.w > 0" },
    BaseRow { letter: "G", copies: 1, garden: false, spec: "city EW; field N.w N.e > 0; field S.e S.w > 0" },
    BaseRow { letter: "H", copies: 3, garden: true, spec: "city E; city W; field N.w N.e S.e S.w > 0 1" },
    BaseRow { letter: "I", copies: 2, garden: true, spec: "city N; city E; field S.e S.w W.s W.n > 0 1" },
    BaseRow { letter: "J", copies: 3, garden: false, spec: "city N; road ES; field E.n S.w W.s W.n > 0; field E.s S.e" },
    BaseRow { letter: "K", copies: 3, garden: false, spec: "city N; road SW; field E.n E.s S.e W.n > 0; field S.w W.s" },
    BaseRow { letter: "L", copies: 3, garden: false, spec: "city N; road E; road S; road W; field E.n W.n > 0; field E.s S.e; field S.w W.s" },
    BaseRow { letter: "M", copies: 2, garden: true, spec: "city NE shield; field S.e S.w W.s W.n > 0" },
    BaseRow { letter: "N", copies: 3, garden: true, spec: "city NE; field S.e S.w W.s W.n > 0" },
    BaseRow { letter: "O", copies: 2, garden: false, spec: "city NW shield; road ES; field E.n S.w > 0; field E.s S.e" },
    BaseRow { letter: "P", copies: 3, garden: false, spec: "city NW; road ES; field E.n S.w > 0; field E.s S.e" },
    BaseRow { letter: "Q", copies: 1, garden: false, spec: "city NEW shield; field S.e S.w > 0" },
    BaseRow { letter: "R", copies: 3, garden: true, spec: "city NEW; field S.e S.w > 0" },
    BaseRow { letter: "S", copies: 2, garden: false, spec: "city NEW shield; road S; field S.w > 0; field S.e > 0" },
    BaseRow { letter: "T", copies: 1, garden: false, spec: "city NEW; road S; field S.w > 0; field S.e > 0" },
    BaseRow { letter: "U", copies: 8, garden: true, spec: "road NS; field N.e E.n E.s S.e; field S.w W.s W.n N.w" },
    BaseRow { letter: "V", copies: 9, garden: true, spec: "road SW; field N.w N.e E.n E.s S.e W.n; field S.w W.s" },
    BaseRow { letter: "W", copies: 4, garden: false, spec: "road E; road S; road W; field W.n N.w N.e E.n; field E.s S.e; field S.w W.s" },
    BaseRow { letter: "X", copies: 1, garden: false, spec: "road N; road E; road S; road W; field N.e E.n; field E.s S.e; field S.w W.s; field W.n N.w" },
];

struct RiverRow {
    name: &'static str,
    /// Copies in the 1st and 2nd edition River.
    copies: [u8; 2],
    spec: &'static str,
}

/// The River, 12 tiles. D and F are the same straight, G and J the same plain bend; in the
/// 2nd edition one plain bend carries a garden (`river-Jg`, drawn in J's orientation).
#[rustfmt::skip]
const RIVER: [RiverRow; 11] = [
    RiverRow { name: "river-A", copies: [1, 1], spec: "river S; field N.w N.e E.n E.s S.e S.w W.s W.n" },
    RiverRow { name: "river-B", copies: [1, 1], spec: "city N; river EW; road S; field W.n > 0; field E.n > 0; field E.s S.e; field S.w W.s" },
    RiverRow { name: "river-C", copies: [1, 1], spec: "city N; city S; river EW; field W.n E.n > 0; field W.s E.s > 1" },
    RiverRow { name: "river-D", copies: [2, 2], spec: "river NS; field N.w W.n W.s S.w; field N.e E.n E.s S.e" },
    RiverRow { name: "river-E", copies: [1, 1], spec: "city NE; river SW; field S.e W.n > 0; field S.w W.s" },
    RiverRow { name: "river-G", copies: [2, 1], spec: "river NW; field N.w W.n; field N.e E.n E.s S.e S.w W.s" },
    RiverRow { name: "river-H", copies: [1, 1], spec: "river EW; cloister; road S; field W.n N.w N.e E.n; field E.s S.e; field S.w W.s" },
    RiverRow { name: "river-I", copies: [1, 1], spec: "road NW; river ES; field N.w W.n; field E.s S.e; field N.e E.n S.w W.s" },
    RiverRow { name: "river-Jg", copies: [0, 1], spec: "river ES; garden; field E.s S.e; field N.w N.e E.n S.w W.s W.n" },
    RiverRow { name: "river-K", copies: [1, 1], spec: "river NS; road EW; field N.e E.n; field E.s S.e; field S.w W.s; field W.n N.w" },
    RiverRow { name: "river-L", copies: [1, 1], spec: "river N; field N.w N.e E.n E.s S.e S.w W.s W.n" },
];

/// Our own sample tile set for New World, **not the printed tiles** (their list is not
/// public): 18 kinds, 61 tiles, using every New World feature and mark. It drives `generate`
/// and the demo; records of real games bring their own tiles.
#[rustfmt::skip]
pub const NEW_WORLD_SAMPLE: [(&str, u8, &str); 18] = [
    ("our-farm-trail", 4, "farm; trail S; plains N.w N.e E.n E.s S.e S.w W.s W.n animal"),
    ("our-farm", 3, "farm; plains N.w N.e E.n E.s S.e S.w W.s W.n animal animal"),
    ("our-town", 5, "town N; plains E.n E.s S.e S.w W.s W.n animal"),
    ("our-town-flag", 2, "town N flag; plains E.n E.s S.e S.w W.s W.n"),
    ("our-towns-apart", 3, "town N; town S; plains E.n E.s; plains W.s W.n animal"),
    ("our-town-corner", 3, "town NE; plains S.e S.w W.s W.n"),
    ("our-town-corner-flag", 2, "town NE flag; plains S.e S.w W.s W.n animal"),
    ("our-town-three", 3, "town NEW; plains S.e S.w"),
    ("our-town-whole", 1, "town NESW flag"),
    ("our-town-trail", 4, "town N; trail EW; plains E.n W.n; plains E.s S.e S.w W.s animal"),
    ("our-trail", 8, "trail NS; plains N.e E.n E.s S.e animal; plains S.w W.s W.n N.w"),
    ("our-trail-post", 3, "trail NS post; plains N.e E.n E.s S.e; plains S.w W.s W.n N.w animal"),
    ("our-trail-bend", 8, "trail SW; plains N.w N.e E.n E.s S.e W.n animal; plains S.w W.s"),
    ("our-trail-bend-post", 2, "trail SW post; plains N.w N.e E.n E.s S.e W.n; plains S.w W.s"),
    ("our-crossing-3", 4, "crossing; trail E; trail S; trail W; plains W.n N.w N.e E.n animal; plains E.s S.e; plains S.w W.s"),
    ("our-crossing-4", 1, "crossing; trail N; trail E; trail S; trail W; plains N.e E.n; plains E.s S.e; plains S.w W.s; plains W.n N.w"),
    ("our-town-trail-end", 3, "town N; trail S; plains E.n E.s S.e; plains S.w W.s W.n"),
    ("our-plains", 2, "plains N.w N.e E.n E.s S.e S.w W.s W.n animal animal animal"),
];

/// The base game's start tile (D: city north, road west–east).
pub const START_TILE: &str = "D";
/// The River's spring, which replaces the start tile.
pub const SPRING: &str = "river-A";

/// Parses the segment spec language described in the module docs.
pub fn parse_spec(name: &str, spec: &str) -> Result<TileKind, TileDefError> {
    let mut segments = Vec::new();
    for part in spec.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        segments.push(parse_segment(part).map_err(|why| TileDefError::Segment {
            name: name.to_string(),
            part: part.to_string(),
            why,
        })?);
    }
    TileKind::new(name, segments)
}

fn parse_segment(part: &str) -> Result<Segment, SegmentError> {
    let mut words = part.split_whitespace();
    let kind_word = words.next().unwrap_or_default();
    let kind = FeatureKind::parse(kind_word).ok_or_else(|| SegmentError::UnknownFeature(kind_word.to_string()))?;
    let mut seg = Segment {
        kind,
        sides: 0,
        halves: 0,
        marks: 0,
        cities: 0,
    };
    let mut after_arrow = false;
    for w in words {
        match (kind, w) {
            (_, ">") if kind == FeatureKind::Field => after_arrow = true,
            (FeatureKind::Field, w) if after_arrow => {
                let i: u32 = w.parse().map_err(|_| SegmentError::NotAnIndex(w.to_string()))?;
                if i >= 16 {
                    return Err(SegmentError::IndexOutOfRange(i));
                }
                seg.cities |= 1 << i;
            }
            (k, w) if let Some(h) = HalfEdge::parse(w).filter(|_| k.occupies_halves()) => seg.halves |= h.bit(),
            (FeatureKind::City, "shield")
            | (FeatureKind::Town, "flag")
            | (FeatureKind::Trail, "post")
            | (FeatureKind::Plains, "animal") => seg.marks = seg.marks.saturating_add(1),
            (k, w) if k.occupies_halves() => {
                return Err(SegmentError::NotAHalfEdge(w.to_string()));
            }
            (k, w) if k.occupies_sides() => {
                for c in w.chars() {
                    let side = Side::parse(&c.to_string()).ok_or_else(|| SegmentError::NotSides(w.to_string()))?;
                    seg.sides |= side.bit();
                }
            }
            _ => return Err(SegmentError::Unexpected(w.to_string())),
        }
    }
    if kind.occupies_sides() && seg.sides == 0 {
        return Err(SegmentError::NoSide);
    }
    if kind.occupies_halves() && seg.halves == 0 {
        return Err(SegmentError::NoHalfEdge);
    }
    Ok(seg)
}

/// Every tile kind the engine knows, with look-ups by our name.
#[derive(Clone, Debug)]
pub struct TileCatalog {
    kinds: Vec<TileKind>,
    names: HashMap<String, TileKindId>,
}

static BUILTIN: LazyLock<Arc<TileCatalog>> = LazyLock::new(|| Arc::new(TileCatalog::build()));

impl TileCatalog {
    /// The built-in catalogue: base game (both editions) and The River.
    pub fn builtin() -> Arc<TileCatalog> {
        BUILTIN.clone()
    }

    fn build() -> TileCatalog {
        let mut cat = TileCatalog {
            kinds: Vec::new(),
            names: HashMap::new(),
        };
        for row in &BASE {
            cat.add_builtin(row.letter, row.spec);
            if row.garden {
                cat.add_builtin(&format!("{}g", row.letter), &format!("{}; garden", row.spec));
            }
        }
        for row in &RIVER {
            cat.add_builtin(row.name, row.spec);
        }
        cat
    }

    fn add_builtin(&mut self, name: &str, spec: &str) {
        let kind = parse_spec(name, spec).expect("built-in tile specs are valid");
        self.add(kind).expect("built-in tile names are unique");
    }

    /// Adds a kind (a record's custom tile). Fails if the name is taken.
    pub fn add(&mut self, kind: TileKind) -> Result<TileKindId, TileDefError> {
        if self.names.contains_key(&kind.name) {
            return Err(TileDefError::NameTaken(kind.name));
        }
        let id = u16::try_from(self.kinds.len())
            .map(TileKindId)
            .map_err(|_| TileDefError::CatalogueFull(kind.name.clone()))?;
        self.names.insert(kind.name.clone(), id);
        self.kinds.push(kind);
        Ok(id)
    }

    pub fn get(&self, id: TileKindId) -> &TileKind {
        &self.kinds[id.0 as usize]
    }

    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    pub fn ids(&self) -> impl Iterator<Item = TileKindId> + '_ {
        (0..self.kinds.len() as u16).map(TileKindId)
    }

    /// Our own name: a letter A–X, a garden twin such as `Eg`, `river-A`…`river-L`, or a
    /// record's custom name.
    pub fn by_name(&self, name: &str) -> Option<TileKindId> {
        self.names.get(name).copied()
    }

    pub fn name(&self, id: TileKindId) -> &str {
        &self.get(id).name
    }
}

/// Tile counts of the base game in an edition: 72 tiles, 8 of them with gardens in the 2nd.
pub fn base_counts(cat: &TileCatalog, edition: Edition) -> Vec<(TileKindId, u8)> {
    let mut out = Vec::new();
    for row in &BASE {
        let id = cat.by_name(row.letter).expect("base letters are built in");
        if row.garden && edition == Edition::Second {
            out.push((id, row.copies - 1));
            let g = cat
                .by_name(&format!("{}g", row.letter))
                .expect("garden twins are built in");
            out.push((g, 1));
        } else {
            out.push((id, row.copies));
        }
    }
    out
}

/// Tile counts of The River in an edition: 12 tiles, spring and lake included.
pub fn river_counts(cat: &TileCatalog, edition: Edition) -> Vec<(TileKindId, u8)> {
    let e = usize::from(edition == Edition::Second);
    RIVER
        .iter()
        .filter(|row| row.copies[e] > 0)
        .map(|row| (cat.by_name(row.name).expect("river tiles are built in"), row.copies[e]))
        .collect()
}

pub fn is_river_tile(kind: &TileKind) -> bool {
    kind.has(FeatureKind::River)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn total(counts: &[(TileKindId, u8)]) -> u32 {
        counts.iter().map(|(_, n)| *n as u32).sum()
    }

    #[test]
    fn the_base_game_has_72_tiles_in_both_editions() {
        let cat = TileCatalog::builtin();
        assert_eq!(total(&base_counts(&cat, Edition::First)), 72);
        let second = base_counts(&cat, Edition::Second);
        assert_eq!(total(&second), 72);
        let gardens: u32 = second
            .iter()
            .filter(|(id, _)| cat.get(*id).has(FeatureKind::Garden))
            .map(|(_, n)| *n as u32)
            .sum();
        assert_eq!(gardens, 8, "one copy each of E, H, I, M, N, R, U and V");
    }

    #[test]
    fn the_base_game_has_10_shields_and_6_cloisters() {
        let cat = TileCatalog::builtin();
        let count = |f: &dyn Fn(&TileKind) -> bool| -> u32 {
            base_counts(&cat, Edition::First)
                .iter()
                .filter(|(id, _)| f(cat.get(*id)))
                .map(|(_, n)| *n as u32)
                .sum()
        };
        assert_eq!(count(&|k| k.segments.iter().any(|s| s.marks > 0)), 10);
        assert_eq!(count(&|k| k.has(FeatureKind::Cloister)), 6);
    }

    #[test]
    fn the_new_world_sample_set_is_ours_and_uses_every_feature_and_mark() {
        let kinds: Vec<TileKind> = NEW_WORLD_SAMPLE
            .iter()
            .map(|(name, _, spec)| parse_spec(name, spec).unwrap())
            .collect();
        assert!(kinds.iter().all(|k| k.name.starts_with("our-")));
        assert_eq!(NEW_WORLD_SAMPLE.iter().map(|t| u32::from(t.1)).sum::<u32>(), 61);
        for kind in [
            FeatureKind::Town,
            FeatureKind::Trail,
            FeatureKind::Plains,
            FeatureKind::Farm,
            FeatureKind::Crossing,
        ] {
            assert!(kinds.iter().any(|k| k.has(kind)), "no {kind}");
        }
        for marked in [FeatureKind::Town, FeatureKind::Trail, FeatureKind::Plains] {
            let has_mark = |k: &TileKind| k.segments.iter().any(|s| s.kind == marked && s.marks > 0);
            assert!(kinds.iter().any(has_mark), "no {marked} with a mark");
        }
    }

    #[test]
    fn new_world_marks_belong_to_their_feature() {
        let e = parse_spec("x", "town N post; plains E.n E.s S.e S.w W.s W.n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("segment `town N post`: `post` is not a set of sides"), "{e}");
        let e = parse_spec("x", "plains N.w N.e flag").unwrap_err().to_string();
        assert!(e.contains("`flag` is not a half-edge"), "{e}");
        let k = parse_spec(
            "x",
            "trail NS post post; plains N.e E.n E.s S.e; plains S.w W.s W.n N.w",
        )
        .unwrap();
        assert_eq!(k.segments[0].marks, 2);
    }

    #[test]
    fn the_river_has_12_tiles_in_both_editions() {
        let cat = TileCatalog::builtin();
        assert_eq!(total(&river_counts(&cat, Edition::First)), 12);
        assert_eq!(total(&river_counts(&cat, Edition::Second)), 12);
    }

    #[test]
    fn symmetric_tiles_have_fewer_distinct_rotations() {
        let cat = TileCatalog::builtin();
        let distinct = |n: &str| cat.get(cat.by_name(n).unwrap()).distinct.iter().filter(|d| **d).count();
        assert_eq!(distinct("B"), 1);
        assert_eq!(distinct("C"), 1);
        assert_eq!(distinct("X"), 1);
        assert_eq!(distinct("U"), 2);
        assert_eq!(distinct("G"), 2);
        assert_eq!(distinct("H"), 2);
        assert_eq!(distinct("V"), 4);
    }

    #[test]
    fn spec_errors_name_the_problem() {
        let err = parse_spec("Z", "city N; road N").unwrap_err().to_string();
        assert!(err.contains("north") || err.contains("N side"), "{err}");
        assert!(
            parse_spec("Z", "tower N")
                .unwrap_err()
                .to_string()
                .contains("unknown feature")
        );
    }

    /// Every half-edge joins the half-edge facing it on the next tile, so a tile must say what
    /// lies on each of its eight: a field or plains, or the city or town of its side. A tile
    /// that leaves one out would join its neighbour's field to nothing.
    #[test]
    fn every_half_edge_off_a_city_side_belongs_to_a_field() {
        let unclaimed = |spec: &str| parse_spec("Z", spec).unwrap_err().to_string();
        assert!(unclaimed("").contains("half-edge N.w belongs to no segment"));
        assert!(unclaimed("cloister").contains("half-edge N.w belongs to no segment"));
        assert!(unclaimed("plains N.w").contains("half-edge N.e belongs to no segment"));
        assert!(unclaimed("road NS; field N.e E.n E.s S.e").contains("half-edge N.w belongs to no segment"));
        assert!(parse_spec("Z", "city NESW").is_ok());
        assert!(parse_spec("Z", "town N; plains E.n E.s S.e S.w W.s W.n").is_ok());
    }
}
