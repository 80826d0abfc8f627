//! Errors as HTTP answers: RFC 9457 problem+json for the API, friendly HTML pages for browsers.

use crate::record::{AnnotationError, RecordError};
use crate::store::{IngestError, StoreError};
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::http::header::{self, ContentType};
use actix_web::middleware::Next;
use actix_web::{HttpRequest, HttpResponse};
use askama::Template;
use serde_json::{Map, Value, json};

/// An error answer: status, a short title, a detail for people, and extension members.
#[derive(Debug, Clone)]
pub struct Problem {
    pub status: StatusCode,
    pub title: &'static str,
    pub detail: String,
    /// Boxed, as the headers are: every handler's error is a `Problem`, most with neither.
    pub extensions: Box<Map<String, Value>>,
    /// Headers the answer carries besides `Retry-After` (`Allow` on a 405, say).
    pub headers: Option<Box<header::HeaderMap>>,
}

impl Problem {
    pub fn new(status: StatusCode, title: &'static str, detail: impl Into<String>) -> Problem {
        Problem {
            status,
            title,
            detail: detail.into(),
            extensions: Box::default(),
            headers: None,
        }
    }

    /// The problem, with a header on its answer.
    pub fn with_header(mut self, name: header::HeaderName, value: &'static str) -> Problem {
        (self.headers.get_or_insert_default()).insert(name, header::HeaderValue::from_static(value));
        self
    }

    pub fn not_found(what: impl Into<String>) -> Problem {
        Problem::new(StatusCode::NOT_FOUND, "Not found", what)
    }

    pub fn too_large(limit: usize) -> Problem {
        Problem::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "Record too large",
            format!("the body is over the limit of {limit} bytes ({})", in_units(limit)),
        )
    }

    /// Over a per-client limit: `429`, with the seconds to wait as the `retry_after` member and
    /// the `Retry-After` header.
    pub fn too_many(what: &str, retry_after: u32) -> Problem {
        let mut p = Problem::new(
            StatusCode::TOO_MANY_REQUESTS,
            "Too many requests",
            format!("too many {what} from this address; try again in {retry_after} s"),
        );
        p.extensions.insert("retry_after".into(), json!(retry_after));
        p
    }

    /// Not now, for want of capacity: `503`, with the seconds to wait as for [`Problem::too_many`].
    pub fn unavailable(detail: impl Into<String>, retry_after: u32) -> Problem {
        let mut p = Problem::new(StatusCode::SERVICE_UNAVAILABLE, "Unavailable", detail);
        p.extensions.insert("retry_after".into(), json!(retry_after));
        p
    }

    /// The response's status, with `Retry-After` when the problem says when.
    fn builder(&self) -> actix_web::HttpResponseBuilder {
        let mut b = HttpResponse::build(self.status);
        if let Some(s) = self.extensions.get("retry_after").and_then(Value::as_u64) {
            b.insert_header((header::RETRY_AFTER, s.to_string()));
        }
        // A 401 names the credentials it wants: the owner token (`web::routes::owners`).
        if self.status == StatusCode::UNAUTHORIZED {
            b.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
        }
        for h in self.headers.iter().flat_map(|h| h.iter()) {
            b.insert_header((h.0.clone(), h.1.clone()));
        }
        b
    }

    /// An error actix answered with a status of its choosing, in our form: its own words,
    /// but never an internal error's.
    pub fn of_status(status: StatusCode, e: impl std::fmt::Display) -> Problem {
        if status.is_server_error() {
            return Problem::internal(e);
        }
        // Its words may quote the request (a path segment it could not parse): cut short.
        let detail = crate::record::quote::shorten_quotes(&e.to_string());
        Problem::new(status, status.canonical_reason().unwrap_or("Error"), detail)
    }

    pub fn internal(e: impl std::fmt::Display) -> Problem {
        tracing::error!("internal error: {e}");
        Problem::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Internal error",
            "something went wrong on our side",
        )
    }

    fn slug(&self) -> String {
        self.title.to_lowercase().replace(' ', "-")
    }

    /// problem+json, for API clients.
    pub fn json(&self, instance: &str) -> HttpResponse {
        let mut body = Map::new();
        body.insert("type".into(), json!(format!("/problems/{}", self.slug())));
        body.insert("title".into(), json!(self.title));
        body.insert("status".into(), json!(self.status.as_u16()));
        body.insert("detail".into(), json!(self.detail));
        if !instance.is_empty() {
            body.insert("instance".into(), json!(instance));
        }
        body.extend(self.extensions.iter().map(|(k, v)| (k.clone(), v.clone())));
        self.builder()
            .insert_header((header::CONTENT_TYPE, "application/problem+json"))
            .body(Value::Object(body).to_string())
    }

    /// A friendly page, for browsers.
    pub fn html(&self) -> HttpResponse {
        let page = ErrorPage {
            status: self.status.as_u16(),
            title: self.title,
            detail: &self.detail,
        };
        self.builder()
            .content_type(ContentType::html())
            .body(page.render().unwrap_or_else(|_| self.detail.clone()))
    }

    /// HTML when the client asks for it (browsers), problem+json otherwise.
    pub fn negotiate(&self, req: &HttpRequest) -> HttpResponse {
        if wants_html(req) {
            self.html()
        } else {
            self.json(req.path())
        }
    }
}

