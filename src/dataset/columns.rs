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

    /// Appends `other`'s values. Both must be of one type: the columns of one table come from
    /// one schema, so another type is a bug in the caller (it panics naming both).
    pub fn append(&mut self, other: &Values) {
        match (self, other) {
            (Values::Bool(a), Values::Bool(b)) => a.extend_from_slice(b),
            (Values::U8(a), Values::U8(b)) => a.extend_from_slice(b),
            (Values::U16(a), Values::U16(b)) => a.extend_from_slice(b),
            (Values::U32(a), Values::U32(b)) => a.extend_from_slice(b),
            (Values::U64(a), Values::U64(b)) => a.extend_from_slice(b),
            (Values::I8(a), Values::I8(b)) => a.extend_from_slice(b),
            (Values::I16(a), Values::I16(b)) => a.extend_from_slice(b),
            (Values::I32(a), Values::I32(b)) => a.extend_from_slice(b),
            (Values::F32(a), Values::F32(b)) => a.extend_from_slice(b),
            (Values::F64(a), Values::F64(b)) => a.extend_from_slice(b),
            (Values::Str(a), Values::Str(b)) => a.extend_from_slice(b),
            (a, b) => panic!("appending {} values to a {} column", b.type_name(), a.type_name()),
        }
    }

    fn type_name(&self) -> &'static str {
        match self {
            Values::Bool(_) => "bool",
            Values::U8(_) => "u8",
            Values::U16(_) => "u16",
            Values::U32(_) => "u32",
            Values::U64(_) => "u64",
            Values::I8(_) => "i8",
            Values::I16(_) => "i16",
            Values::I32(_) => "i32",
            Values::F32(_) => "f32",
            Values::F64(_) => "f64",
            Values::Str(_) => "str",
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn append_keeps_order_and_refuses_another_type() {
        let mut a = Values::U8(vec![1, 2]);
        a.append(&Values::U8(vec![3]));
        a.append(&Values::U8(vec![]));
        assert!(matches!(&a, Values::U8(v) if v == &[1, 2, 3]));
        let e = std::panic::catch_unwind(move || a.append(&Values::F32(vec![1.0]))).unwrap_err();
        let msg = e.downcast_ref::<String>().cloned().unwrap_or_default();
        assert!(msg.contains("f32") && msg.contains("u8"), "{msg}");
    }
}
