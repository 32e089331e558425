//! Filters, sorts, collapse, facets and the semantic and hybrid modes of one shard.

use evidence_engine::{Collapse, Filters, Mode, Passage, SearchRequest, ShardOptions, ShardReader, ShardWriter, SortBy};

fn passage(id: &str, host: &str, text: &str, configure: impl FnOnce(&mut Passage)) -> Passage {
    let mut passage = Passage {
        id: id.to_string(),
        page_id: id.split(':').next().unwrap().to_string(),
        url: format!("https://{host}/{}", id.replace(':', "/")),
        host: host.into(),
        registrable_domain: host.into(),
        owner: host.into(),
        title: String::new(),
        text: text.into(),
        vertical: "cooking".into(),
        lang: "en".into(),
        host_rank: 0.5,
        quality: 50,
        fetched_at: 1_700_000_000,
        source: "cc".into(),
        story_id: format!("s-{id}"),
        tld: host.rsplit('.').next().unwrap().into(),
        word_count: text.split_whitespace().count() as u64,
        ..Default::default()
    };
    configure(&mut passage);
    passage
}

fn shard() -> (tempfile::TempDir, ShardReader) {
    let passages = vec![
        passage("a:0", "bakery.org", "sourdough bread with a long rise", |p| {
            p.fetched_at = 1_700_000_300;
            p.published_at = Some(1_690_000_000);
            p.host_rank = 0.9;
            p.story_id = "story-1".into();
        }),
        passage("a:1", "bakery.org", "sourdough crackers from discard", |p| {
            p.fetched_at = 1_700_000_100;
            p.story_id = "story-1".into();
        }),
        passage("b:0", "news.com", "sourdough craze sweeps the city bakeries", |p| {
            p.vertical = "news".into();
            p.fetched_at = 1_700_000_200;
            p.published_at = Some(1_699_000_000);
            p.host_rank = 0.2;
            p.lang = "de".into();
            p.safety = Some("explicit".into());
            p.content_type = Some("news".into());
        }),
        passage("c:0", "forum.net", "my sourdough starter smells of acetone", |p| {
            p.fetched_at = 1_700_000_400;
            p.content_type = Some("forum".into());
            p.source = "delta".into();
        }),
    ];
    let directory = tempfile::tempdir().unwrap();
    let options = ShardOptions::default();
    let mut writer = ShardWriter::open(directory.path(), &options).unwrap();
    writer.add(&passages).unwrap();
    writer.commit().unwrap();
    drop(writer);
    let reader = ShardReader::open(directory.path(), &options).unwrap();
    (directory, reader)
}

fn ids(reader: &ShardReader, request: SearchRequest) -> Vec<String> {
    reader.search(&request).unwrap().hits.into_iter().map(|hit| hit.id).collect()
}

fn sourdough(filters: Filters) -> SearchRequest {
    SearchRequest { query: "sourdough".into(), limit: 10, filters, ..Default::default() }
}

#[test]
fn filters_exclude_and_keep() {
    let (_dir, reader) = shard();
    let sorted = |filters| {
        let mut found = ids(&reader, sourdough(filters));
        found.sort();
        found
    };
    assert_eq!(sorted(Filters { site: Some("bakery.org".into()), ..Default::default() }), vec!["a:0", "a:1"]);
    assert_eq!(sorted(Filters { exclude_site: vec!["bakery.org".into()], ..Default::default() }), vec!["b:0", "c:0"]);
    assert_eq!(sorted(Filters { safe: true, ..Default::default() }), vec!["a:0", "a:1", "c:0"]);
    assert_eq!(sorted(Filters { langs: vec!["de".into()], ..Default::default() }), vec!["b:0"]);
    assert_eq!(sorted(Filters { min_host_rank: Some(0.5), ..Default::default() }), vec!["a:0", "a:1", "c:0"]);
    assert_eq!(sorted(Filters { fetched_from: Some(1_700_000_200), fetched_to: Some(1_700_000_300), ..Default::default() }), vec!["a:0", "b:0"]);
    assert_eq!(sorted(Filters { published_from: Some(1_695_000_000), ..Default::default() }), vec!["b:0"]);
    assert_eq!(sorted(Filters { content_type: vec!["forum".into(), "news".into()], ..Default::default() }), vec!["b:0", "c:0"]);
    assert_eq!(sorted(Filters { source: Some("delta".into()), ..Default::default() }), vec!["c:0"]);
    assert_eq!(sorted(Filters { tld: vec!["com".into(), "net".into()], ..Default::default() }), vec!["b:0", "c:0"]);
    assert_eq!(sorted(Filters { term: Some("starters".into()), ..Default::default() }), vec!["c:0"]);
    assert_eq!(sorted(Filters { vertical: Some("news".into()), ..Default::default() }), vec!["b:0"]);
}

