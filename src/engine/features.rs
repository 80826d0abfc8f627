//! Features are a union-find over placed segments. Each root keeps the count of open edges
//! (zero means complete) and of meeples; each set is also a circular list so scoring can walk
//! its members.

use super::tile::FeatureKind;

/// A follower or an abbot, owned by a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Figure {
    Follower,
    Abbot,
}

impl Figure {
    pub fn word(self) -> &'static str {
        match self {
            Figure::Follower => "meeple",
            Figure::Abbot => "abbot",
        }
    }
}

/// A figure standing on a segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Meeple {
    pub player: u8,
    pub figure: Figure,
}

/// How big a feature is, in what its scores count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Size {
    pub tiles: u32,
    pub segments: u32,
    pub marks: u32,
}

/// Global index of a placed segment.
pub type SegId = u32;

/// The most players a game can have.
pub const MAX_PLAYERS: usize = 6;

/// A set of players, e.g. those who share a majority.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Players(u8);

impl Players {
    pub fn contains(self, p: u8) -> bool {
        self.0 & (1 << p) != 0
    }

    pub fn insert(&mut self, p: u8) {
        self.0 |= 1 << p;
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub fn iter(self) -> impl Iterator<Item = u8> {
        (0..8u8).filter(move |p| self.0 & (1 << p) != 0)
    }
}

/// Meeples per player in one feature.
pub type Counts = [u8; MAX_PLAYERS];

/// The players holding the majority: the most meeples, ties included.
pub fn majority(counts: &Counts) -> Players {
    let best = counts.iter().copied().max().unwrap_or(0);
    let mut set = Players::default();
    if best > 0 {
        for (p, c) in counts.iter().enumerate() {
            if *c == best {
                set.insert(p as u8);
            }
        }
    }
    set
}

#[derive(Clone, Copy, Debug)]
struct Node {
    parent: SegId,
    next: SegId,
    kind: FeatureKind,
    tile: u16,
    marks: u8,
    /// Open edges; meaningful at the root.
    open: u16,
    /// Meeples in the whole feature; meaningful at the root.
    meeples: u8,
    on: Option<Meeple>,
}

#[derive(Debug, Default)]
pub struct Features {
    nodes: Vec<Node>,
    /// The segments with a figure on them, in no order: the end's scoring reads these for every
    /// candidate move, where walking every segment cost more than the scoring itself.
    occupied: Vec<SegId>,
}

/// Written out for `clone_from`, which the derive leaves as a fresh copy: the bots copy a game
/// into one they keep, reusing its allocation.
impl Clone for Features {
    fn clone(&self) -> Features {
        Features {
            nodes: self.nodes.clone(),
            occupied: self.occupied.clone(),
        }
    }

