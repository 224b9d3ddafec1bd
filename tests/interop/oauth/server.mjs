// A real OAuth 2.1 authorization server for toolwright's MCP resource-server tests.
//
// Built on oidc-provider (pinned in package-lock.json). It issues RFC 9068 JWT access tokens
// (RS256, `kid` header, typ at+jwt) bound by RFC 8707 resource indicators to the MCP server's URL,
// through client_credentials (pre-registered confidential clients) and authorization code + PKCE
// (dynamic client registration, RFC 7591, with an auto-login/auto-consent interaction so that no
// browser is needed). A few test-only admin endpoints under /__test/ rotate the signing key, change
// the access-token TTL and mint arbitrary (e.g. expired) tokens with the server's keys.
//
// stdout carries exactly one line, a JSON object, once the server is ready; everything else goes
// to stderr. See README.md in this directory for the options and the ready line's fields.

import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import Provider, { errors } from 'oidc-provider';

// oidc-provider prints its notices with console.info (stdout): keep stdout for the ready line.
console.info = (...args) => console.error(...args);
console.log = (...args) => console.error(...args);

const here = path.dirname(fileURLToPath(import.meta.url));

// ------------------------------------------------------------------------------------------------
// Options: command-line flags win over environment variables, which win over the defaults.
// ------------------------------------------------------------------------------------------------

const { values: args } = parseArgs({
  options: {
    host: { type: 'string' },
    port: { type: 'string' },
    resource: { type: 'string', multiple: true },
    ttl: { type: 'string' },
    clients: { type: 'string' },
    scopes: { type: 'string' },
    'scope-policy': { type: 'string' },
    'default-resource': { type: 'string' },
    user: { type: 'string' },
    'exit-on-stdin-eof': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
  strict: true,
});

if (args.help) {
  process.stderr.write(`usage: node server.mjs [options]   (see README.md)
  --host H               OAUTH_HOST                 listen address (127.0.0.1)
  --port N               OAUTH_PORT                 listen port, 0 = any free port (0)
  --resource URI         OAUTH_RESOURCE             accepted resource indicator(s); repeat the flag
                                                    or comma-separate; '*' accepts any absolute URI
                                                    (http://127.0.0.1:8080/mcp)
  --ttl SECONDS          OAUTH_ACCESS_TOKEN_TTL     access token lifetime (300)
  --clients FILE         OAUTH_CLIENTS_FILE         static clients (./clients.json)
  --scopes "A B"         OAUTH_SCOPES               resource scopes (union of the clients' scopes)
  --scope-policy P       OAUTH_SCOPE_POLICY         reject | downscope (reject)
  --default-resource URI OAUTH_DEFAULT_RESOURCE     resource used when a token request has none
                                                    (unset: such a request gets no JWT, see README)
  --user ID              OAUTH_TEST_USER            account the auto-login signs in (test-user)
  --exit-on-stdin-eof    OAUTH_EXIT_ON_STDIN_EOF=1  exit when stdin closes (parent died)
`);
  process.exit(0);
}

function opt(flag, env, fallback) {
  if (args[flag] !== undefined) return args[flag];
  if (process.env[env] !== undefined && process.env[env] !== '') return process.env[env];
  return fallback;
}

function fail(message) {
  process.stderr.write(`oauth test server: ${message}\n`);
  process.exit(2);
}

function positiveInt(value, what) {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) fail(`${what} must be a positive integer, got ${value}`);
  return n;
}

const host = opt('host', 'OAUTH_HOST', '127.0.0.1');
const port = Number(opt('port', 'OAUTH_PORT', '0'));
if (!Number.isSafeInteger(port) || port < 0 || port > 65535) fail(`bad port ${port}`);

const resources = (args.resource ?? [process.env.OAUTH_RESOURCE || 'http://127.0.0.1:8080/mcp'])
  .flatMap((r) => r.split(','))
  .map((r) => r.trim())
  .filter(Boolean);
for (const r of resources) {
  if (r !== '*' && !URL.canParse(r)) fail(`resource ${r} is not an absolute URI`);
}
const primaryResource = resources.find((r) => r !== '*') ?? 'http://127.0.0.1:8080/mcp';

const scopePolicy = opt('scope-policy', 'OAUTH_SCOPE_POLICY', 'reject');
if (!['reject', 'downscope'].includes(scopePolicy)) fail(`scope policy must be reject or downscope, got ${scopePolicy}`);

const defaultResource = opt('default-resource', 'OAUTH_DEFAULT_RESOURCE', undefined);
const testUser = opt('user', 'OAUTH_TEST_USER', 'test-user');
const exitOnStdinEof = args['exit-on-stdin-eof'] || process.env.OAUTH_EXIT_ON_STDIN_EOF === '1';

