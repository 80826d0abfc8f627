//! The Card Game's table as a picture: the score board, the four rows with their cards (face
//! down ones as backs) and followers, and each player's herds, chest and hand.
//!
//! A turn's table shows the mover's hand (the player who made the turn's move) and the others'
//! as backs, as a player at the table sees it; [`Hands::All`] shows every hand. Neither gives
//! the round's face-down card away before it is revealed: a hand seen before that card is
//! played, less the cards its player plays openly later, would name it. So no hand shows
//! until the round's first card lies face down ([`Hands::shows`]), and a turn's table is as
//! its move left it, before the next round is dealt (`replay::cards::upto`).

use super::figures::{self, FigureShape};
use super::palette::{self, PlayerColours, Rgb};
use super::raster::FONT_FAMILY;
use super::scene::xml_escape;
use super::shapes::num;
use super::{Drawable, OG_HEIGHT, OG_WIDTH, OgPanel, Picture, RenderError, RenderOptions, Theme, no_such_turn, when};
use crate::engine::cards::{Card, CardGame, CardPlayer, Colour, Slot};
use crate::record::Record;
use crate::replay::Kept;
use crate::replay::cards::upto;
use std::fmt::Write as _;

const CARD_W: f32 = 44.0;
const CARD_H: f32 = 62.0;
const GAP: f32 = 6.0;
const LABEL_W: f32 = 90.0;
const MARGIN: f32 = 16.0;
const PLAYER_LINE: f32 = 26.0;

/// The cards' colours, which are their rows'.
fn colour_of(row: Colour) -> Rgb {
    palette::CARD_ROWS[row.index()]
}

/// Whose hands a turn's table and page show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Hands {
    /// The mover's; every other hand as its number of cards.
    #[default]
    Mover,
    /// Every hand: the rest of the round in advance.
    All,
}

impl Hands {
    /// Reads `mover` or `all`.
    pub fn parse(word: &str) -> Result<Hands, super::OptionError> {
        match word {
            "mover" => Ok(Hands::Mover),
            "all" => Ok(Hands::All),
            other => Err(super::OptionError::Hands(other.to_string())),
        }
    }

    /// The word [`Hands::parse`] reads.
    pub fn word(self) -> &'static str {
        match self {
            Hands::Mover => "mover",
            Hands::All => "all",
        }
    }

    /// Whether `player`'s hand shows on `game`'s table, `mover` having made the turn's move
    /// (`None`: the start): none before the round's first card lies face down, since any of
    /// them may still hold it; then the mover's, or every one.
    pub fn shows(self, game: &CardGame, mover: Option<u8>, player: u8) -> bool {
        game.face_down_card().is_some() && (self == Hands::All || mover == Some(player))
    }
}

impl Drawable for Record<CardGame> {
    /// The table after `turn` actions (the whole game when `None`), or its link preview.
    fn svg(&self, turn: Option<u32>, picture: Picture, opts: &RenderOptions) -> Result<String, RenderError> {
        let n = turn_drawn(self, turn)?;
        let played = upto(self, n)?;
        let mover = played.turns.last().map(|t| t.player);
        Ok(picture_svg(
            self,
            played.game,
            (n, mover),
            turn.is_none(),
            picture,
            opts,
        ))
    }
}

/// A loaded game draws any turn from its kept positions, with no replay.
impl Drawable for Kept<'_, Record<CardGame>> {
    fn svg(&self, turn: Option<u32>, picture: Picture, opts: &RenderOptions) -> Result<String, RenderError> {
        let n = turn_drawn(self.record, turn)?;
        let at = (self.full.after(self.positions, n as u32))
            .ok_or_else(|| no_such_turn(self.record.moves.len() as u32, turn))?;
        let mover = at.turns.last().map(|t| t.player);
        Ok(picture_svg(
            self.record,
            at.game.clone(),
            (n, mover),
            turn.is_none(),
            picture,
            opts,
        ))
    }
}

/// The moves a picture of `turn` shows (all of them for `None`).
fn turn_drawn(record: &Record<CardGame>, turn: Option<u32>) -> Result<usize, RenderError> {
    let turns = record.moves.len() as u32;
    match turn {
        Some(t) if t > turns => Err(no_such_turn(turns, turn)),
        Some(t) => Ok(t as usize),
        None => Ok(record.moves.len()),
    }
}

