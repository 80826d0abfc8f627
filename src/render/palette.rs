//! Colours. Player colours are the Okabe–Ito palette, chosen to stay distinguishable for the
//! common forms of colour blindness; the web pages read them from here so that a player has the
//! same colour on every page and image.

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

    /// Too dark to stand out on the dark board background or the ink outlines: such figures
    /// get a light outline instead.
    pub fn is_dark(self) -> bool {
        self.luma() < 60_000
    }
}

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

/// The colours of one game's players, the same on every page and image: each player's own
/// colour when the record names one (Board Game Arena logs and JCloisterZone saves do), else
/// our palette by seat. No two players share a colour: a repeated or missing one takes the
/// first palette colour nobody has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerColours(Vec<Rgb>);

impl PlayerColours {
    /// From each player's recorded colour as `#rrggbb`, if any.
    pub fn new<'a>(recorded: impl IntoIterator<Item = Option<&'a str>>) -> PlayerColours {
        let mut colours: Vec<Rgb> = Vec::new();
        for (seat, wanted) in recorded.into_iter().enumerate() {
            let own = wanted.and_then(Rgb::parse_hex).filter(|c| !colours.contains(c));
            let by_seat = player_colour(seat as u8).rgb;
            let colour = own.unwrap_or_else(|| {
                let free = PLAYER_COLOURS.iter().map(|c| c.rgb).find(|c| !colours.contains(c));
                if colours.contains(&by_seat) {
                    free.unwrap_or(by_seat)
                } else {
                    by_seat
                }
            });
            colours.push(colour);
        }
        PlayerColours(colours)
    }

    /// Our palette by seat, for `players` players.
    pub fn by_seat(players: usize) -> PlayerColours {
        PlayerColours::new(std::iter::repeat_n(None, players))
    }

    /// Player `p`'s colour (our palette's for a seat beyond the game's, so it never panics).
    pub fn get(&self, p: u8) -> Rgb {
        self.0.get(p as usize).copied().unwrap_or(player_colour(p).rgb)
    }

    /// How strongly an owner's colour tints a feature: open features lightly, completed
    /// (scored) features strongly, so the two read differently at a glance.
    pub fn tint(&self, base: Rgb, owner: u8, completed: bool) -> Rgb {
        base.mix(self.get(owner), if completed { 0.85 } else { 0.5 })
    }
}

// The landscape. Muted, so that player colours stand out on it.
pub const FIELD: Rgb = Rgb(0x9c, 0xbd, 0x62);
pub const CITY: Rgb = Rgb(0xd8, 0xb8, 0x7c);
pub const WALL: Rgb = Rgb(0xee, 0xe6, 0xd6);
pub const WALL_EDGE: Rgb = Rgb(0x6b, 0x5b, 0x45);
pub const ROAD: Rgb = Rgb(0xf4, 0xee, 0xe0);
pub const ROAD_EDGE: Rgb = Rgb(0x7d, 0x6e, 0x57);
pub const RIVER: Rgb = Rgb(0x4f, 0x93, 0xc9);
pub const RIVER_EDGE: Rgb = Rgb(0x2d, 0x5f, 0x8a);
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
/// The cross on a square no tile left fits.
pub const DEAD_SPOT: Rgb = Rgb(0xe0, 0x4f, 0x3f);
/// The badge of a ghost tile: the value of a placement not made.
pub const GHOST_BADGE: Rgb = Rgb(0xc9, 0xd6, 0xe3);

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
        assert!(c.get(1).is_dark() && !c.get(0).is_dark());
        let clash = PlayerColours::new([Some("#0072b2"), None]);
        assert_eq!(clash.get(1), player_colour(1).rgb);
        let taken = PlayerColours::new([None, Some("#0072b2")]);
        assert_ne!(taken.get(0), taken.get(1));
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
