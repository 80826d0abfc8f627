//! What wraps every request: security headers, request ids, the time limit, the metrics, and
//! the refusal of compressed request bodies.

use super::AppState;
use super::limits::REQUEST_TIMEOUT;
use super::problem::Problem;
use super::problem::wants_html;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderMap, HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::web;

/// The site's policy, with the sites that may frame the page (`'none'` but for the embed,
/// which answers with its own).
pub fn content_security_policy(frame_ancestors: &str) -> String {
    format!(
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; \
         frame-ancestors {frame_ancestors}; base-uri 'none'; form-action 'self'"
    )
}

/// Gives every answer what it must carry, errors included: the request's number (in the log
/// line and the `X-Request-Id` header, so a user's report can be found in the logs), no MIME
/// sniffing, no framing by other sites, scripts and styles from this site only (styles may
/// be inline: the swatches are), and referrers cut to the origin when they leave the site. A
/// header an answer set itself (the embed's framing policy) is kept.
///
/// An error that reaches this far (a request cut off by the time limit) has no request left
/// to answer with, so it becomes an error that carries its finished answer.
pub async fn every_answer(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    match next.call(req).await {
        Ok(mut res) => {
            mark(res.headers_mut(), id);
            Ok(res)
        }
        Err(e) => {
            let mut answer = e.error_response();
            mark(answer.headers_mut(), id);
            Err(actix_web::error::InternalError::from_response(e.to_string(), answer).into())
        }
    }
}

fn mark(headers: &mut HeaderMap, id: u64) {
    // Written once: every answer carries them.
    static POLICY: std::sync::LazyLock<HeaderValue> = std::sync::LazyLock::new(|| {
        HeaderValue::from_str(&content_security_policy("'none'")).expect("the policy is ASCII")
    });
    headers.insert(HeaderName::from_static("x-request-id"), HeaderValue::from(id));
    for (name, value) in [
        ("x-content-type-options", HeaderValue::from_static("nosniff")),
        (
            "referrer-policy",
            HeaderValue::from_static("strict-origin-when-cross-origin"),
        ),
        ("content-security-policy", POLICY.clone()),
    ] {
        let name = HeaderName::from_static(name);
        if !headers.contains_key(&name) {
            headers.insert(name, value);
        }
    }
}

/// Answers `503` to a request still unanswered after `limit`: a slow client or a slow
/// handler must not hold a worker for ever. Work handed to the blocking pool finishes even
/// so; an upload is then stored whole, and uploading it again finds it. The answer is a
/// problem like any other, in the form the client asked for.
pub async fn time_limit(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let limit = req
        .app_data::<web::Data<AppState>>()
        .map_or(REQUEST_TIMEOUT, |s| s.request_timeout);
    // Read now: the request goes to the handler, and is gone when the limit cuts it off.
    let (html, path) = (wants_html(req.request()), req.path().to_string());
    actix_web::rt::time::timeout(limit, next.call(req))
        .await
        .unwrap_or_else(|_| {
            let detail = format!("the request took longer than {} s", limit.as_secs_f32());
            let problem = Problem::unavailable(detail, 5);
            let answer = if html { problem.html() } else { problem.json(&path) };
            Err(actix_web::error::InternalError::from_response(problem, answer).into())
        })
}

/// Counts every answer, by the route that matched and its status, with the time it took.
pub async fn measure(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = std::time::Instant::now();
    let metrics = req.app_data::<web::Data<AppState>>().map(|s| s.metrics.clone());
    let method = req.method().clone();
    let res = next.call(req).await;
    if let Some(m) = metrics {
        let (route, status) = match &res {
            Ok(res) => (res.request().match_pattern(), res.status()),
            // Cut off by the time limit: the request, and its route, are gone.
            Err(e) => (None, e.as_response_error().status_code()),
        };
        m.request(method.as_str(), route.as_deref(), status.as_u16(), started.elapsed());
    }
    res
}

/// Refuses a request body sent with a `Content-Encoding` (other than `identity`) with `415`
/// and `Accept-Encoding: identity` (RFC 7694). Our extractors would inflate it before their
/// size limits count a byte, so half a megabyte of gzip could cost hundreds of megabytes; no
/// client of ours compresses what it sends, and the limits are small enough not to need it.
pub async fn plain_bodies(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<EitherBody<impl MessageBody>>, actix_web::Error> {
    let encoding = req.headers().get(header::CONTENT_ENCODING).map(|v| v.as_bytes());
    if encoding.is_none_or(|e| e.eq_ignore_ascii_case(b"identity")) {
        return Ok(next.call(req).await?.map_into_left_body());
    }
    let problem = Problem::new(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "Compressed body",
        "request bodies are taken as they are: send it without Content-Encoding",
    )
    .with_header(header::ACCEPT_ENCODING, "identity");
    Ok(req.error_response(problem).map_into_right_body())
}
