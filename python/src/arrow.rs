//! Frames to Python without copying their columns: a polars frame becomes an Arrow C stream
//! (the [Arrow C stream interface]), one record batch per chunk, whose arrays share the frame's
//! buffers. [`ArrowStream`] hands it out through the Arrow PyCapsule interface
//! (`__arrow_c_stream__`), which polars (`pl.DataFrame(stream)`), pyarrow (`pa.table(stream)`) and
//! duckdb read.
//!
//! [Arrow C stream interface]: https://arrow.apache.org/docs/format/CStreamInterface.html

use std::ffi::{c_char, c_int, c_void};

use polars::prelude::{CompatLevel, DataFrame, PolarsResult};
use polars_arrow::array::{Array, StructArray};
use polars_arrow::datatypes::{ArrowDataType, Field};
use polars_arrow::ffi::{export_iterator, ArrowArrayStream};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;

/// `ArrowArrayStream` as the C interface lays it out (polars-arrow keeps its fields private): the
/// capsule's consumer moves it out and marks it released; one never consumed is released on drop.
#[repr(C)]
struct RawStream {
    get_schema: Option<unsafe extern "C" fn(*mut RawStream, *mut c_void) -> c_int>,
    get_next: Option<unsafe extern "C" fn(*mut RawStream, *mut c_void) -> c_int>,
    get_last_error: Option<unsafe extern "C" fn(*mut RawStream) -> *const c_char>,
    release: Option<unsafe extern "C" fn(*mut RawStream)>,
    private_data: *mut c_void,
}

// SAFETY: the stream owns its batches (reference-counted buffers, no thread affinity); the C
// interface lets any one thread at a time call it.
unsafe impl Send for RawStream {}

impl Drop for RawStream {
    fn drop(&mut self) {
        if let Some(release) = self.release {
            // SAFETY: not released yet (a consumer that moved it out set `release` to null).
            unsafe { release(self) }
        }
    }
}

impl RawStream {
    fn of(stream: ArrowArrayStream) -> RawStream {
        // SAFETY: both are the C interface's struct, `#[repr(C)]` with the same five fields; the
        // stream's ownership moves (its Drop does not run here).
        unsafe { std::mem::transmute::<ArrowArrayStream, RawStream>(stream) }
    }
}

/// A frame's record batches, handed out through `__arrow_c_stream__` as often as a reader asks
/// (duckdb reads the schema, then the data): each stream shares the frame's buffers.
#[pyclass(module = "haifu._haifu", name = "ArrowStream", frozen)]
pub struct ArrowStream {
    frame: DataFrame,
}

impl ArrowStream {
    pub fn new(frame: DataFrame) -> ArrowStream {
        ArrowStream { frame }
    }
}

#[pymethods]
impl ArrowStream {
    /// The Arrow PyCapsule interface: a capsule named "arrow_array_stream" holding the frame's
    /// batches. `requested_schema` is not supported (the frame's own schema is given).
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        // a clone shares the columns' buffers
        let stream = RawStream::of(export(self.frame.clone()));
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }

    fn __repr__(&self) -> String {
        format!("<haifu ArrowStream {} rows x {} columns>", self.frame.height(), self.frame.width())
    }
}

/// The frame as a C stream of struct arrays, one per chunk (the chunks aligned first: a no-op for
/// the frames haifu builds, whose columns are chunked alike).
fn export(mut frame: DataFrame) -> ArrowArrayStream {
    frame.align_chunks();
    let level = CompatLevel::newest();
    let fields: Vec<Field> = frame.columns().iter().map(|c| c.field().to_arrow(level)).collect();
    let dtype = ArrowDataType::Struct(fields);
    let batches: Vec<PolarsResult<Box<dyn Array>>> = frame
        .iter_chunks(level, false)
        .map(|batch| {
            let len = batch.height();
            let arrays = batch.into_arrays();
            Ok(StructArray::new(dtype.clone(), len, arrays, None).boxed())
        })
        .collect();
    export_iterator(Box::new(batches.into_iter()), Field::new("".into(), dtype, false))
}
