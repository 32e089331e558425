//! Where a keyword search's time goes on one shard, outside Node: the bench queries (or the
//! lines of a file) searched top-10 with the exact total, in this thread, stage by stage.
//!
//! ```sh
//! cargo run --release -p evidence-engine --example profile_search -- SHARD_DIR [SECONDS] [QUERIES_FILE]
//! ```
//!
//! `SHARD_DIR` is one shard of a hashing index (`DATA_DIR/shards/0`). It prints, per stage, the
//! mean and p50 per query: the whole `search` (plan, top-k, count, fetch), the same with limit 0
//! (the count alone), and the MessagePack encoding of the answer (what crosses to Node). Run it
//! under `perf record -e cpu-clock -g` for a profile by function.

use std::path::Path;
use std::time::{Duration, Instant};

use evidence_engine::{to_msgpack, SearchRequest, ShardOptions, ShardReader};

/// The queries of `bench/src/queries.ts` (the bench and the Lucene peer cycle through them).
const BENCH_QUERIES: [&str; 20] = [
    "sourdough starter hydration",
    "cast iron skillet seasoning",
    "rust borrow checker lifetimes",
    "kubernetes pod autoscaling",
    "interest rate inflation central bank",
    "bond yield curve",
    "vaccine trial efficacy",
    "blood pressure medication",
    "exoplanet atmosphere spectra",
    "quantum error correction",
    "marathon training plan",
    "transfer window signing",
    "patagonia hiking trails",
    "carry-on baggage rules",
    "copyright fair use",
    "antitrust merger review",
    "student loan forgiveness",
    "early childhood literacy",
    "wildfire evacuation orders",
    "transit strike negotiations",
];

struct Stage {
    name: &'static str,
    samples: Vec<Duration>,
}

impl Stage {
    fn new(name: &'static str) -> Stage {
        Stage { name, samples: Vec::new() }
    }

    fn print(&mut self) {
        self.samples.sort();
        let count = self.samples.len().max(1);
        let mean = self.samples.iter().sum::<Duration>().as_secs_f64() * 1000.0 / count as f64;
        let p50 = self.samples.get(self.samples.len() / 2).map_or(0.0, |sample| sample.as_secs_f64() * 1000.0);
        let p99 = self.samples.get(self.samples.len() * 99 / 100).map_or(0.0, |sample| sample.as_secs_f64() * 1000.0);
        println!("| {} | {} | {:.3} | {:.3} | {:.3} |", self.name, self.samples.len(), mean, p50, p99);
    }
}

fn main() {
    let arguments: Vec<String> = std::env::args().collect();
    let Some(directory) = arguments.get(1) else {
        eprintln!("usage: profile_search SHARD_DIR [SECONDS] [QUERIES_FILE]");
        std::process::exit(2);
    };
    let seconds: f64 = arguments.get(2).map_or(5.0, |value| value.parse().expect("SECONDS: a number"));
    let queries: Vec<String> = match arguments.get(3) {
        Some(file) => std::fs::read_to_string(file).expect("QUERIES_FILE").lines().filter(|line| !line.trim().is_empty()).map(String::from).collect(),
        None => BENCH_QUERIES.iter().map(|query| query.to_string()).collect(),
    };
    let reader = ShardReader::open(Path::new(directory), &ShardOptions::default()).expect("open the shard");
    println!("{} passages, {} queries, {seconds} s per stage", reader.num_docs(), queries.len());

    let request = |query: &str, limit: usize| SearchRequest { query: query.into(), limit, ..Default::default() };
    let budget = Duration::from_secs_f64(seconds);
    let mut full = Stage::new("search, top 10 + exact total + fetch");
    let mut count = Stage::new("search, limit 0 (the count alone)");
    let mut encode = Stage::new("MessagePack of the top-10 answer");
    let mut total_hits = 0u64;

    for (stage, limit) in [(&mut full, 10usize), (&mut count, 0usize)] {
        // Warm-up: one round of every query.
        for query in &queries {
            reader.search(&request(query, limit)).expect("search");
        }
        let started = Instant::now();
        let mut next = 0;
        while started.elapsed() < budget {
            let query = &queries[next % queries.len()];
            next += 1;
            let began = Instant::now();
            let result = reader.search(&request(query, limit)).expect("search");
            stage.samples.push(began.elapsed());
            total_hits += result.total;
        }
    }
    let answers: Vec<_> = queries.iter().map(|query| reader.search(&request(query, 10)).expect("search")).collect();
    let started = Instant::now();
    let mut next = 0;
    while started.elapsed() < budget {
        let answer = &answers[next % answers.len()];
        next += 1;
        let began = Instant::now();
        let bytes = to_msgpack(answer).expect("encode");
        encode.samples.push(began.elapsed());
        total_hits += bytes.len() as u64 & 1;
    }
    println!("| stage | calls | mean ms | p50 ms | p99 ms |\n|---|---:|---:|---:|---:|");
    full.print();
    count.print();
    encode.print();
    println!("\n| query | total | top 10 + total, mean ms | count alone, mean ms |\n|---|---:|---:|---:|");
    for (query, answer) in queries.iter().zip(&answers) {
        let mean = |limit: usize| {
            let rounds = 50;
            let began = Instant::now();
            for _ in 0..rounds {
                reader.search(&request(query, limit)).expect("search");
            }
            began.elapsed().as_secs_f64() * 1000.0 / rounds as f64
        };
        println!("| {query} | {} | {:.3} | {:.3} |", answer.total, mean(10), mean(0));
    }
    println!("(checksum {total_hits})");
}
