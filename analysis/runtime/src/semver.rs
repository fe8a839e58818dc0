//! Semantic versions and version ranges with Puppet's (semantic_puppet) rules.
//!
//! Puppet's ordering ignores build metadata but its equality does not, and its
//! range grammar (npm-like, with `x` ranges, `~`, `^`, hyphen ranges) and range
//! printing differ from the `semver` crate, so both are modelled here.

use std::cmp::Ordering;
use std::fmt;

/// One pre-release identifier: numeric identifiers sort before alphanumeric ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ident {
    /// A numeric identifier.
    Num(u64),
    /// An alphanumeric identifier.
    Str(String),
}

impl fmt::Display for Ident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ident::Num(n) => write!(f, "{}", n),
            Ident::Str(s) => f.write_str(s),
        }
    }
}

/// A semantic version (`SemVer` value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Version {
    /// Major number; `u64::MAX` stands for the unbounded maximum version.
    pub major: u64,
    /// Minor number.
    pub minor: u64,
    /// Patch number.
    pub patch: u64,
    /// Pre-release identifiers (`None` for a stable version).
    pub prerelease: Option<Vec<Ident>>,
    /// Build identifiers (ignored by ordering, not by equality).
    pub build: Option<Vec<String>>,
}

impl Version {
    /// A stable version.
    pub fn new(major: u64, minor: u64, patch: u64) -> Self {
        Version {
            major,
            minor,
            patch,
            prerelease: None,
            build: None,
        }
    }

    /// The smallest version, `0.0.0-` (empty pre-release).
    pub fn min() -> Self {
        Version {
            major: 0,
            minor: 0,
            patch: 0,
            prerelease: Some(Vec::new()),
            build: None,
        }
    }

    /// The unbounded maximum version.
    pub fn max() -> Self {
        Version::new(u64::MAX, 0, 0)
    }

    /// True when there is no pre-release part.
    pub fn is_stable(&self) -> bool {
        self.prerelease.as_ref().is_none_or(|p| p.is_empty())
    }

    /// Parses `major.minor.patch[-pre][+build]` strictly.
    pub fn parse(s: &str) -> Result<Version, String> {
        let err = || format!("Unable to parse '{}' as a semantic version identifier", s);
        let (rest, build) = match s.split_once('+') {
            Some((r, b)) => (r, Some(b)),
            None => (s, None),
        };
        let (nums, pre) = match rest.split_once('-') {
            Some((n, p)) => (n, Some(p)),
            None => (rest, None),
        };
        let parts: Vec<&str> = nums.split('.').collect();
        if parts.len() != 3 {
            return Err(err());
        }
        let mut n = [0u64; 3];
        for (i, p) in parts.iter().enumerate() {
            if !is_nr(p) {
                return Err(err());
            }
            n[i] = p.parse().map_err(|_| err())?;
        }
        let prerelease = match pre {
            Some(p) => Some(parse_prerelease(p).ok_or_else(err)?),
            None => None,
        };
        let build = match build {
            Some(b) => Some(parse_parts(b).ok_or_else(err)?),
            None => None,
        };
        Ok(Version {
            major: n[0],
            minor: n[1],
            patch: n[2],
            prerelease,
            build,
        })
    }

    fn next_patch(&self) -> Version {
        Version::new(self.major, self.minor, self.patch.saturating_add(1))
    }

    fn compare_prerelease(&self, other: &Version) -> Ordering {
        match (&self.prerelease, &other.prerelease) {
            (None, None) => Ordering::Equal,
            (None, Some(_)) => Ordering::Greater,
            (Some(_), None) => Ordering::Less,
            (Some(a), Some(b)) => {
                for (i, x) in a.iter().enumerate() {
                    let Some(y) = b.get(i) else {
                        return Ordering::Greater;
                    };
                    let c = match (x, y) {
                        (Ident::Num(x), Ident::Num(y)) => x.cmp(y),
                        (Ident::Num(_), Ident::Str(_)) => Ordering::Less,
                        (Ident::Str(_), Ident::Num(_)) => Ordering::Greater,
                        (Ident::Str(x), Ident::Str(y)) => x.cmp(y),
                    };
                    if c != Ordering::Equal {
                        return c;
                    }
                }
                a.len().cmp(&b.len())
            }
        }
    }

