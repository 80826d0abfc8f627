//! The web service: thin handlers that parse the request, call the library and render a
//! template. `startup` builds the app, `routes` holds one module per resource, and `state`
//! what the handlers share. This file only declares the modules and names what the crate uses.

mod annotation_view;
mod board_view;
mod card_view;
mod chance_view;
mod changes;
mod collection_view;
mod game;
mod import_gate;
pub(crate) mod limits;
pub(crate) mod links;
mod loaded;
mod metrics;
mod middleware;
mod origin;
mod page_cache;
mod player_stats;
mod problem;
mod query;
pub(crate) mod routes;
pub(crate) mod search;
mod share_view;
pub mod startup;
mod state;
mod tracker_view;
mod view;
pub(crate) mod what_if;

pub use board_view::turn_board;
pub(crate) use game::explore;
pub use limits::LimitSettings;
pub use routes::docs::PAGES as DOC_PAGES;
pub use state::{AppState, blocking};
