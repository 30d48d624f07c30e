//! Plain typed columns: what a stage hands to a table writer. No polars types here, so the stages
//! that build tables (ingest rows, stats) compile without the parquet stack; turning them into a
//! polars frame is [`crate::dataset::parquet`]'s job.

/// One typed column's values.
#[derive(Clone, Debug)]
pub enum Values {
    Bool(Vec<bool>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    I8(Vec<i8>),
    I16(Vec<i16>),
    I32(Vec<i32>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    Str(Vec<String>),
}

impl Values {
    /// Number of values.
    pub fn len(&self) -> usize {
        match self {
            Values::Bool(v) => v.len(),
            Values::U8(v) => v.len(),
            Values::U16(v) => v.len(),
            Values::U32(v) => v.len(),
            Values::U64(v) => v.len(),
            Values::I8(v) => v.len(),
            Values::I16(v) => v.len(),
            Values::I32(v) => v.len(),
            Values::F32(v) => v.len(),
            Values::F64(v) => v.len(),
            Values::Str(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Named columns of equal length.
#[derive(Clone, Debug, Default)]
pub struct Columns {
    pub names: Vec<String>,
    pub values: Vec<Values>,
}

impl Columns {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, name: &str, values: Values) -> &mut Self {
        self.names.push(name.to_string());
        self.values.push(values);
        self
    }

    pub fn height(&self) -> usize {
        self.values.first().map_or(0, Values::len)
    }
}
