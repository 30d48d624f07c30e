//! push/fold (todo)
