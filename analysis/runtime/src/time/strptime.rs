//! Ruby's `Date._strptime` as Puppet's `Timestamp` parsing uses it: a format
//! is matched against a string and yields the fields it names (year, month,
//! day, time, fraction, zone). Puppet then builds a UTC time from the fields
//! with `Time.utc`, which needs a year and rolls over days past a month's end.

use super::{zone_offset, Timestamp, NS_PER_SEC};

/// The fields one successful match produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parsed {
    pub year: Option<i64>,
    pub mon: Option<u32>,
    pub mday: Option<u32>,
    pub hour: Option<u32>,
    pub min: Option<u32>,
    pub sec: Option<u32>,
    /// Fraction of a second in nanoseconds (truncated).
    pub frac_nanos: Option<i128>,
    /// The zone text as written, and its offset when it is a known zone.
    pub zone: Option<String>,
    pub offset: Option<i64>,
    /// Seconds since the epoch (`%s`); Puppet ignores it.
    pub seconds: Option<i128>,
    /// True when input is left over after the format was consumed.
    pub leftover: bool,
    merid: Option<u32>,
    century: Option<i64>,
    two_digit_year: Option<i64>,
}

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];
const DAYS: [&str; 7] = [
    "sunday",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
];

/// Conversions that read digits: a field before one of these (or before a
/// literal digit) reads a bounded number of digits.
const NUMERIC_CONVERSIONS: &str = "CDdeFGgHIjkLlMmNQRrSsTUuVvWwXxYy";

struct Matcher<'a> {
    input: &'a [u8],
    pos: usize,
    out: Parsed,
    depth: usize,
}

