//! `match --b build:PATH`: another build of this program takes B's seats, asked move by move
//! through its command line, as the pages' analysis of an earlier release would answer. Each
//! move, the game so far is written as a native record, with the first legal move as the
//! turn's placeholder, and the build's `analyse FILE --turn N --json` names its choice: `best`
//! where it states one, else its list's first move (an earlier release's list, whose moves
//! weighed again on fresh samples come first). The match checks every move it plays.

use crate::analysis::alternatives;
use crate::analysis::arena::Outside;
use crate::analysis::report::ActionReport;
use crate::engine::bots::{Policy, Rng};
use crate::engine::cards::bots as card_bots;
use crate::engine::cards::{CardGame, CardMove};
use crate::engine::{Game, Move, TileKindId};
use crate::export::Export;
use crate::record::Record;
use crate::record::cards::RecordedCardMove;
use crate::record::{GameRecord, RecordedMove, recorded};
use crate::replay::cards::move_text;
use crate::selfplay::SelfPlayError;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

/// A build of the program at `path`, with `args` added to each `analyse` it is asked.
pub struct Build {
    path: PathBuf,
    args: Vec<String>,
    /// Where the record so far is written for it; removed when the match ends.
    file: PathBuf,
}

impl Build {
    pub fn new(path: PathBuf, args: Vec<String>) -> Build {
        let file = std::env::temp_dir().join(format!("carcassonne-replay-match-{}.json", std::process::id()));
        Build { path, args, file }
    }

    /// The build's analysis of move `turn` of `record`, as JSON.
    fn analyse(&self, record: &str, turn: u32) -> Result<Value, SelfPlayError> {
        let failed = |why: String| SelfPlayError::Outside { turn, why };
        std::fs::write(&self.file, record).map_err(|e| failed(format!("{}: {e}", self.file.display())))?;
        let out = Command::new(&self.path)
            .arg("analyse")
            .arg(&self.file)
            .args(["--turn", &turn.to_string(), "--json"])
            .args(&self.args)
            .output()
            .map_err(|e| failed(format!("{}: {e}", self.path.display())))?;
        if !out.status.success() {
            return Err(failed(String::from_utf8_lossy(&out.stderr).trim().to_string()));
        }
        serde_json::from_slice(&out.stdout).map_err(|e| failed(format!("its answer is not JSON: {e}")))
    }
}

impl Drop for Build {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.file);
    }
}

/// The tile-game moves an answer names, in the order the build would play them.
fn tile_choices(answer: &Value) -> Vec<&Value> {
    if let Some(best) = answer.get("best").filter(|b| !b.is_null()) {
        return vec![best];
    }
    let listed: Vec<&Value> = answer["alternatives"]
        .as_array()
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    // Releases before `best`: the moves weighed again come first. The placeholder is left
    // out when it was weighed again only because it was played (more were weighed again
    // than the top three).
    let rechecked: Vec<usize> = (0..listed.len()).filter(|&i| listed[i]["rechecked"] == true).collect();
    let played = answer["played"].as_u64().map(|i| i as usize);
    let extra = rechecked.len() > listed.len().min(3);
    let first = rechecked.iter().copied().filter(|&i| !(extra && Some(i) == played));
    let rest = (0..listed.len()).filter(|i| !rechecked.contains(i));
    first.chain(rest).map(|i| listed[i]).collect()
}

/// A tile-game move as `analyse --json` names it, in `best` and in its list.
#[derive(serde::Deserialize)]
struct Named {
    position: [i32; 2],
    rotation: u16,
    action: ActionReport,
}

impl Named {
    /// Whether it is the recorded move `m`.
    fn is(&self, m: &RecordedMove) -> bool {
        let RecordedMove::Place { placement, action, .. } = m else {
            return false;
        };
        self.position == [placement.pos.x, placement.pos.y]
            && self.rotation == placement.rotation.degrees()
            && self.action.matches(action)
    }
}

