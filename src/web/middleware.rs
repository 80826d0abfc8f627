//! What wraps every request: security headers, request ids, the time limit and the metrics.

use super::AppState;
use super::problem::Problem;
use super::startup::REQUEST_TIMEOUT;
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::web;

/// What every answer carries: no MIME sniffing, no framing by other sites, scripts and styles
/// from this site only (styles may be inline: the swatches are), and referrers cut to the
/// origin when they leave the site.
pub fn security_headers() -> actix_web::middleware::DefaultHeaders {
    actix_web::middleware::DefaultHeaders::new()
        .add(("X-Content-Type-Options", "nosniff"))
        .add(("Referrer-Policy", "strict-origin-when-cross-origin"))
        .add(("Content-Security-Policy", content_security_policy("'none'")))
}

/// The site's policy, with the sites that may frame the page (`'none'` but for the embed,
/// which answers with its own).
pub fn content_security_policy(frame_ancestors: &str) -> String {
    format!(
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; \
         frame-ancestors {frame_ancestors}; base-uri 'none'; form-action 'self'"
    )
}

/// Numbers every request; the number is in the log line and the `X-Request-Id` header, so a
/// user's report can be found in the logs.
pub async fn request_id(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut res = next.call(req).await?;
    res.headers_mut().insert(
        actix_web::http::header::HeaderName::from_static("x-request-id"),
        actix_web::http::header::HeaderValue::from(id),
    );
    Ok(res)
}

/// Answers `503` to a request still unanswered after `limit`: a slow client or a slow
/// handler must not hold a worker for ever. Work handed to the blocking pool finishes even
/// so; an upload is then stored whole, and uploading it again finds it.
pub async fn time_limit(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let limit = req
        .app_data::<web::Data<AppState>>()
        .map_or(REQUEST_TIMEOUT, |s| s.request_timeout);
    actix_web::rt::time::timeout(limit, next.call(req))
        .await
        .unwrap_or_else(|_| {
            let detail = format!("the request took longer than {} s", limit.as_secs_f32());
            Err(Problem::unavailable(detail, 5).into())
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
