//! How a record (a Passage going in, a Hit or Document coming out) is declared once: the
//! `record!` macro takes one table of fields and makes the struct, its MessagePack shape (an
//! absent optional field is left out, never null), the conversion from a stored document, the
//! conversion into a Tantivy document, and the TypeScript declaration of what the bytes hold
//! (checked into `packages/native/src/records.generated.ts` by `tests/generated_typescript.rs`).
//! A record can also be written as a row (`Row`): a MessagePack array of its fields in the
//! table's order, an absent one as nil, with the TypeScript that turns a row back into the
//! record generated beside its declaration. A search answer sends its hits so: a row carries no
//! keys, and the object the generated code builds has one shape, where a decoded map is built key
//! by key (measured on the engine's answers: 10 hits decoded in 8 µs as rows, 28 µs as maps).
//!
//! Each field says where its value comes from: `stored` (the schema field of the same name),
//! `stored(other)` (another schema field: a hit's `snippet` is the stored `text`) or `computed`
//! (set by the search, never stored). `as Vocabulary` types the field in TypeScript with a closed
//! vocabulary (`vocabulary.rs`) while the engine keeps the stored string as it is.

use tantivy::schema::{Field, Value};
use tantivy::TantivyDocument;

/// A field left out of the MessagePack encoding: `None` and empty lists (every other value is
/// always written).
pub trait Absent {
    fn is_absent(&self) -> bool;
}

impl<T> Absent for Option<T> {
    fn is_absent(&self) -> bool {
        self.is_none()
    }
}

impl<T> Absent for Vec<T> {
    fn is_absent(&self) -> bool {
        self.is_empty()
    }
}

macro_rules! always_present {
    ($($ty:ty),*) => {
        $(impl Absent for $ty {
            fn is_absent(&self) -> bool {
                false
            }
        })*
    };
}
always_present!(String, f64, i64, u64);

/// A value read from a stored document: a missing single value reads as the type's empty value
/// (`""`, `0`) or `None`, a multi-valued field as every value in order.
pub trait FromStored: Sized {
    fn from_stored(doc: &TantivyDocument, field: Field) -> Self;
}

impl FromStored for Option<String> {
    fn from_stored(doc: &TantivyDocument, field: Field) -> Self {
        doc.get_first(field).and_then(|value| value.as_str().map(str::to_string))
    }
}

impl FromStored for String {
    fn from_stored(doc: &TantivyDocument, field: Field) -> Self {
        Option::<String>::from_stored(doc, field).unwrap_or_default()
    }
}

impl FromStored for Vec<String> {
    fn from_stored(doc: &TantivyDocument, field: Field) -> Self {
        doc.get_all(field).filter_map(|value| value.as_str().map(str::to_string)).collect()
    }
}

macro_rules! stored_number {
    ($ty:ty, $read:ident) => {
        impl FromStored for Option<$ty> {
            fn from_stored(doc: &TantivyDocument, field: Field) -> Self {
                doc.get_first(field).and_then(|value| value.$read())
            }
        }
        impl FromStored for $ty {
            fn from_stored(doc: &TantivyDocument, field: Field) -> Self {
                Option::<$ty>::from_stored(doc, field).unwrap_or_default()
            }
        }
    };
}
stored_number!(u64, as_u64);
stored_number!(i64, as_i64);
stored_number!(f64, as_f64);

/// A value written into a Tantivy document: `None` writes nothing, a list one value per item.
pub trait IntoStored {
    fn store(&self, doc: &mut TantivyDocument, field: Field);
}

impl IntoStored for String {
    fn store(&self, doc: &mut TantivyDocument, field: Field) {
        doc.add_text(field, self);
    }
}

impl IntoStored for u64 {
    fn store(&self, doc: &mut TantivyDocument, field: Field) {
        doc.add_u64(field, *self);
    }
}

impl IntoStored for i64 {
    fn store(&self, doc: &mut TantivyDocument, field: Field) {
        doc.add_i64(field, *self);
    }
}

impl IntoStored for f64 {
    fn store(&self, doc: &mut TantivyDocument, field: Field) {
        doc.add_f64(field, *self);
    }
}

impl<T: IntoStored> IntoStored for Option<T> {
    fn store(&self, doc: &mut TantivyDocument, field: Field) {
        if let Some(value) = self {
            value.store(doc, field);
        }
    }
}

