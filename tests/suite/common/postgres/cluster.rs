//! A throwaway PostgreSQL cluster of this test process's own, for when no server is named:
//! Debian's `postgresql` binaries (off PATH, under /usr/lib/postgresql), a cluster initialised
//! in a new temporary directory and started on a free port, with durability off (its data is
//! thrown away) and connections enough for the pools of tests running at once.
//!
//! Its end is a watchdog process's job. A test binary has no teardown, its statics are never
//! dropped, and it may end by a panic, by `exit`, or killed (`timeout -s KILL`, Ctrl-C). So
//! before anything else this process starts a shell that reads a pipe until end-of-file, then
//! stops the server and removes the directory. Only this process holds the pipe's writing
//! end, and the kernel closes it however the process ends. The watchdog runs in a process
//! group of its own, and `pg_ctl` puts the server in a session of its own, so a signal to the
//! tests' process group (Ctrl-C, `timeout`) leaves both to end in that order. On an ordinary
//! exit an `atexit` hook closes the pipe itself and waits for the watchdog, so `cargo test`
//! returns with the server gone. A parent-death signal (`PR_SET_PDEATHSIG`) would not do: it
//! fires when the thread that started the server ends, which here is the first test to want
//! one, and nobody would remove the directory.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};

/// The server's URL, or why it did not start.
static STARTED: OnceLock<Result<String, String>> = OnceLock::new();
/// The watchdog, whose stdin is the pipe, until the exit hook takes it.
static WATCHDOG: Mutex<Option<Child>> = Mutex::new(None);

/// Stops the server and removes its directory (`$2`, the binaries in `$1`) once stdin ends.
const WATCHDOG_SCRIPT: &str =
    r#"cat >/dev/null; "$1/pg_ctl" -D "$2/data" -m immediate -w stop >/dev/null 2>&1; rm -rf "$2""#;

// Both are safe to call: geteuid cannot fail, and atexit only keeps a pointer to a function
// that never unwinds.
unsafe extern "C" {
    safe fn geteuid() -> u32;
    safe fn atexit(hook: extern "C" fn()) -> i32;
}

/// The URL of the cluster's maintenance database, starting the cluster on the first call;
/// `None` when PostgreSQL is not installed. Panics when it is but the cluster does not start.
pub fn url() -> Option<String> {
    let bin = bin_dir()?;
    match STARTED.get_or_init(|| start(&bin)) {
        Ok(url) => Some(url.clone()),
        Err(e) => panic!("cannot start a throwaway PostgreSQL from {}: {e}", bin.display()),
    }
}

/// The newest `/usr/lib/postgresql/<major>/bin` that has `initdb`.
fn bin_dir() -> Option<PathBuf> {
    std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let major: u32 = entry.file_name().to_str()?.parse().ok()?;
            Some((major, entry.path().join("bin")))
        })
        .filter(|(_, bin)| bin.join("initdb").is_file())
        .max_by_key(|(major, _)| *major)
        .map(|(_, bin)| bin)
}

fn start(bin: &Path) -> Result<String, String> {
    // Made by the cluster's owner, who must own it; the watchdog first, so that from here on
    // the directory goes however this process ends.
    let dir = run(as_owner("mktemp").args(["-d", "-t", "carcassonne-test-pg.XXXXXX"]))?;
    let dir = Path::new(dir.trim());
    let watchdog = as_owner("sh")
        .args(["-c", WATCHDOG_SCRIPT, "watchdog"])
        .args([bin, dir])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("the watchdog: {e}"))?;
    *WATCHDOG.lock().unwrap() = Some(watchdog);
    atexit(stop_at_exit);

    let data = dir.join("data");
    let mut initdb = as_owner(bin.join("initdb"));
    initdb.arg("-D").arg(&data);
    run(initdb.args("-U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync".split(' ')))?;
    // A port free a moment ago may be taken before the server binds it: then another. The
    // tests connect over TCP, so no Unix socket (whose path a long TMPDIR could make too long);
    // each test's app has a pool of its own, hence the connections.
    let mut failure = String::new();
    for _ in 0..8 {
        let port = free_port()?;
        let options = format!(
            "-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories='' \
             -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=500"
        );
        let started = run(as_owner(bin.join("pg_ctl"))
            .arg("-D")
            .arg(&data)
            .arg("-l")
            .arg(dir.join("log"))
            .args(["-w", "-t", "60", "-o", &options, "start"]));
        match started {
            Ok(_) => return Ok(format!("postgres://postgres@127.0.0.1:{port}/postgres")),
            Err(e) => failure = e,
        }
    }
    let log = std::fs::read_to_string(dir.join("log")).unwrap_or_default();
    Err(format!("{failure}\n{log}"))
}

/// `program` as the cluster's owner: `postgres` when this is root, since initdb and the
/// server refuse to run as root; this user otherwise.
fn as_owner(program: impl AsRef<Path>) -> Command {
    if geteuid() != 0 {
        return Command::new(program.as_ref());
    }
    let mut command = Command::new("runuser");
    command.args(["-u", "postgres", "--"]).arg(program.as_ref());
    command
}

/// Runs `command` to its end: its stdout, or its stderr as the error.
fn run(command: &mut Command) -> Result<String, String> {
    let out = command
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{command:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!("{command:?}: {}", String::from_utf8_lossy(&out.stderr).trim()));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn free_port() -> Result<u16, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    listener.local_addr().map(|a| a.port()).map_err(|e| e.to_string())
}

/// Ends the watchdog's stdin and waits while it stops the server. Never panics: it runs
/// inside `exit`.
extern "C" fn stop_at_exit() {
    let Ok(mut watchdog) = WATCHDOG.lock() else { return };
    if let Some(mut watchdog) = watchdog.take() {
        drop(watchdog.stdin.take());
        let _ = watchdog.wait();
    }
}
