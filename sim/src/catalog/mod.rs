//! Catalogs: the words of the core's data, one module per subject and language.
//!
//! The model itself speaks no language; it names what it computes with typed ids. A catalog
//! turns an id (and the values in force) into text.

pub mod relations_en;
