//! Source text to syntax tree. The pest grammar and its types stay inside
//! this module; the rest of the compiler sees only [`ast`].

pub mod ast;
mod mistakes;
mod parse;
pub mod trivia;

pub use parse::parse;