#[test]
fn filters_do_not_change_scores() {
    let (_dir, reader) = shard();
    let plain = reader.search(&sourdough(Filters::default())).unwrap();
    let filtered = reader.search(&sourdough(Filters { site: Some("bakery.org".into()), ..Default::default() })).unwrap();
    for hit in filtered.hits {
        let same = plain.hits.iter().find(|other| other.id == hit.id).unwrap();
        assert_eq!(hit.score, same.score);
    }
}

#[test]
fn sorts_order_by_their_field() {
    let (_dir, reader) = shard();
    let by = |sort| ids(&reader, SearchRequest { sort, ..sourdough(Filters::default()) });
    assert_eq!(by(SortBy::Recency), vec!["c:0", "a:0", "b:0", "a:1"]);
    assert_eq!(by(SortBy::HostRank)[0], "a:0");
    assert_eq!(by(SortBy::Published)[..2], ["b:0".to_string(), "a:0".to_string()], "undated last");
}

#[test]
fn browse_without_query_lists_everything_by_sort() {
    let (_dir, reader) = shard();
    let result = reader
        .search(&SearchRequest { query: String::new(), limit: 2, sort: SortBy::Recency, ..Default::default() })
        .unwrap();
    assert_eq!(result.total, 4);
    assert_eq!(result.hits.iter().map(|hit| hit.id.as_str()).collect::<Vec<_>>(), vec!["c:0", "a:0"]);
}

#[test]
fn collapse_keeps_one_row_per_group_and_counts_the_rest() {
    let (_dir, reader) = shard();
    let result = reader.search(&SearchRequest { collapse: Collapse::Host, ..sourdough(Filters::default()) }).unwrap();
    assert_eq!(result.hits.len(), 3);
    assert_eq!(result.total, 4, "total stays the passage match count");
    let bakery = result.hits.iter().find(|hit| hit.host == "bakery.org").unwrap();
    assert_eq!(bakery.group_size, Some(2));
    let story = reader.search(&SearchRequest { collapse: Collapse::Story, ..sourdough(Filters::default()) }).unwrap();
    assert_eq!(story.hits.len(), 3);
}

#[test]
fn facets_count_the_match_set() {
    let (_dir, reader) = shard();
    let result = reader.search(&SearchRequest { facets: true, ..sourdough(Filters::default()) }).unwrap();
    let facets = result.facets.unwrap();
    assert_eq!(facets.host["bakery.org"], 2);
    assert_eq!(facets.vertical["cooking"], 3);
    assert_eq!(facets.source["delta"], 1);
    assert_eq!(facets.content_type["forum"], 1);
    assert_eq!(facets.published_year["2023"], 2);
}

#[test]
fn semantic_and_hybrid_rank_related_text() {
    let (_dir, reader) = shard();
    let semantic = reader
        .search(&SearchRequest { query: "sourdough starter acetone smell".into(), mode: Mode::Semantic, limit: 2, ..Default::default() })
        .unwrap();
    assert_eq!(semantic.hits[0].id, "c:0");
    assert!(semantic.hits.windows(2).all(|pair| pair[0].score >= pair[1].score));
    assert!(semantic.hits.iter().all(|hit| hit.score >= 0.1), "neighbours below the similarity floor are not matches");
    let hybrid = reader
        .search(&SearchRequest { query: "acetone".into(), mode: Mode::Hybrid, limit: 10, ..Default::default() })
        .unwrap();
    assert_eq!(hybrid.hits[0].id, "c:0");
    assert!(hybrid.total >= 1);
}

