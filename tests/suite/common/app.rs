//! The real app on a random port with a temporary database, and a client for it: what the
//! HTTP tests share.

use super::postgres::TestDatabase;
use carcassonne_replay::store::{Database, QueuePlace, Store};
use carcassonne_replay::web::LimitSettings;
use carcassonne_replay::web::startup;
use serde_json::Value;
use std::net::TcpListener;
use std::path::Path;
use std::sync::mpsc;

/// Which database a test binary's apps run on, unless a test names one: each binary's root
/// sets `STORE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreKind {
    Sqlite,
    Postgres,
}

pub struct TestApp {
    pub address: String,
    pub db: Database,
    pub handle: actix_web::dev::ServerHandle,
    _dir: Option<tempfile::TempDir>,
    _postgres: Option<TestDatabase>,
}

/// A new, empty database of the binary's kind (`crate::STORE`), and what keeps it: a
/// temporary directory, or a PostgreSQL database dropped when the test ends. With no
/// PostgreSQL server the test fails, unless `SKIP_POSTGRES=1`: then it runs on SQLite, and
/// says so.
pub fn fresh_database() -> (Database, Option<tempfile::TempDir>, Option<TestDatabase>) {
    if crate::STORE == StoreKind::Postgres
        && let Some(pg) = super::postgres::fresh()
    {
        return (Database::Postgres(pg.url.clone()), None, Some(pg));
    }
    let dir = tempfile::tempdir().unwrap();
    (dir.path().join("test.sqlite").into(), Some(dir), None)
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    pub fn stop(self) {
        actix_web::rt::System::new().block_on(self.handle.stop(true));
    }

    /// The app's database, opened again, as another node would.
    pub fn store(&self) -> Store {
        Store::open(self.db.clone()).unwrap()
    }

    pub fn stored_games(&self) -> u64 {
        self.store().count().unwrap()
    }

    /// Runs `sql` on the app's database, behind the app's back (to make it one an earlier
    /// release wrote).
    pub fn execute(&self, sql: &str) {
        match &self.db {
            Database::File(path) => rusqlite::Connection::open(path).unwrap().execute_batch(sql).unwrap(),
            Database::Postgres(url) => super::postgres::execute(url, sql),
        }
    }

    /// The SQLite file the app runs on; `None` on PostgreSQL.
    pub fn db_file(&self) -> Option<&Path> {
        match &self.db {
            Database::File(path) => Some(path),
            Database::Postgres(_) => None,
        }
    }
}

/// Starts the app on port 0 with the database at `db`, seeding the demo like `serve` does.
/// Tests upload far more than a person would, so the per-client limits are lifted.
pub fn spawn_app_at(db: impl Into<Database>, dir: Option<tempfile::TempDir>) -> TestApp {
    spawn_app_with(db.into(), dir, |_| {})
}

/// Like [`spawn_app_at`], with settings a test changes (`configure`) after the tests' own.
pub fn spawn_app_with(
    db: Database,
    dir: Option<tempfile::TempDir>,
    configure: impl FnOnce(&mut startup::Settings) + Send + 'static,
) -> TestApp {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    let store = Store::open(db.clone()).unwrap();
    startup::seed_demo(&store).unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let mut settings = startup::Settings::for_listener(&listener).unwrap();
            // Few playouts keep background analyses quick in a debug build.
            settings.analysis.playouts_per_alternative = Some(2);
            settings.limits = LimitSettings {
                uploads_per_minute: 100_000,
                analyses_per_minute: 100_000,
                annotations_per_minute: 100_000,
            };
            configure(&mut settings);
            let server = startup::run(listener, store, settings).unwrap();
            tx.send(server.handle()).unwrap();
            server.await.unwrap();
        })
    });
    let handle = rx.recv().unwrap();
    TestApp {
        address,
        db,
        handle,
        _dir: dir,
        _postgres: None,
    }
}

/// A fresh app on a new database of the binary's kind, with [`spawn_app_with`]'s changes.
pub fn spawn_app_configured(configure: impl FnOnce(&mut startup::Settings) + Send + 'static) -> TestApp {
    let (db, dir, postgres) = fresh_database();
    TestApp {
        _postgres: postgres,
        ..spawn_app_with(db, dir, configure)
    }
}

pub fn spawn_app() -> TestApp {
    spawn_app_configured(|_| {})
}

/// An app on the database the previous release wrote (`tests/fixtures/store`): the file
/// itself, or on PostgreSQL, what `copy-db` makes of it there.
pub fn spawn_app_on_previous_release() -> TestApp {
    spawn_app_on_release("previous-release.sqlite")
}

