//! Colours. Player colours are the Okabe–Ito palette, chosen to stay distinguishable for the
//! common forms of colour blindness; the web pages read them from here so that a player has the
//! same colour on every page and image.
//!
//! Whatever a player's colour (records bring their own, such as Board Game Arena's black),
//! what is drawn in it keeps WCAG's 3:1 contrast for graphics where it must read: a figure
//! against its outline ([`Rgb::outline`]), an owned city or road against every board backdrop
//! ([`PlayerColours::tint`]). The tests below check the palette against every backdrop.

use std::fmt;

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb`, as CSS and SVG want it.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    /// `self` moved `amount` (0–1) of the way towards `other`. Integer rounding keeps the result
    /// identical on every machine.
    pub fn mix(self, other: Rgb, amount: f32) -> Rgb {
        let t = (amount.clamp(0.0, 1.0) * 256.0).round() as u32;
        let ch = |a: u8, b: u8| ((a as u32 * (256 - t) + b as u32 * t + 128) >> 8) as u8;
        Rgb(ch(self.0, other.0), ch(self.1, other.1), ch(self.2, other.2))
    }

    /// `#rrggbb` (any case), the one colour form records use.
    pub fn parse_hex(text: &str) -> Option<Rgb> {
        let hex = text.strip_prefix('#').filter(|h| h.len() == 6 && h.is_ascii())?;
        let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        Some(Rgb(channel(0)?, channel(2)?, channel(4)?))
    }

    /// Rec. 601 luma × 1000: cheap and good enough to choose between dark and light.
    fn luma(self) -> u32 {
        299 * self.0 as u32 + 587 * self.1 as u32 + 114 * self.2 as u32
    }

    /// Whether dark text reads better than white text on this colour.
    pub fn is_light(self) -> bool {
        self.luma() > 150_000
    }

    /// WCAG 2's relative luminance: 0 for black, 1 for white.
    pub fn luminance(self) -> f64 {
        0.2126 * linear(self.0) + 0.7152 * linear(self.1) + 0.0722 * linear(self.2)
    }

    /// WCAG 2's contrast ratio with `other`, from 1 (the same) to 21 (black on white).
    pub fn contrast(self, other: Rgb) -> f64 {
        let (a, b) = (self.luminance(), other.luminance());
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }

    /// The CIE 1976 colour difference with `other` (through CIELAB, D65 white): 2.3 is about
    /// the least a reader notices.
    pub fn delta_e(self, other: Rgb) -> f64 {
        let (p, q) = (self.lab(), other.lab());
        ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2)).sqrt()
    }

    /// Whether a reader could take this colour for `other`: close to it (ΔE under 25), or of
    /// its hue (within 25° in CIELAB) and about as light (within 30), neither of them a grey.
    /// Saturated colours of one hue lie far apart by ΔE (pure blue and a mid blue), so hue and
    /// lightness decide there; a brown is not a yellow.
    pub fn reads_as(self, other: Rgb) -> bool {
        const CLOSE: f64 = 25.0;
        const HUE: f64 = 25.0;
        const LIGHTNESS: f64 = 30.0;
        const GREY: f64 = 15.0;
        let ([l1, a1, b1], [l2, a2, b2]) = (self.lab(), other.lab());
        let gap = (b1.atan2(a1) - b2.atan2(a2)).to_degrees().rem_euclid(360.0);
        let coloured = a1.hypot(b1) >= GREY && a2.hypot(b2) >= GREY;
        let same_hue = coloured && gap.min(360.0 - gap) < HUE && (l1 - l2).abs() < LIGHTNESS;
        self.delta_e(other) < CLOSE || same_hue
    }

    fn lab(self) -> [f64; 3] {
        let (r, g, b) = (linear(self.0), linear(self.1), linear(self.2));
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
        let f = |t: f64| {
            if t > 0.008856 {
                t.cbrt()
            } else {
                7.787 * t + 16.0 / 116.0
            }
        };
        [116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))]
    }

    /// The outline of a figure in this colour: ink, unless ink falls under 3:1 against it
    /// (black, navy), then paper.
    pub fn outline(self) -> Rgb {
        if self.contrast(INK) >= GRAPHICS_CONTRAST {
            INK
        } else {
            PAPER
        }
    }
}

