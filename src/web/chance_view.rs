//! What the pages show of a finished analysis in chances (`analysis::win_chance`): the
//! win-chance graph, each player's accuracy, and the classes marked in the turn list.

use crate::analysis::report::StoredAnalysis;
use crate::analysis::win_chance::{self, MoveClass, PlayerAccuracy, TurnChance};
use crate::record::PlayerInfo;
use crate::render::PlayerColours;
use crate::store::GameId;
use crate::web::view::{GraphView, TurnPlayed};
use std::fmt::Write as _;

/// A player's accuracy as the analysis page shows it.
pub struct AccuracyRow {
    pub name: String,
    pub colour: String,
    /// "87%", or "–" with no move valued.
    pub accuracy: String,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

/// The win-chance graph with, on pages that show the whole game, each player's accuracy.
pub struct ChancesView {
    pub graph: GraphView,
    pub accuracy: Vec<AccuracyRow>,
    /// The analysis page.
    pub link: String,
}

impl ChancesView {
    /// The view of `chances` (see [`chances`]); `None` when no move has one. Accuracy is left
    /// out of a turn page (`whole_game` false), which shows the game only up to its turn.
    pub fn new(
        id: &GameId,
        players: &[PlayerInfo],
        chances: &[TurnChance],
        total_turns: u32,
        colours: &PlayerColours,
        whole_game: bool,
    ) -> Option<ChancesView> {
        if chances.is_empty() {
            return None;
        }
        Some(ChancesView {
            graph: chance_graph(id, players, chances, total_turns, colours),
            accuracy: if whole_game {
                accuracy_rows(players, chances, colours)
            } else {
                Vec::new()
            },
            link: format!("/g/{id}/analysis"),
        })
    }
}

/// The chances of a finished analysis's turns up to `upto` (every turn with `None`).
pub fn chances(stored: &StoredAnalysis, upto: Option<u32>) -> Vec<TurnChance> {
    let mut all = win_chance::turn_chances(&stored.turns);
    all.retain(|c| upto.is_none_or(|n| c.turn <= n));
    all
}

pub fn accuracy_rows(players: &[PlayerInfo], chances: &[TurnChance], colours: &PlayerColours) -> Vec<AccuracyRow> {
    let figures = win_chance::accuracies(chances, players.len());
    (players.iter().zip(figures).enumerate())
        .map(|(p, (player, a)): (usize, (&PlayerInfo, PlayerAccuracy))| AccuracyRow {
            name: player.name.clone(),
            colour: colours.get(p as u8).hex(),
            accuracy: if a.moves == 0 {
                "–".into()
            } else {
                format!("{:.0}%", a.accuracy)
            },
            inaccuracies: a.inaccuracies,
            mistakes: a.mistakes,
            blunders: a.blunders,
        })
        .collect()
}

/// Marks each turn of the list with its move's class (`played[i]` is turn `i + 1`).
pub fn mark_classes(played: &mut [TurnPlayed], chances: &[TurnChance]) {
    for c in chances {
        if let Some(p) = played.get_mut(c.turn as usize - 1) {
            p.class = Some(c.chance.class).filter(|&k| k != MoveClass::Good);
        }
    }
}

/// The win-chance graph: each player's chance of winning after their moves (both players'
/// after every move in a two-player game, where one's chance is the other's complement), a
/// dashed line at an even game, and a marker linking to each mistake and blunder.
pub fn chance_graph(
    id: &GameId,
    players: &[PlayerInfo],
    chances: &[TurnChance],
    total_turns: u32,
    colours: &PlayerColours,
) -> GraphView {
    let (w, h, pad) = (640.0, 160.0, 24.0);
    let x = |t: u32| pad + (w - 2.0 * pad) * f64::from(t) / f64::from(total_turns.max(1) + 1);
    let y = |p: f64| h - pad - (h - 2.0 * pad) * p;
    let even = 1.0 / players.len().max(1) as f64;
    let mut svg = format!(
        r#"<svg class="graph chances" viewBox="0 0 {w} {h}" role="img" aria-label="Chances of winning over the game"><rect x="{pad}" y="{pad}" width="{iw}" height="{ih}" class="frame"/><line x1="{pad}" x2="{right}" y1="{mid:.1}" y2="{mid:.1}" class="now"/><text x="2" y="{top}" class="axis">100%</text><text x="2" y="{bottom}" class="axis">0%</text>"#,
        iw = w - 2.0 * pad,
        ih = h - 2.0 * pad,
        right = w - pad,
        mid = y(even),
        top = pad + 4.0,
        bottom = h - pad,
    );
    for (p, player) in players.iter().enumerate() {
        let p = p as u8;
        let mut points = format!("{:.1},{:.1}", x(0), y(even));
        let mut markers = String::new();
        for c in chances {
            let chance = match (c.player == p, players.len()) {
                (true, _) => c.chance.after,
                (false, 2) => 1.0 - c.chance.after,
                _ => continue,
            };
            let _ = write!(points, " {:.1},{:.1}", x(c.turn), y(chance));
            if c.player == p && c.chance.class >= MoveClass::Mistake {
                let _ = write!(
                    markers,
                    r#"<a href="/g/{id}/t/{t}"><circle cx="{:.1}" cy="{:.1}" r="4" class="{k}"><title>Turn {t}, {}: {k}, {:.0} points of chance lost</title></circle></a>"#,
                    x(c.turn),
                    y(chance),
                    escape(&player.name),
                    c.chance.lost * 100.0,
                    t = c.turn,
                    k = c.chance.class.word(),
                );
            }
        }
        let _ = write!(
            svg,
            r#"<polyline fill="none" stroke="{}" stroke-width="2" points="{points}"/>{markers}"#,
            colours.get(p).hex()
        );
    }
    GraphView {
        title: "Chances of winning",
        svg: svg + "</svg>",
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
