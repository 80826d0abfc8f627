//! Board images: reproducible bytes, sizes that follow the board, colours where the features
//! are, every tile drawable, and the `render` command.
//!
//! In detail:
//! - the dark theme changing only the backdrop (the board's) and the cloth and ink (the Card
//!   Game's) while light keys stay as before
//! - New World boards with the coast, both surveyors, trading posts and animals, and the sample
//!   tiles in every rotation
//! - identical bytes for identical input, image size following the board's extent, pixel probes
//!   (city colour, an owned road's tint, a recorded colour's tint), the BGA players' own
//!   colours in the turn SVG with a light outline on black, every tile kind in every rotation,
//!   the `render` command

use carcassonne_replay::engine::{TileCatalog, parse_spec};
use carcassonne_replay::record::{self, GameRecord};
use carcassonne_replay::render::{self, ImageFormat, Picture, RenderError, RenderOptions, palette};
use carcassonne_replay::replay;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common;

fn demo_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("static/games/demo-second-edition.json")
}

fn demo() -> GameRecord {
    record::parse(&std::fs::read(demo_path()).unwrap()).unwrap().0
}

fn parse(json: &str) -> GameRecord {
    record::parse(json.as_bytes()).unwrap().0
}

/// The board after `turn` as SVG text, through the one entry point.
fn board_svg(record: &GameRecord, turn: Option<u32>, opts: &RenderOptions) -> Result<String, RenderError> {
    let bytes = render::draw(record, turn, Picture::Board, ImageFormat::Svg, opts)?;
    Ok(String::from_utf8(bytes).expect("SVG is text"))
}

fn board_png(record: &GameRecord, turn: Option<u32>, opts: &RenderOptions) -> Vec<u8> {
    render::draw(record, turn, Picture::Board, ImageFormat::Png, opts).unwrap()
}

/// Width and height from a PNG, decoding the whole image to be sure it is valid.
fn png_size(bytes: &[u8]) -> (u32, u32) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("a sane size")];
    let info = reader.next_frame(&mut buf).expect("PNG image data");
    (info.width, info.height)
}

/// The colour at pixel (x, y) of a rendered board (boards are opaque).
fn probe(svg: &str, x: u32, y: u32) -> palette::Rgb {
    let pixmap = render::rasterise(svg).unwrap();
    let p = pixmap.pixel(x, y).expect("inside the image");
    assert_eq!(p.alpha(), 255);
    palette::Rgb(p.red(), p.green(), p.blue())
}

#[test]
fn the_same_input_gives_the_same_bytes() {
    let record = demo();
    let opts = RenderOptions::all(40);
    let a = board_png(&record, Some(33), &opts);
    let b = board_png(&record, Some(33), &opts);
    assert_eq!(a, b);
    let svg = board_svg(&record, None, &opts).unwrap();
    assert_eq!(svg, board_svg(&record, None, &opts).unwrap());
}

#[test]
fn the_image_size_follows_the_board_extent() {
    let record = demo();
    let s = 32;
    let margin = 8; // a quarter tile, at least 8 px
    for turn in [0, 10, 40] {
        let r = replay::replay_upto(&record, None, Some(turn)).unwrap();
        let (lo, hi) = r.game.board().extent().unwrap();
        let (cols, rows) = ((hi.x - lo.x + 1) as u32, (hi.y - lo.y + 1) as u32);
        let png = render::svg_to_png(&render::board_svg(
            &record,
            r.reached(),
            &RenderOptions::default().with_size(s),
        ))
        .unwrap();
        assert_eq!(
            png_size(&png),
            (cols * s + 2 * margin, rows * s + 2 * margin),
            "turn {turn}"
        );
    }
    // Open spots add the ring of empty squares around the board.
    let r = replay::replay_upto(&record, None, Some(0)).unwrap();
    let opts = RenderOptions {
        open_spots: true,
        ..RenderOptions::default().with_size(s)
    };
    let png = render::svg_to_png(&render::board_svg(&record, r.reached(), &opts)).unwrap();
    assert_eq!(png_size(&png), (3 * s + 2 * margin, 3 * s + 2 * margin));
}