/// An sRGB channel as linear light, 0 to 1.
fn linear(c: u8) -> f64 {
    let c = f64::from(c) / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// WCAG's least contrast for graphics a reader must make out (success criterion 1.4.11).
pub const GRAPHICS_CONTRAST: f64 = 3.0;

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// A player's colour and its name, for captions and alt text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerColour {
    pub name: &'static str,
    pub rgb: Rgb,
}

/// Colours of players 0–5, in turn order. Okabe–Ito without its orange and black: orange is too
/// close to vermillion and yellow for six players, and black hides meeples' outlines.
pub const PLAYER_COLOURS: [PlayerColour; 6] = [
    PlayerColour {
        name: "blue",
        rgb: Rgb(0x00, 0x72, 0xb2),
    },
    PlayerColour {
        name: "vermillion",
        rgb: Rgb(0xd5, 0x5e, 0x00),
    },
    PlayerColour {
        name: "yellow",
        rgb: Rgb(0xf0, 0xe4, 0x42),
    },
    PlayerColour {
        name: "purple",
        rgb: Rgb(0xcc, 0x79, 0xa7),
    },
    PlayerColour {
        name: "green",
        rgb: Rgb(0x00, 0x9e, 0x73),
    },
    PlayerColour {
        name: "sky blue",
        rgb: Rgb(0x56, 0xb4, 0xe9),
    },
];

/// The colour of player `p` (wrapping, so a bad index never panics).
pub fn player_colour(p: u8) -> PlayerColour {
    PLAYER_COLOURS[p as usize % PLAYER_COLOURS.len()]
}

/// The Card Game's rows, which are its cards' colours, in `Colour::ALL`'s order: the
/// cloister's yellow, the road's red, the farm's green and the city's blue.
pub const CARD_ROWS: [Rgb; 4] = [
    Rgb(0xe8, 0xc3, 0x3c),
    Rgb(0xc8, 0x3d, 0x34),
    Rgb(0x4f, 0x9a, 0x44),
    Rgb(0x3b, 0x6e, 0xc4),
];

/// The Card Game's players, up to five: colours no reader takes for a row's ([`CARD_ROWS`],
/// [`Rgb::reads_as`]), since a follower in a row's colour would read as that row's (a blue
/// player by the blue city row).
pub const CARD_PLAYER_COLOURS: [PlayerColour; 5] = [
    PlayerColour {
        name: "black",
        rgb: Rgb(0x2b, 0x2b, 0x2b),
    },
    PlayerColour {
        name: "pink",
        rgb: Rgb(0xcc, 0x79, 0xa7),
    },
    PlayerColour {
        name: "white",
        rgb: Rgb(0xf5, 0xf5, 0xf5),
    },
    PlayerColour {
        name: "brown",
        rgb: Rgb(0x8c, 0x5a, 0x2b),
    },
    PlayerColour {
        name: "purple",
        rgb: Rgb(0x7b, 0x4f, 0xa8),
    },
];

/// The colours of one game's players, the same on every page and image: each player's own
/// colour when the record names one (Board Game Arena logs and JCloisterZone saves do), else
/// the game's palette by seat. No two players share a colour: a repeated or missing one takes
/// the first palette colour nobody has; so does a colour that reads as one the game gives a
/// meaning of its own (the Card Game's rows).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerColours {
    colours: Vec<Rgb>,
    palette: &'static [PlayerColour],
}

