import { createSecretBox, type SecretBox } from "./crypto/secret-box";
import { env } from "./env";
import { createAddressPolicy, type AddressPolicy } from "./ssrf/ip-policy";

// Process-wide services built once from the config. Domain code receives them from here so
// that the wiring (which key, which allow-list) lives in one place.

let box: SecretBox | undefined;
let policy: AddressPolicy | undefined;

export function secretBox(): SecretBox {
  box ??= createSecretBox(env().HERALD_ENCRYPTION_KEY);
  return box;
}

export function addressPolicy(): AddressPolicy {
  policy ??= createAddressPolicy(env().HERALD_ALLOW_PRIVATE_NETWORKS);
  return policy;
}
