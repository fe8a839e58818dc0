//! `Timespan` and `Timestamp` values: nanosecond precision, Puppet's format
//! directives and default formats; [`strptime`] parses timestamps by format.

pub mod strptime;

use std::fmt;

const NS_PER_USEC: i128 = 1_000;
const NS_PER_MSEC: i128 = 1_000_000;
/// Field widths in format directives are capped so hostile formats cannot
/// allocate unbounded memory.
const MAX_WIDTH: usize = 1024;
/// Nanoseconds per second.
pub const NS_PER_SEC: i128 = 1_000_000_000;
const NS_PER_MIN: i128 = NS_PER_SEC * 60;
const NS_PER_HOUR: i128 = NS_PER_MIN * 60;
const NS_PER_DAY: i128 = NS_PER_HOUR * 24;

/// A duration in nanoseconds (`Timespan` value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timespan {
    /// Signed nanoseconds.
    pub nanos: i128,
}

/// A point in time, nanoseconds since the Unix epoch, UTC (`Timestamp` value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp {
    /// Signed nanoseconds since 1970-01-01T00:00:00 UTC.
    pub nanos: i128,
}

/// Converts seconds given as a float to nanoseconds the way Ruby's
/// `(f * NSECS_PER_SEC).to_i` does (truncating).
pub fn float_secs_to_nanos(f: f64) -> Option<i128> {
    let n = f * 1e9;
    if !n.is_finite() || n.abs() > 1e36 {
        return None;
    }
    Some(n.trunc() as i128)
}

impl Timespan {
    /// From whole seconds.
    pub fn from_secs(s: i64) -> Timespan {
        Timespan {
            nanos: s as i128 * NS_PER_SEC,
        }
    }

    /// From fields, as `Timespan.new(d, h, m, s, ms, us, ns)`.
    #[allow(clippy::too_many_arguments)]
    pub fn from_fields(
        negative: bool,
        d: i64,
        h: i64,
        m: i64,
        s: i64,
        ms: i64,
        us: i64,
        ns: i64,
    ) -> Timespan {
        let t = ((((((d as i128 * 24 + h as i128) * 60 + m as i128) * 60 + s as i128) * 1000
            + ms as i128)
            * 1000
            + us as i128)
            * 1000)
            + ns as i128;
        Timespan {
            nanos: if negative { -t } else { t },
        }
    }

    /// Seconds as a float (`to_f`).
    pub fn to_f64(self) -> f64 {
        self.nanos as f64 / 1e9
    }

    /// Whole seconds, truncated toward negative infinity like Ruby integer division.
    pub fn to_secs(self) -> i128 {
        self.nanos.div_euclid(NS_PER_SEC)
    }

    /// Formats with a Puppet timespan format (`%D-%H:%M:%S.%-N`...).
    pub fn format(self, format: &str) -> Result<String, String> {
        Ok(TimespanFormat::parse(format)?.format(self))
    }

    /// Parses with one format.
    pub fn parse_with(s: &str, format: &str) -> Result<Timespan, String> {
        TimespanFormat::parse(format)?.parse_value(s)
    }

    /// Parses with the default formats, in order.
    pub fn parse(s: &str) -> Result<Timespan, String> {
        Timespan::parse_any(s, &TIMESPAN_DEFAULT_FORMATS)
    }

    /// Parses with the first of `formats` that matches; a malformed format
    /// is an error even when an earlier one would match.
    pub fn parse_any(s: &str, formats: &[&str]) -> Result<Timespan, String> {
        let parsed = formats
            .iter()
            .map(|f| TimespanFormat::parse(f))
            .collect::<Result<Vec<_>, _>>()?;
        if let Some(t) = parsed.iter().find_map(|f| f.parse_value(s).ok()) {
            return Ok(t);
        }
        Err(format!(
            "Unable to parse '{}' using any of the formats {}",
            s,
            formats.join(", ")
        ))
    }
}

impl fmt::Display for Timespan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.format(TIMESPAN_DEFAULT_FORMATS[0]) {
            Ok(s) => f.write_str(&s),
            Err(_) => Err(fmt::Error),
        }
    }
}