    /// Puppet's ordering (build metadata ignored).
    pub fn compare(&self, other: &Version) -> Ordering {
        self.major
            .cmp(&other.major)
            .then(self.minor.cmp(&other.minor))
            .then(self.patch.cmp(&other.patch))
            .then_with(|| self.compare_prerelease(other))
    }
}

fn is_nr(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'))
}

fn is_part(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

fn parse_parts(s: &str) -> Option<Vec<String>> {
    let parts: Vec<String> = s.split('.').map(str::to_string).collect();
    parts.iter().all(|p| is_part(p)).then_some(parts)
}

fn parse_prerelease(s: &str) -> Option<Vec<Ident>> {
    let parts = parse_parts(s)?;
    let mut out = Vec::new();
    for p in parts {
        if p.bytes().all(|b| b.is_ascii_digit()) {
            if p.len() > 1 && p.starts_with('0') {
                return None;
            }
            out.push(Ident::Num(p.parse().ok()?));
        } else {
            out.push(Ident::Str(p));
        }
    }
    Some(out)
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.major == u64::MAX {
            write!(f, "Infinity.{}.{}", self.minor, self.patch)?;
        } else {
            write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        }
        if let Some(p) = &self.prerelease {
            if !p.is_empty() {
                let s: Vec<String> = p.iter().map(|i| i.to_string()).collect();
                write!(f, "-{}", s.join("."))?;
            }
        }
        if let Some(b) = &self.build {
            write!(f, "+{}", b.join("."))?;
        }
        Ok(())
    }
}

/// One contiguous range (semantic_puppet's `AbstractRange` family).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SimpleRange {
    /// Every version.
    All,
    /// `>v`
    Gt(Version),
    /// `>=v`
    GtEq(Version),
    /// `<v`
    Lt(Version),
    /// `<=v`
    LtEq(Version),
    /// `=v`
    Eq(Version),
    /// A lower bound (`Gt`/`GtEq`) combined with an upper bound (`Lt`/`LtEq`).
    MinMax(Box<SimpleRange>, Box<SimpleRange>),
}

fn vlt(a: &Version, b: &Version) -> bool {
    a.compare(b) == Ordering::Less
}

impl SimpleRange {
    fn nothing() -> SimpleRange {
        SimpleRange::Lt(Version::min())
    }

    /// Lowest version in the range.
    pub fn begin(&self) -> Version {
        match self {
            SimpleRange::Gt(v) | SimpleRange::GtEq(v) | SimpleRange::Eq(v) => v.clone(),
            SimpleRange::MinMax(min, _) => min.begin(),
            _ => Version::min(),
        }
    }

    /// Highest version in the range.
    pub fn end(&self) -> Version {
        match self {
            SimpleRange::Lt(v) | SimpleRange::LtEq(v) | SimpleRange::Eq(v) => v.clone(),
            SimpleRange::MinMax(_, max) => max.end(),
            _ => Version::max(),
        }
    }

    /// True when the lower bound is exclusive.
    pub fn exclude_begin(&self) -> bool {
        match self {
            SimpleRange::Gt(_) => true,
            SimpleRange::MinMax(min, _) => min.exclude_begin(),
            _ => false,
        }
    }

    /// True when the upper bound is exclusive.
    pub fn exclude_end(&self) -> bool {
        match self {
            SimpleRange::Lt(_) => true,
            SimpleRange::MinMax(_, max) => max.exclude_end(),
            _ => false,
        }
    }

    fn lower_bound(&self) -> bool {
        match self {
            SimpleRange::Gt(_) => true,
            SimpleRange::GtEq(v) | SimpleRange::Eq(v) => *v != Version::min(),
            SimpleRange::MinMax(min, _) => min.lower_bound(),
            _ => false,
        }
    }

    fn upper_bound(&self) -> bool {
        match self {
            SimpleRange::Lt(_) => true,
            SimpleRange::LtEq(v) | SimpleRange::Eq(v) => *v != Version::max(),
            SimpleRange::MinMax(_, max) => max.upper_bound(),
            _ => false,
        }
    }