impl PlayerColours {
    /// From each player's recorded colour as `#rrggbb`, if any, for the tile games.
    pub fn new<'a>(recorded: impl IntoIterator<Item = Option<&'a str>>) -> PlayerColours {
        PlayerColours::from_palette(recorded, &PLAYER_COLOURS, &[])
    }

    /// From each player's recorded colour, for the Card Game: none is a row's.
    pub fn card_game<'a>(recorded: impl IntoIterator<Item = Option<&'a str>>) -> PlayerColours {
        PlayerColours::from_palette(recorded, &CARD_PLAYER_COLOURS, &CARD_ROWS)
    }

    fn from_palette<'a>(
        recorded: impl IntoIterator<Item = Option<&'a str>>,
        palette: &'static [PlayerColour],
        meant: &[Rgb],
    ) -> PlayerColours {
        let mut colours: Vec<Rgb> = Vec::new();
        for (seat, wanted) in recorded.into_iter().enumerate() {
            let own = (wanted.and_then(Rgb::parse_hex))
                .filter(|c| !colours.contains(c) && !meant.iter().any(|m| c.reads_as(*m)));
            let by_seat = palette[seat % palette.len()].rgb;
            let colour = own.unwrap_or_else(|| {
                let free = palette.iter().map(|c| c.rgb).find(|c| !colours.contains(c));
                if colours.contains(&by_seat) {
                    free.unwrap_or(by_seat)
                } else {
                    by_seat
                }
            });
            colours.push(colour);
        }
        PlayerColours { colours, palette }
    }

    /// Our palette by seat, for `players` players.
    pub fn by_seat(players: usize) -> PlayerColours {
        PlayerColours::new(std::iter::repeat_n(None, players))
    }

    /// Player `p`'s colour (the palette's for a seat beyond the game's, so it never panics).
    pub fn get(&self, p: u8) -> Rgb {
        let by_seat = || self.palette[p as usize % self.palette.len()].rgb;
        self.colours.get(p as usize).copied().unwrap_or_else(by_seat)
    }

    /// How strongly an owner's colour tints a feature: open features lightly, completed
    /// (scored) features strongly, so the two read differently at a glance. A dark colour
    /// tints less, so that the feature keeps 3:1 against every board backdrop: a black
    /// player's city is a dark brown, not a hole in the board.
    pub fn tint(&self, base: Rgb, owner: u8, completed: bool) -> Rgb {
        let colour = self.get(owner);
        let strongest = strongest_tint(base, colour);
        base.mix(
            colour,
            if completed {
                strongest
            } else {
                strongest * OPEN_TINT / COMPLETED_TINT
            },
        )
    }
}

/// How much of its owner's colour a completed feature takes, and an open one.
const COMPLETED_TINT: f32 = 0.85;
const OPEN_TINT: f32 = 0.5;

/// The most of `colour` (up to [`COMPLETED_TINT`], in steps of 0.05) mixed into `base` that
/// keeps 3:1 against every board backdrop. Colours lighter than the backdrops pass at once.
fn strongest_tint(base: Rgb, colour: Rgb) -> f32 {
    let mut amount = COMPLETED_TINT;
    while amount > 0.0
        && BOARD_BACKDROPS
            .iter()
            .any(|b| base.mix(colour, amount).contrast(*b) < GRAPHICS_CONTRAST)
    {
        amount = (amount - 0.05).max(0.0);
    }
    amount
}