#[test]
fn a_city_pixel_has_the_city_colour() {
    // Turn 0: the start tile D alone, its city on the north side. At 100 px per tile and a
    // 25 px margin, tile point (50, 8) is pixel (75, 33).
    let svg = board_svg(&demo(), Some(0), &RenderOptions::default().with_size(100)).unwrap();
    assert_eq!(probe(&svg, 75, 33), palette::CITY);
    assert_eq!(probe(&svg, 75, 110), palette::FIELD, "the field south of the road");
    assert_eq!(probe(&svg, 75, 75), palette::ROAD, "the road through the middle");
}

#[test]
fn an_owned_road_carries_its_owners_tint() {
    let record = parse(
        r#"{"format": "carcassonne-replay/1", "players": [{"name": "Ann"}, {"name": "Bob"}],
            "moves": [{"tile": "U", "at": [1, 0], "rotation": 90, "meeple": {"feature": "road", "at": "E"}}]}"#,
    );
    let opts = RenderOptions {
        ownership: true,
        ..RenderOptions::default().with_size(100)
    };
    let svg = board_svg(&record, None, &opts).unwrap();
    let open_road = palette::PlayerColours::by_seat(2).tint(palette::ROAD, 0, false);
    assert_eq!(probe(&svg, 210, 75), open_road, "on Ann's road, clear of her meeple");
    assert_eq!(probe(&svg, 40, 75), open_road, "the same road on the start tile");
    let plain = board_svg(&record, None, &RenderOptions::default().with_size(100)).unwrap();
    assert_eq!(probe(&plain, 210, 75), palette::ROAD, "no tint without the overlay");
}

#[test]
fn a_recorded_colour_tints_what_its_player_owns() {
    let record = parse(
        r##"{"format": "carcassonne-replay/1", "players": [{"name": "Ann", "colour": "#ffa500"}, {"name": "Bob"}],
            "moves": [{"tile": "U", "at": [1, 0], "rotation": 90, "meeple": {"feature": "road", "at": "E"}}]}"##,
    );
    let opts = RenderOptions {
        ownership: true,
        ..RenderOptions::default().with_size(100)
    };
    let svg = board_svg(&record, None, &opts).unwrap();
    let orange = palette::Rgb(0xff, 0xa5, 0x00);
    assert_eq!(
        probe(&svg, 210, 75),
        palette::ROAD.mix(orange, 0.5),
        "Ann's road in her own orange"
    );
    assert!(svg.contains("fill=\"#ffa500\""), "her meeple is orange");
}

/// Board Game Arena names each player's colour; every image uses it. A black meeple gets a
/// light outline, so it shows on the dark board.
#[test]
fn board_game_arena_colours_appear_in_the_turn_svg() {
    let Some(dir) = common::fixtures_dir() else { return };
    let record = common::load_record(&dir.join("bga/game-a.json")).unwrap();
    let names: Vec<(&str, Option<&str>)> = record
        .players
        .iter()
        .map(|p| (p.name.as_str(), p.colour.as_deref()))
        .collect();
    assert!(names.contains(&("KokiYamaguchi", Some("#ffa500"))), "{names:?}");
    assert!(names.contains(&("Kithara", Some("#000000"))), "{names:?}");
    let opts = RenderOptions::all(64);
    let turns = record.turns();
    let svgs: Vec<String> = (1..=turns)
        .map(|n| board_svg(&record, Some(n), &opts).unwrap())
        .collect();
    let orange_meeple = svgs.iter().any(|s| s.contains("fill=\"#ffa500\" stroke=\"#1c1c1e\""));
    let black_meeple = format!("fill=\"#000000\" stroke=\"{}\"", palette::PAPER);
    assert!(orange_meeple, "an orange meeple with a dark outline");
    assert!(
        svgs.iter().any(|s| s.contains(&black_meeple)),
        "a black meeple with a light outline"
    );
    assert!(
        svgs.iter().all(|s| !s.contains(&palette::player_colour(0).rgb.hex())),
        "never our own blue"
    );
}