    fn includes_raw(&self, v: &Version) -> bool {
        match self {
            SimpleRange::All => true,
            SimpleRange::Gt(x) => v.compare(x) == Ordering::Greater,
            SimpleRange::GtEq(x) => v.compare(x) != Ordering::Less,
            SimpleRange::Lt(x) => v.compare(x) == Ordering::Less,
            SimpleRange::LtEq(x) => v.compare(x) != Ordering::Greater,
            SimpleRange::Eq(x) => v == x,
            SimpleRange::MinMax(a, b) => a.includes_raw(v) && b.includes_raw(v),
        }
    }

    fn test_prerelease(&self, v: &Version) -> bool {
        match self {
            SimpleRange::All => true,
            SimpleRange::MinMax(a, b) => a.test_prerelease(v) || b.test_prerelease(v),
            SimpleRange::Gt(x)
            | SimpleRange::GtEq(x)
            | SimpleRange::Lt(x)
            | SimpleRange::LtEq(x)
            | SimpleRange::Eq(x) => {
                !x.is_stable() && x.major == v.major && x.minor == v.minor && x.patch == v.patch
            }
        }
    }

    fn min_max(min: SimpleRange, max: SimpleRange) -> SimpleRange {
        let min = match min {
            SimpleRange::MinMax(m, _) => *m,
            o => o,
        };
        let max = match max {
            SimpleRange::MinMax(_, m) => *m,
            o => o,
        };
        SimpleRange::MinMax(Box::new(min), Box::new(max))
    }

    /// The intersection of two ranges, `None` when disjoint.
    pub fn intersection(&self, other: &SimpleRange) -> Option<SimpleRange> {
        if let SimpleRange::All = self {
            return Some(other.clone());
        }
        let cmp = self.begin().compare(&other.end());
        if cmp == Ordering::Greater {
            return None;
        }
        if cmp == Ordering::Equal {
            return if self.exclude_begin() || other.exclude_end() {
                None
            } else {
                Some(SimpleRange::Eq(self.begin()))
            };
        }
        let cmp = other.begin().compare(&self.end());
        if cmp == Ordering::Greater {
            return None;
        }
        if cmp == Ordering::Equal {
            return if other.exclude_begin() || self.exclude_end() {
                None
            } else {
                Some(SimpleRange::Eq(other.begin()))
            };
        }
        let min = match self.begin().compare(&other.begin()) {
            Ordering::Less => other,
            Ordering::Greater => self,
            Ordering::Equal => {
                if self.exclude_begin() {
                    self
                } else {
                    other
                }
            }
        };
        let max = match self.end().compare(&other.end()) {
            Ordering::Greater => other,
            Ordering::Less => self,
            Ordering::Equal => {
                if self.exclude_end() {
                    self
                } else {
                    other
                }
            }
        };
        if !max.upper_bound() {
            Some(min.clone())
        } else if !min.lower_bound() {
            Some(max.clone())
        } else {
            Some(SimpleRange::min_max(min.clone(), max.clone()))
        }
    }

    fn create(ranges: Vec<SimpleRange>) -> SimpleRange {
        let mut it = ranges.into_iter();
        let Some(mut acc) = it.next() else {
            return SimpleRange::All;
        };
        for r in it {
            acc = acc.intersection(&r).unwrap_or_else(SimpleRange::nothing);
        }
        acc
    }

    fn bounds(excl_begin: bool, min: Version, excl_end: bool, max: Version) -> SimpleRange {
        let lo = if excl_begin {
            SimpleRange::Gt(min)
        } else {
            SimpleRange::GtEq(min)
        };
        let hi = if excl_end {
            SimpleRange::Lt(max)
        } else {
            SimpleRange::LtEq(max)
        };
        SimpleRange::create(vec![lo, hi])
    }

