//! The home page's search: the form as sent, the games it finds, a page at a time, and the
//! players a name typed matches. A name finds its own players' games when it is a whole name,
//! else those of every player whose name holds it (`store::players`' module doc says how the
//! names are found).

use crate::engine::{GameKind, Preset};
use crate::record::MAX_NAME_CHARS;
use crate::store::{GameRow, Matched, PLAYERS_SEARCHED, Search, Typed, Who, Whose};
use crate::web::AppState;
use crate::web::problem::Problem;

/// Games a page of the home page (or a player's page) lists.
pub const PER_PAGE: u32 = 30;

/// The home page's search as a form sends it: empty fields are no filter.
#[derive(Clone, Debug, Default, serde::Deserialize)]
pub struct SearchForm {
    /// A player's name, or `bga:ID`.
    #[serde(default)]
    pub q: String,
    #[serde(default)]
    pub kind: String,
    #[serde(default)]
    pub rules: String,
    /// Days, `YYYY-MM-DD`, both included.
    #[serde(default)]
    pub from: String,
    #[serde(default)]
    pub until: String,
}

impl SearchForm {
    /// The search it asks; a field that does not parse is a 400 naming it.
    pub fn search(&self) -> Result<Asked, Problem> {
        let bad = |field: &str, value: &str, want: &str| {
            Problem::new(
                actix_web::http::StatusCode::BAD_REQUEST,
                "Bad search",
                format!("{field} {value:?} is not {want}"),
            )
        };
        let day = |field, s: &str| match some(s) {
            None => Ok(None),
            Some(d) => (d.parse().map(Some)).map_err(|_| bad(field, d, "a day written YYYY-MM-DD")),
        };
        let kind = match some(&self.kind) {
            None => None,
            Some(k) => Some(
                k.parse::<GameKind>()
                    .map_err(|_| bad("kind", k, "carcassonne, new-world or card-game"))?,
            ),
        };
        let rules = match some(&self.rules) {
            Some(r) if !rules_names().any(|n| n == r) => {
                let names: Vec<&str> = rules_names().collect();
                return Err(bad("rules", r, &format!("one of {}", names.join(", "))));
            }
            r => r.map(str::to_string),
        };
        let q = some(&self.q);
        // No name holds a control character; PostgreSQL would refuse a NUL with an error.
        if let Some(c) = q.and_then(|q| q.chars().find(|c| c.is_control())) {
            return Err(Problem::new(
                actix_web::http::StatusCode::BAD_REQUEST,
                "Bad search",
                format!(
                    "q holds the control character U+{:04X}, which no player's name has",
                    u32::from(c)
                ),
            ));
        }
        if let Some(chars) = q.map(|q| q.chars().count()).filter(|&n| n > MAX_NAME_CHARS) {
            return Err(Problem::new(
                actix_web::http::StatusCode::BAD_REQUEST,
                "Bad search",
                format!("q has {chars} characters, and no player's name has more than {MAX_NAME_CHARS}"),
            ));
        }
        // A Board Game Arena id, and a name with nothing left once folded (marks alone), are
        // one player each.
        let (player, typed) = match q.map(|q| (Who::parse(q), Typed::new(q))) {
            None => (None, None),
            Some((Who::Name(_), Some(typed))) => (None, Some(typed)),
            Some((who, _)) => (Some(Whose::One(who)), None),
        };
        let search = Search {
            player,
            opponent: None,
            kind,
            rules,
            from: day("from", &self.from)?,
            until: day("until", &self.until)?,
        };
        Ok(Asked { search, typed })
    }

    /// The search as a query string, for the pages' links (empty for none; else ending in `&`).
    pub fn query(&self) -> String {
        let fields = [
            ("q", &self.q),
            ("kind", &self.kind),
            ("rules", &self.rules),
            ("from", &self.from),
            ("until", &self.until),
        ];
        (fields.into_iter())
            .filter(|(_, v)| !v.trim().is_empty())
            .map(|(k, v)| {
                format!(
                    "{k}={}&",
                    percent_encoding::utf8_percent_encode(v.trim(), percent_encoding::NON_ALPHANUMERIC)
                )
            })
            .collect()
    }

    pub fn is_empty(&self) -> bool {
        self.query().is_empty()
    }
}

/// A form field's text, trimmed; `None` when empty.
fn some(s: &str) -> Option<&str> {
    Some(s.trim()).filter(|s| !s.is_empty())
}

