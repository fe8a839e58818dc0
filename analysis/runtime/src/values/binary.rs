//! `Binary` values: Base64 decoding in Ruby's strict, lenient and URL-safe
//! flavours (as `Binary.new(str, format)` uses them) and the encodings the
//! string formats print.

fn b64_value(c: u8) -> Option<u32> {
    match c {
        b'A'..=b'Z' => Some((c - b'A') as u32),
        b'a'..=b'z' => Some((c - b'a') as u32 + 26),
        b'0'..=b'9' => Some((c - b'0') as u32 + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Ruby's `Base64.strict_decode64`: length a multiple of four, only
/// alphabet characters, `=` padding at the end with no stray bits.
pub fn decode_strict(s: &str) -> Result<Vec<u8>, String> {
    let bad = || "invalid base64".to_string();
    let b = s.as_bytes();
    if !b.len().is_multiple_of(4) {
        return Err(bad());
    }
    let mut out = Vec::with_capacity(b.len() / 4 * 3);
    for (i, chunk) in b.chunks(4).enumerate() {
        let last = i == b.len() / 4 - 1;
        let v: Vec<Option<u32>> = chunk.iter().map(|c| b64_value(*c)).collect();
        let (a, bb) = (v[0].ok_or_else(bad)?, v[1].ok_or_else(bad)?);
        match (v[2], v[3], chunk[2], chunk[3]) {
            (Some(c), Some(d), _, _) => {
                let n = (a << 18) | (bb << 12) | (c << 6) | d;
                out.extend_from_slice(&[(n >> 16) as u8, (n >> 8) as u8, n as u8]);
            }
            (Some(c), None, _, b'=') if last => {
                if c & 0x3 != 0 {
                    return Err(bad());
                }
                let n = (a << 18) | (bb << 12) | (c << 6);
                out.extend_from_slice(&[(n >> 16) as u8, (n >> 8) as u8]);
            }
            (None, None, b'=', b'=') if last => {
                if bb & 0xf != 0 {
                    return Err(bad());
                }
                out.push(((a << 2) | (bb >> 4)) as u8);
            }
            _ => return Err(bad()),
        }
    }
    Ok(out)
}

/// Ruby's lenient `Base64.decode64` (`unpack('m')`): characters outside the
/// alphabet are skipped, decoding stops at padding, a trailing partial group
/// yields what it can.
pub fn decode_lenient(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let take = |i: &mut usize, stop_at_pad: bool| -> Option<u32> {
        while *i < b.len() {
            if let Some(v) = b64_value(b[*i]) {
                *i += 1;
                return Some(v);
            }
            if stop_at_pad && b[*i] == b'=' {
                return None;
            }
            *i += 1;
        }
        None
    };
    while let Some(a) = take(&mut i, false) {
        let Some(bb) = take(&mut i, false) else { break };
        let Some(c) = take(&mut i, true) else {
            out.push(((a << 2) | (bb >> 4)) as u8);
            break;
        };
        let Some(d) = take(&mut i, true) else {
            out.push(((a << 2) | (bb >> 4)) as u8);
            out.push(((bb << 4) | (c >> 2)) as u8);
            break;
        };
        out.extend_from_slice(&[
            ((a << 2) | (bb >> 4)) as u8,
            ((bb << 4) | (c >> 2)) as u8,
            ((c << 6) | d) as u8,
        ]);
    }
    out
}

/// Ruby's `Base64.urlsafe_decode64`: `-_` for `+/`, padding optional.
pub fn decode_urlsafe(s: &str) -> Result<Vec<u8>, String> {
    let mut t: String = s
        .chars()
        .map(|c| match c {
            '-' => '+',
            '_' => '/',
            c => c,
        })
        .collect();
    if !t.ends_with('=') {
        while !t.len().is_multiple_of(4) {
            t.push('=');
        }
    }
    decode_strict(&t)
}

/// Strict Base64 (no line breaks).
pub fn encode_strict(bytes: &[u8]) -> String {
    super::format::binary_to_base64(bytes)
}

/// Ruby's `Base64.encode64`: lines of 60 characters, each ending in a newline.
pub fn encode_relaxed(bytes: &[u8]) -> String {
    let strict = encode_strict(bytes);
    let mut out = String::new();
    for chunk in strict.as_bytes().chunks(60) {
        out.push_str(&String::from_utf8_lossy(chunk));
        out.push('\n');
    }
    out
}

/// Ruby's `Base64.urlsafe_encode64` (padded).
pub fn encode_urlsafe(bytes: &[u8]) -> String {
    encode_strict(bytes).replace('+', "-").replace('/', "_")
}

/// `Binary.new(str, format)`: `%B` strict Base64 (the default), `%b` lenient
/// (Puppet pads the input first), `%u` URL-safe, `%s` and `%r` the string's
/// own bytes.
pub fn from_string(s: &str, format: &str) -> Result<Vec<u8>, String> {
    match format {
        "%B" => decode_strict(s),
        "%b" => {
            let padded = format!("{}{}", s, "=".repeat(s.len() % 3));
            Ok(decode_lenient(&padded))
        }
        "%u" => decode_urlsafe(s),
        "%s" | "%r" => Ok(s.as_bytes().to_vec()),
        other => Err(format!("Unsupported Base64 format '{}'", other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoding_flavours() {
        assert_eq!(decode_strict("aGVsbG8=").unwrap(), b"hello");
        assert!(decode_strict("aGVsbG8").is_err());
        assert!(decode_strict("aGk").is_err());
        assert!(decode_strict("aGl=").is_err());
        assert_eq!(decode_strict("").unwrap(), b"");
        assert_eq!(decode_lenient("aGVsbG8"), b"hello");
        assert_eq!(decode_lenient("aGV s*bG8="), b"hello");
        assert_eq!(decode_lenient("aGVsbG8=aGk="), b"hello");
        assert_eq!(decode_lenient("=aGk="), b"hi");
        assert_eq!(decode_lenient("a"), b"");
        assert_eq!(decode_urlsafe("aGk").unwrap(), b"hi");
        assert_eq!(from_string("hi", "%s").unwrap(), b"hi");
        assert!(from_string("hi", "%x").is_err());
    }

    #[test]
    fn encodings() {
        let long = vec![b'x'; 50];
        assert_eq!(
            encode_relaxed(&long),
            "eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4\neHh4eHg=\n"
        );
        assert_eq!(encode_urlsafe(&[0xfb, 0xff]), "-_8=");
    }
}