    /// Merges two overlapping or adjacent ranges.
    pub fn merge(&self, other: &SimpleRange) -> Option<SimpleRange> {
        if let SimpleRange::All = self {
            return Some(SimpleRange::All);
        }
        if self.includes_raw(&other.begin()) || other.includes_raw(&self.begin()) {
            let (min, eb) = match self.begin().compare(&other.begin()) {
                Ordering::Less => (self.begin(), self.exclude_begin()),
                Ordering::Greater => (other.begin(), other.exclude_begin()),
                Ordering::Equal => (self.begin(), self.exclude_begin() && other.exclude_begin()),
            };
            let (max, ee) = match self.end().compare(&other.end()) {
                Ordering::Greater => (self.end(), self.exclude_end()),
                Ordering::Less => (other.end(), other.exclude_end()),
                Ordering::Equal => (self.end(), self.exclude_end() && other.exclude_end()),
            };
            Some(SimpleRange::bounds(eb, min, ee, max))
        } else if self.exclude_end() && !other.exclude_begin() && self.end() == other.begin() {
            Some(SimpleRange::bounds(
                self.exclude_begin(),
                self.begin(),
                other.exclude_end(),
                other.end(),
            ))
        } else if other.exclude_end() && !self.exclude_begin() && other.end() == self.begin() {
            Some(SimpleRange::bounds(
                other.exclude_begin(),
                other.begin(),
                self.exclude_end(),
                self.end(),
            ))
        } else if !self.exclude_end()
            && !other.exclude_begin()
            && self.end().next_patch() == other.begin()
        {
            Some(SimpleRange::bounds(
                self.exclude_begin(),
                self.begin(),
                other.exclude_end(),
                other.end(),
            ))
        } else if !other.exclude_end()
            && !self.exclude_begin()
            && other.end().next_patch() == self.begin()
        {
            Some(SimpleRange::bounds(
                other.exclude_begin(),
                other.begin(),
                self.exclude_end(),
                self.end(),
            ))
        } else {
            None
        }
    }
}

impl fmt::Display for SimpleRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimpleRange::All => f.write_str("*"),
            SimpleRange::Gt(v) => write!(f, ">{}", v),
            SimpleRange::GtEq(v) => write!(f, ">={}", v),
            SimpleRange::Lt(v) => write!(f, "<{}", v),
            SimpleRange::LtEq(v) => write!(f, "<={}", v),
            SimpleRange::Eq(v) => write!(f, "{}", v),
            SimpleRange::MinMax(a, b) => write!(f, "{} {}", a, b),
        }
    }
}

/// A version range (`SemVerRange` value): a set of contiguous ranges plus the
/// string it was written as (Puppet prints the original text).
#[derive(Clone, Debug)]
pub struct VersionRange {
    /// The merged contiguous ranges (never empty).
    pub ranges: Vec<SimpleRange>,
    /// The printed form.
    pub string: String,
}

impl PartialEq for VersionRange {
    fn eq(&self, other: &Self) -> bool {
        self.ranges == other.ranges
    }
}

impl fmt::Display for VersionRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.string)
    }
}

fn digit(s: Option<&str>) -> Option<u64> {
    match s {
        None | Some("x") | Some("X") | Some("*") => None,
        Some(d) => Some(d.parse().unwrap_or(u64::MAX)),
    }
}

struct Partial<'a> {
    xr: [Option<&'a str>; 3],
    pre: Option<&'a str>,
    build: Option<&'a str>,
}

fn is_xr(s: &str) -> bool {
    matches!(s, "x" | "X" | "*") || is_nr(s)
}

fn parse_partial(expr: &str) -> Option<Partial<'_>> {
    let (rest, build) = match expr.split_once('+') {
        Some((r, b)) => (r, Some(b)),
        None => (expr, None),
    };
    let (nums, pre) = match rest.split_once('-') {
        Some((n, p)) => (n, Some(p)),
        None => (rest, None),
    };
    let parts: Vec<&str> = nums.split('.').collect();
    if parts.is_empty() || parts.len() > 3 || !parts.iter().all(|p| is_xr(p)) {
        return None;
    }
    if (pre.is_some() || build.is_some()) && parts.len() != 3 {
        return None;
    }
    if let Some(p) = pre {
        parse_parts(p)?;
    }
    if let Some(b) = build {
        parse_parts(b)?;
    }
    let mut xr = [None; 3];
    for (i, p) in parts.into_iter().enumerate() {
        xr[i] = Some(p);
    }
    Some(Partial { xr, pre, build })
}

fn partial_version(p: &Partial<'_>) -> Option<Version> {
    Some(Version {
        major: digit(p.xr[0]).unwrap_or(0),
        minor: digit(p.xr[1]).unwrap_or(0),
        patch: digit(p.xr[2]).unwrap_or(0),
        prerelease: match p.pre {
            Some(s) => Some(parse_prerelease(s)?),
            None => None,
        },
        build: match p.build {
            Some(s) => Some(parse_parts(s)?),
            None => None,
        },
    })
}

