//! Pages as sent, built once. A stored game never changes, so a turn's page changes only with
//! what its key says (the game's analysis as the page shows it, a Card Game's hands, whether it
//! is its owner's, with the forms) and with its owner's comments, after which the game's pages
//! are forgotten: it is built on the first request, gzipped, given a strong ETag of its bytes,
//! and kept. Later requests cost a look-up, and a client that holds the page already gets a 304.
//!
//! The cache is bounded by the bytes it keeps, not by pages: a page of a 72-turn game is about
//! 10 KB gzipped, so the default holds several thousand. Gzip is flate2 on its zlib-rs backend
//! (`Cargo.toml`), chosen for speed under load: a page is compressed once, but while the cache
//! fills, requests wait on it.
//!
//! Drawn pictures are kept apart ([`RenderCache`], the 256 drawn last by their ETag): they
//! are answered with their own headers by `routes::images`.

use actix_web::http::StatusCode;
use actix_web::http::header::{self, ETag, EntityTag};
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse};
use sha2::{Digest, Sha256};
use std::hash::Hash;
use std::io::{Read, Write};
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};

/// Bytes of gzipped pages kept at most, by default.
pub const PAGE_CACHE_BYTES: usize = 64 * 1024 * 1024;

/// A page as sent: its HTML gzipped, and an ETag of those bytes (gzip writes the same bytes for
/// the same text, and they are a tenth of the HTML to hash).
pub struct Page {
    gzip: Bytes,
    etag: String,
}

impl Page {
    fn of(html: &str) -> Page {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(html.as_bytes()).expect("writing to memory does not fail");
        let gzip = gz.finish().expect("writing to memory does not fail");
        let digest = Sha256::digest(&gzip);
        Page {
            gzip: Bytes::from(gzip),
            etag: digest[..12].iter().map(|b| format!("{b:02x}")).collect(),
        }
    }

    /// The answer to `req`: gzipped when the client takes gzip (nearly every one does), else
    /// plain; 304 when it holds this page already. Each encoding has its own strong ETag, as
    /// strong validators must. Pages are revalidated on every visit: a turn's page changes
    /// when the game's analysis finishes, or its owner comments.
    pub fn answer(&self, req: &HttpRequest) -> HttpResponse {
        self.answer_as(req, "no-cache")
    }

    /// The same, for the one client it was built for (a game's owner, with its forms): no
    /// shared cache may keep it.
    pub fn answer_private(&self, req: &HttpRequest) -> HttpResponse {
        self.answer_as(req, "private, no-cache")
    }

    fn answer_as(&self, req: &HttpRequest, cache_control: &'static str) -> HttpResponse {
        let gzip = takes_gzip(req);
        let tag = if gzip {
            format!("{}-gz", self.etag)
        } else {
            self.etag.clone()
        };
        let held = (req.headers().get(header::IF_NONE_MATCH))
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                v.split(',')
                    .any(|t| t.trim().trim_start_matches("W/").trim_matches('"') == tag)
            });
        let mut answer = HttpResponse::build(if held { StatusCode::NOT_MODIFIED } else { StatusCode::OK });
        answer
            .insert_header(ETag(EntityTag::new_strong(tag)))
            .insert_header((header::CACHE_CONTROL, cache_control))
            .insert_header((header::VARY, "Accept-Encoding"));
        if held {
            return answer.finish();
        }
        answer.content_type("text/html; charset=utf-8");
        if gzip {
            answer
                .insert_header(header::ContentEncoding::Gzip)
                .body(self.gzip.clone())
        } else {
            answer
                .insert_header(header::ContentEncoding::Identity)
                .body(self.html())
        }
    }

    fn html(&self) -> String {
        let mut html = String::new();
        flate2::read::GzDecoder::new(&self.gzip[..])
            .read_to_string(&mut html)
            .expect("the cache gzipped this text itself");
        html
    }

    fn size(&self) -> usize {
        self.gzip.len() + self.etag.len()
    }
}

