//! What else a Card Game turn could have done: every legal action, what it does at once, and a
//! Monte Carlo value over positions the mover cannot tell apart (other hands, a face-down card
//! they did not play, and the deals to come are sampled, never read from the record).
//!
//! The values and the verdict are the one analysis (`analysis/weighing.rs`) over the Card Game's
//! futures (its `Sampled`); this module adds what the Card Game's report shows besides.

use super::report::{Listed, PlayerReport, ReportHead, TurnsLeft};
use super::sampled::Tally;
use super::sampled::{Sampled, Seeds};
use super::search::learned;
use super::weighing::{Weighing, weigh};
use super::win_chance::{
    CARD_SCALE, CARD_SCALE_RANDOM_PLAYOUTS, CARD_SCALE_TO_THE_END, CalibrationError, CalibrationSettings, Sample,
    Scale, outcome,
};
use super::{AnalysisError, run_parallel};
use crate::engine::GameKind;
use crate::engine::bots::{Policy, Rng, margin};
use crate::engine::cards::bots::{play_out, play_rounds, row_value, sample_hidden};
use crate::engine::cards::{Card, CardGame, CardMove};
use crate::record::Record;
use crate::replay::cards::Refusal;
use crate::selfplay::SelfPlayError;
use serde::{Deserialize, Serialize};
use std::ops::Range;

/// Samples per alternative by default: every alternative sees the same samples, so their
/// differences are not noise of the sampling.
pub const DEFAULT_SAMPLES: u32 = 64;

/// One action of a Card Game turn and what it is worth.
#[derive(Clone, Debug, PartialEq)]
pub struct Alternative {
    pub mv: CardMove,
    /// What a follower here would take now (the greedy bot's estimate); 0 for a card.
    pub secures: u32,
    /// Points each player scores at once, on average over the samples (only a round's last
    /// action scores, and a face-down card may be among what it takes).
    pub now: Vec<f64>,
    /// The mover's mean final margin over the samples, and its standard error.
    pub value: f64,
    pub stderr: f64,
}

/// A Card Game turn's alternatives, best first, and the verdict on the action played: the
/// played action against the best, weighed again on fresh samples (the best of many noisy
/// values leans high, see `analysis::Recheck`).
pub type TurnAnalysis = super::TurnAnalysis<Alternative, ()>;

impl AnalysisError<Refusal> {
    /// The error in the record's words.
    pub fn describe(&self, record: &Record<CardGame>) -> String {
        match self {
            AnalysisError::Replay(e) => e.describe(record),
            other => other.to_string(),
        }
    }
}

/// The position before turn `turn` (1-based), its round dealt, and the move played then.
fn position_before(record: &Record<CardGame>, turn: u32) -> Result<(CardGame, CardMove), AnalysisError<Refusal>> {
    let turns = record.moves.len() as u32;
    if turn == 0 || turn > turns {
        return Err(AnalysisError::NoSuchTurn { turn, turns });
    }
    let index = turn as usize - 1;
    let game = crate::replay::cards::position_at(record, index)?;
    Ok((game, record.moves[index].mv))
}

/// Analyses turn `turn` of a Card Game record with `samples` samples per alternative.
pub fn analyse_turn(
    record: &Record<CardGame>,
    turn: u32,
    samples: u32,
    seed: u64,
) -> Result<TurnAnalysis, AnalysisError<Refusal>> {
    let (game, played) = position_before(record, turn)?;
    Ok(analyse_position(&game, turn, Some(played), (samples, PLAYOUTS), seed))
}

/// Analyses the move due in `game` (`weigh`, every action weighed again on fresh samples),
/// `samples` futures an action, each played on as `future` says. It reads only what the mover
/// sees: their hand and the table; everything else is sampled.
pub fn analyse_position(
    game: &CardGame,
    turn: u32,
    played: Option<CardMove>,
    (samples, future): (u32, Future),
    seed: u64,
) -> TurnAnalysis {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let how = Weighing {
        per_move: samples,
        prune: false,
        playout: &future,
        seeds: Seeds::Spread(seed),
        threads: 0,
    };
    let played = played.and_then(|p| moves.iter().position(|m| *m == p));
    let judged = weigh(game, &moves, played, &how);
    TurnAnalysis {
        turn,
        player: game.current_player(),
        alternatives: (judged.listed.iter())
            .map(|l| alternative(game, moves[l.index], &l.tally, samples, how.seeds))
            .collect(),
        played: judged.played,
        chosen: judged.chosen,
        recheck: judged.recheck,
        facts: (),
    }
}

