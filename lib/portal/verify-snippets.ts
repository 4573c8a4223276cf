// Signature-verification snippets for the portal's "Verify signatures" page: the one source of
// truth for the text shown there, the docs, and the tests that run the Node and Python snippets
// against real deliveries (lib/portal/verify-snippets.integration.test.ts). Pure functions, no
// server imports: the portal page bundles this file.
//
// Every snippet uses only its language's standard library, except where the language has no
// ed25519 in it (Python, Ruby), which is said in `dependencies`.

export type SignatureHeaders = { id: string; timestamp: string; signature: string };
export type SnippetAlgorithm = "hmac_sha256" | "ed25519";
export type SnippetLanguage = "node" | "python" | "go" | "ruby" | "php";

export type Snippet = {
  language: SnippetLanguage;
  label: string;
  filename: string;
  /** How to run it as written (the receiver listens on $PORT and reads the key from $WEBHOOK_SECRET). */
  run: string;
  /** Non-standard-library packages needed, if any. */
  dependencies: string | null;
  code: string;
};

/** Standard Webhooks header names: what Herald sends unless told otherwise. */
export const STANDARD_HEADERS: SignatureHeaders = {
  id: "webhook-id",
  timestamp: "webhook-timestamp",
  signature: "webhook-signature",
};

export const TOLERANCE_SECONDS = 5 * 60;

/** The three mistakes that break most integrations, spelled out on the page and in the docs. */
export const CLASSIC_MISTAKES = [
  {
    title: "Verify every request",
    detail:
      "Check the signature on every call, including handlers that only log or only trigger a refresh. An unverified route is an open door: anyone who finds the URL can post fake events.",
  },
  {
    title: "Verify the raw body, before any JSON parser",
    detail:
      "The signature covers the exact bytes Herald sent. A body that was parsed and serialised again (express.json(), request.json(), a framework's automatic decoding) differs in spacing, key order or number formatting, and will not verify. Read the raw bytes, verify them, then parse.",
  },
  {
    title: "Keep the webhook route out of session middleware",
    detail:
      "Webhooks authenticate with the signature, not a session: exclude the route from login redirects, CSRF protection and session/cookie middleware, or those will reject or redirect Herald's requests before your code runs.",
  },
] as const;

type Ctx = { h: SignatureHeaders; alg: SnippetAlgorithm };

const keyName = (alg: SnippetAlgorithm) => (alg === "ed25519" ? "public key (whpk_…)" : "secret (whsec_…)");

function node({ h, alg }: Ctx): Snippet {
  const keyPart =
    alg === "ed25519"
      ? `import { createPublicKey, verify } from "node:crypto";

// Your endpoint's ${keyName(alg)}: ed25519 means you only hold the public half.
const PUBLIC_KEY = createPublicKey({
  key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(process.env.WEBHOOK_SECRET.replace(/^whpk_/, ""), "base64").toString("base64url") },
  format: "jwk",
});

function signatureMatches(signed, signatures) {
  return signatures.split(" ").some((entry) => {
    const [version, sig] = entry.split(",");
    return version === "v1a" && sig !== undefined && verify(null, signed, PUBLIC_KEY, Buffer.from(sig, "base64"));
  });
}`
      : `import { createHmac, timingSafeEqual } from "node:crypto";

// Your endpoint's ${keyName(alg)}.
const KEY = Buffer.from(process.env.WEBHOOK_SECRET.replace(/^whsec_/, ""), "base64");

function signatureMatches(signed, signatures) {
  const expected = createHmac("sha256", KEY).update(signed).digest();
  return signatures.split(" ").some((entry) => {
    const [version, sig] = entry.split(",");
    if (version !== "v1" || sig === undefined) return false;
    const got = Buffer.from(sig, "base64");
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}`;
  return {
    language: "node",
    label: "Node.js",
    filename: "verify-webhook.mjs",
    run: "WEBHOOK_SECRET=… PORT=3000 node verify-webhook.mjs",
    dependencies: null,
    code: `// Verify Herald webhooks (Standard Webhooks). Node.js 18+, no dependencies.
import { createServer } from "node:http";
${keyPart}

const TOLERANCE_SECONDS = ${TOLERANCE_SECONDS};

/** Throws unless the raw body and headers carry a valid, fresh signature; returns the parsed event. */
export function verifyWebhook(rawBody, headers) {
  const id = headers["${h.id}"];
  const timestamp = headers["${h.timestamp}"];
  const signatures = headers["${h.signature}"];
  if (!id || !timestamp || !signatures) throw new Error("missing webhook headers");
  const ts = Number(timestamp);
  if (!Number.isInteger(ts) || Math.abs(Date.now() / 1000 - ts) > TOLERANCE_SECONDS)
    throw new Error("timestamp too old or in the future");
  const signed = Buffer.concat([Buffer.from(\`\${id}.\${timestamp}.\`), rawBody]);
  if (!signatureMatches(signed, signatures)) throw new Error("no valid signature");
  return JSON.parse(rawBody.toString("utf8")); // parse only after verifying the raw bytes
}

// A complete receiver. With Express, mount it as app.post("/webhooks", express.raw({ type: "*/*" }), …)
// and pass req.body (a Buffer) — never express.json() on this route.
createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    let event;
    try {
      event = verifyWebhook(Buffer.concat(chunks), req.headers);
    } catch (err) {
      res.writeHead(400).end(\`invalid webhook: \${err.message}\`);
      return;
    }
    res.writeHead(204).end(); // acknowledge fast; do the work afterwards (or queue it)
    console.log("verified", req.headers["${h.id}"], event.type ?? "");
  });
}).listen(Number(process.env.PORT ?? 3000));
`,
  };
}