/// The table as move `n` left it (`game`, `mover` having moved), or at the game's `end`, after
/// final scoring.
fn picture_svg(
    record: &Record<CardGame>,
    mut game: CardGame,
    (n, mover): (usize, Option<u8>),
    end: bool,
    picture: Picture,
    opts: &RenderOptions,
) -> String {
    let finished = end && game.is_over();
    if finished {
        // The end of the game is after final scoring: the city sets count.
        game.finish(&mut Vec::new());
    }
    // A preview sits on its own panel, whatever page shares it.
    let theme = match picture {
        Picture::Board => opts.theme,
        Picture::Preview => Theme::Light,
    };
    let (paper, ink) = theme.paper_and_ink();
    let known = record.hands_known(n);
    let shown = |p: u8| known && opts.hands.shows(&game, mover, p);
    let (body, width, height) = table_body(record, &game, ink, &shown);
    let table = Table { body, width, height };
    match picture {
        Picture::Board => document(width, height, paper, &table.body),
        Picture::Preview => preview(record, &game, &table, finished, n),
    }
}

/// The table of any position of `record`'s game (the explore board's), with the hands `shown`
/// says.
pub fn table_svg(record: &Record<CardGame>, game: &CardGame, theme: Theme, shown: &dyn Fn(u8) -> bool) -> String {
    let (paper, ink) = theme.paper_and_ink();
    let (body, width, height) = table_body(record, game, ink, shown);
    document(width, height, paper, &body)
}

/// A whole picture: the figures' definitions, the background, then `body`.
fn document(w: f32, h: f32, background: Rgb, body: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"{FONT_FAMILY}\"><defs>{}</defs>\
         <rect width=\"{w}\" height=\"{h}\" fill=\"{}\"/>{body}</svg>",
        figures::definitions(),
        background.hex(),
    )
}

/// The table drawn, without its frame.
struct Table {
    body: String,
    width: f32,
    height: f32,
}

/// The 1200×630 link preview: the table scaled into the left, the scores on the right.
fn preview(record: &Record<CardGame>, game: &CardGame, table: &Table, finished: bool, done: usize) -> String {
    let (area_w, area_h, pad) = (740.0, 582.0, 24.0);
    let k = (area_w / table.width).min(area_h / table.height);
    let (x, y) = (
        pad + (area_w - k * table.width) / 2.0,
        pad + (area_h - k * table.height) / 2.0,
    );
    let mut body = format!(
        "<g transform=\"translate({} {}) scale({})\"><rect width=\"{}\" height=\"{}\" rx=\"8\" fill=\"{}\"/>{}</g>",
        num(x),
        num(y),
        num(k),
        table.width,
        table.height,
        palette::PAPER.hex(),
        table.body
    );
    let panel = OgPanel {
        title: "Carcassonne",
        label: format!(
            "The Card Game, round {} of {}",
            (game.round() + 1).min(game.rounds()),
            game.rounds()
        ),
        when: when(finished, done, record.moves.len() as u32),
        players: &record.players,
        scores: game.players().iter().map(|p| p.score).collect(),
        finished,
        colours: colours(record),
    };
    panel.write(&mut body, 800.0);
    document(OG_WIDTH as f32, OG_HEIGHT as f32, palette::BACKGROUND, &body)
}

/// The game's player colours, as its pages show them: none a row's.
pub fn colours(record: &Record<CardGame>) -> PlayerColours {
    PlayerColours::card_game(record.players.iter().map(|p| p.colour.as_deref()))
}

/// The hands' cards are drawn smaller than the rows'.
const HAND_SCALE: f32 = 0.7;
/// About how wide a character of the 15 px player lines is.
const CHAR_W: f32 = 8.7;

