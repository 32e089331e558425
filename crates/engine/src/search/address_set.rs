//! A query matching exactly a given set of documents of one searcher (the filtered nearest
//! neighbours of a semantic search), so filters, facets and counts run over them like over any
//! other match set. It matches by document address, not by a term-set query over vector keys
//! (whose automaton walks the whole key dictionary of every segment: most of a semantic search's
//! time on 1M passages).

use std::collections::HashMap;
use std::sync::Arc;

use tantivy::index::SegmentId;
use tantivy::query::{ConstScorer, EmptyScorer, EnableScoring, Explanation, Query, Scorer, Weight};
use tantivy::{DocAddress, DocId, DocSet, Score, Searcher, SegmentReader, TantivyError, TERMINATED};

#[derive(Clone, Debug)]
pub struct AddressSetQuery {
    /// Sorted, distinct doc ids per segment.
    docs: Arc<HashMap<SegmentId, Vec<DocId>>>,
}

impl AddressSetQuery {
    pub fn new(searcher: &Searcher, addresses: impl IntoIterator<Item = DocAddress>) -> Self {
        let mut docs: HashMap<SegmentId, Vec<DocId>> = HashMap::new();
        for address in addresses {
            let segment = searcher.segment_reader(address.segment_ord).segment_id();
            docs.entry(segment).or_default().push(address.doc_id);
        }
        for ids in docs.values_mut() {
            ids.sort_unstable();
            ids.dedup();
        }
        AddressSetQuery { docs: Arc::new(docs) }
    }
}

impl Query for AddressSetQuery {
    fn weight(&self, _scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(AddressSetWeight { docs: self.docs.clone() }))
    }
}

struct AddressSetWeight {
    docs: Arc<HashMap<SegmentId, Vec<DocId>>>,
}

impl AddressSetWeight {
    fn of(&self, reader: &SegmentReader) -> Option<&Vec<DocId>> {
        self.docs.get(&reader.segment_id()).filter(|ids| !ids.is_empty())
    }
}

impl Weight for AddressSetWeight {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        Ok(match self.of(reader) {
            Some(ids) => Box::new(ConstScorer::new(SortedDocs { ids: ids.clone(), cursor: 0 }, boost)),
            None => Box::new(EmptyScorer),
        })
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        match self.of(reader) {
            Some(ids) if ids.binary_search(&doc).is_ok() => Ok(Explanation::new("in the address set", 1.0)),
            _ => Err(TantivyError::InvalidArgument(format!("document {doc} is not in the address set"))),
        }
    }
}

/// A doc set over sorted, distinct doc ids.
struct SortedDocs {
    ids: Vec<DocId>,
    cursor: usize,
}

impl DocSet for SortedDocs {
    fn advance(&mut self) -> DocId {
        self.cursor = (self.cursor + 1).min(self.ids.len());
        self.doc()
    }

    fn seek(&mut self, target: DocId) -> DocId {
        let rest = &self.ids[self.cursor..];
        self.cursor += rest.partition_point(|doc| *doc < target);
        self.doc()
    }

    fn doc(&self) -> DocId {
        self.ids.get(self.cursor).copied().unwrap_or(TERMINATED)
    }

    fn size_hint(&self) -> u32 {
        (self.ids.len() - self.cursor) as u32
    }
}