/// `mv` valued by `tally`, with what it secures and scores at once on `samples` of `seeds`.
fn alternative(game: &CardGame, mv: CardMove, tally: &Tally, samples: u32, seeds: Seeds) -> Alternative {
    let secures = match mv {
        CardMove::Follower { row } => row_value(game, row),
        _ => 0,
    };
    let mut now = vec![0.0; game.players().len()];
    for j in 0..samples {
        let (after, _) = dealt_and_played(game, mv, &mut Rng::new(seeds.of(j)));
        for ((n, a), b) in now.iter_mut().zip(after.players()).zip(game.players()) {
            *n += f64::from(a.score - b.score);
        }
    }
    Alternative {
        mv,
        secures,
        now: now.into_iter().map(|x| x / f64::from(samples.max(1))).collect(),
        value: tally.mean(),
        stderr: tally.std_error(),
    }
}

/// `mv` played on one sample of what its player cannot see: the sample, and the deck it has
/// left to deal. What the move scores at once depends on a face-down card the mover may not
/// know, so it is sampled too.
fn dealt_and_played(game: &CardGame, mv: CardMove, rng: &mut Rng) -> (CardGame, Vec<Card>) {
    let (mut sample, deck) = sample_hidden(game, game.current_player(), rng);
    sample.play(&mv, &mut Vec::new()).expect("the move is the mover's own");
    (sample, deck)
}

/// How a Card Game's sample plays its future out, everyone playing a greedy bot, so that
/// opponents answer as players would.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Future {
    /// To the end: the value is the final margin. Random playouts valued a position by how
    /// random players would finish it, and lost to the greedy bot itself (`match --game
    /// card-game --games 100 --seed 7`: 7% of games); played out greedy, the analysis beat it
    /// every game (+241 a game).
    ToTheEnd,
    /// To the end of the round under way by the patient bot (`Policy::Weighed`), valued there
    /// by the learned evaluation ([`learned`]): between two rounds a player is what they hold,
    /// which its features read. Played by the greedy bot, whose follower takes a row worth 12,
    /// the samples expected every player to take small rows early, the mover included.
    Horizon,
}

/// A Card Game's future: what the mover cannot see dealt at random, then the game played on by
/// a greedy bot for everyone, as [`Future`] says.
impl Sampled for CardGame {
    type Playout = Future;
    /// A turn has a few tens of actions at most, so the whole list shows values measured apart
    /// from the samples that chose the best.
    const RIVALS: usize = usize::MAX;

    fn sample(&self, mv: &CardMove, future: &Future, seeds: Seeds, futures: Range<u32>) -> Vec<i32> {
        let player = self.current_player();
        (futures.map(|j| {
            let mut rng = Rng::new(seeds.of(j));
            let (mut sample, deck) = dealt_and_played(self, *mv, &mut rng);
            match future {
                Future::ToTheEnd => {
                    play_out(&mut sample, &deck, Policy::Greedy, &mut rng);
                    margin(sample.players().iter().map(|p| p.score), player)
                }
                Future::Horizon => {
                    play_rounds(&mut sample, &deck, 1, Policy::Weighed, &mut rng);
                    let model = learned::for_game(GameKind::CardGame);
                    model.margin(&sample, player).round() as i32
                }
            }
        }))
        .collect()
    }
}

/// How the analysis's and the search's samples play on: to the end of the round. Valued
/// there, 64 samples an action beat 64 played to the end in 194 games of 200 (`match --game
/// card-game --a horizon --b flat`, seeds 211 and 221) in a quarter of the time.
pub const PLAYOUTS: Future = Future::Horizon;

/// A whole-game Card Game analysis, as reports write it (`analyse --json`, the service's stored
/// analysis). Estimates are rounded to 3 decimals.
pub type Report = super::report::Report<Head, AlternativeReport, TurnFacts>;