/// `first`, then the rest of its round played at random. A Card Game record does not state
/// the hands: each round's are read from the cards its actions play, and a round cut short is
/// filled up with stand-ins. Played out, the round shows the build every card of the hands.
fn round_played_out(game: &CardGame, first: CardMove, turn: u32) -> Vec<RecordedCardMove> {
    let (mut game, mut mv) = (game.clone(), Some(first));
    let (mut rng, mut legal, mut events) = (Rng::new(u64::from(turn)), Vec::new(), Vec::new());
    let mut moves = Vec::new();
    while let Some(m) = mv {
        moves.push(RecordedCardMove {
            player: Some(game.current_player()),
            mv: m,
            joker_herds: Vec::new(),
            face_down: Default::default(),
        });
        game.play(&m, &mut events).expect("legal moves play");
        let round_over = game.is_over() || game.deal_due();
        mv = (!round_over)
            .then(|| card_bots::choose(&game, Policy::Random, &mut rng, &mut legal))
            .flatten();
    }
    moves
}

impl Outside for Build {
    fn tile_move(
        &self,
        so_far: &GameRecord,
        game: &Game,
        tile: TileKindId,
        turn: u32,
    ) -> Result<Option<Move>, SelfPlayError> {
        let (_, moves) = alternatives::enumerate(game, tile);
        let Some(placeholder) = moves.first() else {
            return Ok(None);
        };
        let mut record = so_far.clone();
        record.moves.push(recorded(game, placeholder));
        let answer = self.analyse(&record.native_json(), turn)?;
        let listed: Vec<(RecordedMove, &Move)> = moves.iter().map(|mv| (recorded(game, mv), mv)).collect();
        let chosen = (tile_choices(&answer).into_iter())
            .filter_map(|choice| serde_json::from_value::<Named>(choice.clone()).ok())
            .find_map(|named| listed.iter().find(|(m, _)| named.is(m)));
        let why = || SelfPlayError::Outside {
            turn,
            why: "none of the moves it named is legal here".into(),
        };
        chosen.map(|(_, mv)| Some(**mv)).ok_or_else(why)
    }

    fn card_move(&self, so_far: &Record<CardGame>, game: &CardGame, turn: u32) -> Result<CardMove, SelfPlayError> {
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        let placeholder = *legal.first().ok_or(SelfPlayError::NoMove(turn))?;
        let mut record = so_far.clone();
        record.moves.extend(round_played_out(game, placeholder, turn));
        let answer = self.analyse(&record.native_json(), turn)?;
        let first = answer["alternatives"][0]["move"].as_str().unwrap_or_default();
        let why = || SelfPlayError::Outside {
            turn,
            why: format!("its first action {first:?} is none of the legal ones"),
        };
        legal.into_iter().find(|mv| move_text(mv) == first).ok_or_else(why)
    }

    fn name(&self) -> String {
        match self.args.is_empty() {
            true => format!("build:{}", self.path.display()),
            false => format!("build:{} ({})", self.path.display(), self.args.join(" ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn at(x: i32) -> Value {
        json!({"position": [x, 0], "rotation": 0, "action": {"type": "pass"}})
    }

    /// A build that states `best` plays it; an earlier one's list is read with the moves
    /// weighed again first, less the placeholder weighed again only because it was played.
    #[test]
    fn the_move_a_build_plays_is_its_best_or_its_first_weighed_again() {
        let best = json!({"best": at(7), "alternatives": [at(1)]});
        assert_eq!(tile_choices(&best), vec![&at(7)]);
        let rechecked = |x: i32, again: bool| json!({"position": [x, 0], "rechecked": again});
        let listed = |played: usize| {
            json!({"played": played, "alternatives": [
                rechecked(0, false), rechecked(1, true), rechecked(2, true), rechecked(3, true), rechecked(4, true),
            ]})
        };
        let order = |answer: &Value| -> Vec<i64> {
            tile_choices(answer)
                .iter()
                .map(|c| c["position"][0].as_i64().unwrap())
                .collect()
        };
        assert_eq!(
            order(&listed(4)),
            [1, 2, 3, 0],
            "four weighed again: the placeholder played was the extra one"
        );
        let three = json!({"played": 0, "alternatives": [rechecked(0, false), rechecked(1, true), rechecked(2, true)]});
        assert_eq!(order(&three), [1, 2, 0]);
    }
}