/// The table; `shown` says whose hands show their cards (the others show backs).
fn table_body(record: &Record<CardGame>, game: &CardGame, ink: Rgb, shown: &dyn Fn(u8) -> bool) -> (String, f32, f32) {
    let colours = colours(record);
    let lines: Vec<String> = (game.players().iter().enumerate())
        .map(|(p, player)| player_line(&record.players[p].name, player))
        .collect();
    let longest_line = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as f32;
    let longest_row = game.rows().iter().map(Vec::len).max().unwrap_or(0).max(8) as f32;
    let width = (MARGIN * 2.0 + LABEL_W + longest_row * (CARD_W + GAP))
        .max(MARGIN * 2.0 + 22.0 + longest_line * CHAR_W)
        .ceil();
    let rows_top = MARGIN + PLAYER_LINE * record.players.len() as f32 + 10.0;
    // The hands, under a heading.
    let hands_top = rows_top + 4.0 * (CARD_H + GAP) + 24.0;
    let hand_h = CARD_H * HAND_SCALE + GAP;
    let holding = game.players().iter().filter(|p| !p.hand.is_empty()).count() as f32;
    let height = (hands_top + holding * hand_h + MARGIN).ceil();
    let mut body = String::new();
    let ink = ink.hex();
    for (p, line) in lines.iter().enumerate() {
        let y = MARGIN + PLAYER_LINE * p as f32;
        let _ = write!(
            body,
            "<rect x=\"{MARGIN}\" y=\"{}\" width=\"14\" height=\"14\" rx=\"3\" fill=\"{}\" stroke=\"{ink}\" stroke-opacity=\".45\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"15\" fill=\"{ink}\">{}</text>",
            num(y),
            colours.get(p as u8).hex(),
            num(MARGIN + 22.0),
            num(y + 12.5),
            xml_escape(line),
        );
    }
    for row in Colour::ALL {
        let y = rows_top + row.index() as f32 * (CARD_H + GAP);
        row_svg(&mut body, game, row, y, &colours);
    }
    if holding > 0.0 {
        let _ = write!(
            body,
            "<text x=\"{MARGIN}\" y=\"{}\" font-size=\"13\" fill=\"{ink}\">Hands</text>",
            num(hands_top - 8.0)
        );
    }
    let holders = game.players().iter().enumerate().filter(|(_, p)| !p.hand.is_empty());
    for (k, (p, player)) in holders.enumerate() {
        let y = hands_top + k as f32 * hand_h;
        let mid = y + CARD_H * HAND_SCALE / 2.0;
        let _ = write!(
            body,
            "<rect x=\"{MARGIN}\" y=\"{}\" width=\"10\" height=\"10\" rx=\"2\" fill=\"{}\" stroke=\"{ink}\" stroke-opacity=\".45\"/>\
             <text x=\"{}\" y=\"{}\" font-size=\"13\" fill=\"{ink}\">{}</text>",
            num(mid - 5.0),
            colours.get(p as u8).hex(),
            num(MARGIN + 14.0),
            num(mid + 4.0),
            xml_escape(&record.players[p].name.chars().take(9).collect::<String>())
        );
        for (i, card) in player.hand.iter().enumerate() {
            let x = MARGIN + LABEL_W + i as f32 * (CARD_W + GAP) * HAND_SCALE;
            let _ = write!(
                body,
                "<g transform=\"translate({} {}) scale({HAND_SCALE})\">",
                num(x),
                num(y)
            );
            // A hand not shown lies face down: its cards are never written.
            card_svg(&mut body, 0.0, 0.0, *card, !shown(p as u8));
            body.push_str("</g>");
        }
    }
    (body, width, height)
}

/// "Ada: 12 points · animals 2 red · chest 3 · hand 4".
fn player_line(name: &str, player: &CardPlayer) -> String {
    let herds: Vec<String> = Colour::ALL
        .into_iter()
        .filter(|c| player.herds[c.index()] > 0)
        .map(|c| format!("{} {}", player.herds[c.index()], c.colour_word()))
        .collect();
    let herds = if herds.is_empty() {
        "none".to_string()
    } else {
        herds.join(", ")
    };
    format!(
        "{name}: {} points · animals {herds} · chest {} · hand {}",
        player.score,
        player.city_cards(),
        player.hand.len()
    )
}

