//! scruffle (see the issue that builds it).
