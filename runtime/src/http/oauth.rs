//! OAuth 2.1 access tokens, checked as an MCP resource server must: a JWT signed by one of the
//! authorization server's keys (its JWKS, from the `jwks_uri` of its metadata, both cached),
//! issued by that server (`iss`), for this server (`aud` is its canonical resource URI, RFC
//! 8707), and current (`exp`, `nbf`). The caller is the token's subject (else its client id)
//! at that issuer ([`Principal`]).
//!
//! Key rotation: a token naming a key the cache lacks, or whose signature does not verify with
//! the cached key of its `kid` (an issuer reusing a `kid` for a new key, or rotating the only
//! key of a set whose tokens name none), has the keys fetched again before it is decided. Fetches
//! are at least [`MIN_REFETCH`] apart however many tokens ask (a request that needs one sooner
//! waits for that moment). A `jwks_uri` found through discovery obeys the rule a configured one
//! does (https, plain http only on a loopback host), or no key is fetched from it.
//!
//! The JWT crate (`jsonwebtoken`) does the cryptography; nothing here is hand-rolled.

use std::time::{Duration, Instant};

use std::sync::Arc;

use axum::body::Bytes;
use http_body_util::{BodyExt as _, Empty, Limited};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::Deserialize;
use tokio::sync::{Mutex, RwLock};
use url::Url;

use super::principal::Principal;
use crate::echo::echo;

/// Where tokens come from and whom they are for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(docsrs, doc(cfg(feature = "oauth")))]
pub struct OAuthConfig {
    /// The authorization server's issuer identifier (`iss` of its tokens), e.g.
    /// `https://auth.lab.example`.
    pub issuer: String,
    /// This server's canonical resource URI (`aud` of the tokens it accepts), e.g.
    /// `https://arm.lab.example/mcp`.
    pub resource: String,
    /// The issuer's key set; default: the `jwks_uri` of its metadata (RFC 8414, then OpenID
    /// discovery).
    pub jwks_uri: Option<String>,
    /// Clock skew allowed on `exp` and `nbf`, in seconds (default 30).
    pub leeway_s: u64,
}

impl OAuthConfig {
    /// Tokens from `issuer` for `resource`.
    pub fn new(issuer: impl Into<String>, resource: impl Into<String>) -> Self {
        Self {
            // Exactly as given: it is compared with the tokens' `iss` character for character.
            issuer: issuer.into(),
            resource: resource.into(),
            jwks_uri: None,
            leeway_s: 30,
        }
    }

    /// Checks the URLs: absolute, `https` (or `http` on a loopback host), no fragment.
    pub(crate) fn validate(&self) -> Result<(), String> {
        for (what, url) in [("issuer", &self.issuer), ("resource", &self.resource)]
            .into_iter()
            .chain(self.jwks_uri.iter().map(|u| ("JWKS URI", u)))
        {
            check_url(what, url)?;
        }
        Ok(())
    }
}

/// One URL the server fetches from or names: absolute, `https` (or `http` on a loopback host),
/// no fragment. `what` names it in the error.
fn check_url(what: &str, url: &str) -> Result<(), String> {
    let parsed =
        Url::parse(url).map_err(|e| format!("the OAuth {what} {} is not a URL: {e}", echo(url)))?;
    let host = parsed.host_str().unwrap_or_default();
    let loopback = host == "localhost"
        || host
            .trim_matches(['[', ']'])
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    if parsed.scheme() != "https" && !(parsed.scheme() == "http" && loopback) {
        return Err(format!(
            "the OAuth {what} {} must use https (plain http only on a loopback host)",
            echo(url)
        ));
    }
    if parsed.fragment().is_some() {
        return Err(format!(
            "the OAuth {what} {} must not have a fragment",
            echo(url)
        ));
    }
    Ok(())
}

/// What the server learns of a valid token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Claims {
    /// `sub` at the issuer, else `client_id` at the issuer.
    pub principal: Principal,
    /// The scopes it grants (`scope`, space-separated, or `scp`).
    pub scopes: Vec<String>,
}