fn ge_lt(lo: Version, hi: Version) -> SimpleRange {
    SimpleRange::MinMax(
        Box::new(SimpleRange::GtEq(lo)),
        Box::new(SimpleRange::Lt(hi)),
    )
}

fn allow_patch_updates(p: &Partial<'_>, tilde_or_caret: bool) -> Option<SimpleRange> {
    let Some(major) = digit(p.xr[0]) else {
        return Some(SimpleRange::All);
    };
    let Some(minor) = digit(p.xr[1]) else {
        return Some(ge_lt(
            Version::new(major, 0, 0),
            Version::new(major.saturating_add(1), 0, 0),
        ));
    };
    let Some(_) = digit(p.xr[2]) else {
        return Some(ge_lt(
            Version::new(major, minor, 0),
            Version::new(major, minor.saturating_add(1), 0),
        ));
    };
    let v = partial_version(p)?;
    if !tilde_or_caret {
        return Some(SimpleRange::Eq(v));
    }
    Some(ge_lt(v, Version::new(major, minor.saturating_add(1), 0)))
}

fn allow_minor_updates(p: &Partial<'_>) -> Option<SimpleRange> {
    let Some(major) = digit(p.xr[0]) else {
        return Some(SimpleRange::All);
    };
    let next = Version::new(major.saturating_add(1), 0, 0);
    match digit(p.xr[1]) {
        Some(minor) => match digit(p.xr[2]) {
            None => Some(ge_lt(Version::new(major, minor, 0), next)),
            Some(_) => Some(ge_lt(partial_version(p)?, next)),
        },
        None => Some(ge_lt(Version::new(major, 0, 0), next)),
    }
}

fn parse_simple(simple: &str) -> Option<SimpleRange> {
    let ops = ["<=", ">=", "~>", "~=", "<", ">", "=", "~", "^"];
    let (op, operand) = ops
        .iter()
        .find_map(|op| simple.strip_prefix(op).map(|rest| (*op, rest)))
        .unwrap_or(("", simple));
    let p = parse_partial(operand)?;
    match op {
        "~" | "~>" | "~=" => allow_patch_updates(&p, true),
        "^" => {
            if digit(p.xr[0]) == Some(0) {
                allow_patch_updates(&p, true)
            } else {
                allow_minor_updates(&p)
            }
        }
        ">" => {
            let Some(major) = digit(p.xr[0]) else {
                return Some(SimpleRange::nothing());
            };
            let Some(minor) = digit(p.xr[1]) else {
                return Some(SimpleRange::GtEq(Version::new(
                    major.saturating_add(1),
                    0,
                    0,
                )));
            };
            if digit(p.xr[2]).is_none() {
                return Some(SimpleRange::GtEq(Version::new(
                    major,
                    minor.saturating_add(1),
                    0,
                )));
            }
            Some(SimpleRange::Gt(partial_version(&p)?))
        }
        ">=" => Some(SimpleRange::GtEq(partial_version(&p)?)),
        "<" => Some(SimpleRange::Lt(partial_version(&p)?)),
        "<=" => {
            let Some(major) = digit(p.xr[0]) else {
                return Some(SimpleRange::All);
            };
            let Some(minor) = digit(p.xr[1]) else {
                return Some(SimpleRange::Lt(Version::new(major.saturating_add(1), 0, 0)));
            };
            if digit(p.xr[2]).is_none() {
                return Some(SimpleRange::Lt(Version::new(
                    major,
                    minor.saturating_add(1),
                    0,
                )));
            }
            Some(SimpleRange::LtEq(partial_version(&p)?))
        }
        _ => allow_patch_updates(&p, false),
    }
}

fn merge_all(mut ranges: Vec<SimpleRange>) -> Vec<SimpleRange> {
    let mut merge_happened = true;
    while ranges.len() > 1 && merge_happened {
        merge_happened = false;
        let mut result = Vec::new();
        while let Some(x) = ranges.pop() {
            let mut unmerged = Vec::new();
            let mut memo = x;
            for y in ranges.drain(..) {
                match memo.merge(&y) {
                    Some(m) => {
                        merge_happened = true;
                        memo = m;
                    }
                    None => unmerged.push(y),
                }
            }
            result.push(memo);
            ranges = unmerged;
        }
        result.reverse();
        ranges = result;
    }
    ranges
}

