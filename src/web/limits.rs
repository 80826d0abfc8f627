//! Per-client limits on the costly requests: uploads (each is parsed, replayed and stored),
//! imports of many games at once,
//! analysis requests (each queues tens of seconds of work), the explore board's positions
//! (each replays a line and draws a board) and its engine, and
//! comments (each is written, and has every node forget the game's pages), and moves recorded
//! on live games (each replays its game and writes it). Over a limit the
//! answer is `429` with `Retry-After`. A client is its address as the connection shows it,
//! and an IPv6 client its /64, since one host is commonly handed a whole /64 to choose from;
//! behind a reverse proxy that is the proxy's, so the proxy should limit instead.

use super::problem::Problem;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::net::IpAddr;
use std::num::NonZeroU32;

/// Uploads per client per minute by default.
pub const UPLOADS_PER_MINUTE: u32 = 30;
/// Analysis requests per client per minute by default.
pub const ANALYSES_PER_MINUTE: u32 = 10;
/// Comments written or removed per client per minute by default.
pub const ANNOTATIONS_PER_MINUTE: u32 = 60;
/// Imports (up to thousands of games each, stored in the background) a client may start per
/// minute are its uploads' limit divided by this: 3 a minute by default.
pub const UPLOADS_PER_IMPORT: u32 = 10;
/// The explore board's engine may think this many times per analysis request allowed: a
/// thought is about 0.3 s of the machine, a whole-game analysis tens of seconds.
pub const THOUGHTS_PER_ANALYSIS: u32 = 12;
/// Moves recorded on live games (or taken back) a client may send per comment allowed: 120 a
/// minute by default. Each replays its game and writes it, as a comment is written, and a
/// phone back online sends the moves it kept all at once.
pub const MOVES_PER_ANNOTATION: u32 = 2;
/// Explore positions (pages or answers, with or without the engine) a client may ask for per
/// analysis request allowed: 240 a minute by default, four a second, more than a person clicks.
/// Each replays its line and draws its board, some tens of milliseconds.
pub const POSITIONS_PER_ANALYSIS: u32 = 24;

/// How many of each a client may send per minute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitSettings {
    pub uploads_per_minute: u32,
    pub analyses_per_minute: u32,
    pub annotations_per_minute: u32,
}

impl Default for LimitSettings {
    fn default() -> Self {
        LimitSettings {
            uploads_per_minute: UPLOADS_PER_MINUTE,
            analyses_per_minute: ANALYSES_PER_MINUTE,
            annotations_per_minute: ANNOTATIONS_PER_MINUTE,
        }
    }
}

/// The limiters, shared by the workers.
pub struct Limits {
    uploads: DefaultKeyedRateLimiter<IpAddr>,
    analyses: DefaultKeyedRateLimiter<IpAddr>,
    thoughts: DefaultKeyedRateLimiter<IpAddr>,
    positions: DefaultKeyedRateLimiter<IpAddr>,
    imports: DefaultKeyedRateLimiter<IpAddr>,
    annotations: DefaultKeyedRateLimiter<IpAddr>,
    moves: DefaultKeyedRateLimiter<IpAddr>,
}

impl Limits {
    pub fn new(s: LimitSettings) -> Limits {
        let per_minute = |n: u32| RateLimiter::keyed(Quota::per_minute(NonZeroU32::new(n.max(1)).expect("at least 1")));
        Limits {
            uploads: per_minute(s.uploads_per_minute),
            analyses: per_minute(s.analyses_per_minute),
            thoughts: per_minute(s.analyses_per_minute.saturating_mul(THOUGHTS_PER_ANALYSIS)),
            positions: per_minute(s.analyses_per_minute.saturating_mul(POSITIONS_PER_ANALYSIS)),
            imports: per_minute(s.uploads_per_minute / UPLOADS_PER_IMPORT),
            annotations: per_minute(s.annotations_per_minute),
            moves: per_minute(s.annotations_per_minute.saturating_mul(MOVES_PER_ANNOTATION)),
        }
    }

