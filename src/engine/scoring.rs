//! Scoring: completed features during play, the abbot's recall, and final scoring. Every
//! number comes from `Rules`; no edition has its own copy of this code.

use super::category::TileCategory;
use super::events::{Event, Note, Phase, Reason, Score, Term, Terms, Unit};
use super::features::{Counts, MAX_PLAYERS, Players, SegId, Size, majority};
use super::game::Game;
use super::geometry::{Pos, Side};
use super::parts::Part;
use super::position::GameKind;
use super::rules::{Completion, FeatureRule, completion};
use super::tile::FeatureKind;

/// What a feature pays its owners, from [`Game::worth`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Worth {
    /// If the game ended now; `None` once it is complete, or for a feature that scores
    /// nothing left open (a field: its farmers score through the farm rule).
    pub at_end: Option<u32>,
    /// Completed as it stands now; `None` for a feature that never completes.
    pub completed: Option<u32>,
    pub is_complete: bool,
}

/// A score before it is placed on the board: who scores what for the feature of `s`. Final
/// scoring computes these without changing the game, so they also give the scores if the game
/// ended now (`Game::end_scores`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Award {
    pub s: SegId,
    pub feature: FeatureKind,
    pub reason: Reason,
    pub players: Players,
    pub meeples: Counts,
    pub terms: Terms,
    pub note: Option<Note>,
}

