//! Relevance over a disjunction of words and plain phrases (a hyphenated word parses to a
//! phrase: `carry-on baggage rules` is `"carry on" OR baggage OR rules`), reading a phrase's
//! positions only where they can change the answer.
//!
//! Tantivy's union scorer checks every phrase on every passage holding all of its words:
//! `"carry on"` read the positions of `on` (in 57% of the 1M demo passages) in each of the
//! 23,724 passages holding `carry`, 4.1 ms of a 4.1 ms search, though each of them also held
//! `rules` and so matched anyway. Here, two passes, as for bare words (`wand_top_k.rs`):
//!
//! 1. **The top k**: block-max WAND over word queries only, each phrase stood in for by its
//!    rarest word weighted by the phrase's IDF (the BM25 the phrase would score if it occurred
//!    as often as that word does: a bound, since each occurrence of a phrase is one of each of
//!    its words), every weight raised by `BOUND_MARGIN`. WAND calls back only for a passage
//!    whose bound beats the k-th best exact score so far; the callback computes the exact score
//!    (the clauses that match, added in clause order in f32 as the union scorer adds them,
//!    phrases by their positions) and keeps the passage when it ranks.
//! 2. **The count**: the words' postings into a bitset (as `postings_count.rs`), then each
//!    passage holding a phrase's rarest word but no word of the query checked for the phrase.
//!
//! Same scores, ranking, ties, total and counts per vertical as `OnePass` (the tests compare
//! the two).

use tantivy::fieldnorm::FieldNormReader;
use tantivy::postings::{Postings, SegmentPostings};
use tantivy::query::{BooleanQuery, Bm25Weight, BoostQuery, EnableScoring, Occur, PhraseQuery, Query, Scorer, TermQuery, Weight};
use tantivy::schema::{Field, IndexRecordOption, Schema};
use tantivy::{DocAddress, DocId, DocSet, Score, Searcher, SegmentReader, Term};

use crate::deadline::Deadline;
use crate::error::Result;
use crate::facets::VerticalCounts;
use crate::request::SearchRequest;
use crate::search::collectors::{admitted, CountCollector, TopKCollector};
use crate::search::filter_mask::FilterMask;
use crate::search::one_pass;
use crate::search::postings_count::count_postings_with;
use crate::search::queries::KeywordQueries;
use crate::search::query_shape::disjuncts;
use crate::search::{Ranked, ShardView};

/// One clause of the disjunction.
pub enum Clause {
    Word(Term),
    /// A phrase's words at consecutive positions, in order.
    Phrase(Vec<Term>),
}

impl Clause {
    fn field(&self) -> Field {
        match self {
            Clause::Word(term) => term.field(),
            Clause::Phrase(terms) => terms[0].field(),
        }
    }

    fn terms(&self) -> &[Term] {
        match self {
            Clause::Word(term) => std::slice::from_ref(term),
            Clause::Phrase(terms) => terms,
        }
    }
}

/// The clauses of `query` when it is a disjunction of words and plain phrases (consecutive
/// words, no slop) with at least one phrase, over fields indexed with positions. None for
/// anything else, a disjunction of bare words included (block-max WAND ranks those).
pub fn phrase_disjunction(query: &dyn Query, schema: &Schema) -> Option<Vec<Clause>> {
    let clauses: Vec<Clause> = disjuncts(query)?.iter().map(|(_, clause)| clause_of(clause.as_ref())).collect::<Option<_>>()?;
    let positioned = |field: Field| {
        schema.get_field_entry(field).field_type().get_index_record_option() == Some(IndexRecordOption::WithFreqsAndPositions)
    };
    let any_phrase = clauses.iter().any(|clause| matches!(clause, Clause::Phrase(_)));
    (any_phrase && clauses.iter().all(|clause| positioned(clause.field()))).then_some(clauses)
}

