//! The turn page's interactive board: what each feature, open spot and alternative says when a
//! reader points at it. `render::interactive` draws the layers; this module writes their notes.
//! A puzzle's board is the same board before the move, with the squares to answer on.

use crate::analysis::board_features::{BoardFeature, Never, Outlook, board_features};
use crate::analysis::completion::{CompletionChance, fitting_tiles};
use crate::analysis::report::{ActionReport, AlternativeReport, TurnReport};
use crate::engine::{FeatureKind, Figure, Game, GameKind, Location, Pos, Rotation, TileKind, Unit};
use crate::record::{GameRecord, RecordedMove};
use crate::render::figures::FigureShape;
use crate::render::interactive::{
    Badge, BoardNotes, Ghost, GhostFigure, MeepleSpot, Pick, PickSquare, SpotNote, anchor_share,
};
use crate::render::palette::Rgb;
use crate::render::{self, BoardArt, RenderOptions};
use crate::replay::{Reached, words};
use crate::store::GameId;
use crate::web::view;
use crate::web::what_if::is_listed;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Other placements drawn as ghosts, at most: more would cover the board.
const GHOSTS: usize = 3;

/// Turn `n`'s board as inline SVG, with its notes. `alternatives` is the turn's analysis and
/// the engine's listing of its moves (none at the start).
pub fn turn_board(
    record: &GameRecord,
    (at, features): (Reached<'_>, &[BoardFeature]),
    (id, n): (&GameId, u32),
    alternatives: Option<(&TurnReport, &[RecordedMove])>,
) -> String {
    let game = at.game;
    let opts = RenderOptions {
        ownership: true,
        last_move: true,
        scoring: true,
        open_spots: true,
        ..RenderOptions::default()
    };
    let mut notes = BoardNotes {
        features: feature_notes(record, game, features),
        spots: spot_notes(record, game),
        ..BoardNotes::default()
    };
    let drawn = at.turns.last().map(|t| (game.tile_kind(t.mv.tile), t.mv.placement.pos));
    if let (Some((kind, played_at)), Some((report, listed))) = (drawn, alternatives) {
        let link = |k: usize| super::links::alternative(id, report.turn, k);
        let colour = render::colours(record).get(report.player);
        for (a, k) in ghosts(report, listed, played_at) {
            notes.ghosts.push(Ghost {
                kind,
                quarter_turns: (a.rotation / 90) as u8,
                figure: figure_of(kind, a.rotation, &a.action, colour),
                badge: Badge {
                    pos: Pos::new(a.position[0], a.position[1]),
                    label: format!("#{} {} pts", a.rank, view::points(a.value)),
                    title: format!(
                        "Alternative #{} of {}: {} at ({},{}) rotated {}°, {}. {}. Open it.",
                        a.rank,
                        report.alternatives.len(),
                        report.facts.tile,
                        a.position[0],
                        a.position[1],
                        a.rotation,
                        a.action.words(record.setup.game),
                        value_words(a)
                    ),
                    href: link(k),
                },
            });
        }
        notes.played = played_badge(record.setup.game, report, listed, played_at, &link);
    }
    let art = super::links::board_art(id, n, &opts);
    render::interactive_board_svg(record, at, &opts, BoardArt::Linked(&art), &notes)
}

/// Where a puzzle's tile stands: its square, its rotation (degrees) and, once answered or
/// revealed, the meeple step of the move shown, in the mover's colour.
pub struct PuzzleTile<'a> {
    pub pos: Pos,
    pub rotation: u16,
    pub meeple: Option<(&'a ActionReport, Rgb)>,
}

/// A puzzle's board: the position before the turn, every feature's note, and a link on each
/// square of the turn's `moves` ([`placement_moves`]); the tile stands where `placed` puts it.
/// `href(square, rotation)` is the page that answers with that placement.
pub fn puzzle_board(
    record: &GameRecord,
    at: Reached<'_>,
    moves: &PlacementMoves,
    kind: &TileKind,
    placed: Option<PuzzleTile>,
    href: &dyn Fn(Pos, u16) -> String,
) -> String {
    let opts = RenderOptions {
        ownership: true,
        last_move: true,
        open_spots: true,
        ..RenderOptions::default()
    };
    let spot = |pos: Pos, r: u16, c: &Choice| format!("{}&meeple={}", href(pos, r), c.token);
    let notes = BoardNotes {
        features: feature_notes(record, at.game, &board_features(at.game)),
        pick: Some(pick(record, moves, kind, placed, (href, &spot))),
        ..BoardNotes::default()
    };
    render::interactive_board_svg(record, at, &opts, BoardArt::Inline, &notes)
}

/// A move the explore board's engine names, drawn as a ghost with a badge that plays it.
pub struct EngineGhost {
    pub pos: Pos,
    pub rotation: u16,
    pub action: ActionReport,
    pub label: String,
    pub title: String,
    pub href: String,
}

/// The tile drawn on the explore board: its kind, its legal moves, where the reader put it, and
/// the address that puts it on a square, turned (`href(square, rotation)`).
pub struct DrawnTile<'a> {
    pub kind: &'a TileKind,
    pub moves: &'a PlacementMoves,
    pub placed: Option<PuzzleTile<'a>>,
    pub href: &'a dyn Fn(Pos, u16) -> String,
    pub spot: SpotHref<'a>,
}

