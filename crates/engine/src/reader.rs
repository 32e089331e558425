//! The shard reader: the leaf of a scatter-gather search. Keyword search with the boolean
//! syntax of SPEC 4.1 (AND, OR, -term, "exact phrase"; bare terms are OR-ed and ranked by BM25),
//! collected segment by segment so the deadline is checked between segments, then only the
//! top-k documents are fetched. Readers never reload on their own (no watcher thread): the owner
//! calls `reload` when a commit notice says so.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;
use tantivy::collector::{Collector, Count, TopDocs};
use tantivy::query::{EnableScoring, Query, QueryParser, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{DocAddress, Index, IndexReader, ReloadPolicy, Searcher, TantivyDocument, Term};

use crate::deadline::Deadline;
use crate::error::Result;
use crate::passage::{Document, Hit, StoredReader};
use crate::schema::ShardFields;
use crate::shard::{open_index, ShardOptions};
use crate::vectors::VectorIndex;

/// Title matches weigh more than body matches.
const TITLE_BOOST: f32 = 1.5;

#[derive(Clone, Debug)]
pub struct SearchRequest {
    pub query: String,
    /// Hits to return; 0 counts matches only.
    pub limit: usize,
    pub deadline: Deadline,
}

/// What one shard answers; the pool merges these.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ShardSearchResult {
    pub hits: Vec<Hit>,
    /// Exact number of live matches in the segments searched.
    pub total: u64,
    /// The deadline cut the search short: `total` and `hits` cover only part of the shard.
    pub timed_out: bool,
    pub elapsed_us: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct ReloadReport {
    pub num_docs: u64,
    pub segments: u64,
    pub vectors: u64,
}

pub struct ShardReader {
    directory: PathBuf,
    dimensions: usize,
    index: Index,
    fields: ShardFields,
    reader: IndexReader,
    query_parser: QueryParser,
    vectors: VectorIndex,
}

impl ShardReader {
    pub fn open(directory: &Path, options: &ShardOptions) -> Result<Self> {
        let (index, fields) = open_index(directory)?;
        let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()?;
        let mut query_parser = QueryParser::for_index(&index, vec![fields.title, fields.text]);
        query_parser.set_field_boost(fields.title, TITLE_BOOST);
        let vectors = VectorIndex::open_view(directory, options.dimensions)?;
        Ok(ShardReader {
            directory: directory.to_path_buf(),
            dimensions: options.dimensions,
            index,
            fields,
            reader,
            query_parser,
            vectors,
        })
    }

    /// Pick up the latest commit: new segments and the newly saved vectors.
    pub fn reload(&mut self) -> Result<ReloadReport> {
        self.reader.reload()?;
        self.vectors = VectorIndex::open_view(&self.directory, self.dimensions)?;
        let searcher = self.reader.searcher();
        Ok(ReloadReport {
            num_docs: searcher.num_docs(),
            segments: searcher.segment_readers().len() as u64,
            vectors: self.vectors.len() as u64,
        })
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

    /// Parse the caller's query leniently: a stray quote or colon degrades, never errors.
    pub fn parse_query(&self, text: &str) -> Box<dyn Query> {
        let (query, _errors) = self.query_parser.parse_query_lenient(text);
        query
    }

    pub fn search(&self, request: &SearchRequest) -> Result<ShardSearchResult> {
        let started = Instant::now();
        let deadline = request.deadline;
        if deadline.is_expired() {
            return Ok(ShardSearchResult { timed_out: true, ..Default::default() });
        }
        let searcher = self.reader.searcher();
        let query = self.parse_query(&request.query);
        let (scored, total, timed_out) = if request.limit == 0 {
            let (total, timed_out) = collect_by_segment(&searcher, query.as_ref(), &Count, deadline, false)?;
            (Vec::new(), total as u64, timed_out)
        } else {
            let collector = (TopDocs::with_limit(request.limit).order_by_score(), Count);
            let ((top, total), timed_out) = collect_by_segment(&searcher, query.as_ref(), &collector, deadline, true)?;
            (top, total as u64, timed_out)
        };
        let hits = self.fetch_hits(&searcher, &scored)?;
        Ok(ShardSearchResult { hits, total, timed_out, elapsed_us: started.elapsed().as_micros() as u64 })
    }

    /// Second phase: read stored fields of the top-k only.
    fn fetch_hits(&self, searcher: &Searcher, scored: &[(f32, DocAddress)]) -> Result<Vec<Hit>> {
        let mut hits = Vec::with_capacity(scored.len());
        for (score, address) in scored {
            let doc: TantivyDocument = searcher.doc(*address)?;
            hits.push(StoredReader { doc: &doc, fields: &self.fields }.hit(*score as f64));
        }
        Ok(hits)
    }

    fn find_address(&self, searcher: &Searcher, term: Term) -> Result<Option<DocAddress>> {
        let query = TermQuery::new(term, IndexRecordOption::Basic);
        let found = searcher.search(&query, &TopDocs::with_limit(1).order_by_score())?;
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
    let mut timed_out = false;
    for (segment_ordinal, segment_reader) in searcher.segment_readers().iter().enumerate() {
        if deadline.is_expired() {
            timed_out = true;
            break;
        }
        fruits.push(collector.collect_segment(weight.as_ref(), segment_ordinal as u32, segment_reader)?);
    }
    Ok((collector.merge_fruits(fruits)?, timed_out))
}
