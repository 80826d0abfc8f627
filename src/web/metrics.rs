//! What `/metrics` tells a Prometheus server: requests and their latency by route and status,
//! games stored, the analysis queue's depth, and how long analyses take.
//!
//! The route is the pattern that matched (`/g/{id}/t/{n}`), never the path, so that the
//! number of series stays bounded whatever clients ask for.

use crate::store::QueueState;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use std::time::Duration;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    method: String,
    route: String,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabels {
    route: String,
}

/// A method's label: one of the methods HTTP defines, or `other`. A client may send any
/// token as a method, and each new one would be a series kept for ever.
fn method_label(method: &str) -> &'static str {
    const METHODS: [&str; 9] = [
        "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH",
    ];
    METHODS.into_iter().find(|m| *m == method).unwrap_or("other")
}

/// The service's metrics, shared by the workers.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    latency: Family<RouteLabels, Histogram>,
    games: Gauge,
    queue: Gauge,
    oldest: Gauge,
    lapsed: Gauge,
    analysis: Histogram,
}

impl Default for Metrics {
    fn default() -> Self {
        let requests = Family::<RequestLabels, Counter>::default();
        // 0.1 ms to about 6.5 s.
        let latency = Family::<RouteLabels, Histogram>::new_with_constructor(|| {
            Histogram::new(exponential_buckets(0.0001, 2.0, 17))
        });
        let (games, queue, oldest, lapsed) = (Gauge::default(), Gauge::default(), Gauge::default(), Gauge::default());
        // 0.25 s to about 4 minutes.
        let analysis = Histogram::new(exponential_buckets(0.25, 2.0, 11));
        let mut registry = Registry::with_prefix("carcassonne_replay");
        registry.register("http_requests", "HTTP requests answered", requests.clone());
        registry.register(
            "http_request_duration_seconds",
            "Time from a request's arrival to its answer",
            latency.clone(),
        );
        registry.register("games_stored", "Games in the database", games.clone());
        registry.register("analysis_queue_depth", "Analyses queued or running", queue.clone());
        registry.register(
            "analysis_oldest_wait_seconds",
            "How long the longest-waiting queued analysis has waited",
            oldest.clone(),
        );
        registry.register(
            "analysis_lapsed_leases",
            "Running analyses whose worker's lease ran out, not yet taken over",
            lapsed.clone(),
        );
        registry.register(
            "analysis_duration_seconds",
            "Time a whole game's background analysis took",
            analysis.clone(),
        );
        Metrics {
            registry,
            requests,
            latency,
            games,
            queue,
            oldest,
            lapsed,
            analysis,
        }
    }
}

impl Metrics {
    /// Counts an answered request. `route` is the matched pattern, or `None` when nothing
    /// matched or the request was cut off.
    pub fn request(&self, method: &str, route: Option<&str>, status: u16, took: Duration) {
        let route = route.unwrap_or("none").to_string();
        self.requests
            .get_or_create(&RequestLabels {
                method: method_label(method).to_string(),
                route: route.clone(),
                status,
            })
            .inc();
        self.latency
            .get_or_create(&RouteLabels { route })
            .observe(took.as_secs_f64());
    }

    pub fn analysis_took(&self, took: Duration) {
        self.analysis.observe(took.as_secs_f64());
    }

    /// The text exposition, with the gauges read now from the database.
    pub fn render(&self, games: u64, queue: QueueState) -> String {
        self.games.set(games as i64);
        self.queue.set(queue.waiting as i64);
        self.oldest.set(queue.oldest_seconds as i64);
        self.lapsed.set(queue.lapsed as i64);
        let mut out = String::new();
        prometheus_client::encoding::text::encode(&mut out, &self.registry).expect("writing to a String cannot fail");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_statuses_and_gauges_are_exposed() {
        let m = Metrics::default();
        m.request("GET", Some("/g/{id}/t/{n}"), 200, Duration::from_millis(2));
        m.request("GET", Some("/g/{id}/t/{n}"), 200, Duration::from_millis(3));
        m.request("GET", None, 404, Duration::from_millis(1));
        m.analysis_took(Duration::from_secs(7));
        let queue = QueueState {
            waiting: 3,
            oldest_seconds: 40,
            lapsed: 1,
        };
        let text = m.render(12, queue);
        assert!(
            text.contains(
                r#"carcassonne_replay_http_requests_total{method="GET",route="/g/{id}/t/{n}",status="200"} 2"#
            ),
            "{text}"
        );
        assert!(text.contains(r#"route="none",status="404"} 1"#), "{text}");
        assert!(text.contains("carcassonne_replay_games_stored 12"), "{text}");
        assert!(text.contains("carcassonne_replay_analysis_queue_depth 3"), "{text}");
        assert!(
            text.contains("carcassonne_replay_analysis_oldest_wait_seconds 40"),
            "{text}"
        );
        assert!(text.contains("carcassonne_replay_analysis_lapsed_leases 1"), "{text}");
        assert!(
            text.contains("carcassonne_replay_analysis_duration_seconds_count 1"),
            "{text}"
        );
        assert!(text.ends_with("# EOF\n"), "{text}");
    }

    /// Made-up methods all count as `other`: however many a client invents, the series stay
    /// as few as the methods HTTP defines (7,000-letter methods once grew `/metrics` to 123 MB).
    #[test]
    fn made_up_methods_count_as_one_series() {
        let m = Metrics::default();
        for i in 0..1000 {
            m.request(&format!("X{}", "Y".repeat(i)), None, 404, Duration::from_millis(1));
        }
        m.request("DELETE", None, 404, Duration::from_millis(1));
        let text = m.render(0, QueueState::default());
        assert!(
            text.contains(r#"method="other",route="none",status="404"} 1000"#),
            "{text}"
        );
        assert!(
            text.contains(r#"method="DELETE",route="none",status="404"} 1"#),
            "{text}"
        );
        assert!(text.len() < 10_000, "{} bytes", text.len());
    }
}
