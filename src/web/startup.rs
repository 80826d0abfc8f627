//! Builds the app and runs the server.

use super::AppState;
use super::limits::{LimitSettings, Limits};
use super::middleware;
use super::problem::negotiate_problems;
use super::routes::{
    analysis, annotations, api, assets, collections, embed, explore, exports, health, images, keys, live, owners,
    pages, puzzles,
};
use crate::analysis::AnalysisOptions;
use crate::queue::{ANALYSIS_QUEUE, Jobs, LEASE};
use crate::store::{GameId, Store, ingest};
use actix_web::dev::Server;
use actix_web::{App, HttpServer, web};
use std::net::TcpListener;
use std::time::Duration;

/// The demo games, one per game kind, loaded into an empty database so the first page shows
/// something. New World's is played on our sample tile set; the Card Game's by greedy bots.
pub const DEMOS: [&[u8]; 3] = [
    include_bytes!("../../static/games/demo-second-edition.json"),
    include_bytes!("../../static/games/demo-new-world.json"),
    include_bytes!("../../static/games/demo-card-game.json"),
];

/// Loads the demo games when the database holds none.
pub fn seed_demo(store: &Store) -> Result<(), ingest::IngestError> {
    if store.is_empty()? {
        for demo in DEMOS {
            ingest::ingest(store, demo)?;
        }
        tracing::info!("loaded the demo games into the empty database");
    }
    Ok(())
}

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The site's address as the public reaches it, for absolute links.
    pub public_url: String,
    /// How deep background analyses go (tests use few playouts).
    pub analysis: AnalysisOptions,
    /// Per-client limits on uploads and analysis requests.
    pub limits: LimitSettings,
    /// Analyses waiting or running at most; past it, a request is answered 503.
    pub analysis_queue: u64,
    /// Analysis worker threads in this process; 0 leaves the queue to other processes.
    pub analysis_workers: usize,
    /// How long a request may take; past it, the answer is 503.
    pub request_timeout: Duration,
}

impl Settings {
    /// Links point at the address the listener is bound to, and analyses run at the defaults.
    pub fn for_listener(listener: &TcpListener) -> std::io::Result<Settings> {
        Ok(Settings {
            public_url: format!("http://{}", listener.local_addr()?),
            analysis: AnalysisOptions::default(),
            limits: LimitSettings::default(),
            analysis_queue: ANALYSIS_QUEUE,
            analysis_workers: 1,
            request_timeout: super::limits::REQUEST_TIMEOUT,
        })
    }
}