/// The rulebooks a search can ask for: every preset's name, and the Card Game's.
pub fn rules_names() -> impl Iterator<Item = &'static str> {
    Preset::ALL.into_iter().map(Preset::name).chain(["card-game"])
}

/// The home page's search as asked: its filters, and the name typed, which [`found`] turns
/// into players.
pub struct Asked {
    pub search: Search,
    pub typed: Option<Typed>,
}

/// A page of the games a search finds, how many it finds, whether the name typed was a whole
/// name, and the players it matches.
pub struct Found {
    pub rows: Vec<GameRow>,
    pub matches: u64,
    pub whole_name: bool,
    pub named: Named,
}

/// Page `page` of the listed games the home page's search finds. A name typed finds the games
/// of the players of that very name (folded: `store::players::fold`) when they have games the
/// search matches, as a name always did; else those of every player whose name holds it, up
/// to the first [`PLAYERS_SEARCHED`] in rank.
pub fn found(state: &AppState, asked: &Asked, page: u64) -> Result<Found, Problem> {
    let Some(typed) = &asked.typed else {
        let (rows, matches) = listed_page(state, &asked.search, page)?;
        return Ok(Found {
            rows,
            matches,
            whole_name: false,
            named: Named::default(),
        });
    };
    let ranked = state.store.names_like(typed, PLAYERS_SEARCHED + 1)?;
    let players = |keys: Vec<String>| Search {
        player: Some(Whose::Keys(keys)),
        ..asked.search.clone()
    };
    let whole = players(ranked.iter().filter(|m| m.whole).map(|m| m.key.clone()).collect());
    let matches = state.store.count_search(&whole)?;
    let (search, matches, whole_name) = if matches > 0 {
        (whole, matches, true)
    } else {
        let searched = ranked.iter().take(PLAYERS_SEARCHED as usize);
        let part = players(searched.map(|m| m.key.clone()).collect());
        let matches = state.store.count_search(&part)?;
        (part, matches, false)
    };
    Ok(Found {
        rows: page_of(state, &search, matches, page)?,
        matches,
        whole_name,
        named: Named::of(typed, &ranked, whole_name),
    })
}

/// Page `page` (from 1) of the listed games a search matches, and how many it matches. A page
/// past the last is a 404.
pub fn listed_page(state: &AppState, search: &Search, page: u64) -> Result<(Vec<GameRow>, u64), Problem> {
    let matches = state.store.count_search(search)?;
    Ok((page_of(state, search, matches, page)?, matches))
}

/// Page `page` of the `matches` listed games a search matches.
fn page_of(state: &AppState, search: &Search, matches: u64, page: u64) -> Result<Vec<GameRow>, Problem> {
    let pages = matches.div_ceil(u64::from(PER_PAGE)).max(1);
    if page == 0 || page > pages {
        return Err(Problem::not_found(format!(
            "the list of games has pages 1 to {pages}, not {page}"
        )));
    }
    Ok(state.store.search(search, (page - 1) * u64::from(PER_PAGE), PER_PAGE)?)
}

/// What the home page says of the players a name typed matches.
#[derive(Default)]
pub struct Named {
    /// Up to ten of them, when it matches more than one, and whether there are more.
    pub players: Vec<String>,
    pub more: bool,
    /// It matches more names than the search takes the games of.
    pub over_cap: bool,
    /// It is short enough to match the start of a word only.
    pub word_starts_only: bool,
}

impl Named {
    /// From the names the name typed matches, ranked (`store::players::names_like`).
    fn of(typed: &Typed, ranked: &[Matched], whole_name: bool) -> Named {
        let searched = &ranked[..ranked.len().min(PLAYERS_SEARCHED as usize)];
        let mut players: Vec<String> = (searched.iter())
            .filter_map(|m| m.listed_as.clone())
            .take(PLAYERS_SHOWN + 1)
            .collect();
        let more = players.len() > PLAYERS_SHOWN;
        players.truncate(PLAYERS_SHOWN);
        if players.len() < 2 {
            players.clear();
        }
        Named {
            players,
            more,
            over_cap: !whole_name && ranked.len() > searched.len(),
            word_starts_only: !typed.anywhere(),
        }
    }
}

/// The players whose names match the name typed that the home page names, at most.
const PLAYERS_SHOWN: usize = 10;