/// What a Card Game analysis says of the whole game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Head {
    /// The version of the analysis that made it ([`super::VERSION`]); 1 for analyses stored
    /// before versions were recorded.
    #[serde(default = "super::report::first_version")]
    pub version: u32,
    pub samples: u32,
    /// How the samples were played out: analyses stored before greedy playouts name none.
    #[serde(default)]
    pub playouts: Playouts,
    /// The win-chance scale the analysis was made with (`analysis/scales.json`). Absent from
    /// analyses stored before it was kept, which read on the scale fitted for their playouts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<Scale>,
    pub players: Vec<PlayerReport>,
}

impl ReportHead for Head {
    fn scale(&self) -> Scale {
        self.scale.unwrap_or_else(|| self.playouts.scale())
    }

    fn players(&self) -> &[PlayerReport] {
        &self.players
    }
}

/// A Card Game analysis without its alternatives: each player's summary and each turn's loss.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = CardSummary)]
pub struct Summary {
    /// The version of the analysis that made it; 1 before versions were recorded.
    version: u32,
    samples: u32,
    players: Vec<PlayerReport>,
    turns: Vec<TurnSummary>,
}

/// A turn of a Card Game analysis: the action played, in words, and what it lost.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = CardTurnSummary)]
pub struct TurnSummary {
    turn: u32,
    player: u8,
    played: Option<String>,
    points_lost: Option<f64>,
    /// Whether the best actions could not be separated.
    too_close: bool,
}

impl Report {
    /// The analysis without its alternatives, as the API gives it.
    pub fn summarised(self) -> Summary {
        let turns = (self.turns.into_iter())
            .map(|t| TurnSummary {
                turn: t.turn,
                player: t.player,
                played: t.played.and_then(|i| t.alternatives.get(i)).map(|a| a.action.clone()),
                points_lost: t.points_lost,
                too_close: t.too_close,
            })
            .collect();
        Summary {
            version: self.head.version,
            samples: self.head.samples,
            players: self.head.players,
            turns,
        }
    }
}

/// How a Card Game analysis's samples were played on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Playouts {
    /// To the end by random players, as analyses were played out before the greedy bot took
    /// over.
    #[default]
    Random,
    /// To the end by the greedy bot ([`Future::ToTheEnd`]), analyses before version 5.
    Greedy,
    /// To the end of the round by the greedy bot, then valued by the learned evaluation:
    /// analyses of versions 5 to 13.
    Horizon,
    /// To the end of the round by the patient bot, then valued by the learned evaluation
    /// ([`Future::Horizon`]), from version 14.
    Patient,
}

impl Playouts {
    /// How the samples were played on, in words.
    pub fn how(self) -> &'static str {
        match self {
            Playouts::Random => "played to the end by random players",
            Playouts::Greedy => "played to the end by the greedy bot for every player",
            Playouts::Horizon => {
                "played to the end of the round by the greedy bot for every player, then valued by \
                 the learned evaluation of the rounds to come"
            }
            Playouts::Patient => {
                "played to the end of the round by the patient bot for every player (the greedy \
                 one, but for its follower, which waits for a row worth 32 points), then valued \
                 by the learned evaluation of the rounds to come"
            }
        }
    }

    /// The win-chance scale fitted for values played on this way.
    fn scale(self) -> Scale {
        match self {
            Playouts::Random => CARD_SCALE_RANDOM_PLAYOUTS,
            Playouts::Greedy => CARD_SCALE_TO_THE_END,
            Playouts::Horizon | Playouts::Patient => CARD_SCALE,
        }
    }
}

impl From<Future> for Playouts {
    fn from(future: Future) -> Playouts {
        match future {
            Future::ToTheEnd => Playouts::Greedy,
            Future::Horizon => Playouts::Patient,
        }
    }
}

/// A Card Game turn's report: its actions, best first, and the verdict on the one played.
pub type TurnReport = super::report::TurnReport<AlternativeReport, TurnFacts>;

/// What a Card Game turn's report says besides its actions and verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TurnFacts {
    pub samples: u32,
    /// The mover's chance of winning after the action played, by the scale of the report's
    /// playouts; set by [`analyse_game`] only (a turn alone does not know the turns to come).
    /// Absent from analyses stored before it was reported.
    #[serde(default)]
    pub win_chance: Option<f64>,
}

impl TurnsLeft for TurnFacts {
    fn left(&self, turn: u32, total: u32) -> u32 {
        total.saturating_sub(turn)
    }
}

