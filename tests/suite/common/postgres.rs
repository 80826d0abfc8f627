//! A new PostgreSQL database for each test that wants one, dropped when the test ends, on the
//! server named by `CARCASSONNE_TEST_PG` or else on a throwaway cluster this test process
//! starts from Debian's `postgresql` package ([`cluster`]). With neither, such a test fails,
//! unless `SKIP_POSTGRES=1`.

mod cluster;

use std::sync::atomic::{AtomicU32, Ordering};

/// A database of this test's own; dropping it drops the database, whoever is connected.
pub struct TestDatabase {
    pub url: String,
    server: String,
    name: String,
}

/// A new, empty database, or `None` when there is no server and `SKIP_POSTGRES=1`.
#[track_caller]
pub fn fresh() -> Option<TestDatabase> {
    let Some(server) = std::env::var("CARCASSONNE_TEST_PG").ok().or_else(cluster::url) else {
        super::missing(
            "SKIP_POSTGRES",
            "PostgreSQL (`apt-get install postgresql`, or a server's URL in CARCASSONNE_TEST_PG)",
        );
        return None;
    };
    static MADE: AtomicU32 = AtomicU32::new(0);
    let name = format!("t_{}_{}", std::process::id(), MADE.fetch_add(1, Ordering::Relaxed));
    // From template0, which nobody connects to: tests creating databases at once never find
    // their template in use.
    execute(&server, &format!("CREATE DATABASE {name} TEMPLATE template0"));
    let base = server.rsplit_once('/').map_or(server.as_str(), |(base, _)| base);
    Some(TestDatabase {
        url: format!("{base}/{name}"),
        server,
        name,
    })
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        execute(
            &self.server,
            &format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
        );
    }
}

/// Runs `sql` on the database at `server` (a server's URL: its maintenance database).
pub fn execute(server: &str, sql: &str) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let (client, connection) = tokio_postgres::connect(server, tokio_postgres::NoTls)
            .await
            .unwrap_or_else(|e| panic!("cannot reach PostgreSQL at {server}: {e}"));
        let connection = tokio::spawn(connection);
        client.batch_execute(sql).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
        drop(client);
        let _ = connection.await;
    });
}
