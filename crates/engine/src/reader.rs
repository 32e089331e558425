//! The shard reader: the leaf of a scatter-gather search. Keyword search with the boolean
//! syntax of SPEC 4.1 (AND, OR, -term, "exact phrase"; bare terms are OR-ed and ranked by BM25),
//! collected segment by segment so the deadline is checked between segments, then only the
//! top-k documents are fetched. Readers never reload on their own (no watcher thread): the owner
//! calls `reload` when a commit notice says so.

use std::path::{Path, PathBuf};
use std::time::Instant;

use std::collections::HashMap;
use std::sync::Arc;

use serde::Serialize;
use tantivy::collector::{Collector, Count, DocSetCollector, TopDocs};
use tantivy::query::{BooleanQuery, EmptyQuery, EnableScoring, Occur, Query, QueryParser, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{DocAddress, Index, IndexReader, Order, ReloadPolicy, Searcher, TantivyDocument, Term};

use crate::search::address_set::AddressSetQuery;

use crate::analyzer::body_analyzer;
use crate::deadline::Deadline;
use crate::search::postings_count::{count_disjunction, disjunction_terms};
use tantivy::tokenizer::TokenStream;
use crate::embedder::{embedding_input, Embedder, HashingEmbedder};
use crate::error::{EngineError, Result};
use crate::fetch::fetch_hits;
use crate::facets::{FacetCollector, FacetCounts, VerticalCountCollector, VerticalCounts, VerticalTable};
use crate::search::filter_mask::{mask_key, top_k_and_count, top_k_masked, FilterMask, MaskCache};
use crate::search::filters::{everything, filter_clauses, filtered};
use crate::passage::{Document, Hit, StoredReader};
use crate::search::point_scores::scores_at;
use crate::query_depth::{query_nesting, MAX_QUERY_NESTING};
use crate::search::query_shape::flatten_disjunction;
use crate::search::ranking::{apply_collapse, apply_field_sort, apply_rerank, fuse_scores, sort_by_order, Candidate, SignalColumns};
use crate::request::{Collapse, Mode, SearchRequest, SortBy};
use crate::schema::ShardFields;
use crate::shard::{open_existing_index, vector_key, ShardOptions, VectorSource};
use crate::vectors::VectorIndex;

/// Tantivy's BM25 term-frequency saturation.
const BM25_K1: f64 = 1.2;
/// Candidates kept per shard when a rerank, collapse or fusion reorders them.
const RERANK_DEPTH_MIN: usize = 200;
const RERANK_DEPTH_MAX: usize = 1000;
/// Nearest neighbours a semantic ranking considers per shard (before filters).
const SEMANTIC_DEPTH_MIN: usize = 100;

/// What one shard answers; the pool merges these.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ShardSearchResult {
    pub hits: Vec<Hit>,
    /// Exact number of live matches in the segments searched (see `Mode` for what matches).
    pub total: u64,
    /// The deadline cut the search short: `total` and `hits` cover only part of the shard.
    pub timed_out: bool,
    pub elapsed_us: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facets: Option<FacetCounts>,
    /// Matches per vertical, when asked for (the router's input).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vertical_counts: Option<HashMap<String, u64>>,
    /// Live passages of the shard, and how many of them have a vector (a semantic or hybrid
    /// ranking reaches only those): the answer's coverage while vectors are still being made.
    pub passages: u64,
    pub embedded: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct ReloadReport {
    pub num_docs: u64,
    pub segments: u64,
    pub vectors: u64,
    /// Live passages that have a vector (semantic search reaches only these).
    pub embedded: u64,
}

/// A passage still waiting for its vector: its id and the text a model embeds.
#[derive(Clone, Debug, PartialEq)]
pub struct EmbeddingInput {
    pub id: String,
    pub text: String,
}

pub struct ShardReader {
    directory: PathBuf,
    dimensions: usize,
    index: Index,
    fields: ShardFields,
    reader: IndexReader,
    query_parser: QueryParser,
    vectors: VectorIndex,
    /// The live document of each vector key in the current searcher (rebuilt on reload): the
    /// way from a nearest neighbour back to its passage.
    key_addresses: KeyAddresses,
    /// Every document's vertical, for the router's counting pass (rebuilt on reload).
    verticals: VerticalTable,
    /// Filter masks of the current reader generation (cleared on reload).
    masks: MaskCache,
    /// The hashing embedder for query texts, or None when the vectors come from outside the
    /// engine (the query vector must then come with the request).
    embedder: Option<HashingEmbedder>,
    /// Live passages with a vector in the current generation.
    embedded: u64,
}

/// A ranked list, how many passages matched (with the split per vertical when the counting
/// pass was asked for it), and the query of the match set (for facets).
struct Ranked {
    candidates: Vec<Candidate>,
    total: u64,
    vertical_counts: Option<HashMap<String, u64>>,
    timed_out: bool,
    match_query: Box<dyn Query>,
}

impl ShardReader {
    pub fn open(directory: &Path, options: &ShardOptions) -> Result<Self> {
        let (index, fields) = open_existing_index(directory)?;
        let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()?;
        // Title and body weigh the same: a title boost measured worse on dbpedia (nDCG@10 0.375
        // at 2x, 0.384 at 1.5x, 0.406 at 1x) and made no difference on msmarco.
        let query_parser = QueryParser::for_index(&index, vec![fields.title, fields.text]);
        let vectors = VectorIndex::open_view(directory, options.dimensions)?;
        let searcher = reader.searcher();
        let key_addresses = live_key_addresses(&searcher)?;
        let verticals = VerticalTable::build(&searcher)?;
        let embedded = count_embedded(&key_addresses, &vectors);
        Ok(ShardReader {
            directory: directory.to_path_buf(),
            dimensions: options.dimensions,
            index,
            fields,
            reader,
            query_parser,
            vectors,
            key_addresses,
            verticals,
            masks: MaskCache::default(),
            embedder: match options.vectors {
                VectorSource::Hashing => Some(HashingEmbedder::new(options.dimensions)),
                VectorSource::External => None,
            },
            embedded,
        })
    }

    /// Pick up the latest commit: new segments and the newly saved vectors.
    pub fn reload(&mut self) -> Result<ReloadReport> {
        self.reader.reload()?;
        self.vectors = VectorIndex::open_view(&self.directory, self.dimensions)?;
        let searcher = self.reader.searcher();
        self.key_addresses = live_key_addresses(&searcher)?;
        self.verticals = VerticalTable::build(&searcher)?;
        self.masks.clear();
        self.embedded = count_embedded(&self.key_addresses, &self.vectors);
        Ok(ReloadReport {
            num_docs: searcher.num_docs(),
            segments: searcher.segment_readers().len() as u64,
            vectors: self.vectors.len() as u64,
            embedded: self.embedded,
        })
    }

    /// Live passages that have a vector.
    pub fn embedded(&self) -> u64 {
        self.embedded
    }

    /// Up to `limit` live passages without a vector, in index order, with the text a model
    /// embeds (title and body, as the hashing embedder reads them).
    pub fn passages_without_vectors(&self, limit: usize) -> Result<Vec<EmbeddingInput>> {
        let searcher = self.reader.searcher();
        let mut inputs = Vec::new();
        for (segment_ord, segment_reader) in searcher.segment_readers().iter().enumerate() {
            let keys = segment_reader.fast_fields().u64("vector_key")?;
            for doc in segment_reader.doc_ids_alive() {
                if inputs.len() >= limit {
                    return Ok(inputs);
                }
                if keys.first(doc).is_some_and(|key| self.vectors.contains(key)) {
                    continue;
                }
                let stored: TantivyDocument = searcher.doc(DocAddress::new(segment_ord as u32, doc))?;
                let document = StoredReader { doc: &stored, fields: &self.fields }.document();
                inputs.push(EmbeddingInput { text: embedding_input(&document.title, &document.text), id: document.id });
            }
        }
        Ok(inputs)
    }

    pub fn num_docs(&self) -> u64 {
        self.reader.searcher().num_docs()
    }

    pub fn fields(&self) -> &ShardFields {
        &self.fields
    }

    pub fn index(&self) -> &Index {
        &self.index
    }

    pub fn vectors(&self) -> &VectorIndex {
        &self.vectors
    }

    /// Parse the caller's query leniently: a stray quote or colon degrades, never errors. A query
    /// nested past `MAX_QUERY_NESTING` matches nothing here (`search` refuses it before this).
    pub fn parse_query(&self, text: &str) -> Box<dyn Query> {
        if query_nesting(text) > MAX_QUERY_NESTING {
            return Box::new(EmptyQuery);
        }
        let (query, _errors) = self.query_parser.parse_query_lenient(text);
        flatten_disjunction(query)
    }

    /// The `term` filter: the needle analysed like the body, required in title or text.
    fn term_filter(&self, needle: &Option<String>) -> Option<Box<dyn Query>> {
        let needle = needle.as_ref()?.trim();
        if needle.is_empty() {
            return None;
        }
        Some(self.parse_query(&format!("\"{}\"", needle.replace('"', " "))))
    }

    fn clauses(&self, request: &SearchRequest) -> Vec<(Occur, Box<dyn Query>)> {
        filter_clauses(&request.filters, &self.fields, self.term_filter(&request.filters.term))
    }

    pub fn search(&self, request: &SearchRequest) -> Result<ShardSearchResult> {
        let started = Instant::now();
        let deadline = request.deadline;
        if deadline.is_expired() {
            return Ok(ShardSearchResult { timed_out: true, ..Default::default() });
        }
        for text in [Some(&request.query), request.filters.term.as_ref()].into_iter().flatten() {
            let depth = query_nesting(text);
            if depth > MAX_QUERY_NESTING {
                return Err(EngineError::QueryTooDeep { depth, max: MAX_QUERY_NESTING });
            }
        }
        let searcher = self.reader.searcher();
        let browsing = request.query.trim().is_empty() && request.vector.is_none();
        let mode = if browsing { Mode::Keyword } else { request.mode };
        let reorders = request.rerank.is_active() || request.collapse != Collapse::None || mode == Mode::Hybrid;
        let depth = if reorders && request.limit > 0 {
            (request.limit * 5).clamp(RERANK_DEPTH_MIN, RERANK_DEPTH_MAX)
        } else {
            request.limit
        };
        let ranked = match mode {
            Mode::Keyword => self.keyword_ranking(&searcher, request, depth, deadline)?,
            Mode::Semantic => self.semantic_ranking(&searcher, request, depth)?,
            Mode::Hybrid => self.hybrid_ranking(&searcher, request, depth, deadline)?,
        };
        let mut columns = SignalColumns::new(&searcher);
        let mut candidates = ranked.candidates;
        if request.sort == SortBy::Relevance {
            apply_rerank(&mut candidates, &request.rerank, &mut columns);
        } else if mode != Mode::Keyword {
            apply_field_sort(&mut candidates, request.sort, &mut columns);
        }
        let mut candidates = apply_collapse(candidates, request.collapse, &mut columns);
        candidates.truncate(request.limit);
        let facets = if request.facets {
            let (counts, _) = collect_by_segment(&searcher, ranked.match_query.as_ref(), &FacetCollector, deadline, false)?;
            Some(counts)
        } else {
            None
        };
        let vertical_counts = match ranked.vertical_counts {
            Some(counts) => Some(counts),
            None if request.vertical_counts => {
                let (counts, _) = collect_by_segment(&searcher, ranked.match_query.as_ref(), &VerticalCountCollector { table: &self.verticals }, deadline, false)?;
                Some(counts.by_vertical)
            }
            None => None,
        };
        let hits = fetch_hits(&searcher, &self.fields, &candidates, request.collapse != Collapse::None)?;
        Ok(ShardSearchResult {
            hits,
            total: ranked.total,
            timed_out: ranked.timed_out,
            elapsed_us: started.elapsed().as_micros() as u64,
            facets,
            vertical_counts,
            passages: searcher.num_docs(),
            embedded: self.embedded,
        })
    }

    fn keyword_query(&self, request: &SearchRequest) -> Box<dyn Query> {
        filtered(self.words_query(request), self.clauses(request))
    }

    /// The query's words alone (every passage for an empty query).
    fn words_query(&self, request: &SearchRequest) -> Box<dyn Query> {
        if request.query.trim().is_empty() { everything() } else { self.parse_query(&request.query) }
    }

    /// The keyword passes' plan: the words with the filters as a mask when the filters admit a
    /// broad share of the shard (see `filter_mask`), else the words and filters intersected.
    fn keyword_plan(&self, searcher: &Searcher, request: &SearchRequest) -> Result<KeywordPlan> {
        let words = self.words_query(request);
        let clauses = self.clauses(request);
        let unfiltered = clauses.is_empty();
        let matching = filtered(words.box_clone(), clauses);
        let filters = &request.filters;
        // Id, story and URL lists (the evidence layer's look-ups) are narrow and differ per
        // call: a mask of them would be built for one search and intersected anyway.
        let per_call = !(filters.exclude_ids.is_empty() && filters.story_ids.is_empty() && filters.urls.is_empty());
        if unfiltered || per_call || request.query.trim().is_empty() {
            return Ok(KeywordPlan { words, mask: None, top_masked: false, matching });
        }
        let mask = self.masks.get_or_build(mask_key(filters), || FilterMask::build(searcher, self.clauses(request)))?;
        let top_masked = mask.is_broad(searcher.num_docs());
        Ok(KeywordPlan { words, mask: Some(mask), top_masked, matching })
    }

    /// BM25 over the filtered match set; or, for a field sort, the top by that field over
    /// every match (BM25 still reported as the score when there is a query).
    fn keyword_ranking(&self, searcher: &Searcher, request: &SearchRequest, depth: usize, deadline: Deadline) -> Result<Ranked> {
        let Some(field) = request.sort.field_name() else {
            let plan = self.keyword_plan(searcher, request)?;
            let (ranked_query, mask) = if plan.top_masked { (plan.words.as_ref(), plan.mask.as_deref()) } else { (plan.matching.as_ref(), None) };
            let (top, counted, timed_out) = if depth > 0 && disjunction_terms(ranked_query).is_none() {
                // Nothing for block-max WAND to skip: one pass scores, ranks and counts.
                let verticals = request.vertical_counts.then_some(&self.verticals);
                let (top, counts, timed_out) = top_k_and_count(searcher, ranked_query, mask, depth, verticals, deadline)?;
                (top, Counted { total: counts.total, split: request.vertical_counts.then_some(counts.by_vertical) }, timed_out)
            } else {
                // Two passes: the top-k alone lets tantivy skip blocks that cannot enter it
                // (block-max WAND), which a combined top-k + count pass cannot; the count pass
                // scores nothing.
                let (top, top_timed_out) = top_k_masked(searcher, ranked_query, mask, depth, deadline)?;
                let (counted, timed_out) = self.count_matches(searcher, &plan, request.vertical_counts, deadline)?;
                (top, counted, top_timed_out || timed_out)
            };
            return Ok(Ranked {
                candidates: top.into_iter().map(|(score, address)| Candidate::scored(address, score as f64)).collect(),
                total: counted.total,
                vertical_counts: counted.split,
                timed_out,
                match_query: plan.matching,
            });
        };
        let query = self.keyword_query(request);
        let (ordered, total, timed_out) = top_by_field(searcher, query.as_ref(), field, depth, deadline)?;
        let weight = if request.query.trim().is_empty() {
            None
        } else {
            Some(query.weight(EnableScoring::enabled_from_searcher(searcher))?)
        };
        let mut candidates = Vec::with_capacity(ordered.len());
        for (order, address) in ordered {
            let score = match &weight {
                Some(weight) => weight.explain(searcher.segment_reader(address.segment_ord), address.doc_id)?.value() as f64,
                None => 0.0,
            };
            candidates.push(Candidate { address, score, order, group_size: 1 });
        }
        Ok(Ranked { candidates, total: total as u64, vertical_counts: None, timed_out, match_query: query })
    }

    /// The query vector: given, or the query text embedded with this shard's IDF as term weights.
    /// A shard whose vectors come from a model outside the engine needs it given.
    fn query_vector(&self, searcher: &Searcher, request: &SearchRequest) -> Result<Vec<f32>> {
        if let Some(vector) = &request.vector {
            return Ok(vector.clone());
        }
        let Some(embedder) = &self.embedder else {
            return Err(EngineError::InvalidRequest(
                "this shard's vectors come from a model outside the engine: semantic and hybrid searches need the query vector".to_string(),
            ));
        };
        let documents = searcher.num_docs() as f32;
        let text_field = self.fields.text;
        let inverse_document_frequency = |term: &str| {
            let frequency = searcher.doc_freq(&Term::from_field_text(text_field, term)).unwrap_or(0) as f32;
            (1.0 + (documents - frequency + 0.5) / (frequency + 0.5)).ln()
        };
        Ok(embedder.embed_weighted(&request.query, &inverse_document_frequency))
    }

    /// The BM25 a passage would score matching every query term once at full weight:
    /// (k1 + 1) x the sum of the terms' IDF. It depends on the query and on term statistics
    /// that agree closely across shards, unlike a shard's best score.
    fn bm25_scale(&self, searcher: &Searcher, query: &str) -> f64 {
        let documents = searcher.num_docs() as f64;
        let mut analyzer = body_analyzer();
        let mut stream = analyzer.token_stream(query);
        let mut seen = std::collections::HashSet::new();
        let mut scale = 0.0;
        while stream.advance() {
            let term = stream.token().text.clone();
            if !seen.insert(term.clone()) {
                continue;
            }
            let frequency = searcher.doc_freq(&Term::from_field_text(self.fields.text, &term)).unwrap_or(0) as f64;
            scale += (1.0 + (documents - frequency + 0.5) / (frequency + 0.5)).ln();
        }
        (BM25_K1 + 1.0) * scale
    }

    /// The nearest neighbours that pass the filters, best first (score = cosine similarity),
    /// and the query that matches exactly them.
    fn semantic_candidates(&self, searcher: &Searcher, request: &SearchRequest, vector: &[f32], depth: usize) -> Result<(Vec<Candidate>, Box<dyn Query>)> {
        let neighbours = if vector.iter().all(|value| *value == 0.0) {
            Vec::new()
        } else {
            self.vectors.search(vector, depth.max(SEMANTIC_DEPTH_MIN))?
        };
        let similarity: HashMap<u64, f64> = neighbours
            .iter()
            .map(|(key, distance)| (*key, 1.0 - *distance as f64))
            .filter(|(_, similarity)| *similarity >= request.vector_scoring.min_similarity)
            .collect();
        let mut scored: HashMap<DocAddress, f64> = HashMap::with_capacity(similarity.len());
        for (key, score) in &similarity {
            if let Some(address) = self.key_addresses.get(key) {
                scored.insert(*address, *score);
            }
        }
        let neighbour_query: Box<dyn Query> = Box::new(AddressSetQuery::new(searcher, scored.keys().copied()));
        let match_query = filtered(neighbour_query, self.clauses(request));
        let addresses = if match_query.is::<AddressSetQuery>() {
            scored.keys().copied().collect()
        } else {
            searcher.search(match_query.as_ref(), &DocSetCollector)?
        };
        let mut candidates: Vec<Candidate> =
            addresses.into_iter().filter_map(|address| scored.get(&address).map(|score| Candidate::scored(address, *score))).collect();
        sort_by_order(&mut candidates);
        Ok((candidates, match_query))
    }

    /// Semantic mode: what matches is the filtered nearest neighbours considered.
    fn semantic_ranking(&self, searcher: &Searcher, request: &SearchRequest, depth: usize) -> Result<Ranked> {
        let vector = self.query_vector(searcher, request)?;
        let (candidates, match_query) = self.semantic_candidates(searcher, request, &vector, depth)?;
        let total = candidates.len() as u64;
        Ok(Ranked { candidates, total, vertical_counts: None, timed_out: false, match_query })
    }

    /// Keyword and semantic candidates fused by score (see `fuse_scores`); the match set is
    /// their union, counted as the keyword matches plus the neighbours the keyword query misses.
    fn hybrid_ranking(&self, searcher: &Searcher, request: &SearchRequest, depth: usize, deadline: Deadline) -> Result<Ranked> {
        let keyword_request = SearchRequest { sort: SortBy::Relevance, ..request.clone() };
        let keyword = self.keyword_ranking(searcher, &keyword_request, depth.max(1), deadline)?;
        let query_vector = self.query_vector(searcher, request)?;
        let (semantic, semantic_query) = self.semantic_candidates(searcher, request, &query_vector, depth)?;
        // The neighbours passed the filters already: those the words match are the ones the
        // keyword query matches too, scored as it scores them.
        let mut neighbours: Vec<DocAddress> = semantic.iter().map(|c| c.address).collect();
        let matched_by_words = scores_at(searcher, self.words_query(request).as_ref(), &mut neighbours)?;
        let in_both: std::collections::HashSet<DocAddress> = matched_by_words.iter().map(|c| c.address).collect();
        let semantic_only: Vec<DocAddress> = semantic.iter().map(|c| c.address).filter(|address| !in_both.contains(address)).collect();
        let total = keyword.total + semantic_only.len() as u64;
        let vertical_counts = match keyword.vertical_counts {
            Some(mut counts) => {
                let mut columns = SignalColumns::new(searcher);
                for address in &semantic_only {
                    if let Some(vertical) = columns.text(*address, "vertical") {
                        *counts.entry(vertical).or_insert(0) += 1;
                    }
                }
                Some(counts)
            }
            None => None,
        };
        let candidates = if depth == 0 {
            Vec::new()
        } else {
            let mut cosine_of: HashMap<DocAddress, f64> = semantic.iter().map(|c| (c.address, c.score)).collect();
            let mut columns = SignalColumns::new(searcher);
            for candidate in &keyword.candidates {
                if cosine_of.contains_key(&candidate.address) {
                    continue;
                }
                if let Some(vector) = columns.key(candidate.address, "vector_key").map(|key| self.vectors.get(key)).transpose()?.flatten() {
                    cosine_of.insert(candidate.address, cosine(&query_vector, &vector));
                }
            }
            // A neighbour the keyword query matches below the keyword depth fuses with its real
            // BM25, not as if it matched no word.
            let ranked: std::collections::HashSet<DocAddress> = keyword.candidates.iter().map(|c| c.address).collect();
            let mut keyword_scored = keyword.candidates.clone();
            keyword_scored.extend(matched_by_words.into_iter().filter(|c| !ranked.contains(&c.address)));
            fuse_scores(&keyword_scored, &cosine_of, self.bm25_scale(searcher, &request.query), &request.vector_scoring)
        };
        let union: Box<dyn Query> =
            Box::new(BooleanQuery::new(vec![(Occur::Should, keyword.match_query), (Occur::Should, semantic_query)]));
        Ok(Ranked { candidates, total, vertical_counts, timed_out: keyword.timed_out, match_query: union })
    }

    fn find_address(&self, searcher: &Searcher, term: Term) -> Result<Option<DocAddress>> {
        let query = TermQuery::new(term, IndexRecordOption::Basic);
        let found = searcher.search(&query, &top_docs(1)?.order_by_score())?;
        Ok(found.first().map(|(_, address)| *address))
    }

    /// Full text and provenance of one passage, or None for an unknown id.
    pub fn document(&self, id: &str) -> Result<Option<Document>> {
        let searcher = self.reader.searcher();
        let Some(address) = self.find_address(&searcher, Term::from_field_text(self.fields.id, id))? else {
            return Ok(None);
        };
        let doc: TantivyDocument = searcher.doc(address)?;
        Ok(Some(StoredReader { doc: &doc, fields: &self.fields }.document()))
    }

    /// The vector of a passage (the seed of a similarity search), or None for an unknown id.
    /// A passage whose vector is missing is embedded again from its stored title and text by
    /// the hashing embedder; with vectors from outside the engine it is None until its vector
    /// is stored (the caller embeds the document itself).
    pub fn passage_vector(&self, id: &str) -> Result<Option<Vec<f32>>> {
        if let Some(vector) = self.vectors.get(vector_key(id))? {
            return Ok(Some(vector));
        }
        let Some(embedder) = &self.embedder else {
            return Ok(None);
        };
        Ok(self.document(id)?.map(|document| embedder.embed(&embedding_input(&document.title, &document.text))))
    }

    /// The counting pass (no scoring): with the per-vertical split when the router wants it, in
    /// the same pass.
    fn count_matches(&self, searcher: &Searcher, plan: &KeywordPlan, per_vertical: bool, deadline: Deadline) -> Result<(Counted, bool)> {
        // With a mask the words are counted through it; without one the match set is counted
        // (the words themselves when there are no filters).
        let counted = if plan.mask.is_some() { plan.words.as_ref() } else { plan.matching.as_ref() };
        if let Some(terms) = disjunction_terms(counted) {
            let verticals = per_vertical.then_some(&self.verticals);
            let (counts, timed_out) = count_disjunction(searcher, &terms, plan.mask.as_deref(), verticals, deadline)?;
            return Ok((Counted { total: counts.total, split: per_vertical.then_some(counts.by_vertical) }, timed_out));
        }
        let query = plan.matching.as_ref();
        if per_vertical {
            let collector = VerticalCountCollector { table: &self.verticals };
            let (VerticalCounts { total, by_vertical }, timed_out) = collect_by_segment(searcher, query, &collector, deadline, false)?;
            return Ok((Counted { total, split: Some(by_vertical) }, timed_out));
        }
        let (total, timed_out) = collect_by_segment(searcher, query, &Count, deadline, false)?;
        Ok((Counted { total: total as u64, split: None }, timed_out))
    }
}

fn cosine(left: &[f32], right: &[f32]) -> f64 {
    let mut dot = 0.0_f64;
    let mut left_norm = 0.0_f64;
    let mut right_norm = 0.0_f64;
    for (a, b) in left.iter().zip(right) {
        dot += (*a as f64) * (*b as f64);
        left_norm += (*a as f64) * (*a as f64);
        right_norm += (*b as f64) * (*b as f64);
    }
    if left_norm == 0.0 || right_norm == 0.0 {
        return 0.0;
    }
    dot / (left_norm.sqrt() * right_norm.sqrt())
}

/// Tantivy's top-k collector, which panics on a limit of 0: refused here as an error instead
/// (a limit of 0 asks for the count alone, which its callers run without a top-k).
fn top_docs(limit: usize) -> Result<TopDocs> {
    if limit == 0 {
        return Err(EngineError::InvalidRequest("a top-k collector needs a limit of at least 1".to_string()));
    }
    Ok(TopDocs::with_limit(limit))
}

/// Top `depth` matches by a numeric fast field, largest first (missing values last).
fn top_by_field(searcher: &Searcher, query: &dyn Query, field: &str, depth: usize, deadline: Deadline) -> Result<(Vec<(f64, DocAddress)>, usize, bool)> {
    fn widen<T: Copy>(rows: Vec<(Option<T>, DocAddress)>, to_f64: impl Fn(T) -> f64) -> Vec<(f64, DocAddress)> {
        rows.into_iter().map(|(value, address)| (value.map(&to_f64).unwrap_or(f64::NEG_INFINITY), address)).collect()
    }
    if depth == 0 {
        // Only the count was asked for (limit 0): nothing to rank.
        let (total, timed_out) = collect_by_segment(searcher, query, &Count, deadline, false)?;
        return Ok((Vec::new(), total, timed_out));
    }
    Ok(match field {
        "fetched_at" | "published_at" | "quality" => {
            let collector = (top_docs(depth)?.order_by_fast_field::<i64>(field, Order::Desc), Count);
            let ((rows, total), timed_out) = collect_by_segment(searcher, query, &collector, deadline, false)?;
            (widen(rows, |value| value as f64), total, timed_out)
        }
        "host_rank" | "centrality" => {
            let collector = (top_docs(depth)?.order_by_fast_field::<f64>(field, Order::Desc), Count);
            let ((rows, total), timed_out) = collect_by_segment(searcher, query, &collector, deadline, false)?;
            (widen(rows, |value| value), total, timed_out)
        }
        _ => {
            let collector = (top_docs(depth)?.order_by_fast_field::<u64>(field, Order::Desc), Count);
            let ((rows, total), timed_out) = collect_by_segment(searcher, query, &collector, deadline, false)?;
            (widen(rows, |value| value as f64), total, timed_out)
        }
    })
}

/// Run a collector segment by segment, stopping at the deadline (tantivy's own search runs all
/// segments at once). Returns the merged fruit and whether the deadline cut it short.
fn collect_by_segment<C: Collector>(
    searcher: &Searcher,
    query: &dyn Query,
    collector: &C,
    deadline: Deadline,
    scoring: bool,
) -> Result<(C::Fruit, bool)> {
    let enable_scoring = if scoring {
        EnableScoring::enabled_from_searcher(searcher)
    } else {
        EnableScoring::disabled_from_searcher(searcher)
    };
    let weight = query.weight(enable_scoring)?;
    let mut fruits = Vec::with_capacity(searcher.segment_readers().len());
    let timed_out = deadline.walk_segments(searcher, |segment_ord, reader| {
        fruits.push(collector.collect_segment(weight.as_ref(), segment_ord as u32, reader)?);
        Ok(())
    })?;
    Ok((collector.merge_fruits(fruits)?, timed_out))
}

/// How the keyword passes run. `words` is the query without filters and `matching` the match
/// set (words and filters as one query, also for facets and hybrid). With filters (but not
/// per-call id, story or URL lists), `mask` holds what they admit: the count of a bare-word query
/// reads it, and the top-k pass runs the words over it when `top_masked` (a broad mask), else the
/// intersection.
struct KeywordPlan {
    words: Box<dyn Query>,
    mask: Option<Arc<FilterMask>>,
    top_masked: bool,
    matching: Box<dyn Query>,
}

/// Matches in all, and the split per vertical when asked for.
struct Counted {
    total: u64,
    split: Option<HashMap<String, u64>>,
}

/// Vector key -> live document, over every segment of a searcher.
fn live_key_addresses(searcher: &Searcher) -> Result<KeyAddresses> {
    let mut addresses = KeyAddresses::with_capacity_and_hasher(searcher.num_docs() as usize, Default::default());
    for (segment_ord, segment_reader) in searcher.segment_readers().iter().enumerate() {
        let keys = segment_reader.fast_fields().u64("vector_key")?;
        for doc in segment_reader.doc_ids_alive() {
            if let Some(key) = keys.first(doc) {
                addresses.insert(key, DocAddress::new(segment_ord as u32, doc));
            }
        }
    }
    Ok(addresses)
}

/// How many live passages have a vector.
fn count_embedded(key_addresses: &KeyAddresses, vectors: &VectorIndex) -> u64 {
    if vectors.len() == 0 {
        return 0;
    }
    key_addresses.keys().filter(|key| vectors.contains(**key)).count() as u64
}

/// Vector keys are already xxh3 hashes of passage ids: the map uses them as they are.
type KeyAddresses = HashMap<u64, DocAddress, std::hash::BuildHasherDefault<KeyHasher>>;

#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*byte);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}