impl TurnReport {
    /// Each alternative's rank, from the values listed: a Card Game report keeps none.
    pub fn ranks(&self) -> Vec<u32> {
        super::verdict::ranks(self.alternatives.iter().map(|a| a.value))
    }

    /// The rank of the action played.
    pub fn played_rank(&self) -> Option<u32> {
        Some(*self.ranks().get(self.played?)?)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AlternativeReport {
    /// The action in words: "red 3 → road row".
    #[serde(rename = "move")]
    pub action: String,
    pub secures: u32,
    pub now: Vec<f64>,
    pub value: f64,
    pub stderr: f64,
}

impl Listed for AlternativeReport {
    fn value(&self) -> f64 {
        self.value
    }

    /// A Card Game's values are always sampled.
    fn sampled(&self) -> bool {
        true
    }
}

fn round(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

impl TurnAnalysis {
    /// What the action played lost against the best, rechecked on fresh samples: 0 within
    /// the noise.
    pub fn points_lost(&self) -> Option<f64> {
        self.recheck.map(|r| r.points_lost)
    }

    pub fn report(&self, samples: u32) -> TurnReport {
        TurnReport {
            turn: self.turn,
            player: self.player,
            facts: TurnFacts {
                samples,
                win_chance: None,
            },
            played: self.played,
            points_lost: self.points_lost().map(|lost| {
                let played = self.played.and_then(|p| self.alternatives.get(p));
                let listed = (self.alternatives.first()).zip(played).map(|(f, p)| (f.value, p.value));
                super::report::listed_loss(lost, listed)
            }),
            too_close: self.recheck.is_some_and(|r| r.too_close),
            alternatives: (self.alternatives.iter())
                .map(|a| AlternativeReport {
                    action: crate::replay::cards::move_text(&a.mv),
                    secures: a.secures,
                    now: a.now.iter().copied().map(round).collect(),
                    value: round(a.value),
                    stderr: round(a.stderr),
                })
                .collect(),
        }
    }
}

/// Analyses every turn of a Card Game with `samples` samples per alternative, telling
/// `progress` (turns done, turns in all) as it goes. Turn `n` is sampled from seed `n`, so a
/// turn analysed alone gives the same values.
pub fn analyse_game(
    record: &Record<CardGame>,
    samples: u32,
    progress: super::Progress,
) -> Result<Report, AnalysisError<Refusal>> {
    let total = record.moves.len() as u32;
    let mut turns = Vec::with_capacity(record.moves.len());
    let mut judged = Vec::new();
    for n in 1..=total {
        let t = analyse_turn(record, n, samples, u64::from(n))?;
        if let (Some(_), Some(lost)) = (t.played, t.points_lost()) {
            judged.push((t.player, lost == 0.0, lost));
        }
        turns.push(t.report(samples));
        if progress(n, total).is_break() {
            return Err(AnalysisError::Stopped(n));
        }
    }
    let players = super::turn::summaries(record.players.len(), judged);
    let scale = Scale::current(GameKind::CardGame);
    for t in &mut turns {
        let played = t.played.and_then(|i| t.alternatives.get(i));
        t.facts.win_chance = played.map(|a| round(scale.chance(a.value, total.saturating_sub(t.turn))));
    }
    Ok(Report {
        head: Head {
            version: super::VERSION,
            samples,
            playouts: PLAYOUTS.into(),
            scale: Some(scale),
            players: players.iter().map(PlayerReport::from).collect(),
        },
        turns,
    })
}

/// Values every `every`-th action played in `s.games` Card Games, game `g` played by
/// `play(seed + g)`, the way the analysis values it, paired with how the game ended for its
/// player: what `calibrate --game card-game` fits [`CARD_SCALE`] on. The turns valued shift by
/// one from game to game, so that every seat is valued.
pub fn chance_samples(
    s: &CalibrationSettings,
    play: &dyn Fn(u64) -> Result<Record<CardGame>, SelfPlayError>,
    progress: &dyn Fn(u32, u32),
) -> Result<Vec<Sample>, CalibrationError> {
    let mut out = Vec::new();
    for g in 0..s.games {
        let seed = s.seed.wrapping_add(u64::from(g));
        let record = play(seed)?;
        let not_replayed = |e: AnalysisError<Refusal>| CalibrationError::Replay(e.describe(&record));
        let scores = (crate::replay::cards::replay(&record))
            .map_err(|e| not_replayed(e.into()))?
            .final_scores;
        let total = record.moves.len() as u32;
        let turns: Vec<u32> = (1..=total).filter(|n| (n + g) % s.every == 0).collect();
        let valued = run_parallel(turns.len(), s.threads, |i| -> Result<Sample, CalibrationError> {
            let n = turns[i];
            let (game, played) = position_before(&record, n).map_err(not_replayed)?;
            let player = game.current_player();
            let margins = game.sample(&played, &PLAYOUTS, Seeds::Spread(seed ^ u64::from(n)), 0..s.playouts);
            Ok(Sample {
                margin: margins.iter().map(|&m| f64::from(m)).sum::<f64>() / f64::from(s.playouts.max(1)),
                left: total - n,
                outcome: outcome(&scores, player),
            })
        });
        out.extend(valued.into_iter().collect::<Result<Vec<_>, _>>()?);
        progress(g + 1, s.games);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::halving::SearchOptions;
    use crate::engine::cards::{CardSetup, Colour};

    /// Two deals that differ only in what the mover cannot see.
    fn dealt(other: &[Card]) -> CardGame {
        let face_up: Vec<(Card, Colour)> = [
            (Card::Animal(Colour::Road), Colour::Road),
            (
                Card::Person {
                    colour: Colour::Road,
                    value: 3,
                },
                Colour::Road,
            ),
            (Card::Building(Colour::City), Colour::City),
            (
                Card::Person {
                    colour: Colour::Farm,
                    value: 1,
                },
                Colour::Farm,
            ),
            (Card::Dragon, Colour::Farm),
            (Card::Animal(Colour::Cloister), Colour::Cloister),
            (
                Card::Person {
                    colour: Colour::City,
                    value: 2,
                },
                Colour::City,
            ),
            (Card::Building(Colour::Road), Colour::Road),
            (Card::Animal(Colour::Farm), Colour::Farm),
            (Card::CityJoker, Colour::Cloister),
        ]
        .to_vec();
        let mut g = CardGame::new(CardSetup {
            players: 2,
            dealer: 1,
            face_up,
        })
        .unwrap();
        let own = vec![
            Card::Person {
                colour: Colour::Road,
                value: 1
            };
            3
        ]
        .into_iter()
        .chain([Card::Fairy, Card::Animal(Colour::City), Card::Building(Colour::Farm)])
        .collect();
        g.deal(vec![own, other.to_vec()], &mut Vec::new()).unwrap();
        g
    }

    /// Two positions that differ only in the other player's hand.
    fn two_deals() -> (CardGame, CardGame) {
        let person = |colour, value| Card::Person { colour, value };
        let a = dealt(&[person(Colour::City, 1); 6]);
        let b = dealt(&[
            Card::AnimalJoker,
            person(Colour::Cloister, 3),
            Card::Building(Colour::Cloister),
            person(Colour::Farm, 2),
            Card::Animal(Colour::Road),
            person(Colour::City, 3),
        ]);
        assert_ne!(a.players()[1].hand, b.players()[1].hand);
        (a, b)
    }

    #[test]
    fn the_analysis_never_reads_what_the_mover_cannot_see() {
        let (a, b) = two_deals();
        let (x, y) = (
            analyse_position(&a, 1, None, (16, PLAYOUTS), 7),
            analyse_position(&b, 1, None, (16, PLAYOUTS), 7),
        );
        assert_eq!(x, y, "other hands and the deals to come are sampled, never read");
        assert_eq!(
            x.alternatives.len(),
            4 * 4 + 4,
            "four different cards in any row (the first goes face down), and the follower in any"
        );
        assert!(x.alternatives.iter().all(|alt| alt.stderr.is_finite()));
    }

    /// The search, too, reads only what the mover sees; it weighs every action and gives the
    /// same answer on any number of threads.
    #[test]
    fn the_search_never_reads_what_the_mover_cannot_see() {
        let (a, b) = two_deals();
        let search = |game: &CardGame, threads| {
            let options = SearchOptions {
                budget: crate::analysis::halving::Budget::Samples(400),
                seed: 9,
                threads,
            };
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            crate::analysis::weighing::search(game, &moves, &options, &PLAYOUTS).unwrap()
        };
        let x = search(&a, 2);
        assert_eq!(x, search(&b, 1), "other hands are sampled, never read");
        assert_eq!(x.moves.len(), 4 * 4 + 4, "every action enters");
        let (best, second) = (x.moves[0].1, x.moves[1].1);
        assert!(best.count == second.count && best.mean() >= second.mean());
    }

    /// Playing the analysis's own best action loses nothing, and a turn's chance follows its
    /// rechecked points lost: nothing lost is a good move.
    #[test]
    fn the_best_action_loses_nothing_and_chances_follow_the_recheck() {
        let record = crate::selfplay::card_game(2, Policy::Greedy, 3).unwrap();
        let (game, _) = position_before(&record, 9).unwrap();
        let ranked = analyse_position(&game, 9, None, (16, PLAYOUTS), 5);
        assert_eq!(ranked.recheck, None, "no action played, nothing to recheck");
        let best = ranked.alternatives[0].mv;
        let played_best = analyse_position(&game, 9, Some(best), (16, PLAYOUTS), 5);
        assert_eq!(played_best.played, Some(0));
        assert_eq!(played_best.points_lost(), Some(0.0));

        let report = analyse_game(&record, 8, &crate::analysis::quiet).unwrap();
        let total = record.moves.len() as u32;
        let chances = report.chances(None);
        assert_eq!(chances.len(), record.moves.len(), "every turn's action was valued");
        for (c, t) in chances.iter().zip(&report.turns) {
            assert_eq!((c.turn, c.player), (t.turn, t.player));
            assert!((0.0..=1.0).contains(&c.chance.after));
            if t.points_lost == Some(0.0) {
                assert_eq!(c.chance.lost, 0.0, "turn {}: nothing lost, no chance lost", t.turn);
            }
        }
        assert!(
            report.turns.iter().any(|t| t.points_lost == Some(0.0)),
            "some actions are within the noise of the best"
        );

        // An analysis stored before greedy playouts names none (nor the scale it was read on):
        // its values are random players' margins, and keep the scale fitted for them.
        assert_eq!(report.head.scale, Some(CARD_SCALE), "a new analysis stores its scale");
        let mut stored = serde_json::to_value(&report).unwrap();
        stored.as_object_mut().unwrap().remove("playouts");
        stored.as_object_mut().unwrap().remove("scale");
        let old: Report = serde_json::from_value(stored).unwrap();
        assert_eq!(old.head.playouts, Playouts::Random);
        let t = &old.turns[0];
        let value = t.alternatives[t.played.unwrap()].value;
        let lost = t.points_lost.unwrap_or(0.0);
        let left = total - t.turn;
        assert_eq!(
            old.chances(None)[0].chance,
            CARD_SCALE_RANDOM_PLAYOUTS.move_chance(value, lost, left)
        );
        assert_eq!(chances[0].chance, CARD_SCALE.move_chance(value, lost, left));
    }

    /// A stored analysis reads its chances on the scale fitted to how its samples were played:
    /// one stored before the learned evaluation (`"playouts": "greedy"`) keeps its own, and one
    /// stored before playouts were named was played out by random players.
    #[test]
    fn stored_analyses_keep_the_scale_of_their_samples() {
        let stored = |playouts: &str| -> Report {
            let field = if playouts.is_empty() {
                String::new()
            } else {
                format!(r#""playouts": "{playouts}","#)
            };
            serde_json::from_str(&format!(
                r#"{{"version": 4, "samples": 64, {field} "players": [], "turns": []}}"#
            ))
            .unwrap()
        };
        for (playouts, scale) in [
            ("", CARD_SCALE_RANDOM_PLAYOUTS),
            ("greedy", CARD_SCALE_TO_THE_END),
            ("horizon", CARD_SCALE),
            ("patient", CARD_SCALE),
        ] {
            assert_eq!(stored(playouts).head.scale(), scale, "{playouts:?}");
        }
        assert_eq!(Playouts::from(PLAYOUTS), Playouts::Patient, "today's analysis says so");
        assert_ne!(CARD_SCALE, CARD_SCALE_TO_THE_END);
    }
}