/// Puppet's default timespan formats, tried in order when parsing.
pub const TIMESPAN_DEFAULT_FORMATS: [&str; 8] = [
    "%D-%H:%M:%S.%-N",
    "%H:%M:%S.%-N",
    "%M:%S.%-N",
    "%S.%-N",
    "%D-%H:%M:%S",
    "%H:%M:%S",
    "%D-%H:%M",
    "%S",
];

#[derive(Clone, Copy, Debug, PartialEq)]
enum SegKind {
    Day,
    Hour,
    Minute,
    Second,
    Milli,
    Nano,
}

#[derive(Clone, Debug)]
enum Segment {
    Literal(String),
    Value {
        kind: SegKind,
        pad: Option<char>,
        width: Option<usize>,
        use_total: bool,
    },
}

struct TimespanFormat {
    source: String,
    segments: Vec<Segment>,
}

impl SegKind {
    fn default_width(self) -> usize {
        match self {
            SegKind::Day => 1,
            SegKind::Milli => 3,
            SegKind::Nano => 9,
            _ => 2,
        }
    }
    fn rank(self) -> u8 {
        match self {
            SegKind::Nano => 0,
            SegKind::Milli => 1,
            SegKind::Second => 2,
            SegKind::Minute => 3,
            SegKind::Hour => 4,
            SegKind::Day => 5,
        }
    }
}

impl TimespanFormat {
    fn parse(fmt_str: &str) -> Result<TimespanFormat, String> {
        let bad = |start: usize, pos: usize| {
            let chars: Vec<char> = fmt_str.chars().collect();
            let expr: String = chars[start..pos.min(chars.len())].iter().collect();
            format!(
                "Bad format specifier '{}' in '{}', at position {}",
                expr, fmt_str, pos
            )
        };
        let mut segs: Vec<Segment> = Vec::new();
        let mut in_spec = false;
        let mut state_pad = true;
        let mut pad = Some('0');
        let mut width: Option<usize> = None;
        let mut fstart = 0;
        let mut highest: Option<SegKind> = None;
        let mut pos = 0;
        for (i, c) in fmt_str.chars().enumerate() {
            pos = i;
            if !in_spec {
                if c == '%' {
                    in_spec = true;
                    state_pad = true;
                    fstart = i;
                    pad = Some('0');
                    width = None;
                } else if let Some(Segment::Literal(l)) = segs.last_mut() {
                    l.push(c);
                } else {
                    segs.push(Segment::Literal(c.to_string()));
                }
                continue;
            }
            let kind = match c {
                '%' => {
                    if let Some(Segment::Literal(l)) = segs.last_mut() {
                        l.push('%');
                    } else {
                        segs.push(Segment::Literal("%".into()));
                    }
                    in_spec = false;
                    continue;
                }
                '-' | '_' => {
                    if !state_pad {
                        return Err(bad(fstart, i));
                    }
                    pad = if c == '-' { None } else { Some(' ') };
                    state_pad = false;
                    continue;
                }
                'D' => SegKind::Day,
                'H' => SegKind::Hour,
                'M' => SegKind::Minute,
                'S' => SegKind::Second,
                'L' => SegKind::Milli,
                'N' => SegKind::Nano,
                d if d.is_ascii_digit() => {
                    if state_pad && d == '0' {
                        pad = Some('0');
                    } else {
                        let n = d as usize - '0' as usize;
                        width = Some(
                            width
                                .unwrap_or(0)
                                .saturating_mul(10)
                                .saturating_add(n)
                                .min(MAX_WIDTH),
                        );
                    }
                    state_pad = false;
                    continue;
                }
                _ => return Err(bad(fstart, i)),
            };
            if highest.is_none_or(|h| kind.rank() > h.rank()) {
                highest = Some(kind);
            }
            segs.push(Segment::Value {
                kind,
                pad,
                width,
                use_total: false,
            });
            in_spec = false;
        }
        if in_spec {
            return Err(bad(fstart, pos));
        }
        if let Some(h) = highest {
            for s in segs.iter_mut() {
                if let Segment::Value {
                    kind, use_total, ..
                } = s
                {
                    if *kind == h {
                        *use_total = true;
                        break;
                    }
                }
            }
        }
        Ok(TimespanFormat {
            source: fmt_str.to_string(),
            segments: segs,
        })
    }