impl Matcher<'_> {
    fn rest(&self) -> &[u8] {
        &self.input[self.pos.min(self.input.len())..]
    }

    fn skip_ws(&mut self) {
        while self.rest().first().is_some_and(u8::is_ascii_whitespace) {
            self.pos += 1;
        }
    }

    /// The run of at most `max` digits at the cursor (`None` if empty).
    fn digit_run(&self, max: usize) -> Option<&[u8]> {
        let n = self
            .rest()
            .iter()
            .take(max)
            .take_while(|b| b.is_ascii_digit())
            .count();
        (n > 0).then(|| &self.rest()[..n])
    }

    fn digits(&mut self, max: usize) -> Option<i128> {
        let n = self.digit_run(max)?.len();
        // at most 38 digits fit an i128; longer runs are out of any range
        let v = std::str::from_utf8(&self.rest()[..n.min(38)])
            .ok()?
            .parse()
            .ok();
        self.pos += n;
        v
    }

    fn signed(&mut self, max: usize) -> Option<i128> {
        let neg = match self.rest().first() {
            Some(b'-') => {
                self.pos += 1;
                true
            }
            Some(b'+') => {
                self.pos += 1;
                false
            }
            _ => false,
        };
        let v = self.digits(max)?;
        Some(if neg { -v } else { v })
    }

    fn ranged(&mut self, max_digits: usize, lo: i128, hi: i128) -> Option<u32> {
        let v = self.digits(max_digits)?;
        if v < lo || v > hi {
            return None;
        }
        u32::try_from(v).ok()
    }

    /// Matches a full or abbreviated name (case-insensitive), returning its index.
    fn name(&mut self, names: &[&str]) -> Option<usize> {
        let rest = self.rest();
        let lower: Vec<u8> = rest.iter().take(12).map(u8::to_ascii_lowercase).collect();
        for (i, n) in names.iter().enumerate() {
            if lower.starts_with(n.as_bytes()) {
                self.pos += n.len();
                return Some(i);
            }
        }
        for (i, n) in names.iter().enumerate() {
            if lower.starts_with(&n.as_bytes()[..3]) {
                self.pos += 3;
                return Some(i);
            }
        }
        None
    }

    fn zone(&mut self) -> Option<()> {
        let rest = self.rest();
        let lower: Vec<u8> = rest.iter().map(u8::to_ascii_lowercase).collect();
        let prefix = ["gmt", "utc", "ut"]
            .iter()
            .find(|p| {
                lower.starts_with(p.as_bytes())
                    && matches!(lower.get(p.len()), Some(b'+') | Some(b'-'))
            })
            .map_or(0, |p| p.len());
        let len = if matches!(lower.get(prefix), Some(b'+') | Some(b'-')) {
            let mut i = prefix + 1;
            let start = i;
            while lower.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == start {
                return None;
            }
            for _ in 0..2 {
                if matches!(lower.get(i), Some(b':') | Some(b',') | Some(b'.'))
                    && lower.get(i + 1).is_some_and(u8::is_ascii_digit)
                {
                    i += 1;
                    while lower.get(i).is_some_and(u8::is_ascii_digit) {
                        i += 1;
                    }
                } else {
                    break;
                }
            }
            i
        } else {
            let n = lower.iter().take_while(|b| b.is_ascii_alphabetic()).count();
            if n == 0 {
                return None;
            }
            n
        };
        let text = String::from_utf8_lossy(&rest[..len]).into_owned();
        self.pos += len;
        self.out.offset = zone_offset(&text);
        self.out.zone = Some(text);
        Some(())
    }

    /// Whether the format at `fmt[i..]` starts with something that reads digits.
    fn next_is_numeric(fmt: &[u8], i: usize) -> bool {
        match fmt.get(i) {
            Some(b) if b.is_ascii_digit() => true,
            Some(b'%') => {
                let mut j = i + 1;
                while fmt.get(j) == Some(&b':') {
                    j += 1;
                }
                fmt.get(j)
                    .is_some_and(|c| NUMERIC_CONVERSIONS.as_bytes().contains(c))
            }
            _ => false,
        }
    }

    fn run(&mut self, fmt: &[u8]) -> Option<()> {
        self.depth += 1;
        if self.depth > 8 {
            return None;
        }
        let mut i = 0;
        while i < fmt.len() {
            let c = fmt[i];
            if c.is_ascii_whitespace() {
                self.skip_ws();
                i += 1;
                continue;
            }
            if c != b'%' {
                if self.rest().first() != Some(&c) {
                    return None;
                }
                self.pos += 1;
                i += 1;
                continue;
            }
            i += 1;
            // Ruby's `Date._strptime` knows no padding or case flags, only
            // the colons of `%:z`
            while fmt.get(i) == Some(&b':') {
                i += 1;
            }
            // the `E` and `O` modifiers change nothing before these
            let modified: &[u8] = match fmt.get(i) {
                Some(b'E') => b"cCxXyY",
                Some(b'O') => b"deHImMSuUVwWy",
                _ => b"",
            };
            if fmt.get(i + 1).is_some_and(|c| modified.contains(c)) {
                i += 1;
            }
            let Some(&d) = fmt.get(i) else {
                // a lone '%' at the end matches itself
                if self.rest().first() != Some(&b'%') {
                    return None;
                }
                self.pos += 1;
                break;
            };
            i += 1;
            let bounded = Self::next_is_numeric(fmt, i);
            match d {
                b'Y' => {
                    let y = self.signed(if bounded { 4 } else { 38 })?;
                    self.out.year = Some(i64::try_from(y).ok()?);
                }
                b'C' => {
                    let c = self.signed(if bounded { 2 } else { 38 })?;
                    self.out.century = Some(i64::try_from(c).ok()?);
                }
                b'y' => {
                    let y = self.ranged(2, 0, 99)?;
                    self.out.two_digit_year = Some(y as i64);
                }
                b'm' => self.out.mon = Some(self.ranged(2, 1, 12)?),
                b'd' | b'e' => {
                    if self.rest().first() == Some(&b' ') {
                        self.pos += 1;
                    }
                    self.out.mday = Some(self.ranged(2, 1, 31)?);
                }
                b'j' => {
                    // the day of the year is parsed but Puppet does not use it
                    self.ranged(3, 1, 366)?;
                }
                b'H' | b'k' => {
                    if self.rest().first() == Some(&b' ') {
                        self.pos += 1;
                    }
                    self.out.hour = Some(self.ranged(2, 0, 24)?);
                }
                b'I' | b'l' => {
                    if self.rest().first() == Some(&b' ') {
                        self.pos += 1;
                    }
                    self.out.hour = Some(self.ranged(2, 1, 12)?);
                }
                b'M' => self.out.min = Some(self.ranged(2, 0, 59)?),
                b'S' => self.out.sec = Some(self.ranged(2, 0, 60)?),
                b'L' | b'N' => {
                    let max = match (bounded, d) {
                        (true, b'L') => 3,
                        (true, _) => 9,
                        _ => usize::MAX,
                    };
                    let run = self.digit_run(max)?;
                    let n = run.len();
                    let mut v: i128 = 0;
                    for b in run.iter().take(9) {
                        v = v * 10 + (b - b'0') as i128;
                    }
                    for _ in n..9 {
                        v *= 10;
                    }
                    self.pos += n;
                    self.out.frac_nanos = Some(v);
                }
                b's' => self.out.seconds = Some(self.signed(38)?),
                b'Q' => self.out.seconds = Some(self.signed(38)? / 1000),
                b'p' | b'P' => {
                    let lower: Vec<u8> = self
                        .rest()
                        .iter()
                        .take(4)
                        .map(u8::to_ascii_lowercase)
                        .collect();
                    let (merid, len) = if lower.starts_with(b"a.m.") {
                        (0, 4)
                    } else if lower.starts_with(b"p.m.") {
                        (12, 4)
                    } else if lower.starts_with(b"am") {
                        (0, 2)
                    } else if lower.starts_with(b"pm") {
                        (12, 2)
                    } else {
                        return None;
                    };
                    self.pos += len;
                    self.out.merid = Some(merid);
                }
                b'a' | b'A' => {
                    self.name(&DAYS)?;
                }
                b'b' | b'B' | b'h' => {
                    let m = self.name(&MONTHS)?;
                    self.out.mon = Some(m as u32 + 1);
                }
                b'z' | b'Z' => self.zone()?,
                b'u' => {
                    self.ranged(1, 1, 7)?;
                }
                b'w' => {
                    self.ranged(1, 0, 6)?;
                }
                b'U' | b'W' => {
                    self.ranged(2, 0, 53)?;
                }
                b'V' => {
                    self.ranged(2, 1, 53)?;
                }
                b'G' => {
                    self.signed(if bounded { 4 } else { 38 })?;
                }
                b'g' => {
                    self.ranged(2, 0, 99)?;
                }
                b'n' | b't' => self.skip_ws(),
                b'%' => {
                    if self.rest().first() != Some(&b'%') {
                        return None;
                    }
                    self.pos += 1;
                }
                b'F' => self.run(b"%Y-%m-%d")?,
                b'T' | b'X' => self.run(b"%H:%M:%S")?,
                b'D' | b'x' => self.run(b"%m/%d/%y")?,
                b'R' => self.run(b"%H:%M")?,
                b'r' => self.run(b"%I:%M:%S %p")?,
                b'c' => self.run(b"%a %b %e %H:%M:%S %Y")?,
                b'v' => self.run(b"%e-%b-%Y")?,
                b'+' => self.run(b"%a %b %e %H:%M:%S %Z %Y")?,
                _ => return None,
            }
        }
        self.depth -= 1;
        Some(())
    }
}