#[test]
fn a_completed_city_looks_different_from_an_open_one() {
    // The demo's first move closes the start tile's city with a knight: scored, so drawn in
    // Ada's strong tint although the knight has gone home. (0,-1) is the top row: the start
    // tile's city is at pixel (75, 133).
    let opts = RenderOptions {
        ownership: true,
        ..RenderOptions::default().with_size(100)
    };
    let svg = board_svg(&demo(), Some(1), &opts).unwrap();
    assert_eq!(
        probe(&svg, 75, 133),
        palette::PlayerColours::by_seat(2).tint(palette::CITY, 0, true)
    );
    assert_ne!(
        palette::PlayerColours::by_seat(2).tint(palette::CITY, 0, true),
        palette::PlayerColours::by_seat(2).tint(palette::CITY, 0, false)
    );
}

#[test]
fn every_tile_kind_draws_in_every_rotation() {
    let cat = TileCatalog::builtin();
    let svg = render::contact_sheet_svg(&cat, 32);
    for id in cat.ids() {
        assert!(
            svg.contains(&format!(">{}</text>", cat.name(id))),
            "label of {}",
            cat.name(id)
        );
    }
    let png = render::svg_to_png(&svg).unwrap();
    let (w, h) = png_size(&png);
    assert!(w > 32 * 8 && h > 32 * (cat.len() as u32 / 2), "{w}×{h}");
}

/// Custom tiles no tile set has, but that a record may define: every one draws.
#[test]
fn odd_custom_tiles_draw_without_panicking() {
    let specs = [
        "road NESW; field N.e E.n; field E.s S.e; field S.w W.s; field W.n N.w",
        "city NS; road EW; field E.n; field E.s; field W.s; field W.n",
        "river N; road S; city E; field W.n W.s N.w; field N.e; field S.e S.w",
        "city NESW; cloister",
        "road N; road S; field N.w W.s W.n S.w; field N.e E.n E.s S.e",
        "city N; city E; city S; city W",
        "river NESW; field N.e E.n; field E.s S.e; field S.w W.s; field W.n N.w",
        "garden; cloister; field N.w N.e E.n E.s S.e S.w W.s W.n",
        "city NE; road SW; field S.e W.n > 0; field S.w W.s",
    ];
    let kinds: Vec<_> = specs
        .iter()
        .enumerate()
        .map(|(i, spec)| parse_spec(&format!("custom{i}"), spec).unwrap())
        .collect();
    let refs: Vec<_> = kinds.iter().collect();
    let png = render::svg_to_png(&render::tile_sheet_svg(&refs, 24)).unwrap();
    assert!(png_size(&png).0 > 0);
}

#[test]
fn player_names_are_escaped_in_the_legend() {
    let record = parse(
        r#"{"format": "carcassonne-replay/1", "players": [{"name": "<b>&\"Ann\""}, {"name": "Bob"}], "moves": []}"#,
    );
    let opts = RenderOptions {
        legend: true,
        ..RenderOptions::default()
    };
    let svg = board_svg(&record, None, &opts).unwrap();
    assert!(svg.contains("&lt;b&gt;&amp;&quot;Ann&quot;"), "{svg}");
    render::svg_to_png(&svg).unwrap();
}

#[test]
fn turns_past_the_end_are_refused() {
    let err = board_svg(&demo(), Some(72), &RenderOptions::default()).unwrap_err();
    assert!(err.to_string().contains("71 turns"), "{err}");
}

#[test]
fn the_social_preview_is_1200_by_630() {
    let png = render::draw(
        &demo(),
        None,
        Picture::Preview,
        ImageFormat::Png,
        &RenderOptions::default(),
    )
    .unwrap();
    assert_eq!(png_size(&png), (render::OG_WIDTH, render::OG_HEIGHT));
}