function python({ h, alg }: Ctx): Snippet {
  const imports =
    alg === "ed25519"
      ? `import base64, json, os, time
from http.server import BaseHTTPRequestHandler, HTTPServer

# The standard library has no ed25519: this uses the \`cryptography\` package.
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

# Your endpoint's ${keyName(alg)}.
_raw_key = os.environ["WEBHOOK_SECRET"]
PUBLIC_KEY = Ed25519PublicKey.from_public_bytes(base64.b64decode(_raw_key[5:] if _raw_key.startswith("whpk_") else _raw_key))


def signature_matches(signed: bytes, signatures: str) -> bool:
    for entry in signatures.split(" "):
        version, _, sig = entry.partition(",")
        if version != "v1a":
            continue
        try:
            PUBLIC_KEY.verify(base64.b64decode(sig), signed)
            return True
        except (InvalidSignature, ValueError):
            pass
    return False`
      : `import base64, hashlib, hmac, json, os, time
from http.server import BaseHTTPRequestHandler, HTTPServer

# Your endpoint's ${keyName(alg)}.
_secret = os.environ["WEBHOOK_SECRET"]
KEY = base64.b64decode(_secret[6:] if _secret.startswith("whsec_") else _secret)


def signature_matches(signed: bytes, signatures: str) -> bool:
    expected = base64.b64encode(hmac.new(KEY, signed, hashlib.sha256).digest()).decode()
    for entry in signatures.split(" "):
        version, _, sig = entry.partition(",")
        if version == "v1" and hmac.compare_digest(sig, expected):
            return True
    return False`;
  return {
    language: "python",
    label: "Python",
    filename: "verify_webhook.py",
    run: "WEBHOOK_SECRET=… PORT=3000 python3 verify_webhook.py",
    dependencies: alg === "ed25519" ? "cryptography (pip install cryptography)" : null,
    code: `# Verify Herald webhooks (Standard Webhooks). Python 3.8+, ${alg === "ed25519" ? "plus the cryptography package" : "standard library only"}.
${imports}

TOLERANCE_SECONDS = ${TOLERANCE_SECONDS}


def verify_webhook(raw_body: bytes, headers) -> dict:
    """Raises ValueError unless the raw body and headers carry a valid, fresh signature."""
    msg_id = headers.get("${h.id}")
    timestamp = headers.get("${h.timestamp}")
    signatures = headers.get("${h.signature}")
    if not (msg_id and timestamp and signatures):
        raise ValueError("missing webhook headers")
    if not timestamp.isdigit() or abs(time.time() - int(timestamp)) > TOLERANCE_SECONDS:
        raise ValueError("timestamp too old or in the future")
    if not signature_matches(f"{msg_id}.{timestamp}.".encode() + raw_body, signatures):
        raise ValueError("no valid signature")
    return json.loads(raw_body)  # parse only after verifying the raw bytes


# A complete receiver. In Flask use request.get_data() (not request.json); in Django,
# request.body in a view marked @csrf_exempt.
class WebhookHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        raw_body = self.rfile.read(int(self.headers.get("content-length", 0)))
        try:
            event = verify_webhook(raw_body, self.headers)
        except ValueError as err:
            self.send_response(400)
            self.end_headers()
            self.wfile.write(f"invalid webhook: {err}".encode())
            return
        self.send_response(204)  # acknowledge fast; do the work afterwards (or queue it)
        self.end_headers()
        print("verified", self.headers.get("${h.id}"), event.get("type", ""), flush=True)


if __name__ == "__main__":
    HTTPServer(("127.0.0.1", int(os.environ.get("PORT", "3000"))), WebhookHandler).serve_forever()
`,
  };
}

