//! One module per resource.

pub(crate) mod analysis;
pub(crate) mod annotations;
pub(crate) mod api;
pub(crate) mod assets;
pub(crate) mod bookmarklet;
pub(crate) mod collections;
pub(crate) mod docs;
pub(crate) mod embed;
pub(crate) mod explore;
pub(crate) mod exports;
pub(crate) mod health;
pub(crate) mod images;
pub(crate) mod keys;
pub(crate) mod live;
pub(crate) mod owners;
pub(crate) mod pages;
pub(crate) mod players;
pub(crate) mod puzzles;

use super::problem::Problem;
use actix_multipart::{Multipart, MultipartError};
use actix_web::error::PayloadError;
use actix_web::http::{StatusCode, header};
use futures_util::{Stream, StreamExt};

/// Refuses at once a body whose declared length is over `limit`: a client that announces
/// more than we read and sends nothing would otherwise hold its request until the time limit.
pub fn declared_length_within(req: &actix_web::HttpRequest, limit: usize) -> Result<(), Problem> {
    let declared = (req.headers().get(actix_web::http::header::CONTENT_LENGTH))
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    match declared {
        Some(n) if n > limit as u64 => Err(Problem::too_large(limit)),
        _ => Ok(()),
    }
}

/// A JSON body of type `T`, at most `limit` bytes (`what` names it where it is too large);
/// `None` for an empty body.
pub async fn json_body<T: serde::de::DeserializeOwned>(
    req: &actix_web::HttpRequest,
    body: actix_web::web::Payload,
    (limit, what): (usize, &str),
) -> Result<Option<T>, Problem> {
    // The records' words for a body too large would say 4 MiB.
    let too_large = |p: Problem| match p.status {
        StatusCode::PAYLOAD_TOO_LARGE => {
            Problem::new(p.status, "Body too large", format!("{what} is at most {limit} bytes"))
        }
        _ => p,
    };
    declared_length_within(req, limit).map_err(too_large)?;
    let bytes = read_limited(body, limit, "Unreadable body").await.map_err(too_large)?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let unreadable = |e: serde_json::Error| Problem::new(StatusCode::BAD_REQUEST, "Unreadable body", e.to_string());
    serde_json::from_slice(&bytes).map(Some).map_err(unreadable)
}

/// A multipart form whose whole body, field headers and boundaries included, is cut off past
/// `limit` bytes: each field's reader counts only its content, so a body of endless empty
/// fields would otherwise be read until the request's time limit.
pub fn multipart_within(req: &actix_web::HttpRequest, body: actix_web::web::Payload, limit: usize) -> Multipart {
    let mut seen = 0usize;
    let limited = body.map(move |chunk| {
        let chunk = chunk?;
        seen += chunk.len();
        match seen > limit {
            true => Err(PayloadError::Overflow),
            false => Ok(chunk),
        }
    });
    Multipart::new(req.headers(), limited)
}

/// A multipart form that could not be read: `413` past the limit it was read within, `400`
/// otherwise.
pub fn unreadable_form(e: MultipartError, limit: usize) -> Problem {
    match e {
        MultipartError::Payload(PayloadError::Overflow) => Problem::too_large(limit),
        e => Problem::new(StatusCode::BAD_REQUEST, "Unreadable form", e.to_string()),
    }
}

/// Reads a request body, refusing it as soon as it passes `limit` bytes. A broken stream is a
/// 400 titled `unreadable`.
pub async fn read_limited<S, B, E>(stream: S, limit: usize, unreadable: &'static str) -> Result<Vec<u8>, Problem>
where
    S: Stream<Item = Result<B, E>> + Unpin,
    B: AsRef<[u8]>,
    E: std::fmt::Display,
{
    read_within(stream, limit, |e| {
        Problem::new(StatusCode::BAD_REQUEST, unreadable, e.to_string())
    })
    .await
}

/// Reads a field of a form read by [`multipart_within`]: past `limit` bytes, or past the
/// form's `body_limit` while reading it, `413`.
pub async fn read_field(
    field: &mut actix_multipart::Field,
    limit: usize,
    body_limit: usize,
) -> Result<Vec<u8>, Problem> {
    read_within(field, limit, |e| unreadable_form(e, body_limit)).await
}

/// Reads a stream, refusing it as soon as it passes `limit` bytes; `broken` says what a
/// broken stream is.
async fn read_within<S, B, E>(mut stream: S, limit: usize, broken: impl Fn(E) -> Problem) -> Result<Vec<u8>, Problem>
where
    S: Stream<Item = Result<B, E>> + Unpin,
    B: AsRef<[u8]>,
{
    let mut body = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(&broken)?;
        let chunk = chunk.as_ref();
        if body.len() + chunk.len() > limit {
            return Err(Problem::too_large(limit));
        }
        body.extend_from_slice(chunk);
    }
    Ok(body)
}

/// The methods a route's pattern takes, for the `Allow` header of a `405`. Every pattern
/// not named here takes `GET` and `HEAD` only; `tests/suite/crafted_requests.rs` asks an
/// address of each pattern here every method and checks the answer agrees.
pub fn allowed_methods(pattern: &str) -> &'static str {
    match pattern {
        "/games" | "/api/games" | "/collections" | "/api/collections" => "POST",
        "/g/{id}/delete" | "/g/{id}/listing" | "/c/{id}/edit" | "/c/{id}/analysis" => "POST",
        "/api/collections/{id}/analysis" => "POST",
        "/g/{id}/analysis" | "/g/{id}/key" => "GET, HEAD, POST",
        "/g/{id}/key/new" | "/api/games/{id}/owner-token" => "POST",
        "/api/games/{id}" => "GET, HEAD, PATCH, DELETE",
        "/api/collections/{id}" => "GET, HEAD, PATCH",
        "/api/games/{id}/turns/{n}/annotation" => "PUT, DELETE",
        "/g/{id}/t/{n:[0-9]+}/annotation" => "POST",
        _ => "GET, HEAD",
    }
}

/// What answers a request no route took: `405` with `Allow` when its path is a route's (so
/// only its method was wrong), `404` otherwise.
pub async fn no_route(req: actix_web::HttpRequest) -> Result<actix_web::HttpResponse, Problem> {
    let Some(pattern) = req.resource_map().match_pattern(req.path()) else {
        return Err(Problem::not_found(format!("nothing at {}", req.path())));
    };
    let allowed = allowed_methods(&pattern);
    Err(Problem::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "Method not allowed",
        format!("{} takes {allowed}, not {}", req.path(), req.method()),
    )
    .with_header(header::ALLOW, allowed))
}
