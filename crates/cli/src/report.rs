//! `crosscheck report DIR`: one self-contained HTML page for a campaign directory, with the
//! campaigns' headers, their time series as inline SVG plots, counts per oracle and engine, and
//! one section per distinct bug with its reproducer.
//!
//! The page loads nothing (no script, no stylesheet, no font), so it can be mailed or attached
//! to an issue as it is. Everything is read through `crosscheck_core::store`.

use crate::errors::{user, Result, EXIT_OK};
use crosscheck_core::runner::Summary;
use crosscheck_core::store::{self, BugRow, CampaignRow, FindingCount, FindingRecord, ProgressPoint, Store};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// Caps that keep a flood campaign's page to a few megabytes.
const MAX_BUGS: usize = 200;
const MAX_REPRO_BYTES: usize = 16 * 1024;
const MAX_RESULT_CHARS: usize = 4 * 1024;

#[derive(clap::Args)]
pub struct ReportArgs {
    /// The campaign's output directory
    #[arg(default_value = "crosscheck-out")]
    dir: PathBuf,
    /// Where to write the page (default: DIR/report.html)
    #[arg(long)]
    out: Option<PathBuf>,
}

struct CampaignView {
    row: CampaignRow,
    summary: Option<Summary>,
    points: Vec<ProgressPoint>,
}

struct BugView {
    row: BugRow,
    rec: Option<FindingRecord>,
    /// The reproducer shown (reduced first): name, text, whether it was cut short.
    repro: Option<(String, String, bool)>,
    others: Vec<String>,
}

struct Data {
    dir: PathBuf,
    campaigns: Vec<CampaignView>,
    bugs: Vec<BugView>,
    /// All distinct bugs, also those beyond `MAX_BUGS`, for the counts.
    all_bugs: Vec<BugRow>,
    counts: Vec<FindingCount>,
    findings: i64,
}

pub fn report(args: ReportArgs) -> Result<i32> {
    let dir = &args.dir;
    if !store::is_store(dir) {
        return Err(user(format!(
            "{} is not a campaign directory: it holds no findings.db (give a campaign's --out directory)",
            dir.display()
        )));
    }
    let data = load(dir)?;
    let html = page(&data);
    let out = args.out.clone().unwrap_or_else(|| dir.join("report.html"));
    std::fs::write(&out, html).map_err(|e| user(format!("cannot write {}: {e}", out.display())))?;
    eprintln!(
        "crosscheck: wrote {} ({} campaign(s), {} finding(s), {} distinct bug(s))",
        out.display(),
        data.campaigns.len(),
        data.findings,
        data.all_bugs.len()
    );
    Ok(EXIT_OK)
}

fn load(dir: &Path) -> Result<Data> {
    let st = Store::open(dir)?;
    let mut campaigns = Vec::new();
    for row in st.campaigns()? {
        // A summary this crosscheck cannot read is shown as missing rather than failing the page.
        let summary = row.summary.as_deref().and_then(|s| serde_json::from_str::<Summary>(s).ok());
        let points = st.progress(row.id)?;
        campaigns.push(CampaignView { row, summary, points });
    }
    let all_bugs = st.bugs()?;
    let bugs = all_bugs
        .iter()
        .take(MAX_BUGS)
        .map(|b| {
            let fdir = st.finding_dir(&b.first_finding);
            let rec = store::load_finding(&fdir).ok();
            let mut names = store::reproducers_in(&fdir);
            let repro = if names.is_empty() {
                None
            } else {
                let name = names.remove(0);
                store::read_reproducer(&fdir, &name, MAX_REPRO_BYTES).map(|(t, cut)| (name, t, cut))
            };
            BugView { row: b.clone(), rec, repro, others: names }
        })
        .collect();
    Ok(Data {
        dir: dir.to_path_buf(),
        campaigns,
        bugs,
        all_bugs,
        counts: st.finding_counts()?,
        findings: st.finding_count()?,
    })
}

