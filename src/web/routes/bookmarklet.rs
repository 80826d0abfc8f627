//! `/bga`: the page that hands out the Board Game Arena bookmarklet, whose readable source is
//! `static/bga-bookmarklet.js`. The link is built here from that source, with this site's
//! public address filled in, so the bookmark a player keeps sends games to the site it came
//! from.

use crate::web::AppState;
use actix_web::{route, web};
use askama::Template;
use askama_web::WebTemplate;
use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};

/// The readable source, as shipped.
const SOURCE: &str = include_str!("../../../static/bga-bookmarklet.js");

/// The string literal in the source that stands for this site's address.
const BASE_IN_SOURCE: &str = "\"https://replay.example.org\"";

/// What a `javascript:` link must not hold as it is: `%` (the browser percent-decodes the
/// script), white space and line breaks (bookmarks keep one line), `#` (a fragment) and what
/// HTML or a URL parser treats specially. The rest of the script stays readable.
const IN_HREF: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'\'')
    .add(b'<')
    .add(b'>')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// The source with `base` (the site's public address, no trailing slash) as where games go.
pub fn script(base: &str) -> String {
    let literal = serde_json::to_string(base).expect("a string serialises");
    SOURCE.replacen(BASE_IN_SOURCE, &literal, 1)
}

/// The bookmark's address: the script without its comment lines and indentation, after
/// `javascript:`. Only whole-line comments go (a `//` inside code may be part of a string, such
/// as an address); line breaks stay, so the script parses as its source does.
pub fn href(base: &str) -> String {
    let script = script(base);
    let compact = script
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    format!("javascript:{}", utf8_percent_encode(&compact, IN_HREF))
}

#[derive(Template, WebTemplate)]
#[template(path = "bga.html")]
pub struct BgaPage {
    /// The site's public address, where the bookmarklet posts.
    pub base: String,
    /// The bookmark's `javascript:` address.
    pub href: String,
    /// The readable source, as the bookmark runs it, for anyone who wants to check.
    pub source: String,
}

impl BgaPage {
    pub fn for_site(base: &str) -> BgaPage {
        BgaPage {
            base: base.to_string(),
            href: href(base),
            source: script(base),
        }
    }
}

/// How to get a game out of Board Game Arena: the bookmarklet, and exactly what it reads and
/// sends.
#[route("/bga", method = "GET", method = "HEAD")]
pub async fn page(state: web::Data<AppState>) -> BgaPage {
    BgaPage::for_site(&state.public_url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_source_names_the_placeholder_address_once() {
        assert_eq!(SOURCE.matches(BASE_IN_SOURCE).count(), 1);
    }

    #[test]
    fn the_link_posts_to_the_site_it_came_from() {
        let base = "https://replay.test";
        let href = href(base);
        assert!(href.starts_with("javascript:void%20(async"), "{href}");
        let script = percent_encoding::percent_decode_str(&href["javascript:".len()..])
            .decode_utf8()
            .unwrap();
        assert!(script.contains("const base = \"https://replay.test\";"), "{script}");
        assert!(!script.contains("replay.example.org"));
        assert!(
            !script.lines().any(|l| l.starts_with("//") || l != l.trim()),
            "no comment lines, no indentation"
        );
        assert!(
            !href.contains([' ', '\n', '"', '#', '\'', '<', '>']),
            "nothing a bookmark or an attribute would mangle: {href}"
        );
    }

    #[test]
    fn an_address_cannot_break_out_of_its_string() {
        let script = script("https://x.test/\"; alert(1); \"");
        assert!(script.contains(r#"const base = "https://x.test/\"; alert(1); \"";"#));
    }
}