    pub fn upload(&self, client: Option<IpAddr>) -> Result<(), TooMany> {
        check(&self.uploads, client, "uploads")
    }

    /// An import of many games at once (it counts as an upload too).
    pub fn import(&self, client: Option<IpAddr>) -> Result<(), TooMany> {
        check(&self.imports, client, "imports")
    }

    pub fn analysis(&self, client: Option<IpAddr>) -> Result<(), TooMany> {
        check(&self.analyses, client, "analysis requests")
    }

    /// A position the explore board's engine has not thought about yet (answers it gave
    /// are kept, and free).
    pub fn thought(&self, client: Option<IpAddr>) -> Result<(), TooMany> {
        check(&self.thoughts, client, "engine requests")
    }

    /// A position of the explore board, a page or an answer in JSON.
    pub fn position(&self, client: Option<IpAddr>) -> Result<(), TooMany> {
        check(&self.positions, client, "explore positions")
    }

    /// A comment written or removed.
    pub fn annotation(&self, client: Option<IpAddr>) -> Result<(), TooMany> {
        check(&self.annotations, client, "comments")
    }

    /// A move recorded on a live game, or taken back.
    pub fn live_move(&self, client: Option<IpAddr>) -> Result<(), TooMany> {
        check(&self.moves, client, "moves")
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::new(LimitSettings::default())
    }
}

/// A client over a limit: what it sent too many of, and the seconds until it may again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooMany {
    pub what: &'static str,
    pub retry_after: u32,
}

impl From<TooMany> for Problem {
    fn from(t: TooMany) -> Problem {
        Problem::too_many(t.what, t.retry_after)
    }
}

/// Who a request counts against where a store keeps it (the analysis queue's share): the
/// client's address, as for the limits.
pub fn requester(req: &actix_web::HttpRequest) -> String {
    req.peer_addr()
        .map_or_else(|| "local".to_string(), |a| counted(a.ip()).to_string())
}

/// The address a client is counted by: an IPv4 address (also when written as IPv6), or the
/// first 64 bits of an IPv6 one.
fn counted(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::from([s[0], s[1], s[2], s[3], 0, 0, 0, 0])
            }
        },
    }
}

fn check(limiter: &DefaultKeyedRateLimiter<IpAddr>, client: Option<IpAddr>, what: &'static str) -> Result<(), TooMany> {
    // A connection without an address (a Unix socket, a test harness) is one local client.
    let client = client.map_or(IpAddr::from([127, 0, 0, 1]), counted);
    limiter.check_key(&client).map_err(|not_until| {
        let wait = not_until.wait_time_from(DefaultClock::default().now());
        TooMany {
            what,
            retry_after: u32::try_from(wait.as_secs()).unwrap_or(u32::MAX).saturating_add(1),
        }
    })
}

/// How long a request may take, from its first byte to its answer, by default.
pub const REQUEST_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

#[cfg(test)]
mod tests {
    use super::*;

    /// Every address of an IPv6 /64 is one client; IPv4 addresses, and IPv4 as IPv6, each are.
    #[test]
    fn an_ipv6_client_is_counted_by_its_64() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff:ffff:ffff:ffff".parse().unwrap();
        assert_eq!(counted(a), counted(b));
        assert_ne!(counted(a), counted("2001:db8:1:3::1".parse().unwrap()));
        assert_eq!(
            counted("::ffff:192.0.2.7".parse().unwrap()),
            "192.0.2.7".parse::<IpAddr>().unwrap()
        );
        let limits = Limits::new(LimitSettings {
            uploads_per_minute: 1,
            ..LimitSettings::default()
        });
        assert!(limits.upload(Some(a)).is_ok());
        assert!(
            limits.upload(Some(b)).is_err(),
            "another address of the same /64 is the same client"
        );
    }
}
