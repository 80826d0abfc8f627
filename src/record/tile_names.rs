//! Other programs' names for our tiles, with their rotation offsets: JCloisterZone ids, Board
//! Game Arena type numbers and the course's names. Facts from `reference/tiles.md`. The engine
//! knows tiles by its own names only; each format resolves its names here.

use crate::engine::{Rotation, TileCatalog, TileKindId};
use std::collections::HashMap;
use std::sync::LazyLock;

/// A naming system a record may use for tiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum System {
    /// JCloisterZone ids such as `BA/RCr` (4.x: `BA.RCr`).
    Jcz,
    /// Board Game Arena tile types, as decimal text.
    Bga,
    /// CMSC 22001 course names such as `CRFR50`.
    Course,
}

/// One of our tiles under another system's name, and how that system's rotation 0 relates to
/// ours: our rotation = their rotation + `offset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alias {
    pub kind: TileKindId,
    pub offset: Rotation,
}

/// A tile's names: ours, JCloisterZone's with its offset, and BGA's and the course's where they
/// have one (type or name, offset).
struct Names {
    ours: &'static str,
    jcz: &'static str,
    jcz_k: u8,
    bga: Option<(u8, u8)>,
    course: Option<(&'static str, u8)>,
}

/// The course draws H with cities N and S and M, N with the city N+W (tiles.md §5.3); the
/// garden twins and River tiles exist only in JCloisterZone.
#[rustfmt::skip]
const NAMES: [Names; 43] = [
    Names { ours: "A", jcz: "BA/LR", jcz_k: 0, bga: Some((21, 0)), course: Some(("FFRFL50", 0)) },
    Names { ours: "B", jcz: "BA/L", jcz_k: 0, bga: Some((20, 0)), course: Some(("FFFFL50", 0)) },
    Names { ours: "C", jcz: "BA/Cccc+", jcz_k: 0, bga: Some((22, 0)), course: Some(("CCCCS50", 0)) },
    Names { ours: "D", jcz: "BA/RCr", jcz_k: 0, bga: Some((15, 0)), course: Some(("CRFR50", 0)) },
    Names { ours: "E", jcz: "BA/C", jcz_k: 0, bga: Some((11, 0)), course: Some(("CFFF50", 0)) },
    Names { ours: "Eg", jcz: "BA/CG", jcz_k: 0, bga: None, course: None },
    Names { ours: "F", jcz: "BA/CFc+", jcz_k: 0, bga: Some((8, 0)), course: Some(("FCFCS50", 0)) },
    Names { ours: "G", jcz: "BA/CFc.1", jcz_k: 0, bga: Some((7, 0)), course: Some(("FCFC50", 0)) },
    Names { ours: "H", jcz: "BA/CFC.2", jcz_k: 1, bga: Some((10, 1)), course: Some(("CFCF50", 1)) },
    Names { ours: "Hg", jcz: "BA/CFCG", jcz_k: 1, bga: None, course: None },
    Names { ours: "I", jcz: "BA/CC.2", jcz_k: 3, bga: Some((9, 3)), course: Some(("CCFF50", 0)) },
    Names { ours: "Ig", jcz: "BA/CCG", jcz_k: 3, bga: None, course: None },
    Names { ours: "J", jcz: "BA/CRr", jcz_k: 0, bga: Some((13, 0)), course: Some(("CRRF50", 0)) },
    Names { ours: "K", jcz: "BA/RrC", jcz_k: 0, bga: Some((12, 0)), course: Some(("CFRR50", 0)) },
    Names { ours: "L", jcz: "BA/CRRR", jcz_k: 0, bga: Some((14, 0)), course: Some(("CRRR50", 0)) },
    Names { ours: "M", jcz: "BA/Cc+", jcz_k: 3, bga: Some((4, 3)), course: Some(("CFFCS50", 3)) },
    Names { ours: "Mg", jcz: "BA/Cc+G", jcz_k: 3, bga: None, course: None },
    Names { ours: "N", jcz: "BA/Cc.1", jcz_k: 3, bga: Some((3, 3)), course: Some(("CFFC50", 3)) },
    Names { ours: "Ng", jcz: "BA/CcG", jcz_k: 3, bga: None, course: None },
    Names { ours: "O", jcz: "BA/CcRr+", jcz_k: 0, bga: Some((6, 0)), course: Some(("CRRCS50", 0)) },
    Names { ours: "P", jcz: "BA/CcRr", jcz_k: 0, bga: Some((5, 0)), course: Some(("CRRC50", 0)) },
    Names { ours: "Q", jcz: "BA/Ccc+", jcz_k: 0, bga: Some((24, 0)), course: Some(("CCFCS50", 0)) },
    Names { ours: "R", jcz: "BA/Ccc", jcz_k: 0, bga: Some((23, 0)), course: Some(("CCFC50", 0)) },
    Names { ours: "Rg", jcz: "BA/CccG", jcz_k: 0, bga: None, course: None },
    Names { ours: "S", jcz: "BA/CccR+", jcz_k: 0, bga: Some((2, 0)), course: Some(("CCRCS50", 0)) },
    Names { ours: "T", jcz: "BA/CccR", jcz_k: 0, bga: Some((1, 0)), course: Some(("CCRC50", 0)) },
    Names { ours: "U", jcz: "BA/RFr", jcz_k: 1, bga: Some((16, 0)), course: Some(("RFRF50", 0)) },
    Names { ours: "Ug", jcz: "BA/RFrG", jcz_k: 1, bga: None, course: None },
    Names { ours: "V", jcz: "BA/Rr", jcz_k: 0, bga: Some((17, 0)), course: Some(("FFRR50", 0)) },
    Names { ours: "Vg", jcz: "BA/RrG", jcz_k: 0, bga: None, course: None },
    Names { ours: "W", jcz: "BA/RRR", jcz_k: 0, bga: Some((18, 0)), course: Some(("FRRR50", 0)) },
    Names { ours: "X", jcz: "BA/RRRR", jcz_k: 0, bga: Some((19, 0)), course: Some(("RRRR50", 0)) },
    Names { ours: "river-A", jcz: "RI/s", jcz_k: 3, bga: None, course: None },
    Names { ours: "river-B", jcz: "RI.1/CIRI", jcz_k: 0, bga: None, course: None },
    Names { ours: "river-C", jcz: "RI.1/CICI", jcz_k: 0, bga: None, course: None },
    Names { ours: "river-D", jcz: "RI.1/IFI", jcz_k: 1, bga: None, course: None },
    Names { ours: "river-E", jcz: "RI.1/CcII", jcz_k: 3, bga: None, course: None },
    Names { ours: "river-G", jcz: "RI.1/II", jcz_k: 3, bga: None, course: None },
    Names { ours: "river-H", jcz: "RI.1/LIRI", jcz_k: 0, bga: None, course: None },
    Names { ours: "river-I", jcz: "RI.1/RrII", jcz_k: 1, bga: None, course: None },
    Names { ours: "river-Jg", jcz: "RI.1/IIG", jcz_k: 1, bga: None, course: None },
    Names { ours: "river-K", jcz: "RI.1/RIrI", jcz_k: 0, bga: None, course: None },
    Names { ours: "river-L", jcz: "RI.1/I.e", jcz_k: 3, bga: None, course: None },
];

/// Their name → (our name, offset), per system; and ours → theirs.
struct Tables {
    theirs: HashMap<(System, String), (&'static str, u8)>,
    ours: HashMap<(System, String), (String, u8)>,
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut t = Tables {
        theirs: HashMap::new(),
        ours: HashMap::new(),
    };
    let mut add = |system: System, name: String, ours: &'static str, k: u8| {
        t.ours
            .entry((system, ours.to_string()))
            .or_insert_with(|| (name.clone(), k));
        t.theirs.insert((system, name), (ours, k));
    };
    for n in &NAMES {
        add(System::Jcz, n.jcz.to_string(), n.ours, n.jcz_k);
        // JCloisterZone 4.x wrote the same ids with a dot after the prefix.
        if let Some((prefix, rest)) = n.jcz.split_once('/') {
            add(System::Jcz, format!("{prefix}.{rest}"), n.ours, n.jcz_k);
        }
        if let Some((ty, k)) = n.bga {
            add(System::Bga, ty.to_string(), n.ours, k);
        }
        if let Some((name, k)) = n.course {
            add(System::Course, name.to_string(), n.ours, k);
        }
    }
    t
});

