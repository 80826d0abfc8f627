//! One module per resource.

pub mod analysis;
pub mod api;
pub mod assets;
pub mod exports;
pub mod health;
pub mod images;
pub mod pages;

use super::problem::Problem;
use actix_web::web::Payload;
use futures_util::StreamExt;

/// Reads a request body, refusing it as soon as it passes `limit` bytes.
pub async fn read_limited(mut payload: Payload, limit: usize) -> Result<Vec<u8>, Problem> {
    let mut body = Vec::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| {
            Problem::new(
                actix_web::http::StatusCode::BAD_REQUEST,
                "Unreadable body",
                e.to_string(),
            )
        })?;
        if body.len() + chunk.len() > limit {
            return Err(Problem::too_large(limit));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}
