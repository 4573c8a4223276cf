"use client";
import { useState } from "react";
import { Button } from "../ui/button";
import { ErrorText } from "../ui/notice";

/** "Download OpenAPI": the catalog as an OpenAPI 3.1 document (its webhooks), saved as a file. */
export function DownloadOpenApiButton({ onDownload }: { onDownload: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="flex flex-col items-end gap-1">
      <Button
        disabled={busy}
        title="The catalog as an OpenAPI 3.1 document: one webhooks entry per event type, with schemas, examples and the signature headers"
        onClick={() => {
          setBusy(true);
          setError(null);
          onDownload()
            .catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)))
            .finally(() => setBusy(false));
        }}
      >
        Download OpenAPI
      </Button>
      <ErrorText message={error} />
    </div>
  );
}
