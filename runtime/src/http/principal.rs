//! Who is calling, once authentication has said so: the one identity everything stateful binds
//! to. A session (its event streams, its resumption, its handshake state), a per-client rate
//! limit, and what later hangs off a caller (a confirmation, a task, an MRTR `requestState`)
//! record the [`Principal`] that made them, and answer no other.
//!
//! The guard puts it in each authenticated request's extensions (`http::request::Parts`, which
//! rmcp hands to the handler in the request's extensions too); read it from there, and compare
//! or store [`Principal::as_str`], its one stable form:
//!
//! | authentication | principal | string form |
//! |---|---|---|
//! | OAuth token with `sub` | the issuer and the subject | `https://auth.example#sub:alice` |
//! | OAuth token without `sub` | the issuer and the `client_id` | `https://auth.example#client:robot-7` |
//! | static bearer token | whoever holds the token | `bearer` |
//! | none (loopback, `insecure_no_auth`) | no principal | – |
//!
//! An issuer URL has no `#` (a fragment is refused at start), so the form is unambiguous: the
//! same subject from two issuers, or a subject and a client id of the same name, are two
//! principals.

use std::fmt;
use std::sync::Arc;

/// An authenticated caller: an issuer and the token's subject (else its client id), or the
/// holder of the static bearer token. Equal principals have equal [`as_str`](Self::as_str).
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct Principal(Arc<str>);

impl Principal {
    /// The subject `sub` of a token from `issuer`.
    #[cfg_attr(not(feature = "oauth"), allow(dead_code))]
    pub(crate) fn subject(issuer: &str, subject: &str) -> Self {
        Principal(Arc::from(format!("{issuer}#sub:{subject}")))
    }

    /// The client `client_id` of a token from `issuer` that names no subject.
    #[cfg_attr(not(feature = "oauth"), allow(dead_code))]
    pub(crate) fn client(issuer: &str, client_id: &str) -> Self {
        Principal(Arc::from(format!("{issuer}#client:{client_id}")))
    }

    /// The holder of the server's static bearer token (every holder is the same principal).
    pub(crate) fn bearer() -> Self {
        Principal(Arc::from("bearer"))
    }

    /// A principal stored in its string form ([`as_str`](Self::as_str)) by this server, read
    /// back (from the session store).
    #[cfg_attr(not(feature = "redis"), allow(dead_code))]
    pub(crate) fn from_stored(form: &str) -> Self {
        Principal(Arc::from(form))
    }

    /// The stable string form: what to store, compare, and key limits on.
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }

    /// The string form, shared (for keys that outlive the request).
    pub(crate) fn shared(&self) -> Arc<str> {
        Arc::clone(&self.0)
    }
}

impl fmt::Display for Principal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Principal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Principal({:?})", self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_string_form_per_principal() {
        let alice = Principal::subject("https://auth.example", "alice");
        assert_eq!(alice.as_str(), "https://auth.example#sub:alice");
        assert_eq!(alice, Principal::from_stored(alice.as_str()));
        // The same name from another issuer, or as a client id, is someone else.
        assert_ne!(alice, Principal::subject("https://other.example", "alice"));
        assert_ne!(alice, Principal::client("https://auth.example", "alice"));
        assert_eq!(
            Principal::client("https://auth.example", "robot-7").as_str(),
            "https://auth.example#client:robot-7"
        );
        assert_eq!(Principal::bearer().as_str(), "bearer");
    }
}
