//! Counting the matches of a plain disjunction of terms (bare query words, the common query)
//! without a union scorer: every term's postings are decoded block by block into one bitset per
//! segment, and the set bits that are alive (or that the filter mask admits) are counted, split
//! per vertical when asked. The union scorer did the same work one document at a time and was
//! most of a keyword search.

use tantivy::schema::IndexRecordOption;
use tantivy::{Searcher, Term};

use crate::deadline::Deadline;
use crate::error::Result;
use crate::facets::VerticalCounts;
use crate::search::collectors::CountCollector;
use crate::search::filter_mask::FilterMask;

/// Live documents holding at least one of `terms` (and admitted by `mask`, when given), segment
/// by segment (the deadline is checked between segments), counted by `counter`.
pub fn count_postings(searcher: &Searcher, terms: &[Term], mask: Option<&FilterMask>, counter: &CountCollector, deadline: Deadline) -> Result<(VerticalCounts, bool)> {
    let mut counted = VerticalCounts::default();
    let mut bits: Vec<u64> = Vec::new();
    let timed_out = deadline.walk_segments(searcher, |segment_ord, reader| {
        bits.clear();
        bits.resize((reader.max_doc() as usize).div_ceil(64), 0);
        for term in terms {
            let inverted = reader.inverted_index(term.field())?;
            let Some(info) = inverted.get_term_info(term)? else { continue };
            let mut postings = inverted.read_block_postings_from_terminfo(&info, IndexRecordOption::Basic)?;
            while !postings.docs().is_empty() {
                for &doc in postings.docs() {
                    bits[(doc >> 6) as usize] |= 1u64 << (doc & 63);
                }
                postings.advance();
            }
        }
        let alive = reader.alive_bitset();
        let mut tally = counter.segment(segment_ord);
        // The mask holds live documents only; without one each set bit is checked for deletion.
        let admitted = mask.map(|mask| mask.segment(segment_ord));
        for (word_index, word) in bits.iter().enumerate() {
            let mut word = *word & admitted.map_or(u64::MAX, |admitted| admitted[word_index]);
            while word != 0 {
                let doc = (word_index as u32) * 64 + word.trailing_zeros();
                word &= word - 1;
                if admitted.is_some() || alive.is_none_or(|alive| alive.is_alive(doc)) {
                    tally.add(doc);
                }
            }
        }
        counted.merge(tally.counts());
        Ok(())
    })?;
    Ok((counted, timed_out))
}