// The landscape. Muted, so that player colours stand out on it.
pub const FIELD: Rgb = Rgb(0x9c, 0xbd, 0x62);
pub const CITY: Rgb = Rgb(0xd8, 0xb8, 0x7c);
pub const WALL: Rgb = Rgb(0xee, 0xe6, 0xd6);
pub const WALL_EDGE: Rgb = Rgb(0x6b, 0x5b, 0x45);
pub const ROAD: Rgb = Rgb(0xf4, 0xee, 0xe0);
pub const ROAD_EDGE: Rgb = Rgb(0x7d, 0x6e, 0x57);
/// Water: a pale aqua, apart from every player's blue (the first player's is `#0072b2`).
pub const RIVER: Rgb = Rgb(0x8e, 0xc5, 0xd6);
pub const RIVER_EDGE: Rgb = Rgb(0x2f, 0x65, 0x77);
pub const CLOISTER_WALL: Rgb = Rgb(0xf1, 0xe6, 0xcc);
pub const CLOISTER_ROOF: Rgb = Rgb(0xb2, 0x4a, 0x38);
pub const HOUSE_ROOF: Rgb = Rgb(0x9a, 0x5b, 0x3c);
pub const GARDEN: Rgb = Rgb(0x5f, 0x9e, 0x45);
pub const GARDEN_HEDGE: Rgb = Rgb(0x3d, 0x6e, 0x2e);
pub const FLOWER: Rgb = Rgb(0xf7, 0xf2, 0xe8);
pub const SHIELD: Rgb = Rgb(0x2a, 0x4f, 0x9a);
pub const SHIELD_MARK: Rgb = Rgb(0xf5, 0xf1, 0xe6);
pub const INK: Rgb = Rgb(0x1c, 0x1c, 0x1e);
pub const BACKGROUND: Rgb = Rgb(0x2b, 0x30, 0x35);
pub const PAPER: Rgb = Rgb(0xf3, 0xef, 0xe6);
/// Dark pages' background (`--bg` in style.css), behind a board drawn for one.
pub const NIGHT: Rgb = Rgb(0x17, 0x19, 0x1c);
/// Dark pages' panels (`--panel`), the Card Game's table cloth on them.
pub const NIGHT_PAPER: Rgb = Rgb(0x22, 0x26, 0x2a);
/// The back of a face-down card: 3:1 against the table cloth of light and dark pages, with
/// room for a white mark.
pub const CARD_BACK: Rgb = Rgb(0x6f, 0x73, 0x90);
/// What boards are drawn on: light pages' slate and dark pages' near-black.
pub const BOARD_BACKDROPS: [Rgb; 2] = [BACKGROUND, NIGHT];
/// The Card Game's table cloths, on light and dark pages.
pub const TABLE_CLOTHS: [Rgb; 2] = [PAPER, NIGHT_PAPER];
/// The cross on a square no tile left fits.
pub const DEAD_SPOT: Rgb = Rgb(0xe0, 0x4f, 0x3f);
/// The badge of a ghost tile: the value of a placement not made.
pub const GHOST_BADGE: Rgb = Rgb(0xc9, 0xd6, 0xe3);
/// The chances graph's markers of mistakes and blunders (`.marker` in style.css): a neutral
/// grey, no player's colour (Board Game Arena's black and JCloisterZone's white among them),
/// that keeps 3:1 on light and dark pages.
pub const CHANCE_MARKER: Rgb = Rgb(0x8a, 0x8a, 0x8a);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mixing_hits_both_ends_exactly() {
        assert_eq!(FIELD.mix(INK, 0.0), FIELD);
        assert_eq!(FIELD.mix(INK, 1.0), INK);
        assert_eq!(Rgb(0, 0, 0).mix(Rgb(255, 255, 255), 0.5), Rgb(128, 128, 128));
    }

    #[test]
    fn recorded_colours_are_kept_and_never_shared() {
        let c = PlayerColours::new([Some("#FFA500"), Some("#000000"), None, Some("#ffa500"), Some("red")]);
        assert_eq!(c.get(0), Rgb(0xff, 0xa5, 0x00));
        assert_eq!(c.get(1), Rgb(0, 0, 0));
        assert_eq!(c.get(2), player_colour(2).rgb, "no colour recorded: the seat's");
        assert_eq!(c.get(3), player_colour(3).rgb, "a repeated colour is not taken twice");
        assert_eq!(c.get(4), player_colour(4).rgb, "an unreadable colour is ignored");
        assert_eq!((c.get(1).outline(), c.get(0).outline()), (PAPER, INK));
        let clash = PlayerColours::new([Some("#0072b2"), None]);
        assert_eq!(clash.get(1), player_colour(1).rgb);
        let taken = PlayerColours::new([None, Some("#0072b2")]);
        assert_ne!(taken.get(0), taken.get(1));
    }

    /// Colours records bring besides JCloisterZone's slots: Board Game Arena's pure colours
    /// (black among them), greys and white, and a navy.
    const RECORDED: [Rgb; 9] = [
        Rgb(0xff, 0x00, 0x00),
        Rgb(0x00, 0x00, 0xff),
        Rgb(0x00, 0x80, 0x00),
        Rgb(0xff, 0xa5, 0x00),
        Rgb(0x00, 0x00, 0x00),
        Rgb(0x80, 0x80, 0x80),
        Rgb(0xff, 0xff, 0xff),
        Rgb(0x1d, 0x18, 0x88),
        Rgb(0x98, 0x2d, 0xb4),
    ];

    fn every_player_colour() -> impl Iterator<Item = Rgb> {
        let slots = crate::record::jcz::SLOT_COLOURS.map(|c| Rgb::parse_hex(c).expect("a slot colour"));
        let cards = CARD_PLAYER_COLOURS.iter().map(|c| c.rgb);
        (PLAYER_COLOURS.iter().map(|c| c.rgb))
            .chain(cards)
            .chain(RECORDED)
            .chain(slots)
    }

    /// The colours players are given by default or bring from the programs that record them:
    /// ours by seat (both games'), JCloisterZone's slots and Board Game Arena's.
    fn given_player_colours() -> Vec<Rgb> {
        let hex = |c: &str| Rgb::parse_hex(c).expect("a colour");
        (PLAYER_COLOURS.iter().chain(&CARD_PLAYER_COLOURS).map(|c| c.rgb))
            .chain(crate::record::jcz::SLOT_COLOURS.map(hex))
            .chain(crate::record::lab::BGA_COLOURS.map(|(_, c)| hex(c)))
            .collect()
    }

    /// The pages' backgrounds and panels, light and dark (`--bg`, `--panel` in style.css).
    const PAGE_BACKDROPS: [Rgb; 4] = [Rgb(0xfa, 0xf8, 0xf3), Rgb(0xff, 0xff, 0xff), NIGHT, NIGHT_PAPER];

    /// The chances graph's markers are no player's colour, and read on every page.
    #[test]
    fn the_chance_markers_are_no_players_colour() {
        for c in given_player_colours() {
            let d = CHANCE_MARKER.delta_e(c);
            assert!(d > 20.0, "{c}: ΔE {d:.1}");
        }
        for page in PAGE_BACKDROPS {
            let contrast = CHANCE_MARKER.contrast(page);
            assert!(contrast >= GRAPHICS_CONTRAST, "on {page}: {contrast:.2}");
        }
    }

    /// In the Card Game no player's colour reads as a row's: neither the palette's, five
    /// players of it, nor a recorded colour, which gives way to the palette when it would.
    #[test]
    fn no_card_game_player_has_a_rows_colour() {
        for p in CARD_PLAYER_COLOURS {
            for row in CARD_ROWS {
                assert!(!p.rgb.reads_as(row), "{} ({}) reads as the row {row}", p.name, p.rgb);
            }
        }
        for (i, a) in CARD_PLAYER_COLOURS.iter().enumerate() {
            for b in &CARD_PLAYER_COLOURS[i + 1..] {
                let d = a.rgb.delta_e(b.rgb);
                assert!(d > 20.0, "{} and {}: ΔE {d:.1}", a.name, b.name);
            }
        }
        // The rows' own colours, every program's blue, red, yellow and green, and a blue
        // player of ours: each gives way; a pink and a black are kept.
        let rows = CARD_ROWS.map(Rgb::hex);
        let primaries = [
            "#0000ff", "#03a9f4", "#0072b2", "#ff0000", "#ef0000", "#ffed00", "#ffa500", "#008000", "#009900",
        ];
        let recorded: Vec<&str> = rows.iter().map(String::as_str).chain(primaries).collect();
        let colours = PlayerColours::card_game(recorded.iter().map(|c| Some(*c)));
        for (p, wanted) in recorded.iter().enumerate() {
            let got = colours.get(p as u8);
            assert!(
                CARD_ROWS.iter().all(|row| !got.reads_as(*row)),
                "player {p} recorded as {wanted} got {got}"
            );
        }
        let kept = PlayerColours::card_game([Some("#e377c2"), Some("#000000")]);
        assert_eq!(
            (kept.get(0).hex(), kept.get(1).hex()),
            ("#e377c2".into(), "#000000".into())
        );
        let by_seat = PlayerColours::card_game([None; 5]);
        for p in 0..7 {
            assert!(CARD_ROWS.iter().all(|row| !by_seat.get(p).reads_as(*row)), "seat {p}");
        }
    }

    #[test]
    fn contrast_is_wcags() {
        assert!((Rgb(0, 0, 0).contrast(Rgb(255, 255, 255)) - 21.0).abs() < 1e-9);
        assert_eq!(FIELD.contrast(FIELD), 1.0);
        // WCAG's own example: #777 on white is 4.48:1.
        assert!((Rgb(0x77, 0x77, 0x77).contrast(Rgb(255, 255, 255)) - 4.48).abs() < 0.01);
    }

    /// A figure in any player's colour is set off by its outline at 3:1 or more; so it is from
    /// its owner's dots in a field, which are that colour too (and it lies in a clearing of them).
    #[test]
    fn every_figure_keeps_three_to_one_against_its_outline() {
        for c in every_player_colour() {
            let contrast = c.contrast(c.outline());
            assert!(contrast >= GRAPHICS_CONTRAST, "{c}: {contrast:.2}");
        }
    }

    /// Owned cities, roads, rivers and fields, open or completed, in any player's colour, keep
    /// 3:1 against every board backdrop; completed ones still read stronger than open ones.
    #[test]
    fn owned_features_keep_three_to_one_against_every_backdrop() {
        let colours = PlayerColours {
            colours: every_player_colour().collect(),
            palette: &PLAYER_COLOURS,
        };
        for base in [CITY, ROAD, RIVER, FIELD] {
            for backdrop in BOARD_BACKDROPS {
                assert!(base.contrast(backdrop) >= GRAPHICS_CONTRAST, "{base} on {backdrop}");
            }
            for (p, c) in every_player_colour().enumerate() {
                for completed in [false, true] {
                    let tinted = colours.tint(base, p as u8, completed);
                    for backdrop in BOARD_BACKDROPS {
                        let contrast = tinted.contrast(backdrop);
                        assert!(
                            contrast >= GRAPHICS_CONTRAST,
                            "{c} on {base}: {tinted} on {backdrop}, {contrast:.2}"
                        );
                    }
                }
                let (open, done) = (colours.tint(base, p as u8, false), colours.tint(base, p as u8, true));
                assert!(c == base || open != done, "{c} on {base}: open and completed differ");
            }
        }
        let black = PlayerColours::new([Some("#000000")]);
        assert_ne!(black.tint(CITY, 0, true), Rgb(0x20, 0x1b, 0x12), "no longer a hole");
    }

    /// What is drawn straight on the board's backdrop keeps 3:1 there: the cross on a dead
    /// square, the badges, New World's sea.
    #[test]
    fn marks_on_the_backdrop_keep_three_to_one() {
        for mark in [DEAD_SPOT, GHOST_BADGE, PAPER, RIVER] {
            for backdrop in BOARD_BACKDROPS {
                let contrast = mark.contrast(backdrop);
                assert!(contrast >= GRAPHICS_CONTRAST, "{mark} on {backdrop}: {contrast:.2}");
            }
        }
    }

    /// The River is not mistaken for a player: its water differs from every player colour by
    /// more than 20 (CIE76), where 2.3 is the least a reader notices.
    #[test]
    fn the_river_is_no_players_colour() {
        for c in every_player_colour() {
            let d = RIVER.delta_e(c);
            assert!(d > 20.0, "{c}: ΔE {d:.1}");
        }
        assert!(RIVER_EDGE.contrast(RIVER) >= GRAPHICS_CONTRAST, "the river's banks");
    }

    /// A face-down card stands out from the table on light and dark pages, and its white mark
    /// from the card.
    #[test]
    fn a_face_down_card_reads_on_every_table() {
        for cloth in TABLE_CLOTHS {
            assert!(CARD_BACK.contrast(cloth) >= GRAPHICS_CONTRAST, "on {cloth}");
        }
        assert!(CARD_BACK.contrast(Rgb(255, 255, 255)) >= 4.5, "the ? on it");
    }

    #[test]
    fn player_colours_are_distinct_and_wrap() {
        for (i, a) in PLAYER_COLOURS.iter().enumerate() {
            for b in &PLAYER_COLOURS[i + 1..] {
                assert_ne!(a.rgb, b.rgb);
            }
        }
        assert_eq!(player_colour(6), PLAYER_COLOURS[0]);
        assert_eq!(PLAYER_COLOURS[0].rgb.hex(), "#0072b2");
    }
}
