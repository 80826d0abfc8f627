//! The real app on a random port with a temporary database, and a client for it: what the
//! HTTP tests share.

use carcassonne_replay::store::Store;
use carcassonne_replay::web::LimitSettings;
use carcassonne_replay::web::startup;
use serde_json::Value;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::mpsc;

pub struct TestApp {
    pub address: String,
    pub db: PathBuf,
    pub handle: actix_web::dev::ServerHandle,
    _dir: Option<tempfile::TempDir>,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    pub fn stop(self) {
        actix_web::rt::System::new().block_on(self.handle.stop(true));
    }

    pub fn stored_games(&self) -> u64 {
        Store::open(&self.db).unwrap().count().unwrap()
    }
}

/// Starts the app on port 0 with the database at `db`, seeding the demo like `serve` does.
/// Tests upload far more than a person would, so the per-client limits are lifted.
pub fn spawn_app_at(db: PathBuf, dir: Option<tempfile::TempDir>) -> TestApp {
    spawn_app_with(db, dir, |_| {})
}

/// Like [`spawn_app_at`], with settings a test changes (`configure`) after the tests' own.
pub fn spawn_app_with(
    db: PathBuf,
    dir: Option<tempfile::TempDir>,
    configure: impl FnOnce(&mut startup::Settings) + Send + 'static,
) -> TestApp {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = format!("http://{}", listener.local_addr().unwrap());
    let store = Store::open(&db).unwrap();
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
    }
}

/// A fresh app on a temporary database, with [`spawn_app_with`]'s changes.
pub fn spawn_app_configured(configure: impl FnOnce(&mut startup::Settings) + Send + 'static) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    spawn_app_with(dir.path().join("test.sqlite"), Some(dir), configure)
}

pub fn spawn_app() -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    spawn_app_at(dir.path().join("test.sqlite"), Some(dir))
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
    pub body: String,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

pub fn answer(mut r: ureq::http::Response<ureq::Body>) -> Answer {
    let header = |name: &str| r.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
    let (content_type, location) = (header("content-type").unwrap_or_default(), header("location"));
    let status = r.status().as_u16();
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
        body,
    }
}

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