/// HTML-escapes text for element content and attribute values.
fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// At most `max` characters of `text`, saying so when cut.
fn capped(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}\n… (cut: {} more bytes)", &text[..i], text.len() - i),
        None => text.to_string(),
    }
}

const STYLE: &str = "
body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; margin: 0 auto; max-width: 1150px;
  padding: 1em 1.5em; color: #1d2330; background: #fbfbfd; }
h1 { margin-bottom: .2em; } h2 { border-bottom: 2px solid #d7dbe6; padding-bottom: .2em; margin-top: 1.6em; }
.sub { color: #5a6275; margin-top: 0; }
table { border-collapse: collapse; margin: .5em 0 1em; }
th, td { border: 1px solid #d7dbe6; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #eef0f6; font-weight: 600; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.kv th { width: 11em; }
.plots { display: flex; flex-wrap: wrap; gap: 12px; }
.plots svg { background: #fff; border: 1px solid #d7dbe6; border-radius: 4px; }
.counts { display: flex; flex-wrap: wrap; gap: 2em; }
section.bug { background: #fff; border: 1px solid #d7dbe6; border-left: 5px solid #c0392b; border-radius: 4px;
  padding: .4em 1em .8em; margin: 1em 0; }
section.bug h3 { margin: .4em 0; }
pre { background: #f3f4f8; border: 1px solid #e0e3ec; padding: .6em; overflow: auto; max-height: 32em;
  white-space: pre-wrap; word-break: break-word; font-size: 12.5px; }
.ea { display: grid; grid-template-columns: 1fr 1fr; gap: 1em; } .ea pre { max-height: 14em; }
.note { color: #8a5a00; } code { font-size: 95%; }
";

fn page(d: &Data) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>crosscheck report: {}</title><style>{STYLE}</style></head><body>\n",
        esc(&d.dir.display().to_string())
    );
    let _ = writeln!(
        h,
        "<h1>crosscheck report</h1><p class=\"sub\"><code>{}</code>: {} campaign(s), \
         <span id=\"total-findings\" data-n=\"{}\">{} finding(s)</span>, \
         <span id=\"total-distinct\" data-n=\"{}\">{} distinct bug(s)</span>; crosscheck {}</p>",
        esc(&d.dir.display().to_string()),
        d.campaigns.len(),
        d.findings,
        d.findings,
        d.all_bugs.len(),
        d.all_bugs.len(),
        env!("CARGO_PKG_VERSION")
    );
    for c in &d.campaigns {
        campaign_section(&mut h, c);
    }
    counts_section(&mut h, d);
    bugs_section(&mut h, d);
    h.push_str("</body></html>\n");
    h
}

fn campaign_section(h: &mut String, c: &CampaignView) {
    let r = &c.row;
    let _ =
        write!(h, "<section class=\"campaign\" id=\"campaign-{}\"><h2>Campaign {}: {}</h2>", r.id, r.id, esc(&r.kind));
    // A campaign killed before its end has no summary: its last progress point is the best count.
    let last = c.points.last().cloned().unwrap_or_default();
    let (status, elapsed, workers) = match &c.summary {
        Some(s) if s.interrupted => ("interrupted".to_string(), s.elapsed_sec, s.workers.to_string()),
        Some(s) => ("finished".to_string(), s.elapsed_sec, s.workers.to_string()),
        None => ("did not finish (no summary)".to_string(), last.elapsed_sec, "?".to_string()),
    };
    let p = c.summary.as_ref().map_or(last, Summary::point);
    let engines = match &c.summary {
        Some(s) if !s.engines.is_empty() => {
            s.engines.iter().map(|e| format!("{} {}", esc(&e.label), esc(&e.version))).collect::<Vec<_>>().join("<br>")
        }
        _ => "unknown".to_string(),
    };
    h.push_str("<table class=\"kv\">");
    let row = |h: &mut String, k: &str, key: &str, v: &str| {
        let _ = write!(h, "<tr><th>{k}</th><td data-key=\"{key}\">{v}</td></tr>");
    };
    row(h, "command line", "args", &format!("<code>{}</code>", esc(&r.args)));
    row(h, "seed", "seed", &r.seed.to_string());
    row(h, "engines", "engines", &engines);
    row(h, "started", "started", &utc_time(r.started_unix));
    row(h, "elapsed", "elapsed", &format!("{elapsed:.1} s, {workers} worker(s), {status}"));
    row(h, "tests", "tests", &p.tests.to_string());
    row(h, "tests/s", "tests_per_sec", &format!("{:.1}", p.tests_per_sec));
    row(h, "valid", "valid_pct", &format!("{:.1} %", p.valid_pct));
    row(h, "non-empty", "nonempty_pct", &format!("{:.1} %", p.nonempty_pct));
    row(h, "findings recorded", "findings_recorded", &p.findings.to_string());
    row(h, "distinct bugs", "distinct", &p.distinct.to_string());
    h.push_str("</table>");
    plots(h, &c.points);
    h.push_str("</section>\n");
}

fn plots(h: &mut String, points: &[ProgressPoint]) {
    if points.is_empty() {
        h.push_str("<p class=\"note\">No progress was recorded for this campaign (a crosscheck before reports).</p>");
        return;
    }
    let series = |f: fn(&ProgressPoint) -> f64| points.iter().map(|p| (p.elapsed_sec, f(p))).collect::<Vec<_>>();
    h.push_str("<div class=\"plots\">");
    h.push_str(&svg_plot("Throughput", "tests/s", None, &[("tests/s", "#2f6fdb", series(|p| p.tests_per_sec))]));
    h.push_str(&svg_plot(
        "Valid and non-empty",
        "%",
        Some(100.0),
        &[("valid %", "#1e9e5a", series(|p| p.valid_pct)), ("non-empty %", "#d98a00", series(|p| p.nonempty_pct))],
    ));
    h.push_str(&svg_plot(
        "Findings",
        "count",
        None,
        &[
            ("all findings", "#c0392b", series(|p| p.findings as f64)),
            ("distinct", "#7d3cb5", series(|p| p.distinct as f64)),
        ],
    ));
    h.push_str("</div>");
}

/// A readable number for an axis or a tooltip.
fn num(v: f64) -> String {
    if v.abs() >= 100.0 || v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

type Series<'a> = (&'a str, &'a str, Vec<(f64, f64)>);

/// A line plot over elapsed seconds, one polyline and one circle per point for each series.
fn svg_plot(title: &str, unit: &str, y_max: Option<f64>, series: &[Series]) -> String {
    const W: f64 = 360.0;
    const H: f64 = 220.0;
    let (left, right, top, bottom) = (52.0, 12.0, 40.0, 34.0);
    let all = series.iter().flat_map(|s| s.2.iter());
    let x_max = all.clone().map(|p| p.0).fold(0.0, f64::max).max(1.0);
    let y_top = y_max.unwrap_or_else(|| (all.map(|p| p.1).fold(0.0, f64::max) * 1.1).max(1.0));
    let x = |v: f64| left + v / x_max * (W - left - right);
    let y = |v: f64| H - bottom - v.clamp(0.0, y_top) / y_top * (H - top - bottom);
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg class=\"plot\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{W}\" height=\"{H}\" \
         viewBox=\"0 0 {W} {H}\" role=\"img\" aria-label=\"{t}\" font-size=\"11\" font-family=\"sans-serif\">\
         <text x=\"{left}\" y=\"15\" font-size=\"13\" font-weight=\"600\">{t}</text>",
        t = esc(title)
    );
    // The last x label ends at the plot's edge, so a long one is not clipped by the frame.
    for (i, anchor) in ["middle", "middle", "end"].iter().enumerate() {
        let f = i as f64 / 2.0;
        let (yv, xv) = (y_top * f, x_max * f);
        let _ = write!(
            s,
            "<line x1=\"{left}\" x2=\"{x2}\" y1=\"{yy:.1}\" y2=\"{yy:.1}\" stroke=\"#e3e6ee\"/>\
             <text x=\"{tx}\" y=\"{ty:.1}\" text-anchor=\"end\">{yl}</text>\
             <text x=\"{xx:.1}\" y=\"{xy}\" text-anchor=\"{anchor}\">{xl} s</text>",
            x2 = W - right,
            yy = y(yv),
            tx = left - 4.0,
            ty = y(yv) + 4.0,
            yl = num(yv),
            xx = if i == 2 { W - 2.0 } else { x(xv) },
            xy = H - bottom + 14.0,
            xl = num(xv)
        );
    }
    let _ = write!(
        s,
        "<text x=\"12\" y=\"{my}\" transform=\"rotate(-90 12 {my})\" text-anchor=\"middle\">{u}</text>",
        my = (top + H - bottom) / 2.0,
        u = esc(unit)
    );
    let mut lx = left;
    for (name, color, pts) in series {
        let _ = write!(
            s,
            "<rect x=\"{lx}\" y=\"22\" width=\"10\" height=\"10\" fill=\"{color}\"/>\
             <text x=\"{tx}\" y=\"31\">{n}</text>",
            tx = lx + 14.0,
            n = esc(name)
        );
        lx += 24.0 + 6.5 * name.len() as f64;
        let line: Vec<String> = pts.iter().map(|&(a, b)| format!("{:.1},{:.1}", x(a), y(b))).collect();
        let _ = write!(
            s,
            "<polyline class=\"series\" data-series=\"{n}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"2\" \
             points=\"{}\"/>",
            line.join(" "),
            n = esc(name)
        );
        for &(a, b) in pts {
            let _ = write!(
                s,
                "<circle class=\"pt\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"{color}\">\
                 <title>{} s: {} {}</title></circle>",
                x(a),
                y(b),
                num(a),
                num(b),
                esc(name)
            );
        }
    }
    s.push_str("</svg>");
    s
}

fn counts_section(h: &mut String, d: &Data) {
    h.push_str("<section id=\"counts\"><h2>Counts per oracle and engine</h2><div class=\"counts\">");
    let mut by_oracle: BTreeMap<&str, (i64, i64)> = BTreeMap::new();
    let mut by_engine: BTreeMap<&str, (i64, i64)> = BTreeMap::new();
    for c in &d.counts {
        by_oracle.entry(&c.oracle).or_default().0 += c.count;
        by_engine.entry(&c.engine).or_default().0 += c.count;
    }
    for b in &d.all_bugs {
        by_oracle.entry(&b.oracle).or_default().1 += 1;
        by_engine.entry(&b.engine).or_default().1 += 1;
    }
    for (title, id, map) in [("oracle", "by-oracle", &by_oracle), ("engine", "by-engine", &by_engine)] {
        let _ = write!(h, "<table id=\"{id}\"><tr><th>{title}</th><th>findings</th><th>distinct bugs</th></tr>");
        if map.is_empty() {
            h.push_str("<tr><td colspan=\"3\">no findings</td></tr>");
        }
        for (k, (n, bugs)) in map.iter() {
            let _ = write!(h, "<tr><td>{}</td><td class=\"n\">{n}</td><td class=\"n\">{bugs}</td></tr>", esc(k));
        }
        h.push_str("</table>");
    }
    h.push_str("</div></section>\n");
}

fn bugs_section(h: &mut String, d: &Data) {
    let _ = write!(h, "<section id=\"bugs\"><h2>Distinct bugs ({})</h2>", d.all_bugs.len());
    if d.all_bugs.is_empty() {
        h.push_str("<p id=\"no-bugs\">No findings: every check passed.</p>");
    }
    if d.all_bugs.len() > d.bugs.len() {
        let _ = write!(
            h,
            "<p class=\"note\">The {} most frequent of {} distinct bugs are shown; \
             <code>crosscheck findings {}</code> lists them all.</p>",
            d.bugs.len(),
            d.all_bugs.len(),
            esc(&d.dir.display().to_string())
        );
    }
    for b in &d.bugs {
        bug_section(h, d, b);
    }
    h.push_str("</section>\n");
}

fn bug_section(h: &mut String, d: &Data, b: &BugView) {
    let r = &b.row;
    let _ = write!(
        h,
        "<section class=\"bug\" id=\"bug-{}\" data-count=\"{}\"><h3>Bug #{}: {} &middot; {} &middot; {} finding(s)</h3>\
         <p class=\"summary\">{}</p><table class=\"kv\">",
        r.id,
        r.count,
        r.id,
        esc(&r.class),
        esc(&r.oracle),
        r.count,
        esc(&r.summary)
    );
    let engines = match &b.rec {
        Some(rec) => rec.engines.iter().map(|e| format!("{} {}", e.label, e.version)).collect::<Vec<_>>().join(", "),
        None => r.engine.clone(),
    };
    let fdir = store::finding_dir(&d.dir, &r.first_finding);
    let _ = write!(
        h,
        "<tr><th>class</th><td>{}</td></tr><tr><th>oracle</th><td>{}</td></tr>\
         <tr><th>engines</th><td>{}</td></tr><tr><th>first finding</th><td><code>{}</code></td></tr>\
         <tr><th>signature</th><td><code>{}</code></td></tr></table>",
        esc(&r.class),
        esc(&r.oracle),
        esc(&engines),
        esc(&fdir.display().to_string()),
        esc(&r.signature)
    );
    if let Some(rec) = &b.rec {
        let (_, ev) = rec.best_case();
        let _ = write!(
            h,
            "<div class=\"ea\"><div><b>expected</b><pre class=\"expected\">{}</pre></div>\
             <div><b>actual</b><pre class=\"actual\">{}</pre></div></div>",
            esc(&capped(&ev.expected, MAX_RESULT_CHARS)),
            esc(&capped(&ev.actual, MAX_RESULT_CHARS))
        );
    } else {
        h.push_str("<p class=\"note\">finding.json could not be read: expected and actual are not shown.</p>");
    }
    match &b.repro {
        Some((name, text, cut)) => {
            let _ = write!(
                h,
                "<p><b>{}</b> ({})</p><pre class=\"repro\">{}</pre>",
                esc(name),
                if name.starts_with("reduced") { "reduced" } else { "not reduced" },
                esc(text)
            );
            if *cut {
                let _ = write!(
                    h,
                    "<p class=\"note\">Cut at {} KiB: the whole file is {}.</p>",
                    MAX_REPRO_BYTES / 1024,
                    esc(&fdir.join(name).display().to_string())
                );
            }
        }
        None => h.push_str("<p class=\"note\">No reproducer file.</p>"),
    }
    if !b.others.is_empty() {
        let _ = write!(h, "<p>Other reproducers: <code>{}</code></p>", esc(&b.others.join(" ")));
    }
    h.push_str("</section>\n");
}

/// `YYYY-MM-DD HH:MM:SS UTC` without a date crate (days to civil date, after H. Hinnant).
fn utc_time(unix: u64) -> String {
    let (days, secs) = ((unix / 86_400) as i64, unix % 86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC", secs / 3600, secs % 3600 / 60, secs % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_caps() {
        assert_eq!(esc("<a href='x'>&\"</a>"), "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;");
        assert_eq!(capped("abc", 5), "abc");
        assert!(capped("abcdef", 3).starts_with("abc\n… (cut: 3 more bytes)"));
        assert_eq!(capped("ééé", 2), "éé\n… (cut: 2 more bytes)");
    }

    #[test]
    fn dates_are_utc_civil_dates() {
        assert_eq!(utc_time(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc_time(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(utc_time(1_795_999_999), "2026-11-30 00:53:19 UTC");
    }

    #[test]
    fn a_plot_has_one_circle_per_point() {
        let svg = svg_plot("T", "u", None, &[("a", "#000", vec![(0.0, 1.0), (5.0, 3.0)]), ("b<", "#111", vec![])]);
        assert_eq!(svg.matches("<circle").count(), 2);
        assert!(svg.contains("b&lt;") && svg.starts_with("<svg") && svg.ends_with("</svg>"));
    }
}