impl Game {
    /// The categories of this game's score breakdowns, in order (`Score::by_category`).
    pub fn categories(&self) -> &'static [TileCategory] {
        match self.kind() {
            GameKind::NewWorld => &TileCategory::NEW_WORLD,
            GameKind::Carcassonne | GameKind::CardGame => &TileCategory::CARCASSONNE,
        }
    }

    /// Builds the score of the feature containing segment `s` from its row of the feature
    /// table, or `None` when nobody has a meeple on it or the feature does not score so.
    fn feature_score(&mut self, s: SegId, rule: &FeatureRule, reason: Reason, phase: Phase) -> Option<Score> {
        let mut scratch = std::mem::take(&mut self.scratch);
        let award = self.feature_award(s, rule, reason, &mut scratch);
        self.scratch = scratch;
        award.map(|a| self.placed_score(a, phase))
    }

    /// What the feature containing segment `s` awards for `reason`, as `feature_score` says.
    pub(super) fn feature_award(
        &self,
        s: SegId,
        rule: &FeatureRule,
        reason: Reason,
        scratch: &mut Vec<u16>,
    ) -> Option<Award> {
        let meeples = self.features.count_meeples(s);
        let players = majority(&meeples);
        if players.is_empty() || rule.incomplete.is_none() && reason != Reason::Completed {
            return None;
        }
        let (terms, small) = self.terms(s, rule, reason, 0, scratch);
        if terms.points() == 0 {
            // Plains without animals: the trappers score nothing.
            return None;
        }
        Some(Award {
            s,
            feature: self.features.kind(s),
            reason,
            players,
            meeples,
            terms,
            note: small.then_some(Note::TwoTileCity),
        })
    }

    /// The score of an award, placed at its feature for the events.
    pub(super) fn placed_score(&self, a: Award, phase: Phase) -> Score {
        let (pos, location) = self.segment_place(a.s);
        Score {
            feature: a.feature,
            reason: a.reason,
            phase,
            players: a.players,
            points: a.terms.points(),
            meeples: a.meeples,
            terms: a.terms,
            note: a.note,
            pos,
            location,
        }
    }

    /// The terms the feature of `s` scores for `reason` as it stands with `added` more tiles,
    /// whoever owns it, and whether the small-feature rates (the classic two-tile city) apply.
    fn terms(&self, s: SegId, rule: &FeatureRule, reason: Reason, added: u32, scratch: &mut Vec<u16>) -> (Terms, bool) {
        let size = match rule.completes {
            // Completed means surrounded: the tile and all eight around it, also when the
            // notes ask what an open one would pay completed.
            Completion::Surrounded => {
                let pos = self.board.tiles()[self.features.tile_of(s) as usize].pos;
                Size {
                    tiles: if reason == Reason::Completed {
                        9
                    } else {
                        1 + self.surrounding(pos)
                    },
                    segments: 1,
                    marks: 0,
                }
            }
            Completion::ClosedEdges | Completion::Never => {
                let size = self.features.size(s, scratch);
                Size {
                    tiles: size.tiles + added,
                    ..size
                }
            }
        };
        let (rates, small) = match (reason, rule.small) {
            (Reason::Completed, Some((tiles, rates))) if tiles == size.tiles => (rates, true),
            (Reason::Completed, _) => (rule.complete, false),
            _ => (rule.incomplete.unwrap_or_default(), false),
        };
        let mut terms = Terms::default();
        let counted = [
            (size.tiles, Some(Unit::Tile), rates.per_tile),
            (size.segments, Some(Unit::Segment), rates.per_segment),
            (size.marks, rule.mark, rates.per_mark),
        ];
        for (count, unit, rate) in counted {
            if let Some(unit) = unit.filter(|_| count > 0 && rate > 0) {
                terms.push(Term { count, unit, rate });
            }
        }
        (terms, small)
    }

    /// What the feature of `s` pays its owners by its own rule, whether or not anyone owns it
    /// (a part's bonus aside): for the board's "what is this worth" notes. Completed, it pays
    /// what scoring a completed feature pays (`Game::terms`, as during play): a cloister,
    /// garden or farm the nine tiles it then covers; a road, city, town or trail at least one
    /// more tile for each empty square it reaches, the fewest that can close it (the start
    /// tile's city closed by a cap is a two-tile city).
    pub fn worth(&self, s: SegId) -> Worth {
        let kind = self.features.kind(s);
        let rule = self.rules.feature(kind);
        let mut scratch = Vec::new();
        let mut points = |reason, added| self.terms(s, &rule, reason, added, &mut scratch).0.points();
        let completed = match rule.completes {
            Completion::ClosedEdges => self.features.is_complete(s),
            Completion::Surrounded => self.surrounding(self.segment_place(s).0) == 8,
            Completion::Never => false,
        };
        let closing_tiles = match rule.completes {
            Completion::ClosedEdges if !completed => self.open_squares(s).len() as u32,
            _ => 0,
        };
        Worth {
            at_end: rule
                .incomplete
                .filter(|_| !completed)
                .map(|_| points(Reason::Incomplete, 0)),
            completed: (rule.completes != Completion::Never).then(|| points(Reason::Completed, closing_tiles)),
            is_complete: completed,
        }
    }

    /// The empty squares the open sides of the road, city, town or trail of `s` face, each
    /// with the sides of that square the feature enters by (a side mask), sorted by square.
    /// A side facing New World's coast counts too: a square no tile can fill.
    pub fn open_squares(&self, s: SegId) -> Vec<(Pos, u8)> {
        let mut out: Vec<(Pos, u8)> = Vec::new();
        for m in self.features.members(s) {
            let t = &self.board.tiles()[self.features.tile_of(m) as usize];
            let sides = self.catalog.get(t.kind).oriented(t.rotation).sides[(m - t.first_segment) as usize];
            for side in Side::ALL {
                let q = t.pos.step(side);
                if sides & side.bit() != 0 && self.board.is_empty_at(q) {
                    out.push((q, side.opposite().bit()));
                }
            }
        }
        out.sort_unstable();
        // A square the feature enters from two sides is one square; one tile there closes both.
        out.dedup_by(|b, a| {
            let same = a.0 == b.0;
            if same {
                a.1 |= b.1;
            }
            same
        });
        out
    }

    pub(super) fn award(&mut self, score: Score, events: &mut Vec<Event>) {
        for p in score.players.iter() {
            self.players[p as usize].score += score.points as i32;
        }
        events.push(Event::Scored(score));
    }

    /// Scores the feature of `s` during play, then runs what follows each scored feature.
    fn score_and_return(&mut self, s: SegId, reason: Reason, phase: Phase, events: &mut Vec<Event>) {
        let rule = self.rules.feature(self.features.kind(s));
        let score = self.feature_score(s, &rule, reason, phase);
        if let Some(score) = score {
            self.award_with_bonuses(s, score, events);
        }
        self.after_scored(s, &rule, score.is_some(), events);
    }

    /// Awards a feature's score during play with the terms the parts add per player (New
    /// World's surveyor bonus). Players whose bonuses differ get a score each, in the order
    /// their bonuses first appear.
    fn award_with_bonuses(&mut self, s: SegId, score: Score, events: &mut Vec<Event>) {
        let mut groups = [(None::<Term>, Players::default()); MAX_PLAYERS];
        let mut n = 0;
        for p in score.players.iter() {
            let bonus = self.parts.bonus(self, s, p);
            let i = match groups[..n].iter().position(|(b, _)| *b == bonus) {
                Some(i) => i,
                None => {
                    groups[n].0 = bonus;
                    n += 1;
                    n - 1
                }
            };
            groups[i].1.insert(p);
        }
        for &(bonus, players) in &groups[..n] {
            let mut split = score;
            if let Some(term) = bonus {
                split.terms.push(term);
            }
            split.players = players;
            split.points = split.terms.points();
            self.award(split, events);
        }
    }

    /// The hook after each feature scored during play, before the next feature of the same
    /// turn is looked at: its meeples go home when its kind's do. Then the parts' step
    /// follows (in New World a surveyor moves west, and the settlers it leaves behind go home
    /// before the next feature scores: rulebook example B2). A feature completed with nobody
    /// on it moves nothing.
    fn after_scored(&mut self, s: SegId, rule: &FeatureRule, scored: bool, events: &mut Vec<Event>) {
        if rule.returns_meeples {
            let mut m = s;
            loop {
                self.return_meeple(m, false, events);
                m = self.features.next_member(m);
                if m == s {
                    break;
                }
            }
        }
        if scored && self.parts.after_scored(&self.board, events) {
            self.send_home_left_behind(events);
        }
    }

    /// Every standing meeple a part has left behind (`Part::left_behind`) goes home; those
    /// that never go home during play (New World's trappers) stay.
    fn send_home_left_behind(&mut self, events: &mut Vec<Event>) {
        for s in 0..self.features.len() as SegId {
            let standing =
                self.features.meeple_on(s).is_some() && self.rules.feature(self.features.kind(s)).returns_meeples;
            if standing
                && self
                    .parts
                    .left_behind(self.board.tiles()[self.features.tile_of(s) as usize].pos)
            {
                self.return_meeple(s, true, events);
            }
        }
    }

    /// After a tile at board index `tile`: score every feature whose edges it closed, and every
    /// occupied one it surrounded (its own or a neighbour's).
    pub(super) fn score_completed(&mut self, tile: usize, events: &mut Vec<Event>) {
        let mut completed = self.completed_by(tile);
        self.parts.order_scoring(self, &mut completed);
        for s in completed {
            self.score_and_return(s, Reason::Completed, Phase::Play, events);
        }
    }

    /// Whether a meeple on `segment` of the tile at board index `tile`, the one just placed,
    /// would score this turn: its feature is completed. Only then can a deployment there
    /// change the points the turn gains.
    pub fn scores_this_turn(&self, tile: usize, segment: u8) -> bool {
        let s = self.segment_id(tile, segment);
        match completion(self.features.kind(s)) {
            Completion::ClosedEdges => self.features.is_complete(s),
            Completion::Surrounded => self.surrounding(self.board.tiles()[tile].pos) == 8,
            Completion::Never => false,
        }
    }

    /// The features a tile at board index `tile` completed, in board order: those whose
    /// edges it closed, then the occupied ones it surrounded (its own or a neighbour's).
    fn completed_by(&self, tile: usize) -> Vec<SegId> {
        let mut completed = Vec::new();
        let placed = self.board.tiles()[tile];
        let n = self.catalog.get(placed.kind).segments.len() as SegId;
        let segments = placed.first_segment..placed.first_segment + n;
        for s in segments.clone() {
            let closes = completion(self.features.kind(s)) == Completion::ClosedEdges;
            if !closes || !self.features.is_complete(s) {
                continue;
            }
            // Two segments of this tile may lie in one feature: score it once.
            let root = self.features.root(s);
            if segments
                .clone()
                .take_while(|&e| e < s)
                .any(|e| self.features.root(e) == root)
            {
                continue;
            }
            completed.push(s);
        }
        for pos in std::iter::once(placed.pos).chain(placed.pos.ring()) {
            let Some(i) = self.board.tile_index_at(pos) else {
                continue;
            };
            let t = self.board.tiles()[i];
            let n = self.catalog.get(t.kind).segments.len() as SegId;
            for s in t.first_segment..t.first_segment + n {
                let surrounds = completion(self.features.kind(s)) == Completion::Surrounded;
                if surrounds && self.features.meeple_on(s).is_some() && self.surrounding(pos) == 8 {
                    completed.push(s);
                }
            }
        }
        completed
    }

    /// The current player takes the abbot back; it scores like an incomplete cloister.
    pub(super) fn recall_abbot(&mut self, events: &mut Vec<Event>) {
        let Some(s) = self.players[self.current_player() as usize].abbot_at else {
            return;
        };
        self.score_and_return(s, Reason::AbbotRecalled, Phase::Play, events);
    }
}