#[derive(Deserialize)]
struct RawClaims {
    #[serde(default)]
    sub: Option<String>,
    #[serde(default)]
    client_id: Option<String>,
    #[serde(default)]
    scope: Option<String>,
    #[serde(default)]
    scp: Option<Vec<String>>,
}

struct Keys {
    set: JwkSet,
    fetched: Instant,
}

/// Verifies access tokens, with the issuer's keys cached.
pub(crate) struct OAuthVerifier {
    config: OAuthConfig,
    client: Client<hyper_rustls::HttpsConnector<HttpConnector>, Empty<Bytes>>,
    keys: RwLock<Option<Keys>>,
    /// When the keys were last fetched (also on failure): fetches are at least
    /// [`MIN_REFETCH`] apart, so tokens naming unknown keys, or forged under a known one, cannot
    /// flood the issuer (they wait for the next fetch instead). Held while fetching.
    last_fetch: Mutex<Option<Instant>>,
    /// The `jwks_uri` discovery found (without a configured one): the metadata is fetched once,
    /// and again only after a fetch of the keys from it failed.
    discovered: std::sync::Mutex<Option<String>>,
}

/// Keys older than this are fetched again before use.
const KEYS_TTL: Duration = Duration::from_secs(600);
/// The least time between two fetches of the keys.
const MIN_REFETCH: Duration = Duration::from_secs(1);

