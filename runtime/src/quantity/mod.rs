//! The uom family (the `uom` feature): uom's quantity types (`Length`, `Force`, `Angle`, …) as
//! parameters, fields and outputs (`uom.rs`; see [`crate::probe`] for how a family plugs in).
//!
//! A quantity's schema is a number carrying two private keywords until the toolbox is built
//! ([`crate::schema::keys`]): `x-toolwright-quantity` (which quantity, so an undeclared unit
//! defaults to its SI unit) and, when the declared unit is not the SI one, `x-toolwright-scale`
//! (`[factor, offset]` to SI). The quantities and units toolwright knows are the schema layer's
//! (`crate::schema::units`); the toolbox compiles the scales into an
//! [`Adapter`](crate::adapt::Adapter) per direction and strips both keywords before anything is
//! published.

mod uom;