fn clause_of(query: &dyn Query) -> Option<Clause> {
    if let Some(term) = query.downcast_ref::<TermQuery>() {
        return Some(Clause::Word(term.term().clone()));
    }
    let phrase = query.downcast_ref::<PhraseQuery>()?;
    let terms = phrase.phrase_terms();
    // Tantivy keeps a phrase's offsets and slop private; a phrase equal to the plain phrase of
    // its words (offsets 0, 1, 2..., slop 0) is one.
    let plain = PhraseQuery::new(terms.clone());
    (format!("{phrase:?}") == format!("{plain:?}")).then_some(Clause::Phrase(terms))
}

/// Each bound's weight is raised by this share, so that the bound, summed in WAND's order,
/// stays above the exact score summed in clause order: the two orders round differently by a
/// few units in the last place of an f32 (about 1e-7 each), far below 1e-5.
const BOUND_MARGIN: Score = 1.0 + 1e-5;

pub fn run(shard: &ShardView, request: &SearchRequest, queries: KeywordQueries, clauses: Vec<Clause>, depth: usize, deadline: Deadline) -> Result<Ranked> {
    let searcher = &shard.searcher;
    let weights = clauses.iter().map(|clause| Bm25Weight::for_terms(searcher, clause.terms())).collect::<tantivy::Result<Vec<_>>>()?;
    let (top, top_timed_out) = if depth == 0 {
        (Vec::new(), false)
    } else {
        match bound_query(searcher, &clauses, &weights)? {
            Some(bound) => top_k(searcher, bound.as_ref(), &clauses, &weights, queries.ranked().1, depth, deadline)?,
            // A phrase whose words are in (almost) every passage: its rarest word's IDF rounds
            // to 0 in f32 and bounds nothing.
            None => return one_pass::run(shard, request, queries, depth, deadline),
        }
    };
    // Depth 0 counts what the count-only strategy counts: the words through the mask.
    let mask = if depth > 0 { queries.ranked().1 } else { queries.mask.as_deref() };
    let counter = CountCollector { verticals: request.vertical_counts.then_some(shard.verticals) };
    let (counted, count_timed_out) = count(searcher, &clauses, mask.unwrap_or(shard.live), &counter, deadline)?;
    Ok(Ranked {
        candidates: Ranked::scored(top),
        total: counted.total,
        vertical_counts: request.vertical_counts.then_some(counted.by_vertical),
        timed_out: top_timed_out || count_timed_out,
        match_query: queries.matching,
    })
}

/// The word query WAND ranks by: each word (raised by the margin) and, for each phrase, its
/// rarest word weighted by the phrase's IDF. None when a weight is not finite.
fn bound_query(searcher: &Searcher, clauses: &[Clause], weights: &[Bm25Weight]) -> Result<Option<Box<dyn Query>>> {
    let mut bounds: Vec<(Occur, Box<dyn Query>)> = Vec::with_capacity(clauses.len());
    for (clause, weight) in clauses.iter().zip(weights) {
        let (term, boost) = match clause {
            Clause::Word(term) => (term.clone(), BOUND_MARGIN),
            Clause::Phrase(terms) => {
                let rarest = rarest_word(searcher, terms)?;
                // BM25 is the IDF times a factor of the frequency and the length, the same
                // for every word of a field: the ratio of the weights is that of the IDFs.
                let ratio = weight.max_score() / Bm25Weight::for_terms(searcher, std::slice::from_ref(rarest))?.max_score();
                if !ratio.is_finite() {
                    return Ok(None);
                }
                (rarest.clone(), ratio * BOUND_MARGIN)
            }
        };
        let word = TermQuery::new(term, IndexRecordOption::WithFreqs);
        bounds.push((Occur::Should, Box::new(BoostQuery::new(Box::new(word), boost))));
    }
    Ok(Some(Box::new(BooleanQuery::new(bounds))))
}

/// The word of a phrase in the fewest passages.
fn rarest_word<'a>(searcher: &Searcher, terms: &'a [Term]) -> Result<&'a Term> {
    let mut rarest = (&terms[0], searcher.doc_freq(&terms[0])?);
    for term in &terms[1..] {
        let frequency = searcher.doc_freq(term)?;
        if frequency < rarest.1 {
            rarest = (term, frequency);
        }
    }
    Ok(rarest.0)
}