    fn format(&self, ts: Timespan) -> String {
        let total = ts.nanos.abs();
        let mut out = String::new();
        if ts.nanos < 0 {
            out.push('-');
        }
        for seg in &self.segments {
            match seg {
                Segment::Literal(l) => out.push_str(l),
                Segment::Value {
                    kind,
                    pad,
                    width,
                    use_total,
                } => {
                    let w = width.unwrap_or(kind.default_width());
                    let n: i128 = match kind {
                        SegKind::Day => total / NS_PER_DAY,
                        SegKind::Hour => unit_count(total, NS_PER_HOUR, 24, *use_total),
                        SegKind::Minute => unit_count(total, NS_PER_MIN, 60, *use_total),
                        SegKind::Second => unit_count(total, NS_PER_SEC, 60, *use_total),
                        SegKind::Milli => unit_count(total, NS_PER_MSEC, 1000, *use_total),
                        SegKind::Nano => {
                            let mut ns = total;
                            if w < 9 {
                                ns /= 10i128.pow((9 - w) as u32);
                                if !*use_total {
                                    ns %= 10i128.pow(w as u32);
                                }
                            } else if !*use_total {
                                ns %= NS_PER_SEC;
                            }
                            ns
                        }
                    };
                    let fragment = matches!(kind, SegKind::Milli | SegKind::Nano);
                    let mut n = n;
                    if fragment && !*use_total && *pad != Some('0') {
                        // strip trailing zeros (keeping at least one digit)
                        while n != 0 && n % 10 == 0 {
                            n /= 10;
                        }
                    }
                    let digits = n.to_string();
                    if fragment {
                        match pad {
                            None => out.push_str(&digits),
                            Some(_) => {
                                // left-justified in the width ("%-3d")
                                out.push_str(&format!("{:<w$}", digits, w = w));
                            }
                        }
                    } else {
                        match pad {
                            None => out.push_str(&digits),
                            Some(' ') => out.push_str(&format!("{:>w$}", digits, w = w)),
                            Some(_) => out.push_str(&format!("{:0>w$}", digits, w = w)),
                        }
                    }
                }
            }
        }
        out
    }

    fn parse_value(&self, input: &str) -> Result<Timespan, String> {
        let err = || format!("Unable to parse '{}' using format '{}'", input, self.source);
        let negative = input.starts_with('-');
        let mut rest = if negative { &input[1..] } else { input };
        let mut nanos: i128 = 0;
        for (idx, seg) in self.segments.iter().enumerate() {
            match seg {
                Segment::Literal(l) => {
                    rest = rest.strip_prefix(l.as_str()).ok_or_else(err)?;
                }
                Segment::Value {
                    kind,
                    pad,
                    width,
                    use_total,
                } => {
                    // Collect the digits this segment may take.
                    let max = match width {
                        Some(w) => *w,
                        None if *use_total => usize::MAX,
                        None => kind.default_width(),
                    };
                    // an explicit width with padding takes exactly that many
                    let exact = width.is_some() && pad.is_some();
                    let allow_space = *pad == Some(' ');
                    let mut taken = 0;
                    for b in rest.bytes() {
                        if taken >= max {
                            break;
                        }
                        if b.is_ascii_digit() || (allow_space && b == b' ') {
                            taken += 1;
                        } else {
                            break;
                        }
                    }
                    // A following value segment without literal in between would need
                    // backtracking; the default formats never do that.
                    let _ = idx;
                    if taken == 0 || (exact && taken != max) {
                        return Err(err());
                    }
                    let group = rest[..taken].trim_start();
                    rest = &rest[taken..];
                    if group.is_empty() || !group.bytes().all(|b| b.is_ascii_digit()) {
                        return Err(err());
                    }
                    let n: i128 = group.parse().map_err(|_| err())?;
                    let add = match kind {
                        SegKind::Day => n.checked_mul(NS_PER_DAY),
                        SegKind::Hour => n.checked_mul(NS_PER_HOUR),
                        SegKind::Minute => n.checked_mul(NS_PER_MIN),
                        SegKind::Second => n.checked_mul(NS_PER_SEC),
                        SegKind::Milli | SegKind::Nano => {
                            if *use_total {
                                return Err(
                                    "Format specifiers %L and %N denotes fractions and must be used together with a specifier of higher magnitude".into(),
                                );
                            }
                            let p = 9 - group.len() as i64;
                            if p <= 0 {
                                Some(n)
                            } else {
                                n.checked_mul(10i128.pow(p as u32))
                            }
                        }
                    };
                    nanos = nanos.checked_add(add.ok_or_else(err)?).ok_or_else(err)?;
                }
            }
        }
        if !rest.is_empty() {
            return Err(err());
        }
        let _ = NS_PER_USEC;
        Ok(Timespan {
            nanos: if negative { -nanos } else { nanos },
        })
    }
}

