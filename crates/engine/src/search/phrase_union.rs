//! Relevance over a disjunction of words and plain phrases (a hyphenated word parses to a
//! phrase: `carry-on baggage rules` is `"carry on" OR baggage OR rules`), reading a phrase's
//! positions only where they can change the answer.
//!
//! Tantivy's union scorer checks every phrase on every passage holding all of its words:
//! `"carry on"` read the positions of `on` (in 57% of the 1M demo passages) in each of the
//! 23,724 passages holding `carry`, 4.1 ms of a 4.1 ms search, though each of them also held
//! `rules` and so matched anyway. Here, two passes, as for bare words (`wand_top_k.rs`), the
//! count first:
//!
//! 1. **The count**: the words' postings into a bitset (as `postings_count.rs`), then each
//!    passage holding a phrase's rarest word and not yet in the bitset checked for the phrase;
//!    what each check found is kept for the top-k.
//! 2. **The top k**: block-max WAND over word queries only, each phrase stood in for by its
//!    rarest word weighted by the phrase's IDF (the BM25 the phrase would score if it occurred
//!    as often as that word does: a bound, since each occurrence of a phrase is one of each of
//!    its words), every weight raised by `BOUND_MARGIN`. WAND calls back only for a passage
//!    whose bound beats the k-th best exact score so far; the callback computes the exact score
//!    (the clauses that match, added in clause order in f32 as the union scorer adds them,
//!    phrases by their positions, or by what the count found) and keeps the passage when it
//!    ranks. No passage's positions are read twice. When the passages a phrase may still match
//!    are few among its candidates (a rare phrase of common words), WAND ranks the words alone
//!    and those passages are scored one by one instead (`LISTED_SHARE`).
//!
//! A phrase's words are checked rarest first, as in Tantivy's phrase scorer: a common word's
//! many positions are read only where the rarer words line up (reading them in phrase order
//! made `of-the-city rules` 1.5x slower than `OnePass`).
//!
//! Phrases alone (no plain word) stay with `OnePass`: every candidate is checked either way.
//! Same scores, ranking, ties, total and counts per vertical as `OnePass` (the tests compare
//! the two).

