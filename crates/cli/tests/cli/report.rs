//! `crosscheck report`: the page of a real campaign on SQLite (one with findings from a mutant,
//! one clean), checked as HTML text and as rendered by headless Chromium (`--dump-dom`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn run(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crosscheck"))
        .args(args)
        .current_dir(cwd)
        .output()
        .unwrap_or_else(|e| panic!("crosscheck runs: {e:?}"))
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn count(hay: &str, needle: &str) -> usize {
    hay.matches(needle).count()
}

/// The text of every `<pre ...>` element: escaped text has no `<` in it.
fn pre_texts(html: &str) -> Vec<&str> {
    html.split("<pre")
        .skip(1)
        .filter_map(|p| p.split_once('>'))
        .filter_map(|(_, rest)| rest.split_once("</pre>"))
        .map(|(t, _)| t)
        .collect()
}

/// `chromium` on PATH; without it the rendering checks fail when `CROSSCHECK_REQUIRE_ENGINES`
/// names chromium and are skipped otherwise.
fn chromium() -> Option<PathBuf> {
    let found = std::env::var_os("PATH")
        .and_then(|p| std::env::split_paths(&p).map(|d| d.join("chromium")).find(|c| c.is_file()));
    if found.is_none() {
        assert!(
            !crosscheck_engines::testing::required("chromium"),
            "chromium is required (CROSSCHECK_REQUIRE_ENGINES) but not on PATH (install: scripts/install-report-tools.sh)"
        );
        println!("skipped: chromium is not installed here; install: scripts/install-report-tools.sh");
    }
    found
}

/// Runs headless Chromium on `page` with `args`, returning its stdout; killed after a minute.
fn headless(chrome: &Path, page: &Path, args: &[&str]) -> String {
    let profile = tempfile::tempdir().unwrap_or_else(|e| panic!("profile dir: {e:?}"));
    let mut child = Command::new(chrome)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"])
        .args(["--disable-background-networking", "--disable-component-update", "--disable-sync"])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("chromium starts: {e}"));
    let mut stdout = child.stdout.take().unwrap_or_else(|| panic!("chromium has no stdout"));
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut s);
        s
    });
    let start = Instant::now();
    while child.try_wait().unwrap_or_else(|e| panic!("wait: {e:?}")).is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within a minute on {}", page.display());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    reader.join().unwrap_or_else(|e| panic!("reader: {e:?}"))
}

/// What the page must show about a campaign directory whatever its findings: the structure,
/// totals that match `crosscheck findings --json`, and nothing that loads from elsewhere.
fn check_page(html: &str, out: &Path, cwd: &Path) -> serde_json::Value {
    let o = run(&["findings", &out.display().to_string(), "--json"], cwd);
    let bugs: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("findings --json: {e:?}"));
    let bugs = bugs.as_array().unwrap_or_else(|| panic!("findings --json is a list")).clone();
    let total: i64 = bugs.iter().map(|b| b["count"].as_i64().unwrap_or(0)).sum();
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    assert!(html.contains(&format!("id=\"total-findings\" data-n=\"{total}\"")), "total findings {total}");
    assert!(html.contains(&format!("id=\"total-distinct\" data-n=\"{}\"", bugs.len())));
    for section in ["<section class=\"campaign\"", "<section id=\"counts\"", "<section id=\"bugs\""] {
        assert_eq!(count(html, section), 1, "{section}");
    }
    assert_eq!(count(html, "<svg class=\"plot\""), 3, "three plots");
    // Self-contained: no script, no stylesheet or font or image from anywhere.
    for bad in ["<script", "<link", "<img", "src=", "url(", "@import", "https:"] {
        assert!(!html.contains(bad), "the page contains {bad}");
    }
    assert_eq!(count(html, "http://"), 3, "only the SVG namespace names a URL");
    for t in pre_texts(html) {
        assert!(!t.contains('<'), "unescaped text in a <pre>: {t}");
    }
    // Most frequent first, one section each, with its count.
    let sections: Vec<&str> = html.split("<section class=\"bug\" id=\"bug-").skip(1).collect();
    assert_eq!(sections.len(), bugs.len().min(200));
    for (s, b) in sections.iter().zip(&bugs) {
        assert!(s.starts_with(&format!("{}\" data-count=\"{}\"", b["id"], b["count"])), "{s:.80} vs {b}");
    }
    serde_json::Value::Array(bugs)
}