impl Timestamp {
    /// From seconds since the epoch.
    pub fn from_secs(s: i64) -> Timestamp {
        Timestamp {
            nanos: s as i128 * NS_PER_SEC,
        }
    }

    /// Seconds as a float.
    pub fn to_f64(self) -> f64 {
        self.nanos as f64 / 1e9
    }

    /// Whole seconds since the epoch (floor).
    pub fn to_secs(self) -> i128 {
        self.nanos.div_euclid(NS_PER_SEC)
    }

    fn to_chrono(self) -> Option<chrono::DateTime<chrono::Utc>> {
        let secs = i64::try_from(self.nanos.div_euclid(NS_PER_SEC)).ok()?;
        let sub = self.nanos.rem_euclid(NS_PER_SEC) as u32;
        chrono::DateTime::from_timestamp(secs, sub)
    }

    /// Formats with strftime-like directives in UTC (the subset Puppet's
    /// `strftime` supports that chrono can express).
    pub fn format(self, format: &str) -> Result<String, String> {
        self.format_at(format, 0, "UTC")
    }

    /// Formats in the time zone `tz` (an offset or abbreviation as
    /// [`zone_offset`] reads it). As in Ruby, a time moved to an explicit
    /// offset has no zone name, so `%Z` prints nothing.
    pub fn format_in_zone(self, format: &str, tz: &str) -> Result<String, String> {
        if tz.is_empty() {
            return self.format(format);
        }
        let offset = zone_offset(tz).ok_or_else(|| format!("Illegal timezone '{}'", tz))?;
        self.format_at(format, offset, "")
    }