const clientsFile = path.resolve(opt('clients', 'OAUTH_CLIENTS_FILE', path.join(here, 'clients.json')));
let clientsDoc;
try {
  clientsDoc = JSON.parse(fs.readFileSync(clientsFile, 'utf8'));
} catch (e) {
  fail(`cannot read clients file ${clientsFile}: ${e.message}`);
}
const clientList = Array.isArray(clientsDoc) ? clientsDoc : clientsDoc.clients;
if (!Array.isArray(clientList)) fail(`${clientsFile}: expected {"clients": [...]}`);

// Resource scopes each static client may get (by client_id).
const allowedScopes = new Map(
  clientList.map((c) => [c.client_id, (c.scope ?? '').split(' ').filter(Boolean)]),
);
const resourceScopes = [...new Set(
  (opt('scopes', 'OAUTH_SCOPES', undefined)?.split(/[ ,]+/) ?? [])
    .concat([...allowedScopes.values()].flat())
    .filter(Boolean),
)];

// oidc-provider metadata of the static clients: confidential, client_secret_basic by default,
// client_credentials only unless the entry has redirect_uris. Any other client metadata in the
// file is passed through as is.
const staticClients = clientList.map((c) => {
  if (!c.client_id || !c.client_secret) fail(`${clientsFile}: each client needs client_id and client_secret`);
  const withRedirects = Array.isArray(c.redirect_uris) && c.redirect_uris.length > 0;
  const meta = {
    grant_types: withRedirects ? ['authorization_code', 'refresh_token', 'client_credentials'] : ['client_credentials'],
    response_types: withRedirects ? ['code'] : [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic',
    ...c,
  };
  // reject: oidc-provider itself answers invalid_scope for a scope outside the client's `scope`.
  // downscope: no `scope` metadata; getResourceServerInfo drops the scopes the client may not have.
  if (scopePolicy === 'downscope') delete meta.scope;
  return meta;
});

// ------------------------------------------------------------------------------------------------
// Keys: RSA 2048, RS256. state.keys is newest first; keys[0] signs, all of them are published.
// ------------------------------------------------------------------------------------------------

let keySeq = 0;
function newKey() {
  keySeq += 1;
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = `test-key-${keySeq}-${crypto.randomBytes(4).toString('hex')}`;
  return { kid, privateKey, jwk: { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' } };
}

const state = {
  keys: [newKey()],
  retired: new Map(), // kid -> key dropped from the JWKS (kept so /__test/mint can still use it)
  ttl: positiveInt(opt('ttl', 'OAUTH_ACCESS_TOKEN_TTL', '300'), 'access token TTL'),
  provider: undefined,
  handler: undefined,
};
const cookieKeys = [crypto.randomBytes(32).toString('hex')];

// ------------------------------------------------------------------------------------------------
// Storage: oidc-provider's own memory adapter keeps one store per Provider instance, which a
// rebuild (key rotation, below) would lose. This one is module-level, so registered clients,
// sessions, grants and refresh tokens survive rotations.
// ------------------------------------------------------------------------------------------------

const store = new Map(); // key -> { value, expiresAt (ms, or Infinity) }
const grantMembers = new Map(); // grantId -> Set of keys
const GRANTABLE = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode',
  'BackchannelAuthenticationRequest', 'ClientCredentials']);

function storeGet(key) {
  const entry = store.get(key);
  if (!entry) return undefined;
  if (entry.expiresAt <= Date.now()) {
    store.delete(key);
    return undefined;
  }
  return entry.value;
}

function storeSet(key, value, expiresIn) {
  const expiresAt = typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : Infinity;
  store.set(key, { value, expiresAt });
}

class TestAdapter {
  constructor(model) {
    this.model = model;
  }

  key(id) {
    return `${this.model}:${id}`;
  }

  async upsert(id, payload, expiresIn) {
    const key = this.key(id);
    storeSet(key, payload, expiresIn);
    if (this.model === 'Session' && payload.uid) storeSet(`sessionUid:${payload.uid}`, id, expiresIn);
    if (payload.userCode) storeSet(`userCode:${payload.userCode}`, id, expiresIn);
    if (GRANTABLE.has(this.model) && payload.grantId) {
      if (!grantMembers.has(payload.grantId)) grantMembers.set(payload.grantId, new Set());
      grantMembers.get(payload.grantId).add(key);
    }
  }

  async find(id) {
    return storeGet(this.key(id));
  }

  async findByUid(uid) {
    const id = storeGet(`sessionUid:${uid}`);
    return id === undefined ? undefined : this.find(id);
  }

  async findByUserCode(userCode) {
    const id = storeGet(`userCode:${userCode}`);
    return id === undefined ? undefined : this.find(id);
  }

  async consume(id) {
    const value = storeGet(this.key(id));
    if (value) value.consumed = Math.floor(Date.now() / 1000);
  }

  async destroy(id) {
    store.delete(this.key(id));
  }

  async revokeByGrantId(grantId) {
    for (const key of grantMembers.get(grantId) ?? []) store.delete(key);
    grantMembers.delete(grantId);
  }
}

// ------------------------------------------------------------------------------------------------
// The provider. It is rebuilt, on the same HTTP server and so the same issuer URL, whenever the
// keys change: oidc-provider reads its JWKS once, at construction. TestAdapter's storage outlives
// the instances.
// ------------------------------------------------------------------------------------------------

function buildProvider(issuer) {
  const provider = new Provider(issuer, {
    adapter: TestAdapter,
    jwks: { keys: state.keys.map((k) => ({ ...k.jwk })) },
    clients: structuredClone(staticClients),
    scopes: ['openid', 'offline_access', ...resourceScopes],
    cookies: { keys: cookieKeys },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    responseTypes: ['code'], // OAuth 2.1: no implicit or hybrid flows
    pkce: { required: () => true },
    clientBasedCORS: () => true,
    ttl: {
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? state.ttl,
      ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? state.ttl,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 600,
      Session: 24 * 3600,
      Grant: 24 * 3600,
      RefreshToken: 24 * 3600,
    },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx, _client, oneOf) => {
          if (oneOf) return oneOf.includes(primaryResource) ? primaryResource : oneOf[0];
          return defaultResource;
        },
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource, client) => {
          if (!resources.includes('*') && !resources.includes(resource)) {
            throw new errors.InvalidTarget(`unknown resource indicator ${resource}`);
          }
          let scopes = allowedScopes.get(client?.clientId);
          if (scopes === undefined) {
            // A dynamically registered client: the scopes it registered, else all of them.
            scopes = client?.scope ? client.scope.split(' ').filter((s) => resourceScopes.includes(s)) : resourceScopes;
          }
          return {
            scope: scopes.join(' '),
            audience: resource,
            accessTokenFormat: 'jwt',
            accessTokenTTL: state.ttl,
            jwt: { sign: { alg: 'RS256', kid: state.keys[0].kid } },
          };
        },
      },
    },
  });
  for (const event of ['server_error', 'grant.error', 'authorization.error', 'registration_create.error', 'introspection.error']) {
    provider.on(event, (_ctx, err) => {
      process.stderr.write(`oauth test server: ${event}: ${err?.error ?? ''} ${err?.error_description ?? err?.message ?? err}\n`);
    });
  }
  state.provider = provider;
  state.handler = provider.callback();
}