/// A trusted host whose passage scores below a low-trust host's on the words alone ranks above
/// it once `prefer_authority` is on (lifts 1.25 and 0.75 outweigh the length-normalisation gap),
/// and the plain order is asserted too so the test fails if the rerank does nothing.
#[test]
fn rerank_prefer_authority_lifts_trusted_hosts() {
    let passages = vec![
        passage("trusted:0", "trusted.org", "rye bread baked slowly in a wood oven", |p| p.host_rank = 1.0),
        passage("spam:0", "spam.com", "rye bread tips", |p| p.host_rank = 0.0),
        passage("other:0", "other.net", "nothing about grain here", |p| p.host_rank = 0.5),
    ];
    let directory = tempfile::tempdir().unwrap();
    let options = ShardOptions::default();
    let mut writer = ShardWriter::open(directory.path(), &options).unwrap();
    writer.add(&passages).unwrap();
    writer.commit().unwrap();
    drop(writer);
    let reader = ShardReader::open(directory.path(), &options).unwrap();
    let request = || SearchRequest { query: "rye bread".into(), limit: 10, ..Default::default() };
    assert_eq!(ids(&reader, request()), vec!["spam:0", "trusted:0"], "on the words alone the shorter low-trust passage leads");
    let mut lifted = request();
    lifted.rerank.prefer_authority = true;
    assert_eq!(ids(&reader, lifted), vec!["trusted:0", "spam:0"], "prefer_authority lifts the trusted host above it");
}

#[test]
fn passage_vector_of_known_and_unknown_ids() {
    let (_dir, reader) = shard();
    assert_eq!(reader.passage_vector("a:0").unwrap().unwrap().len(), 128);
    assert!(reader.passage_vector("zz:0").unwrap().is_none());
}

/// Totals and per-vertical counts of a bare-word query (counted from postings bitsets) agree
/// with a count by hand, across several segments and after deletions, in every mode that
/// counts (hybrid adds the neighbours the words miss); and with the generic counting pass of the same words behind a filter that keeps all.
#[test]
fn totals_are_exact_across_segments_and_deletions() {
    let directory = tempfile::tempdir().unwrap();
    let options = ShardOptions::default();
    let mut writer = ShardWriter::open(directory.path(), &options).unwrap();
    let mut expected_total = 0u64;
    let mut expected_split = std::collections::HashMap::<String, u64>::new();
    for batch in 0..3 {
        let passages: Vec<Passage> = (0..40)
            .map(|n| {
                let text = match n % 4 {
                    0 => "rye bread crumb",
                    1 => "spelt flour",
                    2 => "rye and spelt together",
                    _ => "nothing related here",
                };
                passage(&format!("p{batch}:{n}"), "bakery.org", text, |p| p.vertical = if n % 3 == 0 { "news".into() } else { "cooking".into() })
            })
            .collect();
        writer.add(&passages).unwrap();
        writer.commit().unwrap();
    }
    let deleted: Vec<String> = (0..40).step_by(5).map(|n| format!("p1:{n}")).collect();
    writer.delete(&deleted).unwrap();
    writer.commit().unwrap();
    drop(writer);
    for batch in 0..3 {
        for n in 0..40 {
            if n % 4 == 3 || (batch == 1 && n % 5 == 0) {
                continue;
            }
            expected_total += 1;
            *expected_split.entry(if n % 3 == 0 { "news" } else { "cooking" }.to_string()).or_insert(0) += 1;
        }
    }
    let reader = ShardReader::open(directory.path(), &options).unwrap();
    for limit in [0, 5] {
        let request = SearchRequest { query: "rye spelt".into(), limit, vertical_counts: true, ..Default::default() };
        let result = reader.search(&request).unwrap();
        assert_eq!(result.total, expected_total, "limit {limit}");
        assert_eq!(result.vertical_counts.unwrap(), expected_split, "limit {limit}");
        // Hybrid matches the keyword matches plus any neighbour the words miss.
        let hybrid = reader.search(&SearchRequest { mode: Mode::Hybrid, ..request }).unwrap();
        assert!(hybrid.total >= expected_total);
        assert_eq!(hybrid.vertical_counts.unwrap().values().sum::<u64>(), hybrid.total);
    }
    let generic = SearchRequest {
        query: "rye spelt".into(),
        limit: 0,
        vertical_counts: true,
        filters: Filters { site: Some("bakery.org".into()), ..Default::default() },
        ..Default::default()
    };
    let result = reader.search(&generic).unwrap();
    assert_eq!(result.total, expected_total);
    assert_eq!(result.vertical_counts.unwrap(), expected_split);
}

