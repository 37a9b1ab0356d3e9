//! Durations as users write them: `60s`, `10m`, `1h`, `500ms`, or plain seconds.

use std::time::Duration;

pub fn parse(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let bad = || format!("bad duration \"{text}\" (write e.g. 90s, 10m, 1h, 500ms)");
    let n: f64 = num.parse().map_err(|_| bad())?;
    let secs = match unit {
        "" | "s" | "sec" => n,
        "ms" => n / 1000.0,
        "m" | "min" => n * 60.0,
        "h" => n * 3600.0,
        _ => return Err(bad()),
    };
    if !secs.is_finite() || secs <= 0.0 || secs > 1e9 {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_units_and_rejects_garbage() {
        assert_eq!(parse("60s"), Ok(Duration::from_secs(60)));
        assert_eq!(parse("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse("5"), Ok(Duration::from_secs(5)));
        for bad in ["", "s", "10x", "-5s", "0s", "1e3s", "abc"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
