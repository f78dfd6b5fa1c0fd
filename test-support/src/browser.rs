//! A headless Chromium for the tests that open the pages the project writes, driven over the
//! DevTools protocol through a pipe (`--remote-debugging-pipe`: JSON messages ended by a NUL byte,
//! commands on the browser's file descriptor 3, answers and events on 4), so no port is opened.
//!
//! It records what a page does wrong: console errors and warnings, uncaught exceptions, errors the
//! browser logs (a resource that failed to load), and any request that is not a local file (the
//! pages must work offline). A browser that cannot be found or started is an error, never a skip.

use serde_json::{json, Value};
use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Names looked for on PATH when `CHROMIUM` is not set.
const NAMES: [&str; 3] = ["chromium", "chromium-browser", "google-chrome"];

/// How long one command may take (a 1,000-game report on a busy two-core machine loads in
/// seconds; this only stops a test that would hang).
const TIMEOUT: Duration = Duration::from_secs(120);

/// The viewport of every page (and so of the screenshots).
pub const WIDTH: u32 = 1280;
pub const HEIGHT: u32 = 900;

/// The browser to run: `CHROMIUM` if set, else the first of `NAMES` on PATH.
pub fn find() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return Ok(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in NAMES {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Ok(candidate);
            }
        }
    }
    Err(format!(
        "no Chromium found (looked for {} on PATH; CHROMIUM=/path/to/it names one): the page \
         tests need it. ./test.sh installs Debian's `chromium` when run as root; otherwise run \
         `sudo apt-get install -y chromium`",
        NAMES.join(", ")
    ))
}

pub struct Browser {
    child: Child,
    commands: std::io::PipeWriter,
    messages: Receiver<Value>,
    next_id: u64,
    /// The page's session (one tab).
    session: String,
    /// Events not yet looked at.
    events: Vec<Value>,
    /// The fresh profile folder (removed on drop); the browser's own stderr is kept in it.
    profile: PathBuf,
}

