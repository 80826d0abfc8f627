//! Scoring: completed features during play, the abbot's recall, and final scoring. Every
//! number comes from `Rules`; no edition has its own copy of this code.

use super::events::{Event, Note, Phase, Reason, Score, Term, Terms, Unit};
use super::features::{Counts, Players, SegId, majority};
use super::game::Game;
use super::rules::{FarmScoring, TwoTileCity};
use super::tile::FeatureKind;

/// Points for a city, and whether the reduced two-tile rate applied.
fn city_rate(two_tile: TwoTileCity, tiles: u32, complete: bool) -> (u32, bool) {
    let reduced = complete && tiles == 2 && two_tile == TwoTileCity::Reduced;
    if complete && !reduced { (2, false) } else { (1, reduced) }
}

impl Game {
    /// The categories a score breakdown of the tile game has, in order: one per kind of
    /// feature that scores (`Score::category`).
    pub const CATEGORIES: &'static [&'static str] = &["road", "city", "cloister", "garden", "field"];

    /// Builds the score of a road, city, cloister or garden containing segment `s`, or `None`
    /// when nobody has a meeple on it.
    fn feature_score(&mut self, s: SegId, reason: Reason, phase: Phase) -> Option<Score> {
        let meeples = self.features.count_meeples(s);
        let players = majority(&meeples);
        if players.is_empty() {
            return None;
        }
        let kind = self.features.kind(s);
        let complete = reason == Reason::Completed;
        let (tiles, shields) = if kind.is_inner() {
            let pos = self.board.tiles()[self.features.tile_of(s) as usize].pos;
            (1 + self.board.neighbours_around(pos), 0)
        } else {
            self.features.size(s, &mut self.scratch)
        };
        let (rate, reduced) = match kind {
            FeatureKind::City => city_rate(self.rules.two_tile_city, tiles, complete),
            _ => (1, false),
        };
        let mut terms = Terms::default();
        terms.push(Term {
            count: tiles,
            unit: Unit::Tile,
            rate,
        });
        if shields > 0 {
            terms.push(Term {
                count: shields,
                unit: Unit::Shield,
                rate,
            });
        }
        let (pos, location) = self.segment_place(s);
        Some(Score {
            feature: kind,
            reason,
            phase,
            players,
            points: terms.points(),
            meeples,
            terms,
            note: reduced.then_some(Note::TwoTileCity),
            pos,
            location,
        })
    }

    fn award(&mut self, score: Score, events: &mut Vec<Event>) {
        for p in score.players.iter() {
            self.players[p as usize].score += score.points as i32;
        }
        events.push(Event::Scored(score));
    }

    /// Scores the feature of `s` and sends its meeples home.
    fn score_and_return(&mut self, s: SegId, reason: Reason, phase: Phase, events: &mut Vec<Event>) {
        if let Some(score) = self.feature_score(s, reason, phase) {
            self.award(score, events);
        }
        let mut m = s;
        loop {
            self.return_meeple(m, events);
            m = self.features.next_member(m);
            if m == s {
                break;
            }
        }
    }

    /// After a tile at board index `tile`: score every road and city it completed and every
    /// cloister or garden it surrounded.
    pub(super) fn score_completed(&mut self, tile: usize, events: &mut Vec<Event>) {
        let placed = self.board.tiles()[tile];
        let n = self.catalog.get(placed.kind).segments.len() as SegId;
        let segments = placed.first_segment..placed.first_segment + n;
        for s in segments.clone() {
            let kind = self.features.kind(s);
            if !matches!(kind, FeatureKind::City | FeatureKind::Road) || !self.features.is_complete(s) {
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
            self.score_and_return(s, Reason::Completed, Phase::Play, events);
        }
        for pos in std::iter::once(placed.pos).chain(placed.pos.ring()) {
            let Some(i) = self.board.tile_index_at(pos) else {
                continue;
            };
            let t = self.board.tiles()[i];
            let n = self.catalog.get(t.kind).segments.len() as SegId;
            for s in t.first_segment..t.first_segment + n {
                let occupied_inner = self.features.kind(s).is_inner() && self.features.meeple_on(s).is_some();
                if occupied_inner && self.board.neighbours_around(pos) == 8 {
                    self.score_and_return(s, Reason::Completed, Phase::Play, events);
                }
            }
        }
    }

    /// The current player takes the abbot back; it scores like an incomplete cloister.
    pub(super) fn recall_abbot(&mut self, events: &mut Vec<Event>) {
        let Some(s) = self.players[self.current_player() as usize].abbot_at else {
            return;
        };
        self.score_and_return(s, Reason::AbbotRecalled, Phase::Play, events);
    }

    /// Final scoring: incomplete roads, cities, cloisters and gardens, then farms. Meeples stay
    /// on the board.
    pub fn finish(&mut self, events: &mut Vec<Event>) {
        let mut roots: Vec<SegId> = (0..self.features.len() as SegId)
            .filter(|&s| self.features.meeple_on(s).is_some() && self.features.kind(s) != FeatureKind::Field)
            .map(|s| self.features.root(s))
            .collect();
        roots.sort_unstable();
        roots.dedup();
        for s in roots {
            if let Some(score) = self.feature_score(s, Reason::Incomplete, Phase::End) {
                self.award(score, events);
            }
        }
        match self.rules.farm_scoring {
            FarmScoring::PerField { points } => self.score_farms_per_field(points, events),
            FarmScoring::PerCity { points } => self.score_farms_per_city(points, events),
        }
    }

    /// Each occupied field with the completed cities it borders (city roots, sorted, unique).
    fn farms(&self) -> Vec<(SegId, Vec<SegId>)> {
        let mut fields: Vec<SegId> = (0..self.features.len() as SegId)
            .filter(|&s| self.features.kind(s) == FeatureKind::Field && self.features.meeple_on(s).is_some())
            .map(|s| self.features.root(s))
            .collect();
        fields.sort_unstable();
        fields.dedup();
        fields
            .into_iter()
            .map(|f| {
                let mut cities: Vec<SegId> = Vec::new();
                for m in self.features.members(f) {
                    let t = self.board.tiles()[self.features.tile_of(m) as usize];
                    let seg = &self.catalog.get(t.kind).segments[(m - t.first_segment) as usize];
                    for c in (0..16).filter(|c| seg.cities & (1 << c) != 0) {
                        let city = t.first_segment + c;
                        if self.features.is_complete(city) {
                            cities.push(self.features.root(city));
                        }
                    }
                }
                cities.sort_unstable();
                cities.dedup();
                (f, cities)
            })
            .collect()
    }

    fn farm_score(&self, field: SegId, players: Players, meeples: Counts, cities: u32, per_city: u32) -> Score {
        let (pos, location) = self.segment_place(field);
        let mut terms = Terms::default();
        terms.push(Term {
            count: cities,
            unit: Unit::City,
            rate: per_city,
        });
        Score {
            feature: FeatureKind::Field,
            reason: Reason::Farm,
            phase: Phase::End,
            players,
            points: terms.points(),
            meeples,
            terms,
            note: None,
            pos,
            location,
        }
    }

    fn score_farms_per_field(&mut self, points: u8, events: &mut Vec<Event>) {
        for (field, cities) in self.farms() {
            let counts = self.features.count_meeples(field);
            let players = majority(&counts);
            if cities.is_empty() || players.is_empty() {
                continue;
            }
            let score = self.farm_score(field, players, counts, cities.len() as u32, points as u32);
            self.award(score, events);
        }
    }

    /// The classic rule: for each completed city, the most farmers over all the fields that
    /// supply it win `points`.
    fn score_farms_per_city(&mut self, points: u8, events: &mut Vec<Event>) {
        let farms = self.farms();
        let mut cities: Vec<SegId> = farms.iter().flat_map(|(_, c)| c.iter().copied()).collect();
        cities.sort_unstable();
        cities.dedup();
        for city in cities {
            let mut counts: Counts = Default::default();
            let mut first_field = None;
            for (field, _) in farms.iter().filter(|(_, c)| c.contains(&city)) {
                first_field.get_or_insert(*field);
                let field_counts = self.features.count_meeples(*field);
                counts.iter_mut().zip(&field_counts).for_each(|(a, b)| *a += b);
            }
            let players = majority(&counts);
            let field = first_field.expect("every listed city has a supplying field");
            let score = self.farm_score(field, players, counts, 1, points as u32);
            self.award(score, events);
        }
    }
}
