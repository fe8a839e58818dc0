//! "Did you mean" suggestions for misspelled names and values.
//!
//! Uses the optimal-string-alignment edit distance (Levenshtein plus adjacent
//! transpositions, so `runnign` is one edit from `running`), compared
//! case-insensitively, with a threshold that grows with the word's length so
//! short names do not attract unrelated candidates.

/// Edit distance between `a` and `b` (insertions, deletions, substitutions
/// and adjacent transpositions each cost 1), ignoring ASCII case.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    let (n, m) = (a.len(), b.len());
    // rows[i][j]: distance between a[..i] and b[..j]; three rolling rows.
    let mut prev2 = vec![0usize; m + 1];
    let mut prev: Vec<usize> = (0..=m).collect();
    let mut cur = vec![0usize; m + 1];
    for i in 1..=n {
        cur[0] = i;
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(prev2[j - 2] + 1);
            }
            cur[j] = d;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[m]
}

/// The largest distance still worth suggesting for a word of `len` chars.
fn threshold(len: usize) -> usize {
    match len {
        0..=2 => 1,
        3..=5 => 2,
        _ => 3.max(len / 3),
    }
}

/// Candidates close to `word`, best first (ties keep candidate order), at
/// most `limit` of them. An exact (case-insensitive) match is not suggested.
pub fn suggest<'a, I>(word: &str, candidates: I, limit: usize) -> Vec<String>
where
    I: IntoIterator<Item = &'a str>,
{
    let word_chars = word.chars().count();
    let max = threshold(word_chars);
    let mut scored: Vec<(usize, usize, &str)> = Vec::new();
    for (i, c) in candidates.into_iter().enumerate() {
        if c.eq_ignore_ascii_case(word) || scored.iter().any(|(_, _, s)| *s == c) {
            continue;
        }
        // A prefix of the candidate (`pack` for `package`) is also a good hint.
        let prefix = word.len() >= 3
            && c.len() >= word.len()
            && c.as_bytes()[..word.len()].eq_ignore_ascii_case(word.as_bytes());
        // The distance is at least the difference in length: most
        // candidates are ruled out without computing it.
        if !prefix && c.chars().count().abs_diff(word_chars) > max {
            continue;
        }
        let d = edit_distance(word, c);
        if d <= max || prefix {
            scored.push((if prefix { d.min(max) } else { d }, i, c));
        }
    }
    scored.sort_by_key(|(d, i, _)| (*d, *i));
    scored
        .into_iter()
        .take(limit)
        .map(|(_, _, c)| c.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("runing", "running"), 1);
        assert_eq!(edit_distance("runnign", "running"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("FILE", "file"), 0);
    }

    #[test]
    fn suggestions_are_ranked_and_bounded() {
        let c = ["running", "stopped", "true", "false"];
        assert_eq!(suggest("runing", c, 3), vec!["running"]);
        assert!(suggest("xyzzy", c, 3).is_empty());
        assert!(suggest("running", c, 3).is_empty());
    }
}
