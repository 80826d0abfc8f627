//! What every page of a game shows at the top ([`GameHead`]), and its share menu.

use crate::store::{GameId, GameRow};
use crate::web::problem::Problem;
use crate::web::share_view::{ShareInput, ShareView};
use crate::web::state::{Analysis, AppState};

/// What every page of a game shows at the top.
pub struct GameHead {
    pub id: GameId,
    pub title: String,
    /// The rules in words, expansions included.
    pub rules: String,
    /// Where the record came from, in words: "uploaded as" its format, or "recorded at the
    /// table".
    pub source: String,
    /// Turns (placed tiles) in the game.
    pub last: u32,
    /// The game's name ("Carcassonne: The New World").
    pub kind: &'static str,
    /// Whether JCloisterZone plays this game, so a `.jcz` download is offered.
    pub jcz: bool,
    /// Whether the game has a board, so its turns animate as a GIF.
    pub board: bool,
    /// The scoreboard's column of what players hold back, and its tooltip.
    pub held_label: &'static str,
    pub held_title: &'static str,
    /// The breakdown's two counts per player.
    pub count_labels: [&'static str; 2],
    /// The game as a Carcassonne Lab link, when it fits the format.
    pub lab: Option<String>,
    /// What New World's pages say of the tiles (`view::tiles_notice`).
    pub tiles_notice: Option<&'static str>,
    /// What a reader may point at on the board: "a city, road, field or cloister".
    pub features: &'static str,
    /// What the game calls the figure a move places: "meeple", "settler".
    pub figure: &'static str,
    /// Whether the game is on the home page's list; an unlisted one asks search engines not
    /// to index it either.
    pub listed: bool,
    /// Recorded at the table and not over yet: its moves are still coming.
    pub live: bool,
    /// Where the whole-game analysis stands, for the links to it.
    pub analysis: Analysis,
}

/// What a game's head says that depends on the game: its rules, its words for what players
/// hold back, and its downloads.
pub struct HeadWords {
    /// The rules in words, expansions included.
    pub rules: String,
    pub held_label: &'static str,
    pub held_title: &'static str,
    pub count_labels: [&'static str; 2],
    pub jcz: bool,
    pub board: bool,
}

impl GameHead {
    /// The head of the pages of the game stored as `row`, in its `words`, its analysis read
    /// from the store.
    pub fn new(state: &AppState, row: &GameRow, words: HeadWords) -> Result<GameHead, Problem> {
        let kind = row.kind;
        Ok(GameHead {
            id: row.id,
            title: row.players.join(" vs "),
            rules: words.rules,
            source: match row.source_format.as_str() {
                crate::store::live::SOURCE => "recorded at the table".into(),
                format => format!("uploaded as {format}"),
            },
            last: row.turns,
            kind: kind.title(),
            jcz: words.jcz,
            board: words.board,
            held_label: words.held_label,
            held_title: words.held_title,
            count_labels: words.count_labels,
            lab: None,
            tiles_notice: None,
            features: crate::replay::words::features_to_point_at(kind),
            figure: crate::replay::words::figures(kind).0,
            listed: row.listed,
            live: row.live,
            analysis: Analysis::of(state, &row.id)?,
        })
    }

    /// The share menu of a page of this game showing `turn` (`None`: the end), whose picture
    /// is `png` and whose preview is titled `title`.
    pub fn share(&self, state: &AppState, at: Option<u32>, png: &str, title: &str) -> ShareView {
        ShareView::new(&ShareInput {
            base: &state.public_url,
            id: self.id,
            turn: at,
            last: self.last,
            png,
            board: self.board,
            jcz: self.jcz,
            lab: self.lab.as_deref(),
            title,
        })
    }
}
