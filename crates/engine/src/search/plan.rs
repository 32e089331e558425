//! Which strategy answers a request: chosen in one place, `plan`.

use tantivy::Term;

use crate::error::Result;
use crate::request::{Collapse, Mode, SearchRequest, SortBy};
use crate::search::queries::KeywordQueries;
use crate::search::phrase_union::{phrase_disjunction, Clause};
use crate::search::query_shape::term_disjunction;
use crate::search::ShardView;

/// Candidates kept per shard when a rerank, collapse or fusion reorders them.
const RERANK_DEPTH_MIN: usize = 200;
const RERANK_DEPTH_MAX: usize = 1000;

/// How one shard answers one request.
pub struct SearchPlan {
    /// Candidates the strategy ranks: the limit, or deeper when a reorder follows.
    pub depth: usize,
    pub strategy: Strategy,
    /// What reorders the ranked candidates before collapse.
    pub reorder: Reorder,
}

/// The execution strategies, one file each (see `plan` for which request takes which).
pub enum Strategy {
    /// Block-max WAND top-k over the words, then a count that scores nothing (`wand_top_k.rs`).
    WandTopK { queries: KeywordQueries, counting: Counting },
    /// One pass that scores, ranks and counts every match (`one_pass.rs`).
    OnePass { queries: KeywordQueries },
    /// One pass over words and plain phrases that reads a phrase's positions only where they
    /// can change the top-k or the count (`phrase_union.rs`).
    PhraseUnion { queries: KeywordQueries, clauses: Vec<Clause> },
    /// No hits asked for: the count alone (`count_only.rs`).
    CountOnly { queries: KeywordQueries, counting: Counting },
    /// The top by a numeric fast field, counted in the same pass (`field_sort.rs`).
    FieldSort { queries: KeywordQueries, field: &'static str },
    /// Nearest neighbours as an address set, filtered (`semantic.rs`).
    Semantic,
    /// A keyword strategy (`WandTopK` or `OnePass`) and the nearest neighbours, fused by score
    /// (`hybrid.rs`).
    Hybrid { keyword: Box<Strategy> },
}

/// How a keyword strategy counts its matches.
pub enum Counting {
    /// The terms' postings decoded into a bitset per segment, through the filter mask when
    /// there is one (`postings_count.rs`).
    Postings(Vec<Term>),
    /// The match set's query run through the count collector.
    MatchSet,
}

/// What reorders the ranked candidates (collapse then applies to every strategy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reorder {
    None,
    /// Soft reranks lift scores (`prefer_recent`, `prefer_authority`).
    Rerank,
    /// A field sort over candidates ranked by meaning (a keyword field sort ranks by the field
    /// already).
    FieldSort,
}

/// The plan of a request: one strategy, its depth and the reorder after it.
///
/// | request | strategy | why |
/// |---|---|---|
/// | keyword, relevance, limit > 0, the ranked query a term or a disjunction of terms (bare words, unfiltered or over a broad filter mask) | `WandTopK` + `Counting::Postings` | block-max WAND skips blocks that cannot enter the top-k, which a pass that also counts cannot; the count then scores nothing and decodes postings into a bitset |
/// | keyword, relevance, limit > 0, the ranked query a disjunction of terms and plain phrases, at least one of each (a hyphenated word or a quoted phrase among bare words) | `PhraseUnion` | a phrase's positions are read only where a word does not match the passage already or its score may enter the top-k |
/// | keyword, relevance, limit > 0, anything else (phrases alone; AND, NOT; a phrase with slop; words intersected with narrow or per-call filters; browsing by relevance) | `OnePass` | nothing for WAND to skip: two passes would evaluate the phrases twice |
/// | keyword, limit 0 (any sort), the counted query (the words through the mask, else the match set) a disjunction of terms | `CountOnly` + `Counting::Postings` | the count alone, from postings |
/// | keyword, limit 0 (any sort), the counted query a disjunction of terms and plain phrases, at least one of each | `PhraseUnion` | the count alone; a phrase checked only in passages no word matches |
/// | keyword, limit 0, anything else (browsing, phrases, AND, NOT) | `CountOnly` + `Counting::MatchSet` | the count collector over the match set |
/// | keyword, sorted by a field, limit > 0 | `FieldSort` | the top by the field's column and the count in one pass; BM25 is still each row's score |
/// | semantic, with words or a vector | `Semantic` | nearest neighbours (at least 100) above the similarity floor, as an address set the filters, facets and counts run over |
/// | hybrid, with words or a vector | `Hybrid` (keyword part: `WandTopK` or `OnePass` by the rows above, at least 1 deep) | keyword and neighbours fused by score; counted as the keyword matches plus the neighbours the words miss |
/// | neither words nor a vector | as keyword | browsing |
///
/// Depth: the limit, or 5 x the limit within 200..=1000 when a rerank, a collapse or hybrid
/// fusion reorders the candidates. Reorder: a soft rerank under relevance order; a field sort
/// for semantic and hybrid (keyword field sorts rank by the field); collapse after either.
pub fn plan(shard: &ShardView, request: &SearchRequest) -> Result<SearchPlan> {
    // A request with neither words nor a vector browses, by keyword.
    let browsing = request.query.trim().is_empty() && request.vector.is_none();
    let mode = if browsing { Mode::Keyword } else { request.mode };
    let reorders = request.rerank.is_active() || request.collapse != Collapse::None || mode == Mode::Hybrid;
    let depth = if reorders && request.limit > 0 {
        (request.limit * 5).clamp(RERANK_DEPTH_MIN, RERANK_DEPTH_MAX)
    } else {
        request.limit
    };
    let strategy = match mode {
        Mode::Semantic => Strategy::Semantic,
        Mode::Hybrid => Strategy::Hybrid { keyword: Box::new(relevance_strategy(shard, request, depth.max(1))?) },
        Mode::Keyword => match request.sort.field_name() {
            Some(field) if depth > 0 => Strategy::FieldSort { queries: KeywordQueries::unmasked(shard, request), field },
            _ => relevance_strategy(shard, request, depth)?,
        },
    };
    let reorder = if request.sort == SortBy::Relevance {
        if request.rerank.is_active() { Reorder::Rerank } else { Reorder::None }
    } else if mode != Mode::Keyword {
        Reorder::FieldSort
    } else {
        Reorder::None
    };
    Ok(SearchPlan { depth, strategy, reorder })
}