    fn clone_from(&mut self, source: &Features) {
        self.nodes.clone_from(&source.nodes);
        self.occupied.clone_from(&source.occupied);
    }
}

impl Features {
    pub fn with_capacity(n: usize) -> Features {
        Features {
            nodes: Vec::with_capacity(n),
            occupied: Vec::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Adds a lone segment with `open` open edges.
    pub fn add(&mut self, kind: FeatureKind, tile: u16, marks: u8, open: u16) -> SegId {
        let id = self.nodes.len() as SegId;
        self.nodes.push(Node {
            parent: id,
            next: id,
            kind,
            tile,
            marks,
            open,
            meeples: 0,
            on: None,
        });
        id
    }

    pub fn root(&self, mut s: SegId) -> SegId {
        while self.nodes[s as usize].parent != s {
            s = self.nodes[s as usize].parent;
        }
        s
    }

    fn root_compress(&mut self, s: SegId) -> SegId {
        let r = self.root(s);
        let mut s = s;
        while self.nodes[s as usize].parent != r {
            let n = self.nodes[s as usize].parent;
            self.nodes[s as usize].parent = r;
            s = n;
        }
        r
    }

    /// Joins the features of two segments across a shared edge: that edge closes on both
    /// sides. Fields pass `closes = false`: they are never complete.
    pub fn join(&mut self, a: SegId, b: SegId, closes: bool) {
        let ra = self.root_compress(a);
        let rb = self.root_compress(b);
        let closed = if closes { 2 } else { 0 };
        if ra == rb {
            self.nodes[ra as usize].open -= closed;
            return;
        }
        let (big, small) = if ra < rb { (ra, rb) } else { (rb, ra) };
        let (small_open, small_meeples, small_next) = {
            let s = &self.nodes[small as usize];
            (s.open, s.meeples, s.next)
        };
        let big_next = self.nodes[big as usize].next;
        let b = &mut self.nodes[big as usize];
        b.open = b.open + small_open - closed;
        b.meeples += small_meeples;
        b.next = small_next;
        let s = &mut self.nodes[small as usize];
        s.parent = big;
        s.next = big_next;
    }

    pub fn kind(&self, s: SegId) -> FeatureKind {
        self.nodes[s as usize].kind
    }

    pub fn tile_of(&self, s: SegId) -> u16 {
        self.nodes[s as usize].tile
    }

    /// The open edges of the feature of `s`: zero once it is complete.
    pub fn open_edges(&self, s: SegId) -> u16 {
        self.nodes[self.root(s) as usize].open
    }

    pub fn is_complete(&self, s: SegId) -> bool {
        self.nodes[self.root(s) as usize].open == 0
    }

    pub fn is_occupied(&self, s: SegId) -> bool {
        self.nodes[self.root(s) as usize].meeples > 0
    }

    pub fn meeple_on(&self, s: SegId) -> Option<Meeple> {
        self.nodes[s as usize].on
    }

    pub fn put(&mut self, s: SegId, m: Meeple) {
        if self.nodes[s as usize].on.replace(m).is_none() {
            self.occupied.push(s);
        }
        let r = self.root(s) as usize;
        self.nodes[r].meeples += 1;
    }

    pub fn take(&mut self, s: SegId) -> Option<Meeple> {
        let m = self.nodes[s as usize].on.take()?;
        let r = self.root(s) as usize;
        self.nodes[r].meeples -= 1;
        if let Some(i) = self.occupied.iter().position(|&o| o == s) {
            self.occupied.swap_remove(i);
        }
        Some(m)
    }

    /// The segments with a figure on them, in no order.
    pub fn occupied(&self) -> &[SegId] {
        &self.occupied
    }

    /// The next segment in the circular member list of `s`'s feature.
    pub fn next_member(&self, s: SegId) -> SegId {
        self.nodes[s as usize].next
    }

    /// Every segment of the feature containing `s`.
    pub fn members(&self, s: SegId) -> Members<'_> {
        Members {
            features: self,
            start: s,
            cur: Some(s),
        }
    }

    /// Distinct tiles, segments and marks (a city's shields) of the feature containing `s`.
    /// `scratch` holds a bit per tile seen, so that a tile with two of the feature's segments
    /// counts once without sorting them (end scoring sizes every occupied feature, and the
    /// analysis's bots ask for the end scores of every move they weigh).
    pub fn size(&self, s: SegId, scratch: &mut Vec<u16>) -> Size {
        scratch.clear();
        let mut size = Size::default();
        for m in self.members(s) {
            let n = &self.nodes[m as usize];
            let (word, bit) = (usize::from(n.tile / 16), 1 << (n.tile % 16));
            if word >= scratch.len() {
                scratch.resize(word + 1, 0);
            }
            size.tiles += u32::from(scratch[word] & bit == 0);
            scratch[word] |= bit;
            size.segments += 1;
            size.marks += u32::from(n.marks);
        }
        size
    }

    /// Meeples per player on the feature containing `s`.
    pub fn count_meeples(&self, s: SegId) -> Counts {
        let mut counts = [0; MAX_PLAYERS];
        if self.nodes[self.root(s) as usize].meeples == 0 {
            return counts;
        }
        for m in self.members(s) {
            if let Some(meeple) = self.nodes[m as usize].on {
                counts[meeple.player as usize] += 1;
            }
        }
        counts
    }
}

pub struct Members<'a> {
    features: &'a Features,
    start: SegId,
    cur: Option<SegId>,
}

impl Iterator for Members<'_> {
    type Item = SegId;
    fn next(&mut self) -> Option<SegId> {
        let c = self.cur?;
        let n = self.features.next_member(c);
        self.cur = (n != self.start).then_some(n);
        Some(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joining_closes_edges_and_merges_member_lists() {
        let mut f = Features::default();
        let a = f.add(FeatureKind::Road, 0, 0, 2);
        let b = f.add(FeatureKind::Road, 1, 0, 1);
        let c = f.add(FeatureKind::Road, 2, 0, 1);
        f.join(a, b, true);
        assert!(!f.is_complete(a));
        f.join(a, c, true);
        assert!(f.is_complete(c));
        let mut scratch = Vec::new();
        let size = Size {
            tiles: 3,
            segments: 3,
            marks: 0,
        };
        assert_eq!(f.size(b, &mut scratch), size);
        let mut m: Vec<_> = f.members(c).collect();
        m.sort();
        assert_eq!(m, vec![a, b, c]);
        // A second segment of tile 1 adds a segment, not a tile; tile 40 adds both.
        let d = f.add(FeatureKind::Road, 1, 0, 0);
        let e = f.add(FeatureKind::Road, 40, 1, 0);
        f.join(a, d, false);
        f.join(e, a, false);
        let size = Size {
            tiles: 4,
            segments: 5,
            marks: 1,
        };
        assert_eq!(f.size(c, &mut scratch), size);
    }

    #[test]
    fn ties_share_the_majority() {
        let tie = majority(&[2, 2, 1, 0, 0, 0]);
        assert_eq!(tie.iter().collect::<Vec<_>>(), vec![0, 1]);
        assert!(majority(&[0; MAX_PLAYERS]).is_empty());
    }
}
