//! Whether a state-changing request comes from this site's own pages: another site's page
//! must not make its visitors' browsers delete or unlist a game (cross-site request forgery).

use super::problem::Problem;
use actix_web::HttpRequest;
use actix_web::http::StatusCode;

/// Refuses a request another site sent through a browser. Browsers say where a request comes
/// from in `Sec-Fetch-Site` (all current ones), or else in `Origin` (older ones, on every
/// cross-origin post); it must be this site, `public_url` (scheme, host and port). A request
/// with neither header comes from no browser page (curl, a script): it carries only what its
/// sender chose, so it passes.
pub fn same_origin(req: &HttpRequest, public_url: &str) -> Result<(), Problem> {
    let header = |name| req.headers().get(name).and_then(|v| v.to_str().ok());
    let from_elsewhere = match (header("sec-fetch-site"), header("origin")) {
        (Some(site), _) => !matches!(site, "same-origin" | "none"),
        (None, Some(origin)) => origin != site_origin(public_url),
        (None, None) => false,
    };
    if from_elsewhere {
        return Err(Problem::new(
            StatusCode::FORBIDDEN,
            "Cross-site request",
            "this request came from another site's page; change a game from its own page here",
        ));
    }
    Ok(())
}

/// `https://replay.example.org` of `https://replay.example.org/some/path`.
fn site_origin(url: &str) -> &str {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    let end = url[after_scheme..].find('/').map_or(url.len(), |i| after_scheme + i);
    &url[..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn verdict(headers: &[(&str, &str)]) -> bool {
        let req = headers
            .iter()
            .fold(TestRequest::post(), |r, h| r.insert_header(*h))
            .to_http_request();
        same_origin(&req, "https://replay.example.org").is_ok()
    }

    #[test]
    fn only_this_sites_pages_and_non_browsers_pass() {
        assert!(verdict(&[]), "curl");
        assert!(verdict(&[("Sec-Fetch-Site", "same-origin")]));
        assert!(verdict(&[("Origin", "https://replay.example.org")]));
        assert!(!verdict(&[("Sec-Fetch-Site", "cross-site")]));
        assert!(
            !verdict(&[("Sec-Fetch-Site", "same-site")]),
            "a sibling subdomain is another site"
        );
        assert!(!verdict(&[("Origin", "https://evil.example")]));
        assert!(!verdict(&[("Origin", "null")]), "a sandboxed frame");
        assert!(
            !verdict(&[
                ("Sec-Fetch-Site", "cross-site"),
                ("Origin", "https://replay.example.org")
            ]),
            "the browser's own word wins"
        );
        assert_eq!(site_origin("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
        assert_eq!(site_origin("https://a.example/replay"), "https://a.example");
    }
}