function go({ h, alg }: Ctx): Snippet {
  const hmacImports = alg === "ed25519" ? `"crypto/ed25519"` : `"crypto/hmac"\n\t"crypto/sha256"`;
  const check =
    alg === "ed25519"
      ? `	// key is your endpoint's ${keyName(alg)}.
	pub, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(key, "whpk_"))
	if err != nil || len(pub) != ed25519.PublicKeySize {
		return errors.New("bad public key")
	}
	for _, entry := range strings.Split(signatures, " ") {
		version, sig, ok := strings.Cut(entry, ",")
		if !ok || version != "v1a" {
			continue
		}
		raw, err := base64.StdEncoding.DecodeString(sig)
		if err == nil && ed25519.Verify(ed25519.PublicKey(pub), signed, raw) {
			return nil
		}
	}`
      : `	// key is your endpoint's ${keyName(alg)}.
	secret, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(key, "whsec_"))
	if err != nil {
		return errors.New("bad secret")
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write(signed)
	expected := mac.Sum(nil)
	for _, entry := range strings.Split(signatures, " ") {
		version, sig, ok := strings.Cut(entry, ",")
		if !ok || version != "v1" {
			continue
		}
		raw, err := base64.StdEncoding.DecodeString(sig)
		if err == nil && hmac.Equal(raw, expected) {
			return nil
		}
	}`;
  return {
    language: "go",
    label: "Go",
    filename: "webhooks.go",
    run: "mount webhooks.Handler(os.Getenv(\"WEBHOOK_SECRET\"), yourFunc) on your mux",
    dependencies: null,
    code: `// Verify Herald webhooks (Standard Webhooks). Go 1.20+, standard library only.
package webhooks

import (
	${hmacImports}
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

const tolerance = ${TOLERANCE_SECONDS} * time.Second

// Verify returns nil when the raw body and headers carry a valid, fresh signature.
func Verify(key string, header http.Header, body []byte) error {
	id := header.Get("${h.id}")
	timestamp := header.Get("${h.timestamp}")
	signatures := header.Get("${h.signature}")
	if id == "" || timestamp == "" || signatures == "" {
		return errors.New("missing webhook headers")
	}
	ts, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return errors.New("bad timestamp")
	}
	if age := time.Since(time.Unix(ts, 0)); age > tolerance || age < -tolerance {
		return errors.New("timestamp too old or in the future")
	}
	signed := append([]byte(id+"."+timestamp+"."), body...)
${check}
	return errors.New("no valid signature")
}

// Handler reads the raw body, verifies it, and only then decodes the JSON.
func Handler(key string, handle func(event map[string]any)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, "cannot read body", http.StatusBadRequest)
			return
		}
		if err := Verify(key, r.Header, body); err != nil {
			http.Error(w, "invalid webhook: "+err.Error(), http.StatusBadRequest)
			return
		}
		var event map[string]any
		if err := json.Unmarshal(body, &event); err != nil {
			http.Error(w, "invalid JSON", http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusNoContent) // acknowledge fast; do the work afterwards
		go handle(event)
	}
}
`,
  };
}

function rackName(header: string) {
  return "HTTP_" + header.toUpperCase().replace(/-/g, "_");
}

function ruby({ h, alg }: Ctx): Snippet {
  const check =
    alg === "ed25519"
      ? `require "ed25519" # gem install ed25519 (Ruby's standard library has no ed25519 verify)

def signature_matches?(signed, signatures, key)
  verify_key = Ed25519::VerifyKey.new(Base64.strict_decode64(key.delete_prefix("whpk_")))
  signatures.split(" ").any? do |entry|
    version, sig = entry.split(",", 2)
    next false unless version == "v1a" && sig
    verify_key.verify(Base64.strict_decode64(sig), signed)
  rescue Ed25519::VerifyError, ArgumentError
    false
  end
end`
      : `def signature_matches?(signed, signatures, key)
  secret = Base64.strict_decode64(key.delete_prefix("whsec_"))
  expected = Base64.strict_encode64(OpenSSL::HMAC.digest("SHA256", secret, signed))
  signatures.split(" ").any? do |entry|
    version, sig = entry.split(",", 2)
    version == "v1" && sig && OpenSSL.secure_compare(sig, expected)
  end
end`;
  return {
    language: "ruby",
    label: "Ruby",
    filename: "verify_webhook.rb",
    run: "use verify_webhook in a Sinatra or Rails controller (example below)",
    dependencies: alg === "ed25519" ? "ed25519 gem" : null,
    code: `# Verify Herald webhooks (Standard Webhooks). Ruby 2.7+${alg === "ed25519" ? ", plus the ed25519 gem" : ", standard library only"}.
require "base64"
require "json"
require "openssl"

TOLERANCE_SECONDS = ${TOLERANCE_SECONDS}

${check}

# Raises ArgumentError unless the raw body and headers carry a valid, fresh signature.
# key: your endpoint's ${keyName(alg)}.
def verify_webhook(raw_body, id, timestamp, signatures, key)
  raise ArgumentError, "missing webhook headers" unless id && timestamp && signatures
  raise ArgumentError, "timestamp too old or in the future" if (Time.now.to_i - Integer(timestamp, 10)).abs > TOLERANCE_SECONDS
  raise ArgumentError, "no valid signature" unless signature_matches?("#{id}.#{timestamp}.#{raw_body}", signatures, key)
  JSON.parse(raw_body) # parse only after verifying the raw bytes
end

# Sinatra. In Rails: request.raw_post, skip_before_action :verify_authenticity_token and your login filter.
post "/webhooks" do
  raw_body = request.body.read
  event = verify_webhook(raw_body, request.env["${rackName(h.id)}"], request.env["${rackName(h.timestamp)}"],
                         request.env["${rackName(h.signature)}"], ENV.fetch("WEBHOOK_SECRET"))
  status 204 # acknowledge fast; do the work afterwards (or queue it)
rescue ArgumentError => e
  halt 400, "invalid webhook: #{e.message}"
end
`,
  };
}