/// Our tile for another system's name.
pub fn resolve(cat: &TileCatalog, system: System, name: &str) -> Option<Alias> {
    let &(ours, k) = TABLES.theirs.get(&(system, name.to_string()))?;
    Some(Alias {
        kind: cat.by_name(ours)?,
        offset: Rotation::new(k),
    })
}

/// Another system's name for one of our tiles, with its rotation offset (JCloisterZone: the
/// 5.x spelling).
pub fn name_of(cat: &TileCatalog, system: System, kind: TileKindId) -> Option<(&'static str, Rotation)> {
    let (name, k) = TABLES.ours.get(&(system, cat.name(kind).to_string()))?;
    Some((name.as_str(), Rotation::new(*k)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Side;
    use crate::engine::tile::Edge;

    #[test]
    fn tiles_resolve_by_every_name() {
        let cat = TileCatalog::builtin();
        let d = cat.by_name("D").unwrap();
        assert_eq!(resolve(&cat, System::Jcz, "BA/RCr").unwrap().kind, d);
        assert_eq!(resolve(&cat, System::Jcz, "BA.RCr").unwrap().kind, d);
        assert_eq!(resolve(&cat, System::Bga, "15").unwrap().kind, d);
        assert_eq!(resolve(&cat, System::Course, "CRFR50").unwrap().kind, d);
        let u = resolve(&cat, System::Jcz, "BA/RFr").unwrap();
        assert_eq!((cat.name(u.kind), u.offset.quarter_turns()), ("U", 1));
        assert_eq!(cat.name(resolve(&cat, System::Jcz, "BA/CcG").unwrap().kind), "Ng");
        assert_eq!(
            cat.name(resolve(&cat, System::Jcz, "RI.1/IIG").unwrap().kind),
            "river-Jg"
        );
        assert_eq!(name_of(&cat, System::Jcz, d).map(|(n, _)| n), Some("BA/RCr"));
    }

    #[test]
    fn every_course_name_spells_the_edges_of_its_tile() {
        let cat = TileCatalog::builtin();
        for n in NAMES.iter().filter(|n| n.course.is_some()) {
            let (name, _) = n.course.unwrap();
            let a = resolve(&cat, System::Course, name).unwrap();
            let o = cat.get(a.kind).oriented(a.offset);
            let spelled: String = Side::ALL
                .iter()
                .map(|s| match o.edge(*s) {
                    Edge::City => 'C',
                    Edge::Road => 'R',
                    _ => 'F',
                })
                .collect();
            assert_eq!(spelled, name[..4], "tile {}", n.ours);
        }
    }
}
