//! The closed vocabularies, declared once here: what a request may name (mode, sort, collapse,
//! where vectors come from) and the closed values a passage carries (source, content type,
//! safety, origin type, source role). Each becomes a Rust enum with its wire names, and the
//! TypeScript constant and union of `packages/schemas/src/vocabulary.generated.ts` (checked by
//! `tests/generated_typescript.rs`), which the zod schemas, ingest and the evidence layer read.
//! The binding crate makes its string enums from the same table (`vocabulary_table!`), with
//! conversions to these, so a value is written once.

/// A closed vocabulary: its Rust enum, and how TypeScript names its values.
pub trait Vocabulary: Copy + 'static {
    /// The TypeScript constant holding the values (`SEARCH_MODES`).
    const TS_CONSTANT: &'static str;
    /// The TypeScript union type of the values (`SearchMode`).
    const TS_TYPE: &'static str;
    /// What the values are, for the generated declaration's comment.
    const DOCS: &'static [&'static str];
    /// Every value, in declaration order (the order the API lists them in).
    const VALUES: &'static [&'static str];
}

macro_rules! vocabulary {
    (
        $(#[doc = $doc:literal])*
        pub enum $name:ident as $ts_type:ident in $ts_constant:ident $(default $default:ident)? {
            $(
                $(#[$variant_meta:meta])*
                $variant:ident = $value:literal
            ),* $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$variant_meta])* $variant, )*
        }

        $(impl Default for $name {
            fn default() -> Self {
                $name::$default
            }
        })?

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The value's wire name.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $value,)*
                }
            }

            /// The value of a wire name, or None for a name outside the vocabulary.
            pub fn parse(name: &str) -> Option<Self> {
                match name {
                    $($value => Some($name::$variant),)*
                    _ => None,
                }
            }
        }

        impl $crate::vocabulary::Vocabulary for $name {
            const TS_CONSTANT: &'static str = stringify!($ts_constant);
            const TS_TYPE: &'static str = stringify!($ts_type);
            const DOCS: &'static [&'static str] = &[$($doc),*];
            const VALUES: &'static [&'static str] = &[$($value),*];
        }

        impl $crate::record::TsType for $name {
            fn ts_type() -> String {
                <$name as $crate::vocabulary::Vocabulary>::TS_TYPE.to_string()
            }
        }
    };
}

/// The table of every closed vocabulary, handed to `$make`: `vocabulary!` below makes the
/// engine's enums from it, and the binding crate (`crates/engine-node/src/vocabulary.rs`) its
/// string enums, so each value is written once. Docs are `#[doc = "..."]` attributes: a `///`
/// comment passed through a macro reaches napi-rs as a raw string, whose `r"` it would print.
#[macro_export]
macro_rules! vocabulary_table {
    ($make:ident) => {
        $make! {
            #[doc = " How a search ranks (SPEC 4.1)."]
            pub enum Mode as SearchMode in SEARCH_MODES default Keyword {
                Keyword = "keyword",
                Semantic = "semantic",
                #[doc = " Keyword and vector rankings fused by score (see `VectorScoring`)."]
                Hybrid = "hybrid",
            }
        }
        $make! {
            #[doc = " The order of a result: relevance, or a field, largest (newest) first."]
            pub enum SortBy as SearchSort in SEARCH_SORTS default Relevance {
                Relevance = "relevance",
                #[doc = " fetched_at, newest first"]
                Recency = "recency",
                HostRank = "host_rank",
                Quality = "quality",
                #[doc = " published_at, newest first (undated last)"]
                Published = "published",
                #[doc = " word_count, longest first"]
                Words = "words",
                Centrality = "centrality",
            }
        }
        $make! {
            #[doc = " One result per host, page or story (the best-ranked one), or every row."]
            pub enum Collapse as CollapseBy in COLLAPSES default None {
                None = "none",
                Host = "host",
                Page = "page",
                Story = "story",
            }
        }
        $make! {
            #[doc = " Where a shard's vectors come from: `hashing` (the engine's model-free embedder, run by the"]
            #[doc = " writer for each passage and by the reader for each query text) or `external` (a model"]
            #[doc = " outside the engine: passages get theirs later, a query's vector comes with the request)."]
            pub enum VectorSource as VectorSourceName in VECTOR_SOURCES {
                Hashing = "hashing",
                External = "external",
            }
        }
        $make! {
            #[doc = " Which crawl a passage came from."]
            pub enum Source as SourceName in SOURCES {
                Cc = "cc",
                Delta = "delta",
            }
        }
        $make! {
            #[doc = " Content types a passage may carry (SPEC 2.1), the values of the content_type filter."]
            pub enum ContentType as ContentTypeName in CONTENT_TYPES {
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
        $make! {
            #[doc = " `explicit` passages are what the `safe` search parameter drops."]
            pub enum Safety as SafetyLevel in SAFETY_LEVELS {
                Safe = "safe",
                Explicit = "explicit",
            }
        }
        $make! {
            #[doc = " What a passage is (SPEC 2.6): a republish is a later copy of an origin already in its story."]
            pub enum OriginType as OriginType in ORIGIN_TYPES {
                Original = "original",
                Wire = "wire",
                PressRelease = "press_release",
                Republish = "republish",
                Unknown = "unknown",
            }
        }
        $make! {
            #[doc = " Who stands behind a passage (SPEC 2.6): official (government, regulator, court or"]
            #[doc = " university host), primary (documentation, academic paper, code, published document or an"]
            #[doc = " organisation's own release), secondary (reporting or reference about the subject),"]
            #[doc = " aggregator, ugc (forums, Q&A, social), unknown when nothing says."]
            pub enum SourceRole as SourceRole in SOURCE_ROLES {
                Official = "official",
                Primary = "primary",
                Secondary = "secondary",
                Aggregator = "aggregator",
                Ugc = "ugc",
                Unknown = "unknown",
            }
        }
    };
}

vocabulary_table!(vocabulary);

/// Every vocabulary's TypeScript declaration: the constant and its union type.
pub fn typescript_declaration<V: Vocabulary>() -> String {
    let mut text = String::new();
    match V::DOCS {
        [] => {}
        [line] => text.push_str(&format!("/** {} */\n", line.trim())),
        lines => {
            text.push_str("/**\n");
            for line in lines {
                text.push_str(&format!(" * {}\n", line.trim()));
            }
            text.push_str(" */\n");
        }
    }
    let values: Vec<String> = V::VALUES.iter().map(|value| format!("'{value}'")).collect();
    text.push_str(&format!("export const {} = [{}] as const;\n", V::TS_CONSTANT, values.join(", ")));
    text.push_str(&format!("export type {} = (typeof {})[number];\n", V::TS_TYPE, V::TS_CONSTANT));
    text
}