/// Matches `input` against a strptime `format`; `None` when it does not match.
pub fn strptime(input: &str, format: &str) -> Option<Parsed> {
    let mut m = Matcher {
        input: input.as_bytes(),
        pos: 0,
        out: Parsed::default(),
        depth: 0,
    };
    m.run(format.as_bytes())?;
    let mut out = m.out;
    out.leftover = m.pos < input.len();
    if let Some(y) = out.two_digit_year {
        out.year = Some(match out.century {
            Some(c) => c * 100 + y,
            None if y >= 69 => 1900 + y,
            None => 2000 + y,
        });
    } else if let (Some(c), None) = (out.century, out.year) {
        out.year = Some(c * 100);
    }
    if let (Some(m), Some(h)) = (out.merid, out.hour) {
        out.hour = Some(h % 12 + m);
    }
    Some(out)
}

/// Days from 1970-01-01 to the given proleptic Gregorian date.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Ruby's `Time.utc(year, mon, mday, hour, min, sec, usec)` over parsed
/// fields: a year is required, days past the month's end roll over.
fn to_timestamp(p: &Parsed) -> Result<Timestamp, String> {
    let year = p
        .year
        .ok_or_else(|| "no implicit conversion of nil into Integer".to_string())?;
    if !(-1_000_000_000..=1_000_000_000).contains(&year) {
        return Err("year out of range".into());
    }
    let (hour, min, sec) = (p.hour.unwrap_or(0), p.min.unwrap_or(0), p.sec.unwrap_or(0));
    if hour == 24 && (min != 0 || sec != 0) {
        return Err(if min != 0 {
            "min out of range".into()
        } else {
            "sec out of range".into()
        });
    }
    let days = days_from_civil(year, p.mon.unwrap_or(1), 1) + p.mday.unwrap_or(1) as i64 - 1;
    let secs = days as i128 * 86_400 + hour as i128 * 3600 + min as i128 * 60 + sec as i128;
    Ok(Timestamp {
        nanos: secs * NS_PER_SEC + p.frac_nanos.unwrap_or(0),
    })
}

