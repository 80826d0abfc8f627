//! What the pages show of a finished analysis in chances (`analysis::win_chance`): the
//! win-chance graph, each player's accuracy, and the classes marked in the turn list.

use crate::analysis::win_chance::{self, MoveClass, PlayerAccuracy, TurnChance};
use crate::record::PlayerInfo;
use crate::render::{PlayerColours, palette};
use crate::store::GameId;
use crate::web::links;
use crate::web::view::GraphView;
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
    /// The first of their mistakes and blunders to review, where the game has the review.
    pub review: Option<String>,
}

/// A player's line in the chart's legend.
pub struct LegendLine {
    pub name: String,
    pub colour: String,
}

/// The win-chance graph with, on pages that show the whole game, each player's accuracy.
pub struct ChancesView {
    pub graph: GraphView,
    pub legend: Vec<LegendLine>,
    pub accuracy: Vec<AccuracyRow>,
    /// The analysis page.
    pub link: String,
    /// The markers' grey, for the legend's keys.
    pub marker: String,
}

impl ChancesView {
    /// Whether any player has mistakes to review: the accuracy table then links them.
    pub fn reviews(&self) -> bool {
        self.accuracy.iter().any(|a| a.review.is_some())
    }

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
            legend: (players.iter().enumerate())
                .map(|(p, player)| LegendLine {
                    name: player.name.clone(),
                    colour: colours.get(p as u8).hex(),
                })
                .collect(),
            accuracy: if whole_game {
                accuracy_rows(players, chances, colours)
            } else {
                Vec::new()
            },
            link: links::analysis(id),
            marker: palette::CHANCE_MARKER.hex(),
        })
    }
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
            review: None,
        })
        .collect()
}

/// The chart's size and margins: room on the left for the percentages, below for the turns.
const W: f64 = 640.0;
const H: f64 = 200.0;
const LEFT: f64 = 40.0;
const RIGHT: f64 = 10.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 30.0;

/// The marker of a mistake or a blunder at (x, y): a shape of its own, in a grey that is no
/// player's colour ([`palette::CHANCE_MARKER`]) and the page's paper (its style's), so it
/// reads apart from the lines: a blunder filled grey, a mistake ringed grey.
fn marker(class: MoveClass, x: f64, y: f64) -> String {
    let grey = palette::CHANCE_MARKER.hex();
    match class {
        MoveClass::Blunder => format!(
            "<path d=\"M{x:.1} {:.1}L{:.1} {:.1}L{:.1} {:.1}Z\" fill=\"{grey}\"",
            y - 6.0,
            x + 6.0,
            y + 4.5,
            x - 6.0,
            y + 4.5
        ),
        _ => format!(
            "<path d=\"M{x:.1} {:.1}L{:.1} {y:.1}L{x:.1} {:.1}L{:.1} {y:.1}Z\" stroke=\"{grey}\"",
            y - 5.0,
            x + 5.0,
            y + 5.0,
            x - 5.0
        ),
    }
}

/// The turns to label on the axis: every 1, 2, 5, 10, 20… turns, about ten labels.
fn tick_step(total_turns: u32) -> u32 {
    [1, 2, 5, 10, 20, 50, 100, 200, 500]
        .into_iter()
        .find(|&s| total_turns / s <= 10)
        .unwrap_or(1000)
}