/// Which passage numbers a filter admits.
type Admits = Box<dyn Fn(usize) -> bool>;

/// A filter leaves the unfiltered ranking as it was minus what it refuses: the same documents in
/// the same order with the same scores, the same total and per-vertical counts as a count by
/// hand, across segments and deletions, whether the filter admits most of the shard (run as a
/// mask over the bare words) or little of it (words and filter intersected), and with `safe`.
#[test]
fn filtered_rankings_are_the_unfiltered_ranking_minus_the_refused() {
    let directory = tempfile::tempdir().unwrap();
    let options = ShardOptions::default();
    let mut writer = ShardWriter::open(directory.path(), &options).unwrap();
    let words = ["rye", "spelt", "rye spelt", "crumb", "rye rye crumb", "spelt bread rye", "oat"];
    for batch in 0..3 {
        let passages: Vec<Passage> = (0..70)
            .map(|n| {
                let filler = "and ".repeat(n % 9);
                let host = if n % 23 == 0 { "rare.org" } else { "bakery.org" };
                passage(&format!("p{batch}:{n}"), host, &format!("{} {filler}{}", words[n % words.len()], batch), |p| {
                    p.vertical = if n % 3 == 0 { "news".into() } else { "cooking".into() };
                    if n % 5 == 0 {
                        p.safety = Some("explicit".into());
                    }
                })
            })
            .collect();
        writer.add(&passages).unwrap();
        writer.commit().unwrap();
    }
    writer.delete(&(0..70).step_by(4).map(|n| format!("p1:{n}")).collect::<Vec<_>>()).unwrap();
    writer.commit().unwrap();
    drop(writer);
    let reader = ShardReader::open(directory.path(), &options).unwrap();
    let number = |id: &str| id.split(':').nth(1).unwrap().parse::<usize>().unwrap();
    // Bare words (block-max WAND, postings-bitset count) and a phrase with a word (one pass that
    // ranks and counts): the phrase matches "rye spelt" (n % 7 == 2), the word "crumb" n % 7 in
    // 3 and 4; deleted: batch 1, n % 4 == 0.
    let phrase_matches = (0..3).flat_map(|batch| (0..70).map(move |n| (batch, n))).filter(|(batch, n)| (2..=4).contains(&(n % 7)) && !(*batch == 1 && n % 4 == 0)).count();
    for query in ["rye spelt", "\"rye spelt\" crumb"] {
        let request = |filters: Filters, limit: usize| SearchRequest { query: query.into(), limit, vertical_counts: true, filters, ..Default::default() };
        let everything = reader.search(&request(Filters::default(), 1000)).unwrap();
        assert_eq!(everything.total as usize, everything.hits.len());
        if query.starts_with('"') {
            assert_eq!(everything.total as usize, phrase_matches);
        }
        let cases: Vec<(Filters, Admits)> = vec![
            (Filters { safe: true, ..Default::default() }, Box::new(|n| n % 5 != 0)),
            (Filters { vertical: Some("news".into()), ..Default::default() }, Box::new(|n| n % 3 == 0)),
            (Filters { vertical: Some("cooking".into()), safe: true, ..Default::default() }, Box::new(|n| n % 3 != 0 && n % 5 != 0)),
            (Filters { site: Some("rare.org".into()), ..Default::default() }, Box::new(|n| n % 23 == 0)),
            // A per-call list (story expansion in the evidence layer): intersected, never a mask.
            (
                Filters { story_ids: (0..3).flat_map(|batch| (2..70).step_by(7).map(move |n| format!("s-p{batch}:{n}"))).collect(), safe: true, ..Default::default() },
                Box::new(|n| n % 7 == 2 && n % 5 != 0),
            ),
        ];
        for (filters, admits) in cases {
            let label = format!("{filters:?}");
            let expected: Vec<_> = everything.hits.iter().filter(|hit| admits(number(&hit.id))).collect();
            for limit in [0, 3, 10, 1000] {
                // Twice: the second run reads the cached mask.
                for _ in 0..2 {
                    let found = reader.search(&request(filters.clone(), limit)).unwrap();
                    assert_eq!(found.total as usize, expected.len(), "{query} {label} limit {limit}");
                    let mut split = std::collections::HashMap::<String, u64>::new();
                    for hit in &expected {
                        *split.entry(hit.vertical.clone()).or_insert(0) += 1;
                    }
                    assert_eq!(found.vertical_counts.unwrap(), split, "{query} {label} limit {limit}");
                    let ranked: Vec<(String, f64)> = found.hits.iter().map(|hit| (hit.id.clone(), hit.score)).collect();
                    let wanted: Vec<(String, f64)> = expected.iter().take(limit).map(|hit| (hit.id.clone(), hit.score)).collect();
                    assert_eq!(ranked, wanted, "{query} {label} limit {limit}");
                }
            }
        }
    }
}

