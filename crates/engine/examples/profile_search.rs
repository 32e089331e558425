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

    /// Call `call(n)` for n = 0, 1, ... until `budget` has passed, timing each call; the sum of
    /// what the calls return is a checksum that keeps their work from being optimised away.
    fn run(&mut self, budget: Duration, mut call: impl FnMut(usize) -> u64) -> u64 {
        let started = Instant::now();
        let mut checksum = 0u64;
        let mut next = 0;
        while started.elapsed() < budget {
            let began = Instant::now();
            checksum = checksum.wrapping_add(call(next));
            self.samples.push(began.elapsed());
            next += 1;
        }
        checksum
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
    let seconds: f64 = match arguments.get(2).map(|value| value.parse::<f64>()) {
        None => 5.0,
        Some(Ok(seconds)) if seconds.is_finite() && seconds > 0.0 && seconds <= 3600.0 => seconds,
        Some(_) => fail("SECONDS: a number of seconds above 0 and at most 3600"),
    };
    let queries: Vec<String> = match arguments.get(3) {
        Some(file) => match std::fs::read_to_string(file) {
            Ok(text) => text.lines().filter(|line| !line.trim().is_empty()).map(String::from).collect(),
            Err(error) => fail(&format!("QUERIES_FILE {file}: {error}")),
        },
        None => BENCH_QUERIES.iter().map(|query| query.to_string()).collect(),
    };
    if queries.is_empty() {
        fail("QUERIES_FILE holds no query (one per line)");
    }
    let reader = ShardReader::open(Path::new(directory), &ShardOptions::default()).unwrap_or_else(|error| fail(&format!("SHARD_DIR {directory}: {error}")));
    println!("{} passages, {} queries, {seconds} s per stage", reader.num_docs(), queries.len());

    let request = |query: &str, limit: usize| SearchRequest { query: query.into(), limit, ..Default::default() };
    let budget = Duration::from_secs_f64(seconds);
    let mut full = Stage::new("search, top 10 + exact total + fetch");
    let mut one = Stage::new("search, top 1 + exact total + fetch");
    let mut count = Stage::new("search, limit 0 (the count alone)");
    let mut encode = Stage::new("MessagePack of the top-10 answer");
    let search = |query: &str, limit: usize| reader.search(&request(query, limit)).expect("search");
    let mut checksum = 0u64;

    for (stage, limit) in [(&mut full, 10usize), (&mut one, 1usize), (&mut count, 0usize)] {
        // Warm-up: one round of every query.
        for query in &queries {
            search(query, limit);
        }
        checksum = checksum.wrapping_add(stage.run(budget, |n| search(&queries[n % queries.len()], limit).total));
    }
    let answers: Vec<_> = queries.iter().map(|query| search(query, 10)).collect();
    checksum = checksum.wrapping_add(encode.run(budget, |n| to_msgpack(&answers[n % answers.len()]).expect("encode").len() as u64));
    println!("| stage | calls | mean ms | p50 ms | p99 ms |\n|---|---:|---:|---:|---:|");
    full.print();
    one.print();
    count.print();
    encode.print();
    println!("\n| query | total | top 10 + total, mean ms | count alone, mean ms |\n|---|---:|---:|---:|");
    for (query, answer) in queries.iter().zip(&answers) {
        let mean = |limit: usize| {
            let rounds = 50;
            let began = Instant::now();
            for _ in 0..rounds {
                search(query, limit);
            }
            began.elapsed().as_secs_f64() * 1000.0 / rounds as f64
        };
        println!("| {query} | {} | {:.3} | {:.3} |", answer.total, mean(10), mean(0));
    }
    println!("(checksum {checksum})");
}

fn fail(message: &str) -> ! {
    eprintln!("profile_search: {message}");
    std::process::exit(2);
}
