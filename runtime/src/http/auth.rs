//! Who may call over HTTP, as the MCP authorization spec describes a resource server: a static
//! bearer token (compared in constant time), or OAuth 2.1 access tokens (JWTs verified against
//! the authorization server's keys, `oauth.rs`), with the `WWW-Authenticate` challenges that
//! tell a client how to get one, and the scope check of each tool (`#[tool(scopes = [..])]`).

use std::sync::Arc;

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use subtle::ConstantTimeEq as _;

#[cfg(feature = "oauth")]
use super::oauth::OAuthVerifier;
use super::principal::Principal;

/// How callers prove who they are.
#[derive(Clone, Default)]
pub(crate) enum Authentication {
    /// Nobody needs to (loopback, or `insecure_no_auth`).
    #[default]
    None,
    /// `Authorization: Bearer <secret>`; the token grants every scope.
    Bearer(Arc<[u8]>),
    /// OAuth 2.1 access tokens issued by an authorization server for this resource.
    #[cfg(feature = "oauth")]
    OAuth(Arc<OAuthVerifier>),
}

impl std::fmt::Debug for Authentication {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Authentication::None => "Authentication::None",
            Authentication::Bearer(_) => "Authentication::Bearer(..)",
            #[cfg(feature = "oauth")]
            Authentication::OAuth(_) => "Authentication::OAuth(..)",
        })
    }
}

/// An authenticated caller and the scopes its token grants (`None`: every scope).
#[derive(Debug, Clone)]
pub(crate) struct Caller {
    pub principal: Option<Principal>,
    pub scopes: Option<Vec<String>>,
}

impl Caller {
    fn anonymous() -> Self {
        Caller {
            principal: None,
            scopes: None,
        }
    }

    /// The scopes of `needed` this caller lacks.
    pub(super) fn missing<'a>(&self, needed: &'a [String]) -> Vec<&'a str> {
        match &self.scopes {
            None => Vec::new(),
            Some(granted) => needed
                .iter()
                .filter(|n| !granted.contains(n))
                .map(String::as_str)
                .collect(),
        }
    }
}

/// Why a request was not authenticated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Denied {
    /// No `Authorization: Bearer` header.
    Missing,
    /// A token that is not valid (expired, wrong audience or issuer, bad signature, …); made
    /// by [`Denied::invalid`], so bounded.
    Invalid(String),
}

/// The longest reason a refusal gives (in its body, its `WWW-Authenticate` and the log): a
/// parser's error may quote what the client sent.
const MAX_REASON_BYTES: usize = 300;

impl Denied {
    /// A refused token, `why` cut to [`MAX_REASON_BYTES`] (with its length stated).
    pub(super) fn invalid(why: impl AsRef<str>) -> Self {
        Denied::Invalid(crate::echo::bounded(why.as_ref(), MAX_REASON_BYTES))
    }
}

impl Authentication {
    /// How callers authenticate, for the start-up line.
    pub(super) fn describe(&self) -> String {
        match self {
            Authentication::None => "none".to_owned(),
            Authentication::Bearer(_) => "bearer token".to_owned(),
            #[cfg(feature = "oauth")]
            Authentication::OAuth(verifier) => {
                format!("OAuth (issuer {})", verifier.config().issuer)
            }
        }
    }

    /// Whether requests need a token.
    pub(super) fn required(&self) -> bool {
        !matches!(self, Authentication::None)
    }

    /// The caller, from the request's `Authorization` header.
    pub(super) async fn check(&self, headers: &HeaderMap) -> Result<Caller, Denied> {
        if matches!(self, Authentication::None) {
            return Ok(Caller::anonymous());
        }
        let token = bearer_token(headers).ok_or(Denied::Missing)?;
        match self {
            Authentication::None => Ok(Caller::anonymous()),
            Authentication::Bearer(secret) => {
                if bool::from(token.as_bytes().ct_eq(secret)) {
                    Ok(Caller {
                        principal: Some(Principal::bearer()),
                        scopes: None,
                    })
                } else {
                    Err(Denied::invalid("the token is not the server's"))
                }
            }
            #[cfg(feature = "oauth")]
            Authentication::OAuth(verifier) => {
                // Boxed: verifying (a key set fetched over HTTP when it rotates) is a 2 KB
                // future, and held inline it would grow every request's future by as much
                // (hyper copies that future whole into each connection's slot).
                let claims = Box::pin(verifier.verify(token))
                    .await
                    .map_err(Denied::invalid)?;
                Ok(Caller {
                    principal: Some(claims.principal),
                    scopes: Some(claims.scopes),
                })
            }
        }
    }