    fn format_at(self, format: &str, offset: i64, zone_name: &str) -> Result<String, String> {
        use chrono::{Datelike, Timelike};
        let local = Timestamp {
            nanos: self.nanos + offset as i128 * NS_PER_SEC,
        };
        let dt = local
            .to_chrono()
            .ok_or_else(|| "Timestamp out of range".to_string())?;
        let mut out = String::new();
        let mut chars = format.chars().peekable();
        while let Some(c) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            // flags, width and colons, in any order (a leading 0 is a flag)
            let mut flags = String::new();
            let mut width = String::new();
            while let Some(&f) = chars.peek() {
                if f.is_ascii_digit() && !(f == '0' && width.is_empty()) {
                    width.push(f);
                } else if "-_0^#:".contains(f) {
                    flags.push(f);
                } else {
                    break;
                }
                chars.next();
            }
            let w: Option<usize> = width.parse().ok().map(|w: usize| w.min(MAX_WIDTH));
            let num = |n: i64, def: usize, padc: char| -> String {
                let w = w.unwrap_or(def);
                if flags.contains('-') {
                    n.to_string()
                } else if flags.contains('_') || padc == ' ' && !flags.contains('0') {
                    format!("{:>w$}", n, w = w)
                } else {
                    format!("{:0>w$}", n, w = w)
                }
            };
            let Some(mut d) = chars.next() else {
                out.push('%');
                break;
            };
            // the `E` and `O` modifiers change nothing before these
            let modified = match d {
                'E' => "cCxXyY",
                'O' => "deHImMSuUVwWy",
                _ => "",
            };
            if let Some(&next) = chars.peek().filter(|c| modified.contains(**c)) {
                chars.next();
                d = next;
            }
            let s = match d {
                // colons belong to `%z` alone
                other if other != 'z' && flags.contains(':') => {
                    out.push_str(&format!("%{}{}{}", flags, width, other));
                    continue;
                }
                'Y' => num(dt.year() as i64, 4, '0'),
                'C' => num((dt.year() as i64).div_euclid(100), 2, '0'),
                'y' => num((dt.year() as i64).rem_euclid(100), 2, '0'),
                'm' => num(dt.month() as i64, 2, '0'),
                'd' => num(dt.day() as i64, 2, '0'),
                'e' => num(dt.day() as i64, 2, ' '),
                'j' => num(dt.ordinal() as i64, 3, '0'),
                'H' => num(dt.hour() as i64, 2, '0'),
                'k' => num(dt.hour() as i64, 2, ' '),
                'I' => num(((dt.hour() + 11) % 12 + 1) as i64, 2, '0'),
                'l' => num(((dt.hour() + 11) % 12 + 1) as i64, 2, ' '),
                'M' => num(dt.minute() as i64, 2, '0'),
                'S' => num(dt.second() as i64, 2, '0'),
                'L' => {
                    let w = w.unwrap_or(3);
                    let ns = format!("{:09}", dt.nanosecond() % 1_000_000_000);
                    let mut s: String = ns.chars().take(w).collect();
                    while s.len() < w {
                        s.push('0');
                    }
                    s
                }
                'N' => {
                    let w = w.unwrap_or(9);
                    let ns = format!("{:09}", dt.nanosecond() % 1_000_000_000);
                    let mut s: String = ns.chars().take(w).collect();
                    while s.len() < w {
                        s.push('0');
                    }
                    s
                }
                'P' | 'p' => if dt.hour() < 12 { "AM" } else { "PM" }.to_string(),
                'z' => ruby_offset(offset, zone_name == "UTC", &flags, w),
                'Z' => zone_name.to_string(),
                'A' => dt.format("%A").to_string(),
                'a' => dt.format("%a").to_string(),
                'B' => dt.format("%B").to_string(),
                'b' | 'h' => dt.format("%b").to_string(),
                'u' => num(dt.weekday().number_from_monday() as i64, 1, '0'),
                'w' => num(dt.weekday().num_days_from_sunday() as i64, 1, '0'),
                'G' => num(dt.iso_week().year() as i64, 4, '0'),
                'g' => num((dt.iso_week().year() as i64).rem_euclid(100), 2, '0'),
                'V' => num(dt.iso_week().week() as i64, 2, '0'),
                'U' => num(dt.format("%U").to_string().parse().unwrap_or(0), 2, '0'),
                'W' => num(dt.format("%W").to_string().parse().unwrap_or(0), 2, '0'),
                's' => match i64::try_from(self.to_secs()) {
                    Ok(secs) => num(secs, 1, '0'),
                    Err(_) => self.to_secs().to_string(),
                },
                'n' => "\n".to_string(),
                't' => "\t".to_string(),
                '%' => "%".to_string(),
                'c' => dt.format("%a %b %e %H:%M:%S %Y").to_string(),
                'D' | 'x' => dt.format("%m/%d/%y").to_string(),
                // a width pads the whole date, as for other composites
                'F' => format!(
                    "{}-{:02}-{:02}",
                    match dt.year() {
                        y if y < 0 => format!("-{:04}", -y),
                        y => format!("{y:04}"),
                    },
                    dt.month(),
                    dt.day()
                ),
                'v' => format!(
                    "{:>2}-{}-{:04}",
                    dt.day(),
                    dt.format("%b").to_string().to_uppercase(),
                    dt.year()
                ),
                'X' | 'T' => format!("{:02}:{:02}:{:02}", dt.hour(), dt.minute(), dt.second()),
                'r' => dt.format("%I:%M:%S %p").to_string(),
                'R' => format!("{:02}:{:02}", dt.hour(), dt.minute()),
                other => {
                    out.push_str(&format!("%{}{}{}", flags, width, other));
                    continue;
                }
            };
            let s = match text_case(d, &flags) {
                Some(true) => s.to_uppercase(),
                Some(false) => s.to_lowercase(),
                None => s,
            };
            // text is padded to the width, numbers were already
            let numeric = "YCymdejHkIlMSLNuwGgVUWsz".contains(d);
            match w {
                Some(w) if !numeric && !flags.contains('-') => {
                    let fill = if flags.contains('0') { '0' } else { ' ' };
                    let n = s.chars().count();
                    out.extend(std::iter::repeat_n(fill, w.saturating_sub(n)));
                    out.push_str(&s);
                }
                _ => out.push_str(&s),
            }
        }
        Ok(out)
    }

    /// Parses with Puppet's default formats (`%FT%T.%N %Z`, `%F %T`, `%F`, ...).
    pub fn parse(s: &str) -> Result<Timestamp, String> {
        strptime::parse_timestamp(s, &TIMESTAMP_DEFAULT_FORMATS, None)
    }
}

