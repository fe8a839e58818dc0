//! String-to-number conversion as Puppet's arithmetic does it (`Utils.to_n`).

/// A number produced by conversion; integers may exceed i64 (Puppet then
/// reports an overflow when the result is used).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// An integer (possibly outside the i64 range).
    Int(i128),
    /// A float.
    Float(f64),
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// Converts a string the way Puppet's arithmetic coerces operands: optional sign
/// and blanks, decimal, octal (`0`-prefixed), hex (`0x`), or a decimal float with
/// optional exponent. Returns `None` when the string is not numeric.
pub fn string_to_number(s: &str) -> Option<Number> {
    let s = s.strip_prefix("::").unwrap_or(s);
    let t = s.trim_matches(is_blank);
    let (negative, t) = match t.chars().next() {
        Some('-') => (true, t[1..].trim_start_matches(is_blank)),
        Some('+') => (false, t[1..].trim_start_matches(is_blank)),
        _ => (false, t),
    };
    if t.is_empty() {
        return None;
    }
    let bytes = t.as_bytes();
    // Hex
    if bytes.len() > 2 && bytes[0] == b'0' && (bytes[1] == b'x' || bytes[1] == b'X') {
        let digits = &t[2..];
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let v = i128::from_str_radix(digits, 16).unwrap_or(i128::MAX);
        return Some(Number::Int(if negative { -v } else { v }));
    }
    // Integer part: 0?\d+
    let int_len = t.bytes().take_while(u8::is_ascii_digit).count();
    if int_len == 0 {
        return None;
    }
    let int_part = &t[..int_len];
    let rest = &t[int_len..];
    if rest.is_empty() {
        // Ruby Integer(): leading 0 means octal.
        let v = if int_part.len() > 1 && int_part.starts_with('0') {
            if !int_part.bytes().all(|b| (b'0'..=b'7').contains(&b)) {
                return None;
            }
            i128::from_str_radix(&int_part[1..], 8).unwrap_or(i128::MAX)
        } else {
            int_part.parse::<i128>().unwrap_or(i128::MAX)
        };
        return Some(Number::Int(if negative { -v } else { v }));
    }
    // Fraction / exponent: (?:\.\d+)?(?:[eE]-?\d+)?
    let mut r = rest;
    let mut has_fraction = false;
    if let Some(f) = r.strip_prefix('.') {
        let n = f.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return None;
        }
        has_fraction = true;
        r = &f[n..];
    }
    let mut has_exp = false;
    if let Some(e) = r.strip_prefix(['e', 'E']) {
        let e = e.strip_prefix('-').unwrap_or(e);
        let n = e.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return None;
        }
        has_exp = true;
        r = &e[n..];
    }
    if !r.is_empty() || !(has_fraction || has_exp) {
        return None;
    }
    // Integer(match[4]) must be valid (octal rules apply), and 0 with only zeros
    // before an exponent is rejected.
    if int_part.len() > 1
        && int_part.starts_with('0')
        && !int_part.bytes().all(|b| (b'0'..=b'7').contains(&b))
    {
        return None;
    }
    let int_zero = int_part.bytes().all(|b| b == b'0');
    if int_zero {
        let frac_and_exp = rest.trim_start_matches('.');
        let zeros = frac_and_exp.bytes().take_while(|b| *b == b'0').count();
        if frac_and_exp[zeros..].starts_with(['e', 'E']) {
            return None;
        }
    }
    let text = &t[..t.len() - r.len()];
    let v: f64 = text.parse().ok()?;
    if v.is_infinite() {
        return None;
    }
    Some(Number::Float(if negative { -v } else { v }))
}

/// Ruby's `Integer(str, radix)`: optional sign (blanks allowed after it),
/// prefixes `0x`, `0b`, `0o`/`0` (default radix), underscores between digits.
pub fn ruby_kernel_integer(s: &str, radix: Option<u32>) -> Option<i64> {
    ruby_kernel_integer_wide(s, radix).and_then(|n| i64::try_from(n).ok())
}

/// [`ruby_kernel_integer`] without the 64-bit bound (Ruby has big
/// integers); `None` beyond 128 bits.
pub fn ruby_kernel_integer_wide(s: &str, radix: Option<u32>) -> Option<i128> {
    let t = s.trim_matches(|c: char| c.is_ascii_whitespace());
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let lower = t.to_ascii_lowercase();
    let (radix, digits) = match radix {
        None => {
            if let Some(d) = lower.strip_prefix("0x") {
                (16, d.to_string())
            } else if let Some(d) = lower.strip_prefix("0b") {
                (2, d.to_string())
            } else if let Some(d) = lower.strip_prefix("0o") {
                (8, d.to_string())
            } else if lower.len() > 1 && lower.starts_with('0') {
                (8, lower[1..].to_string())
            } else {
                (10, lower.clone())
            }
        }
        Some(r) => {
            let d = match r {
                16 => lower.strip_prefix("0x").unwrap_or(&lower),
                2 => lower.strip_prefix("0b").unwrap_or(&lower),
                8 => lower
                    .strip_prefix("0o")
                    .or_else(|| lower.strip_prefix('0').filter(|x| !x.is_empty()))
                    .unwrap_or(&lower),
                _ => &lower,
            };
            (r, d.to_string())
        }
    };
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
    {
        return None;
    }
    let clean: String = digits.chars().filter(|c| *c != '_').collect();
    let v = i128::from_str_radix(&clean, radix).ok()?;
    Some(if neg { -v } else { v })
}

