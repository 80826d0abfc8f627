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

/// Global index of a placed segment.
pub type SegId = u32;

#[derive(Clone, Debug, Default)]
pub struct Features {
    parent: Vec<SegId>,
    next: Vec<SegId>,
    kind: Vec<FeatureKind>,
    tile: Vec<u16>,
    shield: Vec<bool>,
    /// Open edges, kept at the root.
    open: Vec<u16>,
    /// Meeples in the whole feature, kept at the root.
    meeples: Vec<u8>,
    on: Vec<Option<Meeple>>,
}

impl Features {
    pub fn with_capacity(n: usize) -> Features {
        Features {
            parent: Vec::with_capacity(n),
            next: Vec::with_capacity(n),
            kind: Vec::with_capacity(n),
            tile: Vec::with_capacity(n),
            shield: Vec::with_capacity(n),
            open: Vec::with_capacity(n),
            meeples: Vec::with_capacity(n),
            on: Vec::with_capacity(n),
        }
    }

    pub fn len(&self) -> usize {
        self.parent.len()
    }

    pub fn is_empty(&self) -> bool {
        self.parent.is_empty()
    }

    /// Adds a lone segment with `open` open edges.
    pub fn add(&mut self, kind: FeatureKind, tile: u16, shield: bool, open: u16) -> SegId {
        let id = self.parent.len() as SegId;
        self.parent.push(id);
        self.next.push(id);
        self.kind.push(kind);
        self.tile.push(tile);
        self.shield.push(shield);
        self.open.push(open);
        self.meeples.push(0);
        self.on.push(None);
        id
    }

    pub fn root(&self, mut s: SegId) -> SegId {
        while self.parent[s as usize] != s {
            s = self.parent[s as usize];
        }
        s
    }

    fn root_compress(&mut self, s: SegId) -> SegId {
        let r = self.root(s);
        let mut s = s;
        while self.parent[s as usize] != r {
            let n = self.parent[s as usize];
            self.parent[s as usize] = r;
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
            self.open[ra as usize] -= closed;
            return;
        }
        let (big, small) = if ra < rb { (ra, rb) } else { (rb, ra) };
        self.parent[small as usize] = big;
        self.open[big as usize] = self.open[big as usize] + self.open[small as usize] - closed;
        self.meeples[big as usize] += self.meeples[small as usize];
        self.next.swap(big as usize, small as usize);
    }

    pub fn kind(&self, s: SegId) -> FeatureKind {
        self.kind[s as usize]
    }

    pub fn tile_of(&self, s: SegId) -> u16 {
        self.tile[s as usize]
    }

    pub fn is_complete(&self, s: SegId) -> bool {
        self.open[self.root(s) as usize] == 0
    }

    pub fn is_occupied(&self, s: SegId) -> bool {
        self.meeples[self.root(s) as usize] > 0
    }

    pub fn meeple_on(&self, s: SegId) -> Option<Meeple> {
        self.on[s as usize]
    }

    pub fn put(&mut self, s: SegId, m: Meeple) {
        self.on[s as usize] = Some(m);
        let r = self.root(s) as usize;
        self.meeples[r] += 1;
    }

    pub fn take(&mut self, s: SegId) -> Option<Meeple> {
        let m = self.on[s as usize].take()?;
        let r = self.root(s) as usize;
        self.meeples[r] -= 1;
        Some(m)
    }

    /// Every segment of the feature containing `s`.
    pub fn members(&self, s: SegId) -> Members<'_> {
        Members {
            next: &self.next,
            start: s,
            cur: Some(s),
        }
    }

    /// Distinct tiles and shields of the feature containing `s`.
    pub fn size(&self, s: SegId, scratch: &mut Vec<u16>) -> (u32, u32) {
        scratch.clear();
        let mut shields = 0;
        for m in self.members(s) {
            scratch.push(self.tile[m as usize]);
            shields += u32::from(self.shield[m as usize]);
        }
        scratch.sort_unstable();
        scratch.dedup();
        (scratch.len() as u32, shields)
    }

    /// Meeples per player on the feature containing `s`.
    pub fn count_meeples(&self, s: SegId, per_player: &mut [u8]) {
        per_player.iter_mut().for_each(|c| *c = 0);
        if self.meeples[self.root(s) as usize] == 0 {
            return;
        }
        for m in self.members(s) {
            if let Some(meeple) = self.on[m as usize] {
                per_player[meeple.player as usize] += 1;
            }
        }
    }
}

pub struct Members<'a> {
    next: &'a [SegId],
    start: SegId,
    cur: Option<SegId>,
}

impl Iterator for Members<'_> {
    type Item = SegId;
    fn next(&mut self) -> Option<SegId> {
        let c = self.cur?;
        let n = self.next[c as usize];
        self.cur = (n != self.start).then_some(n);
        Some(c)
    }
}

/// The players holding the majority, given meeples per player.
pub fn majority(per_player: &[u8]) -> impl Iterator<Item = u8> + '_ {
    let best = per_player.iter().copied().max().unwrap_or(0);
    per_player
        .iter()
        .enumerate()
        .filter(move |(_, c)| best > 0 && **c == best)
        .map(|(p, _)| p as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joining_closes_edges_and_merges_member_lists() {
        let mut f = Features::default();
        let a = f.add(FeatureKind::Road, 0, false, 2);
        let b = f.add(FeatureKind::Road, 1, false, 1);
        let c = f.add(FeatureKind::Road, 2, false, 1);
        f.join(a, b, true);
        assert!(!f.is_complete(a));
        f.join(a, c, true);
        assert!(f.is_complete(c));
        let mut scratch = Vec::new();
        assert_eq!(f.size(b, &mut scratch), (3, 0));
        let mut m: Vec<_> = f.members(c).collect();
        m.sort();
        assert_eq!(m, vec![a, b, c]);
    }

    #[test]
    fn ties_share_the_majority() {
        assert_eq!(majority(&[2, 2, 1]).collect::<Vec<_>>(), vec![0, 1]);
        assert_eq!(majority(&[0, 0]).count(), 0);
    }
}