use tantivy::fieldnorm::FieldNormReader;
use tantivy::postings::{Postings, SegmentPostings};
use tantivy::query::{BooleanQuery, Bm25Weight, BoostQuery, EnableScoring, Occur, PhraseQuery, Query, TermQuery};
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
/// words, no slop) with at least one phrase and at least one word, over fields indexed with
/// positions. None for anything else: bare words (block-max WAND ranks those), and phrases
/// alone, where every candidate must be checked anyway and Tantivy's phrase scorer checks
/// faster (`"of the city"`: 3.0 ms in `OnePass`, 4.5 ms here).
pub fn phrase_disjunction(query: &dyn Query, schema: &Schema) -> Option<Vec<Clause>> {
    let clauses: Vec<Clause> = disjuncts(query)?.iter().map(|(_, clause)| clause_of(clause.as_ref())).collect::<Option<_>>()?;
    let positioned = |field: Field| {
        schema.get_field_entry(field).field_type().get_index_record_option() == Some(IndexRecordOption::WithFreqsAndPositions)
    };
    let any_phrase = clauses.iter().any(|clause| matches!(clause, Clause::Phrase(_)));
    let any_word = clauses.iter().any(|clause| matches!(clause, Clause::Word(_)));
    (any_phrase && any_word && clauses.iter().all(|clause| positioned(clause.field()))).then_some(clauses)
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

/// The phrases' passages are listed rather than bounded when at most one candidate in this
/// many may still hold a phrase.
const LISTED_SHARE: usize = 8;

pub fn run(shard: &ShardView, request: &SearchRequest, queries: KeywordQueries, clauses: Vec<Clause>, depth: usize, deadline: Deadline) -> Result<Ranked> {
    run_listing(shard, request, queries, clauses, depth, deadline, Listing::ByShare)
}

/// How the top-k treats the phrases' passages: listed or bounded (see `run_listing`). The tests
/// run both ways on every query; the search decides by `LISTED_SHARE`.
#[derive(Clone, Copy, Debug)]
enum Listing {
    ByShare,
    #[cfg(test)]
    Always,
    #[cfg(test)]
    Never,
}

fn run_listing(shard: &ShardView, request: &SearchRequest, queries: KeywordQueries, clauses: Vec<Clause>, depth: usize, deadline: Deadline, listing_rule: Listing) -> Result<Ranked> {
    let searcher = &shard.searcher;
    let weights = clauses.iter().map(|clause| Bm25Weight::for_terms(searcher, clause.terms())).collect::<tantivy::Result<Vec<_>>>()?;
    // Each phrase's rarest word (None for a word): the candidates the count checks, and the
    // word that bounds the phrase in the top-k.
    let rarest = clauses
        .iter()
        .map(|clause| match clause {
            Clause::Word(_) => Ok(None),
            Clause::Phrase(terms) => rarest_word(searcher, terms).map(Some),
        })
        .collect::<Result<Vec<_>>>()?;
    // The count first: the phrase checks it makes are kept, and the top-k reads them back
    // instead of checking a passage twice.
    let mask = if depth > 0 { queries.ranked().1 } else { queries.mask.as_deref() };
    let counter = CountCollector { verticals: request.vertical_counts.then_some(shard.verticals) };
    let (counted, checked, count_timed_out) = count(&clauses, &rarest, searcher, mask.unwrap_or(shard.live), &counter, deadline)?;
    let (top, top_timed_out) = if depth == 0 {
        (Vec::new(), false)
    } else {
        // Where the passages a phrase may still match (those the count did not check, and those
        // where it found the phrase) are few among its candidates, the rarest word bounds most
        // of them loosely: those few are then scored one by one and WAND ranks the words alone
        // (`of-the-city rules`, the phrase in 1,160 of the 79,767 passages of `city`: 5.2 ms
        // bounded, 3.9 ms listed, 4.2 ms in `OnePass`). Listing a phrase found in many of its
        // candidates costs more than bounding it (`city-council vote`: 8.0 ms listed, 3.5 ms
        // bounded, 7.0 ms in `OnePass`).
        let (candidates, listing) = checked.iter().flatten().fold((0, 0), |(candidates, listing), phrase| {
            let found = phrase.found.iter().filter(|(_, occurrences)| *occurrences > 0).count();
            (candidates + phrase.found.len() + phrase.unchecked.len(), listing + phrase.unchecked.len() + found)
        });
        let listed = match listing_rule {
            Listing::ByShare => listing * LISTED_SHARE <= candidates,
            #[cfg(test)]
            Listing::Always => true,
            #[cfg(test)]
            Listing::Never => false,
        };
        match bound_query(searcher, &clauses, &weights, &rarest, !listed)? {
            Some(bound) => top_k(searcher, bound.as_ref(), &clauses, &weights, checked, listed, queries.ranked().1, depth, deadline)?,
            // A phrase whose words are in (almost) every passage: its rarest word's IDF rounds
            // to 0 in f32 and bounds nothing.
            None => return one_pass::run(shard, request, queries, depth, deadline),
        }
    };
    Ok(Ranked::counted(Ranked::scored(top), counted, request.vertical_counts, top_timed_out || count_timed_out, queries.matching))
}

/// The word query WAND ranks by: each word (raised by the margin) and, `with_phrases`, for each
/// phrase its rarest word weighted by the phrase's IDF. None when a phrase has no bound (a
/// weight that is not finite): the search then runs `OnePass`.
fn bound_query(searcher: &Searcher, clauses: &[Clause], weights: &[Bm25Weight], rarest: &[Option<&Term>], with_phrases: bool) -> Result<Option<Box<dyn Query>>> {
    let mut bounds: Vec<(Occur, Box<dyn Query>)> = Vec::with_capacity(clauses.len());
    for ((clause, weight), rarest) in clauses.iter().zip(weights).zip(rarest) {
        let (term, boost) = match (clause, *rarest) {
            (Clause::Word(term), _) => (term.clone(), BOUND_MARGIN),
            (Clause::Phrase(_), _) if !with_phrases => continue,
            // `run_listing` finds every phrase's rarest word; without one, nothing bounds it.
            (Clause::Phrase(_), None) => return Ok(None),
            (Clause::Phrase(_), Some(rarest)) => {
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
#[allow(clippy::too_many_arguments)]
fn top_k(
    searcher: &Searcher,
    bound: &dyn Query,
    clauses: &[Clause],
    weights: &[Bm25Weight],
    mut checked: Vec<Vec<Checked>>,
    listed: bool,
    mask: Option<&FilterMask>,
    k: usize,
    deadline: Deadline,
) -> Result<(Vec<(Score, DocAddress)>, bool)> {
    let mut top = TopKCollector::new(k);
    let bound = bound.weight(EnableScoring::enabled_from_searcher(searcher))?;
    let mut failure = None;
    let timed_out = deadline.walk_segments(searcher, |segment_ord, reader| {
        let alive = reader.alive_bitset();
        let Some(segment_checked) = checked.get_mut(segment_ord).map(std::mem::take) else {
            // The count stopped before this segment (the deadline): so does the top-k, whose
            // listing would miss the segment's phrases.
            return Ok(());
        };
        let mut listing: Vec<DocId> = Vec::new();
        if listed {
            for phrase in &segment_checked {
                listing.extend(&phrase.unchecked);
                listing.extend(phrase.found.iter().filter(|(_, occurrences)| *occurrences > 0).map(|(doc, _)| *doc));
            }
            listing.sort_unstable();
            listing.dedup();
        }
        let mut next = 0;
        let mut exact = ExactScores::open(reader, clauses, weights, segment_checked)?;
        // Score `doc` (`phrases`: it may hold a phrase) and keep it when it ranks.
        let rank = |exact: &mut ExactScores, top: &mut TopKCollector, doc: DocId, phrases: bool| -> Result<()> {
            if admitted(mask, alive, segment_ord, doc) {
                if let Some(score) = exact.score(doc, phrases)? {
                    top.collect(segment_ord, doc, score);
                }
            }
            Ok(())
        };
        bound.for_each_pruning(top.threshold(), reader, &mut |doc, _bound| {
            if failure.is_some() {
                return top.threshold();
            }
            while next < listing.len() && listing[next] < doc {
                if let Err(error) = rank(&mut exact, &mut top, listing[next], true) {
                    failure = Some(error);
                }
                next += 1;
            }
            let is_listed = next < listing.len() && listing[next] == doc;
            next += usize::from(is_listed);
            // Unlisted under `listed`: no phrase can match it (every candidate was checked or listed).
            if let Err(error) = rank(&mut exact, &mut top, doc, !listed || is_listed) {
                failure = Some(error);
            }
            top.threshold()
        })?;
        if let Some(error) = failure.take() {
            return Err(error);
        }
        for &doc in &listing[next..] {
            rank(&mut exact, &mut top, doc, true)?;
        }
        Ok(())
    })?;
    Ok((top.harvest(), timed_out))
}

/// The exact score of passages of one segment, asked in increasing order.
struct ExactScores<'a> {
    reader: &'a SegmentReader,
    clauses: Vec<SegmentClause<'a>>,
}

enum SegmentClause<'a> {
    /// `postings` None when the word is not in the segment.
    Word { postings: Option<Box<SegmentPostings>>, weight: &'a Bm25Weight, fieldnorm: FieldNormReader },
    Phrase { phrase: PhraseCursor, weight: &'a Bm25Weight, fieldnorm: FieldNormReader },
}

impl<'a> ExactScores<'a> {
    /// `checked`: what the count found for each phrase (in clause order) in this segment. A word
    /// scores as Tantivy's term scorer does: the weight the search made for it, at the passage's
    /// length and the word's frequency there.
    fn open(reader: &'a SegmentReader, clauses: &[Clause], weights: &'a [Bm25Weight], checked: Vec<Checked>) -> Result<ExactScores<'a>> {
        let mut checked = checked.into_iter();
        let mut opened = Vec::with_capacity(clauses.len());
        for (clause, weight) in clauses.iter().zip(weights) {
            let fieldnorm = reader.fieldnorms_readers().get_field(clause.field())?.unwrap_or_else(|| FieldNormReader::constant(reader.max_doc(), 1));
            opened.push(match clause {
                Clause::Word(term) => {
                    let postings = reader.inverted_index(term.field())?.read_postings(term, IndexRecordOption::WithFreqs)?.map(Box::new);
                    SegmentClause::Word { postings, weight, fieldnorm }
                }
                Clause::Phrase(terms) => {
                    let mut phrase = PhraseCursor::new(terms);
                    phrase.checked = checked.next().unwrap_or_default();
                    SegmentClause::Phrase { phrase, weight, fieldnorm }
                }
            });
        }
        Ok(ExactScores { reader, clauses: opened })
    }

    /// What the union scorer gives `doc`: the scores of the clauses that match, added in clause
    /// order; None when none matches. `phrases` false: no phrase can match `doc`, and none is
    /// checked.
    fn score(&mut self, doc: DocId, phrases: bool) -> Result<Option<Score>> {
        // The count checks a phrase only in passages no word matches: a passage it checked
        // has no word to seek.
        let wordless = phrases && self.clauses.iter_mut().any(|clause| match clause {
            SegmentClause::Phrase { phrase, .. } => phrase.checked_at(doc).is_some(),
            SegmentClause::Word { .. } => false,
        });
        let mut score: Score = 0.0;
        let mut matched = false;
        for clause in &mut self.clauses {
            match clause {
                SegmentClause::Word { .. } if wordless => continue,
                SegmentClause::Phrase { .. } if !phrases => continue,
                SegmentClause::Word { postings: None, .. } => continue,
                SegmentClause::Word { postings: Some(postings), weight, fieldnorm } => {
                    let at = if postings.doc() < doc { postings.seek(doc) } else { postings.doc() };
                    if at != doc {
                        continue;
                    }
                    score += weight.score(fieldnorm.fieldnorm_id(doc), postings.term_freq());
                }
                SegmentClause::Phrase { phrase, weight, fieldnorm } => {
                    let occurrences = match phrase.checked_at(doc) {
                        Some(occurrences) => occurrences,
                        None => phrase.occurrences(self.reader, doc)?,
                    };
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
fn count(clauses: &[Clause], rarest: &[Option<&Term>], searcher: &Searcher, admitted: &FilterMask, counter: &CountCollector, deadline: Deadline) -> Result<(VerticalCounts, Vec<Vec<Checked>>, bool)> {
    let words: Vec<Term> = clauses.iter().filter_map(|clause| if let Clause::Word(term) = clause { Some(term.clone()) } else { None }).collect();
    let phrases: Vec<(&[Term], &Term)> = clauses
        .iter()
        .zip(rarest)
        .filter_map(|(clause, rarest)| match (clause, rarest) {
            (Clause::Phrase(terms), Some(rarest)) => Some((terms.as_slice(), *rarest)),
            _ => None,
        })
        .collect();
    let mut checked: Vec<Vec<Checked>> = Vec::new();
    let (counted, timed_out) = count_postings_with(searcher, &words, admitted, counter, deadline, |segment_ord, reader, bits| {
        checked.resize_with(segment_ord + 1, Vec::new);
        for (terms, rarest) in &phrases {
            let mut found = Vec::new();
            let mut unchecked = Vec::new();
            let inverted = reader.inverted_index(rarest.field())?;
            if let Some(info) = inverted.get_term_info(rarest)? {
                let mut postings = inverted.read_block_postings_from_terminfo(&info, IndexRecordOption::Basic)?;
                let mut phrase = PhraseCursor::new(terms);
                while !postings.docs().is_empty() {
                    for &doc in postings.docs() {
                        let (word, bit) = ((doc >> 6) as usize, 1u64 << (doc & 63));
                        if bits[word] & bit != 0 {
                            unchecked.push(doc);
                            continue;
                        }
                        let occurrences = phrase.occurrences(reader, doc)?;
                        found.push((doc, occurrences));
                        if occurrences > 0 {
                            bits[word] |= bit;
                        }
                    }
                    postings.advance();
                }
            }
            checked[segment_ord].push(Checked { found, unchecked, read: 0 });
        }
        Ok(())
    })?;
    Ok((counted, checked, timed_out))
}

/// What the count did with a phrase's candidates (the passages of its rarest word) in one
/// segment, in document order: the occurrences it found where it checked, read forward, and
/// the candidates it did not check (a word, or an earlier phrase, matched them already).
#[derive(Default)]
struct Checked {
    found: Vec<(DocId, u32)>,
    unchecked: Vec<DocId>,
    read: usize,
}

/// A phrase in one segment: its words' postings with positions, opened at the first check.
struct PhraseCursor {
    terms: Vec<Term>,
    checked: Checked,
    /// (the word's place in the phrase, its postings), rarest word first.
    positioned: Option<Vec<(u32, SegmentPostings)>>,
    positions: Vec<u32>,
    other: Vec<u32>,
}

impl PhraseCursor {
    fn new(terms: &[Term]) -> PhraseCursor {
        PhraseCursor { terms: terms.to_vec(), checked: Checked::default(), positioned: None, positions: Vec::new(), other: Vec::new() }
    }

    /// The occurrences in `doc` when the count checked it (asked in document order).
    fn checked_at(&mut self, doc: DocId) -> Option<u32> {
        let Checked { found, read, .. } = &mut self.checked;
        while *read < found.len() && found[*read].0 < doc {
            *read += 1;
        }
        found.get(*read).filter(|entry| entry.0 == doc).map(|entry| entry.1)
    }

    /// How often the phrase occurs in `doc` (a candidate, checked after every earlier one).
    fn occurrences(&mut self, reader: &SegmentReader, doc: DocId) -> Result<u32> {
        if self.positioned.is_none() {
            let mut opened = Vec::with_capacity(self.terms.len());
            for (offset, term) in self.terms.iter().enumerate() {
                match reader.inverted_index(term.field())?.read_postings(term, IndexRecordOption::WithFreqsAndPositions)? {
                    Some(postings) => opened.push((offset as u32, postings)),
                    None => return Ok(0),
                }
            }
            // Rarest word first, as Tantivy's phrase scorer: its few positions are read first,
            // and a common word's many are read only where the rarer ones line up.
            opened.sort_by_key(|(_, postings)| postings.doc_freq());
            self.positioned = Some(opened);
        }
        let postings = self.positioned.as_mut().expect("opened above");
        // Every word in `doc` first: seeking is cheaper than reading positions.
        for (_, word) in postings.iter_mut() {
            let at = if word.doc() < doc { word.seek(doc) } else { word.doc() };
            if at != doc {
                return Ok(0);
            }
        }
        let last = self.terms.len() as u32 - 1;
        for (index, (offset, word)) in postings.iter_mut().enumerate() {
            // Each word's positions moved to where the phrase's last word would stand.
            if index == 0 {
                word.positions_with_offset(last - *offset, &mut self.positions);
            } else {
                word.positions_with_offset(last - *offset, &mut self.other);
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
    use crate::test_shard::written_shard;
    use crate::{Passage, ShardReader};

    /// Three segments of 400 passages over a skewed vocabulary (`on` in most of them, as a
    /// stop word would be, phrases repeating and overlapping), some of them deleted, two hosts.
    fn shard() -> (tempfile::TempDir, ShardReader) {
        const WORDS: [&str; 10] = ["on", "on", "on", "the", "carry", "carry", "bag", "rules", "rye", "spelt"];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |below: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % below
        };
        let mut segments: Vec<Vec<Passage>> = (0..3)
            .map(|batch| {
                (0..400)
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
                .collect()
            })
            .collect();
        // A segment where a phrase is rare among the passages of its rarest word, which the other
        // words never share (the listed top-k's case): `city` in every passage, `of the city` in
        // one in 40, `rules` only in passages without `city`.
        segments.push(
            (0..300)
                .map(|n| {
                    let text = match n % 40 {
                        0 => "the mayor of the city spoke".to_string(),
                        1 | 2 => "rules of the road".to_string(),
                        _ => format!("the city {} of", "city ".repeat(n % 3)),
                    };
                    Passage { id: format!("c:{n}"), page_id: format!("c-{n}"), url: format!("https://common.org/c/{n}"), host: "common.org".into(), text, vertical: "news".into(), ..Default::default() }
                })
                .collect(),
        );
        let segments: Vec<&[Passage]> = segments.iter().map(Vec::as_slice).collect();
        written_shard(&segments, &(0..400).step_by(5).map(|n| format!("p1:{n}")).collect::<Vec<_>>())
    }

    /// Every query below runs as `PhraseUnion` (its top-k with the phrases' passages listed, bounded,
    /// and as the search decides) and, by `OnePass` (Tantivy's union scorer), gives the same top-k
    /// (addresses and scores to the bit, ties included), total and counts per vertical, at every
    /// depth, unfiltered and over a broad mask; the count alone (limit 0) gives the same total.
    #[test]
    fn the_same_answer_as_the_union_scorer() {
        let (_directory, reader) = shard();
        let view = reader.view();
        let queries = [
            "carry-on bag rules",
            "carry-on rye",
            "on-on rules",
            "\"the on\" spelt",
            "rye-spelt-carry the",
            "bag-carry on",
            "\"on carry on\" rye bag",
            "carry-on-the-bag spelt",
            "carry-on on-carry the",
            "rules carry-on missing-word",
            "of-the-city rules",
            "mayor of-the-city-spoke rules",
        ];
        let filters = [Filters::default(), Filters { site: Some("common.org".into()), ..Default::default() }];
        let mut phrase_union_runs = 0;
        for query in queries {
            for filter in &filters {
                for depth in [0, 1, 2, 5, 10, 40, 5000] {
                    let request = SearchRequest { query: query.into(), limit: depth, vertical_counts: true, filters: filter.clone(), ..Default::default() };
                    let planned = plan(&view, &request).unwrap();
                    let Strategy::PhraseUnion { .. } = planned.strategy else {
                        panic!("{query:?} at depth {depth} is not planned as PhraseUnion");
                    };
                    let reference_queries = KeywordQueries::masked(&view, &request).unwrap();
                    let reference = one_pass::run(&view, &request, reference_queries, depth.max(1), Deadline::none()).unwrap();
                    for listing in [Listing::ByShare, Listing::Always, Listing::Never] {
                        let Strategy::PhraseUnion { queries, clauses } = plan(&view, &request).unwrap().strategy else { unreachable!() };
                        phrase_union_runs += 1;
                        let ours = run_listing(&view, &request, queries, clauses, depth, Deadline::none(), listing).unwrap();
                        let label = format!("{query:?}, {:?}, depth {depth}, {listing:?}", filter.site);
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
        }
        assert_eq!(phrase_union_runs, queries.len() * filters.len() * 7 * 3);
    }
}