#[test]
fn overlay_names_parse() {
    let mut opts = RenderOptions::default();
    opts.set_overlays("ownership, last-move,scoring,open-spots").unwrap();
    assert!(opts.ownership && opts.last_move && opts.scoring && opts.open_spots && !opts.legend);
    assert!(
        opts.set_overlays("sparkles")
            .unwrap_err()
            .to_string()
            .contains("ownership")
    );
    assert_ne!(opts.key(), RenderOptions::default().key());
}

fn run_render(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_carcassonne-replay"))
        .arg("render")
        .args(args)
        .output()
        .expect("the binary runs")
}

#[test]
fn the_render_command_writes_a_png_and_an_svg() {
    let dir = std::env::temp_dir().join(format!("cr-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (png, svg) = (dir.join("board.png"), dir.join("board.svg"));
    let demo = demo_path();
    let demo = demo.to_str().unwrap();
    let out = run_render(&[
        demo,
        "--turn",
        "12",
        "-o",
        png.to_str().unwrap(),
        "--overlay",
        "ownership,last-move,scoring,open-spots",
        "--legend",
        "--size",
        "24",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (w, h) = png_size(&std::fs::read(&png).unwrap());
    assert!(w > 24 && h > 24);
    let out = run_render(&[demo, "-o", svg.to_str().unwrap(), "--svg"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    let out = run_render(&[demo, "-o", png.to_str().unwrap(), "--overlay", "glitter"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown overlay"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn new_world_boards_show_the_coast_the_surveyors_and_every_mark() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("static/games/demo-new-world.json");
    let record = record::parse(&std::fs::read(path).unwrap()).unwrap().0;
    let svg = board_svg(&record, None, &RenderOptions::default()).unwrap();
    for (what, count) in [("surveyor", 2), ("trading post", 1), ("animal", 1)] {
        let drawn = svg.matches(&format!("<title>{what}</title>")).count();
        assert!(drawn >= count, "{what}: {drawn} drawn");
    }
    assert_eq!(svg.matches("<title>surveyor</title>").count(), 2, "two surveyors");
    // The coast is a column of sea east of the land, one square of it per row shown.
    let game = carcassonne_replay::replay::replay(&record, None).unwrap().game;
    let (lo, hi) = game.board().extent().unwrap();
    assert_eq!(hi.x, 0, "no tile east of the first column");
    let sea = format!("fill=\"{}\"/>", palette::RIVER.hex());
    let rows = (hi.y - lo.y + 1) as usize;
    assert!(svg.matches(&sea).count() >= rows, "a sea square per row");
}

#[test]
fn the_new_world_sample_tiles_draw_in_every_rotation() {
    let (cat, tiles) = carcassonne_replay::selfplay::new_world_sample();
    let svg = render::contact_sheet_svg(&cat, 32);
    for t in &tiles {
        assert!(svg.contains(&format!(">{}</text>", t.name)), "label of {}", t.name);
    }
    assert!(render::svg_to_png(&svg).is_ok());
}

/// A GIF frame's left, top, width, height and delay.
type GifFrame = (u16, u16, u16, u16, u16);

/// Decodes a GIF: its size and every frame.
fn gif_frames(bytes: &[u8]) -> ((u16, u16), Vec<GifFrame>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(bytes).expect("a GIF");
    let size = (decoder.width(), decoder.height());
    let mut frames = Vec::new();
    while let Some(f) = decoder.read_next_frame().expect("a frame that decodes") {
        frames.push((f.left, f.top, f.width, f.height, f.delay));
    }
    (size, frames)
}

#[test]
fn the_whole_game_animates_a_frame_per_turn() {
    let record = demo();
    let turns = record.turns() as usize;
    let opts = RenderOptions::default().with_size(48);
    let bytes = render::draw(&record, None, Picture::Board, ImageFormat::Gif, &opts).unwrap();
    assert!(bytes.starts_with(b"GIF89a"));
    assert!(bytes.len() < 2 << 20, "{} bytes", bytes.len());
    let ((w, h), frames) = gif_frames(&bytes);
    assert!(replay::replay(&record, None).unwrap().finished);
    assert_eq!(
        frames.len(),
        turns + 2,
        "the start, a frame per turn, then the final scores"
    );
    // The first frame is the whole picture; later ones only what changed, within it.
    assert_eq!(frames[0].0..frames[0].2, 0..w);
    assert_eq!((frames[0].2, frames[0].3), (w, h));
    assert!(frames[1..].iter().all(|f| f.0 + f.2 <= w && f.1 + f.3 <= h));
    assert!(
        frames[1..].iter().any(|f| (f.2, f.3) != (w, h)),
        "some frames carry a part only"
    );
    // 48 px per tile, and a line of scores below the board.
    let last = replay::replay(&record, None).unwrap().game;
    let (lo, hi) = render::extent(&last, false);
    assert_eq!(u32::from(w), (hi.x - lo.x + 1) as u32 * 48);
    assert!(u32::from(h) > (hi.y - lo.y + 1) as u32 * 48);
    assert!(frames.last().unwrap().4 > frames[1].4, "the last frame stays longer");
    // The same game gives the same bytes.
    assert_eq!(
        bytes,
        render::draw(&record, None, Picture::Board, ImageFormat::Gif, &opts).unwrap()
    );
}

#[test]
fn render_gif_writes_the_animation_and_the_card_game_has_none() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("game.gif");
    let o = Command::new(env!("CARGO_BIN_EXE_carcassonne-replay"))
        .args([
            "render",
            demo_path().to_str().unwrap(),
            "--gif",
            "-o",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read(&out).unwrap().starts_with(b"GIF89a"));
    let cards = Path::new(env!("CARGO_MANIFEST_DIR")).join("static/games/demo-card-game.json");
    let o = Command::new(env!("CARGO_BIN_EXE_carcassonne-replay"))
        .args(["render", cards.to_str().unwrap(), "--gif", "-o", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("only the tile games animate"));
}

/// A dark page asks for dark pictures: the board's backdrop and the Card Game's cloth take the
/// dark page's colours, the board itself does not change, and a light picture is what it was.
#[test]
fn the_dark_theme_changes_only_what_is_around_the_game() {
    use carcassonne_replay::render::Theme;
    let record = demo();
    let light = RenderOptions::default();
    let dark = RenderOptions {
        theme: Theme::Dark,
        ..light
    };
    let (l, d) = (
        board_svg(&record, Some(10), &light).unwrap(),
        board_svg(&record, Some(10), &dark).unwrap(),
    );
    assert_eq!(probe(&l, 1, 1), palette::BACKGROUND);
    assert_eq!(probe(&d, 1, 1), palette::NIGHT);
    assert_eq!(
        l.replace(&palette::BACKGROUND.hex(), &palette::NIGHT.hex()),
        d,
        "only the backdrop differs"
    );
    assert_ne!(light.key(), dark.key(), "the two are cached apart");
    assert_eq!(
        light.key(),
        "64-00000",
        "light keys are those of images drawn before themes"
    );

    let cards = carcassonne_replay::selfplay::card_game(3, carcassonne_replay::selfplay::Policy::Greedy, 2).unwrap();
    let table = |opts: &RenderOptions| {
        let bytes = render::draw(&cards, Some(4), Picture::Board, ImageFormat::Svg, opts).unwrap();
        String::from_utf8(bytes).unwrap()
    };
    assert_eq!(probe(&table(&light), 1, 1), palette::PAPER);
    assert_eq!(probe(&table(&dark), 1, 1), palette::NIGHT_PAPER);
    assert!(
        table(&dark).contains(&format!("fill=\"{}\">Hands", palette::PAPER.hex())),
        "light ink on the dark cloth"
    );
}