/// Ruby's `Kernel#Float(string)`: surrounding whitespace allowed, an
/// optional sign, a decimal number with single underscores between digits
/// (`.5` and exponents allowed, `5.` not), or a hexadecimal number with an
/// optional fraction and binary exponent (`0x1.8p1`).
pub fn ruby_kernel_float(s: &str) -> Option<f64> {
    let t = s.trim_matches(|c: char| c.is_ascii_whitespace() || c == '\x0b');
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    // digit runs joined by single underscores
    fn digits(t: &str, radix: u32) -> Option<(String, &str)> {
        let mut out = String::new();
        let mut rest = t;
        loop {
            let n = rest
                .char_indices()
                .find(|(_, c)| !c.is_digit(radix))
                .map_or(rest.len(), |(i, _)| i);
            if n == 0 {
                return None;
            }
            out.push_str(&rest[..n]);
            rest = &rest[n..];
            match rest.strip_prefix('_') {
                Some(r) if r.chars().next().is_some_and(|c| c.is_digit(radix)) => rest = r,
                _ => return Some((out, rest)),
            }
        }
    }
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        let (int, rest) = digits(h, 16)?;
        let mut v = 0f64;
        for c in int.chars() {
            v = v * 16.0 + c.to_digit(16)? as f64;
        }
        let rest = match rest.strip_prefix('.') {
            Some(r) => {
                let (frac, r) = digits(r, 16)?;
                let mut scale = 1.0 / 16.0;
                for c in frac.chars() {
                    v += c.to_digit(16)? as f64 * scale;
                    scale /= 16.0;
                }
                r
            }
            None => rest,
        };
        let rest = match rest.strip_prefix(['p', 'P']) {
            Some(r) => {
                let (eneg, r) = match r.as_bytes().first() {
                    Some(b'-') => (true, &r[1..]),
                    Some(b'+') => (false, &r[1..]),
                    _ => (false, r),
                };
                let (e, r) = digits(r, 10)?;
                let e: i32 = e.parse().ok()?;
                v *= 2f64.powi(if eneg { -e } else { e });
                r
            }
            None => rest,
        };
        if !rest.is_empty() {
            return None;
        }
        v
    } else {
        let mut text = String::new();
        let rest = match digits(t, 10) {
            Some((int, r)) => {
                text.push_str(&int);
                r
            }
            None if t.starts_with('.') => t,
            None => return None,
        };
        let rest = match rest.strip_prefix('.') {
            Some(r) => {
                let (frac, r) = digits(r, 10)?;
                text.push('.');
                text.push_str(&frac);
                r
            }
            None => rest,
        };
        let rest = match rest.strip_prefix(['e', 'E']) {
            Some(r) => {
                let (sign, r) = match r.as_bytes().first() {
                    Some(b'-') => ("-", &r[1..]),
                    Some(b'+') => ("", &r[1..]),
                    _ => ("", r),
                };
                let (e, r) = digits(r, 10)?;
                text.push('e');
                text.push_str(sign);
                text.push_str(&e);
                r
            }
            None => rest,
        };
        if !rest.is_empty() || text.is_empty() {
            return None;
        }
        if text.starts_with('.') {
            text.insert(0, '0');
        }
        text.parse::<f64>().ok()?
    };
    Some(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_float() {
        let f = ruby_kernel_float;
        assert_eq!(f("2.5"), Some(2.5));
        assert_eq!(f(" 2.5 "), Some(2.5));
        assert_eq!(f("\n2.5\n"), Some(2.5));
        assert_eq!(f("1_000.5"), Some(1000.5));
        assert_eq!(f("0x1A"), Some(26.0));
        assert_eq!(f("-0x10"), Some(-16.0));
        assert_eq!(f("0x1.8p1"), Some(3.0));
        assert_eq!(f("010"), Some(10.0));
        assert_eq!(f(".5"), Some(0.5));
        assert_eq!(f("1.5e+3"), Some(1500.0));
        for bad in [
            "0b11", "5.", "1e", "1__0", "_1", "1_", "Infinity", "2.5x", "",
        ] {
            assert_eq!(f(bad), None, "{bad}");
        }
    }

    #[test]
    fn conversions_from_conformance() {
        assert_eq!(string_to_number("10"), Some(Number::Int(10)));
        assert_eq!(string_to_number("0X10"), Some(Number::Int(16)));
        assert_eq!(string_to_number("010"), Some(Number::Int(8)));
        assert_eq!(string_to_number("1.5"), Some(Number::Float(1.5)));
        assert_eq!(string_to_number("1E3"), Some(Number::Float(1000.0)));
        assert_eq!(string_to_number("+5"), Some(Number::Int(5)));
        assert_eq!(string_to_number("- 5"), Some(Number::Int(-5)));
        assert_eq!(string_to_number(" 1 "), Some(Number::Int(1)));
        assert_eq!(string_to_number("\t5"), Some(Number::Int(5)));
        assert_eq!(string_to_number("1.5e-3"), Some(Number::Float(0.0015)));
        for bad in [
            "", "abc", "0b101", "08", "09", "0x", "0xFG", "1.", "12abc", "１",
        ] {
            assert_eq!(string_to_number(bad), None, "{bad}");
        }
        assert_eq!(
            string_to_number("9223372036854775808"),
            Some(Number::Int(9223372036854775808))
        );
    }
}