/// The chart's frame: gridlines and percentages every 25%, the even-chance line dashed (if
/// any), and the turns (or games: `unit`) below.
fn axes(
    svg: &mut String,
    (total_turns, unit): (u32, &str),
    even: Option<f64>,
    x: &dyn Fn(u32) -> f64,
    y: &dyn Fn(f64) -> f64,
) {
    let _ = write!(
        svg,
        r#"<rect x="{LEFT}" y="{TOP}" width="{}" height="{}" class="frame"/>"#,
        W - LEFT - RIGHT,
        H - TOP - BOTTOM
    );
    for q in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let _ = write!(
            svg,
            r#"<line x1="{LEFT}" x2="{right}" y1="{at:.1}" y2="{at:.1}" class="grid"/><text x="{label}" y="{base:.1}" class="axis" text-anchor="end">{percent:.0}%</text>"#,
            right = W - RIGHT,
            at = y(q),
            label = LEFT - 4.0,
            base = y(q) + 4.0,
            percent = q * 100.0
        );
    }
    if let Some(even) = even {
        let _ = write!(
            svg,
            r#"<line x1="{LEFT}" x2="{right}" y1="{at:.1}" y2="{at:.1}" class="now"><title>An even chance</title></line>"#,
            right = W - RIGHT,
            at = y(even)
        );
    }
    let step = tick_step(total_turns);
    for t in (0..=total_turns).step_by(step as usize) {
        let _ = write!(
            svg,
            r#"<text x="{:.1}" y="{}" class="axis" text-anchor="middle">{t}</text>"#,
            x(t),
            H - BOTTOM + 14.0
        );
    }
    let _ = write!(
        svg,
        r#"<text x="{}" y="{}" class="axis" text-anchor="end">{unit}</text>"#,
        W - RIGHT,
        H - 3.0
    );
}