/// The `k` best exact scores that `mask` admits (every live passage without a mask), best first.
fn top_k(searcher: &Searcher, bound: &dyn Query, clauses: &[Clause], weights: &[Bm25Weight], mask: Option<&FilterMask>, k: usize, deadline: Deadline) -> Result<(Vec<(Score, DocAddress)>, bool)> {
    let mut top = TopKCollector::new(k);
    let bound = bound.weight(EnableScoring::enabled_from_searcher(searcher))?;
    let exact_weights = clauses
        .iter()
        .map(|clause| match clause {
            Clause::Word(term) => TermQuery::new(term.clone(), IndexRecordOption::WithFreqs).weight(EnableScoring::enabled_from_searcher(searcher)).map(Some),
            Clause::Phrase(_) => Ok(None),
        })
        .collect::<tantivy::Result<Vec<_>>>()?;
    let mut failure = None;
    let timed_out = deadline.walk_segments(searcher, |segment_ord, reader| {
        let alive = reader.alive_bitset();
        let mut exact = ExactScores::open(reader, clauses, weights, &exact_weights)?;
        bound.for_each_pruning(top.threshold(), reader, &mut |doc, _bound| {
            if failure.is_none() && admitted(mask, alive, segment_ord, doc) {
                match exact.score(doc) {
                    Ok(Some(score)) => top.collect(segment_ord, doc, score),
                    Ok(None) => {}
                    Err(error) => failure = Some(error),
                }
            }
            top.threshold()
        })?;
        failure.take().map_or(Ok(()), Err)
    })?;
    Ok((top.harvest(), timed_out))
}

/// The exact score of passages of one segment, asked in increasing order.
struct ExactScores<'a> {
    reader: &'a SegmentReader,
    clauses: Vec<SegmentClause<'a>>,
}

enum SegmentClause<'a> {
    Word(Box<dyn Scorer>),
    Phrase { phrase: PhraseCursor, weight: &'a Bm25Weight, fieldnorm: FieldNormReader },
}

impl<'a> ExactScores<'a> {
    fn open(reader: &'a SegmentReader, clauses: &[Clause], weights: &'a [Bm25Weight], exact_weights: &[Option<Box<dyn Weight>>]) -> Result<ExactScores<'a>> {
        let mut opened = Vec::with_capacity(clauses.len());
        for ((clause, weight), exact) in clauses.iter().zip(weights).zip(exact_weights) {
            opened.push(match (clause, exact) {
                (Clause::Word(_), Some(exact)) => SegmentClause::Word(exact.scorer(reader, 1.0)?),
                (clause, _) => {
                    let fieldnorm = reader.fieldnorms_readers().get_field(clause.field())?;
                    SegmentClause::Phrase {
                        phrase: PhraseCursor::new(clause.terms()),
                        weight,
                        fieldnorm: fieldnorm.unwrap_or_else(|| FieldNormReader::constant(reader.max_doc(), 1)),
                    }
                }
            });
        }
        Ok(ExactScores { reader, clauses: opened })
    }

    /// What the union scorer gives `doc`: the scores of the clauses that match, added in clause
    /// order; None when none matches.
    fn score(&mut self, doc: DocId) -> Result<Option<Score>> {
        let mut score: Score = 0.0;
        let mut matched = false;
        for clause in &mut self.clauses {
            match clause {
                SegmentClause::Word(scorer) => {
                    if scorer.doc() < doc {
                        scorer.seek(doc);
                    }
                    if scorer.doc() != doc {
                        continue;
                    }
                    score += scorer.score();
                }
                SegmentClause::Phrase { phrase, weight, fieldnorm } => {
                    let occurrences = phrase.occurrences(self.reader, doc)?;
                    if occurrences == 0 {
                        continue;
                    }
                    score += weight.score(fieldnorm.fieldnorm_id(doc), occurrences);
                }
            }
            matched = true;
        }
        Ok(matched.then_some(score))
    }
}