impl<T: IntoStored> IntoStored for Vec<T> {
    fn store(&self, doc: &mut TantivyDocument, field: Field) {
        for value in self {
            value.store(doc, field);
        }
    }
}

/// A record written as a row: its fields in the table's order, an absent one (see `Absent`) as
/// nil.
pub trait RowRecord {
    fn serialize_row<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error>;
}

/// One record written as its row.
pub struct Row<'a, T>(pub &'a T);

impl<T: RowRecord> serde::Serialize for Row<'_, T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize_row(serializer)
    }
}

/// `#[serde(serialize_with = "crate::record::as_rows")]`: a list of records written as rows.
pub fn as_rows<T: RowRecord, S: serde::Serializer>(records: &[T], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(records.iter().map(Row))
}

/// The TypeScript type of a record field, and whether the field may be absent.
pub trait TsType {
    fn ts_type() -> String;
    const OPTIONAL: bool = false;
}

impl TsType for String {
    fn ts_type() -> String {
        "string".to_string()
    }
}

macro_rules! ts_number {
    ($($ty:ty),*) => {
        $(impl TsType for $ty {
            fn ts_type() -> String {
                "number".to_string()
            }
        })*
    };
}
ts_number!(f64, f32, i64, u64);

impl TsType for bool {
    fn ts_type() -> String {
        "boolean".to_string()
    }
}

impl<T: TsType> TsType for Option<T> {
    fn ts_type() -> String {
        T::ts_type()
    }
    const OPTIONAL: bool = true;
}

/// Lists are left out when empty, so optional in TypeScript.
impl<T: TsType> TsType for Vec<T> {
    fn ts_type() -> String {
        format!("{}[]", T::ts_type())
    }
    const OPTIONAL: bool = true;
}

impl<T: TsType> TsType for std::collections::HashMap<String, T> {
    fn ts_type() -> String {
        format!("Record<string, {}>", T::ts_type())
    }
}

/// One field of a TypeScript interface.
pub struct TsField {
    pub name: &'static str,
    pub docs: &'static [&'static str],
    pub ts_type: String,
    pub optional: bool,
}

/// A record's TypeScript declaration.
pub struct TsInterface {
    pub name: &'static str,
    pub docs: &'static [&'static str],
    pub fields: Vec<TsField>,
}

/// A record type that has a TypeScript declaration.
pub trait TsRecord {
    fn ts_interface() -> TsInterface;
}

fn doc_comment(lines: &[&str], indent: &str) -> String {
    let lines: Vec<&str> = lines.iter().map(|line| line.trim()).collect();
    match lines.as_slice() {
        [] => String::new(),
        [line] => format!("{indent}/** {line} */\n"),
        lines => {
            let mut text = format!("{indent}/**\n");
            for line in lines {
                text.push_str(&format!("{indent} * {line}\n"));
            }
            text.push_str(&format!("{indent} */\n"));
            text
        }
    }
}

impl TsInterface {
    pub fn render(&self) -> String {
        let mut text = doc_comment(self.docs, "");
        text.push_str(&format!("export interface {} {{\n", self.name));
        for field in &self.fields {
            text.push_str(&doc_comment(field.docs, "  "));
            let optional = if field.optional { "?" } else { "" };
            text.push_str(&format!("  {}{}: {};\n", field.name, optional, field.ts_type));
        }
        text.push_str("}\n");
        text
    }

    /// The row of this record as TypeScript (`RowRecord`): a labelled tuple type `NameRow` (an
    /// absent field as null), `nameRowFields` (the field at each position), and `nameFromRow`,
    /// which builds the record with its required fields in one object literal and adds each
    /// present optional one, in the table's order.
    pub fn render_row(&self) -> String {
        let name = self.name;
        let mut function_name = name.to_string();
        function_name[..1].make_ascii_lowercase();
        let mut text = format!("/** `{name}` as a search answer writes it: its fields in order, an absent one as null. */\nexport type {name}Row = [\n");
        for field in &self.fields {
            let nullable = if field.optional { " | null" } else { "" };
            text.push_str(&format!("  {}: {}{},\n", field.name, field.ts_type, nullable));
        }
        text.push_str("];\n\n");
        let names: Vec<String> = self.fields.iter().map(|field| format!("'{}'", field.name)).collect();
        text.push_str(&format!("/** The field at each position of a `{name}Row`. */\nexport const {function_name}RowFields = [{}] as const;\n\n", names.join(", ")));
        text.push_str(&format!("/** The `{name}` a row holds (absent fields left out, as in the map form). */\nexport function {function_name}FromRow(row: {name}Row): {name} {{\n"));
        text.push_str(&format!("  const record: {name} = {{\n"));
        for (index, field) in self.fields.iter().enumerate().filter(|(_, field)| !field.optional) {
            text.push_str(&format!("    {}: row[{index}],\n", field.name));
        }
        text.push_str("  };\n");
        for (index, field) in self.fields.iter().enumerate().filter(|(_, field)| field.optional) {
            text.push_str(&format!("  if (row[{index}] !== null) record.{} = row[{index}];\n", field.name));
        }
        text.push_str("  return record;\n}\n");
        text
    }
}

