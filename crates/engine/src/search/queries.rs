//! The queries a search runs: the caller's words parsed leniently, the filters as zero-scoring
//! clauses, and for the keyword strategies the words, the match set and the filter mask.

use std::sync::Arc;

use tantivy::query::{EmptyQuery, Occur, Query, QueryParser};

use crate::query_depth::{query_nesting, MAX_QUERY_NESTING};
use crate::request::SearchRequest;
use crate::search::filter_mask::{mask_key, FilterMask};
use crate::search::filters::{everything, filter_clauses, filtered};
use crate::search::query_shape::flatten_disjunction;
use crate::search::ShardView;

/// Parse the caller's query leniently: a stray quote or colon degrades, never errors. A query
/// nested past `MAX_QUERY_NESTING` matches nothing here (`search` refuses it before this).
pub fn parse_query(parser: &QueryParser, text: &str) -> Box<dyn Query> {
    if query_nesting(text) > MAX_QUERY_NESTING {
        return Box::new(EmptyQuery);
    }
    let (query, _errors) = parser.parse_query_lenient(text);
    flatten_disjunction(query)
}

impl ShardView<'_> {
    /// The `term` filter: the needle analysed like the body, required in title or text.
    fn term_filter(&self, needle: &Option<String>) -> Option<Box<dyn Query>> {
        let needle = needle.as_ref()?.trim();
        if needle.is_empty() {
            return None;
        }
        Some(parse_query(self.query_parser, &format!("\"{}\"", needle.replace('"', " "))))
    }

    /// The request's filters as clauses that restrict a query without scoring.
    pub fn filter_clauses(&self, request: &SearchRequest) -> Vec<(Occur, Box<dyn Query>)> {
        filter_clauses(&request.filters, self.fields, self.term_filter(&request.filters.term))
    }

    /// The query's words alone (every passage for an empty query).
    pub fn words_query(&self, request: &SearchRequest) -> Box<dyn Query> {
        if request.query.trim().is_empty() { everything() } else { parse_query(self.query_parser, &request.query) }
    }
}

/// What the keyword strategies run. `words` is the query without filters and `matching` the
/// match set (words and filters as one query, also for facets and hybrid). With filters (but not
/// per-call id, story or URL lists), `mask` holds what they admit: the count of a bare-word query
/// reads it, and the top-k runs the words over it when `top_masked` (a broad mask), else the
/// intersection.
pub struct KeywordQueries {
    pub words: Box<dyn Query>,
    pub mask: Option<Arc<FilterMask>>,
    pub top_masked: bool,
    pub matching: Box<dyn Query>,
}

impl KeywordQueries {
    /// The words and the match set, without a mask (a field sort ranks the match set itself).
    pub fn unmasked(shard: &ShardView, request: &SearchRequest) -> KeywordQueries {
        let words = shard.words_query(request);
        let matching = filtered(words.box_clone(), shard.filter_clauses(request));
        KeywordQueries { words, mask: None, top_masked: false, matching }
    }

    /// The words with the filters as a mask when the filters admit a broad share of the shard
    /// (see `filter_mask`), else the words and filters intersected.
    pub fn masked(shard: &ShardView, request: &SearchRequest) -> crate::Result<KeywordQueries> {
        let words = shard.words_query(request);
        let clauses = shard.filter_clauses(request);
        let unfiltered = clauses.is_empty();
        let matching = filtered(words.box_clone(), clauses);
        let filters = &request.filters;
        // Id, story and URL lists (the evidence layer's look-ups) are narrow and differ per
        // call: a mask of them would be built for one search and intersected anyway.
        let per_call = !(filters.exclude_ids.is_empty() && filters.story_ids.is_empty() && filters.urls.is_empty());
        if unfiltered || per_call || request.query.trim().is_empty() {
            return Ok(KeywordQueries { words, mask: None, top_masked: false, matching });
        }
        let searcher = &shard.searcher;
        let mask = shard.masks.get_or_build(mask_key(filters), || FilterMask::build(searcher, shard.filter_clauses(request)))?;
        let top_masked = mask.is_broad(searcher.num_docs());
        Ok(KeywordQueries { words, mask: Some(mask), top_masked, matching })
    }

    /// What the top-k ranks: the bare words over a broad mask, else the match set.
    pub fn ranked(&self) -> (&dyn Query, Option<&FilterMask>) {
        if self.top_masked { (self.words.as_ref(), self.mask.as_deref()) } else { (self.matching.as_ref(), None) }
    }

    /// What the count counts: the words through the mask when there is one, else the match set
    /// (the words themselves when there are no filters).
    pub fn counted(&self) -> &dyn Query {
        if self.mask.is_some() { self.words.as_ref() } else { self.matching.as_ref() }
    }
}
