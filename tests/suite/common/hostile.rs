//! Records crafted to hurt: far and extreme coordinates in every format, huge custom tile
//! sets, repeated keys, error envelopes, wrapped player numbers and huge names. Each must be
//! refused cleanly, fast, and without harm to anything else. `replay` and the service are
//! both tested with them.

/// A hostile record: a name for messages, its bytes, and words the refusal must contain.
pub struct Hostile {
    pub name: &'static str,
    pub bytes: Vec<u8>,
    pub says: &'static str,
}

fn native(players: &str, rest: &str) -> String {
    format!(r#"{{"format": "carcassonne-replay/1", "players": [{players}], {rest}}}"#)
}

const TWO: &str = r#"{"name": "Ann"}, {"name": "Bob"}"#;

fn move_at(x: i64, y: i64) -> Vec<u8> {
    native(
        TWO,
        &format!(r#""moves": [{{"tile": "U", "at": [{x}, {y}], "rotation": 0}}]"#),
    )
    .into_bytes()
}

fn jcz(replay: &str) -> Vec<u8> {
    format!(
        r#"{{"appVersion": "5.10.0", "setup": {{"sets": {{"basic:1": 1}}, "elements": {{"farmers": true}}}},
            "players": [{{"name": "Ann", "slot": 0}}, {{"name": "Bob", "slot": 1}}], "replay": [{replay}]}}"#
    )
    .into_bytes()
}

/// `kinds` custom tile kinds of `count` copies each.
fn custom_tiles(kinds: usize, count: u32) -> Vec<u8> {
    let tiles: Vec<String> = (0..kinds)
        .map(|i| format!(r#"{{"name": "k{i}", "count": {count}, "segments": "road EW"}}"#))
        .collect();
    native(TWO, &format!(r#""tiles": [{}], "moves": []"#, tiles.join(","))).into_bytes()
}

pub fn records() -> Vec<Hostile> {
    let far_bga = r#"{"status": 1, "data": {"valid": 1, "data": [{"packet_id": 1, "data": [
        {"type": "playTile", "args": {"id": 1, "type": 1, "x": 100000, "y": 0, "ori": 1, "player_id": 5, "player_name": "Ann"}}]}]}}"#;
    let error_bga = r#"{"status": 0, "error": "You must be logged in", "data": {"valid": 1, "data": []}}"#;
    vec![
        Hostile {
            name: "a start tile at x = 100000",
            bytes: native(
                TWO,
                r#""start": [{"tile": "D", "at": [100000, 0], "rotation": 0}], "moves": []"#,
            )
            .into_bytes(),
            says: "out of reach",
        },
        Hostile {
            name: "a move at x = 2147483647",
            bytes: move_at(2147483647, 0),
            says: "out of reach",
        },
        Hostile {
            name: "a move at x = -2147483648",
            bytes: move_at(-2147483648, 3),
            says: "out of reach",
        },
        Hostile {
            name: "a .jcz move at y = -300000",
            bytes: jcz(
                r#"{"type": "PLACE_TILE", "payload": {"tileId": "BA/RFr", "rotation": "R0", "position": [0, -300000]}}"#,
            ),
            says: "out of reach",
        },
        Hostile {
            name: "a Board Game Arena move at x = 100000",
            bytes: far_bga.as_bytes().to_vec(),
            says: "out of reach",
        },
        Hostile {
            name: "a course move at x = 100000",
            bytes: b"players: Ann, Bob\nrules: course\nRFRF50 1 100000 0\n".to_vec(),
            says: "out of reach",
        },
        Hostile {
            name: "300 custom tile kinds",
            bytes: custom_tiles(300, 1),
            says: "tile kinds",
        },
        Hostile {
            name: "65,600 custom tile kinds",
            bytes: custom_tiles(65_600, 1),
            says: "tile kinds",
        },
        Hostile {
            name: "3 custom kinds of 255 copies",
            bytes: custom_tiles(3, 255),
            says: "the limit is 512",
        },
        Hostile {
            name: "a repeated key",
            bytes: native(
                TWO,
                r#""moves": [], "moves": [{"tile": "U", "at": [0, 1], "rotation": 0}]"#,
            )
            .into_bytes(),
            says: "appears twice",
        },
        Hostile {
            name: "a Board Game Arena error envelope",
            bytes: error_bga.as_bytes().to_vec(),
            says: "status",
        },
        Hostile {
            name: "a .jcz message by player 256",
            bytes: jcz(
                r#"{"type": "PLACE_TILE", "player": 256, "payload": {"tileId": "BA/RFr", "rotation": "R0", "position": [0, 1]}}"#,
            ),
            says: "names player 256",
        },
        Hostile {
            name: "100 moves in a game of 72 tiles",
            bytes: native(
                TWO,
                &format!(
                    r#""moves": [{}]"#,
                    vec![r#"{"tile": "U", "at": [0, 1], "rotation": 0}"#; 100].join(",")
                ),
            )
            .into_bytes(),
            says: "has at most 72",
        },
        Hostile {
            name: "a 1 MB player name",
            bytes: native(&format!(r#"{{"name": "{}"}}"#, "x".repeat(1 << 20)), r#""moves": []"#).into_bytes(),
            says: "characters long",
        },
    ]
}

/// A legal record that lays 500 custom tiles in a line east of the start: its board must
/// cost memory for 500 tiles, not for its extent.
pub fn long_line() -> Vec<u8> {
    // A kind has at most 255 copies, so the line takes two kinds alike.
    let moves: Vec<String> = (1..=500)
        .map(|x| {
            let tile = if x <= 255 { "straight" } else { "straight2" };
            format!(r#"{{"tile": "{tile}", "at": [{x}, 0], "rotation": 0}}"#)
        })
        .collect();
    let segments = "road EW; field N.w N.e E.n W.n; field E.s S.e S.w W.s";
    native(
        TWO,
        &format!(
            r#""tiles": [{{"name": "straight", "count": 255, "segments": "{segments}"}},
                         {{"name": "straight2", "count": 245, "segments": "{segments}"}}],
                "moves": [{}], "final_scoring": false"#,
            moves.join(",")
        ),
    )
    .into_bytes()
}