/// The TypeScript type of a field: its vocabulary's when it names one, else its Rust type's.
#[doc(hidden)]
#[macro_export]
macro_rules! __record_ts_type {
    ($ty:ty) => {
        <$ty as $crate::record::TsType>::ts_type()
    };
    ($ty:ty, $vocabulary:ty) => {
        <$vocabulary as $crate::record::TsType>::ts_type()
    };
}

/// A field's value read from a stored document, by where the table says it comes from.
macro_rules! record_value {
    ($doc:ident, $fields:ident, $field:ident, stored) => {
        $crate::record::FromStored::from_stored($doc, $fields.$field)
    };
    ($doc:ident, $fields:ident, $field:ident, stored($from:ident)) => {
        $crate::record::FromStored::from_stored($doc, $fields.$from)
    };
    ($doc:ident, $fields:ident, $field:ident, computed) => {
        Default::default()
    };
}

/// A field's value written into a Tantivy document (computed fields are never stored).
macro_rules! record_store {
    ($record:ident, $doc:ident, $fields:ident, $field:ident, stored) => {
        $crate::record::IntoStored::store(&$record.$field, $doc, $fields.$field)
    };
    ($record:ident, $doc:ident, $fields:ident, $field:ident, stored($from:ident)) => {
        $crate::record::IntoStored::store(&$record.$field, $doc, $fields.$from)
    };
    ($record:ident, $doc:ident, $fields:ident, $field:ident, computed) => {};
}

/// Declare a record from its field table (see the module comment).
macro_rules! record {
    (
        $(#[doc = $doc:literal])*
        #[derive($($derive:path),* $(,)?)]
        pub struct $name:ident {
            $(
                $(#[doc = $field_doc:literal])*
                pub $field:ident : $ty:ty = $source:ident $(($from:ident))? $(as $vocabulary:ty)?
            ),* $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[derive($($derive),*)]
        pub struct $name {
            $(
                $(#[doc = $field_doc])*
                #[serde(skip_serializing_if = "crate::record::Absent::is_absent")]
                pub $field: $ty,
            )*
        }

        #[allow(dead_code)]
        impl $name {
            /// The record from a stored document (computed fields at their default).
            pub(crate) fn from_stored(doc: &tantivy::TantivyDocument, fields: &crate::schema::ShardFields) -> Self {
                $name { $( $field: $crate::record::record_value!(doc, fields, $field, $source $(($from))?), )* }
            }

            /// Write the stored fields into a Tantivy document.
            pub(crate) fn store(&self, doc: &mut tantivy::TantivyDocument, fields: &crate::schema::ShardFields) {
                $( $crate::record::record_store!(self, doc, fields, $field, $source $(($from))?); )*
            }
        }

        impl $crate::record::RowRecord for $name {
            fn serialize_row<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                use serde::ser::SerializeTuple;
                let mut row = serializer.serialize_tuple([$(stringify!($field)),*].len())?;
                $(
                    if $crate::record::Absent::is_absent(&self.$field) {
                        row.serialize_element(&())?;
                    } else {
                        row.serialize_element(&self.$field)?;
                    }
                )*
                row.end()
            }
        }

        impl $crate::record::TsRecord for $name {
            fn ts_interface() -> $crate::record::TsInterface {
                $crate::record::TsInterface {
                    name: stringify!($name),
                    docs: &[$($doc),*],
                    fields: vec![$(
                        $crate::record::TsField {
                            name: stringify!($field),
                            docs: &[$($field_doc),*],
                            ts_type: $crate::__record_ts_type!($ty $(, $vocabulary)?),
                            optional: <$ty as $crate::record::TsType>::OPTIONAL,
                        },
                    )*],
                }
            }
        }
    };
}

pub(crate) use record;
pub(crate) use record_store;
pub(crate) use record_value;