/// An app on a database an earlier release wrote, `tests/fixtures/store/{file}`, as
/// [`spawn_app_on_previous_release`] opens its own.
pub fn spawn_app_on_release(fixture: &str) -> TestApp {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/store");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("previous.sqlite");
    std::fs::copy(fixtures.join(fixture), &file).unwrap();
    let (db, _, postgres) = fresh_database();
    if postgres.is_none() {
        return spawn_app_at(file, Some(dir));
    }
    let copied =
        carcassonne_replay::store::copy(&Store::open(file).unwrap(), &Store::open(db.clone()).unwrap(), &|_| {});
    copied.expect("copy-db copies the previous release's database");
    TestApp {
        _postgres: postgres,
        ..spawn_app_at(db, Some(dir))
    }
}

pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .build()
        .into()
}

pub struct Answer {
    pub status: u16,
    pub content_type: String,
    pub location: Option<String>,
    pub headers: ureq::http::HeaderMap,
    pub body: String,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    /// A header's value; empty when the answer has none.
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or_default()
    }
}

pub fn answer(mut r: ureq::http::Response<ureq::Body>) -> Answer {
    let header = |name: &str| r.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
    let (content_type, location) = (header("content-type").unwrap_or_default(), header("location"));
    let status = r.status().as_u16();
    let headers = r.headers().clone();
    let body = r
        .body_mut()
        .with_config()
        .limit(64 * 1024 * 1024)
        .read_to_string()
        .unwrap_or_default();
    Answer {
        status,
        content_type,
        location,
        headers,
        body,
    }
}

/// A request with the method, headers and body a test chooses.
pub fn request(app: &TestApp, method: &str, path: &str, headers: &[(&str, &str)], body: &[u8]) -> Answer {
    let mut req = ureq::http::Request::builder().method(method).uri(app.url(path));
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    answer(agent().run(req.body(body.to_vec()).unwrap()).unwrap())
}

/// A JSON body posted to `path`.
pub fn post_json(app: &TestApp, path: &str, body: &Value) -> Answer {
    let headers = [("Content-Type", "application/json")];
    request(app, "POST", path, &headers, body.to_string().as_bytes())
}

/// A place in the analysis queue for tests that queue straight into the store: room for 100,
/// all of it anyone's.
pub const ANY_PLACE: QueuePlace<'static> = QueuePlace {
    capacity: 100,
    requester: "test",
    share: 100,
};

pub fn get(app: &TestApp, path: &str) -> Answer {
    answer(agent().get(&app.url(path)).call().unwrap())
}

pub fn get_html(app: &TestApp, path: &str) -> Answer {
    answer(
        agent()
            .get(&app.url(path))
            .header("Accept", "text/html")
            .call()
            .unwrap(),
    )
}

pub fn post(app: &TestApp, path: &str, body: &[u8]) -> Answer {
    answer(
        agent()
            .post(&app.url(path))
            .header("Content-Type", "application/octet-stream")
            .send(body)
            .unwrap(),
    )
}

/// A multipart form post, as a browser sends the upload form.
pub fn post_form(app: &TestApp, field: &str, filename: Option<&str>, content: &[u8]) -> Answer {
    let boundary = "----carcassonne-test-boundary";
    let disposition = match filename {
        Some(f) => format!("form-data; name=\"{field}\"; filename=\"{f}\""),
        None => format!("form-data; name=\"{field}\""),
    };
    let mut body = format!("--{boundary}\r\nContent-Disposition: {disposition}\r\n\r\n").into_bytes();
    body.extend_from_slice(content);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    answer(
        agent()
            .post(&app.url("/games"))
            .header("Content-Type", format!("multipart/form-data; boundary={boundary}"))
            .header("Accept", "text/html")
            .send(&body[..])
            .unwrap(),
    )
}

pub fn demo() -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("static/games/demo-second-edition.json")).unwrap()
}

/// A small legal game of our own, different from the demo.
pub fn small_game(names: [&str; 2]) -> String {
    format!(
        r#"{{"format": "carcassonne-replay/1", "players": [{{"name": {:?}}}, {{"name": {:?}}}],
            "rules": {{"preset": "second-edition"}},
            "moves": [{{"tile": "E", "at": [0, -1], "rotation": 180, "meeple": {{"feature": "city", "at": "S"}}}},
                      {{"tile": "V", "at": [1, 0], "rotation": 90, "meeple": {{"feature": "road", "at": "W"}}}},
                      {{"tile": "B", "at": [0, 1], "rotation": 0, "meeple": {{"feature": "cloister"}}}}]}}"#,
        names[0], names[1]
    )
}

pub fn upload_id(app: &TestApp, body: &[u8]) -> String {
    let a = post(app, "/api/games", body);
    assert!(a.status == 201 || a.status == 200, "{} {}", a.status, a.body);
    a.json()["id"].as_str().unwrap().to_string()
}