/// The case Ruby's `strftime` gives conversion `d` under `flags`: `Some(true)`
/// upper, `Some(false)` lower. `^` upcases; `#` swaps the natural case: upper
/// for names, lower for `%p` and `%Z`; `%P` is `%p` in lower case.
fn text_case(d: char, flags: &str) -> Option<bool> {
    let (upper, swap) = (flags.contains('^'), flags.contains('#'));
    match d {
        'p' if swap => Some(false),
        'P' if !swap && !upper => Some(false),
        'Z' if swap => Some(false),
        'A' | 'a' | 'B' | 'b' | 'h' if swap => Some(true),
        _ if upper => Some(true),
        _ => None,
    }
}

/// `%z` as Ruby's `strftime` prints it, honouring the colons, the padding
/// flags (`-` gives UTC as `-0000`, `_` pads the hours with spaces) and the
/// width.
fn ruby_offset(offset: i64, gmt: bool, flags: &str, width: Option<usize>) -> String {
    let colons = flags.matches(':').count();
    let negative = offset < 0 || (gmt && flags.contains('-'));
    let a = offset.abs();
    let (h, m, sec) = (a / 3600, a / 60 % 60, a % 60);
    // the hour digits: two, or the width less the sign and what follows
    let tail = match colons {
        0 => 2,
        1 => 3,
        2 => 6,
        _ if sec != 0 => 6,
        _ if m != 0 => 3,
        _ => 0,
    };
    let digits = width
        .filter(|&w| w > tail + 3)
        .map_or(2, |w| w - 1 - tail)
        .min(MAX_WIDTH);
    let sign = if negative { '-' } else { '+' };
    let hours = if flags.contains('_') {
        format!("{:>w$}", format!("{sign}{h}"), w = digits + 1)
    } else {
        format!("{sign}{h:0>digits$}")
    };
    match colons {
        0 => format!("{hours}{m:02}"),
        1 => format!("{hours}:{m:02}"),
        2 => format!("{hours}:{m:02}:{sec:02}"),
        _ if sec != 0 => format!("{hours}:{m:02}:{sec:02}"),
        _ if m != 0 => format!("{hours}:{m:02}"),
        _ => hours,
    }
}

/// Puppet's default timestamp formats.
pub const TIMESTAMP_DEFAULT_FORMATS: [&str; 10] = [
    "%FT%T.%N %Z",
    "%FT%T %Z",
    "%F %T.%N %Z",
    "%F %T %Z",
    "%F %Z",
    "%FT%T.%N",
    "%FT%T",
    "%F %T.%N",
    "%F %T",
    "%F",
];