/// The passages the disjunction matches that `admitted` admits, counted by `counter`, segment
/// by segment: the words' postings into a bitset, then each passage holding a phrase's rarest
/// word and not yet in the bitset checked for the phrase.
fn count(searcher: &Searcher, clauses: &[Clause], admitted: &FilterMask, counter: &CountCollector, deadline: Deadline) -> Result<(VerticalCounts, bool)> {
    let words: Vec<Term> = clauses.iter().filter_map(|clause| if let Clause::Word(term) = clause { Some(term.clone()) } else { None }).collect();
    let mut phrases = Vec::new();
    for clause in clauses {
        if let Clause::Phrase(terms) = clause {
            phrases.push((terms, rarest_word(searcher, terms)?));
        }
    }
    count_postings_with(searcher, &words, admitted, counter, deadline, |reader, bits| {
        for (terms, rarest) in &phrases {
            let inverted = reader.inverted_index(rarest.field())?;
            let Some(info) = inverted.get_term_info(rarest)? else { continue };
            let mut postings = inverted.read_block_postings_from_terminfo(&info, IndexRecordOption::Basic)?;
            let mut phrase = PhraseCursor::new(terms);
            while !postings.docs().is_empty() {
                for &doc in postings.docs() {
                    let (word, bit) = ((doc >> 6) as usize, 1u64 << (doc & 63));
                    if bits[word] & bit == 0 && phrase.occurrences(reader, doc)? > 0 {
                        bits[word] |= bit;
                    }
                }
                postings.advance();
            }
        }
        Ok(())
    })
}

/// A phrase in one segment: its words' postings with positions, opened at the first check.
struct PhraseCursor {
    terms: Vec<Term>,
    positioned: Option<Vec<SegmentPostings>>,
    positions: Vec<u32>,
    other: Vec<u32>,
}

impl PhraseCursor {
    fn new(terms: &[Term]) -> PhraseCursor {
        PhraseCursor { terms: terms.to_vec(), positioned: None, positions: Vec::new(), other: Vec::new() }
    }

    /// How often the phrase occurs in `doc` (a candidate, checked after every earlier one).
    fn occurrences(&mut self, reader: &SegmentReader, doc: DocId) -> Result<u32> {
        if self.positioned.is_none() {
            let mut opened = Vec::with_capacity(self.terms.len());
            for term in &self.terms {
                match reader.inverted_index(term.field())?.read_postings(term, IndexRecordOption::WithFreqsAndPositions)? {
                    Some(postings) => opened.push(postings),
                    None => return Ok(0),
                }
            }
            self.positioned = Some(opened);
        }
        let postings = self.positioned.as_mut().expect("opened above");
        // Every word in `doc` first: seeking is cheaper than reading positions.
        for word in postings.iter_mut() {
            let at = if word.doc() < doc { word.seek(doc) } else { word.doc() };
            if at != doc {
                return Ok(0);
            }
        }
        let last = postings.len() as u32 - 1;
        for (offset, word) in postings.iter_mut().enumerate() {
            // Each word's positions moved to where the phrase's last word would stand.
            if offset == 0 {
                word.positions_with_offset(last, &mut self.positions);
            } else {
                word.positions_with_offset(last - offset as u32, &mut self.other);
                keep_common(&mut self.positions, &self.other);
            }
            if self.positions.is_empty() {
                return Ok(0);
            }
        }
        Ok(self.positions.len() as u32)
    }
}

