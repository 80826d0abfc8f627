//! The real binary as an operator runs it: a `serve` process on a free port, and a client
//! for it.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `serve` and the address it listens on.
pub struct Server {
    pub child: Child,
    pub address: String,
}

impl Server {
    /// Starts `serve` on a free port; returns once it says where it listens.
    pub fn start(db: impl AsRef<OsStr>) -> Server {
        Server::start_with(db, &[])
    }

    /// [`Server::start`] with more arguments.
    pub fn start_with(db: impl AsRef<OsStr>, more: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_carcassonne-replay"))
            .args([
                "serve",
                "--bind",
                "127.0.0.1:0",
                "--uploads-per-minute",
                "1000000",
                "--db",
            ])
            .arg(db)
            .args(more)
            .env("RUST_LOG", "warn,carcassonne_replay::cli=info")
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let address = lines
            .by_ref()
            .map_while(Result::ok)
            .find_map(|l| {
                let at = l.find("serving on http://")? + "serving on http://".len();
                Some(l[at..].split_whitespace().next()?.to_string())
            })
            .expect("serve says where it listens");
        // Keep reading the log, so that the server never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        Server { child, address }
    }

    pub fn agent() -> ureq::Agent {
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(30)))
            .build()
            .into()
    }

    /// Uploads a record; its id when the service acknowledged it.
    pub fn upload(&self, body: &[u8]) -> Option<String> {
        let mut r = Self::agent()
            .post(&format!("http://{}/api/games", self.address))
            .send(body)
            .ok()?;
        if r.status() != 201 {
            return None;
        }
        let v: serde_json::Value = serde_json::from_str(&r.body_mut().read_to_string().ok()?).ok()?;
        Some(v["id"].as_str()?.to_string())
    }

    pub fn get(&self, path: &str) -> Option<serde_json::Value> {
        let mut r = Self::agent()
            .get(&format!("http://{}{path}", self.address))
            .call()
            .ok()?;
        if r.status() != 200 {
            return None;
        }
        serde_json::from_str(&r.body_mut().read_to_string().ok()?).ok()
    }

    /// Whether the game is stored with `turns` turns, the last one among them.
    pub fn has(&self, id: &str, turns: u64) -> bool {
        let game = self.get(&format!("/api/games/{id}"));
        game.is_some_and(|g| g["turns"] == turns) && self.get(&format!("/api/games/{id}/turns/{turns}")).is_some()
    }

    pub fn signal(&self, signal: &str) {
        let ok = Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .unwrap()
            .success();
        assert!(ok, "kill {signal}");
    }
}

/// A test that fails leaves no server behind.
impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