fn check_rendered(chrome: &Path, page: &Path, html: &str, bugs: usize) -> String {
    let dom = headless(chrome, page, &["--dump-dom"]);
    assert!(dom.contains("crosscheck report"), "no page rendered: {dom:.300}");
    assert_eq!(count(&dom, "<svg class=\"plot\""), 3, "plots in the DOM");
    let points = count(&dom, "<circle class=\"pt\"");
    assert!(points >= 3 && points == count(html, "<circle class=\"pt\""), "{points} data points");
    assert_eq!(count(&dom, "<polyline class=\"series\""), 5, "five series");
    assert_eq!(count(&dom, "<section class=\"bug\""), bugs.min(200));
    let shot = page.with_extension("png");
    headless(chrome, page, &[&format!("--screenshot={}", shot.display()), "--window-size=1200,1600"]);
    let png = std::fs::read(&shot).unwrap_or_else(|e| panic!("screenshot written: {e:?}"));
    assert!(png.starts_with(b"\x89PNG") && png.len() > 20_000, "a blank screenshot: {} bytes", png.len());
    dom
}

#[test]
fn a_campaign_with_findings_gets_a_page_with_each_bug() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // The directory name reaches the page through the command line: it must come out escaped.
    let out = "out<&>";
    let args = ["run", "sql", "--engines", "sqlite,mutant:sqlite:drop-row", "--oracle", "differential"];
    let o = run(
        &[&args[..], &["--tests", "400", "--seed", "1", "--workers", "1", "--out", out, "--json"]].concat(),
        tmp.path(),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let summary: serde_json::Value = serde_json::from_slice(&o.stdout).expect("summary");
    let page = tmp.path().join("page.html");
    let o = run(&["report", out, "--out", "page.html"], tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let html = std::fs::read_to_string(&page).expect("page written");
    let bugs = check_page(&html, &tmp.path().join(out), tmp.path());
    let bugs = bugs.as_array().expect("bugs");
    assert!(!bugs.is_empty(), "the mutant is caught");
    assert!(html.contains("--out out&lt;&amp;&gt;") && !html.contains("out<&>"), "the command line is escaped");
    assert!(html.contains(&format!("<td data-key=\"tests\">{}</td>", summary["tests"])));
    assert!(html.contains(&format!("<td data-key=\"distinct\">{}</td>", summary["distinct"])));
    // One engine against one: no answer is called expected, and both are shown.
    assert!(html.contains("mutant:sqlite:drop-row 3.") && html.contains("<pre class=\"expected\">no majority"));
    assert!(html.contains("<pre class=\"actual\">sqlite:") && html.contains("\nmutant:sqlite:drop-row:"));
    assert!(html.contains("(reduced)"));
    assert!(html.contains("<table id=\"by-oracle\"><tr><th>oracle</th><th>findings</th><th>distinct bugs</th></tr><tr><td>differential</td>"));
    let Some(chrome) = chromium() else { return };
    let dom = check_rendered(&chrome, &page, &html, bugs.len());
    assert!(dom.contains("out&lt;&amp;&gt;"), "the rendered page shows the escaped name as text");
}

#[test]
fn a_clean_campaign_gets_its_time_series_and_no_bugs() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // Eleven seconds: two progress points and the final one.
    let args = ["run", "sql", "--engines", "sqlite", "--oracle", "tlp-where,norec", "--time", "11s"];
    let o = run(&[&args[..], &["--seed", "2", "--workers", "1", "--out", "out", "--json"]].concat(), tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let summary: serde_json::Value = serde_json::from_slice(&o.stdout).expect("summary");
    let o = run(&["report", "out"], tmp.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let page = tmp.path().join("out").join("report.html");
    let html = std::fs::read_to_string(&page).expect("report.html by default");
    check_page(&html, &tmp.path().join("out"), tmp.path());
    assert!(html.contains("<p id=\"no-bugs\">") && html.contains(">sqlite 3."));
    assert!(html.contains(&format!("<td data-key=\"tests\">{}</td>", summary["tests"])));
    let throughput =
        html.split("data-series=\"tests/s\"").nth(1).and_then(|s| s.split("points=\"").nth(1)).expect("series");
    let n = throughput.split('"').next().unwrap_or("").split(' ').count();
    assert!(n >= 3, "a point every 5 s and the final one: {n}");
    let Some(chrome) = chromium() else { return };
    check_rendered(&chrome, &page, &html, 0);
}

#[test]
fn a_directory_without_a_campaign_is_one_line_and_exit_2() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let o = run(&["report", "."], tmp.path());
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("not a campaign directory"), "{err}");
}
