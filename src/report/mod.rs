//! Reports: PNG plots ([`plots`]) and markdown tables ([`markdown`]) that the stats, fit and
//! report stages write.

pub mod compare;