/// One row: its label, then its cards and followers left to right.
fn row_svg(body: &mut String, game: &CardGame, row: Colour, y: f32, colours: &PlayerColours) {
    let _ = write!(
        body,
        "<rect x=\"{MARGIN}\" y=\"{}\" width=\"{}\" height=\"{CARD_H}\" rx=\"6\" fill=\"{}\"/>\
         <text x=\"{}\" y=\"{}\" font-size=\"14\" fill=\"#fff\">{}</text>",
        num(y),
        num(LABEL_W - GAP),
        colour_of(row).hex(),
        num(MARGIN + 8.0),
        num(y + CARD_H / 2.0 + 5.0),
        row.word()
    );
    for (i, slot) in game.rows()[row.index()].iter().enumerate() {
        let x = MARGIN + LABEL_W + i as f32 * (CARD_W + GAP);
        match *slot {
            Slot::Card { card, face_down } => card_svg(body, x, y, card, face_down),
            Slot::Follower(p) => body.push_str(&figures::figure(
                FigureShape::Standing,
                colours.get(p),
                x + CARD_W / 2.0,
                y + CARD_H / 2.0,
                1.6,
            )),
        }
    }
}

/// One card: its colour with its value, a house (building) or an animal; a joker in white
/// with its name; a face-down card as its back, which reads on light and dark tables.
fn card_svg(out: &mut String, x: f32, y: f32, card: Card, face_down: bool) {
    let (cx, cy) = (x + CARD_W / 2.0, y + CARD_H / 2.0);
    let white = Rgb(0xff, 0xff, 0xff).hex();
    let (fill, mark) = if face_down {
        (palette::CARD_BACK, text(cx, cy, 22.0, &white, "?"))
    } else {
        match card {
            Card::Person { colour, value } => (colour_of(colour), text(cx, cy, 24.0, &white, &value.to_string())),
            Card::Building(colour) => (colour_of(colour), house(cx, cy, &white)),
            Card::Animal(colour) => (colour_of(colour), animal(cx, cy, &white)),
            joker => {
                let name = match joker {
                    Card::Dragon => "Dragon",
                    Card::Fairy => "Fairy",
                    Card::AnimalJoker => "Animal",
                    _ => "City",
                };
                (palette::PAPER, text(cx, cy, 10.0, &palette::INK.hex(), name))
            }
        }
    };
    let title = if face_down {
        "face down".to_string()
    } else {
        card.to_string()
    };
    let _ = write!(
        out,
        "<g><title>{title}</title><rect x=\"{}\" y=\"{}\" width=\"{CARD_W}\" height=\"{CARD_H}\" rx=\"5\" fill=\"{}\" stroke=\"{}\"/>{mark}</g>",
        num(x),
        num(y),
        fill.hex(),
        palette::INK.hex(),
    );
}

fn text(cx: f32, cy: f32, size: f32, fill: &str, s: &str) -> String {
    format!(
        "<text x=\"{}\" y=\"{}\" font-size=\"{}\" text-anchor=\"middle\" fill=\"{fill}\">{}</text>",
        num(cx),
        num(cy + size / 3.0),
        num(size),
        xml_escape(s)
    )
}

fn house(cx: f32, cy: f32, fill: &str) -> String {
    format!(
        "<path d=\"M{} {}L{} {}L{} {}V{}H{}Z\" fill=\"{fill}\"/>",
        num(cx - 12.0),
        num(cy - 2.0),
        num(cx),
        num(cy - 14.0),
        num(cx + 12.0),
        num(cy - 2.0),
        num(cy + 12.0),
        num(cx - 12.0)
    )
}

