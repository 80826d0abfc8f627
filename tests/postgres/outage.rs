//! PostgreSQL out of reach: the service answers `503` with `Retry-After` (the client may try
//! again), never `500`, and serves again once the database is back. The database sits behind a
//! proxy the test cuts, as a network or a restart would.

use crate::common::app::{post, small_game, spawn_app_with};
use crate::common::postgres;
use carcassonne_replay::store::Database;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A TCP proxy to `upstream` that can be cut: then it drops every connection, open or new.
struct Proxy {
    port: u16,
    down: Arc<AtomicBool>,
    open: Arc<Mutex<Vec<TcpStream>>>,
}

impl Proxy {
    fn start(upstream: String) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let (down, open) = (Arc::new(AtomicBool::new(false)), Arc::new(Mutex::new(Vec::new())));
        let (cut, streams) = (down.clone(), open.clone());
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                if cut.load(Ordering::SeqCst) {
                    continue; // dropped: closed at once
                }
                let server = TcpStream::connect(&upstream).unwrap();
                let mut kept = streams.lock().unwrap();
                kept.extend([client.try_clone().unwrap(), server.try_clone().unwrap()]);
                pipe(client.try_clone().unwrap(), server.try_clone().unwrap());
                pipe(server, client);
            }
        });
        Proxy { port, down, open }
    }

    fn cut(&self) {
        self.down.store(true, Ordering::SeqCst);
        for s in self.open.lock().unwrap().drain(..) {
            let _ = s.shutdown(Shutdown::Both);
        }
    }

    fn mend(&self) {
        self.down.store(false, Ordering::SeqCst);
    }
}

fn pipe(mut from: TcpStream, mut to: TcpStream) {
    std::thread::spawn(move || {
        let mut buf = [0; 16 * 1024];
        while let Ok(n @ 1..) = from.read(&mut buf) {
            if to.write_all(&buf[..n]).is_err() {
                break;
            }
        }
        let _ = to.shutdown(Shutdown::Both);
    });
}

#[test]
fn an_upload_while_the_database_is_out_of_reach_is_503_with_retry_after() {
    let Some(db) = postgres::fresh() else { return };
    let (host, rest) = db.url.rsplit_once('@').unwrap();
    let (address, name) = rest.split_once('/').unwrap();
    let proxy = Proxy::start(address.to_string());
    let url = format!("{host}@127.0.0.1:{}/{name}", proxy.port);
    let app = spawn_app_with(Database::Postgres(url), None, |_| {});
    assert_eq!(
        post(&app, "/api/games", small_game(["Ann", "Bob"]).as_bytes()).status,
        201
    );
    proxy.cut();
    let refused = post(&app, "/api/games", small_game(["Cleo", "Dan"]).as_bytes());
    assert_eq!(refused.status, 503, "{}", refused.body);
    assert_eq!(refused.content_type, "application/problem+json");
    assert!(refused.header("retry-after").parse::<u32>().is_ok_and(|s| s > 0));
    assert!(
        refused.json()["detail"]
            .as_str()
            .unwrap()
            .contains("database is out of reach")
    );
    proxy.mend();
    let back = post(&app, "/api/games", small_game(["Cleo", "Dan"]).as_bytes());
    assert_eq!(back.status, 201, "{}", back.body);
    app.stop();
    drop(db);
}