/// Hybrid scores are `BM25 / S + 0.3 x cosine` on every row, with the real BM25 also for a
/// neighbour the keyword top-k (200 deep) never reached, and the cosine alone for a neighbour
/// the words miss. Embeddings are supplied so the neighbours are known: 250 passages that say
/// the words point away from the query vector; 10 longer ones that say them too (so their BM25
/// ranks below the 250) and 10 that never do point at it; 500 one-word passages keep the
/// average length short, so the fused order is long neighbours, word-less neighbours, the 250.
#[test]
fn hybrid_fuses_the_real_bm25_of_neighbours_below_the_keyword_depth() {
    let axis = |slot: usize| {
        let mut vector = vec![0.0f32; 128];
        vector[slot] = 1.0;
        vector
    };
    let filler = "with notes on the weather the harvest the market and the long road home again";
    let mut passages: Vec<Passage> = (0..250)
        .map(|n| passage(&format!("s{n}:0"), "bakery.org", &format!("rye bread {filler} {filler}"), |p| p.embedding = Some(axis(1 + n % 7))))
        .collect();
    passages.extend((0..10).map(|n| {
        passage(&format!("d{n}:0"), "mill.org", &format!("rye bread {filler} {filler} {filler} {filler}"), |p| {
            let mut vector = axis(0);
            vector[20 + n] = 0.2;
            p.embedding = Some(vector);
        })
    }));
    passages.extend((0..10).map(|n| {
        passage(&format!("v{n}:0"), "mill.org", "barley porridge", |p| {
            let mut vector = axis(0);
            vector[40 + n] = 0.3;
            p.embedding = Some(vector);
            p.safety = if n % 2 == 0 { Some("explicit".into()) } else { None };
        })
    }));
    passages.extend((0..500).map(|n| passage(&format!("o{n}:0"), "farm.org", "oats", |p| p.embedding = Some(axis(8 + n % 7)))));
    let directory = tempfile::tempdir().unwrap();
    let options = ShardOptions::default();
    let mut writer = ShardWriter::open(directory.path(), &options).unwrap();
    writer.add(&passages[..400]).unwrap();
    writer.commit().unwrap();
    writer.add(&passages[400..]).unwrap();
    writer.commit().unwrap();
    drop(writer);
    let reader = ShardReader::open(directory.path(), &options).unwrap();

    for (query, filters) in [
        ("rye bread", Filters::default()),
        ("rye bread", Filters { safe: true, ..Default::default() }),
        ("\"rye bread\"", Filters::default()),
        ("\"rye bread\" spelt", Filters { safe: true, ..Default::default() }),
        ("rye AND bread", Filters::default()),
    ] {
        let request = SearchRequest { query: query.into(), vector: Some(axis(0)), limit: 1000, filters, ..Default::default() };
        let scores = |mode: Mode| -> std::collections::HashMap<String, f64> {
            let result = reader.search(&SearchRequest { mode, ..request.clone() }).unwrap();
            result.hits.into_iter().map(|hit| (hit.id, hit.score)).collect()
        };
        let keyword_result = reader.search(&SearchRequest { mode: Mode::Keyword, ..request.clone() }).unwrap();
        let keyword_rank: std::collections::HashMap<String, usize> =
            keyword_result.hits.iter().enumerate().map(|(rank, hit)| (hit.id.clone(), rank)).collect();
        let keyword = scores(Mode::Keyword);
        let semantic = scores(Mode::Semantic);
        let hybrid = reader.search(&SearchRequest { mode: Mode::Hybrid, limit: 30, ..request.clone() }).unwrap();

        let deep: Vec<&str> = ["d0:0", "d5:0", "d9:0"].into_iter().filter(|id| keyword_rank[*id] >= 200).collect();
        assert_eq!(deep.len(), 3, "{query}: the long passages rank below the keyword depth");
        let mut ratio: Option<f64> = None;
        let mut seen = (0, 0);
        for hit in &hybrid.hits {
            let cosine = semantic.get(&hit.id).copied().unwrap_or(0.0);
            match keyword.get(&hit.id) {
                Some(bm25) => {
                    let this = (hit.score - 0.3 * cosine) / bm25;
                    let first = *ratio.get_or_insert(this);
                    assert!((this - first).abs() < 1e-4 * first, "{query}: {} fuses {this}, others {first}", hit.id);
                    seen.0 += hit.id.starts_with('d') as usize;
                }
                None => {
                    assert!((hit.score - 0.3 * cosine).abs() < 1e-6, "{query}: {} matched no word", hit.id);
                    seen.1 += 1;
                }
            }
        }
        assert_eq!(seen.0, 10, "{query}: every long passage is fused with its BM25");
        let admitted = if request.filters.safe { 5 } else { 10 };
        assert_eq!(seen.1, admitted, "{query}: the neighbours the words miss (and the filters keep)");
        assert_eq!(hybrid.total, keyword_result.total + admitted as u64, "{query}");
    }
}