/// Keep in `left` the values also in `right` (both sorted, without repeats).
fn keep_common(left: &mut Vec<u32>, right: &[u32]) {
    let mut kept = 0;
    let mut at = 0;
    for index in 0..left.len() {
        let value = left[index];
        while at < right.len() && right[at] < value {
            at += 1;
        }
        if at < right.len() && right[at] == value {
            left[kept] = value;
            kept += 1;
            at += 1;
        }
    }
    left.truncate(kept);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::Filters;
    use crate::search::plan::{plan, Strategy};
    use crate::{Passage, ShardOptions, ShardReader, ShardWriter};

    /// Three segments of 400 passages over a skewed vocabulary (`on` in most of them, as a
    /// stop word would be, phrases repeating and overlapping), some of them deleted, two hosts.
    fn shard() -> (tempfile::TempDir, ShardReader) {
        const WORDS: [&str; 10] = ["on", "on", "on", "the", "carry", "carry", "bag", "rules", "rye", "spelt"];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |below: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % below
        };
        let directory = tempfile::tempdir().unwrap();
        let options = ShardOptions::default();
        let mut writer = ShardWriter::open(directory.path(), &options).unwrap();
        for batch in 0..3 {
            let passages: Vec<Passage> = (0..400)
                .map(|n| {
                    let text_length = 1 + next(30);
                    let title_length = next(4);
                    let mut words = |count: u64| (0..count).map(|_| WORDS[next(WORDS.len() as u64) as usize]).collect::<Vec<_>>().join(" ");
                    let title = words(title_length);
                    let text = words(text_length);
                    let host = if n % 9 == 0 { "rare.org" } else { "common.org" };
                    Passage {
                        id: format!("p{batch}:{n}"),
                        page_id: format!("p{batch}-{n}"),
                        url: format!("https://{host}/p{batch}/{n}"),
                        host: host.into(),
                        title,
                        text,
                        vertical: if n % 3 == 0 { "news".into() } else { "travel".into() },
                        fetched_at: 1_700_000_000 + n as i64,
                        ..Default::default()
                    }
                })
                .collect();
            writer.add(&passages).unwrap();
            writer.commit().unwrap();
        }
        writer.delete(&(0..400).step_by(5).map(|n| format!("p1:{n}")).collect::<Vec<_>>()).unwrap();
        writer.commit().unwrap();
        drop(writer);
        let reader = ShardReader::open(directory.path(), &options).unwrap();
        (directory, reader)
    }

    /// Every query below runs as `PhraseUnion` and, by `OnePass` (Tantivy's union scorer), gives
    /// the same top-k (addresses and scores to the bit, ties included), total and counts per
    /// vertical, at every depth, unfiltered and over a broad mask; the count alone (limit 0)
    /// gives the same total.
    #[test]
    fn the_same_answer_as_the_union_scorer() {
        let (_directory, reader) = shard();
        let view = reader.view();
        let queries = [
            "carry-on bag rules",
            "carry-on",
            "on-on rules",
            "\"the on\" spelt",
            "rye-spelt-carry the",
            "bag-carry on",
            "\"on carry on\" rye bag",
            "carry-on-the-bag",
            "carry-on on-carry",
            "rules carry-on missing-word",
        ];
        let filters = [Filters::default(), Filters { site: Some("common.org".into()), ..Default::default() }];
        let mut phrase_union_runs = 0;
        for query in queries {
            for filter in &filters {
                for depth in [0, 1, 2, 5, 10, 40, 5000] {
                    let request = SearchRequest { query: query.into(), limit: depth, vertical_counts: true, filters: filter.clone(), ..Default::default() };
                    let planned = plan(&view, &request).unwrap();
                    let Strategy::PhraseUnion { queries, clauses } = planned.strategy else {
                        panic!("{query:?} at depth {depth} is not planned as PhraseUnion");
                    };
                    phrase_union_runs += 1;
                    let ours = run(&view, &request, queries, clauses, depth, Deadline::none()).unwrap();
                    let reference_queries = KeywordQueries::masked(&view, &request).unwrap();
                    let reference = one_pass::run(&view, &request, reference_queries, depth.max(1), Deadline::none()).unwrap();
                    let label = format!("{query:?}, {:?}, depth {depth}", filter.site);
                    assert!(reference.total > 0, "{label}: the query matches something");
                    assert_eq!(ours.total, reference.total, "{label}: total");
                    assert_eq!(ours.vertical_counts, reference.vertical_counts, "{label}: counts per vertical");
                    let hits = |ranked: &Ranked| ranked.candidates.iter().map(|c| (c.address, (c.score as f32).to_bits())).collect::<Vec<_>>();
                    if depth == 0 {
                        assert!(ours.candidates.is_empty(), "{label}: the count alone ranks nothing");
                    } else {
                        assert_eq!(hits(&ours), hits(&reference), "{label}: top {depth}");
                    }
                }
            }
        }
        assert_eq!(phrase_union_runs, queries.len() * filters.len() * 7);
    }
}