/// Whether a request's `Accept-Encoding` takes gzip (and does not refuse it with `q=0`).
fn takes_gzip(req: &HttpRequest) -> bool {
    let Some(accepted) = req.headers().get(header::ACCEPT_ENCODING).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    accepted.split(',').any(|coding| {
        let mut parts = coding.split(';').map(str::trim);
        let name = parts.next().unwrap_or_default();
        let refused = parts.any(|p| p.replace(' ', "") == "q=0" || p.replace(' ', "") == "q=0.0");
        (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
    })
}

/// Pages by key, least recently used first out, within a budget of bytes.
pub struct PageCache<K: Hash + Eq> {
    inner: Mutex<Kept<K>>,
    budget: usize,
}

struct Kept<K: Hash + Eq> {
    pages: lru::LruCache<K, Arc<Page>>,
    bytes: usize,
    /// How many times pages were forgotten: a page built across a forgetting may show what
    /// was forgotten, and is not kept.
    forgets: u64,
}

impl<K: Hash + Eq + Clone> PageCache<K> {
    pub fn new(budget: usize) -> PageCache<K> {
        PageCache {
            inner: Mutex::new(Kept {
                pages: lru::LruCache::unbounded(),
                bytes: 0,
                forgets: 0,
            }),
            budget,
        }
    }

    /// The page under `key`, if it is kept.
    pub fn get(&self, key: &K) -> Option<Arc<Page>> {
        self.inner.lock().ok()?.pages.get(key).cloned()
    }

    /// The page under `key`, built by `build` when it is not kept.
    pub fn get_or_build<E>(&self, key: K, build: impl FnOnce() -> Result<String, E>) -> Result<Arc<Page>, E> {
        if let Some(hit) = self.get(&key) {
            return Ok(hit);
        }
        let forgets = self.inner.lock().map_or(0, |kept| kept.forgets);
        // Built outside the lock: two requests for one new page may both build it, and that
        // costs less than making every other page wait.
        let page = Arc::new(Page::of(&build()?));
        if let Ok(mut kept) = self.inner.lock()
            && kept.forgets == forgets
        {
            kept.bytes += page.size();
            if let Some(old) = kept.pages.put(key, Arc::clone(&page)) {
                kept.bytes -= old.size();
            }
            while kept.bytes > self.budget {
                let Some((_, old)) = kept.pages.pop_lru() else { break };
                kept.bytes -= old.size();
            }
        }
        Ok(page)
    }

    /// Drops every page whose key `which` picks (a game deleted, its listing or its comments
    /// changed), and any page being built now, when it is done.
    pub fn forget(&self, which: impl Fn(&K) -> bool) {
        if let Ok(mut kept) = self.inner.lock() {
            kept.forgets += 1;
            let gone: Vec<K> = kept
                .pages
                .iter()
                .filter(|(k, _)| which(k))
                .map(|(k, _)| k.clone())
                .collect();
            for k in gone {
                if let Some(old) = kept.pages.pop(&k) {
                    kept.bytes -= old.size();
                }
            }
        }
    }
}

/// Recently drawn images, by ETag.
pub struct RenderCache(Mutex<lru::LruCache<String, Arc<Vec<u8>>>>);

impl Default for RenderCache {
    fn default() -> Self {
        RenderCache(Mutex::new(lru::LruCache::new(
            NonZeroUsize::new(256).expect("256 is not zero"),
        )))
    }
}

impl RenderCache {
    pub fn get(&self, key: &str) -> Option<Arc<Vec<u8>>> {
        self.0.lock().ok()?.get(key).cloned()
    }

    pub fn put(&self, key: String, bytes: Arc<Vec<u8>>) {
        if let Ok(mut c) = self.0.lock() {
            c.put(key, bytes);
        }
    }

    pub fn clear(&self) {
        if let Ok(mut c) = self.0.lock() {
            c.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn body(answer: HttpResponse) -> Vec<u8> {
        actix_web::rt::System::new()
            .block_on(actix_web::body::to_bytes(answer.into_body()))
            .unwrap()
            .to_vec()
    }

    #[test]
    fn a_page_is_built_once_and_sent_gzipped_plain_or_not_at_all() {
        let cache = PageCache::new(PAGE_CACHE_BYTES);
        let builds = std::cell::Cell::new(0);
        let build = || -> Result<String, ()> {
            builds.set(builds.get() + 1);
            Ok("<p>turn 3</p>".repeat(100))
        };
        let page = cache.get_or_build(3, build).unwrap();
        let again = cache.get_or_build(3, build).unwrap();
        assert_eq!(builds.get(), 1);
        assert!(Arc::ptr_eq(&page, &again));

        let gzip = TestRequest::get()
            .insert_header(("Accept-Encoding", "br, gzip"))
            .to_http_request();
        let zipped = page.answer(&gzip);
        assert_eq!(zipped.headers().get("content-encoding").unwrap(), "gzip");
        let tag = zipped.headers().get("etag").unwrap().to_str().unwrap().to_string();
        let mut html = String::new();
        flate2::read::GzDecoder::new(&body(zipped)[..])
            .read_to_string(&mut html)
            .unwrap();
        assert_eq!(html, "<p>turn 3</p>".repeat(100));

        let plain = page.answer(&TestRequest::get().to_http_request());
        assert_ne!(
            plain.headers().get("etag").unwrap(),
            tag.as_str(),
            "each encoding its own tag"
        );
        assert_eq!(body(plain), "<p>turn 3</p>".repeat(100).into_bytes());
        let refused = TestRequest::get()
            .insert_header(("Accept-Encoding", "gzip;q=0"))
            .to_http_request();
        assert_eq!(
            page.answer(&refused).headers().get("content-encoding").unwrap(),
            "identity"
        );

        let held = TestRequest::get()
            .insert_header(("Accept-Encoding", "gzip"))
            .insert_header(("If-None-Match", tag.as_str()))
            .to_http_request();
        let not_modified = page.answer(&held);
        assert_eq!(not_modified.status(), StatusCode::NOT_MODIFIED);
        assert!(body(not_modified).is_empty());
    }

    #[test]
    fn the_cache_keeps_to_its_bytes_and_forgets_what_it_is_told() {
        let one = Page::of(&"x".repeat(1000)).size();
        let cache = PageCache::new(3 * one);
        for k in 0..5 {
            cache.get_or_build(k, || Ok::<_, ()>("x".repeat(1000))).unwrap();
        }
        let kept = |k| cache.inner.lock().unwrap().pages.contains(&k);
        assert_eq!((0..5).filter(|k| kept(*k)).count(), 3);
        assert!(kept(4) && !kept(0), "the least recently used go first");
        cache.forget(|k| *k == 4);
        assert!(!kept(4));
        assert_eq!(cache.inner.lock().unwrap().bytes, 2 * one);
        // A page built while the cache forgot may show what was forgotten: it is sent, not kept.
        let built = cache.get_or_build(9, || {
            cache.forget(|k| *k == 9);
            Ok::<_, ()>("x".repeat(1000))
        });
        assert!(built.is_ok() && !kept(9));
    }
}