impl OAuthVerifier {
    pub(super) fn new(config: OAuthConfig) -> Result<Self, String> {
        config.validate()?;
        // TLS with the system's roots and Mozilla's, through ring, set on this client only (the
        // process's default crypto provider is left alone).
        let mut roots = rustls::RootCertStore::empty();
        roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        let native = rustls_native_certs::load_native_certs();
        let _ = roots.add_parsable_certificates(native.certs);
        let tls = rustls::ClientConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("cannot set up TLS for the OAuth issuer: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
        // What `build()` makes, with `TCP_NODELAY` (hyper leaves Nagle's algorithm on): a
        // request's head and a TLS handshake's records go out as written.
        let mut http = HttpConnector::new();
        http.enforce_http(false);
        http.set_nodelay(true);
        let https = hyper_rustls::HttpsConnectorBuilder::new()
            .with_tls_config(tls)
            .https_or_http()
            .enable_http1()
            .wrap_connector(http);
        let client = Client::builder(TokioExecutor::new()).build(https);
        Ok(Self {
            config,
            client,
            keys: RwLock::new(None),
            last_fetch: Mutex::new(None),
            discovered: std::sync::Mutex::new(None),
        })
    }

    pub(super) fn config(&self) -> &OAuthConfig {
        &self.config
    }

    /// The URL of this server's Protected Resource Metadata (RFC 9728 §3.1: the well-known path
    /// inserted before the resource's path).
    pub(super) fn metadata_url(&self) -> String {
        metadata_url(&self.config.resource)
    }

    /// Checks a token; the error says why it is refused.
    pub(super) async fn verify(&self, token: &str) -> Result<Claims, String> {
        let header =
            jsonwebtoken::decode_header(token).map_err(|e| format!("not a signed JWT ({e})"))?;
        if matches!(
            header.alg,
            Algorithm::HS256 | Algorithm::HS384 | Algorithm::HS512
        ) {
            return Err("a symmetric (HS*) signature is not accepted".into());
        }
        let kid = header.kid.as_deref();
        let looked = Instant::now();
        let jwk = match self.cached_key(kid).await {
            Some(jwk) => jwk,
            None => {
                let refreshed = self.refresh(looked).await;
                self.stored_key(kid)
                    .await
                    .ok_or_else(|| unknown_key(kid, refreshed))?
            }
        };
        match self.decode(token, &jwk, header.alg) {
            Err(e) if key_may_have_changed(&e) => {
                // A new key under a `kid` the cache knows, or a rotated only key: fetch the keys
                // again (unless another request did since this one looked), then decide.
                let _ = self.refresh(looked).await;
                match self.stored_key(kid).await {
                    Some(newer) if newer != jwk => self
                        .decode(token, &newer, header.alg)
                        .map_err(|e| self.words(&e)),
                    _ => Err(self.words(&e)),
                }
            }
            decoded => decoded.map_err(|e| self.words(&e)),
        }
    }

    /// The token's claims, if `jwk` signed it and it is for this server and current.
    fn decode(
        &self,
        token: &str,
        jwk: &Jwk,
        alg: Algorithm,
    ) -> Result<Claims, jsonwebtoken::errors::Error> {
        let key = DecodingKey::from_jwk(jwk)?;
        let mut validation = Validation::new(alg);
        validation.leeway = self.config.leeway_s;
        validation.validate_nbf = true;
        validation.set_issuer(&[&self.config.issuer]);
        validation.set_audience(&[&self.config.resource]);
        validation.set_required_spec_claims(&["exp", "iss", "aud"]);
        let c = jsonwebtoken::decode::<RawClaims>(token, &key, &validation)?.claims;
        let scopes = match (c.scope, c.scp) {
            (Some(s), _) => scopes_of(&s),
            (None, Some(list)) => list,
            (None, None) => Vec::new(),
        };
        let issuer = &self.config.issuer;
        // An empty `sub` or `client_id` names nobody, exactly as a missing one: every such token
        // would otherwise be the same principal (one session owner, one rate-limit bucket).
        let named = |claim: Option<String>| claim.filter(|c| !c.is_empty());
        let principal = match (named(c.sub), named(c.client_id)) {
            (Some(sub), _) => Principal::subject(issuer, &sub),
            (None, Some(client)) => Principal::client(issuer, &client),
            // Nobody: every such token would be the same principal. (`sub` is not among the
            // required spec claims, so this kind names this case only; `words` says so.)
            (None, None) => {
                return Err(jsonwebtoken::errors::ErrorKind::MissingRequiredClaim(
                    "sub".to_owned(),
                )
                .into());
            }
        };
        Ok(Claims { principal, scopes })
    }

    /// Why a token is refused, in words.
    fn words(&self, e: &jsonwebtoken::errors::Error) -> String {
        use jsonwebtoken::errors::ErrorKind as K;
        match e.kind() {
            K::ExpiredSignature => "the token has expired".to_owned(),
            K::ImmatureSignature => "the token is not valid yet (nbf)".to_owned(),
            K::InvalidAudience => format!(
                "the token is not for this server (its audience must be {})",
                self.config.resource
            ),
            K::InvalidIssuer => format!("the token was not issued by {}", self.config.issuer),
            K::InvalidSignature => "the token's signature does not verify".to_owned(),
            K::MissingRequiredClaim(c) if c == "sub" => {
                "the token names no subject (`sub`) and no client (`client_id`); an empty one \
                 names nobody"
                    .to_owned()
            }
            K::MissingRequiredClaim(c) => format!("the token has no `{c}` claim"),
            K::InvalidAlgorithm => "the token's algorithm does not match its key".to_owned(),
            K::InvalidKeyFormat
            | K::InvalidRsaKey(_)
            | K::InvalidEcdsaKey
            | K::InvalidEddsaKey
            | K::MissingAlgorithm => format!("the issuer's key is unusable ({e})"),
            other => format!("the token is invalid ({other:?})"),
        }
    }

    /// The key a token names, from keys fetched less than [`KEYS_TTL`] ago.
    async fn cached_key(&self, kid: Option<&str>) -> Option<Jwk> {
        let keys = self.keys.read().await;
        let k = keys.as_ref()?;
        (k.fetched.elapsed() < KEYS_TTL)
            .then(|| find(&k.set, kid).cloned())
            .flatten()
    }

    /// The key a token names, from the keys last fetched, stale or not: an issuer that is down
    /// for a moment must not lock every client out.
    async fn stored_key(&self, kid: Option<&str>) -> Option<Jwk> {
        let keys = self.keys.read().await;
        keys.as_ref().and_then(|k| find(&k.set, kid)).cloned()
    }

    /// Fetches the keys again, unless another request did since `looked`; at most every
    /// [`MIN_REFETCH`] (a request that needs them sooner waits for that moment).
    async fn refresh(&self, looked: Instant) -> Result<(), String> {
        let mut last = self.last_fetch.lock().await;
        if let Some(at) = *last {
            if at >= looked {
                return Ok(()); // fetched while this request waited for the lock
            }
            tokio::time::sleep_until((at + MIN_REFETCH).into()).await;
        }
        *last = Some(Instant::now());
        let discovered = self.config.jwks_uri.is_none();
        let jwks_uri = match &self.config.jwks_uri {
            Some(u) => u.clone(),
            None => {
                let cached = self.discovered_uri().clone();
                match cached {
                    Some(u) => u,
                    None => {
                        let u = self.discover_jwks_uri().await?;
                        *self.discovered_uri() = Some(u.clone());
                        u
                    }
                }
            }
        };
        let set: JwkSet = match self.get_json(&jwks_uri).await {
            Ok(set) => set,
            Err(e) => {
                if discovered {
                    // The issuer may have moved its keys: ask its metadata again next time.
                    *self.discovered_uri() = None;
                }
                return Err(e);
            }
        };
        tracing::info!(keys = set.keys.len(), %jwks_uri, "fetched the OAuth issuer's keys");
        *self.keys.write().await = Some(Keys {
            set,
            fetched: Instant::now(),
        });
        Ok(())
    }

    fn discovered_uri(&self) -> std::sync::MutexGuard<'_, Option<String>> {
        self.discovered
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The `jwks_uri` from the issuer's metadata (RFC 8414, then OpenID Connect discovery).
    async fn discover_jwks_uri(&self) -> Result<String, String> {
        #[derive(Deserialize)]
        struct Metadata {
            issuer: String,
            jwks_uri: Option<String>,
        }
        let issuer = self.config.issuer.trim_end_matches('/');
        let mut last_error = String::new();
        for path in [
            "/.well-known/oauth-authorization-server",
            "/.well-known/openid-configuration",
        ] {
            match self.get_json::<Metadata>(&format!("{issuer}{path}")).await {
                Ok(m) if m.issuer.trim_end_matches('/') != issuer => {
                    return Err(format!(
                        "the issuer's metadata names another issuer, {}",
                        echo(&m.issuer)
                    ));
                }
                Ok(Metadata {
                    jwks_uri: Some(uri),
                    ..
                }) => {
                    // The rule a configured `--oauth-jwks-uri` obeys (plain http could be
                    // answered by anyone on the path, with keys of their own).
                    if let Err(e) = check_url("JWKS URI in the issuer's metadata", &uri) {
                        tracing::error!(
                            metadata = %format!("{issuer}{path}"),
                            "refusing to fetch keys: {e}; no token is accepted until the issuer's metadata names an acceptable one"
                        );
                        return Err(e);
                    }
                    return Ok(uri);
                }
                Ok(_) => last_error = format!("the metadata at {issuer}{path} has no jwks_uri"),
                Err(e) => last_error = e,
            }
        }
        Err(last_error)
    }

    async fn get_json<T: serde::de::DeserializeOwned>(&self, url: &str) -> Result<T, String> {
        let uri: axum::http::Uri = url
            .parse()
            .map_err(|e| format!("`{url}` is not a URI: {e}"))?;
        let request = axum::http::Request::get(uri)
            .header("accept", "application/json")
            .body(Empty::new())
            .map_err(|e| format!("cannot ask {url}: {e}"))?;
        let fetch = async {
            let response = self
                .client
                .request(request)
                .await
                .map_err(|e| format!("cannot reach {url}: {e}"))?;
            if !response.status().is_success() {
                return Err(format!("{url} answered {}", response.status()));
            }
            Limited::new(response.into_body(), 1 << 20)
                .collect()
                .await
                .map(|b| b.to_bytes())
                .map_err(|e| format!("cannot read {url} (at most 1 MiB): {e}"))
        };
        let bytes = tokio::time::timeout(Duration::from_secs(10), fetch)
            .await
            .map_err(|_| format!("{url} did not answer within 10 s"))??;
        serde_json::from_slice(&bytes)
            .map_err(|e| format!("{url} did not send the expected JSON: {e}"))
    }
}

/// The scopes of a `scope` claim: separated by spaces (U+0020) only, as RFC 6749 §3.3 and
/// RFC 9068 §2.2.3 say. Any other character, a tab or a no-break space (U+00A0) too, is part of
/// a scope: `"arm:read\u{a0}arm:move"` is one scope, which grants neither `arm:read` nor
/// `arm:move`. Runs of spaces separate once (no empty scope).
fn scopes_of(claim: &str) -> Vec<String> {
    claim
        .split(' ')
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Why no key was found for a token naming `kid`, after the keys were fetched (`refreshed`).
fn unknown_key(kid: Option<&str>, refreshed: Result<(), String>) -> String {
    match (refreshed, kid) {
        (Err(e), _) => format!("the issuer's keys cannot be fetched: {e}"),
        (Ok(()), Some(kid)) => format!(
            "the token is signed with key {}, which the issuer does not publish",
            echo(kid)
        ),
        (Ok(()), None) => {
            "the token names no key (`kid`) and the issuer publishes several".to_owned()
        }
    }
}

/// Whether a token refused with `e` might verify with keys fetched again: its signature, or its
/// algorithm, does not match the cached key of its `kid` (a new key under an old `kid`, or a
/// rotated only key), or that key is unusable.
fn key_may_have_changed(e: &jsonwebtoken::errors::Error) -> bool {
    use jsonwebtoken::errors::ErrorKind as K;
    matches!(
        e.kind(),
        K::InvalidSignature
            | K::InvalidAlgorithm
            | K::InvalidKeyFormat
            | K::InvalidRsaKey(_)
            | K::InvalidEcdsaKey
            | K::InvalidEddsaKey
    )
}

/// The key named `kid`, or the only signing key when the token names none.
fn find<'a>(set: &'a JwkSet, kid: Option<&str>) -> Option<&'a Jwk> {
    match kid {
        Some(kid) => set.find(kid),
        None if set.keys.len() == 1 => set.keys.first(),
        None => None,
    }
}