/// Handlers return `Err(Problem)` with `?`; actix turns it into a response through
/// `ResponseError`, as problem+json. [`negotiate_problems`] then gives browsers the HTML page
/// instead and fills in `instance`.
impl actix_web::ResponseError for Problem {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        self.json("")
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.title, self.detail)
    }
}

/// Middleware: answers every error in the form the client asked for: a `Problem` a handler
/// returned, and the errors actix answers itself (a query or a path it cannot parse, a body
/// it cannot read), which would otherwise go out as plain text.
pub async fn negotiate_problems(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let res = next.call(req).await?;
    let problem = res.response().error().map(|e| match e.as_error::<Problem>() {
        Some(p) => p.clone(),
        None => Problem::of_status(e.as_response_error().status_code(), e),
    });
    Ok(match problem {
        Some(p) => {
            let (req, _) = res.into_parts();
            let answer = p.negotiate(&req);
            ServiceResponse::new(req, answer)
        }
        None => res.map_into_boxed_body(),
    })
}

/// A size in bytes the way people read it: `4 MiB`, `64 KiB`, `100 bytes`.
pub fn in_units(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// Browsers list text/html in Accept; API clients and curl do not.
pub fn wants_html(req: &HttpRequest) -> bool {
    req.headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|a| a.contains("text/html"))
}

#[derive(Template)]
#[template(path = "error.html")]
struct ErrorPage<'a> {
    status: u16,
    title: &'a str,
    detail: &'a str,
}

/// A database out of reach is `503` with `Retry-After` (the client may try again), anything
/// else a `500`.
impl From<StoreError> for Problem {
    fn from(e: StoreError) -> Problem {
        if e.is_unavailable() {
            tracing::warn!("the database is unavailable: {e}");
            return Problem::unavailable("the database is out of reach for now; try again shortly", 5);
        }
        Problem::internal(e)
    }
}

impl From<RecordError> for Problem {
    fn from(e: RecordError) -> Problem {
        match e {
            RecordError::TooLarge { .. } => Problem::too_large(crate::record::MAX_RECORD_BYTES),
            RecordError::Invalid { .. }
            | RecordError::Jcz(_)
            | RecordError::Bga(_)
            | RecordError::Lab(_)
            | RecordError::Native(_)
            | RecordError::Cards(_) => Problem::new(StatusCode::UNPROCESSABLE_ENTITY, "Invalid record", e.to_string()),
            RecordError::BgaAddress { table } => {
                let mut p = Problem::new(StatusCode::BAD_REQUEST, "Board Game Arena address", e.to_string());
                p.extensions.insert("table".into(), json!(table));
                p.extensions.insert("bookmarklet".into(), json!("/bga"));
                p
            }
            _ => {
                let mut p = Problem::new(StatusCode::BAD_REQUEST, "Unreadable record", e.to_string());
                let tried = e.formats_tried();
                if !tried.is_empty() {
                    p.extensions.insert("formats_tried".into(), json!(tried));
                }
                p
            }
        }
    }
}

impl From<IngestError> for Problem {
    fn from(e: IngestError) -> Problem {
        match e {
            IngestError::Record(e) => e.into(),
            IngestError::Illegal { detail, at } => {
                let mut p = Problem::new(StatusCode::UNPROCESSABLE_ENTITY, "Illegal move", detail);
                if let Some(at) = at {
                    p.extensions.insert("turn".into(), json!(at.turn));
                    if let Some(round) = at.round {
                        p.extensions.insert("round".into(), json!(round));
                    }
                    p.extensions.insert("player".into(), json!(at.player));
                    p.extensions.insert("move".into(), json!(at.mv));
                    p.extensions.insert("reason".into(), json!(at.reason));
                }
                p
            }
            IngestError::Mismatch(detail) => {
                Problem::new(StatusCode::UNPROCESSABLE_ENTITY, "Scores disagree", detail.to_string())
            }
            IngestError::Store(e) => e.into(),
        }
    }
}

/// A comment refused: 413 past a limit, which the `limit` member names (with its `unit`), 400
/// otherwise.
impl From<AnnotationError> for Problem {
    fn from(e: AnnotationError) -> Problem {
        let Some((limit, unit)) = e.limit() else {
            return Problem::new(StatusCode::BAD_REQUEST, "Bad comment", e.to_string());
        };
        let mut p = Problem::new(StatusCode::PAYLOAD_TOO_LARGE, "Comment too long", e.to_string());
        p.extensions.insert("limit".into(), json!(limit));
        p.extensions.insert("unit".into(), json!(unit));
        p
    }
}

impl From<crate::store::collection::TooManyLines> for Problem {
    fn from(e: crate::store::collection::TooManyLines) -> Problem {
        Problem::new(StatusCode::PAYLOAD_TOO_LARGE, "Too many games", e.to_string())
    }
}

impl From<crate::render::OptionError> for Problem {
    fn from(e: crate::render::OptionError) -> Problem {
        Problem::new(StatusCode::BAD_REQUEST, "Bad image options", e.to_string())
    }
}

impl From<crate::store::NotAGameId> for Problem {
    fn from(e: crate::store::NotAGameId) -> Problem {
        Problem::not_found(e.to_string())
    }
}
