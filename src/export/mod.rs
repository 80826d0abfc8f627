//! Records written out for other programs, from a replay: JCloisterZone saves (`jcz`) and the
//! scoring events as CSV (`csv`). The native format is `record::native`, since it is the
//! record itself.

pub mod csv;
pub mod jcz;
