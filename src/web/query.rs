//! Query strings, read into a handler's own type with a `400` that names the parameter and
//! says what it takes: `?size=-5` is answered "`size` takes a whole number of pixels per tile
//! (16 to 256)", never a deserialiser's words alone. Flags read as people write them: `1`,
//! `0`, `true`, `false`, `yes`, `no`, `on`, `off`.

use super::problem::Problem;
use actix_web::dev::Payload;
use actix_web::http::StatusCode;
use actix_web::{FromRequest, HttpRequest};
use serde::de::{DeserializeOwned, Deserializer, Error as _};
use std::future::{Ready, ready};

/// A request's query, as `T`; [`Problem`] `400` when it does not read.
pub struct Query<T>(pub T);

impl<T> Query<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for Query<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: DeserializeOwned> FromRequest for Query<T> {
    type Error = Problem;
    type Future = Ready<Result<Query<T>, Problem>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(parse(req.query_string()).map(Query))
    }
}

/// Reads a query string into `T`, naming the parameter that does not read.
pub fn parse<T: DeserializeOwned>(query: &str) -> Result<T, Problem> {
    let pairs = serde_urlencoded::Deserializer::new(form_urlencoded::parse(query.as_bytes()));
    serde_path_to_error::deserialize(pairs).map_err(|e| {
        let parameter = e.path().to_string();
        let why = crate::record::quote::shorten_quotes(&e.inner().to_string());
        let detail = match takes(&parameter) {
            Some(takes) => format!("`{parameter}` takes {takes}: {why}"),
            None => format!("`{parameter}`: {why}"),
        };
        let mut p = Problem::new(StatusCode::BAD_REQUEST, "Bad query", detail);
        p.extensions.insert("parameter".into(), serde_json::json!(parameter));
        p
    })
}

/// What each parameter of the site's queries takes, in words. A name means one thing
/// wherever it is used.
fn takes(parameter: &str) -> Option<&'static str> {
    Some(match parameter {
        "size" => "a whole number of pixels per tile (16 to 256; 16 to 96 for a GIF)",
        "legend" | "listed" => "1 or 0 (true or false)",
        "page" | "standings_page" | "games_page" => "a page number, from 1",
        "queued" | "waiting" => "a whole number",
        "maxwidth" | "maxheight" => "a whole number of pixels",
        _ => return None,
    })
}

/// A flag in a query, `None` when absent: `1`, `true`, `yes` or `on` for true, `0`, `false`,
/// `no` or `off` for false (`#[serde(default, deserialize_with = "flag")]`).
pub fn flag<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    let Some(word) = <Option<String> as serde::Deserialize>::deserialize(d)? else {
        return Ok(None);
    };
    match word.to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(Some(true)),
        "0" | "false" | "no" | "off" => Ok(Some(false)),
        _ => Err(D::Error::custom("it is neither 1 nor 0")),
    }
}

/// An upload's query, for the API's upload and a live game's start alike: `?listed=0` keeps
/// the game off the lists.
#[derive(serde::Deserialize)]
pub struct UploadQuery {
    #[serde(default, deserialize_with = "flag")]
    listed: Option<bool>,
}

impl UploadQuery {
    /// Whether the game goes on the lists: yes unless asked not to.
    pub fn listed(&self) -> bool {
        self.listed.unwrap_or(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug)]
    struct Image {
        size: Option<u32>,
        #[serde(default, deserialize_with = "flag")]
        legend: Option<bool>,
    }

    #[test]
    fn a_bad_parameter_is_named_with_what_it_takes() {
        let p = parse::<Image>("size=-5").unwrap_err();
        assert_eq!(p.status, StatusCode::BAD_REQUEST);
        assert!(
            p.detail.starts_with("`size` takes a whole number of pixels per tile"),
            "{}",
            p.detail
        );
        assert_eq!(p.extensions["parameter"], "size");
        let p = parse::<Image>("legend=maybe").unwrap_err();
        assert!(
            p.detail.starts_with("`legend` takes 1 or 0 (true or false)"),
            "{}",
            p.detail
        );
        for (query, legend) in [
            ("legend=1", Some(true)),
            ("legend=0", Some(false)),
            ("legend=TRUE", Some(true)),
            ("", None),
        ] {
            assert_eq!(parse::<Image>(query).unwrap().legend, legend, "{query}");
        }
        assert_eq!(parse::<Image>("size=64").unwrap().size, Some(64));
    }
}