/// 3 segments of 40 passages (1 in 4 without either word), 8 of the middle segment deleted;
/// the vertical is "news" for every third passage. Returns the reader, the live passages that
/// say "rye" or "spelt" and their split per vertical, and every live passage's split.
fn counted_shard() -> (tempfile::TempDir, ShardReader, u64, std::collections::HashMap<String, u64>, std::collections::HashMap<String, u64>) {
    let directory = tempfile::tempdir().unwrap();
    let options = ShardOptions::default();
    let mut writer = ShardWriter::open(directory.path(), &options).unwrap();
    let mut matching = 0u64;
    let mut matching_split = std::collections::HashMap::<String, u64>::new();
    let mut live_split = std::collections::HashMap::<String, u64>::new();
    for batch in 0..3 {
        let passages: Vec<Passage> = (0..40)
            .map(|n| {
                let text = ["rye bread crumb", "spelt flour", "rye and spelt together", "nothing related here"][n % 4];
                passage(&format!("p{batch}:{n}"), "bakery.org", text, |p| {
                    p.vertical = if n % 3 == 0 { "news".into() } else { "cooking".into() };
                    p.fetched_at = 1_700_000_000 + (batch * 40 + n) as i64;
                })
            })
            .collect();
        writer.add(&passages).unwrap();
        writer.commit().unwrap();
        for n in 0..40 {
            if batch == 1 && n % 5 == 0 {
                continue;
            }
            let vertical = if n % 3 == 0 { "news" } else { "cooking" }.to_string();
            *live_split.entry(vertical.clone()).or_insert(0) += 1;
            if n % 4 != 3 {
                matching += 1;
                *matching_split.entry(vertical).or_insert(0) += 1;
            }
        }
    }
    writer.delete(&(0..40).step_by(5).map(|n| format!("p1:{n}")).collect::<Vec<_>>()).unwrap();
    writer.commit().unwrap();
    drop(writer);
    let reader = ShardReader::open(directory.path(), &options).unwrap();
    (directory, reader, matching, matching_split, live_split)
}

