//! The shard reader: opens a shard for reading, reloads it on a commit notice, and keeps what
//! each reader generation needs built once (vector key -> live document, every document's
//! vertical, the filter masks); it looks up stored documents and passage vectors by id, and
//! hands a view of the current generation to the search (`search/`). Readers never reload on
//! their own (no watcher thread): the owner calls `reload` when a commit notice says so.

use std::collections::HashMap;
use std::path::Path;

use serde::Serialize;
use tantivy::collector::TopDocs;
use tantivy::query::{Query, QueryParser, TermQuery};
use tantivy::schema::IndexRecordOption;
use tantivy::{DocAddress, Index, IndexReader, ReloadPolicy, Searcher, TantivyDocument, Term};

use crate::embedder::{embedding_input, Embedder, HashingEmbedder};
use crate::error::Result;
use crate::facets::VerticalTable;
use crate::passage::{Document, StoredReader};
use crate::schema::ShardFields;
use crate::search::filter_mask::{FilterMask, MaskCache};
use crate::request::SearchRequest;
use crate::search::{parse_query, ShardSearchResult, ShardView};
use crate::shard::{open_existing_index, vector_key, ShardOptions, VectorSource};
use crate::vectors::VectorStore;

#[derive(Clone, Debug, Serialize)]
pub struct ReloadReport {
    pub num_docs: u64,
    pub segments: u64,
    pub vectors: u64,
    /// Live passages that have a vector (semantic search reaches only these).
    pub embedded: u64,
    /// Vectors in the tail, searched exactly until a merge puts them in the HNSW graph.
    pub vector_tail: u64,
}

/// A passage still waiting for its vector: its id and the text a model embeds.
#[derive(Clone, Debug, PartialEq)]
pub struct EmbeddingInput {
    pub id: String,
    pub text: String,
}

pub struct ShardReader {
    index: Index,
    fields: ShardFields,
    reader: IndexReader,
    query_parser: QueryParser,
    vectors: VectorStore,
    /// The live document of each vector key in the current searcher (rebuilt on reload): the
    /// way from a nearest neighbour back to its passage.
    key_addresses: KeyAddresses,
    /// Every document's vertical, for the router's counting pass (rebuilt on reload).
    verticals: VerticalTable,
    /// Filter masks of the current reader generation (cleared on reload).
    masks: MaskCache,
    /// The live documents as a mask (rebuilt on reload).
    live: FilterMask,
    /// The hashing embedder for query texts, or None when the vectors come from outside the
    /// engine (the query vector must then come with the request).
    embedder: Option<HashingEmbedder>,
    /// Live passages with a vector in the current generation.
    embedded: u64,
}

impl ShardReader {
    pub fn open(directory: &Path, options: &ShardOptions) -> Result<Self> {
        let (index, fields) = open_existing_index(directory)?;
        let reader = index.reader_builder().reload_policy(ReloadPolicy::Manual).try_into()?;
        // Title and body weigh the same: a title boost measured worse on dbpedia (nDCG@10 0.375
        // at 2x, 0.384 at 1.5x, 0.406 at 1x) and made no difference on msmarco.
        let query_parser = QueryParser::for_index(&index, vec![fields.title, fields.text]);
        let vectors = VectorStore::open(directory, options.dimensions)?;
        let searcher = reader.searcher();
        let key_addresses = live_key_addresses(&searcher)?;
        let verticals = VerticalTable::build(&searcher)?;
        let embedded = count_embedded(&key_addresses, &vectors);
        Ok(ShardReader {
            index,
            fields,
            reader,
            query_parser,
            vectors,
            key_addresses,
            verticals,
            masks: MaskCache::default(),
            live: FilterMask::live(&searcher)?,
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
        self.vectors.reload()?;
        let searcher = self.reader.searcher();
        self.key_addresses = live_key_addresses(&searcher)?;
        self.verticals = VerticalTable::build(&searcher)?;
        self.masks.clear();
        self.live = FilterMask::live(&searcher)?;
        self.embedded = count_embedded(&self.key_addresses, &self.vectors);
        Ok(ReloadReport {
            num_docs: searcher.num_docs(),
            segments: searcher.segment_readers().len() as u64,
            vectors: self.vectors.len() as u64,
            embedded: self.embedded,
            vector_tail: self.vectors.tail_len() as u64,
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

    pub fn vectors(&self) -> &VectorStore {
        &self.vectors
    }

    /// Parse the caller's query leniently: a stray quote or colon degrades, never errors. A query
    /// nested past `MAX_QUERY_NESTING` matches nothing here (`search` refuses it before this).
    pub fn parse_query(&self, text: &str) -> Box<dyn Query> {
        parse_query(&self.query_parser, text)
    }

    /// Search the current generation (`search/plan.rs` says which strategy answers which request).
    pub fn search(&self, request: &SearchRequest) -> Result<ShardSearchResult> {
        crate::search::search(&self.view(), request)
    }

    /// The current generation as a search sees it.
    pub(crate) fn view(&self) -> ShardView<'_> {
        ShardView {
            searcher: self.reader.searcher(),
            fields: &self.fields,
            query_parser: &self.query_parser,
            vectors: &self.vectors,
            key_addresses: &self.key_addresses,
            verticals: &self.verticals,
            masks: &self.masks,
            live: &self.live,
            embedder: self.embedder.as_ref(),
            embedded: self.embedded,
        }
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
fn count_embedded(key_addresses: &KeyAddresses, vectors: &VectorStore) -> u64 {
    if vectors.is_empty() {
        return 0;
    }
    key_addresses.keys().filter(|key| vectors.contains(**key)).count() as u64
}

/// Vector keys are already xxh3 hashes of passage ids: the map uses them as they are.
pub(crate) type KeyAddresses = HashMap<u64, DocAddress, std::hash::BuildHasherDefault<KeyHasher>>;

#[derive(Default)]
pub(crate) struct KeyHasher(u64);

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
