//! Facet counts over a match set, read from fast-field columns segment by segment: host,
//! vertical, source and content type counts and a publish-year histogram. Counts are exact per
//! shard; the pool sums them across shards, so they are exact overall.

use std::collections::HashMap;
use std::sync::Arc;

use serde::Serialize;
use tantivy::collector::{Collector, SegmentCollector};
use tantivy::columnar::{Cardinality, Column, StrColumn};
use tantivy::{DocId, Score, Searcher, SegmentOrdinal, SegmentReader};

#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct FacetCounts {
    pub host: HashMap<String, u64>,
    pub vertical: HashMap<String, u64>,
    pub source: HashMap<String, u64>,
    pub content_type: HashMap<String, u64>,
    pub authority: HashMap<String, u64>,
    pub topics: HashMap<String, u64>,
    /// Publish year (UTC) -> passages; undated passages are not counted here.
    pub published_year: HashMap<String, u64>,
}

const KEYWORD_FACETS: [&str; 6] = ["host", "vertical", "source", "content_type", "authority", "topics"];

pub struct FacetCollector;

/// Counts indexed by term ordinal (a column's dictionary is per segment), read a block of
/// matches at a time: one batched read per single-valued column and block.
pub struct SegmentFacetCollector {
    columns: Vec<Option<StrColumn>>,
    ordinal_counts: Vec<Vec<u64>>,
    published_at: Option<Column<i64>>,
    year_counts: HashMap<i64, u64>,
    ordinals: Vec<Option<u64>>,
    instants: Vec<Option<i64>>,
}

/// Proleptic Gregorian year of a unix timestamp (days-to-civil, Howard Hinnant).
pub fn year_of(unix_seconds: i64) -> i64 {
    let days = unix_seconds.div_euclid(86_400);
    let shifted = days + 719_468;
    let era = shifted.div_euclid(146_097);
    let day_of_era = shifted - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let month = if month_index < 10 { month_index + 3 } else { month_index - 9 };
    year_of_era + era * 400 + if month <= 2 { 1 } else { 0 }
}

impl Collector for FacetCollector {
    type Fruit = FacetCounts;
    type Child = SegmentFacetCollector;

    fn for_segment(&self, _segment: SegmentOrdinal, reader: &SegmentReader) -> tantivy::Result<SegmentFacetCollector> {
        let fast_fields = reader.fast_fields();
        let mut columns = Vec::with_capacity(KEYWORD_FACETS.len());
        for name in KEYWORD_FACETS {
            columns.push(fast_fields.str(name)?);
        }
        let ordinal_counts = columns.iter().map(|column| vec![0; column.as_ref().map_or(0, |column| column.dictionary().num_terms())]).collect();
        Ok(SegmentFacetCollector {
            ordinal_counts,
            columns,
            published_at: fast_fields.i64("published_at").ok(),
            year_counts: HashMap::new(),
            ordinals: Vec::new(),
            instants: Vec::new(),
        })
    }

    fn requires_scoring(&self) -> bool {
        false
    }

    fn merge_fruits(&self, fruits: Vec<FacetCounts>) -> tantivy::Result<FacetCounts> {
        let mut merged = FacetCounts::default();
        for fruit in fruits {
            merged.merge(fruit);
        }
        Ok(merged)
    }
}

impl SegmentCollector for SegmentFacetCollector {
    type Fruit = FacetCounts;

    /// One match (tantivy collects one at a time when the segment has deletions).
    fn collect(&mut self, doc: DocId, _score: Score) {
        for (column, counts) in self.columns.iter().zip(self.ordinal_counts.iter_mut()) {
            let Some(column) = column else { continue };
            column.term_ords(doc).for_each(|ordinal| count_ordinal(counts, ordinal));
        }
        if let Some(instant) = self.published_at.as_ref().and_then(|published_at| published_at.first(doc)) {
            *self.year_counts.entry(year_of(instant)).or_insert(0) += 1;
        }
    }

