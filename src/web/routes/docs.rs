//! `/docs` and `/docs/{page}`: the reference a user needs (record formats, the HTTP API, the
//! rules, the analysis method, operations), written as Markdown in `static/docs/`, embedded in
//! the binary and rendered to HTML once, on first use, inside the site's page frame.
//!
//! Each page's title is its first heading and its summary on the index is its first
//! paragraph, so a page says what it is in one place. Every heading gets an `id` made from its
//! text (lower case, words joined by `-`, as GitHub makes them), so a section has an address
//! such as `/docs/api#errors`.

use crate::record::quote::Quoted;
use crate::web::problem::Problem;
use actix_web::{route, web};
use askama::Template;
use askama_web::WebTemplate;
use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use std::sync::LazyLock;

/// The pages, in the order the index lists them: `(address under /docs/, Markdown)`.
const SOURCES: [(&str, &str); 16] = [
    ("commands", include_str!("../../../static/docs/commands.md")),
    ("records", include_str!("../../../static/docs/records.md")),
    ("jcloisterzone", include_str!("../../../static/docs/jcloisterzone.md")),
    (
        "board-game-arena",
        include_str!("../../../static/docs/board-game-arena.md"),
    ),
    (
        "course-notation",
        include_str!("../../../static/docs/course-notation.md"),
    ),
    (
        "carcassonne-lab",
        include_str!("../../../static/docs/carcassonne-lab.md"),
    ),
    ("exports", include_str!("../../../static/docs/exports.md")),
    ("rules", include_str!("../../../static/docs/rules.md")),
    ("new-world", include_str!("../../../static/docs/new-world.md")),
    ("card-game", include_str!("../../../static/docs/card-game.md")),
    ("pages", include_str!("../../../static/docs/pages.md")),
    ("recording", include_str!("../../../static/docs/recording.md")),
    ("images", include_str!("../../../static/docs/images.md")),
    ("api", include_str!("../../../static/docs/api.md")),
    ("analysis", include_str!("../../../static/docs/analysis.md")),
    ("operations", include_str!("../../../static/docs/operations.md")),
];

/// A page as served: its address, its title and summary as plain text, and its body as HTML.
pub struct DocPage {
    pub slug: &'static str,
    pub title: String,
    pub summary: String,
    pub body: String,
}

/// Every page, rendered once.
pub static PAGES: LazyLock<Vec<DocPage>> =
    LazyLock::new(|| SOURCES.iter().map(|(slug, markdown)| render(slug, markdown)).collect());

fn render(slug: &'static str, markdown: &str) -> DocPage {
    let events = with_heading_ids(Parser::new_ext(markdown, Options::ENABLE_TABLES).collect());
    let title = text_of(&events, |tag| {
        matches!(
            tag,
            Tag::Heading {
                level: HeadingLevel::H1,
                ..
            }
        )
    });
    let summary = text_of(&events, |tag| matches!(tag, Tag::Paragraph));
    let mut body = String::new();
    pulldown_cmark::html::push_html(&mut body, events.into_iter());
    DocPage {
        slug,
        title,
        summary,
        body,
    }
}

/// The plain text of the first element that `is` picks.
fn text_of(events: &[Event], is: impl Fn(&Tag) -> bool) -> String {
    let Some(start) = events.iter().position(|e| matches!(e, Event::Start(tag) if is(tag))) else {
        return String::new();
    };
    let mut depth = 0;
    let mut text = String::new();
    for event in &events[start..] {
        match event {
            Event::Start(_) => depth += 1,
            Event::End(_) => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            Event::Text(t) | Event::Code(t) => text.push_str(t),
            Event::SoftBreak | Event::HardBreak => text.push(' '),
            _ => {}
        }
    }
    text
}

/// Gives every heading without an id one made from its text.
fn with_heading_ids(mut events: Vec<Event<'_>>) -> Vec<Event<'_>> {
    let mut i = 0;
    while i < events.len() {
        if let Event::Start(Tag::Heading { id: None, .. }) = &events[i] {
            let end = (i..events.len())
                .find(|&j| matches!(events[j], Event::End(TagEnd::Heading(_))))
                .unwrap_or(events.len());
            let slug = anchor(&text_of(&events[i..end + 1], |_| true));
            if let Event::Start(Tag::Heading { id, .. }) = &mut events[i] {
                *id = Some(slug.into());
            }
        }
        i += 1;
    }
    events
}

/// A heading's anchor, as GitHub makes them: lower case, letters, digits, `-` and `_` kept,
/// spaces made `-`, everything else dropped.
pub fn anchor(heading: &str) -> String {
    heading
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

#[derive(Template, WebTemplate)]
#[template(path = "docs_index.html")]
pub struct DocsIndex {
    pub pages: &'static [DocPage],
}

#[derive(Template, WebTemplate)]
#[template(path = "docs.html")]
pub struct DocsPage {
    pub page: &'static DocPage,
}

/// The reference's pages, each with what it covers.
#[route("/docs", method = "GET", method = "HEAD")]
pub async fn index() -> DocsIndex {
    DocsIndex { pages: &PAGES }
}

/// One page of the reference.
#[route("/docs/{page}", method = "GET", method = "HEAD")]
pub async fn show(slug: web::Path<String>) -> Result<DocsPage, Problem> {
    PAGES
        .iter()
        .find(|p| p.slug == slug.as_str())
        .map(|page| DocsPage { page })
        .ok_or_else(|| Problem::not_found(format!("no reference page {}", Quoted(&slug))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_get_the_anchors_github_gives_them() {
        assert_eq!(
            anchor("Record format (`carcassonne-replay/1`)"),
            "record-format-carcassonne-replay1"
        );
        assert_eq!(anchor("Exports: .jcz and CSV"), "exports-jcz-and-csv");
        let page = render("x", "# A page\n\nWhat it is.\n\n## Win chances and move classes\n");
        assert_eq!((page.title.as_str(), page.summary.as_str()), ("A page", "What it is."));
        assert!(
            page.body.contains("<h2 id=\"win-chances-and-move-classes\">"),
            "{}",
            page.body
        );
    }

    #[test]
    fn every_page_has_a_title_and_a_summary() {
        for page in PAGES.iter() {
            assert!(!page.title.is_empty() && !page.summary.is_empty(), "{}", page.slug);
        }
    }
}
