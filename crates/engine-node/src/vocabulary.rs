//! The engine's closed vocabularies as the binding's string enums, so the generated
//! `addon.d.cts` types them as unions of their values. They are made from the engine's one table
//! (`evidence_engine::vocabulary_table!`, in `crates/engine/src/vocabulary.rs`): each enum is
//! named as its TypeScript union (`SearchMode` for the engine's `Mode`), carries the same wire
//! values and converts to and from the engine's enum with an exhaustive match.

use napi_derive::napi;

macro_rules! binding_vocabulary {
    (
        $(#[doc = $doc:literal])*
        pub enum $engine:ident as $name:ident in $ts_constant:ident $(default $default:ident)? {
            $(
                $(#[doc = $variant_doc:literal])*
                $variant:ident = $value:literal
            ),* $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[napi(string_enum)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name {
            $(
                $(#[doc = $variant_doc])*
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

evidence_engine::vocabulary_table!(binding_vocabulary);