    /// A block of matches (segments without deletions): one batched read per single-valued column.
    fn collect_block(&mut self, docs: &[DocId]) {
        for (column, counts) in self.columns.iter().zip(self.ordinal_counts.iter_mut()) {
            let Some(column) = column else { continue };
            if column.ords().get_cardinality() == Cardinality::Multivalued {
                for doc in docs {
                    column.term_ords(*doc).for_each(|ordinal| count_ordinal(counts, ordinal));
                }
            } else {
                self.ordinals.resize(docs.len(), None);
                column.ords().first_vals(docs, &mut self.ordinals);
                self.ordinals.iter().flatten().for_each(|ordinal| count_ordinal(counts, *ordinal));
            }
        }
        if let Some(published_at) = &self.published_at {
            self.instants.resize(docs.len(), None);
            published_at.first_vals(docs, &mut self.instants);
            for instant in self.instants.iter().flatten() {
                *self.year_counts.entry(year_of(*instant)).or_insert(0) += 1;
            }
        }
    }

    fn harvest(self) -> FacetCounts {
        let mut named: Vec<HashMap<String, u64>> = Vec::with_capacity(self.columns.len());
        for (column, counts) in self.columns.iter().zip(self.ordinal_counts) {
            let mut by_name = HashMap::new();
            if let Some(column) = column {
                let seen: Vec<(u64, u64)> =
                    counts.into_iter().enumerate().filter(|(_, count)| *count > 0).map(|(ordinal, count)| (ordinal as u64, count)).collect();
                let names = names_of_sorted_ordinals(column, seen.iter().map(|(ordinal, _)| *ordinal));
                by_name.extend(names.into_iter().zip(seen.into_iter().map(|(_, count)| count)));
            }
            named.push(by_name);
        }
        let mut named = named.into_iter();
        FacetCounts {
            host: named.next().unwrap_or_default(),
            vertical: named.next().unwrap_or_default(),
            source: named.next().unwrap_or_default(),
            content_type: named.next().unwrap_or_default(),
            authority: named.next().unwrap_or_default(),
            topics: named.next().unwrap_or_default(),
            published_year: self.year_counts.into_iter().map(|(year, count)| (year.to_string(), count)).collect(),
        }
    }
}

/// One more match of a term ordinal (an ordinal beyond the dictionary is not counted).
#[inline]
fn count_ordinal(counts: &mut [u64], ordinal: u64) {
    if let Some(count) = counts.get_mut(ordinal as usize) {
        *count += 1;
    }
}

/// The terms of ascending ordinals, in one pass over the column's dictionary (looking ordinals
/// up one by one decompressed a dictionary block per lookup: most of a facet count's time).
fn names_of_sorted_ordinals(column: &StrColumn, ordinals: impl Iterator<Item = u64>) -> Vec<String> {
    let ordinals: Vec<u64> = ordinals.collect();
    let mut names = Vec::with_capacity(ordinals.len());
    let complete = column
        .dictionary()
        .sorted_ords_to_term_cb(&ordinals, |bytes| names.push(String::from_utf8_lossy(bytes).into_owned()))
        .unwrap_or(false);
    if !complete {
        names.truncate(0);
    }
    names
}

