//! The end of the game: final scoring ([`Game::finish`]), and the scores it would leave if the
//! game ended now ([`Game::end_scores`]), read without changing the game.
//!
//! Both walk the same awards (`Game::end_awards`), so the two cannot disagree. The bots and
//! the search ask the scores if the game ended for every candidate move and every horizon;
//! reading them costs a pass over the occupied features, where finishing a copy of the game
//! cost the copy, the events, and a board place for every score.

use super::events::{Event, Phase, Reason, Term, Terms, Unit};
use super::features::{Counts, MAX_PLAYERS, Players, SegId, majority};
use super::game::Game;
use super::rules::FarmScoring;
use super::scoring::Award;
use super::tile::FeatureKind;

impl Game {
    /// Final scoring: every occupied feature whose kind scores incomplete, then farms. Meeples
    /// stay on the board.
    pub fn finish(&mut self, events: &mut Vec<Event>) {
        let mut awards = Vec::new();
        let mut scratch = std::mem::take(&mut self.scratch);
        self.end_awards(&mut scratch, |a| awards.push(a));
        self.scratch = scratch;
        for a in awards {
            let score = self.placed_score(a, Phase::End);
            self.award(score, events);
        }
    }

    /// Each player's score if the game ended now, in seat order: what [`Game::finish`] would
    /// leave, the game unchanged.
    pub fn end_scores(&self) -> impl ExactSizeIterator<Item = i32> + use<> {
        let mut scores = [0; MAX_PLAYERS];
        for (score, p) in scores.iter_mut().zip(&self.players) {
            *score = p.score;
        }
        self.end_awards(&mut Vec::new(), |a| {
            for p in a.players.iter() {
                scores[p as usize] += a.terms.points() as i32;
            }
        });
        scores.into_iter().take(self.players.len())
    }

    /// Calls `award` with every score final scoring awards, in order: the occupied features
    /// whose kind scores incomplete, by root, then the farms.
    fn end_awards(&self, scratch: &mut Vec<u16>, mut award: impl FnMut(Award)) {
        let mut roots: Vec<SegId> = (self.features.occupied().iter())
            .filter(|&&s| self.rules.feature(self.features.kind(s)).incomplete.is_some())
            .map(|&s| self.features.root(s))
            .collect();
        roots.sort_unstable();
        roots.dedup();
        for s in roots {
            let rule = self.rules.feature(self.features.kind(s));
            if let Some(a) = self.feature_award(s, &rule, Reason::Incomplete, scratch) {
                award(a);
            }
        }
        match self.rules.farm_scoring {
            FarmScoring::PerField { points } => self.farm_awards_per_field(points, &mut award),
            FarmScoring::PerCity { points } => self.farm_awards_per_city(points, &mut award),
        }
    }

    /// Each occupied field with the completed cities it borders (city roots, sorted, unique).
    fn farms(&self) -> Vec<(SegId, Vec<SegId>)> {
        (self.occupied_fields().into_iter())
            .map(|f| (f, self.field_cities(f)))
            .collect()
    }

    /// The fields with a figure on them (roots, sorted, unique).
    pub fn occupied_fields(&self) -> Vec<SegId> {
        let mut fields: Vec<SegId> = (self.features.occupied().iter())
            .filter(|&&s| self.features.kind(s) == FeatureKind::Field)
            .map(|&s| self.features.root(s))
            .collect();
        fields.sort_unstable();
        fields.dedup();
        fields
    }

    /// The completed cities the field of `field` supplies (city roots, sorted, unique).
    pub fn field_cities(&self, field: SegId) -> Vec<SegId> {
        self.bordering_cities(field, true)
    }

    /// The open cities the field of `field` borders: each adds to its farm once completed
    /// (city roots, sorted, unique).
    pub fn field_open_cities(&self, field: SegId) -> Vec<SegId> {
        self.bordering_cities(field, false)
    }

    /// The cities the field of `field` borders, completed or open as `completed` says.
    fn bordering_cities(&self, field: SegId, completed: bool) -> Vec<SegId> {
        let mut cities = Vec::new();
        self.bordering_cities_into(field, completed, &mut cities);
        cities
    }

    /// `bordering_cities` into a buffer, so that scoring every farm allocates once.
    fn bordering_cities_into(&self, field: SegId, completed: bool, cities: &mut Vec<SegId>) {
        cities.clear();
        for m in self.features.members(field) {
            let t = self.board.tiles()[self.features.tile_of(m) as usize];
            let seg = &self.catalog.get(t.kind).segments[(m - t.first_segment) as usize];
            // A field borders a city or two, so its bits are walked, not all sixteen.
            let mut bits = seg.cities;
            while bits != 0 {
                let city = self.features.root(t.first_segment + bits.trailing_zeros() as SegId);
                bits &= bits - 1;
                if self.features.is_complete(city) == completed {
                    cities.push(city);
                }
            }
        }
        cities.sort_unstable();
        cities.dedup();
    }

    /// What a farm scores: `cities` completed cities at `per_city` points each.
    fn farm_award(field: SegId, players: Players, meeples: Counts, cities: u32, per_city: u32) -> Award {
        let mut terms = Terms::default();
        terms.push(Term {
            count: cities,
            unit: Unit::City,
            rate: per_city,
        });
        Award {
            s: field,
            feature: FeatureKind::Field,
            reason: Reason::Farm,
            players,
            meeples,
            terms,
            note: None,
        }
    }

    fn farm_awards_per_field(&self, points: u8, award: &mut impl FnMut(Award)) {
        let mut cities = Vec::new();
        for field in self.occupied_fields() {
            self.bordering_cities_into(field, true, &mut cities);
            let counts = self.features.count_meeples(field);
            let players = majority(&counts);
            if cities.is_empty() || players.is_empty() {
                continue;
            }
            award(Self::farm_award(
                field,
                players,
                counts,
                cities.len() as u32,
                points as u32,
            ));
        }
    }

    /// The classic rule: for each completed city, the most farmers over all the fields that
    /// supply it win `points`.
    fn farm_awards_per_city(&self, points: u8, award: &mut impl FnMut(Award)) {
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
            award(Self::farm_award(field, players, counts, 1, points as u32));
        }
    }
}