/// Starts serving on an already bound listener (tests bind port 0).
pub fn run(listener: TcpListener, store: Store, settings: Settings) -> std::io::Result<Server> {
    // The standard library listens with a backlog of 128: a burst of more new connections
    // than that loses SYNs, and each lost one costs its client a second. Listening again on
    // the same socket raises it.
    socket2::SockRef::from(&listener).listen(1024)?;
    // On a thread of its own: this runs inside the server's runtime, where the PostgreSQL
    // store's blocking calls may not run; and in the background, as reading every stored
    // analysis takes a while on a big database (player pages lack those games' accuracy until
    // it is done).
    let mut state = AppState::new(store.clone(), &settings.public_url);
    let (filling, stats) = (store.clone(), state.player_stats.clone());
    std::thread::Builder::new().name("fill-seat-analyses".into()).spawn(
        move || match crate::queue::fill_seat_analyses(&filling, &|| stats.clear()) {
            Ok(0) => {}
            Ok(n) => tracing::info!("{n} finished analyses got their player rows"),
            Err(e) => tracing::error!("cannot fill the player rows of finished analyses: {e}"),
        },
    )?;
    state.watch_changes();
    let (seen, metrics) = (state.analysis_seen.clone(), state.metrics.clone());
    state.jobs = Some(Jobs::start(
        store,
        settings.analysis,
        (settings.analysis_queue, settings.analysis_workers, LEASE),
        move |id: &GameId, took| {
            metrics.analysis_took(took);
            seen.forget(id);
        },
    ));
    state.limits = std::sync::Arc::new(Limits::new(settings.limits));
    state.request_timeout = settings.request_timeout;
    let state = web::Data::new(state);
    let server = HttpServer::new(move || {
        App::new()
            .app_data(state.clone())
            .app_data(super::links::path_errors())
            .wrap(actix_web::middleware::from_fn(middleware::plain_bodies))
            .wrap(actix_web::middleware::from_fn(negotiate_problems))
            .wrap(actix_web::middleware::from_fn(middleware::time_limit))
            .wrap(actix_web::middleware::from_fn(middleware::measure))
            .wrap(actix_web::middleware::Compress::default())
            .wrap(actix_web::middleware::from_fn(middleware::every_answer))
            .wrap(actix_web::middleware::Logger::new("%{x-request-id}o %r %s %Dms"))
            .configure(routes)
            .default_service(web::to(super::routes::no_route))
    })
    // Headers must arrive within 10 s of connecting (slow clients hold no worker), and a
    // stop (SIGTERM, SIGINT) lets requests in flight finish for up to 30 s.
    // A compressed page goes out in several writes; with Nagle's algorithm the last one waits
    // for the client's delayed ACK, 40 ms on Linux, on every page.
    .tcp_nodelay(true)
    // Pages, images and uploads run on the blocking pool. A few threads per worker take them
    // in turn, first come first served; hundreds (actix's default) would share two cores by
    // time slices, and every request under load would wait on all the others.
    .worker_max_blocking_threads(4)
    .client_request_timeout(Duration::from_secs(10))
    .client_disconnect_timeout(Duration::from_secs(2))
    .shutdown_timeout(30)
    .listen(listener)?
    .run();
    Ok(server)
}

/// Every route of the app, in the order actix matches them: the first route whose pattern and
/// method match a request answers it.
fn routes(cfg: &mut web::ServiceConfig) {
    cfg.service(health::livez)
        .service(health::readyz)
        .service(health::metrics)
        .service(assets::asset)
        .service(assets::favicon)
        .service(pages::index)
        .service(super::routes::players::player_page)
        .service(super::routes::players::head_to_head)
        .service(super::routes::players::api)
        .service(pages::upload)
        .service(super::routes::bookmarklet::page)
        .service((super::routes::docs::index, super::routes::docs::show))
        .service(exports::record_json)
        .service(exports::record_jcz)
        .service(exports::scoring_csv)
        .service(images::turn_image)
        .service(images::final_png)
        .service(images::game_gif)
        .service(images::og_png)
        .service(images::tile_svg)
        .service(pages::game)
        .service(pages::end)
        .service(pages::turn)
        .service(pages::round)
        .service(images::turn_og_png)
        .service(analysis::queue)
        .service(analysis::api_status)
        .service(analysis::analysis_page)
        .service(analysis::alternatives)
        .service(analysis::alternative_png)
        .service(analysis::best_alternative)
        .service(analysis::alternative)
        .service(puzzles::list)
        .service(puzzles::puzzle)
        .service(puzzles::mistake)
        .service(explore::page)
        .service(explore::api)
        .service(live::start)
        .service(live::play)
        .service(live::take_back)
        .service(live::new_page)
        .service(live::form_start)
        .service(live::form_play)
        .service(live::form_take_back)
        .service(live::cards_page)
        .service(live::cards_play)
        .service(api::create_game)
        .service(api::get_game)
        .service(api::get_turn)
        .service(api::openapi_json)
        .service(owners::api_delete)
        .service(owners::api_listing)
        .service(owners::form_delete)
        .service(owners::form_listing)
        .service(keys::page)
        .service(keys::claim)
        .service(keys::form_new)
        .service(keys::api_new)
        .service(annotations::api_put)
        .service(annotations::api_delete)
        .service(annotations::form_resource())
        .service(collections::new_page)
        .service(collections::page)
        .service(collections::form_create)
        .service(collections::form_edit)
        .service(collections::form_analyse)
        .service(collections::api_create)
        .service(collections::api_get)
        .service(collections::api_edit)
        .service(collections::api_analyse)
        .service(embed::embed)
        .service(embed::oembed);
}