/// Zone abbreviations Ruby's `Date._strptime('%z')` knows, with their UTC
/// offsets in hours (the common subset; military letters are handled apart).
const ZONE_ABBREVIATIONS: &[(&str, f64)] = &[
    ("utc", 0.0),
    ("ut", 0.0),
    ("gmt", 0.0),
    ("z", 0.0),
    ("est", -5.0),
    ("edt", -4.0),
    ("cst", -6.0),
    ("cdt", -5.0),
    ("mst", -7.0),
    ("mdt", -6.0),
    ("pst", -8.0),
    ("pdt", -7.0),
    ("akst", -9.0),
    ("akdt", -8.0),
    ("hst", -10.0),
    ("hast", -10.0),
    ("hadt", -9.0),
    ("ast", -4.0),
    ("adt", -3.0),
    ("nst", -3.5),
    ("ndt", -2.5),
    ("wet", 0.0),
    ("west", 1.0),
    ("bst", 1.0),
    ("cet", 1.0),
    ("cest", 2.0),
    ("met", 1.0),
    ("mest", 2.0),
    ("eet", 2.0),
    ("eest", 3.0),
    ("msk", 3.0),
    ("sast", 2.0),
    ("ist", 5.5),
    ("jst", 9.0),
    ("kst", 9.0),
    ("hkt", 8.0),
    ("sgt", 8.0),
    ("awst", 8.0),
    ("acst", 9.5),
    ("aest", 10.0),
    ("aedt", 11.0),
    ("nzst", 12.0),
    ("nzdt", 13.0),
];

/// A zone's offset from UTC in seconds, as Ruby's `Date._strptime(tz, '%z')`
/// computes it: `[+-]h`, `[+-]hh`, `[+-]hhmm[ss]`, `[+-]h:m[:s]`, an optional
/// `GMT`/`UTC` prefix before a signed offset, a known abbreviation or a
/// military letter.
pub fn zone_offset(z: &str) -> Option<i64> {
    let lower = z.trim().to_ascii_lowercase();
    if let Some(&(_, h)) = ZONE_ABBREVIATIONS.iter().find(|(n, _)| *n == lower) {
        return Some((h * 3600.0) as i64);
    }
    if lower.len() == 1 {
        let c = lower.as_bytes()[0];
        return match c {
            b'a'..=b'i' => Some((c - b'a' + 1) as i64 * 3600),
            b'k'..=b'm' => Some((c - b'a') as i64 * 3600),
            b'n'..=b'y' => Some(-((c - b'n' + 1) as i64) * 3600),
            _ => None,
        };
    }
    let rest = lower
        .strip_prefix("gmt")
        .or_else(|| lower.strip_prefix("utc"))
        .unwrap_or(&lower);
    let (sign, r) = match rest.as_bytes().first()? {
        b'+' => (1, &rest[1..]),
        b'-' => (-1, &rest[1..]),
        _ => return None,
    };
    if r.is_empty() || !r.bytes().all(|b| b.is_ascii_digit() || b == b':') {
        return None;
    }
    let num = |t: &str| -> Option<i64> {
        if t.is_empty() {
            Some(0)
        } else {
            t.parse().ok()
        }
    };
    let (h, m, sec) = if r.contains(':') {
        let mut parts = r.split(':');
        let h = num(parts.next()?)?;
        let m = num(parts.next().unwrap_or(""))?;
        let sec = num(parts.next().unwrap_or(""))?;
        if parts.next().is_some() {
            return None;
        }
        (h, m, sec)
    } else {
        // an odd digit count has a one-digit hour
        let hl = if r.len() % 2 == 1 { 1 } else { 2 }.min(r.len());
        let h = num(&r[..hl])?;
        let m = num(r.get(hl..(hl + 2).min(r.len())).unwrap_or(""))?;
        let sec = num(r
            .get((hl + 2).min(r.len())..(hl + 4).min(r.len()))
            .unwrap_or(""))?;
        (h, m, sec)
    };
    Some(sign * (h * 3600 + m * 60 + sec))
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Ok(s) = self.format("%FT%T.%N %Z") {
            return f.write_str(&s);
        }
        // beyond chrono's years, as Ruby prints them
        let secs = self.nanos.div_euclid(NS_PER_SEC);
        let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
        let sod = secs.rem_euclid(86_400);
        write!(
            f,
            "{y}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:09} UTC",
            sod / 3600,
            sod / 60 % 60,
            sod % 60,
            self.nanos.rem_euclid(NS_PER_SEC)
        )
    }
}

/// The proleptic Gregorian date of a day count from 1970-01-01 (Howard
/// Hinnant's `civil_from_days`), for any year.
fn civil_from_days(days: i128) -> (i128, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i128::from(m <= 2);
    (y, m, d)
}

