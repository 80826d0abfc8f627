//! Documentation where its readers are: the README stays short, and the reference is served
//! under `/docs` from `static/docs/*.md`, in the site's own frame and with its headers, listed
//! on the index, linked from every page's footer, and with no link into this site that leads
//! nowhere (a missing page or a missing section).

use crate::common;

use common::app::*;
use std::collections::BTreeSet;
use std::path::Path;

/// The README says what the project is, the two commands and where the reference is; the
/// reference itself is served by the service.
#[test]
fn the_readme_stays_within_250_lines() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 250,
        "README.md has {lines} lines; the reference belongs in static/docs/"
    );
    for command in ["cargo run --release -- serve", "cargo test"] {
        assert!(readme.contains(command), "the README starts with `{command}`");
    }
}

/// Every Markdown file in `static/docs/`, by the address it is served at.
fn doc_addresses() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("static/docs");
    let mut addresses: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| format!("/docs/{}", p.file_stem().unwrap().to_str().unwrap()))
        .collect();
    addresses.sort();
    addresses
}

/// The `href`s of a page, HTML entities for `&` undone.
fn links(html: &str) -> Vec<String> {
    html.split("href=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].replace("&amp;", "&"))
        .collect()
}

#[test]
fn every_reference_page_is_served_as_html_in_the_sites_frame() {
    let app = spawn_app();
    let index = get_html(&app, "/docs");
    assert_eq!(index.status, 200, "{}", index.body);
    assert!(index.content_type.starts_with("text/html"), "{}", index.content_type);
    let pages = doc_addresses();
    assert!(pages.len() >= 10, "the reference has its pages: {pages:?}");
    let listed: BTreeSet<String> = links(&index.body).into_iter().collect();
    for page in std::iter::once(&"/docs".to_string()).chain(&pages) {
        assert!(listed.contains(page), "the index lists {page}");
        let mut answer = agent().get(&app.url(page)).call().unwrap();
        let body = answer.body_mut().read_to_string().unwrap();
        assert_eq!(answer.status(), 200, "{page}: {body}");
        let header = |name: &str| (answer.headers().get(name)).map(|v| v.to_str().unwrap().to_string());
        assert!(header("content-type").unwrap().starts_with("text/html"), "{page}");
        assert_eq!(header("x-content-type-options").as_deref(), Some("nosniff"), "{page}");
        assert!(
            header("content-security-policy")
                .unwrap()
                .contains("frame-ancestors 'none'")
        );
        assert!(header("x-request-id").is_some(), "{page}");
        // The site's frame: its header, style sheet and footer, around one heading of its own.
        assert!(
            body.contains("<link rel=\"stylesheet\" href=\"/static/style.css\">"),
            "{page}"
        );
        assert!(body.contains("class=\"brand\"") && body.contains("<footer>"), "{page}");
        assert_eq!(body.matches("<h1").count(), 1, "{page} has one title");
        let mut head = agent().head(&app.url(page)).call().unwrap();
        assert_eq!(head.status(), 200, "HEAD {page}");
        assert!(
            head.body_mut().read_to_string().unwrap().is_empty(),
            "HEAD {page} sends no body"
        );
    }
    let missing = get(&app, "/docs/nowhere");
    assert_eq!(
        (missing.status, missing.content_type.as_str()),
        (404, "application/problem+json")
    );
    app.stop();
}

/// Every page's footer leads to the reference.
#[test]
fn every_page_links_the_reference_from_its_footer() {
    let app = spawn_app();
    // The home page, a demo game's pages, the bookmarklet's page and the reference's own.
    let game = (links(&get_html(&app, "/").body).into_iter())
        .find(|l| l.starts_with("/g/"))
        .expect("the home page lists the demos");
    let turn = format!("{game}/t/1");
    for path in ["/", &game, &turn, "/bga", "/docs/api"] {
        let page = get_html(&app, path);
        assert_eq!(page.status, 200, "{path}");
        let footer = &page.body[page
            .body
            .find("<footer>")
            .unwrap_or_else(|| panic!("{path} has a footer"))..];
        assert!(footer.contains("href=\"/docs\""), "{path}: {footer}");
    }
    app.stop();
}

/// A link in the reference that points at this site answers, and a link to a section finds
/// that section's heading.
#[test]
fn every_link_in_the_reference_into_this_site_resolves() {
    let app = spawn_app();
    let mut broken = Vec::new();
    let mut checked = BTreeSet::new();
    for page in std::iter::once("/docs".to_string()).chain(doc_addresses()) {
        let body = get_html(&app, &page).body;
        for link in links(&body) {
            if link.starts_with("http://") || link.starts_with("https://") {
                continue;
            }
            let link = if link.starts_with('#') {
                format!("{page}{link}")
            } else {
                link
            };
            if !checked.insert(link.clone()) {
                continue;
            }
            let (path, section) = link
                .split_once('#')
                .map_or((link.as_str(), None), |(p, s)| (p, Some(s)));
            let target = get_html(&app, path);
            if target.status != 200 {
                broken.push(format!("{page}: {link} answers {}", target.status));
            } else if let Some(section) = section
                && !target.body.contains(&format!("id=\"{section}\""))
            {
                broken.push(format!("{page}: {link} has no section {section}"));
            }
        }
    }
    assert!(
        checked.len() > 30,
        "the reference links its pages and sections: {checked:?}"
    );
    assert!(broken.is_empty(), "links that lead nowhere: {broken:#?}");
    app.stop();
}