/// Puppet's `Timestamp.parse(string, formats, timezone)`: with several
/// formats the first that matches without leftover (and, given a time zone,
/// without a zone of its own) wins; a single format must match. The zone
/// (given, or parsed) shifts the time to UTC.
pub fn parse_timestamp(
    input: &str,
    formats: &[&str],
    tz: Option<&str>,
) -> Result<Timestamp, String> {
    let tz = tz.filter(|t| !t.is_empty());
    let parsed = if let [single] = formats {
        let p = strptime(input, single)
            .filter(|p| !p.leftover)
            .ok_or_else(|| format!("Unable to parse '{}' using format '{}'", input, single))?;
        if tz.is_some() && p.zone.is_some() {
            return Err("Using a Timezone designator in format specification is mutually exclusive to providing an explicit timezone argument".into());
        }
        p
    } else {
        formats
            .iter()
            .filter_map(|f| strptime(input, f))
            .find(|p| !p.leftover && (tz.is_none() || p.zone.is_none()))
            .ok_or_else(|| {
                format!(
                    "Unable to parse '{}' using any of the formats {}",
                    input,
                    formats.join(", ")
                )
            })?
    };
    let t = to_timestamp(&parsed)?;
    let zone = tz.map(str::to_string).or(parsed.zone);
    let offset = match zone {
        None => 0,
        Some(z) => zone_offset(&z).ok_or_else(|| format!("Illegal timezone '{}'", z))?,
    };
    Ok(Timestamp {
        nanos: t.nanos - offset as i128 * NS_PER_SEC,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: &str, formats: &[&str]) -> Result<String, String> {
        parse_timestamp(s, formats, None).map(|t| t.to_string())
    }

    #[test]
    fn fields_from_formats() {
        let p = strptime("2016-8-4", "%F").unwrap();
        assert_eq!((p.year, p.mon, p.mday), (Some(2016), Some(8), Some(4)));
        let p = strptime("20160824", "%Y%m%d").unwrap();
        assert_eq!((p.year, p.mon, p.mday), (Some(2016), Some(8), Some(24)));
        assert!(strptime(" 2016", "%Y").is_none());
        assert_eq!(strptime("12 pm", "%I %p").unwrap().hour, Some(12));
        assert_eq!(strptime("99", "%y").unwrap().year, Some(1999));
        assert_eq!(
            strptime("2016 Europe/Stockholm", "%Y %Z").unwrap().offset,
            None
        );
        assert!(strptime("2016 Europe/Stockholm", "%Y %Z").unwrap().leftover);
        assert!(strptime("2016-13-01", "%F").is_none());
        assert_eq!(strptime("August", "%b").unwrap().mon, Some(8));
    }

    #[test]
    fn puppet_timestamp_parsing() {
        assert_eq!(
            ts("Wed Aug 24 12:13:14 2016", &["%c"]).unwrap(),
            "2016-08-24T12:13:14.000000000 UTC"
        );
        // the day of the year is not used
        assert_eq!(
            ts("2016-236", &["%Y-%j"]).unwrap(),
            "2016-01-01T00:00:00.000000000 UTC"
        );
        // a year is required
        assert!(ts("1473150899", &["%s"]).is_err());
        assert!(ts("2016-W34-3", &["%G-W%V-%u"]).is_err());
        // days roll over
        assert_eq!(
            ts("2016-02-30", &["%F"]).unwrap(),
            "2016-03-01T00:00:00.000000000 UTC"
        );
        assert_eq!(
            ts("24.08.2016", &["%F", "%d.%m.%Y"]).unwrap(),
            "2016-08-24T00:00:00.000000000 UTC"
        );
        assert!(ts("2016-08-24", &["%Y"]).is_err());
        assert_eq!(
            ts("2016-08-24 12:13:14.987654321", &["%F %T.%N"]).unwrap(),
            "2016-08-24T12:13:14.987654321 UTC"
        );
        assert_eq!(
            ts("2016-08-24 12:00:00 +0200", &["%F %T %z"]).unwrap(),
            "2016-08-24T10:00:00.000000000 UTC"
        );
        assert_eq!(
            parse_timestamp("2016-08-24 12:00", &["%F %R"], Some("EST"))
                .unwrap()
                .to_string(),
            "2016-08-24T17:00:00.000000000 UTC"
        );
        assert!(parse_timestamp("2016-08-24 UTC", &["%F %Z"], Some("EST")).is_err());
        assert!(ts("2016-08-24 Nowhere", &["%F %Z"]).is_err());
    }
}
