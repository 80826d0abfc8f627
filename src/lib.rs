//! carcassonne-replay: replay, score and analyse Carcassonne games (the tile game with The River
//! and The Abbot, New World, and the Card Game), as a web service and a command-line tool.
//!
//! This page is the map of the crate. What the user sees (formats, rules, pages, the API, the
//! analysis method, operations) is the reference in `static/docs/`, served under `/docs`.
//!
//! # Layout
//!
//! Data flows one way: bytes → [`record`] → [`engine`] → [`replay`] (and [`selfplay`]) →
//! outputs ([`analysis`],
//! [`export`], [`render`], [`store`]) → [`queue`] → [`web`] → [`cli`]. No module imports one downstream of
//! it (`tests/suite/layout.rs` checks every `use`): `record` never reads a replay, and `engine`
//! depends on nothing else in the crate.
//!
//! [`engine`] holds the rules, pure and deterministic, with no I/O; its modules are private
//! and its types are re-exported at its root, so the files named here are where to read them.
//! [`Position`](engine::Position) (`engine/position.rs`) is the trait every game implements
//! (in the spirit of shakmaty's: current player, scores, legal moves, play, finish) and
//! [`GameKind`](engine::GameKind) the game a record holds. The tile game and New World are
//! both played by [`Game`](engine::Game) (`engine/game.rs`): tiles are data (`engine/tile.rs`,
//! `engine/tileset.rs`), the board is a grid with a frontier (`engine/board.rs`), features are
//! a union-find over placed segments (`engine/features.rs`), and `engine/rules.rs` holds the
//! presets, the switches and the feature table (how each kind of feature completes, what it
//! scores, whether its meeples go home) that `engine/scoring.rs` reads. The River
//! (`engine/river.rs`) and New World's coast and surveyors (`engine/surveyors.rs`) are parts
//! (`engine/parts.rs`) the game asks at setup, draw, placement and after each scored feature;
//! a breakdown's categories are each game's enum ([`Category`](engine::Category)). Scores are
//! terms, count × unit × rate ([`Term`](engine::Term)); `engine/bots.rs` holds the random,
//! greedy, sampled and weighed players ([`Policy`](engine::Policy)). [`engine::cards`] is the
//! Card Game beside them: its cards, rules, game, scoring, `Position` and bots.
//!
//! [`record`] reads every outside format into one canonical [`Record<G>`](record::Record) for the
//! game `G` (its players, its setup, its moves and its comments): a tile game's
//! [`GameRecord`](record::GameRecord) (`Record<Game>`) from the native JSON
//! ([`record::native`]), a `Record<CardGame>` from Card Game records ([`record::cards`];
//! [`record::parse_any`] reads either kind), JCloisterZone saves
//! ([`record::jcz`]), Board Game Arena logs ([`record::bga`]), the course notation
//! ([`record::course`]) and Carcassonne Lab links both ways ([`record::lab`]). It also holds
//! rules as records state them ([`RulesSpec`](record::RulesSpec), `record/rules_spec.rs`, with
//! the rules in words), the record as the script the engine's walker
//! ([`Walker`](engine::Walker)) steps move by move ([`Walk`](record::Walk),
//! `record/walk.rs`; the Card Game's in [`record::cards`]), other programs' tile names
//! ([`record::tile_names`]) and an owner's comments on turns ([`record::annotations`], which a
//! record carries and its game's id never hashes). A record that exists is well-formed; whether its moves are legal
//! is the engine's business.
//!
//! [`selfplay`] plays bot games and writes them as records, for `generate`, the fuzzers and the
//! calibrations.
//!
//! [`replay`] runs a record through the engine into per-turn snapshots
//! ([`Turn`](replay::Turn) and [`Replay`](replay::Replay), generic over the game's `Position`):
//! the move, its events, the scores, every player's supply, and the breakdown by category.
//! [`replay::json`] is the `replay --json` contract (one `Document` and `Turn` for every game,
//! each game adding its head, move and supply),
//! [`recorded_scores`](replay::recorded_scores) (`replay/verify.rs`) checks a replay against
//! the scores its source recorded (Board Game Arena), `replay/words.rs` puts scores in English
//! and [`replay::cards`] replays a Card Game. A replay can keep every turn's position
//! ([`replay::Positions`], `replay/positions.rs`), from which a turn's view
//! ([`Reached`](replay::Reached)) is borrowed: the service keeps them per loaded game, and its
//! pages, pictures, explore lines (`replay/explore.rs`) and alternatives start from them.
//!
//! [`analysis`] judges moves, down one path for every game (`analysis/weighing.rs`, over what a
//! game's sampled future is worth, `analysis/sampled.rs`): every legal alternative of a turn
//! (`analysis/alternatives.rs`), its immediate evaluation (`analysis/evaluate.rs`) and
//! completion chances (`analysis/completion.rs`; how they came true in real games,
//! `analysis/forecasts.rs`), playouts (`analysis/playout.rs`; the Card
//! Game's in [`analysis::cards`]), the verdict that measures the best moves and the played one
//! on fresh futures, apart from those that ranked them (`analysis/verdict.rs`), the budget of a
//! whole game ([`analysis::budget`]), chances of winning and move classes
//! ([`analysis::win_chance`]), puzzles ([`analysis::puzzles`]), the search's horizon
//! (`analysis/search.rs`), `match` (`analysis/arena.rs`; an earlier build asked for moves,
//! `cli/outside.rs`), and [`analysis::report`], the
//! analysis as one serde type, written, stored and read back the same. A turn's analysis, its
//! report and a whole game's report are one type for every game
//! ([`TurnAnalysis`](analysis::TurnAnalysis), [`TurnReport`](analysis::report::TurnReport),
//! [`Report`](analysis::report::Report)), over the game's alternative, what else it says of the
//! turn, and what it says of the whole game.
//!
//! [`export`] writes JCloisterZone saves ([`export::jcz`]) and the scoring CSV
//! ([`export::csv`]) from a record and its replay, behind one [`Export`](export::Export)
//! trait implemented per game (the Card Game's in `export/cards.rs`).
//!
//! [`render`] draws any game at any turn ([`render::draw`], over [`render::Drawable`]): the
//! board as an SVG scene (`render/scene.rs`, tile art in `render/tiles.rs`, meeples in
//! `render/figures.rs`, colours in [`render::palette`]) rasterised by resvg
//! (`render/raster.rs`), the Card Game's table (`render/cards.rs`), the inline board a page
//! points at (`render/interactive.rs`; a stored turn's page links its drawing as that turn's
//! SVG, [`render::BoardArt`]) and the animated GIF (`render/gif.rs`).
//!
//! [`store`] keeps games in SQLite or PostgreSQL, one [`Backend`](store::Backend) trait over
//! both (`store/sqlite.rs`, `store/postgres.rs`; schemas in `migrations/`, applied at start),
//! with the analysis queue as leased rows: a game and all its per-turn snapshot rows are
//! written in one transaction
//! (`store/ingest.rs`, whose [`Storable`](store::Storable) trait gives each game's summary and
//! rows), owner tokens are kept as hashes ([`OwnerHash`](store::OwnerHash), `store/owner.rs`)
//! and an owner's comments in a table of their own (`Backend::annotate`),
//! a SQLite file is copied live by [`store::backup`], and any database into another by
//! [`store::copy`] (`copy-db`). Games carry their kind and an id
//! ([`store::GameId`], parsed once) from their content; a snapshot holds its move as JSON in
//! the game's notation (the tile game's is `[tile, x, y, rotation, meeple]`).
//!
//! [`queue`] is the analysis queue, below the web so that `serve` and the HTTP-free `worker`
//! share it: workers claim leased rows from the store, run
//! [`analysis::analyse_any`] (`analysis/any_report.rs`, the one place a stored game's
//! analysis tells the games apart), stop at the next turn when their progress says so, and
//! store the typed report ([`AnyReport`](analysis::AnyReport)) with each seat's figures for
//! the player pages (`queue/seats.rs`).
//!
//! [`web`] is the service, its modules private but for [`web::startup`], which builds the app:
//! `web/routes/` holds one module per resource with thin handlers, `web/state.rs` what they
//! share (`AppState`: the store and what is kept of it in memory), and `web/links.rs` builds
//! every address. A stored game reaches the handlers as a `dyn GamePages`: each game's five
//! hooks (`GameHooks`: `web/game/tiles.rs`, `web/game/cards.rs`), and the rest written once
//! (`web/game/mod.rs`) over its words (`GameWords`), its replay (`replay::Replays`), its stored
//! analysis (`Analysed`, `AnalysisReport`) and what every game gives alike (`StoredGame`, written once in
//! `web/loaded.rs`); `annotated` in `web/loaded.rs`, which
//! parses a stored game into a `Loaded` enum and replays it once, keeping the replay with it
//! for the end page, the API and the rounds, is the one place the web tells the games apart. The explore board (`web/game/explore/`, its routes in
//! `web/routes/explore.rs`) plays a line in the notation of `record/line.rs` from any turn
//! (`replay/explore.rs`) and asks the engine about where it leads within a time budget
//! (`analysis/on_demand.rs`). The view models are `web/view.rs` (and
//! `card_view.rs`, `board_view.rs`, `tracker_view.rs`, `chance_view.rs`, `share_view.rs`, `annotation_view.rs`
//! beside it),
//! `web/problem.rs` turns errors into problem+json or HTML, `web/page_cache.rs` keeps built
//! turn pages, `web/search.rs` turns the home page's
//! search into games and the players a name matches, and `limits.rs`, `origin.rs`,
//! `middleware.rs` and `metrics.rs` in `web/` guard and measure every request. The pages are
//! askama templates in `templates/`: `_`-prefixed parts are shared by the turn and end pages
//! (the head, the share menu, the board picture, the scoreboard, the event list, the score
//! graph, the turn list), and a turn page adds one part of its game's own (`_tile_turn.html`,
//! `_card_turn.html`). `static/` holds what is served as it is (the record schemas, the demo
//! games, the icon, the style sheet, the script, the bookmarklet's source) and the
//! reference's Markdown (`static/docs/`, served under `/docs` by `web/routes/docs.rs`).
//!
//! [`cli`] is the command line, one private module per command; what a command does per game
//! is the `Commands` trait (`cli/game.rs`; `cli/tiles.rs`, `cli/cards.rs`). `cli/bench.rs`,
//! `cli/load.rs`, `cli/honesty.rs` and `cli/judge/` are the `bench` measurements.
//!
//! # Where is…
//!
//! - **…where farms are scored?** At the end of the game, in `engine/scoring.rs`:
//!   [`Game::finish`](engine::Game::finish) scores every incomplete feature, then the farms by
//!   the preset's farm rule (per field, or the classic per city). New World's farms are a
//!   feature kind of the table in `engine/rules.rs`, scored like any feature.
//! - **…where a surveyor moves?** [`Surveyors::advance`](engine::Surveyors::advance) in
//!   `engine/surveyors.rs` moves it; the surveyors' part hooks there (`engine/parts.rs`) call it
//!   after each feature scored during play (`engine/scoring.rs` asks them), add the surveyor
//!   bonus and name the settlers left behind, which go home.
//! - **…where an upload is stored?** [`store::upload`] (`store/ingest.rs`): parse, replay, and one
//!   transaction with the game and a snapshot row per turn ([`store::Store::insert`]). The
//!   routes that call it are `web/routes/api.rs` (`POST /api/games`) and `web/routes/pages.rs`
//!   (the form, `POST /games`).
//! - **…where a live game takes a move?** `web/routes/live.rs` (`POST /api/games/{id}/moves`,
//!   and the pages' forms: the explore board's, the Card Game's `/g/{id}/record` from
//!   `web/game/record_cards.rs`) checks its number and owner, then [`store::record_live`]
//!   (`store/live.rs`) replays the record with the move and writes it in place of the one
//!   before, in one transaction that fails if another move came first (`Backend::write_live`).
//! - **…where a turn page is built?** `web/routes/pages.rs` (`turn_page`) asks the game's
//!   `GameHooks::turn_page` (`web/game/tiles.rs` or `web/game/cards.rs`), which reads the
//!   turn's position kept when the game was loaded (`web/loaded.rs`'s `Stored::after`, from
//!   [`replay::Positions`]: no page replays the record), builds the board or table and the
//!   game's own part, and hands them to
//!   `web/game/turn.rs`'s `turn_page`, written once for every game over the game's words
//!   (`GameWords`: `web/view.rs` for the tile games, `web/card_view.rs` for the Card Game), as
//!   its `end_page` is; it is kept once built in `web/page_cache.rs`, and the template is
//!   `templates/turn.html`.
//! - **…where the analysis plans a game?** [`analysis::analyse_game`] (`analysis/turn.rs`),
//!   which asks [`analysis::budget::plan`] for each turn's playouts within the game's budget,
//!   then analyses every turn; the queue that runs it for the service is [`queue`].
//! - **…where the analysis picks a move?** `weighing::weigh` (`analysis/weighing.rs`): every
//!   legal move ranked on sampled futures, the best and the move played weighed again on
//!   fresh ones (`analysis/verdict.rs`); its `Judgement::chosen` is the move it would play.
//! - **…where a snapshot is stored and read?** `store/snapshot/`: a turn as a typed
//!   `Snapshot<N>` in its game's notation (`tiles.rs`, `cards.rs`), made by each game's
//!   `Storable::snapshots` and written with its game in one transaction (`store/ingest.rs`);
//!   read back and parsed once by `Store::snapshots` for the API's turns (`web/game/api.rs`)
//!   and the player rows (`store/players.rs`).

pub mod analysis;
pub mod cli;
pub mod engine;
pub mod export;
pub mod queue;
pub mod record;
pub mod render;
pub mod replay;
pub mod selfplay;
pub mod store;
pub mod web;