impl VersionRange {
    /// Parses Puppet's range syntax (`>=1.0.0 <2.0.0`, `1.x`, `~1.2`, `1.0.0 - 2.0.0`,
    /// alternatives with `||`).
    pub fn parse(s: &str) -> Result<VersionRange, String> {
        let err = || format!("Unparsable version range: \"{}\"", s);
        // Remove the whitespace, or else a 'v', after an operator
        // (semantic_puppet's `gsub(/([><=~^])(?:\s+|\s*v)/, '\1')`: the
        // first alternative wins, so `>= v1.0.0` keeps its 'v' and fails).
        let mut normalized = String::new();
        let chars: Vec<char> = s.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            normalized.push(c);
            i += 1;
            if matches!(c, '>' | '<' | '=' | '~' | '^') {
                let mut j = i;
                while j < chars.len() && chars[j].is_ascii_whitespace() {
                    j += 1;
                }
                if j == i && j < chars.len() && chars[j] == 'v' {
                    j += 1;
                }
                i = j;
            }
        }
        let mut ranges = Vec::new();
        for alt in normalized.split("||") {
            let alt = alt.trim();
            if alt.is_empty() {
                continue;
            }
            let words: Vec<&str> = alt.split_whitespace().collect();
            let r = if words.len() == 3 && words[1] == "-" {
                let lo =
                    partial_version(&parse_partial(words[0]).ok_or_else(err)?).ok_or_else(err)?;
                let hi =
                    partial_version(&parse_partial(words[2]).ok_or_else(err)?).ok_or_else(err)?;
                SimpleRange::create(vec![SimpleRange::GtEq(lo), SimpleRange::LtEq(hi)])
            } else {
                let mut simples = Vec::new();
                for w in words {
                    simples.push(parse_simple(w).ok_or_else(err)?);
                }
                if simples.len() == 1 {
                    simples.remove(0)
                } else {
                    SimpleRange::create(simples)
                }
            };
            if !ranges.contains(&r) {
                ranges.push(r);
            }
        }
        if ranges.is_empty() {
            return Ok(VersionRange {
                ranges: vec![SimpleRange::All],
                string: s.to_string(),
            });
        }
        Ok(VersionRange::from_ranges(ranges, Some(s.to_string())))
    }

    /// Builds a range from contiguous parts, merging them as semantic_puppet does.
    pub fn from_ranges(ranges: Vec<SimpleRange>, string: Option<String>) -> VersionRange {
        let mut ranges = merge_all(ranges);
        if ranges.is_empty() {
            ranges.push(SimpleRange::nothing());
        }
        let string = string.unwrap_or_else(|| {
            ranges
                .iter()
                .map(|r| r.to_string())
                .collect::<Vec<_>>()
                .join(" || ")
        });
        VersionRange { ranges, string }
    }

    /// The range `min..max` (`max` excluded when `exclude_end`).
    ///
    /// semantic_puppet's two-version constructor names its parameters the other
    /// way round for printing, so such ranges print with swapped bounds
    /// (`>=max <min` or `max - min`) while still *matching* `min..max`; Puppet
    /// shows this (`SemVer['>=1.0.0 <2.0.0', '>=2.0.0 <3.0.0']` prints
    /// `SemVer['>=3.0.0 <1.0.0']`), so it is reproduced.
    pub fn between(min: Version, max: Version, exclude_end: bool) -> VersionRange {
        // the string form shows the minimum version's empty pre-release
        let text = |v: &Version| match &v.prerelease {
            Some(p) if p.is_empty() => format!("{v}-"),
            _ => v.to_string(),
        };
        let (min_text, max_text) = (text(&min), text(&max));
        let string = if exclude_end {
            format!(">={max_text} <{min_text}")
        } else {
            format!("{max_text} - {min_text}")
        };
        let r = SimpleRange::bounds(false, min, exclude_end, max);
        VersionRange {
            ranges: vec![r],
            string,
        }
    }

    /// True when the version is in the range (pre-releases only match ranges that
    /// mention a pre-release of the same major.minor.patch).
    pub fn includes(&self, v: &Version) -> bool {
        self.ranges
            .iter()
            .any(|r| r.includes_raw(v) && (v.is_stable() || r.test_prerelease(v)))
    }

    /// Lower bound when the range is contiguous.
    pub fn begin(&self) -> Option<Version> {
        (self.ranges.len() == 1).then(|| self.ranges[0].begin())
    }

    /// Upper bound when the range is contiguous.
    pub fn end(&self) -> Option<Version> {
        (self.ranges.len() == 1).then(|| self.ranges[0].end())
    }

    /// True when the (contiguous) upper bound is exclusive.
    pub fn exclude_end(&self) -> bool {
        self.ranges.len() == 1 && self.ranges[0].exclude_end()
    }

    /// `a` is covered by `b` (used by `SemVer[...]` assignability).
    pub fn covered_by(a: &VersionRange, b: &VersionRange) -> bool {
        let (Some(ab), Some(ae), Some(bb), Some(be)) = (a.begin(), a.end(), b.begin(), b.end())
        else {
            return false;
        };
        bb.compare(&ab) != Ordering::Greater
            && (vlt(&ae, &be)
                || (be.compare(&ae) == Ordering::Equal && (!b.exclude_end() || a.exclude_end())))
    }

    /// Merges two ranges when they overlap or are adjacent (type normalization).
    pub fn merge(a: &VersionRange, b: &VersionRange) -> Option<VersionRange> {
        let (ab, ae, bb, be) = (a.begin()?, a.end()?, b.begin()?, b.end()?);
        if a.includes(&bb) || b.includes(&ab) {
            let max = if ae.compare(&be) == Ordering::Less {
                be.clone()
            } else {
                ae.clone()
            };
            let mut exclude_end = false;
            if a.exclude_end() {
                exclude_end = max == ae && (vlt(&be, &max) || b.exclude_end());
            } else if b.exclude_end() {
                exclude_end = max == be && (vlt(&ae, &max) || a.exclude_end());
            }
            let min = if vlt(&ab, &bb) { ab } else { bb };
            Some(VersionRange::between(min, max, exclude_end))
        } else if a.exclude_end() && ae == bb {
            Some(VersionRange::between(ab, be, b.exclude_end()))
        } else if b.exclude_end() && be == ab {
            Some(VersionRange::between(bb, ae, a.exclude_end()))
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print_versions() {
        let v = Version::parse("1.2.3-rc.1+build").unwrap();
        assert_eq!(v.to_string(), "1.2.3-rc.1+build");
        assert!(Version::parse("1.2").is_err());
        assert!(Version::parse("01.2.3").is_err());
        assert_ne!(
            Version::parse("1.0.0-rc1").unwrap(),
            Version::parse("1.0.0-RC1").unwrap()
        );
        assert!(Version::parse("1.0.0-rc1")
            .unwrap()
            .compare(&Version::parse("1.0.0").unwrap())
            .is_lt());
    }

    #[test]
    fn ranges() {
        let r = VersionRange::parse(">=1.0.0 <2.0.0").unwrap();
        assert!(r.includes(&Version::parse("1.5.0").unwrap()));
        assert!(!r.includes(&Version::parse("2.0.0").unwrap()));
        assert!(!r.includes(&Version::parse("1.5.0-rc1").unwrap()));
        let x = VersionRange::parse("1.x").unwrap();
        assert_eq!(x.to_string(), "1.x");
        assert!(x.includes(&Version::parse("1.9.9").unwrap()));
        assert!(VersionRange::parse("foo").is_err());
        let t = VersionRange::parse("~1.2").unwrap();
        assert!(t.includes(&Version::parse("1.2.9").unwrap()));
        assert!(!t.includes(&Version::parse("1.3.0").unwrap()));
        // After an operator, whitespace or else a 'v' is dropped, not both.
        assert!(VersionRange::parse(">=v1.0.0").is_ok());
        assert!(VersionRange::parse(">=  1.0.0").is_ok());
        assert!(VersionRange::parse(">= v1.0.0").is_err());
    }

    #[test]
    fn puppet_merge_prints_swapped_bounds() {
        let a = VersionRange::parse(">=1.0.0 <2.0.0").unwrap();
        let b = VersionRange::parse(">=2.0.0 <3.0.0").unwrap();
        let m = VersionRange::merge(&b, &a).unwrap();
        assert_eq!(m.to_string(), ">=3.0.0 <1.0.0");
        assert!(m.includes(&Version::parse("2.5.0").unwrap()));
    }
}