    /// The `resource_metadata` URL of the challenge, with OAuth.
    fn resource_metadata(&self) -> Option<String> {
        match self {
            #[cfg(feature = "oauth")]
            Authentication::OAuth(v) => Some(v.metadata_url()),
            _ => None,
        }
    }

    /// `401 Unauthorized` with the challenge that tells the client how to authenticate.
    pub(super) fn unauthorized(&self, denied: &Denied) -> Response {
        let mut params = Vec::new();
        match self.resource_metadata() {
            Some(url) => params.push(format!("resource_metadata=\"{url}\"")),
            None => params.push("realm=\"mcp\"".to_owned()),
        }
        let text = match denied {
            Denied::Missing => {
                "Unauthorized: send an access token in `Authorization: Bearer <token>`".to_owned()
            }
            Denied::Invalid(why) => {
                params.push("error=\"invalid_token\"".to_owned());
                params.push(format!("error_description=\"{}\"", quoted_safe(why)));
                format!("Unauthorized: invalid access token: {why}")
            }
        };
        challenge(StatusCode::UNAUTHORIZED, &params, text)
    }

    /// `403 Forbidden` naming the scopes the token lacks, for the client's step-up.
    pub(super) fn insufficient_scope(
        &self,
        tool: &str,
        needed: &[String],
        missing: &[&str],
    ) -> Response {
        let mut params = vec![
            "error=\"insufficient_scope\"".to_owned(),
            format!("scope=\"{}\"", needed.join(" ")),
        ];
        if let Some(url) = self.resource_metadata() {
            params.push(format!("resource_metadata=\"{url}\""));
        }
        params.push(format!(
            "error_description=\"tool {} needs scope {}\"",
            quoted_safe(tool),
            missing.join(" ")
        ));
        challenge(
            StatusCode::FORBIDDEN,
            &params,
            format!(
                "Forbidden: tool `{tool}` needs scope {}; get a token that includes it",
                missing
                    .iter()
                    .map(|s| format!("`{s}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
    }
}

/// A string as it may appear in a quoted header parameter: printable ASCII, no `"` or `\`.
fn quoted_safe(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '"' | '\\' => '\'',
            c if c.is_ascii_graphic() || c == ' ' => c,
            _ => '?',
        })
        .collect()
}

fn challenge(status: StatusCode, params: &[String], text: String) -> Response {
    let value = format!("Bearer {}", params.join(", "));
    let mut response = (status, text).into_response();
    if let Ok(v) = HeaderValue::from_str(&value) {
        response.headers_mut().insert(header::WWW_AUTHENTICATE, v);
    }
    response
}

/// The token of `Authorization: Bearer <token>` (the scheme is case-insensitive).
fn bearer_token(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(auth: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::AUTHORIZATION, HeaderValue::from_str(auth).unwrap());
        h
    }

    #[tokio::test]
    async fn a_bearer_token_must_match_exactly() {
        let auth = Authentication::Bearer(Arc::from(b"s3cret-token".as_slice()));
        assert!(auth.check(&headers("Bearer s3cret-token")).await.is_ok());
        assert!(auth.check(&headers("bearer  s3cret-token ")).await.is_ok());
        for wrong in [
            "Bearer s3cret-toke",
            "Bearer s3cret-token2",
            "Basic s3cret-token",
            "Bearer ",
        ] {
            assert!(auth.check(&headers(wrong)).await.is_err(), "{wrong}");
        }
        assert_eq!(
            auth.check(&HeaderMap::new()).await.unwrap_err(),
            Denied::Missing
        );
        let r = auth.unauthorized(&Denied::Missing);
        assert_eq!(r.status(), StatusCode::UNAUTHORIZED);
        assert_eq!(
            r.headers()[header::WWW_AUTHENTICATE],
            "Bearer realm=\"mcp\""
        );
    }

    #[test]
    fn scopes_missing_from_a_token() {
        let caller = Caller {
            principal: None,
            scopes: Some(vec!["arm:read".into()]),
        };
        let needed = vec!["arm:move".to_owned(), "arm:read".to_owned()];
        assert_eq!(caller.missing(&needed), ["arm:move"]);
        assert!(Caller::anonymous().missing(&needed).is_empty());
        let r = Authentication::None.insufficient_scope("move_arm_to_pose", &needed, &["arm:move"]);
        assert_eq!(r.status(), StatusCode::FORBIDDEN);
        assert_eq!(
            r.headers()[header::WWW_AUTHENTICATE],
            "Bearer error=\"insufficient_scope\", scope=\"arm:move arm:read\", error_description=\"tool move_arm_to_pose needs scope arm:move\""
        );
    }
}
