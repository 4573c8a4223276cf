"use client";
import { useState } from "react";
import { Button } from "../ui/button";
import { CopyButton } from "../ui/copy-button";
import { Dialog } from "../ui/dialog";
import { formatDuration } from "../ui/format";
import { ErrorText } from "../ui/notice";

/** Reveal, copy and rotate the endpoint's signing key, with what rotation does spelled out. */
export function SecretPanel({
  algorithm,
  secret,
  revealing,
  error,
  onReveal,
  onHide,
  canRotate,
  onRotate,
  rotating,
  rotated,
  graceSeconds,
}: {
  algorithm: "hmac_sha256" | "ed25519";
  secret: string | null;
  revealing: boolean;
  error?: string | undefined;
  onReveal: () => void;
  onHide: () => void;
  canRotate: boolean;
  onRotate: () => void;
  rotating: boolean;
  rotated: boolean;
  graceSeconds: number;
}) {
  const [confirming, setConfirming] = useState(false);
  const grace = formatDuration(graceSeconds);
  const what = algorithm === "ed25519" ? "public key" : "signing secret";
  return (
    <section aria-labelledby="secret-heading" className="rounded-lg border border-slate-200 bg-white p-5">
      <h2 id="secret-heading" className="text-base font-semibold">
        {algorithm === "ed25519" ? "Verification key (ed25519)" : "Signing secret"}
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        {algorithm === "ed25519"
          ? "Herald signs with a private key it never shows; verify with this public key (whpk_…). It is not a secret."
          : "Herald signs every delivery with this secret (HMAC-SHA256). Keep it on your server only."}
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code aria-label={what} className="min-w-0 flex-1 truncate rounded bg-slate-100 px-3 py-2 font-mono text-sm">
          {secret ?? "••••••••••••••••••••••••••••••••"}
        </code>
        {secret ? (
          <>
            <CopyButton text={secret} what={what} />
            <Button size="sm" variant="ghost" onClick={onHide}>
              Hide
            </Button>
          </>
        ) : (
          <Button size="sm" onClick={onReveal} disabled={revealing}>
            {revealing ? "Revealing…" : `Reveal ${what}`}
          </Button>
        )}
      </div>
      <ErrorText message={error} className="mt-2 text-sm" />
      {rotated && (
        <p role="status" className="mt-2 text-sm text-green-800">
          Rotated. The previous {what} keeps signing alongside the new one for {grace}.
        </p>
      )}
      {canRotate && (
        <div className="mt-4 border-t border-slate-200 pt-4">
          <Button onClick={() => setConfirming(true)} disabled={rotating}>
            Rotate {what}
          </Button>
        </div>
      )}
      <Dialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title={`Rotate the ${what}?`}
        footer={
          <>
            <Button onClick={() => setConfirming(false)}>Cancel</Button>
            <Button
              variant="primary"
              onClick={() => {
                setConfirming(false);
                onRotate();
              }}
            >
              Rotate now
            </Button>
          </>
        }
      >
        <div className="space-y-2 text-sm text-slate-700">
          <p>Herald generates a new {what} and starts signing with it immediately.</p>
          <p>
            <strong>Overlap window: {grace}.</strong> During that time every delivery carries two signatures in the{" "}
            <code>webhook-signature</code> header, one made with the new key and one with the old, so your server keeps
            verifying with the old {what} until you deploy the new one. After {grace} the old one stops signing.
          </p>
          <p>
            Deploy the new {what} to your server within the window; Standard Webhooks libraries accept a request when
            any signature matches.
          </p>
        </div>
      </Dialog>
    </section>
  );
}
