import { verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { Webhook as SvixWebhook } from "svix";
import { ed25519PublicKey, generateEd25519Keys, generateWebhookSecret } from "./secrets";
import { signature, signWebhook } from "./sign";

describe("Standard Webhooks signing", () => {
  it("reproduces the published test vector", () => {
    const sig = signature(
      "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      "msg_p5jXN8AQM9LWM0D4loKWxJek",
      1614265330,
      Buffer.from('{"test": 2432232314}'),
    );
    expect(sig).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("signs with every key of a rotation window, and both libraries accept either secret", () => {
    const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const body = JSON.stringify({ hello: "wörld" });
    const headers = signWebhook({ id: "msg_1", body, secrets: [current, previous] });
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(headers["svix-signature"]).toBe(headers["webhook-signature"]);
    for (const secret of [current, previous]) {
      expect(new StandardWebhook(secret).verify(body, headers)).toEqual({ hello: "wörld" });
      expect(new SvixWebhook(secret).verify(body, headers)).toEqual({ hello: "wörld" });
    }
    expect(() => new StandardWebhook(generateWebhookSecret()).verify(body, headers)).toThrow();
  });

  it("signs ed25519 keys as v1a, verifiable with the public key", () => {
    const { secretKey, publicKey } = generateEd25519Keys();
    const body = Buffer.from('{"a":1}');
    const headers = signWebhook({ id: "msg_2", body, secrets: [secretKey], timestamp: 1700000000 });
    const sig = headers["webhook-signature"]!;
    expect(sig.startsWith("v1a,")).toBe(true);
    const content = Buffer.from(`msg_2.1700000000.${body.toString()}`);
    expect(verify(null, content, ed25519PublicKey(publicKey), Buffer.from(sig.slice(4), "base64"))).toBe(true);
    expect(
      verify(null, Buffer.from("tampered"), ed25519PublicKey(publicKey), Buffer.from(sig.slice(4), "base64")),
    ).toBe(false);
  });
});