/// `https://host/.well-known/oauth-protected-resource/mcp` for `https://host/mcp`.
pub(crate) fn metadata_url(resource: &str) -> String {
    match Url::parse(resource) {
        Ok(url) => {
            let path = url.path().trim_end_matches('/');
            format!(
                "{}/.well-known/oauth-protected-resource{path}",
                url.origin().ascii_serialization()
            )
        }
        Err(_) => format!("{resource}/.well-known/oauth-protected-resource"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metadata_url_inserts_the_well_known_path() {
        assert_eq!(
            metadata_url("https://arm.lab.example/mcp"),
            "https://arm.lab.example/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(
            metadata_url("http://127.0.0.1:8080/"),
            "http://127.0.0.1:8080/.well-known/oauth-protected-resource"
        );
    }

    #[test]
    fn urls_must_be_https_off_loopback() {
        assert!(
            OAuthConfig::new("https://auth.example", "https://arm.example/mcp")
                .validate()
                .is_ok()
        );
        assert!(
            OAuthConfig::new("http://127.0.0.1:9000", "http://localhost:8080/mcp")
                .validate()
                .is_ok()
        );
        let e = OAuthConfig::new("http://auth.example", "https://arm.example/mcp")
            .validate()
            .unwrap_err();
        assert!(e.contains("must use https"), "{e}");
        assert!(
            OAuthConfig::new("https://auth.example", "https://arm.example/mcp#x")
                .validate()
                .is_err()
        );
        assert!(
            OAuthConfig::new("auth", "https://arm.example/mcp")
                .validate()
                .is_err()
        );
    }
}
