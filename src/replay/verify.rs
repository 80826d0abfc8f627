//! Checks a replay against the scores the record's source computed itself, when it kept any
//! (Board Game Arena logs do: `GameRecord::recorded_scores`). A difference means a bug in the
//! import or a rules difference, and is an error naming the first turn that differs.

use super::Replay;
use crate::engine::TileCategory;
use crate::record::{GameRecord, RecordedScores};

/// How a replay disagrees with the scores its source recorded. Scores are in words, each
/// player's name with their points ("Ada 12, Bob 9").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScoreMismatch {
    #[error(
        "{when}: {site} recorded {theirs}, our replay has {ours}. The import or the rules differ from {site}: the game \
         is not stored. /docs/board-game-arena#when-the-scores-disagree says what may cause it and what to send to \
         report it"
    )]
    Scores {
        when: String,
        site: &'static str,
        theirs: String,
        ours: String,
    },
    #[error("{site} scored the end of the game, but our replay did not run final scoring")]
    NoFinalScoring { site: &'static str },
    #[error(
        "{player}'s points by category (road/city/cloister/field): {site} recorded {theirs}, our replay has {ours}"
    )]
    Categories {
        player: String,
        site: &'static str,
        theirs: String,
        ours: String,
    },
}

/// Compares Board Game Arena's scores, kept at import, with a replay of the record: after
/// every turn, after final scoring, and the final points by category. The error names the
/// first turn that differs. Records from elsewhere carry no scores and always pass.
pub fn recorded_scores(record: &GameRecord, replay: &Replay) -> Result<(), ScoreMismatch> {
    let Some(rec) = &record.setup.recorded_scores else {
        return Ok(());
    };
    let scores = |s: &[i32]| -> String {
        let parts: Vec<String> = record
            .players
            .iter()
            .zip(s)
            .map(|(p, s)| format!("{} {s}", p.name))
            .collect();
        parts.join(", ")
    };
    let differ = |when: String, theirs: &[i32], ours: &[i32]| ScoreMismatch::Scores {
        when,
        site: rec.source,
        theirs: scores(theirs),
        ours: scores(ours),
    };
    for (t, want) in replay.turns.iter().zip(&rec.turns) {
        if let Some(want) = want.as_deref().filter(|w| *w != t.scores.as_slice()) {
            let who = record.players.get(t.player as usize).map_or("?", |p| p.name.as_str());
            let tile = record.setup.catalog.name(t.mv.tile);
            let when = format!(
                "turn {} ({who}, tile {tile} at {} rotated {})",
                t.turn, t.mv.placement.pos, t.mv.placement.rotation
            );
            return Err(differ(when, want, &t.scores));
        }
    }
    let end_scores = [
        ("after final scoring, by its running scores", &rec.running_after_end),
        ("in its final result", &rec.final_scores),
    ];
    for (when, want) in end_scores {
        let Some(want) = want else { continue };
        if !replay.finished {
            return Err(ScoreMismatch::NoFinalScoring { site: rec.source });
        }
        if *want != replay.final_scores {
            return Err(differ(
                format!("at the end of the game ({when})"),
                want,
                &replay.final_scores,
            ));
        }
    }
    check_categories(record, replay, rec)
}

fn check_categories(record: &GameRecord, replay: &Replay, rec: &RecordedScores) -> Result<(), ScoreMismatch> {
    let Some(want) = &rec.categories else {
        return Ok(());
    };
    for ((p, want), b) in record.players.iter().zip(want).zip(&replay.breakdown) {
        let all = b.both();
        let sum = |categories: &[TileCategory]| categories.iter().map(|&c| all.get(c)).sum::<u32>() as i32;
        // Board Game Arena counts gardens with cloisters.
        let ours = [
            sum(&[TileCategory::Road]),
            sum(&[TileCategory::City]),
            sum(&[TileCategory::Cloister, TileCategory::Garden]),
            sum(&[TileCategory::Field]),
        ];
        if ours != *want {
            let show = |c: &[i32; 4]| format!("{}/{}/{}/{}", c[0], c[1], c[2], c[3]);
            return Err(ScoreMismatch::Categories {
                player: p.name.clone(),
                site: rec.source,
                theirs: show(want),
                ours: show(&ours),
            });
        }
    }
    Ok(())
}