/// A segment's count of `unit`s in `total` nanoseconds: all of them for the
/// leading segment of a format (`use_total`), else what is left within the
/// next larger unit (`per` of them make one).
fn unit_count(total: i128, unit: i128, per: i128, use_total: bool) -> i128 {
    if use_total {
        total / unit
    } else {
        (total / unit) % per
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timespan_default_format() {
        assert_eq!(
            Timespan {
                nanos: 13_500_000_000
            }
            .to_string(),
            "0-00:00:13.5"
        );
        assert_eq!(
            Timespan::from_fields(false, 4, 0, 0, 0, 0, 0, 0).to_string(),
            "4-00:00:00.0"
        );
        assert_eq!(
            Timespan {
                nanos: -120 * NS_PER_SEC
            }
            .to_string(),
            "-0-00:02:00.0"
        );
        assert_eq!(
            Timespan {
                nanos: 3600 * NS_PER_SEC + 1
            }
            .to_string(),
            "0-01:00:00.1"
        );
        assert_eq!(
            Timespan {
                nanos: 514_285_714_285
            }
            .to_string(),
            "0-00:08:34.285714285"
        );
        assert_eq!(
            Timespan::from_fields(false, 2, 0, 0, 0, 0, 0, -1).to_string(),
            "1-23:59:59.999999999"
        );
    }

    #[test]
    fn timespan_parse() {
        assert_eq!(
            Timespan::parse("1-00:00:00").unwrap(),
            Timespan::from_fields(false, 1, 0, 0, 0, 0, 0, 0)
        );
        assert_eq!(
            Timespan::parse("01:02:03").unwrap().to_string(),
            "0-01:02:03.0"
        );
        assert_eq!(
            Timespan::parse_with("11", "%H").unwrap().to_string(),
            "0-11:00:00.0"
        );
        assert_eq!(
            Timespan::parse_with("10:03.5", "%M:%S.%L")
                .unwrap()
                .to_string(),
            "0-00:10:03.5"
        );
        assert!(Timespan::parse("x").is_err());
    }

    #[test]
    fn timestamp_format_and_parse() {
        assert_eq!(
            Timestamp::from_secs(0).to_string(),
            "1970-01-01T00:00:00.000000000 UTC"
        );
        assert_eq!(
            Timestamp { nanos: -NS_PER_SEC }.to_string(),
            "1969-12-31T23:59:59.000000000 UTC"
        );
        let t = Timestamp::parse("2016-09-06T08:34:59 UTC").unwrap();
        assert_eq!(t.to_string(), "2016-09-06T08:34:59.000000000 UTC");
        assert_eq!(
            Timestamp::parse("2016-08-24T12:13:14.000 UTC")
                .unwrap()
                .to_string(),
            "2016-08-24T12:13:14.000000000 UTC"
        );
        assert!(Timestamp::parse("1-00:00:00").is_err());
        assert!(Timestamp::parse("nope").is_err());
    }

    #[test]
    fn zone_offsets_and_formatting_in_a_zone() {
        assert_eq!(zone_offset("+05:30"), Some(19800));
        assert_eq!(zone_offset("+5"), Some(18000));
        assert_eq!(zone_offset("-0530"), Some(-19800));
        assert_eq!(zone_offset("+123"), Some(4980));
        assert_eq!(zone_offset("+05:30:15"), Some(19815));
        assert_eq!(zone_offset("GMT-5"), Some(-18000));
        assert_eq!(zone_offset("EST"), Some(-18000));
        assert_eq!(zone_offset("n"), Some(-3600));
        assert_eq!(zone_offset("Europe/Stockholm"), None);
        let t = Timestamp::from_secs(0);
        assert_eq!(
            t.format_in_zone("%H:%M %z", "+05:30").unwrap(),
            "05:30 +0530"
        );
        assert_eq!(
            t.format_in_zone("%F %T %Z", "UTC").unwrap(),
            "1970-01-01 00:00:00 "
        );
        assert_eq!(t.format("%Z %::z %:::z").unwrap(), "UTC +00:00:00 +00");
        assert_eq!(
            t.format_in_zone("%:z %::z %:::z", "-00:30").unwrap(),
            "-00:30 -00:30:00 -00:30"
        );
        assert!(t.format_in_zone("%F", "nowhere").is_err());
    }
}