// ------------------------------------------------------------------------------------------------
// HTTP: admin endpoints, the headless interaction, and everything else to oidc-provider.
// ------------------------------------------------------------------------------------------------

function sendJson(res, status, body) {
  const data = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(data);
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function signJwt(header, payload, privateKey) {
  const enc = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const input = `${enc(header)}.${enc(payload)}`;
  if (header.alg === 'none') return `${input}.`;
  return `${input}.${crypto.sign('sha256', Buffer.from(input), privateKey).toString('base64url')}`;
}

function publicState(issuer) {
  return {
    issuer,
    signing_kid: state.keys[0].kid,
    published_kids: state.keys.map((k) => k.kid),
    retired_kids: [...state.retired.keys()],
    access_token_ttl: state.ttl,
    resources,
    scopes: resourceScopes,
    scope_policy: scopePolicy,
  };
}

async function admin(req, res, url, issuer) {
  const route = url.pathname.slice('/__test/'.length);
  if (route === 'state' && req.method === 'GET') {
    return sendJson(res, 200, publicState(issuer));
  }
  if (req.method !== 'POST') return sendJson(res, 405, { error: 'use POST' });

  if (route === 'rotate') {
    // New key first (it signs from now on); the old ones stay published unless drop_old=1.
    const previous = state.keys.map((k) => k.kid);
    const key = newKey();
    if (['1', 'true', 'yes'].includes(url.searchParams.get('drop_old') ?? '')) {
      for (const k of state.keys) state.retired.set(k.kid, k);
      state.keys = [key];
    } else {
      state.keys = [key, ...state.keys];
    }
    buildProvider(issuer);
    process.stderr.write(`oauth test server: rotated signing key to ${key.kid}, published ${state.keys.map((k) => k.kid).join(' ')}\n`);
    return sendJson(res, 200, { kid: key.kid, previous_kids: previous, ...publicState(issuer) });
  }

  if (route === 'ttl') {
    const ttl = positiveIntOr400(url.searchParams.get('seconds'));
    if (ttl === undefined) return sendJson(res, 400, { error: 'seconds must be a positive integer' });
    state.ttl = ttl;
    return sendJson(res, 200, publicState(issuer));
  }

  if (route === 'mint') {
    // Sign arbitrary claims with one of the server's keys: for tokens the real flows cannot
    // produce (already expired, wrong iss/aud, unknown kid, alg none...). Body (all optional):
    // {"claims": {...}, "header": {...}, "key": "current" | "unpublished" | KID}; a claim or
    // header value of null removes it.
    let body = {};
    const text = await readBody(req);
    if (text.trim()) {
      try { body = JSON.parse(text); } catch { return sendJson(res, 400, { error: 'body must be JSON' }); }
    }
    let key;
    const which = body.key ?? 'current';
    if (which === 'current') key = state.keys[0];
    else if (which === 'unpublished') key = newKeyUnpublished();
    else key = state.keys.find((k) => k.kid === which) ?? state.retired.get(which);
    if (!key) return sendJson(res, 400, { error: `no key ${which}` });
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      iss: issuer,
      sub: 'arm-operator',
      client_id: 'arm-operator',
      aud: primaryResource,
      scope: resourceScopes.join(' '),
      jti: crypto.randomBytes(12).toString('base64url'),
      iat: now,
      exp: now + state.ttl,
      ...body.claims,
    };
    const header = { alg: 'RS256', typ: 'at+jwt', kid: key.kid, ...body.header };
    for (const o of [claims, header]) for (const [k, v] of Object.entries(o)) if (v === null) delete o[k];
    return sendJson(res, 200, { access_token: signJwt(header, claims, key.privateKey), header, claims });
  }

  return sendJson(res, 404, { error: `no admin route ${url.pathname}` });
}