impl Browser {
    /// Start a fresh headless Chromium with one blank tab, its console, log, network and page
    /// events on.
    pub fn launch() -> Result<Browser, String> {
        let program = find()?;
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let profile =
            std::env::temp_dir().join(format!("pages-chromium-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).map_err(|e| format!("{}: {e}", profile.display()))?;
        let stderr = File::create(profile.join("stderr.txt")).map_err(|e| e.to_string())?;
        let (their_in, commands) = std::io::pipe().map_err(|e| e.to_string())?;
        let (answers, their_out) = std::io::pipe().map_err(|e| e.to_string())?;
        let (fd_in, fd_out) = {
            use std::os::fd::AsRawFd;
            (their_in.as_raw_fd(), their_out.as_raw_fd())
        };
        let mut command = Command::new(&program);
        command
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--remote-debugging-pipe",
                &format!("--window-size={WIDTH},{HEIGHT}"),
            ])
            .arg(format!(
                "--user-data-dir={}",
                profile.join("data").display()
            ))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr);
        // SAFETY: only async-signal-safe calls between fork and exec. The pipe ends are moved to
        // descriptors 3 and 4 by way of free numbers (one of them may already be 3 or 4), and the
        // copies lose close-on-exec, which the originals keep.
        unsafe {
            command.pre_exec(move || {
                let a = libc::fcntl(fd_in, libc::F_DUPFD, 10);
                let b = libc::fcntl(fd_out, libc::F_DUPFD, 10);
                if a < 0 || b < 0 || libc::dup2(a, 3) < 0 || libc::dup2(b, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                libc::close(a);
                libc::close(b);
                Ok(())
            });
        }
        let child = command
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", program.display()))?;
        drop((their_in, their_out));
        let (sender, messages) = mpsc::channel();
        std::thread::spawn(move || read_messages(answers, sender));
        let mut browser = Browser {
            child,
            commands,
            messages,
            next_id: 0,
            session: String::new(),
            events: Vec::new(),
            profile,
        };
        let target = browser.call("Target.createTarget", json!({ "url": "about:blank" }))?;
        let target = target["targetId"].clone();
        let attached = browser.call(
            "Target.attachToTarget",
            json!({ "targetId": target, "flatten": true }),
        )?;
        browser.session = attached["sessionId"]
            .as_str()
            .ok_or("no session id")?
            .to_string();
        for domain in ["Page", "Runtime", "Log", "Network"] {
            browser.call(&format!("{domain}.enable"), json!({}))?;
        }
        browser.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": false }),
        )?;
        Ok(browser)
    }

    /// Send one command (to the page once there is one) and wait for its answer.
    pub fn call(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({ "id": id, "method": method, "params": params });
        if !self.session.is_empty() {
            message["sessionId"] = json!(self.session);
        }
        let mut bytes = message.to_string().into_bytes();
        bytes.push(0);
        self.commands
            .write_all(&bytes)
            .map_err(|e| format!("{method}: the browser is gone ({e}){}", self.stderr_tail()))?;
        let until = Instant::now() + TIMEOUT;
        loop {
            let message = self.next_message(until, method)?;
            if message["id"] == json!(id) {
                if let Some(error) = message.get("error") {
                    return Err(format!("{method}: {error}"));
                }
                return Ok(message["result"].clone());
            }
            self.events.push(message);
        }
    }

    fn next_message(&mut self, until: Instant, waiting_for: &str) -> Result<Value, String> {
        let left = until.saturating_duration_since(Instant::now());
        match self.messages.recv_timeout(left) {
            Ok(message) => Ok(message),
            Err(RecvTimeoutError::Timeout) => Err(format!(
                "{waiting_for}: no answer from the browser within {} s",
                TIMEOUT.as_secs()
            )),
            Err(RecvTimeoutError::Disconnected) => Err(format!(
                "{waiting_for}: the browser closed its pipe{}",
                self.stderr_tail()
            )),
        }
    }

    /// Wait for the page's load event (an event already received counts).
    pub fn wait_load(&mut self) -> Result<(), String> {
        let is_load = |e: &Value| e["method"] == "Page.loadEventFired";
        if let Some(at) = self.events.iter().position(is_load) {
            self.events.remove(at);
            return Ok(());
        }
        let until = Instant::now() + TIMEOUT;
        loop {
            let message = self.next_message(until, "the load event")?;
            if is_load(&message) {
                return Ok(());
            }
            self.events.push(message);
        }
    }

    /// Open a local file and wait for its load event.
    pub fn open(&mut self, path: &Path) -> Result<(), String> {
        let path = path
            .canonicalize()
            .map_err(|e| format!("{}: {e}", path.display()))?;
        self.events.retain(|e| e["method"] != "Page.loadEventFired");
        let answer = self.call("Page.navigate", json!({ "url": file_url(&path) }))?;
        if let Some(error) = answer.get("errorText") {
            return Err(format!("{}: {error}", path.display()));
        }
        self.wait_load()
    }

    /// Evaluate JavaScript in the page (promises awaited); its value, or the exception it threw.
    pub fn eval(&mut self, expression: &str) -> Result<Value, String> {
        let answer = self.call(
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }),
        )?;
        if let Some(details) = answer.get("exceptionDetails") {
            let text = details["exception"]["description"]
                .as_str()
                .or(details["text"].as_str())
                .unwrap_or("exception");
            return Err(format!("{expression}: {text}"));
        }
        Ok(answer["result"]["value"].clone())
    }

    /// Milliseconds from the start of the last navigation to its load event.
    pub fn load_ms(&mut self) -> Result<f64, String> {
        let ms = self.eval("performance.getEntriesByType('navigation')[0].loadEventStart")?;
        ms.as_f64().ok_or_else(|| format!("no load time: {ms}"))
    }

    /// Save the viewport as a PNG.
    pub fn screenshot(&mut self, path: &Path) -> Result<(), String> {
        self.screenshot_region(path, None)
    }

    /// Save a PNG of the viewport, or of the region (x, y, width, height) in CSS pixels.
    pub fn screenshot_region(
        &mut self,
        path: &Path,
        region: Option<[f64; 4]>,
    ) -> Result<(), String> {
        let mut params = json!({ "format": "png" });
        if let Some([x, y, width, height]) = region {
            params["clip"] =
                json!({ "x": x, "y": y, "width": width, "height": height, "scale": 1 });
        }
        let shot = self.call("Page.captureScreenshot", params)?;
        let data = shot["data"].as_str().ok_or("no screenshot data")?;
        let png = decode_base64(data)?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::write(path, png).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Everything wrong so far (drains the events): console errors and warnings, uncaught
    /// exceptions, errors the browser logged, requests for anything but local files.
    pub fn problems(&mut self) -> Vec<String> {
        while let Ok(message) = self.messages.try_recv() {
            self.events.push(message);
        }
        let mut out = Vec::new();
        for e in std::mem::take(&mut self.events) {
            let p = &e["params"];
            match e["method"].as_str().unwrap_or("") {
                "Runtime.exceptionThrown" => {
                    let d = &p["exceptionDetails"];
                    let what = d["exception"]["description"]
                        .as_str()
                        .or(d["text"].as_str())
                        .unwrap_or("");
                    out.push(format!(
                        "uncaught exception at line {}: {what}",
                        d["lineNumber"]
                    ));
                }
                "Runtime.consoleAPICalled"
                    if ["error", "warning", "assert"]
                        .contains(&p["type"].as_str().unwrap_or("")) =>
                {
                    let args: Vec<String> = p["args"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .map(|a| match &a["value"] {
                            Value::String(s) => s.clone(),
                            Value::Null => a["description"].as_str().unwrap_or("").to_string(),
                            v => v.to_string(),
                        })
                        .collect();
                    out.push(format!(
                        "console.{}: {}",
                        p["type"].as_str().unwrap_or(""),
                        args.join(" ")
                    ));
                }
                "Log.entryAdded" if p["entry"]["level"] == "error" => {
                    out.push(format!(
                        "browser error: {} {}",
                        p["entry"]["text"].as_str().unwrap_or(""),
                        p["entry"]["url"].as_str().unwrap_or("")
                    ));
                }
                "Network.requestWillBeSent" => {
                    let url = p["request"]["url"].as_str().unwrap_or("");
                    if !["file:", "data:", "about:"]
                        .iter()
                        .any(|s| url.starts_with(s))
                    {
                        out.push(format!("not offline: the page requested {url}"));
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Characters of the page's text (HTML and SVG, not scripts or styles) outside Latin
    /// (U+0000-U+024F) and general punctuation (U+2000-U+206F): glyphs a reader's fonts may lack,
    /// which would show as empty boxes.
    pub fn rare_glyphs(&mut self) -> Result<String, String> {
        let found = self.eval(
            "(() => { const w = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT); \
             const out = new Set(); let n; while ((n = w.nextNode())) { \
             const p = n.parentNode && n.parentNode.nodeName.toLowerCase(); \
             if (p === 'script' || p === 'style') continue; \
             for (const ch of n.nodeValue) { const c = ch.codePointAt(0); \
             if (c > 0x24f && !(c >= 0x2000 && c <= 0x206f)) out.add(ch); } } \
             return Array.from(out).join(''); })()",
        )?;
        Ok(found.as_str().unwrap_or("").to_string())
    }

    /// The last lines the browser wrote on stderr, for an error message.
    fn stderr_tail(&self) -> String {
        let text = std::fs::read_to_string(self.profile.join("stderr.txt")).unwrap_or_default();
        let lines: Vec<&str> = text.lines().rev().take(5).collect();
        match lines.is_empty() {
            true => String::new(),
            false => format!(
                "; its stderr ends: {}",
                lines.into_iter().rev().collect::<Vec<_>>().join(" | ")
            ),
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Read NUL-ended JSON messages until the pipe closes.
fn read_messages(mut from: std::io::PipeReader, to: mpsc::Sender<Value>) {
    let mut pending = Vec::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        let n = match from.read(&mut buffer) {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        pending.extend_from_slice(&buffer[..n]);
        while let Some(end) = pending.iter().position(|&b| b == 0) {
            let message: Vec<u8> = pending.drain(..=end).collect();
            if let Ok(value) = serde_json::from_slice(&message[..end]) {
                if to.send(value).is_err() {
                    return;
                }
            }
        }
    }
}

/// `file://` URL of an absolute path, bytes outside the unreserved set percent-encoded.
pub fn file_url(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut url = String::from("file://");
    for &b in path.as_os_str().as_bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'.' | b'_' | b'-' | b'~' => {
                url.push(b as char)
            }
            _ => url.push_str(&format!("%{b:02X}")),
        }
    }
    url
}

fn decode_base64(text: &str) -> Result<Vec<u8>, String> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .map_err(|e| format!("screenshot data: {e}"))
}
