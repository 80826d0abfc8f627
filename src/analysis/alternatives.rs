//! Every legal alternative for the drawn tile: each distinct placement (rotations that give the
//! same board listed once, `Game::placements(tile, true, ..)`) times each legal meeple step
//! (`Game::actions`: no meeple, every deployment, the abbot, the abbot's recall).

use crate::engine::{Action, Game, Move, Placement, Rotation, TileKind, TileKindId};

/// The alternatives in the engine's listing order, and how many distinct placements they cover.
pub fn enumerate(game: &Game, tile: TileKindId) -> (usize, Vec<Move>) {
    let mut placements: Vec<Placement> = Vec::new();
    let mut actions: Vec<Action> = Vec::new();
    game.placements(tile, true, &mut placements);
    let mut moves = Vec::new();
    for &placement in &placements {
        game.actions(tile, placement, &mut actions);
        moves.extend(actions.iter().map(|&action| Move {
            tile,
            placement,
            action,
        }));
    }
    (placements.len(), moves)
}

/// The index of the alternative that is the move played. A record may name a rotation the
/// listing merged into another (the same board), so a move also matches an alternative on the
/// same square that looks the same and puts the same figure on the same place.
pub fn find_played(game: &Game, moves: &[Move], played: &Move) -> Option<usize> {
    if let Some(i) = moves.iter().position(|m| m == played) {
        return Some(i);
    }
    let kind = game.tile_kind(played.tile);
    moves.iter().position(|m| {
        m.tile == played.tile
            && m.placement.pos == played.placement.pos
            && same_board(kind, m.placement.rotation, played.placement.rotation)
            && same_step(kind, m, played)
    })
}

/// Whether two rotations of a tile put the same segments on the same sides and half-edges.
fn same_board(kind: &TileKind, a: Rotation, b: Rotation) -> bool {
    let look = |r: Rotation| {
        let o = kind.oriented(r);
        let mut v: Vec<_> = (kind.segments.iter().enumerate())
            .map(|(i, s)| (s.kind, o.sides[i], o.halves[i], s.marks))
            .collect();
        v.sort_unstable();
        v
    };
    look(a) == look(b)
}

fn same_step(kind: &TileKind, a: &Move, b: &Move) -> bool {
    match (a.action, b.action) {
        (Action::Pass, Action::Pass) | (Action::RecallAbbot, Action::RecallAbbot) => true,
        (
            Action::Deploy {
                segment: sa,
                figure: fa,
            },
            Action::Deploy {
                segment: sb,
                figure: fb,
            },
        ) => {
            let place = |m: &Move, s: u8| {
                (
                    kind.segments[s as usize].kind,
                    kind.location_of(m.placement.rotation, s),
                )
            };
            fa == fb && place(a, sa) == place(b, sb)
        }
        _ => false,
    }
}