function php({ h, alg }: Ctx): Snippet {
  const check =
    alg === "ed25519"
      ? `    // $key: your endpoint's ${keyName(alg)}; ext-sodium ships with PHP 7.2+.
    $publicKey = base64_decode(preg_replace('/^whpk_/', '', $key), true);
    foreach (explode(' ', $signatures) as $entry) {
        [$version, $sig] = array_pad(explode(',', $entry, 2), 2, '');
        $raw = base64_decode($sig, true);
        if ($version === 'v1a' && $raw !== false && strlen($raw) === SODIUM_CRYPTO_SIGN_BYTES
            && sodium_crypto_sign_verify_detached($raw, "$id.$timestamp.$rawBody", $publicKey)) {
            return json_decode($rawBody, true);
        }
    }`
      : `    // $key: your endpoint's ${keyName(alg)}.
    $secret = base64_decode(preg_replace('/^whsec_/', '', $key), true);
    $expected = base64_encode(hash_hmac('sha256', "$id.$timestamp.$rawBody", $secret, true));
    foreach (explode(' ', $signatures) as $entry) {
        [$version, $sig] = array_pad(explode(',', $entry, 2), 2, '');
        if ($version === 'v1' && hash_equals($expected, $sig)) {
            return json_decode($rawBody, true); // parse only after verifying the raw bytes
        }
    }`;
  return {
    language: "php",
    label: "PHP",
    filename: "webhook.php",
    run: "serve webhook.php as your webhook URL (php -S works for a try-out)",
    dependencies: null,
    code: `<?php
// Verify Herald webhooks (Standard Webhooks). PHP 7.4+, no extra packages.
const TOLERANCE_SECONDS = ${TOLERANCE_SECONDS};

function verify_webhook(string $rawBody, array $headers, string $key): array
{
    $headers = array_change_key_case($headers, CASE_LOWER);
    $id = $headers['${h.id}'] ?? '';
    $timestamp = $headers['${h.timestamp}'] ?? '';
    $signatures = $headers['${h.signature}'] ?? '';
    if ($id === '' || $timestamp === '' || $signatures === '') {
        throw new RuntimeException('missing webhook headers');
    }
    if (!ctype_digit($timestamp) || abs(time() - (int) $timestamp) > TOLERANCE_SECONDS) {
        throw new RuntimeException('timestamp too old or in the future');
    }
${check}
    throw new RuntimeException('no valid signature');
}

// The raw body, read before any framework decodes it (Laravel: $request->getContent(), and
// exclude the route from VerifyCsrfToken and session middleware).
$rawBody = file_get_contents('php://input');
try {
    $event = verify_webhook($rawBody, getallheaders(), getenv('WEBHOOK_SECRET'));
} catch (RuntimeException $e) {
    http_response_code(400);
    echo 'invalid webhook: ', $e->getMessage();
    exit;
}
http_response_code(204); // acknowledge fast; do the work afterwards (or queue it)
`,
  };
}

/** The snippets for one endpoint, with its real header names and signing algorithm. */
export function verifySnippets(opts: { headers?: SignatureHeaders; algorithm: SnippetAlgorithm }): Snippet[] {
  const ctx: Ctx = { h: opts.headers ?? STANDARD_HEADERS, alg: opts.algorithm };
  return [node(ctx), python(ctx), go(ctx), ruby(ctx), php(ctx)];
}
