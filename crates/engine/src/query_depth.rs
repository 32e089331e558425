//! How deeply a query nests its groups. Tantivy's query grammar parses a group by recursion, so
//! a query of a few thousand `(` overflows a worker thread's stack (a SIGSEGV that takes the
//! whole process down). Searches refuse a query nested deeper than `MAX_QUERY_NESTING` before
//! it reaches the parser.

/// The deepest nesting of parenthesised groups a query may have (a person writes two or three).
pub const MAX_QUERY_NESTING: usize = 32;

/// The deepest nesting of `(` in `text`, outside double-quoted phrases (the grammar reads a
/// phrase as words, not as groups). An unclosed group counts as open to the end.
pub fn query_nesting(text: &str) -> usize {
    let mut depth = 0usize;
    let mut deepest = 0usize;
    let mut in_phrase = false;
    for character in text.chars() {
        match character {
            '"' => in_phrase = !in_phrase,
            '(' if !in_phrase => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            ')' if !in_phrase => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_deepest_group_outside_phrases() {
        assert_eq!(query_nesting("bread water"), 0);
        assert_eq!(query_nesting("(a OR (b AND c)) d"), 2);
        assert_eq!(query_nesting("((a) (b)) ((c))"), 2);
        assert_eq!(query_nesting("\"((((\" a"), 0);
        assert_eq!(query_nesting(")))((("), 3);
        assert_eq!(query_nesting(&"(".repeat(1500)), 1500);
    }
}