/// The explore board: the position after a line, every feature's note, the open spots and the
/// tiles that fit them, and the squares the drawn tile fits (as a puzzle's, [`puzzle_board`])
/// with the engine's best moves as ghosts.
pub fn explore_board(
    record: &GameRecord,
    (at, features): (Reached<'_>, &[BoardFeature]),
    drawn: Option<DrawnTile>,
    ghosts: &[EngineGhost],
    colour: Rgb,
) -> String {
    let opts = RenderOptions {
        ownership: true,
        last_move: true,
        open_spots: true,
        scoring: true,
        ..RenderOptions::default()
    };
    let mut notes = BoardNotes {
        features: feature_notes(record, at.game, features),
        // Under the drawn tile's squares: a dead square is never one of them.
        spots: spot_notes(record, at.game),
        ..BoardNotes::default()
    };
    if let Some(DrawnTile {
        kind,
        moves,
        placed,
        href,
        spot,
    }) = drawn
    {
        notes.ghosts = (ghosts.iter())
            .map(|g| Ghost {
                kind,
                quarter_turns: (g.rotation / 90) as u8,
                figure: figure_of(kind, g.rotation, &g.action, colour),
                badge: Badge {
                    pos: g.pos,
                    label: g.label.clone(),
                    title: g.title.clone(),
                    href: g.href.clone(),
                },
            })
            .collect();
        notes.pick = Some(pick(record, moves, kind, placed, (href, spot)));
    }
    render::interactive_board_svg(record, at, &opts, BoardArt::Inline, &notes)
}

fn feature_notes(record: &GameRecord, game: &Game, features: &[BoardFeature]) -> Vec<(crate::engine::SegId, String)> {
    (features.iter())
        .map(|f| (f.root, feature_note(record, game, f)))
        .collect()
}

/// Where a choice's figure goes (`Choice::segment`) on a square, and the address that makes the
/// move: `spot(square, rotation, choice)`.
pub type SpotHref<'a> = &'a dyn Fn(Pos, u16, &Choice) -> String;

/// The layer of squares the drawn tile fits, each a link `href(square, rotation)` that puts
/// it there (turns it, on the square it stands on), and the tile where `placed` puts it, with
/// its meeple steps as links on its segments (`spot`).
fn pick<'k>(
    record: &GameRecord,
    moves: &PlacementMoves,
    kind: &'k TileKind,
    placed: Option<PuzzleTile>,
    (href, spot): (&dyn Fn(Pos, u16) -> String, SpotHref),
) -> Pick<'k> {
    let squares = (moves.iter())
        .map(|(&pos, turns)| {
            let on_it = placed.as_ref().filter(|t| t.pos == pos).map(|t| t.rotation);
            let next = next_rotation(turns, on_it);
            // Each rotation's meeple steps, with where the figure stands, for the page's script.
            type Step<'c> = (&'c str, String, Option<(f32, f32)>);
            let moves: Vec<(u16, Vec<Step>)> = (turns.iter())
                .map(|(&r, choices)| {
                    let steps = choices.iter().map(|c| {
                        let at = c.segment.and_then(|seg| anchor_share(kind, (r / 90) as u8, seg));
                        (c.token.as_str(), c.action.words(record.setup.game), at)
                    });
                    (r, steps.collect())
                })
                .collect();
            PickSquare {
                pos,
                href: href(pos, next),
                title: format!("Put the tile at {pos}"),
                moves: serde_json::to_string(&moves).unwrap_or_default(),
            }
        })
        .collect();
    let spots = (placed.as_ref())
        .and_then(|t| Some((t, moves.get(&t.pos)?.get(&t.rotation)?)))
        .map(|(t, choices)| {
            (choices.iter())
                .filter_map(|c| {
                    Some(MeepleSpot {
                        segment: c.segment?,
                        href: spot(t.pos, t.rotation, c),
                        title: format!("Play it with the {}", c.action.words(record.setup.game)),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    Pick {
        kind,
        squares,
        figure: (placed.as_ref()).and_then(|t| t.meeple.and_then(|(a, colour)| figure_of(kind, t.rotation, a, colour))),
        placed: placed.map(|t| (t.pos, (t.rotation / 90) as u8)),
        spots,
    }
}

/// A square and a rotation as a page's address states them (`square=x,y`, `rotation=90`),
/// each optional; `Err` says what is wrong, without quoting it.
pub fn parse_placement(
    square: Option<&str>,
    rotation: Option<&str>,
) -> Result<(Option<Pos>, Option<u16>), &'static str> {
    let square = square
        .map(|s| {
            let (x, y) = s.split_once(',').unwrap_or((s, ""));
            match (x.trim().parse::<i32>(), y.trim().parse::<i32>()) {
                (Ok(x), Ok(y)) => Ok(Pos::new(x, y)),
                _ => Err("a square is two whole numbers, x,y (such as 0,-2)"),
            }
        })
        .transpose()?;
    let rotation = rotation
        .map(|r| match r.parse::<u16>() {
            Ok(d @ (0 | 90 | 180 | 270)) => Ok(d),
            _ => Err("a rotation is 0, 90, 180 or 270 degrees"),
        })
        .transpose()?;
    Ok((square, rotation))
}

/// The rotation after `current` among a square's `turns`, round to the first (the first with
/// none).
pub fn next_rotation<V>(turns: &BTreeMap<u16, V>, current: Option<u16>) -> u16 {
    let after = current.and_then(|r| turns.keys().find(|&&x| x > r));
    after.or(turns.keys().next()).copied().unwrap_or(0)
}

/// A meeple step a square and rotation allow, and how the page's address writes it.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub action: ActionReport,
    pub token: String,
    /// The segment its figure goes on, in the tile kind's own order; none without a figure.
    pub segment: Option<u8>,
}

/// A turn's moves by square, then by rotation (degrees): each one's meeple steps in board
/// order ([`in_board_order`]).
pub type PlacementMoves = BTreeMap<Pos, BTreeMap<u16, Vec<Choice>>>;

/// Every square of a turn's moves, with its rotations and each one's meeple steps, written as a
/// puzzle's address writes them. The analysis lists them best first; the steps are put in board
/// order, so that neither their order nor the one checked first gives the answer away.
pub fn placement_moves(report: &TurnReport, kind: &TileKind) -> PlacementMoves {
    let mut out = PlacementMoves::new();
    for a in &report.alternatives {
        let pos = Pos::new(a.position[0], a.position[1]);
        out.entry(pos).or_default().entry(a.rotation).or_default().push(Choice {
            token: meeple_token(&a.action),
            segment: segment_of(kind, a.rotation, &a.action),
            action: a.action.clone(),
        });
    }
    in_board_order(&mut out);
    out
}

/// Puts every square's meeple steps in an order that depends on the tile alone: no figure
/// first (the step a form checks before the reader chooses), then the abbot taken back, then
/// each deployment by its segment in the tile kind's own order, the abbot after the meeple.
fn in_board_order(moves: &mut PlacementMoves) {
    let key = |c: &Choice| match &c.action {
        ActionReport::Pass => (0, 0, false),
        ActionReport::RecallAbbot => (1, 0, false),
        ActionReport::Deploy { figure, .. } => (2, c.segment.unwrap_or(u8::MAX), figure == Figure::Abbot.word()),
    };
    for choices in moves.values_mut().flat_map(BTreeMap::values_mut) {
        choices.sort_by_key(key);
    }
}

/// Every legal move of the tile drawn on `game`, by square and rotation, each meeple step
/// written as a line writes it (`record::TileLine`).
pub fn legal_placements(game: &Game) -> PlacementMoves {
    let mut moves = Vec::new();
    crate::engine::Position::legal_moves(game, &mut moves);
    let mut out = PlacementMoves::new();
    for mv in moves {
        let crate::engine::Played::Place(mv) = mv else { continue };
        let RecordedMove::Place { action, .. } = crate::record::recorded(game, &mv) else {
            continue;
        };
        let p = mv.placement;
        out.entry(p.pos)
            .or_default()
            .entry(p.rotation.degrees())
            .or_default()
            .push(Choice {
                action: ActionReport::from(&action),
                token: crate::record::TileLine::meeple(&action),
                segment: match mv.action {
                    crate::engine::Action::Deploy { segment, .. } => Some(segment),
                    _ => None,
                },
            });
    }
    in_board_order(&mut out);
    out
}

/// A meeple step as a puzzle's address writes it: `none`, `abbot-back`, or figure, feature and
/// location (`meeple-city-N`, `meeple-field-N.w`).
pub fn meeple_token(a: &ActionReport) -> String {
    match a {
        ActionReport::Pass => "none".into(),
        ActionReport::RecallAbbot => "abbot-back".into(),
        ActionReport::Deploy {
            feature,
            location,
            figure,
        } => format!("{figure}-{feature}-{location}"),
    }
}

/// The meeple step of a token, if it is one in form ([`meeple_token`]); whether the turn has it
/// is for the puzzle to say.
pub fn parse_meeple_token(token: &str) -> Option<ActionReport> {
    let word = |w: &str| (1..=12).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_alphabetic() || b == b'.');
    match token {
        "none" => Some(ActionReport::Pass),
        "abbot-back" => Some(ActionReport::RecallAbbot),
        _ => match token.split('-').collect::<Vec<_>>().as_slice() {
            [figure, feature, location] if [figure, feature, location].iter().all(|w| word(w)) => {
                Some(ActionReport::Deploy {
                    feature: feature.to_string(),
                    location: location.to_string(),
                    figure: figure.to_string(),
                })
            }
            _ => None,
        },
    }
}

/// A feature in words: kind and size, who holds it, what it is worth, its chance.
/// An open feature's chance of completion: the share completed in played games of features
/// like it, then the tiles-left model it was measured against; the model alone where no games
/// measured its kind. A chance is never shown as 0% or 100% while the feature is open.
fn completion_words(c: CompletionChance) -> String {
    let percent = |x: f64| match x {
        x if x < 0.005 => "under 1%".to_string(),
        x if x > 0.995 => "over 99%".to_string(),
        x => format!("{:.0}%", x * 100.0),
    };
    match c.cell {
        Some(_) => format!(
            "Chance of completion: {} (as often as features like it were)\nClosing tiles left for its owner: {}",
            percent(c.chance),
            percent(c.model)
        ),
        None => format!("Chance of completion: {}", percent(c.model)),
    }
}

fn feature_note(record: &GameRecord, game: &Game, f: &BoardFeature) -> String {
    let mut note = format!(
        "{} of {}",
        words::capitalised(f.kind.word()),
        words::count(f.tiles, "tile", "tiles")
    );
    if let Some(unit) = game.rules().feature(f.kind).mark.filter(|_| f.marks > 0) {
        let (one, many) = unit.words();
        let _ = write!(note, ", {}", words::count(f.marks, one, many));
    }
    note.push('\n');
    note.push_str(&holders(record, f));
    if let Some(cities) = f.cities {
        let (one, many) = Unit::City.words();
        let _ = write!(note, "\nSupplies {}", words::count(cities, one, many));
    }
    let worth_now = |note: &mut String| {
        if let Some(now) = f.worth.at_end {
            let _ = write!(note, "\nWorth {now} at the end");
        }
    };
    match (f.outlook, f.worth.at_end, f.worth.completed) {
        // Only its holders are paid: one nobody held was worth its points to no one.
        (Outlook::Complete, _, Some(points)) if f.owners.is_empty() => {
            let _ = write!(
                note,
                "\nCompleted, worth {}: nobody held it",
                words::count(points, "point", "points")
            );
        }
        (Outlook::Complete, _, Some(points)) => {
            let _ = write!(note, "\nCompleted: it paid {}", words::count(points, "point", "points"));
            if game.surveyors().is_some() {
                note.push_str(", before any surveyor bonus");
            }
        }
        (Outlook::Open { chance }, Some(now), Some(done)) => {
            let _ = write!(note, "\nWorth {now} now, {done} if completed");
            let _ = write!(note, "\n{}", completion_words(chance));
        }
        (Outlook::Never(why), _, _) => {
            worth_now(&mut note);
            match why {
                // Fields (and New World's plains) never complete, by the rules: the note says
                // only that a held one scores at the end, not the rule again for every field.
                Never::ByRule if f.owners.is_empty() => {}
                Never::ByRule => note.push_str("\nScores at the end of the game"),
                Never::NoTilesLeft => note.push_str("\nNever completed: no tiles are left"),
                Never::DeadSpot(pos) => {
                    let _ = write!(
                        note,
                        "\nNever completed: {}",
                        never_completed_at(pos, game.on_land(pos))
                    );
                }
            }
        }
        _ => worth_now(&mut note),
    }
    note
}

/// Why a feature that needs a tile at `pos` never completes: no tile left can go there, or,
/// off the land (`Game::on_land`), it runs into New World's coast, where no tile ever goes.
pub fn never_completed_at(pos: Pos, on_land: bool) -> String {
    if on_land {
        format!("no tile left can go at {pos}")
    } else {
        format!("it runs into the coast at {pos}, where no tile goes")
    }
}

/// "Meeples: Ada 2, Bruno 1. Ada holds it", or "No meeples" (New World: settlers).
fn holders(record: &GameRecord, f: &BoardFeature) -> String {
    let (_, figures) = words::figures(record.setup.game);
    let name = |p: u8| record.players.get(p as usize).map_or("?", |p| p.name.as_str());
    let on: Vec<String> = (f.meeples.iter().enumerate())
        .filter(|&(_, &n)| n > 0)
        .map(|(p, n)| format!("{} {n}", name(p as u8)))
        .collect();
    if on.is_empty() {
        return format!("No {figures}");
    }
    let owners: Vec<&str> = f.owners.iter().map(|&p| name(p)).collect();
    let verb = if owners.len() > 1 { "share it" } else { "holds it" };
    format!(
        "{}: {}. {} {verb}",
        words::capitalised(figures),
        on.join(", "),
        owners.join(" and ")
    )
}

/// Every open spot with the tiles left that fit it.
fn spot_notes(record: &GameRecord, game: &Game) -> Vec<SpotNote> {
    game.board()
        .frontier()
        .iter()
        .filter(|sq| game.on_land(sq.pos))
        .map(|sq| {
            let fits: Vec<(&str, u8)> = fitting_tiles(game, sq)
                .map(|(id, n)| (record.setup.catalog.name(id), n))
                .collect();
            let copies: u32 = fits.iter().map(|(_, n)| u32::from(*n)).sum();
            let listed: Vec<String> = fits.iter().map(|(name, n)| format!("{name} ×{n}")).collect();
            SpotNote {
                pos: sq.pos,
                dead: fits.is_empty(),
                fits: serde_json::to_string(&fits).unwrap_or_default(),
                title: if fits.is_empty() {
                    format!("{}: a dead spot, no tile left fits", sq.pos)
                } else {
                    let fit = words::count(copies, "tile left fits", "tiles left fit");
                    format!("{}: {fit}: {}", sq.pos, listed.join(", "))
                },
            }
        })
        .collect()
}

/// An alternative's value with its unit and where it comes from: "expected final margin
/// +12.3 points ± 1.1 over 128 playouts", or "heuristic value 4.2 points (no playouts)".
pub fn value_words(a: &AlternativeReport) -> String {
    match &a.playouts {
        Some(p) => format!(
            "Expected final margin {} points ± {} over {} playouts",
            view::points(a.value),
            view::points(p.std_error),
            p.count
        ),
        None => format!("Heuristic value {} points (no playouts)", view::points(a.value)),
    }
}

/// The segment a move's figure goes on, on the tile turned `degrees`.
fn segment_of(kind: &TileKind, degrees: u16, action: &ActionReport) -> Option<u8> {
    let ActionReport::Deploy { feature, location, .. } = action else {
        return None;
    };
    let rotation = Rotation::from_degrees(i64::from(degrees))?;
    kind.segment_at(rotation, FeatureKind::parse(feature)?, Some(Location::parse(location)?))
}

/// The figure a move deploys, on its segment of the tile turned `degrees`.
fn figure_of(kind: &TileKind, degrees: u16, action: &ActionReport, colour: Rgb) -> Option<GhostFigure> {
    let segment = segment_of(kind, degrees, action)?;
    let ActionReport::Deploy { feature, figure, .. } = action else {
        return None;
    };
    let shape = match (figure.as_str(), FeatureKind::parse(feature)?) {
        ("abbot", _) => FigureShape::Abbot,
        (_, FeatureKind::Field) => FigureShape::Lying,
        _ => FigureShape::Standing,
    };
    Some(GhostFigure { segment, shape, colour })
}

/// The alternatives better than the move played, on squares other than its own, one per
/// square, best first, with their place in the listing. None when the move played is unknown.
fn ghosts<'r>(report: &'r TurnReport, listed: &[RecordedMove], played_at: Pos) -> Vec<(&'r AlternativeReport, usize)> {
    let Some(played) = report.played.and_then(|i| report.alternatives.get(i)) else {
        return Vec::new();
    };
    let mut by_rank: Vec<&AlternativeReport> = (report.alternatives.iter())
        .filter(|a| a.rank < played.rank && a.value > played.value)
        .collect();
    by_rank.sort_by_key(|a| a.rank);
    let mut shown: Vec<(&AlternativeReport, usize)> = Vec::new();
    for a in by_rank {
        let pos = Pos::new(a.position[0], a.position[1]);
        if pos == played_at || shown.iter().any(|(b, _)| b.position == a.position) {
            continue;
        }
        if let Some(k) = listed.iter().position(|m| is_listed(a, m)) {
            shown.push((a, k));
        }
        if shown.len() == GHOSTS {
            break;
        }
    }
    shown
}

/// The badge on the tile played: its rank and value against the best.
fn played_badge(
    game: GameKind,
    report: &TurnReport,
    listed: &[RecordedMove],
    played_at: Pos,
    link: &dyn Fn(usize) -> String,
) -> Option<Badge> {
    let a = report.alternatives.get(report.played?)?;
    let k = listed.iter().position(|m| is_listed(a, m))?;
    let best = report.alternatives.iter().min_by_key(|b| b.rank)?;
    Some(Badge {
        pos: played_at,
        label: format!("played #{}", a.rank),
        title: format!(
            "The move played: #{} of {}, {}, {}; the best: {}. Open it.",
            a.rank,
            report.alternatives.len(),
            a.action.words(game),
            value_words(a).to_lowercase(),
            view::points(best.value)
        ),
        href: link(k),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::completion_rates::Cell;

    /// An open feature's note gives the calibrated chance, then the model's, and says neither
    /// is 0% or 100%: the feature is open, so something can still stop or close it.
    #[test]
    fn an_open_features_chance_is_never_shown_certain() {
        let cell = Cell::of(FeatureKind::City, true, 40, 1, 0.999);
        let note = completion_words(CompletionChance {
            model: 0.999,
            chance: 0.59,
            cell,
        });
        assert_eq!(
            note,
            "Chance of completion: 59% (as often as features like it were)\nClosing tiles left for its owner: over 99%"
        );
        let uncalibrated = completion_words(CompletionChance {
            model: 0.001,
            chance: 0.001,
            cell: None,
        });
        assert_eq!(uncalibrated, "Chance of completion: under 1%");
    }
}
