//! A headless Chromium driven over WebDriver, for the browser tests.

use super::app::{agent, answer};
use serde_json::Value;
use std::net::TcpListener;

/// What `found` gives once it gives something, asked every 50 ms for at most twenty seconds:
/// how long the browser tests wait for a page, an element, an address or a script's answer. A
/// cold page of a PostgreSQL-backed test app, built while the rest of the suite loads both
/// cores, has taken more than ten. The first ask waits too: right after a click the address
/// is still the old page's, and may already read as the one awaited.
pub fn within_a_page_load<T>(mut found: impl FnMut() -> Option<T>) -> Option<T> {
    (0..400).find_map(|_| {
        std::thread::sleep(std::time::Duration::from_millis(50));
        found()
    })
}

/// A headless Chromium session driven over WebDriver (Debian's `chromium-driver`).
pub struct Browser {
    driver: std::process::Child,
    base: String,
    session: String,
}

impl Browser {
    /// None when chromedriver is not installed and `SKIP_BROWSER=1` says to skip (see
    /// [`super::missing`]; `.ci/run` installs it).
    #[track_caller]
    pub fn start() -> Option<Browser> {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let driver = std::process::Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn();
        let Ok(driver) = driver else {
            super::missing("SKIP_BROWSER", "chromedriver");
            return None;
        };
        let base = format!("http://127.0.0.1:{port}");
        let ready = (0..100).any(|_| {
            std::thread::sleep(std::time::Duration::from_millis(100));
            agent().get(&format!("{base}/status")).call().is_ok()
        });
        assert!(ready, "chromedriver did not start");
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ];
        let caps = serde_json::json!({"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": args}
        }}});
        let mut browser = Browser {
            driver,
            base,
            session: String::new(),
        };
        let created = browser.call("POST", "/session", Some(caps));
        browser.session = created["value"]["sessionId"]
            .as_str()
            .expect("a WebDriver session")
            .to_string();
        Some(browser)
    }

    pub fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.base);
        let response = match method {
            "GET" => agent().get(&url).call(),
            "DELETE" => agent().delete(&url).call(),
            _ => agent()
                .post(&url)
                .header("Content-Type", "application/json")
                .send(body.unwrap_or(serde_json::json!({})).to_string().as_bytes()),
        };
        answer(response.unwrap()).json()
    }

    pub fn session(&self, path: &str) -> String {
        format!("/session/{}{path}", self.session)
    }

    /// Opens `url` and waits until it has loaded: the driver can answer while the page is still
    /// arriving, and a test that read it then saw half a page (CI, under load).
    pub fn open(&self, url: &str) {
        self.call("POST", &self.session("/url"), Some(serde_json::json!({ "url": url })));
        self.wait_for("return document.readyState === 'complete';");
    }

    /// Presses `key` once the page has loaded, so that its script listens.
    pub fn press(&self, key: &str) {
        self.wait_for("return document.readyState === 'complete';");
        let key_actions = serde_json::json!({"actions": [{"type": "key", "id": "keyboard", "actions": [
            {"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]}]});
        self.call("POST", &self.session("/actions"), Some(key_actions));
    }

    pub fn current_url(&self) -> String {
        self.call("GET", &self.session("/url"), None)["value"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    pub fn wait_for_url(&self, ending: &str) -> bool {
        within_a_page_load(|| self.current_url().ends_with(ending).then_some(())).is_some()
    }
}

impl Browser {
    /// Runs a script in the page; its return value.
    pub fn eval(&self, script: &str) -> Value {
        let body = serde_json::json!({"script": script, "args": []});
        self.call("POST", &self.session("/execute/sync"), Some(body))["value"].clone()
    }

    pub fn resize(&self, width: u32, height: u32) {
        let rect = serde_json::json!({"width": width, "height": height});
        self.call("POST", &self.session("/window/rect"), Some(rect));
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = agent()
                .delete(&format!("{}/session/{}", self.base, self.session))
                .call();
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// The WebDriver key of an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

impl Browser {
    /// The first element matching a CSS selector, as a WebDriver reference.
    pub fn find(&self, css: &str) -> Option<String> {
        let body = serde_json::json!({"using": "css selector", "value": css});
        let found = self.call("POST", &self.session("/element"), Some(body));
        found["value"][ELEMENT].as_str().map(str::to_string)
    }

    /// Clicks an element the way a user does: at its centre, after scrolling to it.
    pub fn click(&self, element: &str) {
        self.call("POST", &self.session(&format!("/element/{element}/click")), None);
    }

    /// Moves the pointer to a point of the viewport, in CSS pixels, and clicks there when
    /// `click` is set.
    pub fn pointer_at(&self, x: f64, y: f64, click: bool) {
        let mut steps = vec![serde_json::json!(
            {"type": "pointerMove", "duration": 0, "origin": "viewport", "x": x.round() as i64, "y": y.round() as i64}
        )];
        if click {
            steps.push(serde_json::json!({"type": "pointerDown", "button": 0}));
            steps.push(serde_json::json!({"type": "pointerUp", "button": 0}));
        }
        let actions = serde_json::json!({"actions": [{"type": "pointer", "id": "mouse",
            "parameters": {"pointerType": "mouse"}, "actions": steps}]});
        self.call("POST", &self.session("/actions"), Some(actions));
    }

    /// Polls a script until it returns something other than null, false or "".
    pub fn wait_for(&self, script: &str) -> Value {
        within_a_page_load(|| {
            let v = self.eval(script);
            // An empty string is not yet an answer: a field or a text the page's script is
            // about to fill reads "" first.
            let unset = v.is_null() || v == Value::Bool(false) || v.as_str() == Some("");
            (!unset).then_some(v)
        })
        .unwrap_or(Value::Null)
    }
}

impl Browser {
    pub fn wait_for_url_containing(&self, part: &str) -> bool {
        within_a_page_load(|| self.current_url().contains(part).then_some(())).is_some()
    }
}

impl Browser {
    /// Makes the pages a touch screen's: a coarse pointer and touch events, through Chromium's
    /// DevTools protocol (as its device mode does).
    pub fn touch_screen(&self) {
        let body = serde_json::json!({"cmd": "Emulation.setTouchEmulationEnabled", "params": {
            "enabled": true, "maxTouchPoints": 5}});
        self.call("POST", &self.session("/goog/cdp/execute"), Some(body));
    }

    /// Cuts the page's connection, or gives it back, through Chromium's DevTools protocol (as
    /// its network panel's "Offline" does): requests fail, and the page hears `offline` and
    /// `online`.
    pub fn set_offline(&self, offline: bool) {
        let cdp = |cmd: &str, params: Value| {
            let body = serde_json::json!({"cmd": cmd, "params": params});
            self.call("POST", &self.session("/goog/cdp/execute"), Some(body));
        };
        cdp("Network.enable", serde_json::json!({}));
        cdp(
            "Network.emulateNetworkConditions",
            serde_json::json!({"offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}),
        );
    }

    /// Makes the page see `prefers-color-scheme: dark`, through Chromium's DevTools protocol.
    pub fn prefer_dark(&self) {
        let body = serde_json::json!({"cmd": "Emulation.setEmulatedMedia", "params": {
            "features": [{"name": "prefers-color-scheme", "value": "dark"}]}});
        self.call("POST", &self.session("/goog/cdp/execute"), Some(body));
    }
}
