//! Scoring events as CSV (RFC 4180): one row per player who scored, with the arithmetic and
//! one place of the feature (`x`, `y`, `location`).

use crate::engine::{Event, Phase, Score};
use crate::record::GameRecord;
use crate::replay::{Replay, words};

/// The header row of [`scoring_csv`].
pub const HEADER: [&str; 11] = [
    "turn",
    "phase",
    "player",
    "feature",
    "reason",
    "points",
    "breakdown",
    "tied_with",
    "x",
    "y",
    "location",
];

/// Every scoring of a replayed game, in order: during play (with the turn) and at the end
/// (turn left empty). A tie gives each tied player a row with the full points.
pub fn scoring_csv(record: &GameRecord, replay: &Replay) -> String {
    let mut out = row(HEADER.map(String::from));
    let during = replay
        .turns
        .iter()
        .flat_map(|t| t.events.iter().map(move |e| (Some(t.turn), e)));
    let end = replay.final_events.iter().map(|e| (None, e));
    for (turn, e) in during.chain(end) {
        if let Event::Scored(s) = e {
            for p in s.players.iter() {
                out += &row(fields(record, turn, p, s));
            }
        }
    }
    out
}

fn fields(record: &GameRecord, turn: Option<u32>, player: u8, s: &Score) -> [String; 11] {
    let name = |p: u8| defuse(record.players.get(p as usize).map_or("?", |p| p.name.as_str()));
    let others: Vec<String> = s.players.iter().filter(|&q| q != player).map(name).collect();
    [
        turn.map(|t| t.to_string()).unwrap_or_default(),
        match s.phase {
            Phase::Play => "play",
            Phase::End => "end",
        }
        .into(),
        name(player),
        s.feature.word().into(),
        s.reason.to_string(),
        s.points.to_string(),
        words::explanation(s),
        others.join(" and "),
        s.pos.x.to_string(),
        s.pos.y.to_string(),
        s.location.to_string(),
    ]
}

pub(super) fn row<const N: usize>(cells: [String; N]) -> String {
    let cells: Vec<String> = cells.iter().map(|c| cell(c)).collect();
    cells.join(",") + "\r\n"
}

/// A player name that a spreadsheet would run as a formula (names come from uploaded files)
/// gets a leading `'`, as OWASP advises for CSV.
pub(super) fn defuse(name: &str) -> String {
    if name.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{name}")
    } else {
        name.to_string()
    }
}

/// Quotes a cell when it needs it.
fn cell(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) || text.starts_with(' ') || text.ends_with(' ') {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_quoted_only_when_needed() {
        assert_eq!(cell("Ann"), "Ann");
        assert_eq!(cell("Ann, the Bold"), "\"Ann, the Bold\"");
        assert_eq!(cell("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(cell("two\nlines"), "\"two\nlines\"");
        assert_eq!(cell("-1"), "-1");
        assert_eq!(defuse("=1+1"), "'=1+1");
        assert_eq!(defuse("Ann"), "Ann");
        assert_eq!(cell("N.w"), "N.w");
    }
}