function positiveIntOr400(value) {
  const n = Number(value);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

let unpublishedKey;
function newKeyUnpublished() {
  // One key that is never in the JWKS, with a kid of its own.
  if (!unpublishedKey) {
    const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    unpublishedKey = { kid: `unpublished-${crypto.randomBytes(4).toString('hex')}`, privateKey };
  }
  return unpublishedKey;
}

// The "user agent" side of the authorization code flow without a browser: every interaction
// (login, then consent) is completed at once for the test user, who consents to everything the
// client asked for. A client following redirects with a cookie jar goes /auth -> /interaction/x
// -> /auth/x -> /interaction/y -> /auth/y -> redirect_uri?code=...&state=...
async function interaction(req, res) {
  const { provider } = state;
  const details = await provider.interactionDetails(req, res);
  const { prompt, params, session } = details;
  if (prompt.name === 'login') {
    const accountId = typeof params.login_hint === 'string' && params.login_hint ? params.login_hint : testUser;
    return provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
  }
  if (prompt.name === 'consent') {
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
    const { missingOIDCScope, missingOIDCClaims, missingResourceScopes } = prompt.details;
    if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '));
    if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    const grantId = await grant.save();
    return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }
  return provider.interactionFinished(req, res, {
    error: 'access_denied',
    error_description: `the test server does not handle the ${prompt.name} prompt`,
  }, { mergeWithLastSubmission: false });
}

const server = http.createServer();
server.listen(port, host, () => {
  const address = server.address();
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const issuer = `http://${urlHost}:${address.port}`;
  buildProvider(issuer);

  server.on('request', async (req, res) => {
    try {
      const url = new URL(req.url, issuer);
      if (url.pathname.startsWith('/__test/')) return await admin(req, res, url, issuer);
      if (url.pathname.startsWith('/interaction/')) return await interaction(req, res);
      return state.handler(req, res);
    } catch (e) {
      process.stderr.write(`oauth test server: ${req.method} ${req.url}: ${e.stack ?? e}\n`);
      if (!res.headersSent) sendJson(res, 500, { error: 'server_error', error_description: String(e.message ?? e) });
      else res.end();
    }
  });

  process.stdout.write(`${JSON.stringify({
    issuer,
    authorization_endpoint: `${issuer}/auth`,
    token_endpoint: `${issuer}/token`,
    jwks_uri: `${issuer}/jwks`,
    registration_endpoint: `${issuer}/reg`,
    introspection_endpoint: `${issuer}/token/introspection`,
    revocation_endpoint: `${issuer}/token/revocation`,
    admin_url: `${issuer}/__test`,
    resource: primaryResource,
    resources,
    scopes: resourceScopes,
    kid: state.keys[0].kid,
    access_token_ttl: state.ttl,
    pid: process.pid,
  })}\n`);
});
server.on('error', (e) => fail(`cannot listen on ${host}:${port}: ${e.message}`));

function shutdown() {
  server.close();
  server.closeAllConnections();
  process.exit(0);
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
if (exitOnStdinEof) {
  process.stdin.on('end', shutdown);
  process.stdin.on('error', shutdown);
  process.stdin.resume();
}
