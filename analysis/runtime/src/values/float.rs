//! Ruby-compatible float printing (`Float#to_s`), which is what Puppet prints.

/// Formats a float exactly like Ruby's `Float#to_s`: shortest round-trip digits,
/// fixed notation for decimal exponents in `-4..16`, otherwise `d.ddde+XX`,
/// always with a fractional part (`1.0`, `1.0e+16`), and `NaN`/`Infinity`.
pub fn ruby_float_to_s(f: f64) -> String {
    if f.is_nan() {
        return "NaN".to_string();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity" } else { "-Infinity" }.to_string();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0.0" } else { "0.0" }.to_string();
    }
    // Rust's `{:e}` gives the shortest round-trip digits: "d.ddde<exp>".
    let sci = format!("{:e}", f);
    let (mantissa, exp) = match sci.split_once('e') {
        Some((m, e)) => (m, e.parse::<i32>().unwrap_or(0)),
        None => (sci.as_str(), 0),
    };
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    // decpt: position of the decimal point relative to the digit string.
    let decpt = exp + 1;
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    if decpt > 0 && decpt < 16 {
        let d = decpt as usize;
        if digits.len() <= d {
            out.push_str(&digits);
            for _ in digits.len()..d {
                out.push('0');
            }
            out.push_str(".0");
        } else {
            out.push_str(&digits[..d]);
            out.push('.');
            out.push_str(&digits[d..]);
        }
    } else if decpt <= 0 && decpt > -4 {
        out.push_str("0.");
        for _ in 0..(-decpt) {
            out.push('0');
        }
        out.push_str(&digits);
    } else {
        out.push_str(&digits[..1]);
        out.push('.');
        if digits.len() > 1 {
            out.push_str(&digits[1..]);
        } else {
            out.push('0');
        }
        let e = decpt - 1;
        out.push('e');
        out.push(if e < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", e.abs()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::ruby_float_to_s as s;

    #[test]
    fn ruby_forms() {
        assert_eq!(s(2.0625), "2.0625");
        assert_eq!(s(1500.0), "1500.0");
        assert_eq!(s(0.001), "0.001");
        assert_eq!(s(1.0), "1.0");
        assert_eq!(s(12345.6), "12345.6");
        assert_eq!(s(1.7976931348623157e308), "1.7976931348623157e+308");
        assert_eq!(s(5e-324), "5.0e-324");
        assert_eq!(s(0.30000000000000004), "0.30000000000000004");
        assert_eq!(s(-0.0), "-0.0");
        assert_eq!(s(1e16), "1.0e+16");
        assert_eq!(s(1e15), "1.0e+15");
        assert_eq!(s(999999999999999.9), "999999999999999.9");
        assert_eq!(s(123456789012345.0), "123456789012345.0");
        assert_eq!(s(0.0001), "0.0001");
        assert_eq!(s(0.00001), "1.0e-05");
        assert_eq!(s(0.0004166666666666667), "0.0004166666666666667");
        assert_eq!(s(f64::NAN), "NaN");
    }
}