/// The keyword strategy of a relevance ranking `depth` deep (0: the count alone).
fn relevance_strategy(shard: &ShardView, request: &SearchRequest, depth: usize) -> Result<Strategy> {
    let queries = KeywordQueries::masked(shard, request)?;
    let schema = shard.searcher.schema();
    if depth > 0 && term_disjunction(queries.ranked().0).is_none() {
        return Ok(match phrase_disjunction(queries.ranked().0, schema) {
            Some(clauses) => Strategy::PhraseUnion { queries, clauses },
            None => Strategy::OnePass { queries },
        });
    }
    if depth == 0 {
        if let Some(clauses) = phrase_disjunction(queries.counted(), schema) {
            return Ok(Strategy::PhraseUnion { queries, clauses });
        }
    }
    let counting = match term_disjunction(queries.counted()) {
        Some(terms) => Counting::Postings(terms),
        None => Counting::MatchSet,
    };
    Ok(if depth == 0 { Strategy::CountOnly { queries, counting } } else { Strategy::WandTopK { queries, counting } })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::{Filters, Rerank};
    use crate::test_shard::written_shard;
    use crate::{Passage, ShardReader};

    /// 200 passages on a common host, 2 on a rare one: a filter on the common host is a broad
    /// mask, on the rare one a narrow mask.
    fn shard() -> (tempfile::TempDir, ShardReader) {
        let passages: Vec<Passage> = (0..202)
            .map(|n| {
                let host = if n < 200 { "bakery.org" } else { "rare.org" };
                Passage {
                    id: format!("p{n}:0"),
                    page_id: format!("p{n}"),
                    url: format!("https://{host}/p{n}"),
                    host: host.into(),
                    text: ["rye bread", "spelt crumb", "rye spelt crumb"][n % 3].into(),
                    vertical: "cooking".into(),
                    fetched_at: 1_700_000_000 + n as i64,
                    ..Default::default()
                }
            })
            .collect();
        written_shard(&[&passages], &[])
    }

    fn shape(strategy: &Strategy) -> String {
        let counting = |counting: &Counting| match counting {
            Counting::Postings(_) => "Postings",
            Counting::MatchSet => "MatchSet",
        };
        match strategy {
            Strategy::WandTopK { counting: how, .. } => format!("WandTopK+{}", counting(how)),
            Strategy::OnePass { .. } => "OnePass".into(),
            Strategy::PhraseUnion { .. } => "PhraseUnion".into(),
            Strategy::CountOnly { counting: how, .. } => format!("CountOnly+{}", counting(how)),
            Strategy::FieldSort { field, .. } => format!("FieldSort({field})"),
            Strategy::Semantic => "Semantic".into(),
            Strategy::Hybrid { keyword } => format!("Hybrid({})", shape(keyword)),
        }
    }

    /// Each row of `plan`'s table, and the depth and reorder that go with it.
    #[test]
    fn each_query_shape_takes_its_strategy() {
        let (_directory, reader) = shard();
        let view = reader.view();
        let site = |host: &str| Filters { site: Some(host.into()), ..Default::default() };
        let request = |query: &str, limit: usize, filters: Filters| SearchRequest { query: query.into(), limit, filters, ..Default::default() };
        let rows: Vec<(SearchRequest, &str)> = vec![
            (request("rye spelt", 10, Filters::default()), "WandTopK+Postings"),
            (request("rye", 10, Filters::default()), "WandTopK+Postings"),
            (request("rye spelt", 10, Filters { safe: true, ..Default::default() }), "WandTopK+Postings"),
            (request("rye spelt", 10, site("bakery.org")), "WandTopK+Postings"),
            (request("rye spelt", 10, site("rare.org")), "OnePass"),
            (request("rye spelt", 10, Filters { story_ids: vec!["s".into()], ..Default::default() }), "OnePass"),
            (request("\"rye spelt\" crumb", 10, Filters::default()), "PhraseUnion"),
            (request("rye-spelt", 10, Filters::default()), "OnePass"),
            (request("rye-spelt crumb", 10, Filters::default()), "PhraseUnion"),
            (request("rye-spelt crumb", 10, site("bakery.org")), "PhraseUnion"),
            (request("rye-spelt crumb", 10, site("rare.org")), "OnePass"),
            (request("\"rye spelt\"~1 crumb", 10, Filters::default()), "OnePass"),
            (request("rye AND spelt", 10, Filters::default()), "OnePass"),
            (request("rye -spelt", 10, Filters::default()), "OnePass"),
            (request("", 10, Filters::default()), "OnePass"),
            (request("rye spelt", 0, Filters::default()), "CountOnly+Postings"),
            (request("rye spelt", 0, site("rare.org")), "CountOnly+Postings"),
            (request("\"rye spelt\" crumb", 0, Filters::default()), "PhraseUnion"),
            (request("rye-spelt crumb", 0, site("rare.org")), "PhraseUnion"),
            (request("\"rye spelt\"~1 crumb", 0, Filters::default()), "CountOnly+MatchSet"),
            (request("", 0, Filters::default()), "CountOnly+MatchSet"),
            (SearchRequest { sort: SortBy::Recency, ..request("rye spelt", 0, Filters::default()) }, "CountOnly+Postings"),
            (SearchRequest { sort: SortBy::Recency, ..request("rye spelt", 10, Filters::default()) }, "FieldSort(fetched_at)"),
            (SearchRequest { sort: SortBy::Words, ..request("", 10, Filters::default()) }, "FieldSort(word_count)"),
            (SearchRequest { mode: Mode::Semantic, ..request("rye spelt", 10, Filters::default()) }, "Semantic"),
            (SearchRequest { mode: Mode::Semantic, vector: Some(vec![1.0; 128]), ..request("", 10, Filters::default()) }, "Semantic"),
            (SearchRequest { mode: Mode::Semantic, ..request("", 10, Filters::default()) }, "OnePass"),
            (SearchRequest { mode: Mode::Hybrid, ..request("rye spelt", 10, Filters::default()) }, "Hybrid(WandTopK+Postings)"),
            (SearchRequest { mode: Mode::Hybrid, ..request("rye spelt", 0, Filters::default()) }, "Hybrid(WandTopK+Postings)"),
            (SearchRequest { mode: Mode::Hybrid, sort: SortBy::Recency, ..request("\"rye spelt\"", 10, Filters::default()) }, "Hybrid(OnePass)"),
            (SearchRequest { mode: Mode::Hybrid, ..request("rye-spelt crumb", 10, Filters::default()) }, "Hybrid(PhraseUnion)"),
            (SearchRequest { mode: Mode::Hybrid, ..request("rye AND spelt", 10, Filters::default()) }, "Hybrid(OnePass)"),
        ];
        for (request, expected) in rows {
            let planned = plan(&view, &request).unwrap();
            assert_eq!(shape(&planned.strategy), expected, "{:?} limit {} {:?}", request.query, request.limit, request.filters);
        }

        let depth_and_reorder = |request: SearchRequest| {
            let planned = plan(&view, &request).unwrap();
            (planned.depth, planned.reorder)
        };
        let rerank = Rerank { prefer_recent: true, ..Default::default() };
        assert_eq!(depth_and_reorder(request("rye", 10, Filters::default())), (10, Reorder::None));
        assert_eq!(depth_and_reorder(SearchRequest { rerank: rerank.clone(), ..request("rye", 10, Filters::default()) }), (200, Reorder::Rerank));
        assert_eq!(depth_and_reorder(SearchRequest { collapse: Collapse::Host, ..request("rye", 300, Filters::default()) }), (1000, Reorder::None));
        assert_eq!(depth_and_reorder(SearchRequest { mode: Mode::Hybrid, ..request("rye", 100, Filters::default()) }), (500, Reorder::None));
        assert_eq!(depth_and_reorder(SearchRequest { rerank, sort: SortBy::Recency, ..request("rye", 10, Filters::default()) }), (200, Reorder::None));
        assert_eq!(depth_and_reorder(SearchRequest { mode: Mode::Semantic, sort: SortBy::Recency, ..request("rye", 10, Filters::default()) }), (10, Reorder::FieldSort));
        assert_eq!(depth_and_reorder(SearchRequest { collapse: Collapse::Story, ..request("rye", 0, Filters::default()) }), (0, Reorder::None));
    }
}
