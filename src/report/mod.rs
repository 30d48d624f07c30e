//! Reports: PNG plots ([`plots`]) and markdown tables ([`markdown`]) that the stats, fit and
//! report stages write.

pub mod compare;
pub mod markdown;
pub mod plots;

use std::path::Path;

/// Writes a file atomically: to `path.tmp` first, then renamed into place, so a reader never
/// sees half a file and a failed run leaves the previous output intact.
pub fn write_atomic(path: &Path, bytes: impl AsRef<[u8]>) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}