/// The win-chance graph: each player's chance of winning after their moves (both players'
/// after every move in a two-player game, where one's chance is the other's complement), on
/// axes of percent and turns, with a dashed line at an even game and a marker linking to each
/// mistake and blunder. Each line has a casing in the page's ink, so a light colour reads on
/// white and a dark one on a dark page.
pub fn chance_graph(
    id: &GameId,
    players: &[PlayerInfo],
    chances: &[TurnChance],
    total_turns: u32,
    colours: &PlayerColours,
) -> GraphView {
    let x = |t: u32| LEFT + (W - LEFT - RIGHT) * f64::from(t) / f64::from(total_turns.max(1) + 1);
    let y = |p: f64| TOP + (H - TOP - BOTTOM) * (1.0 - p);
    let even = 1.0 / players.len().max(1) as f64;
    let mut svg = format!(
        r#"<svg class="graph chances" viewBox="0 0 {W} {H}" role="img" aria-label="Chances of winning over the game, in percent, by turn">"#
    );
    axes(&mut svg, (total_turns, "turn"), Some(even), &x, &y);
    let mut markers = String::new();
    for (p, player) in players.iter().enumerate() {
        let p = p as u8;
        let mut points = format!("{:.1},{:.1}", x(0), y(even));
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
                    r#"<a href="{}">{} class="marker {k}"><title>Turn {t}, {}: {k} {}, {:.0} points of chance lost</title></path></a>"#,
                    links::turn(id, c.turn),
                    marker(c.chance.class, x(c.turn), y(chance)),
                    escape(&player.name),
                    c.chance.class.mark(),
                    c.chance.lost * 100.0,
                    t = c.turn,
                    k = c.chance.class.word(),
                );
            }
        }
        let _ = write!(
            svg,
            r#"<polyline class="casing" points="{points}"/><polyline class="line" stroke="{}" points="{points}"><title>{}</title></polyline>"#,
            colours.get(p).hex(),
            escape(&player.name)
        );
    }
    GraphView {
        title: "Chances of winning",
        svg: svg + &markers + "</svg>",
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// A player's accuracy over their analysed games, oldest first: one point a game (its
/// accuracy, in percent), each linking to the game's analysis, on axes of percent and games.
pub fn accuracy_graph(games: &[(GameId, f64)]) -> String {
    let n = games.len() as u32;
    let x = |i: u32| LEFT + (W - LEFT - RIGHT) * f64::from(i) / f64::from(n + 1);
    let y = |p: f64| TOP + (H - TOP - BOTTOM) * (1.0 - p);
    let mut svg = format!(
        r#"<svg class="graph chances" viewBox="0 0 {W} {H}" role="img" aria-label="Accuracy in each analysed game, in percent, oldest first">"#
    );
    axes(&mut svg, (n, "game"), None, &x, &y);
    let at = |i: usize, a: f64| (x(i as u32 + 1), y(a / 100.0));
    let points: Vec<String> = (games.iter().enumerate())
        .map(|(i, (_, a))| {
            let (px, py) = at(i, *a);
            format!("{px:.1},{py:.1}")
        })
        .collect();
    let points = points.join(" ");
    let _ = write!(
        svg,
        r#"<polyline class="casing" points="{points}"/><polyline class="line" stroke="currentColor" points="{points}"/>"#
    );
    for (i, (id, a)) in games.iter().enumerate() {
        let (px, py) = at(i, *a);
        let _ = write!(
            svg,
            r#"<a href="{}"><circle cx="{px:.1}" cy="{py:.1}" r="3.5" fill="currentColor"><title>Game {}: {a:.0}%</title></circle></a>"#,
            links::analysis(id),
            i + 1
        );
    }
    svg + "</svg>"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::win_chance::MoveChance;

    fn turn(turn: u32, player: u8, after: f64, class: MoveClass) -> TurnChance {
        TurnChance {
            turn,
            player,
            chance: MoveChance {
                after,
                lost: 0.3,
                class,
                points_lost: 5.0,
            },
        }
    }

    /// The chart has axes (percent and turns), a line per player cased for contrast, and
    /// markers for mistakes and blunders in shapes and a grey no player has, linking to their
    /// turn; the legend names every line.
    #[test]
    fn the_chart_has_axes_and_markers_apart_from_the_players() {
        let id: GameId = "0123456789abcdef".parse().unwrap();
        let players = [PlayerInfo::named("Ann"), PlayerInfo::named("Bob")];
        // Bob's recorded colour is exactly the old mistake colour.
        let colours = PlayerColours::new([None, Some("#d55e00")]);
        let chances = [
            turn(1, 0, 0.5, MoveClass::Good),
            turn(2, 1, 0.3, MoveClass::Mistake),
            turn(3, 0, 0.6, MoveClass::Blunder),
        ];
        let view = ChancesView::new(&id, &players, &chances, 30, &colours, true).unwrap();
        let svg = &view.graph.svg;
        for label in ["0%", "50%", "100%", ">0<", ">10<", ">30<", "turn"] {
            assert!(svg.contains(label), "axis label {label}");
        }
        assert_eq!(svg.matches("class=\"casing\"").count(), 2);
        assert_eq!(svg.matches("class=\"line\"").count(), 2);
        let markers: Vec<&str> = svg.split("<a href=").skip(1).collect();
        assert_eq!(markers.len(), 2, "a mistake and a blunder");
        assert!(markers[0].contains("/t/3") && markers[0].contains("class=\"marker blunder\""));
        assert!(markers[1].contains("/t/2") && markers[1].contains("class=\"marker mistake\""));
        // In the markers' grey, no player's: not Bob's recorded vermillion, nor black.
        let grey = palette::CHANCE_MARKER.hex();
        assert!(markers[0].contains(&format!("fill=\"{grey}\"")), "{}", markers[0]);
        assert!(markers[1].contains(&format!("stroke=\"{grey}\"")), "{}", markers[1]);
        for m in &markers {
            for p in 0..2 {
                assert!(!m.contains(&colours.get(p).hex()), "player {p}'s colour: {m}");
            }
        }
        assert_ne!(markers[0][..40], markers[1][..40], "two shapes");
        let legend: Vec<(&str, &str)> = (view.legend.iter())
            .map(|l| (l.name.as_str(), l.colour.as_str()))
            .collect();
        assert_eq!(legend, [("Ann", "#0072b2"), ("Bob", "#d55e00")]);
    }

    #[test]
    fn turn_labels_stay_about_ten() {
        assert_eq!(tick_step(8), 1);
        assert_eq!(tick_step(71), 10);
        assert_eq!(tick_step(30), 5);
        assert_eq!(tick_step(200), 20);
    }
}
