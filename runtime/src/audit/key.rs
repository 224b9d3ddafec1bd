//! The key an audit log's lines are authenticated with: with one, each line's `hash` is an
//! HMAC-SHA-256 of its canonical form, which only a holder of the key can make again.

use std::fmt;

use hmac::{Hmac, KeyInit as _, Mac as _};
use sha2::Sha256;

/// The shortest key accepted, in bytes.
pub const MIN_KEY_BYTES: usize = 32;

/// A secret that authenticates an audit log's lines (`serve --audit-key-env VAR`,
/// [`AuditLogOptions::key`](super::AuditLogOptions::key)): at least 32 bytes, kept away from the
/// log (a secret store, the environment of the server's unit). Whoever can write the log but not
/// read the key cannot rewrite a line without [`verify`](super::verify_with) noticing.
#[derive(Clone)]
pub struct AuditKey(Vec<u8>);

impl fmt::Debug for AuditKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AuditKey(..)")
    }
}

/// A key that cannot authenticate a log: too short, or not readable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditKeyError(String);

impl fmt::Display for AuditKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AuditKeyError {}

impl AuditKey {
    /// The key's bytes, as given (at least [`MIN_KEY_BYTES`]).
    pub fn new(key: impl Into<Vec<u8>>) -> Result<AuditKey, AuditKeyError> {
        let key = key.into();
        if key.len() < MIN_KEY_BYTES {
            return Err(AuditKeyError(format!(
                "an audit key is at least {MIN_KEY_BYTES} bytes (this one has {}): make one with \
                 `head -c 32 /dev/urandom | base64`",
                key.len()
            )));
        }
        Ok(AuditKey(key))
    }

    /// The key in the environment variable `name` (its text, surrounding whitespace removed).
    pub fn from_env(name: &str) -> Result<AuditKey, AuditKeyError> {
        let value = std::env::var(name).map_err(|e| {
            AuditKeyError(format!(
                "the audit key's variable `{name}` cannot be read: {e}"
            ))
        })?;
        AuditKey::new(value.trim().as_bytes().to_vec())
            .map_err(|AuditKeyError(why)| AuditKeyError(format!("`{name}`: {why}")))
    }

    /// The key in the file at `path` (its text, surrounding whitespace removed).
    pub fn from_file(path: &std::path::Path) -> Result<AuditKey, AuditKeyError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            AuditKeyError(format!(
                "the audit key file {} cannot be read: {e}",
                path.display()
            ))
        })?;
        AuditKey::new(text.trim().as_bytes().to_vec())
            .map_err(|AuditKeyError(why)| AuditKeyError(format!("{}: {why}", path.display())))
    }

    /// HMAC-SHA-256 of `bytes`, lowercase hex.
    pub(super) fn mac(&self, bytes: &[u8]) -> String {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes any key length");
        mac.update(bytes);
        super::line::hex(&mac.finalize().into_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_long_enough_and_never_printed() {
        assert!(
            AuditKey::new(vec![7u8; 31])
                .unwrap_err()
                .to_string()
                .contains("at least 32")
        );
        let key = AuditKey::new(vec![7u8; 32]).unwrap();
        assert_eq!(format!("{key:?}"), "AuditKey(..)");
        // RFC 4231 test case 2's key is short; test case 6 with a 131-byte key:
        let key = AuditKey::new(vec![0xaa; 131]).unwrap();
        assert_eq!(
            key.mac(b"Test Using Larger Than Block-Size Key - Hash Key First"),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }
}
