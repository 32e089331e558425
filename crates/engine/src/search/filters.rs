//! Filters become query clauses: IN-lists as term sets, bounds as fast-field ranges,
//! exclusions as must-not. Clauses score zero so they never change the ranking.

use std::ops::Bound;

use tantivy::query::{AllQuery, BooleanQuery, ConstScoreQuery, Occur, Query, RangeQuery, TermQuery, TermSetQuery};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::Term;

use crate::request::Filters;
use crate::schema::ShardFields;
use crate::vocabulary::Safety;

fn keyword_terms(field: Field, values: &[String]) -> Vec<Term> {
    values.iter().map(|value| Term::from_field_text(field, value)).collect()
}

fn in_set(field: Field, values: &[String]) -> Box<dyn Query> {
    Box::new(TermSetQuery::new(keyword_terms(field, values)))
}

fn exact(field: Field, value: &str) -> Box<dyn Query> {
    Box::new(TermQuery::new(Term::from_field_text(field, value), IndexRecordOption::Basic))
}

fn bound<T>(value: Option<T>, to_term: impl Fn(T) -> Term) -> Bound<Term> {
    match value {
        Some(value) => Bound::Included(to_term(value)),
        None => Bound::Unbounded,
    }
}

fn range_i64(field: Field, lower: Option<i64>, upper: Option<i64>) -> Option<Box<dyn Query>> {
    if lower.is_none() && upper.is_none() {
        return None;
    }
    let to_term = |value: i64| Term::from_field_i64(field, value);
    Some(Box::new(RangeQuery::new(bound(lower, to_term), bound(upper, to_term))))
}

fn range_u64(field: Field, lower: Option<u64>, upper: Option<u64>) -> Option<Box<dyn Query>> {
    if lower.is_none() && upper.is_none() {
        return None;
    }
    let to_term = |value: u64| Term::from_field_u64(field, value);
    Some(Box::new(RangeQuery::new(bound(lower, to_term), bound(upper, to_term))))
}

fn at_least_f64(field: Field, lower: Option<f64>) -> Option<Box<dyn Query>> {
    let lower = lower?;
    Some(Box::new(RangeQuery::new(Bound::Included(Term::from_field_f64(field, lower)), Bound::Unbounded)))
}

/// The clauses that restrict `base` to what the filters allow (filters only, no scoring).
pub fn filter_clauses(filters: &Filters, fields: &ShardFields, term_query: Option<Box<dyn Query>>) -> Vec<(Occur, Box<dyn Query>)> {
    let mut required: Vec<Box<dyn Query>> = Vec::new();
    let mut excluded: Vec<Box<dyn Query>> = Vec::new();
    if let Some(vertical) = &filters.vertical {
        required.push(exact(fields.vertical, vertical));
    }
    if let Some(site) = &filters.site {
        required.push(exact(fields.host, site));
    }
    if !filters.exclude_site.is_empty() {
        excluded.push(in_set(fields.host, &filters.exclude_site));
    }
    let lists = [
        (fields.tld, &filters.tld),
        (fields.lang, &filters.langs),
        (fields.content_type, &filters.content_type),
        (fields.authority, &filters.authority),
        (fields.topics, &filters.topic),
        (fields.community_id, &filters.community),
        (fields.story_id, &filters.story_ids),
        (fields.url, &filters.urls),
    ];
    for (field, values) in lists {
        if !values.is_empty() {
            required.push(in_set(field, values));
        }
    }
    if let Some(source) = &filters.source {
        required.push(exact(fields.source, source));
    }
    let ranges = [
        range_i64(fields.fetched_at, filters.fetched_from, filters.fetched_to),
        range_i64(fields.published_at, filters.published_from, filters.published_to),
        range_i64(fields.quality, filters.min_quality, None),
        range_u64(fields.word_count, filters.min_words, filters.max_words),
        range_u64(fields.independent_sources, filters.min_independent_sources, None),
        at_least_f64(fields.host_rank, filters.min_host_rank),
        at_least_f64(fields.centrality, filters.min_centrality),
    ];
    required.extend(ranges.into_iter().flatten());
    if let Some(term_query) = term_query {
        required.push(term_query);
    }
    if filters.safe {
        excluded.push(exact(fields.safety, Safety::Explicit.as_str()));
    }
    if !filters.exclude_ids.is_empty() {
        excluded.push(in_set(fields.id, &filters.exclude_ids));
    }
    let mut clauses: Vec<(Occur, Box<dyn Query>)> = required
        .into_iter()
        .map(|query| (Occur::Must, Box::new(ConstScoreQuery::new(query, 0.0)) as Box<dyn Query>))
        .collect();
    clauses.extend(excluded.into_iter().map(|query| (Occur::MustNot, query)));
    clauses
}

/// `base` restricted by the filter clauses (a must-not alone needs something to subtract from).
pub fn filtered(base: Box<dyn Query>, clauses: Vec<(Occur, Box<dyn Query>)>) -> Box<dyn Query> {
    if clauses.is_empty() {
        return base;
    }
    let mut all = vec![(Occur::Must, base)];
    all.extend(clauses);
    Box::new(BooleanQuery::new(all))
}

/// Every passage, for browsing and for filter-only matching.
pub fn everything() -> Box<dyn Query> {
    Box::new(AllQuery)
}