fn animal(cx: f32, cy: f32, fill: &str) -> String {
    format!(
        "<ellipse cx=\"{}\" cy=\"{}\" rx=\"13\" ry=\"8\" fill=\"{fill}\"/><circle cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"{fill}\"/>",
        num(cx - 2.0),
        num(cy + 2.0),
        num(cx + 12.0),
        num(cy - 5.0)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::bots::Policy;
    use crate::render::{ImageFormat, draw};
    use crate::selfplay::card_game;

    fn table(record: &Record<CardGame>, turn: Option<u32>) -> String {
        let bytes = draw(
            record,
            turn,
            Picture::Board,
            ImageFormat::Svg,
            &RenderOptions::default(),
        )
        .unwrap();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn the_table_shows_rows_followers_face_down_cards_and_the_players() {
        let record = card_game(3, Policy::Greedy, 3).unwrap();
        // Turn 5: the round's face-down card is still in its row.
        let svg = table(&record, Some(5));
        assert!(
            svg.contains("<title>face down</title>"),
            "the face-down card shows its back"
        );
        for row in Colour::ALL {
            assert!(svg.contains(&format!(">{}</text>", row.word())), "{}", row.word());
        }
        assert!(svg.contains("Bot 1: 0 points"));
        let end = table(&record, None);
        assert!(!end.contains("face down"), "every card is revealed by the end");
        let png = draw(
            &record,
            Some(30),
            Picture::Board,
            ImageFormat::Png,
            &RenderOptions::default(),
        )
        .unwrap();
        assert_eq!(&png[1..4], b"PNG");
        let too_far = draw(
            &record,
            Some(10_000),
            Picture::Board,
            ImageFormat::Svg,
            &RenderOptions::default(),
        );
        assert!(matches!(too_far, Err(RenderError::NoSuchTurn { .. })));
    }

    /// Backs drawn: face-down cards in the rows and hands not shown.
    fn backs(svg: &str) -> usize {
        svg.matches("<title>face down</title>").count()
    }

    #[test]
    fn a_turns_table_shows_the_movers_hand_or_every_hand_once_the_rounds_card_is_face_down() {
        let record = card_game(3, Policy::Greedy, 4);
        let record = record.unwrap();
        let r = crate::replay::cards::replay(&record).unwrap();
        let draw_at = |n: u32, hands: Hands| {
            let opts = RenderOptions {
                hands,
                ..RenderOptions::default()
            };
            let bytes = draw(&record, Some(n), Picture::Board, ImageFormat::Svg, &opts).unwrap();
            String::from_utf8(bytes).unwrap()
        };
        let mut checked = [false; 2];
        for t in r.turns.iter().take(40) {
            let game = upto(&record, t.turn as usize).unwrap().game;
            let in_rows = (game.rows().iter().flatten())
                .filter(|s| matches!(s, Slot::Card { face_down: true, .. }))
                .count();
            let held = |p: usize| game.players()[p].hand.len();
            let all_held: usize = (0..3).map(held).sum();
            let (mover, all) = (draw_at(t.turn, Hands::Mover), draw_at(t.turn, Hands::All));
            if game.face_down_card().is_none() {
                // Any hand may still hold the card that goes face down: none shows.
                assert_eq!(backs(&mover), in_rows + all_held, "turn {}", t.turn);
                assert_eq!(mover, all, "turn {}", t.turn);
                checked[0] |= all_held > 0;
            } else {
                let others = all_held - held(t.player as usize);
                assert_eq!(
                    backs(&mover),
                    in_rows + others,
                    "turn {}: the mover's hand only",
                    t.turn
                );
                assert_eq!(backs(&all), in_rows, "turn {}: every hand", t.turn);
                checked[1] = true;
            }
        }
        assert_eq!(checked, [true, true], "both cases were seen");
    }

    #[test]
    fn the_preview_is_1200_by_630_with_every_score_and_no_spoiler() {
        let record = card_game(4, Policy::Greedy, 8).unwrap();
        let opts = RenderOptions::default();
        let at = |turn| {
            let bytes = draw(&record, turn, Picture::Preview, ImageFormat::Svg, &opts).unwrap();
            String::from_utf8(bytes).unwrap()
        };
        let early = at(Some(3));
        assert!(early.contains("width=\"1200\" height=\"630\""));
        assert!(early.contains("after turn 3 of"), "the preview says when");
        assert!(!early.contains('★'), "no winner is starred before the end");
        let end = at(None);
        assert!(end.contains("final score") && end.contains('★'));
        let last = crate::replay::cards::replay(&record).unwrap();
        for score in last.final_scores {
            assert!(
                end.contains(&format!(">{score}</text>")),
                "{score}: the city sets are counted"
            );
        }
        let png = draw(&record, None, Picture::Preview, ImageFormat::Png, &opts).unwrap();
        assert_eq!(&png[1..4], b"PNG");
    }
}