impl FacetCounts {
    pub fn merge(&mut self, other: FacetCounts) {
        let pairs = [
            (&mut self.host, other.host),
            (&mut self.vertical, other.vertical),
            (&mut self.source, other.source),
            (&mut self.content_type, other.content_type),
            (&mut self.authority, other.authority),
            (&mut self.topics, other.topics),
            (&mut self.published_year, other.published_year),
        ];
        for (into, from) in pairs {
            for (key, count) in from {
                *into.entry(key).or_insert(0) += count;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::{vertical_masks, year_of, SegmentVerticals, VerticalTally, NO_VERTICAL};

    /// A segment of 1,000 documents over 10 verticals (every 7th without one), counted one
    /// 64-document word at a time by popcounts over the per-vertical bitsets and by a read per
    /// match: words of every density, from one match to all 64, give the same counts.
    #[test]
    fn the_per_vertical_bitsets_count_what_a_read_per_match_counts() {
        let names: Vec<String> = (0..10).map(|vertical| format!("vertical-{vertical}")).collect();
        let ordinals: Vec<u16> = (0..1_000u32).map(|doc| if doc % 7 == 3 { NO_VERTICAL } else { ((doc * 2_654_435_761) >> 7) as u16 % 10 }).collect();
        let masked = SegmentVerticals { masks: Some(Arc::new(vertical_masks(&ordinals, names.len()))), ordinals: Arc::new(ordinals.clone()), names: Arc::new(names.clone()) };
        let unmasked = SegmentVerticals { masks: None, ..masked.clone() };
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut by_masks = VerticalTally::new(Some(masked));
        let mut by_reads = VerticalTally::new(Some(unmasked));
        for round in 0..200u32 {
            for word_index in 0..(ordinals.len() as u32).div_ceil(64) {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                // Sparse to full words: AND together 0 to 4 random words, or take all 64.
                let word = if round % 50 == 0 { u64::MAX } else { (0..round % 5).fold(state, |word, shift| word & state.rotate_left(13 * shift + 7)) };
                let word = if word_index == 15 { word & ((1u64 << (ordinals.len() % 64)) - 1) } else { word };
                by_masks.add_word(word_index, word);
                by_reads.add_word(word_index, word);
            }
        }
        assert!(by_reads.counts.iter().all(|count| *count > 0));
        assert_eq!(by_masks.total, by_reads.total);
        assert_eq!(by_masks.counts, by_reads.counts);
        assert!(by_reads.counts.iter().sum::<u64>() < by_reads.total, "documents without a vertical are counted in all only");
    }

    #[test]
    fn years_of_known_instants() {
        assert_eq!(year_of(0), 1970);
        assert_eq!(year_of(951_782_400), 2000); // 2000-02-29
        assert_eq!(year_of(1_704_067_199), 2023); // 2023-12-31T23:59:59
        assert_eq!(year_of(1_704_067_200), 2024);
        assert_eq!(year_of(-1), 1969);
    }
}

/// The vertical of every document of a searcher, decoded once per reader generation into one
/// small integer per document, so the router's counting pass is an array read per match
/// (reading the column per match cost more than finding the matches). With at most
/// `MASKED_VERTICALS` verticals, each segment also holds one bitset per vertical, so a 64-document
/// word of matches is split per vertical by a popcount per vertical instead of a read per match.
pub struct VerticalTable {
    segments: Vec<SegmentVerticals>,
}

#[derive(Clone)]
struct SegmentVerticals {
    /// Per doc: index into `names`, or NO_VERTICAL.
    ordinals: Arc<Vec<u16>>,
    /// With at most `MASKED_VERTICALS` names: for word `w` of the segment (documents `64 w` to
    /// `64 w + 63`) and vertical `v`, `masks[w * names.len() + v]` has bit `n` set when document
    /// `64 w + n` is of vertical `v` (the words of one document range side by side).
    masks: Option<Arc<Vec<u64>>>,
    names: Arc<Vec<String>>,
}

const NO_VERTICAL: u16 = u16::MAX;

/// The most verticals for which a segment keeps a bitset per vertical (as many bits per document;
/// the ordinals take 16). The demo corpus has 10.
const MASKED_VERTICALS: usize = 16;

impl VerticalTable {
    pub fn build(searcher: &Searcher) -> tantivy::Result<VerticalTable> {
        let mut segments = Vec::with_capacity(searcher.segment_readers().len());
        for reader in searcher.segment_readers() {
            let mut names = Vec::new();
            let mut ordinals = vec![NO_VERTICAL; reader.max_doc() as usize];
            if let Some(column) = reader.fast_fields().str("vertical")? {
                let terms = column.dictionary().num_terms();
                if terms < NO_VERTICAL as usize {
                    names = names_of_sorted_ordinals(&column, 0..terms as u64);
                    for (doc, slot) in ordinals.iter_mut().enumerate() {
                        if let Some(ordinal) = column.term_ords(doc as DocId).next() {
                            *slot = ordinal as u16;
                        }
                    }
                }
            }
            let masks = (!names.is_empty() && names.len() <= MASKED_VERTICALS).then(|| Arc::new(vertical_masks(&ordinals, names.len())));
            segments.push(SegmentVerticals { ordinals: Arc::new(ordinals), masks, names: Arc::new(names) });
        }
        Ok(VerticalTable { segments })
    }

    /// A tally of one segment's matches, split per vertical.
    pub fn tally(&self, segment_ord: usize) -> VerticalTally {
        VerticalTally::new(self.segments.get(segment_ord).cloned())
    }
}

/// One bitset per vertical over a segment's documents, interleaved word by word (see
/// `SegmentVerticals::masks`).
fn vertical_masks(ordinals: &[u16], names: usize) -> Vec<u64> {
    let mut masks = vec![0u64; ordinals.len().div_ceil(64) * names];
    for (doc, &ordinal) in ordinals.iter().enumerate() {
        let ordinal = usize::from(ordinal);
        if ordinal < names {
            masks[(doc / 64) * names + ordinal] |= 1u64 << (doc % 64);
        }
    }
    masks
}

/// Matches in all, and per vertical.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VerticalCounts {
    pub total: u64,
    pub by_vertical: HashMap<String, u64>,
}

/// Matches of one segment counted, in all and per vertical (no split without a table).
pub struct VerticalTally {
    verticals: Option<SegmentVerticals>,
    total: u64,
    counts: Vec<u64>,
}

impl VerticalTally {
    fn new(verticals: Option<SegmentVerticals>) -> Self {
        let counts = vec![0; verticals.as_ref().map_or(0, |verticals| verticals.names.len())];
        VerticalTally { verticals, total: 0, counts }
    }

    /// A segment's matches counted in all only.
    pub fn total_only() -> Self {
        VerticalTally::new(None)
    }

    #[inline]
    pub fn add(&mut self, doc: DocId) {
        self.total += 1;
        if let Some(verticals) = &self.verticals {
            if let Some(count) = verticals.ordinals.get(doc as usize).and_then(|ordinal| self.counts.get_mut(*ordinal as usize)) {
                *count += 1;
            }
        }
    }

    /// Add the documents of one 64-document word of a segment bitset (bit `n` of word `w` is
    /// document `64 w + n`): counted by popcount; split per vertical by a popcount per vertical
    /// over the segment's bitsets when it has them, else by a read per document.
    #[inline]
    pub fn add_word(&mut self, word_index: u32, word: u64) {
        self.total += u64::from(word.count_ones());
        let Some(verticals) = self.verticals.as_ref().filter(|_| word != 0) else { return };
        let names = verticals.names.len();
        let start = word_index as usize * names;
        if let Some(row) = verticals.masks.as_ref().and_then(|masks| masks.get(start..start + names)) {
            for (count, mask) in self.counts.iter_mut().zip(row) {
                *count += u64::from((word & mask).count_ones());
            }
            return;
        }
        let mut rest = word;
        while rest != 0 {
            let doc = word_index * 64 + rest.trailing_zeros();
            rest &= rest - 1;
            if let Some(count) = verticals.ordinals.get(doc as usize).and_then(|ordinal| self.counts.get_mut(*ordinal as usize)) {
                *count += 1;
            }
        }
    }

    pub fn counts(self) -> VerticalCounts {
        let mut by_vertical = HashMap::new();
        if let Some(verticals) = &self.verticals {
            for (ordinal, count) in self.counts.iter().enumerate().filter(|(_, count)| **count > 0) {
                by_vertical.insert(verticals.names[ordinal].clone(), *count);
            }
        }
        VerticalCounts { total: self.total, by_vertical }
    }
}

impl VerticalCounts {
    pub fn merge(&mut self, other: VerticalCounts) {
        self.total += other.total;
        for (vertical, count) in other.by_vertical {
            *self.by_vertical.entry(vertical).or_insert(0) += count;
        }
    }
}

impl SegmentCollector for VerticalTally {
    type Fruit = VerticalCounts;

    fn collect(&mut self, doc: DocId, _score: Score) {
        self.add(doc);
    }

    /// A block of matches (segments without deletions): counted at once when not split.
    fn collect_block(&mut self, docs: &[DocId]) {
        if self.verticals.is_none() {
            self.total += docs.len() as u64;
            return;
        }
        for doc in docs {
            self.add(*doc);
        }
    }

    fn harvest(self) -> VerticalCounts {
        self.counts()
    }
}