/// A field sort counts its matches (and splits them per vertical) in the pass that ranks them,
/// and a sorted count alone (limit 0) is the count of the words: both agree with a count by hand
/// across segments and deletions, and the rows come newest first.
#[test]
fn field_sorts_count_what_relevance_counts() {
    let (_dir, reader, matching, matching_split, live_split) = counted_shard();
    for limit in [0, 5] {
        for query in ["rye spelt", ""] {
            let request = SearchRequest { query: query.into(), limit, sort: SortBy::Recency, vertical_counts: true, ..Default::default() };
            let result = reader.search(&request).unwrap();
            let (total, split) = if query.is_empty() { (live_split.values().sum(), &live_split) } else { (matching, &matching_split) };
            assert_eq!(result.total, total, "{query:?} limit {limit}");
            assert_eq!(&result.vertical_counts.unwrap(), split, "{query:?} limit {limit}");
            assert_eq!(result.hits.len(), limit, "{query:?} limit {limit}");
            let fetched: Vec<i64> = result.hits.iter().map(|hit| hit.fetched_at).collect();
            assert!(fetched.windows(2).all(|pair| pair[0] > pair[1]), "{query:?} newest first: {fetched:?}");
            if limit > 0 {
                assert_eq!(result.hits[0].id, if query.is_empty() { "p2:39" } else { "p2:38" }, "{query:?}");
            }
        }
    }
}

/// Semantic mode counts per vertical over the neighbours it matched (the split sums to its
/// total), and a field sort reorders the same neighbours by the field.
#[test]
fn semantic_neighbours_count_per_vertical_and_sort_by_a_field() {
    let (_dir, reader, _, _, _) = counted_shard();
    let request = SearchRequest { query: "rye spelt together".into(), mode: Mode::Semantic, limit: 1000, vertical_counts: true, ..Default::default() };
    let by_meaning = reader.search(&request).unwrap();
    assert!(by_meaning.total > 1);
    assert_eq!(by_meaning.hits.len() as u64, by_meaning.total);
    assert_eq!(by_meaning.vertical_counts.unwrap().values().sum::<u64>(), by_meaning.total);
    let by_recency = reader.search(&SearchRequest { sort: SortBy::Recency, ..request }).unwrap();
    let fetched: Vec<i64> = by_recency.hits.iter().map(|hit| hit.fetched_at).collect();
    assert!(fetched.len() > 1 && fetched.windows(2).all(|pair| pair[0] > pair[1]), "newest first: {fetched:?}");
    let mut same_rows: Vec<&str> = by_recency.hits.iter().map(|hit| hit.id.as_str()).collect();
    let mut ranked_rows: Vec<&str> = by_meaning.hits.iter().map(|hit| hit.id.as_str()).collect();
    same_rows.sort();
    ranked_rows.sort();
    assert_eq!(same_rows, ranked_rows, "the same neighbours, reordered");
}
