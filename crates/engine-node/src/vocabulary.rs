//! The engine's closed vocabularies as the binding's string enums, so the generated
//! `addon.d.cts` types them as unions of their values. Each maps to the engine's enum with an
//! exhaustive match both ways: a value the engine adds does not compile here until it is added.
//! The names are the engine's wire names (`crates/engine/src/vocabulary.rs`), which the native
//! package's tests check by sending every value the generated schemas list through the binding.
//! Their docs are `#[doc = "..."]` attributes: napi-rs reads a `///` comment passed through a
//! macro as a raw string and would print its `r"` into the declarations.

use napi_derive::napi;

macro_rules! binding_vocabulary {
    (
        $(#[doc = $doc:tt])*
        pub enum $name:ident => $engine:ident { $($variant:ident = $value:literal),* $(,)? }
    ) => {
        $(#[doc = $doc])*
        #[napi(string_enum)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name {
            $(
                #[napi(value = $value)]
                $variant,
            )*
        }

        impl From<$name> for evidence_engine::$engine {
            fn from(value: $name) -> Self {
                match value {
                    $($name::$variant => evidence_engine::$engine::$variant,)*
                }
            }
        }

        impl From<evidence_engine::$engine> for $name {
            fn from(value: evidence_engine::$engine) -> Self {
                match value {
                    $(evidence_engine::$engine::$variant => $name::$variant,)*
                }
            }
        }

        impl $name {
            /// The wire name the engine stores.
            pub fn as_str(self) -> &'static str {
                evidence_engine::$engine::from(self).as_str()
            }
        }
    };
}

binding_vocabulary! {
    #[doc = " How a search ranks: `hybrid` fuses BM25 over a query-dependent scale with the cosine (see `VectorScoring`)."]
    pub enum SearchMode => Mode { Keyword = "keyword", Semantic = "semantic", Hybrid = "hybrid" }
}

binding_vocabulary! {
    #[doc = " The order of a result: relevance, or a field, largest (newest) first."]
    pub enum SearchSort => SortBy {
        Relevance = "relevance",
        Recency = "recency",
        HostRank = "host_rank",
        Quality = "quality",
        Published = "published",
        Words = "words",
        Centrality = "centrality",
    }
}

binding_vocabulary! {
    #[doc = " One result per host, page or story, or every row (`none`)."]
    pub enum CollapseBy => Collapse { None = "none", Host = "host", Page = "page", Story = "story" }
}

binding_vocabulary! {
    #[doc = " Where a shard's vectors come from: `hashing` (the engine's model-free embedder embeds"]
    #[doc = " passages at write and query texts at search) or `external` (a model outside the engine:"]
    #[doc = " passages get theirs through `ShardWriter.addVectors`, and semantic or hybrid searches carry"]
    #[doc = " the query vector)."]
    pub enum VectorSourceName => VectorSource { Hashing = "hashing", External = "external" }
}

binding_vocabulary! {
    #[doc = " Which crawl a passage came from."]
    pub enum SourceName => Source { Cc = "cc", Delta = "delta" }
}

binding_vocabulary! {
    #[doc = " Content types a passage may carry (SPEC 2.1)."]
    pub enum ContentTypeName => ContentType {
        Article = "article",
        News = "news",
        Docs = "docs",
        Reference = "reference",
        Qa = "qa",
        Forum = "forum",
        Academic = "academic",
        Product = "product",
        Code = "code",
        HowTo = "how-to",
        Opinion = "opinion",
        Video = "video",
        Document = "document",
    }
}

binding_vocabulary! {
    #[doc = " `explicit` passages are what a `safe` search drops."]
    pub enum SafetyLevel => Safety { Safe = "safe", Explicit = "explicit" }
}

binding_vocabulary! {
    #[doc = " What a passage is (SPEC 2.6)."]
    pub enum OriginType => OriginType {
        Original = "original",
        Wire = "wire",
        PressRelease = "press_release",
        Republish = "republish",
        Unknown = "unknown",
    }
}

binding_vocabulary! {
    #[doc = " Who stands behind a passage (SPEC 2.6)."]
    pub enum SourceRole => SourceRole {
        Official = "official",
        Primary = "primary",
        Secondary = "secondary",
        Aggregator = "aggregator",
        Ugc = "ugc",
        Unknown = "unknown",
    }
}
